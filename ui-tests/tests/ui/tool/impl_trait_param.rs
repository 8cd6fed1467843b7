#![allow(unused_variables)]

#[tooldef::tool]
fn echo(value: impl serde::de::DeserializeOwned) {
    let _ = value;
}

fn main() {}
