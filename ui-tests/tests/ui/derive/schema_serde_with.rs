#[derive(serde::Deserialize, tooldef::ToolSchema)]
struct When {
    #[serde(with = "my_format")]
    at: String,
}

mod my_format {
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        serde::Deserialize::deserialize(d)
    }
}

fn main() {}
