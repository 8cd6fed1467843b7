#[derive(serde::Deserialize, tooldef::ToolSchema)]
struct Dup {
    #[serde(rename = "b")]
    a: u8,
    b: u8,
}

fn main() {}
