#![allow(unused_variables)]

// A string default on an integer parameter: the error names the parameter and its type.
#[tooldef::tool]
fn days(#[param(default = "ten")] n: u32) {}

fn main() {}
