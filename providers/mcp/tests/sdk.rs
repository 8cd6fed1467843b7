//! The typed bridges to rmcp's model, both ways: descriptors and `Tool`, calls and
//! `CallToolRequestParams`, results and `CallToolResult`.

mod support;

use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock, Tool};
use serde_json::json;
use support::{echo, weather};
use tooldef::{Arguments, Content, ToolCall, ToolResult};
use tooldef_mcp::McpVersion;
use tooldef_mcp::sdk::{
    call_from_params, call_result_from_result, descriptor_from_tool, descriptors_from_tools,
    params_from_call, result_from_call_result, tool_from_descriptor,
};

#[test]
fn descriptors_go_to_rmcp_tools_and_back_unchanged() {
    for d in [weather(), echo()] {
        let tool = tool_from_descriptor(&d, McpVersion::V2026_07_28).unwrap();
        assert_eq!(descriptor_from_tool(&tool).unwrap().tools, [d]);
    }
    let tool = tool_from_descriptor(&weather(), McpVersion::V2026_07_28).unwrap();
    assert_eq!(
        serde_json::to_value(&tool).unwrap(),
        json!({
            "name": "get_weather",
            "title": "Weather",
            "description": "Get the current weather for a city.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "City name"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"}
                },
                "required": ["city"],
                "additionalProperties": false
            },
            "outputSchema": {
                "type": "object",
                "properties": {"temp": {"type": "number"}},
                "required": ["temp"],
                "additionalProperties": false
            },
            "annotations": {"readOnlyHint": true}
        })
    );
}

#[test]
fn an_rmcp_tool_built_by_hand_imports_and_a_bad_one_is_named() {
    let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    let tool = Tool::new("search", "Search.", schema.as_object().unwrap().clone());
    let bad = Tool::new(
        "bad",
        "Bad.",
        json!({"type": "object", "properties": {"x": {"type": 5}}}).as_object().unwrap().clone(),
    );
    let good = descriptor_from_tool(&tool).unwrap();
    assert_eq!(good.tools[0].name.as_str(), "search");
    assert!(!good.tools[0].params[0].required);
    let err = descriptors_from_tools(&[tool, bad]).unwrap_err();
    assert_eq!(err.pointer, "/tools/1");
}

