//! The example MCP server binary on its own, driven by tooldef's client: it starts, lists its
//! one tool and answers a call. (This test also makes cargo build the binary that the
//! `mcp_host_loop` example starts.)

use std::time::Duration;

use serde_json::json;
use tooldef::{Executor, ToolCall};
use tooldef_mcp::client::{ClientOptions, McpClient};

#[tokio::test]
async fn the_units_server_lists_and_answers() {
    let deadline = Duration::from_secs(30);
    let command = tokio::process::Command::new(env!("CARGO_BIN_EXE_units_server"));
    let client =
        tokio::time::timeout(deadline, McpClient::spawn(command, ClientOptions::default()))
            .await
            .expect("start within the deadline")
            .expect("the server starts");
    let imported = tokio::time::timeout(deadline, client.import()).await.unwrap().unwrap();
    let names: Vec<_> = imported.tools.iter().map(|t| t.remote_name()).collect();
    assert_eq!(names, ["convert_length"]);
    let call =
        ToolCall::new("1", "convert_length", json!({"value": 1, "from": "mile", "to": "foot"}));
    let result = tokio::time::timeout(deadline, imported.tools[0].execute(&call)).await.unwrap();
    assert_eq!(result.structured, Some(json!({"value": 5280.0, "unit": "foot"})));
    client.close();
}
