//! The `tooldef` command (in progress).
fn main() {}
