#![allow(unused_variables)]

#[tooldef::tool]
fn days(#[param(range = 1..=10, default = 11)] n: u8) {}

fn main() {}
