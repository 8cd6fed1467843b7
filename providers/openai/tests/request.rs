//! Request fragments for Chat Completions and Responses: built from an assembly, completed with
//! the other required keys and checked against OpenAI's official request schemas.

use serde_json::{Value, json};
use tooldef::{LossPolicy, Param, PromptAssembly, RenderCache, RenderRule, ToolDescriptor};
use tooldef_openai::{OpenAiRenderer, Profile, request_fragment};
use tooldef_testkit::assembly::{SYSTEM, sample as assembly};
use tooldef_testkit::specs::{assert_conforms, complete_fragment, openai as spec};

fn response_body(fragment: &Value) -> Value {
    complete_fragment(fragment, &json!({"model": "gpt-4.1", "input": "hi"}))
}

#[test]
fn chat_fragment_holds_system_message_and_tools_and_conforms() {
    for renderer in [OpenAiRenderer::chat(), OpenAiRenderer::chat().strict(true)] {
        let fragment = request_fragment(&assembly(), &renderer, LossPolicy::Allow, None).unwrap();
        let body = &fragment.body;
        assert_eq!(body["messages"], json!([{"role": "system", "content": SYSTEM}]));
        let names: Vec<&str> = body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["function"]["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["clock", "get_weather", "search"]);
        assert_eq!(body.as_object().unwrap().len(), 2);
        // The conversation goes after the system message.
        let mut whole = body.clone();
        whole["messages"].as_array_mut().unwrap().push(json!({"role": "user", "content": "hi"}));
        assert_conforms("chat fragment", spec::validate_chat_completion_fragment(&whole));
    }
}

#[test]
fn strict_report_is_merged_over_tools() {
    let renderer = OpenAiRenderer::chat().strict(true);
    let fragment = request_fragment(&assembly(), &renderer, LossPolicy::Allow, None).unwrap();
    let expected: usize = assembly()
        .render_tools(&renderer, LossPolicy::Allow)
        .unwrap()
        .iter()
        .map(|r| r.report().len())
        .sum();
    assert!(expected > 0, "strict mode moves the bounds and makes `limit` required");
    assert_eq!(fragment.report.len(), expected);
}

#[test]
fn responses_fragment_holds_instructions_and_tools_and_conforms() {
    for renderer in [OpenAiRenderer::responses(), OpenAiRenderer::responses().strict(true)] {
        let fragment = request_fragment(&assembly(), &renderer, LossPolicy::Allow, None).unwrap();
        let body = &fragment.body;
        assert_eq!(body["instructions"], SYSTEM);
        assert_eq!(body["tools"][1]["name"], "get_weather");
        assert_eq!(body["tools"].as_array().unwrap().len(), 3);
        assert_conforms("responses fragment", spec::validate_create_response(&response_body(body)));
    }
}

#[test]
fn empty_system_and_no_tools_are_left_out() {
    let mut no_system = assembly();
    no_system.sections.clear();
    let chat =
        request_fragment(&no_system, &OpenAiRenderer::chat(), LossPolicy::Refuse, None).unwrap();
    assert_eq!(chat.body.get("messages"), None);
    assert_eq!(chat.body["tools"].as_array().unwrap().len(), 3);
    assert_conforms("chat without system", spec::validate_chat_completion_fragment(&chat.body));

    let mut no_tools = assembly();
    no_tools.tools.clear();
    let chat =
        request_fragment(&no_tools, &OpenAiRenderer::chat(), LossPolicy::Refuse, None).unwrap();
    assert_eq!(chat.body, json!({"messages": [{"role": "system", "content": SYSTEM}]}));
    let responses =
        request_fragment(&no_tools, &OpenAiRenderer::responses(), LossPolicy::Refuse, None)
            .unwrap();
    assert_eq!(responses.body, json!({"instructions": SYSTEM}));
    assert_conforms(
        "responses without tools",
        spec::validate_create_response(&response_body(&responses.body)),
    );

    let empty = PromptAssembly::new();
    let chat = request_fragment(&empty, &OpenAiRenderer::chat(), LossPolicy::Refuse, None).unwrap();
    assert_eq!(chat.body, json!({}));
}

#[test]
fn cached_fragment_equals_uncached() {
    let cache = RenderCache::new();
    let renderer = OpenAiRenderer::responses().strict(true);
    let plain = request_fragment(&assembly(), &renderer, LossPolicy::Allow, None).unwrap();
    let a = assembly();
    let first = request_fragment(&a, &renderer, LossPolicy::Allow, Some(&cache)).unwrap();
    let second = request_fragment(&a, &renderer, LossPolicy::Allow, Some(&cache)).unwrap();
    assert_eq!(first, plain);
    assert_eq!(second, plain);
}

#[test]
fn set_level_check_runs() {
    // Cohere's strict_tools allows at most 200 fields over a request: 70 tools of 3 fields.
    let params = const { &[Param::string("a"), Param::string("b"), Param::string("c")] };
    let mut big = PromptAssembly::new();
    for i in 0..70 {
        big.put_tool(
            ToolDescriptor::builder(format!("tool_{i:02}"))
                .params(params.iter().cloned())
                .build()
                .unwrap(),
        );
    }
    let renderer = OpenAiRenderer::chat().profile(Profile::Cohere).strict(true);
    let err = request_fragment(&big, &renderer, LossPolicy::Allow, None).unwrap_err();
    assert_eq!(err.rule, RenderRule::SetLimit);
    let err = request_fragment(&big, &renderer, LossPolicy::Allow, Some(&RenderCache::new()))
        .unwrap_err();
    assert_eq!(err.rule, RenderRule::SetLimit);
    // Without strict there is no such limit.
    let renderer = OpenAiRenderer::chat().profile(Profile::Cohere);
    assert!(request_fragment(&big, &renderer, LossPolicy::Allow, None).is_ok());
}

/// A strict fragment keeps its tools' way back: the model's `null` for a parameter left out is
/// given back as absent from the fragment itself, with no second render, through Chat and
/// Responses alike.
#[test]
fn a_strict_fragment_gives_the_models_calls_back() {
    use tooldef::{ToolCall, WayBack};
    let forecast = ToolDescriptor::builder("forecast")
        .param(Param::string("city"))
        .param(Param::integer("days").range(1, 10).optional().with_default(3i64))
        .build()
        .unwrap();
    let mut assembly = PromptAssembly::new();
    assembly.put_tool(forecast);
    for renderer in [OpenAiRenderer::chat(), OpenAiRenderer::responses()] {
        let renderer = renderer.strict(true);
        let fragment = request_fragment(&assembly, &renderer, LossPolicy::Refuse, None).unwrap();
        assert_eq!(fragment.tools.len(), 1);
        let sent = ToolCall::new("c1", "forecast", json!({"city": "Paris", "days": null}));
        assert_eq!(
            fragment.restore_all(vec![sent]),
            [ToolCall::new("c1", "forecast", json!({"city": "Paris"}))]
        );
    }
}
