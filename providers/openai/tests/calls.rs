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
    let msg = chat_tool_message(&ok).into_message();
    assert_eq!(msg, json!({"role": "tool", "tool_call_id": "call_1", "content": "{\"temp\":21}"}));
    assert_conforms(
        "tool message",
        spec::validate_component("ChatCompletionRequestToolMessage", &msg),
    );

    let item = responses_function_call_output(&ok).into_message();
    assert_eq!(
        item,
        json!({"type": "function_call_output", "call_id": "call_1", "output": "{\"temp\":21}"})
    );
    assert_conforms("output item", spec::validate_component("FunctionCallOutputItemParam", &item));

    let mut image = ToolResult::error(&call, "see picture");
    image.content.push(Content::Image { data: "AAAA".into(), mime_type: "image/png".into() });
    let item = responses_function_call_output(&image);
    assert!(item.notes.is_empty());
    assert_eq!(item.message["output"][1]["image_url"], "data:image/png;base64,AAAA");
    assert_conforms(
        "image output",
        spec::validate_component("FunctionCallOutputItemParam", &item.message),
    );
    let msg = chat_tool_message(&image);
    assert_eq!(
        msg.message["content"],
        "see picture\n[image of type image/png not sent: Chat Completions tool messages carry text only]"
    );
    assert!(!msg.carried_all());
}

#[test]
fn content_of_every_kind_is_carried_changed_or_reported_by_both_apis() {
    let result = tooldef_testkit::content::every_kind();
    let notes = |notes: &[tooldef::ContentNote]| -> Vec<String> {
        notes.iter().map(ToString::to_string).collect()
    };

    let chat = chat_tool_message(&result);
    let content = [
            "Report ready.",
            "[image of type image/png not sent: Chat Completions tool messages carry text only]",
            "[audio of type audio/wav not sent: Chat Completions tool messages carry text only]",
            "resource file:///reports/summary.md (text/markdown):",
            "# Summary",
            "All good.",
            "[binary resource of type application/pdf not sent: Chat Completions tool messages carry text only]",
            "resource link: raw.csv <file:///reports/raw.csv> (text/csv, 52000 bytes)",
    ].join("\n");
    assert_eq!(chat.message, json!({"role": "tool", "tool_call_id": "call_7", "content": content}));
    assert_conforms(
        "tool message",
        spec::validate_component("ChatCompletionRequestToolMessage", &chat.message),
    );
    assert_eq!(
        notes(&chat.notes),
        [
            "fetch_report (call call_7): content 1 (image) not carried: Chat Completions tool messages carry text only",
            "fetch_report (call call_7): content 2 (audio) not carried: Chat Completions tool messages carry text only",
            "fetch_report (call call_7): content 3 (text resource) carried with a change: written as text",
            "fetch_report (call call_7): content 4 (binary resource) not carried: Chat Completions tool messages carry text only",
            "fetch_report (call call_7): content 5 (resource link) carried with a change: written as text",
        ]
    );

    let responses = responses_function_call_output(&result);
    assert_eq!(
        responses.message,
        json!({"type": "function_call_output", "call_id": "call_7", "output": [
            {"type": "input_text", "text": "Report ready."},
            {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="},
            {"type": "input_text", "text": "[audio of type audio/wav not sent: function call outputs hold text, images and files, not audio]"},
            {"type": "input_text", "text": "resource file:///reports/summary.md (text/markdown):\n# Summary\nAll good."},
            {"type": "input_file", "filename": "q3.pdf", "file_data": "data:application/pdf;base64,JVBERi0xLjcK"},
            {"type": "input_text", "text": "resource link: raw.csv <file:///reports/raw.csv> (text/csv, 52000 bytes)"},
        ]})
    );
    assert_conforms(
        "every kind",
        spec::validate_component("FunctionCallOutputItemParam", &responses.message),
    );
    assert_eq!(
        notes(&responses.notes),
        [
            "fetch_report (call call_7): content 2 (audio) not carried: function call outputs hold text, images and files, not audio",
            "fetch_report (call call_7): content 3 (text resource) carried with a change: written as text",
            "fetch_report (call call_7): content 4 (binary resource) carried with a change: sent as a file named q3.pdf",
            "fetch_report (call call_7): content 5 (resource link) carried with a change: written as text",
        ]
    );
}
