#![allow(unused_variables)]

#[tooldef::tool]
fn scale(#[param(default = true)] factor: f64) {}

fn main() {}
