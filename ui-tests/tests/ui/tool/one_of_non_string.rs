#![allow(unused_variables)]

#[tooldef::tool]
fn pick(#[param(one_of = ["1", "2"])] n: u8) {}

fn main() {}
