#[tooldef::tool(read_only, read_only = false)]
fn search() {}

fn main() {}
