#![allow(unused_variables)]

#[tooldef::tool(nmae = "x", titel = "y")]
fn add(#[param(rnage = 1..=2)] a: i64) -> i64 {
    a
}

fn main() {}
