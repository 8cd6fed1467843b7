#![allow(unused_variables)]

// `type` names the generated type with an identifier; a string gets a hint to unquote it.
#[tooldef::tool(type = "WeatherTool")]
fn get_weather(city: String) {}

fn main() {}
