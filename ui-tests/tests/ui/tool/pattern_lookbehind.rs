#![allow(unused_variables)]

#[tooldef::tool]
fn find(#[param(pattern = "(?<=a)b")] s: String) {}

fn main() {}
