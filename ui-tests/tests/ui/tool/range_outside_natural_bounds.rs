#![allow(unused_variables)]

// Both ends of a range outside `i8`, each reported at its literal.
#[tooldef::tool]
fn offset(#[param(range = -129..=128)] n: i8) {}

fn main() {}
