//! `$ref`s to any place of their document (`#/properties/contents/items`), as published MCP
//! servers write them: imported as lifted definitions, rendered for every target that takes
//! their shape, refused with a message that says recursion where a target refuses it, and
//! given back by the MCP renderer as an equivalent schema.

use serde_json::{Value, json};
use tooldef::{LossPolicy, Override, ToolDescriptor};
use tooldef_testkit::real::Target;

/// A `tools/list` entry whose second property reuses the first one's items.
fn reused() -> Value {
    json!({
        "name": "generate",
        "description": "Generate a reply.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "contents": {"type": "array", "items": {"type": "object", "properties": {"role": {"type": "string", "enum": ["user", "model"]}, "text": {"type": "string"}}, "required": ["role", "text"], "additionalProperties": false}},
                "system": {"$ref": "#/properties/contents/items"}
            },
            "required": ["contents"],
            "additionalProperties": false
        }
    })
}

/// A `tools/list` entry whose property refers to itself.
fn recursive() -> Value {
    json!({
        "name": "outline",
        "description": "Write an outline.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "root": {"type": "object", "properties": {"title": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/properties/root"}}}, "required": ["title", "children"], "additionalProperties": false}
            },
            "required": ["root"],
            "additionalProperties": false
        }
    })
}

fn import(tool: &Value) -> ToolDescriptor {
    let listed = tooldef_mcp::import_tools(&Value::Array(vec![tool.clone()])).unwrap();
    listed.tools.into_iter().next().unwrap()
}

#[test]
fn a_ref_to_another_property_s_items_renders_for_every_target_within_its_wire_spec() {
    let d = import(&reused());
    for target in Target::ALL {
        let rendered = target
            .renderer()
            .render(&d, LossPolicy::Allow)
            .unwrap_or_else(|e| panic!("{target}: {e}"));
        assert_eq!(target.violations(&rendered.to_value()), Vec::<String>::new(), "{target}");
    }
    // Written from the IR (the source text dropped), the place is a definition of its own.
    let mut ir = d.clone();
    ir.source = tooldef::SchemaSource::NONE;
    let wire = Target::Anthropic.renderer().render(&ir, LossPolicy::Refuse).unwrap().to_value();
    let item = json!({
        "type": "object",
        "properties": {"role": {"type": "string", "enum": ["user", "model"]}, "text": {"type": "string"}},
        "required": ["role", "text"],
        "additionalProperties": false
    });
    assert_eq!(
        wire["input_schema"],
        json!({
            "type": "object",
            "properties": {
                "contents": {"type": "array", "items": item},
                "system": {"$ref": "#/$defs/Input_contents_items"}
            },
            "required": ["contents"],
            "additionalProperties": false,
            "$defs": {"Input_contents_items": item}
        })
    );
}

#[test]
fn a_recursive_ref_renders_where_recursion_is_taken_and_is_refused_as_recursion_elsewhere() {
    let d = import(&recursive());
    let itself = |param: &str, at: &str, rule: &str| {
        format!(
            "tool `outline`, parameter `{param}` at {at}: definition `Input_root` refers to itself, and this provider {rule}"
        )
    };
    let strict = |prefix: &str| {
        let at = format!("{prefix}/properties/root/properties/children/items");
        itself("root.children[]", &at, "does not accept recursive schemas")
    };
    let inlined = |prefix: &str| {
        let at =
            format!("{prefix}/properties/root/properties/children/items/properties/children/items");
        itself("root.children[].children[]", &at, "needs references inlined")
    };
    for target in Target::ALL {
        let refused = match target {
            Target::AnthropicStrict => Some(strict("/input_schema")),
            Target::BedrockStrict => Some(strict("/toolSpec/inputSchema/json")),
            Target::GeminiOpenApi => Some(inlined("/parameters")),
            _ => None,
        };
        match (target.renderer().render(&d, LossPolicy::Allow), refused) {
            (Ok(rendered), None) => {
                assert_eq!(
                    target.violations(&rendered.to_value()),
                    Vec::<String>::new(),
                    "{target}"
                );
            }
            (Err(e), Some(want)) => assert_eq!(e.to_string(), want, "{target}"),
            (Ok(_), Some(want)) => panic!("{target} rendered; expected: {want}"),
            (Err(e), None) => panic!("{target}: {e}"),
        }
    }
}

#[test]
fn the_mcp_renderer_gives_back_an_equivalent_schema() {
    for listed in [reused(), recursive()] {
        let d = import(&listed);
        // The server's own text, while the IR is what it was imported as.
        let rendered = Target::Mcp.renderer().render(&d, LossPolicy::Refuse).unwrap().to_value();
        assert_eq!(
            tooldef_testkit::real::mcp_round_trip_misses(&listed, &rendered),
            Vec::<String>::new()
        );
        // Written from the IR: it reads back as the same tool.
        let mut ir = d.clone();
        ir.source = tooldef::SchemaSource::NONE;
        let rendered = Target::Mcp.renderer().render(&ir, LossPolicy::Refuse).unwrap();
        assert!(rendered.report().is_empty(), "{:?}", rendered.report());
        assert_eq!(import(&rendered.to_value()), d);
    }
    // An override that changes the schema renders from the IR, and reads back as it is.
    let d = import(&reused());
    let edited = Override::edit(|d: &mut ToolDescriptor| {
        if let Some(p) = d.param_mut("system") {
            p.schema.description = Some("Instructions for the whole conversation.".into());
        }
    })
    .apply(&d)
    .unwrap();
    assert_eq!(edited.source_input_schema(), None);
    let rendered = Target::Mcp.renderer().render(&edited, LossPolicy::Refuse).unwrap().to_value();
    assert_eq!(
        rendered["inputSchema"]["properties"]["system"],
        json!({"$ref": "#/$defs/Input_contents_items", "description": "Instructions for the whole conversation."})
    );
    assert_eq!(import(&rendered), edited);
}
