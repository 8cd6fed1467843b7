#![allow(unused_variables)]

#[tooldef::tool]
fn pick(#[param(one_of = ["a", "b"], default = "c")] s: String) {}

fn main() {}
