#![allow(unused_variables)]

#[tooldef::tool]
fn days(#[param(default = -1)] n: u8) {}

fn main() {}
