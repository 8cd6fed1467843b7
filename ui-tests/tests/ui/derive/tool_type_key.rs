// `#[derive(Tool)]` implements `Tool` for the struct itself: there is no type to name.
#[derive(serde::Deserialize, tooldef::Tool)]
#[tool(type = Lookup)]
struct Search {
    query: String,
}

impl tooldef::RunTool for Search {
    type Output = String;

    async fn run(self) -> Result<String, tooldef::ToolError> {
        Ok(self.query)
    }
}

fn main() {}
