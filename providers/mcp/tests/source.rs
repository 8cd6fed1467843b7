//! An MCP tool imported and rendered again comes back as the server listed it, in the server's
//! own spelling of each schema; once anything changed the descriptor's schema (an override, an
//! edit), the renderer writes the IR and the change shows.

use serde_json::{Value, json};
use tooldef::render::{LossPolicy, RenderCache, Renderer};
use tooldef::{Constraint, KeyOrder, Override, ToolDescriptor};
use tooldef_mcp::{McpRenderer, McpVersion, import_tools_text};

/// A `tools/list` result whose schemas use spellings the IR normalises: a numeric enum of whole
/// numbers under `number`, `null` first in a type array, `const`, draft-07 `definitions` and
/// `$schema`. Keys are in the order the renderer writes a `Tool`'s fields.
const LISTED: &str = r##"{"tools": [{
  "name": "search_files",
  "title": "Search files",
  "description": "Find files by name and size.",
  "inputSchema": {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
      "query": {"type": "string", "minLength": 1},
      "limit": {"type": "number", "enum": [10, 50, 100], "default": 10},
      "kind": {"type": ["null", "string"], "enum": ["file", "dir", null]},
      "mode": {"const": "exact"},
      "owner": {"$ref": "#/definitions/Owner"}
    },
    "required": ["query"],
    "additionalProperties": false,
    "definitions": {
      "Owner": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    }
  },
  "outputSchema": {
    "type": "object",
    "properties": {"total": {"type": ["integer", "null"]}, "paths": {"type": "array", "items": {"type": "string"}}},
    "required": ["paths"]
  },
  "annotations": {"readOnlyHint": true},
  "_meta": {"io.example/tier": "free"}
}]}"##;

/// The listed tool, imported.
fn imported() -> ToolDescriptor {
    let mut tools = import_tools_text(LISTED).unwrap().tools;
    assert_eq!(tools.len(), 1);
    tools.remove(0)
}

/// The compact text of the value at `pointer` in [`LISTED`], its keys in the order written.
fn listed_text(pointer: &str) -> String {
    let (value, order) = KeyOrder::parse(LISTED.as_bytes()).unwrap();
    order.to_text(pointer, value.pointer(pointer).unwrap())
}

fn render(d: &ToolDescriptor) -> Value {
    let rendered = McpRenderer::new().render(d, LossPolicy::Refuse).unwrap();
    assert!(rendered.report().is_empty(), "{:?}", rendered.report());
    rendered.to_value()
}

#[test]
fn import_then_render_gives_the_tool_back_byte_for_byte() {
    let d = imported();
    for version in [McpVersion::V2025_06_18, McpVersion::V2025_11_25, McpVersion::V2026_07_28] {
        let rendered = McpRenderer::version(version).render(&d, LossPolicy::Refuse).unwrap();
        assert_eq!(rendered.json(), listed_text("/tools/0"), "{}", version.as_str());
        assert!(rendered.report().is_empty());
    }
}

#[test]
fn a_narrowing_override_is_rendered_from_the_ir_and_shows() {
    let d = imported();
    let narrowed =
        Override::constrain("limit", Constraint::one_of_values([10i64, 50])).apply(&d).unwrap();
    assert_eq!(narrowed.source_input_schema(), None);
    let wire = render(&narrowed);
    // The input schema is the IR's now: the narrowed enum, and the IR's spellings elsewhere.
    assert_eq!(
        wire["inputSchema"],
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "minLength": 1},
                "limit": {"type": "integer", "enum": [10, 50], "default": 10},
                "kind": {"type": ["string", "null"], "enum": ["file", "dir", null]},
                "mode": {"type": "string", "enum": ["exact"]},
                "owner": {"$ref": "#/$defs/Owner"}
            },
            "required": ["query"],
            "additionalProperties": false,
            "$defs": {
                "Owner": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"]
                }
            }
        })
    );
    // The override touched the input only: the output schema is still as listed.
    let listed: Value = serde_json::from_str(LISTED).unwrap();
    assert_eq!(wire["outputSchema"], listed["tools"][0]["outputSchema"]);
    assert_eq!(
        narrowed.source_output_schema(),
        Some(listed_text("/tools/0/outputSchema").as_str())
    );
}

#[test]
fn a_hidden_parameter_is_gone_from_the_rendered_schema() {
    let d = imported();
    let hidden = Override::hide("mode", "exact").apply(&d).unwrap();
    let wire = render(&hidden);
    let properties = wire["inputSchema"]["properties"].as_object().unwrap();
    let mut names: Vec<&str> = properties.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["kind", "limit", "owner", "query"]);
    // A change to the tool's description alone keeps both schemas as listed.
    let described = Override::description("Find files.").apply(&d).unwrap();
    let wire = render(&described);
    let listed: Value = serde_json::from_str(LISTED).unwrap();
    assert_eq!(wire["description"], "Find files.");
    assert_eq!(wire["inputSchema"], listed["tools"][0]["inputSchema"]);
}

#[test]
fn any_edit_of_the_descriptor_falls_back_and_undoing_it_restores_the_source() {
    let d = imported();
    let input = listed_text("/tools/0/inputSchema");
    let output = listed_text("/tools/0/outputSchema");
    assert_eq!(d.source_input_schema(), Some(input.as_str()));

    let mut edited = d.clone();
    let original = edited.params[0].schema.description.clone();
    edited.param_mut("query").unwrap().schema.description = Some("Part of a file name.".into());
    assert_eq!(edited.source_input_schema(), None);
    assert_eq!(
        render(&edited)["inputSchema"]["properties"]["query"],
        json!({"type": "string", "description": "Part of a file name.", "minLength": 1})
    );
    edited.param_mut("query").unwrap().schema.description = original;
    assert_eq!(edited.source_input_schema(), Some(input.as_str()));

    let mut edited = d.clone();
    edited.definitions.to_mut()[0].schema.description = Some("Who owns it.".into());
    // Definitions are shared by both schemas: both fall back.
    assert_eq!((edited.source_input_schema(), edited.source_output_schema()), (None, None));

    let mut edited = d.clone();
    edited.output = None;
    assert_eq!(edited.source_output_schema(), None);
    assert_eq!(edited.source_input_schema(), Some(input.as_str()));
    assert_eq!(render(&edited).get("outputSchema"), None);
    assert_eq!(d.source_output_schema(), Some(output.as_str()));
}

#[test]
fn the_source_is_not_serialized_and_takes_no_part_in_equality() {
    let d = imported();
    let back: ToolDescriptor = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(back, d);
    assert!(back.source.is_none());
    assert_eq!(back.source_input_schema(), None);
    // Rendered from the IR, so the integer enum shows.
    assert_eq!(render(&back)["inputSchema"]["properties"]["limit"]["type"], "integer");
}

#[test]
fn the_render_cache_tells_a_kept_source_from_the_same_ir_without_one() {
    let d = imported();
    let mut plain = d.clone();
    plain.source = tooldef::SchemaSource::NONE;
    assert_eq!(plain, d);
    let cache = RenderCache::new();
    let renderer = McpRenderer::new();
    let first = cache.get(&renderer, &plain, LossPolicy::Refuse).unwrap();
    let second = cache.get(&renderer, &d, LossPolicy::Refuse).unwrap();
    assert_eq!(first.to_value()["inputSchema"]["properties"]["limit"]["type"], "integer");
    assert_eq!(second.json(), listed_text("/tools/0"));
}
