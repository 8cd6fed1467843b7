//! Bedrock request fragments: built from an assembly, completed and checked against the Converse
//! request shape of the botocore model; empty parts left out, including `toolConfig` without tools.

use serde_json::{Value, json};
use tooldef::{LossPolicy, RenderCache, RenderRule};
use tooldef_testkit::assembly::{SYSTEM, sample as assembly};

use tooldef_bedrock::{BedrockRenderer, request_fragment};
use tooldef_testkit::specs::{assert_conforms, bedrock as spec, complete_fragment};

fn converse(fragment: &Value) -> Value {
    let defaults = json!({"modelId": "anthropic.claude-3-5-sonnet", "messages": [{"role": "user", "content": [{"text": "hi"}]}]});
    complete_fragment(fragment, &defaults)
}

#[test]
fn fragment_holds_system_and_tool_config_and_conforms() {
    for renderer in [BedrockRenderer::new(), BedrockRenderer::strict()] {
        let fragment = request_fragment(&assembly(), &renderer, LossPolicy::Allow, None).unwrap();
        let body = fragment.body.as_object().unwrap();
        assert_eq!(body.keys().collect::<Vec<_>>(), ["system", "toolConfig"]);
        assert_eq!(body["system"], json!([{"text": SYSTEM}]));
        let names: Vec<&str> = body["toolConfig"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["toolSpec"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["clock", "get_weather", "search"]);
        assert_conforms(
            "converse fragment",
            spec::validate_converse_request(&converse(&fragment.body)),
        );
    }
}

#[test]
fn empty_system_and_no_tools_are_left_out() {
    let mut no_system = assembly();
    no_system.sections.clear();
    let fragment =
        request_fragment(&no_system, &BedrockRenderer::new(), LossPolicy::Allow, None).unwrap();
    assert_eq!(fragment.body.get("system"), None);
    assert_conforms(
        "converse without system",
        spec::validate_converse_request(&converse(&fragment.body)),
    );

    let mut no_tools = assembly();
    no_tools.tools.clear();
    for cache in [None, Some(&RenderCache::new())] {
        let fragment =
            request_fragment(&no_tools, &BedrockRenderer::new(), LossPolicy::Refuse, cache)
                .unwrap();
        assert_eq!(fragment.body, json!({"system": [{"text": SYSTEM}]}));
        assert_conforms(
            "converse without tools",
            spec::validate_converse_request(&converse(&fragment.body)),
        );
    }
}

#[test]
fn empty_tool_config_is_what_the_spec_and_renderer_reject() {
    // Why the fragment leaves `toolConfig` out: the renderer's set check and the spec both refuse
    // an empty one.
    let mut no_tools = assembly();
    no_tools.tools.clear();
    let err = no_tools.render_tools(&BedrockRenderer::new(), LossPolicy::Allow).unwrap_err();
    assert_eq!(err.rule, RenderRule::SetLimit);
    let body = converse(&json!({"toolConfig": {"tools": []}}));
    assert!(spec::validate_converse_request(&body).is_err());
}

#[test]
fn cached_fragment_equals_uncached() {
    let cache = RenderCache::new();
    let renderer = BedrockRenderer::strict();
    let plain = request_fragment(&assembly(), &renderer, LossPolicy::Allow, None).unwrap();
    let a = assembly();
    for _ in 0..2 {
        assert_eq!(
            request_fragment(&a, &renderer, LossPolicy::Allow, Some(&cache)).unwrap(),
            plain
        );
    }
}
