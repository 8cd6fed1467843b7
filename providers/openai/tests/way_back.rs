//! The way back, end to end (issue 36): a model that obeys the schema it was sent is never
//! refused. The README's `forecast` as a `#[tool]`, as a `const` descriptor and as a spec file,
//! and the issue's `settings` spec (an MCP server's tool has the same schema), rendered for
//! every OpenAI API and mode, called by a model that sends `null` for what it leaves out
//! wherever the schema makes it say so, mapped back by `chat_tool_calls` /
//! `responses_tool_calls`, given back by the rendering and dispatched through a `Toolbox` and a
//! registry.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tooldef::{LossPolicy, Renderer, Tool, ToolCall, ToolSchema, Toolbox, TypedTool, tool};
use tooldef_openai::{Api, OpenAiRenderer, Profile, chat_tool_calls, responses_tool_calls};
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

fn chat_message(name: &str, args: &Value) -> Value {
    json!({"role": "assistant", "content": null, "tool_calls": [{"id": "call_1",
        "type": "function", "function": {"name": name, "arguments": args.to_string()}}]})
}

fn responses_output(name: &str, args: &Value) -> Value {
    json!({"output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1",
        "name": name, "arguments": args.to_string()}]})
}

/// Every API, mode and profile, with whether it makes every property required.
fn renderers() -> Vec<(OpenAiRenderer, bool)> {
    let mut out = Vec::new();
    for strict in [false, true] {
        out.push((OpenAiRenderer::chat().strict(strict), strict));
        out.push((OpenAiRenderer::responses().strict(strict), strict));
        for profile in
            [Profile::Mistral, Profile::DeepSeek, Profile::Groq, Profile::XAi, Profile::Cohere]
        {
            // Cohere's `strict_tools` keeps optional parameters optional.
            out.push((
                OpenAiRenderer::chat().profile(profile).strict(strict),
                strict && profile != Profile::Cohere,
            ));
        }
    }
    out
}

#[test]
fn the_issue_example_reads_back_in_every_api_and_mode() {
    for (renderer, all_required) in renderers() {
        let l = match renderer.api() {
            Api::Chat => Loop {
                renderer: &renderer,
                parameters: "/function/parameters",
                openapi: false,
                message: &chat_message,
                calls: &chat_tool_calls,
            },
            Api::Responses => Loop {
                renderer: &renderer,
                parameters: "/parameters",
                openapi: false,
                message: &responses_output,
                calls: &responses_tool_calls,
            },
        };
        let mode = Mode { all_required, string_enums: false };
        assert_issue_cases(&l, mode, &|| TypedTool::shared(Forecast));
    }
}

/// Without the way back, dispatch reads the strict `null` as a value the tool refuses: what
/// every host got before it (issue 36).
#[test]
fn without_the_way_back_the_strict_null_is_refused() {
    let message = chat_message("forecast", &json!({"city": "Paris", "days": null, "unit": null}));
    let calls = chat_tool_calls(&message).unwrap();
    let toolbox = Toolbox::new().with(Forecast);
    assert_eq!(
        toolbox.call_blocking(&calls[0]).text(),
        "invalid arguments for forecast: /days must be an integer; got null"
    );
    let rendered = OpenAiRenderer::chat()
        .strict(true)
        .render(Forecast::descriptor(), LossPolicy::Refuse)
        .unwrap();
    let restored: Vec<ToolCall> = rendered.restore_all(calls);
    // Given back on the text: the `null` that stands for `days` left out is gone.
    assert_eq!(
        restored[0].arguments,
        tooldef::Arguments::Text(r#"{"city":"Paris","unit":null}"#.into())
    );
    assert_eq!(toolbox.call_blocking(&restored[0]).text(), "Paris: 3 days, unit None");
}

/// The stream's early checks read a value as the way back will: a strict `null` for a
/// parameter left out is no early error (it was one before), and each finished call is given
/// back.
#[test]
fn a_streamed_strict_null_is_no_early_error_and_the_call_comes_back() {
    use tooldef::stream::StreamEvent;
    use tooldef_openai::ChatStream;
    let renderer = OpenAiRenderer::chat().strict(true);
    let set = tooldef::RenderedSet::new(vec![
        renderer.render(Forecast::descriptor(), LossPolicy::Refuse).unwrap(),
    ]);
    let toolbox = Toolbox::new().with(Forecast);
    let chunks = |args: &str| {
        let (a, b) = args.split_at(args.len() / 2);
        vec![
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
                "type": "function", "function": {"name": "forecast", "arguments": a}}]}}]}),
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
                "function": {"arguments": b}}]}}]}),
            json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
        ]
    };
    let run = |mut stream: ChatStream<'_>, args: &str| -> Vec<String> {
        let mut seen = Vec::new();
        for chunk in chunks(args) {
            for event in stream.push(&chunk).unwrap() {
                seen.push(match event {
                    StreamEvent::Call(call) => toolbox.call_blocking(&call).text(),
                    StreamEvent::Invalid(invalid) => invalid.error.model_text(),
                    other => format!("{other:?}"),
                });
            }
        }
        stream.finish().unwrap();
        seen
    };
    let args = r#"{"city": "Paris", "days": null, "unit": null}"#;
    assert_eq!(
        run(ChatStream::with_tools(&toolbox), args),
        [
            "invalid arguments for forecast: /days must be an integer; got null",
            "invalid arguments for forecast: /days must be an integer; got null"
        ]
    );
    assert_eq!(
        run(ChatStream::with_tools(&toolbox).way_back(&set), args),
        ["Paris: 3 days, unit None"]
    );
    // A value the tool refuses is still an early error.
    assert_eq!(
        run(
            ChatStream::with_tools(&toolbox).way_back(&set),
            r#"{"city": "Paris", "days": 12, "unit": null}"#
        ),
        [
            "invalid arguments for forecast: /days must be at most 10; got 12",
            "invalid arguments for forecast: /days must be at most 10; got 12"
        ]
    );
}

/// A stream cut short is an error, never completed into a call (nothing is repaired).
#[test]
fn a_stream_cut_short_is_never_repaired() {
    use tooldef_openai::ChatStream;
    let toolbox = Toolbox::new().with(Forecast);
    let set = tooldef::RenderedSet::new(vec![
        OpenAiRenderer::chat()
            .strict(true)
            .render(Forecast::descriptor(), LossPolicy::Refuse)
            .unwrap(),
    ]);
    let mut stream = ChatStream::with_tools(&toolbox).way_back(&set);
    let chunk = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
        "id": "call_1", "type": "function",
        "function": {"name": "forecast", "arguments": "{\"city\": \"Par"}}]}}]});
    assert_eq!(stream.push(&chunk).unwrap(), []);
    assert_eq!(
        stream.finish().unwrap_err().to_string(),
        "the stream ended before these tool calls were finished: 0 (forecast)"
    );
}
