#[tooldef::tool(name = "get weather")]
fn get_weather() {}

fn main() {}
