//! Anthropic request fragments: built from an assembly, each tool checked against the SDK-derived
//! tool schema, empty parts left out, strict set limits enforced.

use serde_json::json;
use tooldef::{LossPolicy, PromptAssembly, RenderCache, RenderRule, ToolDescriptor};
use tooldef_testkit::assembly::{SYSTEM, sample as assembly};

use tooldef_anthropic::{AnthropicRenderer, request_fragment};
use tooldef_testkit::specs::{anthropic as spec, assert_conforms};

#[test]
fn fragment_holds_system_and_tools_and_conforms() {
    for renderer in [AnthropicRenderer::new(), AnthropicRenderer::new().strict(true)] {
        let fragment = request_fragment(&assembly(), &renderer, LossPolicy::Allow, None).unwrap();
        let body = fragment.body.as_object().unwrap();
        assert_eq!(body.keys().collect::<Vec<_>>(), ["system", "tools"]);
        assert_eq!(body["system"], SYSTEM);
        let tools = body["tools"].as_array().unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["clock", "get_weather", "search"]);
        for tool in tools {
            assert_conforms("anthropic tool", spec::validate_tool(tool));
        }
    }
}

#[test]
fn empty_system_and_no_tools_are_left_out() {
    let mut no_system = assembly();
    no_system.sections.clear();
    let fragment =
        request_fragment(&no_system, &AnthropicRenderer::new(), LossPolicy::Refuse, None).unwrap();
    assert_eq!(fragment.body.get("system"), None);
    assert_eq!(fragment.body["tools"].as_array().unwrap().len(), 3);

    let mut no_tools = assembly();
    no_tools.tools.clear();
    let fragment =
        request_fragment(&no_tools, &AnthropicRenderer::new(), LossPolicy::Refuse, None).unwrap();
    assert_eq!(fragment.body, json!({"system": SYSTEM}));
    assert!(fragment.report.is_empty());
}

#[test]
fn cached_fragment_equals_uncached() {
    let cache = RenderCache::new();
    let renderer = AnthropicRenderer::new().strict(true);
    let plain = request_fragment(&assembly(), &renderer, LossPolicy::Allow, None).unwrap();
    let a = assembly();
    for _ in 0..2 {
        assert_eq!(
            request_fragment(&a, &renderer, LossPolicy::Allow, Some(&cache)).unwrap(),
            plain
        );
    }
}

#[test]
fn strict_mode_allows_at_most_twenty_tools() {
    let mut big = PromptAssembly::new();
    for i in 0..21 {
        big.put_tool(ToolDescriptor::builder(format!("tool_{i:02}")).build().unwrap());
    }
    let strict = AnthropicRenderer::new().strict(true);
    for cache in [None, Some(&RenderCache::new())] {
        let err = request_fragment(&big, &strict, LossPolicy::Allow, cache).unwrap_err();
        assert_eq!(err.rule, RenderRule::SetLimit);
        assert_eq!(err.tool, "tool_20");
    }
    assert!(request_fragment(&big, &AnthropicRenderer::new(), LossPolicy::Allow, None).is_ok());
    big.remove_tool("tool_20");
    assert_eq!(
        request_fragment(&big, &strict, LossPolicy::Allow, None).unwrap().body["tools"]
            .as_array()
            .unwrap()
            .len(),
        20
    );
}
