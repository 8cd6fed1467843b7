//! Name mapping with MCP, whose rule is the IR's widest: nothing a descriptor holds is renamed,
//! and `tools/call` requests pass through the name map unchanged to the tool.

use serde_json::json;
use tooldef::render::{LossPolicy, Renderer, render_mapped};
use tooldef_mcp::{McpRenderer, tool_call};
use tooldef_testkit::names::{
    assert_dispatched_under_original_names, dotted_tool, original_arguments,
};

#[test]
fn dotted_names_are_mcp_names() {
    let tool = dotted_tool();
    let renderer = McpRenderer::new();
    let set = render_mapped(&renderer, &[&tool], LossPolicy::Refuse).unwrap();
    assert_eq!(set.rendered()[0], renderer.render(&tool, LossPolicy::Refuse).unwrap());
    assert_eq!(set.rendered()[0].to_value()["name"], "weather.get");
    assert!(set.names().is_empty());
    let request = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "weather.get", "arguments": original_arguments()}});
    let call = set.names().restore(tool_call(&request).unwrap());
    assert_dispatched_under_original_names(&call);
}
