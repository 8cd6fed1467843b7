#![allow(unused_variables)]

// The type decides, not its name: an alias of `u8` is checked as `u8`, and named as written.
type Count = Option<u8>;

#[tooldef::tool]
fn days(#[param(default = 300)] n: Count) {}

fn main() {}
