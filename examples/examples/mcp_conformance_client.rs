//! A client for the official MCP conformance suite's client scenarios
//! (`npx conformance client --command CMD --scenario S`), over `McpClient`: the suite starts a
//! test server, appends its URL as the last argument and names the scenario in
//! `MCP_CONFORMANCE_SCENARIO`.
//!
//! ```text
//! cargo run -p tooldef-examples --example mcp_conformance_client -- http://127.0.0.1:PORT/mcp
//! ```
//!
//! What it does is what a host of tools does: connect, import the server's tools into a
//! `Toolbox`, and call the one the scenario is about (`tools_call`: `add_numbers`; the others
//! the first tool listed, if any). The user behind it accepts every elicitation with the
//! defaults the form offers. `.ci/mcp-conformance.sh` runs it.

#![allow(clippy::print_stdout, clippy::print_stderr)] // an example prints what it does

use serde_json::{Map, Value, json};
use tooldef::context::{Elicitation, ElicitationRequest};
use tooldef::{ToolCall, Toolbox};
use tooldef_mcp::McpVersion;
use tooldef_mcp::client::{ClientOptions, McpClient};

/// A user who accepts what the form proposes: each property's `default`.
async fn accept_defaults(request: ElicitationRequest) -> Elicitation {
    let defaults: Map<String, Value> = request.schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(name, schema)| Some((name.clone(), schema.get("default")?.clone())))
        .collect();
    Elicitation::Accept(defaults)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let url = std::env::args()
        .next_back()
        .filter(|a| a.contains("://"))
        .ok_or("usage: mcp_conformance_client URL")?;
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        // The suite (0.1.16) knows the versions up to 2025-11-25 and checks that a client
        // offers one of them; rmcp's newest is 2026-07-28.
        let options = ClientOptions::default()
            .protocol_version(McpVersion::V2025_11_25)
            .on_elicitation(accept_defaults);
        let client = McpClient::connect_http(&url, options).await?;
        let imported = client.import().await?;
        for (name, why) in &imported.skipped {
            eprintln!("tool {name} left out: {why}");
        }
        let toolbox = imported.executors().fold(Toolbox::new(), Toolbox::with_executor);
        let call = match scenario.as_str() {
            "tools_call" => Some(ToolCall::new("1", "add_numbers", json!({"a": 2, "b": 3}))),
            "initialize" => None,
            _ => {
                toolbox.descriptors().next().map(|d| ToolCall::new("1", d.name.as_str(), json!({})))
            }
        };
        if let Some(call) = call {
            let result = toolbox.call(&call).await;
            println!(
                "{}: {}{}",
                call.name,
                if result.is_error { "error: " } else { "" },
                result.text()
            );
        }
        client.close();
        Ok(())
    })
}
