//! Ollama request fragments: built from an assembly, completed and checked against Ollama's
//! official `/api/chat` schema; empty parts left out.

use serde_json::json;
use tooldef::render::ChangeKind;
use tooldef::{LossPolicy, RenderCache};
use tooldef_testkit::assembly::{SYSTEM, sample as assembly};

use tooldef_ollama::{OllamaRenderer, request_fragment};
use tooldef_testkit::specs::{assert_conforms, ollama as spec};

#[test]
fn fragment_holds_system_message_and_tools_and_conforms() {
    let fragment =
        request_fragment(&assembly(), &OllamaRenderer::new(), LossPolicy::Allow, None).unwrap();
    let body = &fragment.body;
    assert_eq!(body["messages"], json!([{"role": "system", "content": SYSTEM}]));
    let names: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["clock", "get_weather", "search"]);
    // The `limit` bounds go into its description; each closed root is reported, not written.
    let moved = fragment.report.iter().filter(|c| c.kind == ChangeKind::MovedToDescription);
    assert_eq!(moved.count(), 2);
    let closed = fragment.report.iter().filter(|c| c.keyword == "additionalProperties");
    assert_eq!(closed.count(), 3);
    let mut whole = body.clone();
    whole["messages"].as_array_mut().unwrap().push(json!({"role": "user", "content": "hi"}));
    assert_conforms("ollama fragment", spec::validate_chat_fragment(&whole));
}

#[test]
fn empty_system_and_no_tools_are_left_out() {
    let mut no_system = assembly();
    no_system.sections.clear();
    let fragment =
        request_fragment(&no_system, &OllamaRenderer::new(), LossPolicy::Allow, None).unwrap();
    assert_eq!(fragment.body.get("messages"), None);
    assert_conforms("ollama without system", spec::validate_chat_fragment(&fragment.body));

    let mut no_tools = assembly();
    no_tools.tools.clear();
    let fragment =
        request_fragment(&no_tools, &OllamaRenderer::new(), LossPolicy::Refuse, None).unwrap();
    assert_eq!(fragment.body, json!({"messages": [{"role": "system", "content": SYSTEM}]}));
}

#[test]
fn cached_fragment_equals_uncached() {
    let cache = RenderCache::new();
    let plain =
        request_fragment(&assembly(), &OllamaRenderer::new(), LossPolicy::Allow, None).unwrap();
    let a = assembly();
    for _ in 0..2 {
        assert_eq!(
            request_fragment(&a, &OllamaRenderer::new(), LossPolicy::Allow, Some(&cache)).unwrap(),
            plain
        );
    }
}
