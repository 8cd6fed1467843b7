//! MCP call/result half, validated against the official schemas and the Rust SDK's model.

use serde_json::json;
use tooldef::{Content, ToolCall, ToolResult};
use tooldef_mcp::{McpVersion, call_tool_result, tool_call};
use tooldef_testkit::specs::{assert_conforms, mcp};

#[test]
fn tools_call_requests_become_calls() {
    let request = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "get_weather", "arguments": {"city": "Paris"}}});
    assert_eq!(
        tool_call(&request).unwrap(),
        ToolCall::new("7", "get_weather", json!({"city": "Paris"}))
    );
    assert_conforms(
        "request",
        mcp::validate_definition(mcp::McpVersion::V2025_06_18, "CallToolRequest", &request),
    );
    assert_eq!(
        tool_call(&request["params"]).unwrap(),
        ToolCall::new("", "get_weather", json!({"city": "Paris"}))
    );
    let string_id =
        json!({"jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": {"name": "ping"}});
    assert_eq!(tool_call(&string_id).unwrap(), ToolCall::new("a", "ping", json!({})));
    let other = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    assert_eq!(tool_call(&other).unwrap_err().pointer, "/method");
    let bad = json!({"name": "x", "arguments": [1]});
    assert_eq!(tool_call(&bad).unwrap_err().pointer, "/arguments");
}

#[test]
fn results_become_call_tool_results_per_version() {
    let call = ToolCall::new("7", "count_words", json!({}));
    let object = ToolResult::success(&call, json!({"words": 3}));
    let scalar = ToolResult::success(&call, json!(3));
    let failed = ToolResult::error(&call, "`text` is required");
    let mut image = ToolResult::success(&call, json!("chart"));
    image.content.push(Content::Image { data: "aGk=".into(), mime_type: "image/png".into() });

    assert_eq!(
        call_tool_result(&object, McpVersion::V2026_07_28),
        json!({"content": [{"type": "text", "text": "{\"words\":3}"}], "structuredContent": {"words": 3}, "resultType": "complete"})
    );
    assert_eq!(
        call_tool_result(&scalar, McpVersion::V2025_06_18),
        json!({"content": [{"type": "text", "text": "3"}]})
    );
    assert_eq!(call_tool_result(&scalar, McpVersion::V2026_07_28)["structuredContent"], 3);
    assert_eq!(call_tool_result(&failed, McpVersion::V2025_06_18)["isError"], true);

    let versions = [
        (McpVersion::V2025_06_18, mcp::McpVersion::V2025_06_18),
        (McpVersion::V2025_11_25, mcp::McpVersion::V2025_11_25),
        (McpVersion::V2026_07_28, mcp::McpVersion::V2026_07_28),
    ];
    for (ours, theirs) in versions {
        for r in [&object, &scalar, &failed, &image] {
            let v = call_tool_result(r, ours);
            assert_conforms(&format!("{ours:?}"), mcp::validate_call_tool_result(theirs, &v));
            let sdk: rmcp::model::CallToolResult = serde_json::from_value(v.clone()).unwrap();
            assert_eq!(sdk.is_error, r.is_error.then_some(true));
        }
    }
}

#[test]
fn content_of_every_kind_is_written_as_mcp_blocks_that_conform_and_read_back() {
    let result = tooldef_testkit::content::every_kind();
    let v = call_tool_result(&result, McpVersion::V2025_06_18);
    assert_eq!(
        v,
        json!({"content": [
            {"type": "text", "text": "Report ready."},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
            {"type": "audio", "data": "UklGRiQAAABXQVZF", "mimeType": "audio/wav"},
            {"type": "resource", "resource": {"uri": "file:///reports/summary.md",
                "mimeType": "text/markdown", "text": "# Summary\nAll good."}},
            {"type": "resource", "resource": {"uri": "file:///reports/q3.pdf",
                "mimeType": "application/pdf", "blob": "JVBERi0xLjcK"}},
            {"type": "resource_link", "uri": "file:///reports/raw.csv", "name": "raw.csv",
                "mimeType": "text/csv", "size": 52000},
        ]})
    );
    let versions = [
        (McpVersion::V2025_06_18, mcp::McpVersion::V2025_06_18),
        (McpVersion::V2025_11_25, mcp::McpVersion::V2025_11_25),
        (McpVersion::V2026_07_28, mcp::McpVersion::V2026_07_28),
    ];
    for (ours, theirs) in versions {
        let v = call_tool_result(&result, ours);
        assert_conforms(&format!("{ours:?}"), mcp::validate_call_tool_result(theirs, &v));
        // The Rust SDK's model holds every block as it is.
        let sdk: rmcp::model::CallToolResult = serde_json::from_value(v.clone()).unwrap();
        let mut again = serde_json::to_value(&sdk).unwrap();
        again.as_object_mut().unwrap().remove("isError");
        assert_eq!(again, v);
    }
}
