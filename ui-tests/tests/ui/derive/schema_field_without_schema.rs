#[derive(serde::Deserialize)]
struct Opaque;

#[derive(serde::Deserialize, tooldef::ToolSchema)]
struct Holder {
    inner: Opaque,
}

fn main() {}
