#![allow(unused_variables)]

#[tooldef::tool]
fn search(#[param(read_only)] q: String) {}

fn main() {}
