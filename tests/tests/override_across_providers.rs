//! An override made once reaches every provider and the executor: constraining a capability's
//! `category` parameter puts exactly the narrowed enum into each provider's rendered schema, and a
//! call outside it gets an error result naming the allowed values.

use std::sync::Arc;

use serde_json::{Value, json};
use tooldef::dispatch::{DynamicTool, block_on};
use tooldef::{
    Constraint, LossPolicy, Origin, Override, Overrides, Param, Renderer, Schema, ToolCall,
    ToolDescriptor, ToolRegistry,
};

const ALLOWED: [&str; 3] = ["memory:health", "memory:identity", "memory:preferences"];

/// The capability's own tool: `category` is a free string until the user constrains it.
fn remember() -> Arc<dyn tooldef::Executor> {
    let descriptor = ToolDescriptor::builder("remember")
        .description("Store a fact about the user.")
        .param(Param::string("fact").with_description("The fact."))
        .param(Param::named("category", Schema::string()).with_description("Where it goes."))
        .build()
        .unwrap();
    Arc::new(DynamicTool::new_sync(descriptor, |args| Ok(json!({"stored": args["fact"]}))))
}

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    registry.register(remember(), Origin::Core).unwrap();
    let report = registry.apply_overrides(
        Overrides::new()
            .for_name("remember", Override::constrain("category", Constraint::one_of(ALLOWED))),
    );
    assert_eq!(report.applied.len(), 1, "{report:?}");
    registry
}

/// Every `enum` array found anywhere in `v`.
fn enums(v: &Value, out: &mut Vec<Vec<String>>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Array(values)) = map.get("enum") {
                out.push(values.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect());
            }
            map.values().for_each(|x| enums(x, out));
        }
        Value::Array(items) => items.iter().for_each(|x| enums(x, out)),
        _ => {}
    }
}

#[test]
fn the_narrowed_enum_reaches_every_provider() {
    let registry = registry();
    let entry = registry.get("remember").unwrap();
    let tool = entry.descriptor();
    let renderers: Vec<(&str, Box<dyn Renderer>)> = vec![
        ("openai-chat", Box::new(tooldef_openai::OpenAiRenderer::chat())),
        ("openai-chat-strict", Box::new(tooldef_openai::OpenAiRenderer::chat().strict(true))),
        ("openai-responses", Box::new(tooldef_openai::OpenAiRenderer::responses())),
        ("anthropic", Box::new(tooldef_anthropic::AnthropicRenderer::new())),
        ("anthropic-strict", Box::new(tooldef_anthropic::AnthropicRenderer::new().strict(true))),
        ("gemini", Box::new(tooldef_gemini::GeminiRenderer::new())),
        ("gemini-openapi", Box::new(tooldef_gemini::GeminiRenderer::openapi())),
        ("ollama", Box::new(tooldef_ollama::OllamaRenderer::new())),
        ("mcp", Box::new(tooldef_mcp::McpRenderer::new())),
        ("bedrock", Box::new(tooldef_bedrock::BedrockRenderer::new())),
    ];
    for (label, renderer) in renderers {
        let rendered = renderer.render(tool, LossPolicy::Allow).unwrap();
        let mut found = Vec::new();
        enums(&rendered.to_value(), &mut found);
        assert_eq!(
            found,
            vec![ALLOWED.map(str::to_owned).to_vec()],
            "{label}: {}",
            rendered.json()
        );
    }
}

#[test]
fn a_call_outside_the_enum_is_an_error_naming_the_allowed_values() {
    let registry = registry();
    let snapshot = registry.snapshot();
    let bad =
        ToolCall::new("c1", "remember", json!({"fact": "likes tea", "category": "memory:other"}));
    let result = block_on(snapshot.call(&bad));
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        r#"invalid arguments for remember: /category must be one of "memory:health", "memory:identity", "memory:preferences"; got "memory:other""#
    );
    let good = ToolCall::new(
        "c2",
        "remember",
        json!({"fact": "likes tea", "category": "memory:preferences"}),
    );
    let result = block_on(snapshot.call(&good));
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(result.structured, Some(json!({"stored": "likes tea"})));
}
