#![allow(unused_variables)]

#[tooldef::tool]
fn days(#[param(min = -1)] n: u32) {}

fn main() {}
