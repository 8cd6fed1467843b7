#![allow(unused_variables)]

#[tooldef::tool]
fn pick(#[param(one_of = ["a", "b", "a"])] s: String) {}

fn main() {}
