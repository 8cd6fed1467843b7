#[tooldef::tool(range = 1..=2)]
fn search() {}

fn main() {}
