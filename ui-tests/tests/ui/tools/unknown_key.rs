struct S;

#[tooldef::tools(crat = tooldef)]
impl S {}

fn main() {}
