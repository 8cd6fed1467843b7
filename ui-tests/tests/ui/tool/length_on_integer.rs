#![allow(unused_variables)]

#[tooldef::tool]
fn days(#[param(length = 1..=10)] n: u32) {}

fn main() {}
