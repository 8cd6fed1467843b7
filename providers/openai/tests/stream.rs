//! Streamed tool calls: documented Chat Completions and Responses event sequences in, whole
//! calls and early argument errors out; the fixtures also read by `async-openai`'s types.

use serde_json::{Value, json};
use tooldef::ToolDescriptor;
use tooldef::stream::{StreamError, StreamLimits};
use tooldef_openai::{ChatStream, ResponsesStream};
use tooldef_testkit::stream::{KELVIN, run_events, weather_call, weather_tool};

const CHAT: &str = include_str!("fixtures/stream/chat_parallel.sse");
const RESPONSES: &str = include_str!("fixtures/stream/responses_parallel.sse");

/// The JSON of every `data:` line of a server-sent-event stream, `[DONE]` excluded.
fn sse(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter(|d| *d != "[DONE]")
        .map(|d| serde_json::from_str(d).unwrap())
        .collect()
}

fn tools() -> Vec<ToolDescriptor> {
    vec![weather_tool()]
}

#[test]
fn chat_parallel_calls_are_assembled_and_the_bad_unit_reported_early() {
    let chunks = sse(CHAT);
    let tools = tools();
    let mut stream = ChatStream::with_tools(&tools);
    let got = run_events(&chunks, |c| stream.push(c));
    stream.finish().unwrap();
    let last = chunks.len() - 1;
    // `"kelvin"` closes in the third of call 1's argument pieces, long before the stream ends.
    let (reported_at, _) = got.iter().find(|(_, r)| r.is_err()).unwrap();
    assert!(*reported_at < last - 1, "reported at chunk {reported_at} of {last}");
    let without_position: Vec<_> = got.into_iter().map(|(_, r)| r).collect();
    assert_eq!(
        without_position,
        vec![
            Err(KELVIN.to_owned()),
            Ok(weather_call("call_12345xyz", r#"{"location":"Paris, France","unit":"celsius"}"#)),
            Ok(weather_call("call_67890abc", r#"{"unit":"kelvin","location":"Bogotá, Colombia"}"#)),
        ]
    );
}

#[test]
fn chat_chunks_are_async_openai_stream_chunks() {
    use async_openai::types::chat::CreateChatCompletionStreamResponse;
    for chunk in sse(CHAT) {
        let typed: CreateChatCompletionStreamResponse =
            serde_json::from_value(chunk.clone()).unwrap();
        // Nothing of the tool-call pieces is lost in the typed form.
        let back = serde_json::to_value(&typed.choices[0].delta.tool_calls).unwrap();
        assert_eq!(
            back,
            chunk["choices"][0]["delta"].get("tool_calls").cloned().unwrap_or(Value::Null)
        );
    }
}

#[test]
fn responses_function_calls_are_assembled_and_the_bad_unit_reported_early() {
    let events = sse(RESPONSES);
    let tools = tools();
    let mut stream = ResponsesStream::with_tools(&tools);
    let got = run_events(&events, |e| stream.push(e));
    stream.finish().unwrap();
    let done_of_second =
        events.iter().rposition(|e| e["type"] == "response.function_call_arguments.done").unwrap();
    let (reported_at, _) = got.iter().find(|(_, r)| r.is_err()).unwrap();
    assert!(*reported_at < done_of_second, "reported at {reported_at}, done at {done_of_second}");
    let without_position: Vec<_> = got.into_iter().map(|(_, r)| r).collect();
    assert_eq!(
        without_position,
        vec![
            Ok(weather_call("call_aaa", r#"{"location":"Paris, France","unit":"celsius"}"#)),
            Err(KELVIN.to_owned()),
            Ok(weather_call("call_bbb", r#"{"unit":"kelvin","location":"Bogotá, Colombia"}"#)),
        ]
    );
}

#[test]
fn responses_events_are_async_openai_stream_events() {
    use async_openai::types::responses::ResponseStreamEvent;
    for event in sse(RESPONSES) {
        if event["type"] == "response.created" {
            continue; // a lifecycle event whose full response object we abbreviate
        }
        let typed: Result<ResponseStreamEvent, _> = serde_json::from_value(event.clone());
        assert!(typed.is_ok(), "{event}: {:?}", typed.err());
    }
}

#[test]
fn interleaved_chat_pieces_of_two_calls_are_kept_apart() {
    let piece = |i: u64, extra: Value| {
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": i, "function": extra}]}}]})
    };
    let start = |i: u64, id: &str| {
        json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": i, "id": id, "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}}]})
    };
    let chunks = [
        start(0, "a"),
        start(1, "b"),
        piece(1, json!({"arguments": "{\"location\":"})),
        piece(0, json!({"arguments": "{\"location\":\"x\""})),
        piece(1, json!({"arguments": "\"y\"}"})),
        piece(0, json!({"arguments": "}"})),
        json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
    ];
    let mut stream = ChatStream::new();
    let got: Vec<_> = run_events(&chunks, |c| stream.push(c)).into_iter().map(|(_, r)| r).collect();
    assert_eq!(
        got,
        vec![
            Ok(weather_call("a", r#"{"location":"x"}"#)),
            Ok(weather_call("b", r#"{"location":"y"}"#))
        ]
    );
}

#[test]
fn hostile_chat_streams_get_errors_naming_the_call() {
    let piece = |i: u64| json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": i, "function": {"arguments": "{"}}]}}]});
    // A piece before its call was started (no id and name yet).
    assert_eq!(ChatStream::new().push(&piece(4)), Err(StreamError::NotStarted { index: 4 }));
    // A stream cut off before `finish_reason`.
    let mut cut = ChatStream::new();
    cut.push(&sse(CHAT)[0]).unwrap();
    assert_eq!(
        cut.finish().unwrap_err().to_string(),
        "the stream ended before these tool calls were finished: 0 (get_weather)"
    );
    // A huge delta.
    let mut small = ChatStream::new().limits(StreamLimits::DEFAULT.max_argument_bytes(1024));
    small.push(&sse(CHAT)[0]).unwrap();
    let huge = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "x".repeat(4096)}}]}}]});
    assert_eq!(
        small.push(&huge).unwrap_err().to_string(),
        "the arguments of the tool call at index 0 exceeds 1024 bytes"
    );
    // A chunk of the wrong shape, and an error chunk.
    assert_eq!(
        ChatStream::new()
            .push(&json!({"choices": [{"delta": {"tool_calls": [{"id": "x"}]}}]}))
            .unwrap_err()
            .to_string(),
        "event chunk 0: /choices/0/delta/tool_calls/0/index: must be an integer"
    );
    assert_eq!(
        ChatStream::new()
            .push(&json!({"error": {"message": "overloaded"}}))
            .unwrap_err()
            .to_string(),
        "the provider reported an error in the stream: overloaded"
    );
}

