//! Streamed tool calls: a documented ConverseStream event sequence in (two `toolUse` blocks
//! whose pieces interleave), whole calls and early argument errors out.

use serde_json::{Value, json};
use tooldef::ToolDescriptor;
use tooldef::stream::{StreamError, StreamLimits};
use tooldef_bedrock::ConverseToolStream;
use tooldef_testkit::stream::{KELVIN, run_events, weather_call, weather_tool};

const STREAM: &str = include_str!("fixtures/stream/converse_stream.jsonl");

fn events() -> Vec<Value> {
    STREAM.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn tools() -> Vec<ToolDescriptor> {
    vec![weather_tool()]
}

#[test]
fn interleaved_tool_use_blocks_are_assembled_and_the_bad_unit_reported_early() {
    let events = events();
    let tools = tools();
    let mut stream = ConverseToolStream::with_tools(&tools);
    let got = run_events(&events, |e| stream.push(e));
    stream.finish().unwrap();
    let first_stop =
        events.iter().position(|e| e["contentBlockStop"]["contentBlockIndex"] == 1).unwrap();
    assert!(got[0].0 < first_stop, "reported at {} (first stop {first_stop})", got[0].0);
    let got: Vec<_> = got.into_iter().map(|(_, r)| r).collect();
    assert_eq!(
        got,
        vec![
            Err(KELVIN.to_owned()),
            Ok(weather_call(
                "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q",
                r#"{"location":"Paris, France","unit":"celsius"}"#
            )),
            Ok(weather_call(
                "tooluse_9vLx2pQeSd-2bC4a8hV0Ow",
                r#"{"unit":"kelvin","location":"Bogotá, Colombia"}"#
            )),
        ]
    );
}

#[test]
fn typed_events_are_read_like_wrapped_ones() {
    let mut wrapped = ConverseToolStream::new();
    let mut typed = ConverseToolStream::new();
    for e in events() {
        let (kind, payload) = e.as_object().unwrap().iter().next().unwrap();
        assert_eq!(wrapped.push(&e).unwrap(), typed.push_typed(kind, payload).unwrap());
    }
}

#[test]
fn hostile_sequences_get_errors_naming_the_block() {
    let delta = json!({"contentBlockDelta": {"contentBlockIndex": 5, "delta": {"toolUse": {"input": "{"}}}});
    assert_eq!(ConverseToolStream::new().push(&delta), Err(StreamError::NotStarted { index: 5 }));
    let events = events();
    let mut never_stopped = ConverseToolStream::new();
    never_stopped.push(&events[3]).unwrap();
    assert_eq!(
        never_stopped.finish().unwrap_err().to_string(),
        "the stream ended before these tool calls were finished: 1 (get_weather)"
    );
    let mut small = ConverseToolStream::new().limits(StreamLimits::DEFAULT.max_argument_bytes(64));
    small.push(&events[3]).unwrap();
    let huge = json!({"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": "9".repeat(65)}}}});
    assert_eq!(
        small.push(&huge),
        Err(StreamError::TooLarge { index: 1, what: "arguments", limit: 64 })
    );
    assert_eq!(
        ConverseToolStream::new().push(&json!({"a": {}, "b": {}})).unwrap_err().to_string(),
        "event ?: : an event is an object with exactly one key, its type"
    );
    let throttled = json!({"throttlingException": {"message": "Too many requests"}});
    assert_eq!(
        ConverseToolStream::new().push(&throttled).unwrap_err().to_string(),
        "the provider reported an error in the stream: throttlingException: Too many requests"
    );
}
