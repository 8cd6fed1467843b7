#![allow(unused_variables)]

#[tooldef::tool]
fn days(#[param(range = 10..=1)] n: u8) {}

fn main() {}
