#![allow(unused_variables)]

#[tooldef::tool]
fn search(#[param(descripton = "what")] q: String) {}

fn main() {}
