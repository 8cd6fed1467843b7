//! tooldef's MCP client against a server the project did not write: an rmcp `#[tool_router]`
//! server over an in-memory byte stream. Its tools land in a registry with origin MCP, beside
//! a core tool, and calls through the registry reach the server and come back as results.

mod support;

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::schemars::{self, JsonSchema};
use rmcp::{Json, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use serde_json::json;
use support::{echo, within};
use tooldef::dispatch::DynamicTool;
use tooldef::{Content, Origin, Registered, ToolCall, ToolRegistry};
use tooldef_mcp::client::{ClientOptions, McpClient};

#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    /// The first addend.
    a: i32,
    /// The second addend.
    b: i32,
}

#[derive(Serialize, JsonSchema)]
struct Sum {
    sum: i32,
}

#[derive(Deserialize, JsonSchema)]
struct GreetArgs {
    name: String,
}

#[derive(Clone)]
struct Calculator {
    tool_router: ToolRouter<Self>,
}

#[tool_router(router = tool_router)]
impl Calculator {
    fn new() -> Self {
        Calculator { tool_router: Self::tool_router() }
    }

    #[tool(name = "add", description = "Add two integers.")]
    async fn add(&self, Parameters(args): Parameters<AddArgs>) -> Json<Sum> {
        Json(Sum { sum: args.a + args.b })
    }

    #[tool(name = "greet", description = "Greet someone.")]
    async fn greet(&self, Parameters(args): Parameters<GreetArgs>) -> String {
        format!("Hello, {}!", args.name)
    }

    #[tool(name = "refuse", description = "Always fails.")]
    async fn refuse(&self) -> Result<String, String> {
        Err("not today".into())
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Calculator {}

async fn calculator() -> McpClient {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = Calculator::new().serve(theirs).await {
            let _ = running.waiting().await;
        }
    });
    within("connect", McpClient::connect("calculator", ours, ClientOptions::default()))
        .await
        .expect("connects")
}

#[tokio::test]
async fn an_rmcp_servers_tools_are_called_through_a_registry() {
    let client = calculator().await;
    let imported = within("import", client.import()).await.unwrap();
    assert!(imported.skipped.is_empty(), "{:?}", imported.skipped);
    let names: Vec<_> = imported.tools.iter().map(|t| t.remote_name()).collect();
    assert_eq!(names, ["add", "greet", "refuse"]);

    let registry = ToolRegistry::new();
    registry.register(DynamicTool::new_sync(echo(), Ok).into(), Origin::Core).unwrap();
    let outcomes = imported.register(&registry).unwrap();
    assert!(outcomes.iter().all(|(_, r)| *r == Registered::Active));
    assert_eq!(registry.origins("add"), [Origin::Mcp]);
    let snapshot = registry.snapshot();
    let listed: Vec<_> = snapshot.entries().iter().map(|e| e.name().as_str()).collect();
    assert_eq!(listed, ["add", "echo", "greet", "refuse"]);

    let add = snapshot.get("add").unwrap().descriptor();
    assert_eq!(add.description, "Add two integers.");
    let params: Vec<_> = add.params.iter().map(|p| (&*p.name, p.required)).collect();
    assert_eq!(params, [("a", true), ("b", true)]);
    assert!(add.output.is_some(), "Json<Sum> declares an output schema");

    let call = ToolCall::new("c1", "add", json!({"a": 2, "b": 3}));
    let result = within("add", snapshot.call(&call)).await;
    assert_eq!((result.is_error, result.structured.clone()), (false, Some(json!({"sum": 5}))));
    assert_eq!((result.call_id.as_str(), result.name.as_str()), ("c1", "add"));

    let call = ToolCall::new("c2", "greet", json!({"name": "Ada"}));
    let result = within("greet", snapshot.call(&call)).await;
    assert_eq!(result.content, [Content::Text { text: "Hello, Ada!".into() }]);

    let result = within("refuse", snapshot.call(&ToolCall::new("c3", "refuse", json!({})))).await;
    assert_eq!((result.is_error, result.text()), (true, "not today".to_owned()));
    client.close();
}

#[tokio::test]
async fn arguments_are_checked_before_they_are_sent() {
    let client = calculator().await;
    let imported = within("import", client.import()).await.unwrap();
    let add = Arc::clone(&imported.tools[0]);
    let call = ToolCall::new("c1", "add", json!({"a": "two", "b": 3}));
    let result = within("add", tooldef::Executor::execute(&*add, &call)).await;
    assert!(result.is_error);
    assert_eq!(result.text(), r#"invalid arguments for add: /a must be an integer; got "two""#);
}

#[tokio::test]
async fn a_closed_connection_is_an_error_result() {
    let client = calculator().await;
    let imported = within("import", client.import()).await.unwrap();
    client.close();
    let call = ToolCall::new("c1", "greet", json!({"name": "Ada"}));
    let result = within("greet", tooldef::Executor::execute(&*imported.tools[1], &call)).await;
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "MCP server `calculator`: tool greet: the server is gone (its connection closed)"
    );
}
