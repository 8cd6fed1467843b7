#![allow(unused_variables)]

#[tooldef::tool]
fn days(#[param(default = 300)] n: u8) {}

fn main() {}
