#![allow(unused_variables)]

#[derive(serde::Deserialize)]
struct Opaque {
    _x: u8,
}

#[tooldef::tool]
fn take(thing: Opaque) {
    let _ = thing;
}

fn main() {}
