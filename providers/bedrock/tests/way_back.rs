//! The way back, end to end (issue 36): the README's `forecast` (`#[tool]`, `const`, spec
//! file) and the issue's `settings` spec, rendered for Converse plain and strict, called by a
//! model that obeys the schema it was sent, mapped back by `tool_uses`, given back by the
//! rendering and dispatched through a `Toolbox` and a registry. Strict tools keep optional
//! properties optional, so nothing the model leaves out is sent at all.

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
use tooldef_bedrock::{BedrockRenderer, tool_uses};

fn message(name: &str, args: &Value) -> Value {
    json!({"output": {"message": {"role": "assistant", "content": [
        {"toolUse": {"toolUseId": "tooluse_1", "name": name, "input": args}}]}},
        "stopReason": "tool_use"})
}

#[test]
fn the_issue_example_reads_back_plain_and_strict() {
    for renderer in [BedrockRenderer::new(), BedrockRenderer::strict()] {
        let l = Loop {
            renderer: &renderer,
            parameters: "/toolSpec/inputSchema/json",
            openapi: false,
            message: &message,
            calls: &tool_uses,
        };
        let mode = Mode { all_required: false, string_enums: false };
        assert_issue_cases(&l, mode, &|| TypedTool::shared(Forecast));
    }
}
