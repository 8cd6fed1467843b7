//! Streamed function calls: a documented `streamGenerateContent` sequence in, each call as soon
//! as its chunk arrives, invalid arguments reported with it.

use serde_json::{Value, json};
use tooldef::stream::{StreamError, StreamEvent, StreamLimits};
use tooldef::{Param, ToolCall, ToolDescriptor};
use tooldef_gemini::FunctionCallStream;
use tooldef_testkit::stream::{KELVIN, run_events, weather_tool};

const STREAM: &str = include_str!("fixtures/stream/function_calls.sse");

fn sse(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| l.trim_end_matches('\r').strip_prefix("data: ").map(str::to_owned))
        .map(|d| serde_json::from_str(&d).unwrap())
        .collect()
}

fn tools() -> Vec<ToolDescriptor> {
    vec![
        weather_tool(),
        ToolDescriptor::builder("get_time").param(Param::string("timezone")).build().unwrap(),
    ]
}

#[test]
fn each_call_comes_with_its_chunk_and_the_bad_one_is_flagged_before_the_stream_ends() {
    let chunks = sse(STREAM);
    assert_eq!(chunks.len(), 3);
    let tools = tools();
    let mut stream = FunctionCallStream::with_tools(&tools);
    let got = run_events(&chunks, |e| stream.push(e));
    stream.finish().unwrap();
    assert_eq!(
        got,
        vec![
            (
                1,
                Ok(ToolCall::new(
                    "",
                    "get_weather",
                    json!({"location": "Paris, France", "unit": "celsius"})
                ))
            ),
            (1, Err(KELVIN.to_owned())),
            (
                1,
                Ok(ToolCall::new(
                    "",
                    "get_weather",
                    json!({"unit": "kelvin", "location": "Bogotá, Colombia"})
                ))
            ),
            (2, Ok(ToolCall::new("", "get_time", json!({"timezone": "Europe/Paris"})))),
        ]
    );
}

#[test]
fn ids_are_kept_and_unknown_tools_flagged() {
    let tools = tools();
    let mut stream = FunctionCallStream::with_tools(&tools);
    let chunk = json!({"candidates": [{"content": {"parts": [
        {"functionCall": {"id": "fc-1", "name": "get_wether", "args": {}}}]}}]});
    let events = stream.push(&chunk).unwrap();
    let [StreamEvent::Invalid(inv), StreamEvent::Call(call)] = events.as_slice() else {
        panic!("{events:?}")
    };
    assert_eq!(call.id, "fc-1");
    assert_eq!(inv.call_id, "fc-1");
    assert_eq!(
        inv.error.to_string(),
        r#"there is no tool named "get_wether" (did you mean "get_weather"?); the available tools are get_weather, get_time"#
    );
}

#[test]
fn hostile_chunks_get_errors() {
    let partial = json!({"candidates": [{"content": {"parts": [{"functionCall":
        {"name": "get_weather", "partialArgs": [{"jsonPath": "$.location", "stringValue": "Par", "willContinue": true}], "willContinue": true}}]}}]});
    assert_eq!(
        FunctionCallStream::new().push(&partial).unwrap_err().to_string(),
        "event chunk 0: /candidates/0/content/parts/0/functionCall/partialArgs: streamed function call arguments (`partialArgs`) are not supported; leave `streamFunctionCallArguments` off"
    );
    let bad_args = json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "f", "args": [1]}}]}}]});
    assert_eq!(
        FunctionCallStream::new().push(&bad_args).unwrap_err().to_string(),
        "event chunk 0: /candidates/0/content/parts/0/functionCall/args: must be an object"
    );
    let mut two = FunctionCallStream::new().limits(StreamLimits::DEFAULT.max_calls(2));
    assert_eq!(two.push(&sse(STREAM)[1]).unwrap().len(), 2);
    assert_eq!(two.push(&sse(STREAM)[2]), Err(StreamError::TooManyCalls { limit: 2 }));
    let error = json!({"error": {"code": 429, "message": "Resource has been exhausted", "status": "RESOURCE_EXHAUSTED"}});
    assert_eq!(
        FunctionCallStream::new().push(&error).unwrap_err().to_string(),
        "the provider reported an error in the stream: Resource has been exhausted"
    );
}
