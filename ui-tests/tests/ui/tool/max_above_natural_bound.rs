#![allow(unused_variables)]

// A fractional bound is rounded inwards first: 65535.5 would be 65535, 65536.5 is 65536.
#[tooldef::tool]
fn port(#[param(max = 65536.5)] n: u16) {}

fn main() {}
