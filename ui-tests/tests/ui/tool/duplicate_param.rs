#![allow(unused_variables)]

#[tooldef::tool]
fn search(query: String, #[param(name = "query")] q2: String) {}

fn main() {}
