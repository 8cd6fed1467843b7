//! The way back, end to end (issue 36): the README's `forecast` (`#[tool]`, `const`, spec
//! file) and the issue's `settings` spec, rendered in both forms, called by a model that obeys
//! the schema it was sent, mapped back by `function_calls`, given back by the rendering and
//! dispatched through a `Toolbox` and a registry. The OpenAPI form takes enums of strings
//! only: `settings`' integer `level` is sent as `"2"` and given back as `2`.

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
use tooldef_gemini::{GeminiRenderer, function_calls};

fn message(name: &str, args: &Value) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": name, "args": args}}]}}]})
}

#[test]
fn the_issue_example_reads_back_in_both_forms() {
    let cases = [
        (GeminiRenderer::new(), "/parametersJsonSchema", false),
        (GeminiRenderer::openapi(), "/parameters", true),
    ];
    for (renderer, parameters, openapi) in cases {
        let l = Loop {
            renderer: &renderer,
            parameters,
            openapi,
            message: &message,
            calls: &function_calls,
        };
        let mode = Mode { all_required: false, string_enums: openapi };
        assert_issue_cases(&l, mode, &|| TypedTool::shared(Forecast));
    }
}

/// A streamed call in the OpenAPI form comes back typed, and its enum string is no error.
#[test]
fn a_streamed_call_comes_back_typed() {
    use tooldef::stream::StreamEvent;
    use tooldef::{LossPolicy, RenderedSet, Renderer, ToolCall};
    use tooldef_gemini::FunctionCallStream;
    use tooldef_testkit::way_back::{SETTINGS_SPEC, spec};
    let settings = vec![spec(SETTINGS_SPEC)];
    let set = RenderedSet::new(vec![
        GeminiRenderer::openapi().render(&settings[0], LossPolicy::Refuse).unwrap(),
    ]);
    let chunk = message("settings", &json!({"level": "2", "mode": "a"}));
    let events = FunctionCallStream::with_tools(&settings).push(&chunk).unwrap();
    assert_eq!(
        events
            .iter()
            .map(|e| match e {
                StreamEvent::Invalid(i) => i.error.model_text(),
                other => format!("{other:?}"),
            })
            .next()
            .unwrap(),
        r#"invalid arguments for settings: /level must be one of 1, 2, 3; got "2""#
    );
    let events = FunctionCallStream::with_tools(&settings).way_back(&set).push(&chunk).unwrap();
    assert_eq!(
        events,
        [StreamEvent::Call(ToolCall::new("", "settings", json!({"level": 2, "mode": "a"})))]
    );
}
