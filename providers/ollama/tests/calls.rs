//! Ollama call/result half.

use serde_json::json;
use tooldef::{Arguments, ToolCall, ToolResult};
use tooldef_ollama::{tool_calls, tool_message};
use tooldef_testkit::specs::{assert_conforms, ollama};

#[test]
fn calls_are_read_in_order() {
    let response = json!({"model": "llama3.2", "message": {"role": "assistant", "content": "", "tool_calls": [
        {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}},
        {"id": "call_2", "function": {"index": 1, "name": "ping", "arguments": {}}},
    ]}, "done": true});
    let calls = tool_calls(&response).unwrap();
    assert_eq!(
        calls,
        [
            ToolCall::new("", "get_weather", json!({"city": "Paris"})),
            ToolCall::new("call_2", "ping", json!({})),
        ]
    );
    assert_eq!(tool_calls(&response["message"]).unwrap(), calls);
    assert_eq!(tool_calls(&response["message"]["tool_calls"]).unwrap(), calls);
    assert!(
        tool_calls(&json!({"message": {"role": "assistant", "content": "hi"}})).unwrap().is_empty()
    );
    let text = tool_calls(&json!([{"function": {"name": "x", "arguments": "{\"a\":1}"}}])).unwrap();
    assert_eq!(text[0].arguments, Arguments::Text("{\"a\":1}".into()));
    let e = tool_calls(&json!([{"function": {"arguments": {}}}])).unwrap_err();
    assert_eq!(e.pointer, "/0/function/name");
}

#[test]
fn results_become_tool_messages() {
    let call = ToolCall::new("", "get_weather", json!({}));
    let ok = tool_message(&ToolResult::success(&call, json!({"temp": 21}))).into_message();
    assert_eq!(ok, json!({"role": "tool", "tool_name": "get_weather", "content": "{\"temp\":21}"}));
    let failed = tool_message(&ToolResult::error(&call, "`city` is required")).into_message();
    assert_eq!(failed["content"], "Error: `city` is required");
    assert_conforms(
        "chat",
        ollama::validate_chat_fragment(&json!({"model": "llama3.2", "messages": [
            {"role": "user", "content": "weather?"}, ok, failed,
        ]})),
    );
}

#[test]
fn content_of_every_kind_is_carried_changed_or_reported() {
    let result = tooldef_testkit::content::every_kind();
    let message = tool_message(&result);
    let content = [
        "Report ready.",
        "[audio of type audio/wav not sent: Ollama tool messages hold text and images, not audio]",
        "resource file:///reports/summary.md (text/markdown):",
        "# Summary",
        "All good.",
        "[binary resource of type application/pdf not sent: Ollama tool messages hold text and images]",
        "resource link: raw.csv <file:///reports/raw.csv> (text/csv, 52000 bytes)",
    ]
    .join("\n");
    assert_eq!(
        message.message,
        json!({"role": "tool", "tool_name": "fetch_report", "content": content,
            "images": ["iVBORw0KGgo="]})
    );
    assert_conforms(
        "every kind",
        ollama::validate_chat_fragment(
            &json!({"model": "llama3.2", "messages": [message.message]}),
        ),
    );
    let notes: Vec<String> = message.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "fetch_report (call call_7): content 2 (audio) not carried: Ollama tool messages hold text and images, not audio",
            "fetch_report (call call_7): content 3 (text resource) carried with a change: written as text",
            "fetch_report (call call_7): content 4 (binary resource) not carried: Ollama tool messages hold text and images",
            "fetch_report (call call_7): content 5 (resource link) carried with a change: written as text",
        ]
    );
}
