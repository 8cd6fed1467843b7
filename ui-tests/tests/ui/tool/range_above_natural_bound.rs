#![allow(unused_variables)]

#[tooldef::tool]
fn days(#[param(range = 1..=300)] n: u8) {}

fn main() {}
