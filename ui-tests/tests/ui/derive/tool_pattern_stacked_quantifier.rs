/// Repeats.
#[derive(serde::Deserialize, tooldef::Tool)]
struct Repeat {
    #[param(pattern = "a{1000}{1000}{1000}")]
    text: String,
}

fn main() {}
