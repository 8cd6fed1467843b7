//! Tool calls in, tool results out: shapes from the official spec and from `async-openai`.

use serde_json::json;
use tooldef::{Arguments, Content, ToolCall, ToolResult};
use tooldef_openai::{
    chat_tool_calls, chat_tool_message, responses_function_call_output, responses_tool_calls,
};
use tooldef_testkit::specs::{assert_conforms, openai as spec};

#[test]
fn chat_tool_calls_keep_arguments_as_text() {
    let message = json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
            {"id": "call_2", "type": "function", "function": {"name": "ping", "arguments": "{}"}}
        ]
    });
    let calls = chat_tool_calls(&message).unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].id, "call_1");
    assert_eq!(calls[0].name, "get_weather");
    assert_eq!(calls[0].arguments, Arguments::Text("{\"city\":\"Paris\"}".into()));
    // The bare array works too, and a message without calls gives none.
    assert_eq!(chat_tool_calls(&message["tool_calls"]).unwrap(), calls);
    assert!(chat_tool_calls(&json!({"role": "assistant", "content": "hi"})).unwrap().is_empty());
    let err = chat_tool_calls(&json!({"tool_calls": [{"id": "x", "function": {}}]})).unwrap_err();
    assert_eq!(err.pointer, "/tool_calls/0");
}

#[test]
fn async_openai_tool_calls_are_read() {
    use async_openai::types::chat::ChatCompletionMessageToolCalls;
    let typed: Vec<ChatCompletionMessageToolCalls> = serde_json::from_value(json!([
        {"id": "call_9", "type": "function", "function": {"name": "f", "arguments": "{\"a\":1}"}}
    ]))
    .unwrap();
    let value = serde_json::to_value(&typed).unwrap();
    let calls = chat_tool_calls(&value).unwrap();
    assert_eq!(
        calls,
        [ToolCall {
            id: "call_9".into(),
            name: "f".into(),
            arguments: Arguments::Text("{\"a\":1}".into())
        }]
    );
}

#[test]
fn responses_function_calls_use_the_call_id() {
    let response = json!({"output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "ping", "arguments": "{}"},
        {"type": "message", "id": "m", "role": "assistant", "content": []}
    ]});
    let calls = responses_tool_calls(&response).unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!((calls[0].id.as_str(), calls[0].name.as_str()), ("call_a", "ping"));
    assert_eq!(calls[0].arguments, Arguments::Text("{}".into()));
    let bad = json!([{"type": "function_call", "name": "x", "arguments": "{}"}]);
    assert_eq!(responses_tool_calls(&bad).unwrap_err().pointer, "/0/call_id");
}

#[test]
fn results_become_spec_conforming_messages() {
    let call = ToolCall::new("call_1", "get_weather", json!({}));
    let ok = ToolResult::success(&call, json!({"temp": 21}));
    let msg = chat_tool_message(&ok);
    assert_eq!(msg, json!({"role": "tool", "tool_call_id": "call_1", "content": "{\"temp\":21}"}));
    assert_conforms(
        "tool message",
        spec::validate_component("ChatCompletionRequestToolMessage", &msg),
    );

    let item = responses_function_call_output(&ok);
    assert_eq!(
        item,
        json!({"type": "function_call_output", "call_id": "call_1", "output": "{\"temp\":21}"})
    );
    assert_conforms("output item", spec::validate_component("FunctionCallOutputItemParam", &item));

    let mut image = ToolResult::error(&call, "see picture");
    image.content.push(Content::Image { data: "AAAA".into(), mime_type: "image/png".into() });
    let item = responses_function_call_output(&image);
    assert_eq!(item["output"][1]["image_url"], "data:image/png;base64,AAAA");
    assert_conforms("image output", spec::validate_component("FunctionCallOutputItemParam", &item));
    let msg = chat_tool_message(&image);
    assert_eq!(msg["content"], "see picture\n[image of type image/png omitted]");
}
