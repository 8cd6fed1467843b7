//! Gemini request fragments: built from an assembly, completed and checked against the Gemini
//! API (v1beta protos) and Vertex AI request schemas, in both declaration forms; empty parts
//! left out.

use serde_json::{Value, json};
use tooldef::{LossPolicy, RenderCache};
use tooldef_testkit::assembly::{SYSTEM, sample as assembly};

use tooldef_gemini::{GeminiRenderer, request_fragment};
use tooldef_testkit::specs::{assert_conforms, gemini, vertex};

fn conforms(what: &str, body: &Value) {
    assert_conforms(what, gemini::validate_generate_content_fragment(body));
    assert_conforms(what, vertex::validate_generate_content_fragment(body));
}

#[test]
fn fragment_holds_system_instruction_and_declarations_and_conforms() {
    for renderer in [GeminiRenderer::new(), GeminiRenderer::openapi()] {
        let fragment = request_fragment(&assembly(), &renderer, LossPolicy::Allow, None).unwrap();
        let body = fragment.body.as_object().unwrap();
        assert_eq!(body.keys().collect::<Vec<_>>(), ["systemInstruction", "tools"]);
        assert_eq!(body["systemInstruction"], json!({"parts": [{"text": SYSTEM}]}));
        let tools = body["tools"].as_array().unwrap();
        assert_eq!(tools.len(), 1);
        let names: Vec<&str> = tools[0]["functionDeclarations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["clock", "get_weather", "search"]);
        conforms("gemini fragment", &fragment.body);
    }
}

#[test]
fn empty_system_and_no_tools_are_left_out() {
    let mut no_system = assembly();
    no_system.sections.clear();
    let fragment =
        request_fragment(&no_system, &GeminiRenderer::new(), LossPolicy::Allow, None).unwrap();
    assert_eq!(fragment.body.get("systemInstruction"), None);
    conforms("gemini without system", &fragment.body);

    let mut no_tools = assembly();
    no_tools.tools.clear();
    let fragment =
        request_fragment(&no_tools, &GeminiRenderer::new(), LossPolicy::Refuse, None).unwrap();
    assert_eq!(fragment.body, json!({"systemInstruction": {"parts": [{"text": SYSTEM}]}}));
    conforms("gemini without tools", &fragment.body);
}

#[test]
fn cached_fragment_equals_uncached() {
    let cache = RenderCache::new();
    let renderer = GeminiRenderer::openapi();
    let plain = request_fragment(&assembly(), &renderer, LossPolicy::Allow, None).unwrap();
    let a = assembly();
    for _ in 0..2 {
        assert_eq!(
            request_fragment(&a, &renderer, LossPolicy::Allow, Some(&cache)).unwrap(),
            plain
        );
    }
}