#[test]
fn hostile_responses_streams_get_errors_naming_the_call() {
    let delta = json!({"type": "response.function_call_arguments.delta", "item_id": "fc", "output_index": 2, "delta": "{"});
    assert_eq!(ResponsesStream::new().push(&delta), Err(StreamError::NotStarted { index: 2 }));
    let mut never_done = ResponsesStream::new();
    for e in sse(RESPONSES).iter().take(4) {
        never_done.push(e).unwrap();
    }
    assert_eq!(
        never_done.finish().unwrap_err().to_string(),
        "the stream ended before these tool calls were finished: 0 (get_weather)"
    );
    let failed = json!({"type": "error", "code": "server_error", "message": "boom", "error": {"message": "boom"}});
    assert_eq!(
        ResponsesStream::new().push(&failed).unwrap_err().to_string(),
        "the provider reported an error in the stream: boom"
    );
}

const CUSTOM: &str = include_str!("fixtures/stream/responses_custom.sse");

#[test]
fn responses_custom_tool_calls_are_assembled_as_their_input() {
    let tool = ToolDescriptor {
        grammar: Some(tooldef::Grammar::lark(r#"start: "celsius" | "fahrenheit""#)),
        ..ToolDescriptor::builder("set_unit")
            .param(tooldef::Param::string("input"))
            .build()
            .unwrap()
    };
    let tools = vec![tool];
    let events = sse(CUSTOM);
    let mut stream = ResponsesStream::with_tools(&tools);
    let got = run_events(&events, |e| stream.push(e));
    stream.finish().unwrap();
    let call = |id: &str, args: &str| tooldef::ToolCall {
        id: id.into(),
        name: "set_unit".into(),
        arguments: tooldef::Arguments::Text(args.into()),
    };
    assert_eq!(
        got,
        vec![
            (6, Ok(call("call_ccc", r#"{"input":"fahren\"heit"}"#))),
            (10, Ok(call("call_ddd", r#"{"input":"celsius"}"#))),
        ]
    );
    use async_openai::types::responses::ResponseStreamEvent;
    for event in events
        .iter()
        .filter(|e| e["type"] != "response.created" && e["type"] != "response.completed")
    {
        let typed: Result<ResponseStreamEvent, _> = serde_json::from_value(event.clone());
        assert!(typed.is_ok(), "{event}: {:?}", typed.err());
    }
}
