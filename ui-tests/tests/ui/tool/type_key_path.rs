#![allow(unused_variables)]

// The generated type is declared where the function is: a path cannot name it.
#[tooldef::tool(type = tools::WeatherTool)]
fn get_weather(city: String) {}

fn main() {}
