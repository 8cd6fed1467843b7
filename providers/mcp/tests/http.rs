//! Streamable HTTP on loopback: tooldef's server on 127.0.0.1 (port 0), tooldef's client and
//! rmcp's client talking to it.

mod support;

use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use support::{toolbox, within};
use tooldef::{Executor, ToolCall};
use tooldef_mcp::client::{ClientOptions, McpClient};
use tooldef_mcp::server::McpServer;

async fn serve() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(McpServer::from_toolbox(toolbox(2)).serve_http(listener));
    format!("http://{addr}/mcp")
}

#[tokio::test]
async fn tooldefs_client_uses_tooldefs_server_over_http() {
    let url = serve().await;
    let client =
        within("connect", McpClient::connect_http(&url, ClientOptions::default())).await.unwrap();
    let imported = within("import", client.import()).await.unwrap();
    let names: Vec<_> = imported.tools.iter().map(|t| t.remote_name()).collect();
    assert_eq!(names, ["get_weather", "echo", "fail", "numbered_0", "numbered_1"]);
    let call = ToolCall::new("c1", "get_weather", json!({"city": "Rome"}));
    let result = within("call", imported.tools[0].execute(&call)).await;
    assert_eq!((result.is_error, result.structured), (false, Some(json!({"temp": 21.5}))));
    let call = ToolCall::new("c2", "get_weather", json!({"unit": "celsius"}));
    let bad = within("call", imported.tools[0].execute(&call)).await;
    assert_eq!(bad.text(), "invalid arguments for get_weather: /city is required");
    client.close();
}

#[tokio::test]
async fn rmcps_client_lists_over_http() {
    let url = serve().await;
    let transport = StreamableHttpClientTransport::from_uri(url);
    let client = within("connect", ().serve(transport)).await.unwrap();
    let tools = within("list", client.list_all_tools()).await.unwrap();
    assert_eq!(tools.len(), 5);
    assert_eq!(tools[0].title.as_deref(), Some("Weather"));
    within("close", client.cancel()).await.unwrap();
}
