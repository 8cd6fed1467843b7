#![allow(unused_variables, dead_code)]

// A type of the same name as the generated one: the compiler reports the clash at the
// function's name; `#[tool(type = ...)]` is the way out (see `gen.rs`).
struct GetWeather {
    city: String,
}

#[tooldef::tool]
fn get_weather(city: String) {}

fn main() {}
