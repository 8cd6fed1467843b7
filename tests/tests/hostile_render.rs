//! Hostile descriptors against every renderer: references that fan out (each definition
//! referring to the one below ten times) end in bounded time with an error naming the
//! definition, wherever a provider needs references inlined; the others render them as `$ref`.

use serde_json::{Value, json};
use tooldef::{LossPolicy, Renderer, ToolDescriptor, parse_spec};

/// `d0` is a string; `dN` is an object of ten properties, each a reference to `d(N-1)`. Inlined,
/// `levels` definitions write 10^levels nodes; the spec is a few kilobytes.
fn fan_out(levels: usize) -> ToolDescriptor {
    fan_out_padded(levels, 0)
}

/// [`fan_out`] beside `padding` string parameters, which raise the descriptor's size and with it
/// the inlining budget.
fn fan_out_padded(levels: usize, padding: usize) -> ToolDescriptor {
    let mut defs = serde_json::Map::new();
    defs.insert("d0".into(), json!({"type": "string"}));
    for level in 1..=levels {
        let props: serde_json::Map<String, Value> = (0..10)
            .map(|i| (format!("p{i}"), json!({"$ref": format!("#/$defs/d{}", level - 1)})))
            .collect();
        defs.insert(format!("d{level}"), json!({"type": "object", "properties": props}));
    }
    let mut props = serde_json::Map::new();
    props.insert("x".into(), json!({"$ref": format!("#/$defs/d{levels}")}));
    for i in 0..padding {
        props.insert(format!("q{i}"), json!({"type": "string"}));
    }
    let spec = json!({
        "name": "fan",
        "input_schema": {"type": "object", "properties": props, "$defs": defs}
    });
    parse_spec("fan.json", &spec.to_string(), None).unwrap().descriptor
}

fn renderers() -> Vec<Box<dyn Renderer>> {
    vec![
        Box::new(tooldef_openai::OpenAiRenderer::chat()),
        Box::new(tooldef_openai::OpenAiRenderer::responses()),
        Box::new(tooldef_anthropic::AnthropicRenderer::new()),
        Box::new(tooldef_gemini::GeminiRenderer::new()),
        Box::new(tooldef_gemini::GeminiRenderer::openapi()),
        Box::new(tooldef_ollama::OllamaRenderer::new()),
        Box::new(tooldef_mcp::McpRenderer::new()),
        Box::new(tooldef_bedrock::BedrockRenderer::new()),
    ]
}

#[test]
fn inlining_references_that_fan_out_is_refused_naming_the_definition() {
    let spec_text_len = serde_json::to_string(&fan_out(12)).unwrap().len();
    assert!(spec_text_len < 40_000, "the hostile descriptor is small: {spec_text_len} bytes");
    let tool = fan_out(12);
    let mut inlining = 0;
    for r in renderers() {
        for policy in [LossPolicy::Allow, LossPolicy::Refuse] {
            match r.render(&tool, policy) {
                // Renderers that keep `$defs` write each definition once.
                Ok(rendered) => {
                    let bytes = rendered.json().len();
                    assert!(bytes < 100_000, "{}: {bytes} bytes", r.name());
                }
                Err(e) if e.message.contains("fan out") => {
                    inlining += 1;
                    assert!(e.message.contains("inlining definition `/$defs/d"), "{}", e.message);
                }
                // Strict modes may refuse the open objects first; that is another rule.
                Err(e) => assert_ne!(e.rule, tooldef::RenderRule::Limit, "{}", e.message),
            }
        }
    }
    assert!(inlining >= 2, "Ollama and Gemini's OpenAPI form inline references");
}

#[test]
fn modest_inlining_still_renders() {
    // Three levels inline into a thousand nodes: well inside the budget.
    let tool = fan_out(3);
    let ollama = tooldef_ollama::OllamaRenderer::new();
    let rendered = ollama.render(&tool, LossPolicy::Allow).unwrap();
    let value = rendered.to_value();
    let x = &value["function"]["parameters"]["properties"]["x"];
    assert_eq!(x["properties"]["p9"]["properties"]["p0"]["properties"]["p5"]["type"], "string");
}

#[test]
fn each_inlined_reference_is_reported_once_not_once_per_copy() {
    // Three levels inline into 1,110 references; the descriptor holds 31 (`x` and ten in each
    // of `d1` to `d3`), and the report names each of those once, at its first copy.
    let tool = fan_out(3);
    let ollama = tooldef_ollama::OllamaRenderer::new();
    let rendered = ollama.render(&tool, LossPolicy::Allow).unwrap();
    let inlined: Vec<(String, &str)> = rendered
        .report()
        .iter()
        .filter(|c| c.kind == tooldef::ChangeKind::Inlined)
        .map(|c| (c.pointer.to_string(), c.detail.as_ref()))
        .collect();
    assert_eq!(inlined.len(), 31, "{inlined:#?}");
    let x = "/function/parameters/properties/x";
    assert_eq!(inlined[0], (x.to_owned(), "reference to `d3` replaced by its definition"));
    let in_d3 = "reference to `d2` in definition `d3` replaced by its definition, here and in each \
                 copy of `d3`";
    assert_eq!(inlined[1], (format!("{x}/properties/p0"), in_d3));
    let in_d2 = "reference to `d1` in definition `d2` replaced by its definition, here and in each \
                 copy of `d2`";
    assert_eq!(inlined[2], (format!("{x}/properties/p0/properties/p0"), in_d2));
    let in_d1 = "reference to `d0` in definition `d1` replaced by its definition, here and in each \
                 copy of `d1`";
    assert_eq!(inlined[3], (format!("{x}/properties/p0/properties/p0/properties/p0"), in_d1));
    for (detail, count) in [(in_d3, 10), (in_d2, 10), (in_d1, 10)] {
        assert_eq!(inlined.iter().filter(|(_, d)| *d == detail).count(), count, "{detail}");
    }
}

#[test]
fn inlining_stops_at_a_ceiling_however_large_the_descriptor() {
    // 3,357 nodes would allow 231,232 inlined by size alone, enough for the 222,221 of five
    // levels; the ceiling stops them at 65,536, before tens of megabytes are written.
    let tool = fan_out_padded(5, 3_300);
    let ollama = tooldef_ollama::OllamaRenderer::new();
    let e = ollama.render(&tool, LossPolicy::Allow).unwrap_err();
    assert_eq!(e.rule, tooldef::RenderRule::Limit);
    assert!(
        e.message.ends_with(
            "inlining definition `/$defs/d5` would write more than 65536 schema nodes for a \
             descriptor of 3357: its references fan out (each level refers to the one below \
             several times)"
        ),
        "{}",
        e.message
    );
}
