#[tooldef::tool(nmae = "search")]
fn search() {}

fn main() {}
