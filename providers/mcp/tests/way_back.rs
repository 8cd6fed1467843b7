//! The way back, end to end (issue 36): the README's `forecast` (`#[tool]`, `const`, spec
//! file) and the issue's `settings` spec, listed by a server, called by a client that obeys
//! the schema it was sent, mapped back by `tool_call`, given back by the rendering (MCP takes
//! every schema as it is: nothing to give back) and dispatched through a `Toolbox` and a
//! registry.

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
use tooldef_mcp::{McpRenderer, tool_call};

fn request(name: &str, args: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": name, "arguments": args}})
}

#[test]
fn the_issue_example_reads_back() {
    let renderer = McpRenderer::new();
    let calls = |r: &Value| tool_call(r).map(|c| vec![c]);
    let l = Loop {
        renderer: &renderer,
        parameters: "/inputSchema",
        openapi: false,
        message: &request,
        calls: &calls,
    };
    let mode = Mode { all_required: false, string_enums: false };
    assert_issue_cases(&l, mode, &|| TypedTool::shared(Forecast));
}
