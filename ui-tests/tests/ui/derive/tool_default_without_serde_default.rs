#[derive(serde::Deserialize, tooldef::Tool)]
struct Search {
    #[param(default = 5)]
    limit: u32,
}

impl tooldef::RunTool for Search {
    type Output = u32;
    async fn run(self) -> Result<u32, tooldef::ToolError> {
        Ok(self.limit)
    }
}

fn main() {}
