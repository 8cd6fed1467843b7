//! Name mapping end to end: a tool Anthropic refuses by name (a dot) renders under a safe name,
//! and the model's `tool_use` under that name reaches the tool under the original one. And
//! another provider's kept fields (MCP `_meta`, `icons`) are reported as omitted.

use serde_json::json;
use tooldef::render::{LossPolicy, RenderRule, Renderer, render_mapped};
use tooldef_anthropic::{AnthropicRenderer, tool_calls, tool_result_block};
use tooldef_testkit::names::{
    assert_dispatched_under_original_names, dotted_tool, echo_toolbox, original_arguments,
};
use tooldef_testkit::specs::{anthropic, assert_conforms};

#[test]
fn mapped_names_go_out_safe_and_come_back_original() {
    let tool = dotted_tool();
    for renderer in [AnthropicRenderer::new(), AnthropicRenderer::new().strict(true)] {
        let err = renderer.render(&tool, LossPolicy::Allow).unwrap_err();
        assert_eq!(err.rule, RenderRule::Name);
        assert!(err.message.contains("^[a-zA-Z0-9_-]{1,128}$"), "{}", err.message);

        let set = render_mapped(&renderer, &[&tool], LossPolicy::Refuse).unwrap();
        let wire = set.rendered()[0].to_value();
        assert_conforms("Tool", anthropic::validate_tool(&wire));
        assert_eq!(wire["name"], "weather_get");
        assert_eq!(set.rendered()[0].report().changes[0].keyword, "name");

        let message = json!({"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_1", "name": "weather_get", "input": original_arguments()}
        ]});
        let calls = set.names().restore_all(tool_calls(&message).unwrap());
        assert_dispatched_under_original_names(&calls[0]);
        let result = set.names().to_wire(echo_toolbox().call_blocking(&calls[0]));
        assert_eq!(tool_result_block(&result).message["tool_use_id"], "toolu_1");
    }
}

#[test]
fn another_providers_fields_are_reported_as_omitted() {
    let mut d = tooldef::ToolDescriptor::builder("create_issue").build().unwrap();
    d.extensions.insert("mcp", "icons", json!([{"src": "x.png"}]));
    d.extensions.insert("mcp", "_meta", json!({"owner": "platform"}));
    let rendered = AnthropicRenderer::new().render(&d, LossPolicy::Refuse).unwrap();
    let omitted: Vec<String> = rendered.report().iter().map(ToString::to_string).collect();
    assert_eq!(
        omitted,
        [
            "tool `create_issue`: mcp fields `_meta`, `icons` omitted: they belong to mcp's wire format"
        ]
    );
    assert!(rendered.report().is_lossless());
    assert!(rendered.to_value().get("icons").is_none());
}
