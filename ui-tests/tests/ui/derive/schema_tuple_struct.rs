#[derive(serde::Deserialize, tooldef::ToolSchema)]
struct Pair(u8, u8);

fn main() {}
