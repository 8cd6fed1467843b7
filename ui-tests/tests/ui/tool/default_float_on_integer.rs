#![allow(unused_variables)]

#[tooldef::tool]
fn days(#[param(default = 2.5)] n: u32) {}

fn main() {}
