#![allow(unused_variables)]

#[tooldef::tool]
fn find(#[param(pattern = "([")] s: String) {}

fn main() {}
