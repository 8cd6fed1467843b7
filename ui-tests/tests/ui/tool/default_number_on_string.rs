#![allow(unused_variables)]

#[tooldef::tool]
fn greet(#[param(default = 3)] name: String) {}

fn main() {}
