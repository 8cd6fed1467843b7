//! The way back, end to end (issue 36): the README's `forecast` (`#[tool]`, `const`, spec
//! file) and the issue's `settings` spec, called by a model that obeys the schema it was sent,
//! mapped back by `tool_calls`, given back by the rendering and dispatched through a `Toolbox`
//! and a registry. Bounds and defaults are only in the descriptions here: dispatch still
//! applies and enforces them.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tooldef::{ToolSchema, TypedTool, tool};
use tooldef_testkit::way_back::{Loop, Mode, assert_issue_cases};

#[derive(Debug, Deserialize, Serialize, ToolSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// Forecast the weather.
#[tool]
fn forecast(
    city: String,
    #[param(default = 3, range = 1..=10)] days: u8,
    unit: Option<Unit>,
) -> String {
    format!("{city}: {days} days, unit {unit:?}")
}
use tooldef_ollama::{OllamaRenderer, tool_calls};

fn message(name: &str, args: &Value) -> Value {
    json!({"model": "llama3.2", "message": {"role": "assistant", "content": "",
        "tool_calls": [{"function": {"name": name, "arguments": args}}]}, "done": true})
}

#[test]
fn the_issue_example_reads_back() {
    let renderer = OllamaRenderer::new();
    let l = Loop {
        renderer: &renderer,
        parameters: "/function/parameters",
        openapi: false,
        message: &message,
        calls: &tool_calls,
    };
    let mode = Mode { all_required: false, string_enums: false };
    assert_issue_cases(&l, mode, &|| TypedTool::shared(Forecast));
}
