#![allow(unused_variables)]

#[tooldef::tool]
fn echo(value: &str) {
    let _ = value;
}

fn main() {}
