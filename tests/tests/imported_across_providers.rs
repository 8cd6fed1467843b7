//! What import keeps of a real tool reaches every provider in the form that provider takes, with
//! each change reported: an integer's `format: "int32"` (the bounds it means), and a default its
//! own schema rejects (the author's word to the model, never applied).

use serde_json::{Value, json};
use tooldef::{LossPolicy, Renderer, ToolDescriptor, parse_spec};

/// Every target as `tooldef render` configures it (plain and strict), with where its tool puts
/// the input schema.
fn targets() -> Vec<(&'static str, Box<dyn Renderer>, &'static str)> {
    use tooldef_anthropic::AnthropicRenderer;
    use tooldef_bedrock::BedrockRenderer;
    use tooldef_gemini::GeminiRenderer;
    use tooldef_openai::OpenAiRenderer;
    vec![
        ("openai", Box::new(OpenAiRenderer::chat()), "/function/parameters"),
        ("openai-strict", Box::new(OpenAiRenderer::chat().strict(true)), "/function/parameters"),
        ("anthropic", Box::new(AnthropicRenderer::new()), "/input_schema"),
        ("anthropic-strict", Box::new(AnthropicRenderer::new().strict(true)), "/input_schema"),
        ("gemini", Box::new(GeminiRenderer::new()), "/parametersJsonSchema"),
        ("gemini-openapi", Box::new(GeminiRenderer::openapi()), "/parameters"),
        ("ollama", Box::new(tooldef_ollama::OllamaRenderer::new()), "/function/parameters"),
        ("mcp", Box::new(tooldef_mcp::McpRenderer::new()), "/inputSchema"),
        ("bedrock", Box::new(BedrockRenderer::new()), "/toolSpec/inputSchema/json"),
        ("bedrock-strict", Box::new(BedrockRenderer::strict()), "/toolSpec/inputSchema/json"),
    ]
}

fn spec(input_schema: &str) -> ToolDescriptor {
    let text =
        format!(r#"{{"name": "t", "description": "A tool.", "input_schema": {input_schema}}}"#);
    parse_spec("t.json", &text, None).unwrap().descriptor
}

/// Per target: the rendered property `p`, and the report entries about it (without the
/// target's pointer prefix).
fn rendered(tool: &ToolDescriptor, p: &str) -> Vec<(&'static str, Value, Vec<String>)> {
    let mut out = Vec::new();
    for (name, renderer, base) in targets() {
        let r = renderer.render(tool, LossPolicy::Allow).unwrap();
        let property = r.to_value().pointer(&format!("{base}/properties/{p}")).unwrap().clone();
        let at = format!("tool `t`, parameter `{p}` at {base}/properties/{p}: ");
        let report = r
            .report()
            .iter()
            .map(ToString::to_string)
            .filter_map(|c| c.strip_prefix(&at).map(str::to_owned))
            .collect();
        out.push((name, property, report));
    }
    out
}

/// `format: "int32"` is kept where the provider takes formats on integers, and written as the
/// bounds it means (intersected with the schema's own, so `minimum: 0` stays) where not, both
/// lossless; a provider without bounds takes them into the description.
#[test]
fn an_int32_format_is_kept_or_written_as_its_bounds() {
    let tool = spec(
        r#"{"type": "object", "properties": {"n": {"type": "integer", "format": "int32", "minimum": 0}},
            "required": ["n"], "additionalProperties": false}"#,
    );
    let kept = json!({"type": "integer", "format": "int32", "minimum": 0});
    let bounds = json!({"type": "integer", "minimum": 0, "maximum": 2147483647});
    let described = json!({"type": "integer", "description": "Minimum: 0. Maximum: 2147483647."});
    let rewritten = "`format: int32` (-2147483648 to 2147483647) written as `maximum: 2147483647`: the provider does not take the format";
    let moved = ["`minimum` moved into the description", "`maximum` moved into the description"];
    let lines = |extra: &[&str]| -> Vec<String> {
        std::iter::once(rewritten).chain(extra.iter().copied()).map(str::to_owned).collect()
    };
    let expected: Vec<(&str, Value, Vec<String>)> = vec![
        ("openai", kept.clone(), vec![]),
        ("openai-strict", bounds.clone(), lines(&[])),
        ("anthropic", kept.clone(), vec![]),
        ("anthropic-strict", described.clone(), lines(&moved)),
        ("gemini", kept.clone(), vec![]),
        (
            "gemini-openapi",
            json!({"type": "INTEGER", "minimum": 0, "maximum": 2147483647}),
            lines(&[]),
        ),
        ("ollama", described.clone(), lines(&moved)),
        ("mcp", kept.clone(), vec![]),
        ("bedrock", kept, vec![]),
        ("bedrock-strict", described, lines(&moved)),
    ];
    assert_eq!(rendered(&tool, "n"), expected);
}

/// A default its own schema rejects (`"default": null` on a plain string, a sentinel outside its
/// enum) is still the author's word to the model: written as it is where JSON Schema passes
/// through (MCP gives back the server's schema exactly), in the description elsewhere (a
/// lossless change), and never applied at dispatch.
#[test]
fn a_default_its_schema_rejects_is_shown_and_never_applied() {
    let input = r#"{"type": "object", "properties": {
            "q": {"type": "string", "default": null},
            "mode": {"type": "string", "enum": ["fast", "slow"], "default": "dontcare"}},
        "required": ["q"], "additionalProperties": false}"#;
    let tool = spec(input);
    let verbatim = json!({"type": "string", "default": null});
    let described = json!({"type": "string", "description": "Default: null."});
    let moved = "a default its own schema rejects moved into the description (it is never applied)";
    let expected: Vec<(&str, Value, Vec<String>)> = vec![
        ("openai", verbatim.clone(), vec![]),
        ("openai-strict", described.clone(), vec![moved.to_owned()]),
        ("anthropic", verbatim.clone(), vec![]),
        ("anthropic-strict", described.clone(), vec![moved.to_owned()]),
        ("gemini", described.clone(), vec![moved.to_owned()]),
        (
            "gemini-openapi",
            json!({"type": "STRING", "description": "Default: null."}),
            vec![moved.to_owned()],
        ),
        ("ollama", described.clone(), vec![moved.to_owned()]),
        ("mcp", verbatim.clone(), vec![]),
        ("bedrock", verbatim, vec![]),
        ("bedrock-strict", described, vec![moved.to_owned()]),
    ];
    assert_eq!(rendered(&tool, "q"), expected);
    let modes: Vec<Value> = rendered(&tool, "mode").into_iter().map(|(_, v, _)| v).collect();
    assert_eq!(
        modes[0],
        json!({"type": "string", "enum": ["fast", "slow"], "default": "dontcare"})
    );
    assert_eq!(
        modes[1],
        json!({"type": ["string", "null"], "description": "Default: \"dontcare\".", "enum": ["fast", "slow", null]})
    );

    // MCP gives back exactly what the server listed.
    let mcp = tooldef_mcp::McpRenderer::new().render(&tool, LossPolicy::Refuse).unwrap();
    let compact: Value = serde_json::from_str(input).unwrap();
    assert_eq!(mcp.to_value()["inputSchema"], compact);

    // Dispatch applies no default: an absent key stays absent.
    use tooldef::dispatch::{DynamicTool, block_on};
    use tooldef::{Executor, ToolCall};
    let echo = DynamicTool::new_sync(tool, Ok);
    let result = block_on(echo.execute(&ToolCall::new("c1", "t", json!({"q": "x"}))));
    assert_eq!((result.is_error, result.structured), (false, Some(json!({"q": "x"}))));
}
