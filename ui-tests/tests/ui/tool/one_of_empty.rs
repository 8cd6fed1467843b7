#![allow(unused_variables)]

#[tooldef::tool]
fn pick(#[param(one_of = [])] s: String) {}

fn main() {}
