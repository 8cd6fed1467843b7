//! Streamed tool calls: a documented Messages event sequence in, whole calls and early
//! argument errors out; hostile sequences get errors, never panics.

use serde_json::{Value, json};
use tooldef::ToolDescriptor;
use tooldef::stream::{StreamError, StreamLimits};
use tooldef_anthropic::ToolUseStream;
use tooldef_testkit::stream::{KELVIN, run_events, weather_call, weather_tool};

const STREAM: &str = include_str!("fixtures/stream/tool_use.sse");

/// The JSON of every `data:` line; each is checked against the `event:` line before it.
fn sse(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut kind = None;
    for line in text.lines() {
        if let Some(k) = line.strip_prefix("event: ") {
            kind = Some(k.to_owned());
        } else if let Some(d) = line.strip_prefix("data: ") {
            let v: Value = serde_json::from_str(d).unwrap();
            assert_eq!(v["type"].as_str(), kind.as_deref(), "{d}");
            out.push(v);
        }
    }
    out
}

fn tools() -> Vec<ToolDescriptor> {
    vec![weather_tool()]
}

#[test]
fn tool_use_blocks_are_assembled_and_the_bad_unit_reported_before_the_block_stops() {
    let events = sse(STREAM);
    let tools = tools();
    let mut stream = ToolUseStream::with_tools(&tools);
    let got = run_events(&events, |e| stream.push(e));
    stream.finish().unwrap();
    let stop_of_second = events.iter().rposition(|e| e["type"] == "content_block_stop").unwrap();
    let (reported_at, _) = got.iter().find(|(_, r)| r.is_err()).unwrap();
    assert!(*reported_at < stop_of_second - 3, "reported at {reported_at}");
    let got: Vec<_> = got.into_iter().map(|(_, r)| r).collect();
    assert_eq!(
        got,
        vec![
            Ok(weather_call(
                "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
                r#"{"location": "San Francisco, CA", "unit": "fahrenheit"}"#
            )),
            Err(KELVIN.to_owned()),
            Ok(weather_call(
                "toolu_02Bq8nUeJ4iR7cKx1pZ0aY9w",
                r#"{"unit":"kelvin","location":"Bogotá, Colombia"}"#
            )),
        ]
    );
}

#[test]
fn interleaved_blocks_and_a_tool_without_input() {
    let start = |i: u64, id: &str| {
        json!({"type": "content_block_start", "index": i,
        "content_block": {"type": "tool_use", "id": id, "name": "get_weather", "input": {}}})
    };
    let delta = |i: u64, p: &str| {
        json!({"type": "content_block_delta", "index": i,
        "delta": {"type": "input_json_delta", "partial_json": p}})
    };
    let stop = |i: u64| json!({"type": "content_block_stop", "index": i});
    let events = [
        start(0, "a"),
        start(1, "b"),
        delta(1, "{\"location\":"),
        delta(0, "{\"location\":\"x\"}"),
        stop(0),
        delta(1, "\"y\"}"),
        stop(1),
        start(2, "c"),
        stop(2),
    ];
    let mut stream = ToolUseStream::new();
    let got: Vec<_> = run_events(&events, |e| stream.push(e)).into_iter().map(|(_, r)| r).collect();
    assert_eq!(
        got,
        vec![
            Ok(weather_call("a", r#"{"location":"x"}"#)),
            Ok(weather_call("b", r#"{"location":"y"}"#)),
            Ok(weather_call("c", "{}")),
        ]
    );
}

#[test]
fn server_tool_blocks_are_not_ours() {
    let events = [
        json!({"type": "content_block_start", "index": 0, "content_block":
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta":
            {"type": "input_json_delta", "partial_json": "{\"query\": \"x\"}"}}),
        json!({"type": "content_block_stop", "index": 0}),
    ];
    let mut stream = ToolUseStream::new();
    assert_eq!(run_events(&events, |e| stream.push(e)), vec![]);
    stream.finish().unwrap();
}

#[test]
fn hostile_sequences_get_errors_naming_the_block() {
    let delta = json!({"type": "content_block_delta", "index": 3,
        "delta": {"type": "input_json_delta", "partial_json": "{"}});
    assert_eq!(ToolUseStream::new().push(&delta), Err(StreamError::NotStarted { index: 3 }));
    let events = sse(STREAM);
    let start = events.iter().position(|e| e["content_block"]["type"] == "tool_use").unwrap();
    let mut never_stopped = ToolUseStream::new();
    never_stopped.push(&events[start]).unwrap();
    assert_eq!(
        never_stopped.finish().unwrap_err().to_string(),
        "the stream ended before these tool calls were finished: 1 (get_weather)"
    );
    let mut small = ToolUseStream::new().limits(StreamLimits::DEFAULT.max_argument_bytes(100));
    small.push(&events[start]).unwrap();
    let huge = json!({"type": "content_block_delta", "index": 1,
        "delta": {"type": "input_json_delta", "partial_json": " ".repeat(1000)}});
    assert_eq!(
        small.push(&huge).unwrap_err(),
        StreamError::TooLarge { index: 1, what: "arguments", limit: 100 }
    );
    let stop_twice = json!({"type": "content_block_stop", "index": 9});
    assert_eq!(ToolUseStream::new().push(&stop_twice), Err(StreamError::NotStarted { index: 9 }));
    let no_id = json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "name": "x"}});
    assert_eq!(
        ToolUseStream::new().push(&no_id).unwrap_err().to_string(),
        "event content_block_start: /content_block/id: must be a string"
    );
    let overloaded =
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
    assert_eq!(
        ToolUseStream::new().push(&overloaded).unwrap_err().to_string(),
        "the provider reported an error in the stream: Overloaded"
    );
}
