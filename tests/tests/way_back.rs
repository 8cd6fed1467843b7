//! The way back across crates (issue 36): an MCP server's tools, imported into a registry,
//! rendered for OpenAI strict and Gemini's OpenAPI form (with the names each refuses mapped),
//! called by a model that obeys the schema it was sent, and given back through the render
//! output before the registry dispatches them.

use std::sync::Arc;

use serde_json::{Value, json};
use tooldef::dispatch::DynamicTool;
use tooldef::{
    Executor, LossPolicy, Origin, RenderCache, Renderer, ToolCall, ToolRegistry, render_mapped,
};
use tooldef_gemini::{GeminiRenderer, function_calls};
use tooldef_openai::{OpenAiRenderer, chat_tool_calls, responses_tool_calls};

/// A server's `tools/list`: the issue's `settings` (under a dotted name OpenAI and Gemini
/// refuse, with a property name Gemini refuses) and the same tool under a plain name.
fn server_list() -> Value {
    let schema = json!({
        "type": "object",
        "properties": {
            "level": {"type": "integer", "enum": [1, 2, 3]},
            "mode": {"type": "string", "enum": ["a", "b"]},
            "ratio": {"type": "number", "default": 0.5},
            "max-depth": {"type": "integer", "enum": [1, 2]}
        },
        "required": ["level"]
    });
    json!({"tools": [
        {"name": "settings.update", "description": "Change the settings.", "inputSchema": schema},
        {"name": "settings", "description": "Change the settings.", "inputSchema": schema}
    ]})
}

fn registry() -> ToolRegistry {
    let registry = ToolRegistry::new();
    for d in tooldef_mcp::import_tools(&server_list()).unwrap().tools {
        let echo: Arc<dyn Executor> = Arc::new(DynamicTool::new_sync(d, Ok));
        registry.register(echo, Origin::Mcp).unwrap();
    }
    registry
}

fn chat(name: &str, args: &Value) -> Value {
    json!({"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
        "function": {"name": name, "arguments": args.to_string()}}]})
}

fn responses(name: &str, args: &Value) -> Value {
    json!({"output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1",
        "name": name, "arguments": args.to_string()}]})
}

fn gemini(name: &str, args: &Value) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": name, "args": args}}]}}]})
}