#[test]
fn calls_go_to_params_and_back() {
    let call = ToolCall::new("7", "get_weather", json!({"city": "Paris"}));
    let params = params_from_call(&call).unwrap();
    assert_eq!(
        serde_json::to_value(&params).unwrap(),
        json!({"name": "get_weather", "arguments": {"city": "Paris"}})
    );
    assert_eq!(call_from_params(&params, "7"), call);

    let text = ToolCall { arguments: Arguments::Text(r#"{"city":"Oslo"}"#.into()), ..call.clone() };
    assert_eq!(
        params_from_call(&text).unwrap().arguments,
        json!({"city": "Oslo"}).as_object().cloned()
    );
    let array = ToolCall { arguments: Arguments::Json(json!([1])), ..call.clone() };
    let err = params_from_call(&array).unwrap_err();
    assert_eq!(err.to_string(), "/arguments: arguments must be a JSON object; got [1]");
    assert_eq!(
        call_from_params(&CallToolRequestParams::new("ping"), ""),
        ToolCall::new("", "ping", json!({}))
    );
}

#[test]
fn results_go_to_call_tool_results_and_back() {
    let call = ToolCall::new("c1", "get_weather", json!({}));
    let ok = ToolResult::success(&call, json!({"temp": 21.5}));
    let sdk = call_result_from_result(&ok, McpVersion::V2026_07_28, true);
    assert_eq!(
        serde_json::to_value(&sdk).unwrap(),
        json!({"resultType": "complete", "content": [{"type": "text", "text": "{\"temp\":21.5}"}],
               "structuredContent": {"temp": 21.5}, "isError": false})
    );
    assert_eq!(result_from_call_result(&sdk, &call), ok);
    // Without an output schema, no structuredContent; before 2026-07-28, no resultType.
    let plain = call_result_from_result(&ok, McpVersion::V2025_06_18, false);
    assert_eq!(
        serde_json::to_value(&plain).unwrap(),
        json!({"content": [{"type": "text", "text": "{\"temp\":21.5}"}], "isError": false})
    );
    // A non-object structured value is not sent to an older client.
    let scalar = ToolResult::success(&call, json!(3));
    assert_eq!(
        call_result_from_result(&scalar, McpVersion::V2025_11_25, true).structured_content,
        None
    );
    assert_eq!(
        call_result_from_result(&scalar, McpVersion::V2026_07_28, true).structured_content,
        Some(json!(3))
    );

    let err = ToolResult::error(&call, "city is unknown");
    let sdk = call_result_from_result(&err, McpVersion::V2026_07_28, true);
    assert_eq!(sdk.is_error, Some(true));
    assert_eq!(result_from_call_result(&sdk, &call), err);
}

#[test]
fn content_of_every_kind_goes_through_the_bridge_both_ways() {
    let result = tooldef_testkit::content::every_kind();
    let sdk = call_result_from_result(&result, McpVersion::V2025_11_25, false);
    assert_eq!(
        serde_json::to_value(&sdk).unwrap(),
        json!({
            "content": [
                {"type": "text", "text": "Report ready."},
                {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
                {"type": "audio", "data": "UklGRiQAAABXQVZF", "mimeType": "audio/wav"},
                {"type": "resource", "resource": {
                    "uri": "file:///reports/summary.md", "mimeType": "text/markdown",
                    "text": "# Summary\nAll good."}},
                {"type": "resource", "resource": {
                    "uri": "file:///reports/q3.pdf", "mimeType": "application/pdf",
                    "blob": "JVBERi0xLjcK"}},
                {"type": "resource_link", "uri": "file:///reports/raw.csv", "name": "raw.csv",
                    "mimeType": "text/csv", "size": 52000},
            ],
            "isError": false
        })
    );
    assert_eq!(result_from_call_result(&sdk, &tooldef_testkit::content::call()), result);
    // And from rmcp's own constructors: each block comes back as the kind it is.
    let from_rmcp = CallToolResult::success(vec![
        ContentBlock::audio("BBBB", "audio/wav"),
        ContentBlock::embedded_text("file:///a.txt", "hello"),
        ContentBlock::resource_link(
            rmcp::model::Resource::new("file:///b.bin", "b.bin").with_title("B"),
        ),
    ]);
    let call = ToolCall::new("c1", "fetch", json!({}));
    assert_eq!(
        result_from_call_result(&from_rmcp, &call).content,
        [
            Content::audio("BBBB", "audio/wav"),
            Content::resource(
                tooldef::ResourceContents::text("file:///a.txt", "hello").mime_type("text/plain")
            ),
            Content::ResourceLink(tooldef::ResourceLink::new("file:///b.bin", "b.bin").title("B")),
        ]
    );
}

#[test]
fn icons_and_meta_of_an_rmcp_tool_go_through_the_bridge_both_ways() {
    // rmcp's own serde form of a tool with icons and `_meta`.
    let sdk: Tool = serde_json::from_value(json!({
        "name": "github.search",
        "title": "Search",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
        "icons": [{"src": "https://example.com/s.svg", "mimeType": "image/svg+xml", "sizes": ["any"]}],
        "_meta": {"io.example/tier": "free"}
    }))
    .unwrap();
    let d = descriptor_from_tool(&sdk).unwrap().tools.remove(0);
    assert_eq!(d.name, "github.search");
    assert_eq!(d.extensions.get("mcp", "_meta"), Some(&json!({"io.example/tier": "free"})));
    let back = tool_from_descriptor(&d, McpVersion::V2026_07_28).unwrap();
    assert_eq!(back.icons, sdk.icons);
    assert_eq!(back.meta, sdk.meta);
    assert_eq!(back.title, sdk.title);
}
