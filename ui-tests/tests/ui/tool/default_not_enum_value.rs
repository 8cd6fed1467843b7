#![allow(unused_variables)]

#[derive(serde::Deserialize, tooldef::ToolSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

#[tooldef::tool]
fn weather(#[param(default = "kelvin")] unit: Unit) {
    let _ = unit;
}

fn main() {}
