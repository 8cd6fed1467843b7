#![allow(unused_variables)]

#[tooldef::tool]
fn days(#[param(default = "three")] n: u8) {}

fn main() {}