#[test]
fn an_imported_mcp_tool_reads_back_from_openai_strict_through_the_registry() {
    let registry = registry();
    let snapshot = registry.snapshot();
    let cache = RenderCache::new();
    let sent = json!({"level": 2, "mode": null, "ratio": null, "max-depth": null});
    for renderer in [OpenAiRenderer::chat().strict(true), OpenAiRenderer::responses().strict(true)]
    {
        // Every tool of the snapshot but the dotted one, whose name OpenAI refuses.
        let entry = snapshot.get("settings").unwrap();
        let set =
            cache.get_executor_set(&renderer, [entry.executor()], LossPolicy::Refuse).unwrap();
        let calls = match renderer.api() {
            tooldef_openai::Api::Chat => chat_tool_calls(&chat("settings", &sent)),
            tooldef_openai::Api::Responses => responses_tool_calls(&responses("settings", &sent)),
        }
        .unwrap();
        let result = snapshot.call_blocking(&set.restore_all(calls)[0]);
        assert_eq!(
            (result.text(), result.is_error),
            (r#"{"level":2,"ratio":0.5}"#.to_owned(), false),
            "{}",
            renderer.name()
        );
    }
}

#[test]
fn mapped_names_and_lowered_values_come_back_together() {
    let registry = registry();
    let snapshot = registry.snapshot();
    let tool = snapshot.get("settings.update").unwrap().descriptor();
    // OpenAI strict: the tool's name mapped, the left-out parameters sent as null.
    let set =
        render_mapped(&OpenAiRenderer::chat().strict(true), &[tool], LossPolicy::Refuse).unwrap();
    assert_eq!(set.rendered()[0].name(), "settings_update");
    let sent = json!({"level": 3, "mode": "b", "ratio": null, "max-depth": 1});
    let calls = set.restore_all(chat_tool_calls(&chat("settings_update", &sent)).unwrap());
    assert_eq!(calls[0].name, "settings.update");
    let result = snapshot.call_blocking(&calls[0]);
    assert_eq!(result.text(), r#"{"level":3,"max-depth":1,"mode":"b","ratio":0.5}"#);
    // Gemini's OpenAPI form: the tool's and a property's names mapped, integer enums sent as
    // strings.
    let set = render_mapped(&GeminiRenderer::openapi(), &[tool], LossPolicy::Allow).unwrap();
    let wire = set.rendered()[0].to_value();
    assert_eq!(wire["name"], "settings_update");
    assert_eq!(wire["parameters"]["properties"]["max_depth"]["enum"], json!(["1", "2"]));
    let sent = json!({"level": "2", "max_depth": "2"});
    let calls: Vec<ToolCall> =
        set.restore_all(function_calls(&gemini("settings_update", &sent)).unwrap());
    assert_eq!(calls[0].name, "settings.update");
    assert_eq!(calls[0].arguments, tooldef::Arguments::Json(json!({"level": 2, "max-depth": 2})));
    let result = snapshot.call_blocking(&calls[0]);
    assert_eq!(result.text(), r#"{"level":2,"max-depth":2,"ratio":0.5}"#);
    // A value the tool refuses: the model reads the error under the names it was sent.
    let sent = json!({"level": "2", "max_depth": "3"});
    let calls = set.restore_all(function_calls(&gemini("settings_update", &sent)).unwrap());
    let result = set.names().to_wire(snapshot.call_blocking(&calls[0]));
    assert_eq!(
        (result.name.as_str(), result.text().as_str()),
        (
            "settings_update",
            r#"invalid arguments for settings_update: /max_depth must be one of 1, 2; got "3""#
        )
    );
    // The call as the provider knows it, for the history sent back with the result.
    assert_eq!(
        set.names().call_to_wire(calls[0].clone()),
        ToolCall::new("", "settings_update", json!({"level": 2, "max_depth": "3"}))
    );
}

/// Passes with nothing to give back leave the value as it is: dispatch still checks what the
/// provider's form could not say, and names the pointer of the value the model sent.
#[test]
fn what_a_form_cannot_say_is_still_checked_at_the_pointer_the_model_saw() {
    let spec = |schema: Value| {
        let text = json!({"name": "t", "description": "A tool.", "input_schema": schema});
        tooldef::spec::parse_spec("t.json", &text.to_string(), None).unwrap().descriptor
    };
    let run = |renderer: &dyn Renderer, d: &tooldef::ToolDescriptor, args: Value| {
        let r = renderer.render(d, LossPolicy::Allow).unwrap();
        let executor: Arc<dyn Executor> = Arc::new(DynamicTool::new_sync(d.clone(), Ok));
        let registry = ToolRegistry::new();
        registry.register(executor, Origin::Mcp).unwrap();
        let call = r.restore(ToolCall::new("1", "t", args));
        (r.passes(), registry.snapshot().call_blocking(&call).text())
    };
    // A map's value type is only in the description of Gemini's OpenAPI form.
    let map = spec(json!({"type": "object", "properties": {"limits": {"type": "object",
        "additionalProperties": {"type": "integer", "maximum": 5}}}}));
    let (passes, text) = run(&GeminiRenderer::openapi(), &map, json!({"limits": {"cpu": 7}}));
    assert!(passes.contains(tooldef::Pass::MapValuesInText));
    assert_eq!(text, "invalid arguments for t: /limits/cpu must be at most 5; got 7");
    // `oneOf` is sent as `anyOf` in strict modes: a value both variants take is still refused.
    let one_of = spec(json!({"type": "object", "properties": {"n": {"oneOf": [
        {"type": "integer"}, {"type": "number", "minimum": 0}]}}, "required": ["n"]}));
    let strict = OpenAiRenderer::chat().strict(true);
    let (passes, text) = run(&strict, &one_of, json!({"n": 2}));
    assert!(passes.contains(tooldef::Pass::OneOfAsAnyOf));
    assert_eq!(
        text,
        "invalid arguments for t: /n must match exactly one of the `oneOf` variants; it matches variants 0 and 1"
    );
    // Ollama inlines references: the value is the same, checked against the definition.
    let reference = spec(json!({"type": "object", "properties": {"at": {"$ref": "#/$defs/Point"}},
        "required": ["at"], "$defs": {"Point": {"type": "object",
        "properties": {"x": {"type": "integer", "minimum": 0}}, "required": ["x"]}}}));
    let (passes, text) =
        run(&tooldef_ollama::OllamaRenderer::new(), &reference, json!({"at": {"x": -1}}));
    assert!(passes.contains(tooldef::Pass::InlineRefs));
    assert_eq!(text, "invalid arguments for t: /at/x must be at least 0; got -1");
    // A bound strict Anthropic moves into the description.
    let bounded =
        spec(json!({"type": "object", "properties": {"n": {"type": "integer", "maximum": 3}}}));
    let (passes, text) =
        run(&tooldef_anthropic::AnthropicRenderer::new().strict(true), &bounded, json!({"n": 4}));
    assert!(passes.contains(tooldef::Pass::KeywordsInText));
    assert_eq!(text, "invalid arguments for t: /n must be at most 3; got 4");
}
