#![allow(unused_variables)]

#[tooldef::tool]
fn echo<T: serde::de::DeserializeOwned>(value: T) {
    let _ = value;
}

fn main() {}
