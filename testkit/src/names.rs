//! The name-mapping fixture every provider's end-to-end test shares: a tool as an MCP server
//! names it (a dotted tool name, property names with `-` and `.` at several depths), the
//! arguments the tool must receive, and a toolbox whose tool echoes them.

use serde_json::{Value, json};
use tooldef::dispatch::{DynamicTool, Toolbox};
use tooldef::spec::spec_from_value;
use tooldef::{ToolCall, ToolDescriptor};

/// `weather.get`, with properties `Content-Type`, `filter.max-results`, `filter.days` and
/// `stops[].city.name`: names MCP accepts and OpenAI (the tool name) or Gemini (the property
/// names) refuse.
pub fn dotted_tool() -> ToolDescriptor {
    let spec = json!({
        "name": "weather.get",
        "description": "Get the weather along a route.",
        "input_schema": {
            "type": "object",
            "properties": {
                "Content-Type": { "type": "string" },
                "filter": {
                    "type": "object",
                    "properties": {
                        "max-results": { "type": "integer" },
                        "days": { "type": "integer" }
                    },
                    "required": ["max-results", "days"],
                    "additionalProperties": false
                },
                "stops": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": { "city.name": { "type": "string" } },
                        "required": ["city.name"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["Content-Type", "filter", "stops"],
            "additionalProperties": false
        }
    });
    match spec_from_value("weather.get", &spec, None) {
        Ok(spec) => spec.descriptor,
        Err(e) => panic!("the fixture imports: {e}"),
    }
}

/// The arguments under the original names: what the tool must receive, whatever the provider
/// was sent.
pub fn original_arguments() -> Value {
    json!({
        "Content-Type": "text/plain",
        "filter": { "max-results": 3, "days": 2 },
        "stops": [{ "city.name": "Paris" }, { "city.name": "Lyon" }]
    })
}

/// The same arguments as a model sends them when property names were mapped with Gemini's
/// rule (`^[A-Za-z_][A-Za-z0-9_]{0,63}$`).
pub fn gemini_arguments() -> Value {
    json!({
        "Content_Type": "text/plain",
        "filter": { "max_results": 3, "days": 2 },
        "stops": [{ "city_name": "Paris" }, { "city_name": "Lyon" }]
    })
}

/// A toolbox holding [`dotted_tool`], whose executor returns the arguments it was given
/// (after dispatch decoded and validated them against the original schema).
pub fn echo_toolbox() -> Toolbox {
    let tool = DynamicTool::new_sync(dotted_tool(), |args: Value| Ok(args));
    Toolbox::new().with_executor(tool.into())
}

/// Dispatches `call` to [`echo_toolbox`] and checks the tool ran with [`original_arguments`].
pub fn assert_dispatched_under_original_names(call: &ToolCall) {
    assert_eq!(call.name, "weather.get");
    let result = echo_toolbox().call_blocking(call);
    assert!(!result.is_error, "the call fails: {}", result.text());
    assert_eq!(result.structured, Some(original_arguments()));
}
