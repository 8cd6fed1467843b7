//! Streamed function calls: a documented `streamGenerateContent` sequence in, each call as soon
//! as its chunk arrives, invalid arguments reported with it.

use serde_json::{Value, json};
use tooldef::stream::{StreamError, StreamEvent, StreamLimits};
use tooldef::{Param, ToolCall, ToolDescriptor};
use tooldef_gemini::FunctionCallStream;
use tooldef_testkit::stream::{KELVIN, run_events, weather_call, weather_tool};

const STREAM: &str = include_str!("fixtures/stream/function_calls.sse");
const PARTIAL: &str = include_str!("fixtures/stream/partial_args.sse");

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

/// One chunk holding one `functionCall` part.
fn part(call: Value) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": [{"functionCall": call}]}}]})
}

#[test]
fn vertex_partial_args_are_assembled_and_the_bad_unit_flagged_before_its_call_closes() {
    let chunks = sse(PARTIAL);
    assert_eq!(chunks.len(), 9);
    let tools = tools();
    let mut stream = FunctionCallStream::with_tools(&tools);
    let got = run_events(&chunks, |e| stream.push(e));
    stream.finish().unwrap();
    assert_eq!(
        got,
        vec![
            (4, Ok(weather_call("", r#"{"location":"Paris, France","unit":"celsius"}"#))),
            (7, Err(KELVIN.to_owned())),
            (8, Ok(weather_call("", r#"{"location":"Bogotá, Colombia","unit":"kelvin"}"#))),
        ]
    );
}

#[test]
fn partial_args_of_every_kind_nest_and_end_in_one_part() {
    let mut stream = FunctionCallStream::new();
    let events = stream
        .push(&part(json!({"id": "fc-9", "name": "plan", "args": {"dry": false}, "partialArgs": [
            {"jsonPath": "$.steps[0].name", "stringValue": "a\"b", "willContinue": true},
            {"jsonPath": "$.steps[0].name", "willContinue": false},
            {"jsonPath": "$.steps[0].weight", "numberValue": 0.5},
            {"jsonPath": "$.steps[1]['on off']", "boolValue": true},
            {"jsonPath": "$.note", "nullValue": "NULL_VALUE"}
        ]})))
        .unwrap();
    stream.finish().unwrap();
    assert_eq!(
        events,
        vec![StreamEvent::Call(ToolCall {
            id: "fc-9".into(),
            name: "plan".into(),
            arguments: tooldef::Arguments::Text(
                r#"{"dry":false,"steps":[{"name":"a\"b","weight":0.5},{"on off":true}],"note":null}"#
                    .into()
            ),
        })]
    );
}

#[test]
fn malformed_partial_args_are_named() {
    let open = || {
        let mut stream = FunctionCallStream::new();
        stream.push(&part(json!({"name": "get_weather", "willContinue": true}))).unwrap();
        stream
    };
    let cases = [
        (
            json!({"partialArgs": [{"jsonPath": "$.items[*]", "stringValue": "x"}], "willContinue": true}),
            "event chunk 1: /candidates/0/content/parts/0/functionCall/partialArgs/0/jsonPath: the JSON path `$.items[*]` selects more than one value (only names and indexes are read) at byte 8",
        ),
        (
            json!({"partialArgs": [{"jsonPath": "location", "stringValue": "x"}]}),
            "event chunk 1: /candidates/0/content/parts/0/functionCall/partialArgs/0/jsonPath: the JSON path `location` must start with `$`",
        ),
        (
            json!({"partialArgs": [{"jsonPath": "$.a", "stringValue": "x"}, {"jsonPath": "$.a", "stringValue": "y"}]}),
            "event chunk 1: /candidates/0/content/parts/0/functionCall/partialArgs/1/jsonPath: the JSON path `$.a` gives the member `a` a second time",
        ),
        (
            json!({"partialArgs": [{"jsonPath": "$.a", "numberValue": 1, "boolValue": true}]}),
            "event chunk 1: /candidates/0/content/parts/0/functionCall/partialArgs/0: carries more than one value",
        ),
        (
            json!({"partialArgs": [{"jsonPath": "$.a"}]}),
            "event chunk 1: /candidates/0/content/parts/0/functionCall/partialArgs/0: carries no value (one of `stringValue`, `numberValue`, `boolValue`, `nullValue`)",
        ),
        (
            json!({"partialArgs": [{"jsonPath": "$.a", "numberValue": "NaN"}]}),
            "event chunk 1: /candidates/0/content/parts/0/functionCall/partialArgs/0/numberValue: is not of its documented type",
        ),
        (
            json!({"name": "get_time", "willContinue": true}),
            "event chunk 1: /candidates/0/content/parts/0/functionCall: a new function call began while the call to `get_weather` was still streaming its arguments (its last part had `willContinue: true`)",
        ),
    ];
    for (call, message) in cases {
        assert_eq!(open().push(&part(call)).unwrap_err().to_string(), message);
    }
    let deep = format!("${}", ".a".repeat(tooldef::json_text::MAX_DEPTH + 1));
    let err = open()
        .push(&part(json!({"partialArgs": [{"jsonPath": deep, "stringValue": "x"}]})))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "event chunk 1: /candidates/0/content/parts/0/functionCall/partialArgs/0/jsonPath: the JSON path `{deep}` is deeper than {} steps",
            tooldef::json_text::MAX_DEPTH
        )
    );
    assert_eq!(
        open().finish(),
        Err(StreamError::Unfinished { open: vec!["0 (get_weather)".to_owned()] })
    );
}

#[test]
fn streamed_arguments_are_bounded() {
    let limits = StreamLimits::DEFAULT.max_argument_bytes(20);
    let mut stream = FunctionCallStream::new().limits(limits);
    stream.push(&part(json!({"name": "get_weather", "willContinue": true}))).unwrap();
    let piece = json!({"partialArgs": [{"jsonPath": "$.location", "stringValue": "Paris", "willContinue": true}], "willContinue": true});
    assert_eq!(stream.push(&part(piece.clone())).unwrap(), vec![]);
    assert_eq!(
        stream.push(&part(piece)),
        Err(StreamError::TooLarge { index: 0, what: "arguments", limit: 20 })
    );
    let mut one = FunctionCallStream::new().limits(StreamLimits::DEFAULT.max_calls(1));
    one.push(&part(json!({"name": "f", "args": {}}))).unwrap();
    assert_eq!(
        one.push(&part(json!({"name": "g", "willContinue": true}))),
        Err(StreamError::TooManyCalls { limit: 1 })
    );
}
