#![allow(unused_variables)]

#[tooldef::tool]
fn search(#[param(min = 1, min = 2)] n: u8) {}

fn main() {}
