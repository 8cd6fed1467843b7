#[tooldef::tool(colour = "red")]
fn search() {}

fn main() {}
