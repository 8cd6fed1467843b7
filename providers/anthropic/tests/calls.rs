//! `tool_use` blocks in, `tool_result` blocks out.

use serde_json::json;
use tooldef::{Arguments, Content, ToolCall, ToolResult};
use tooldef_anthropic::{tool_calls, tool_result_block, tool_result_message};

#[test]
fn tool_use_blocks_become_calls_with_json_arguments() {
    let message = json!({
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
            {"type": "tool_use", "id": "toolu_2", "name": "ping", "input": {}}
        ]
    });
    let calls = tool_calls(&message).unwrap();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0], ToolCall::new("toolu_1", "get_weather", json!({"city": "Paris"})));
    assert_eq!(calls[1].arguments, Arguments::Json(json!({})));
    assert_eq!(tool_calls(&message["content"]).unwrap(), calls);
    let bad = json!([{"type": "tool_use", "name": "x", "input": {}}]);
    assert_eq!(tool_calls(&bad).unwrap_err().pointer, "/0");
}

#[test]
fn results_become_tool_result_blocks_with_is_error() {
    let call = ToolCall::new("toolu_1", "get_weather", json!({}));
    let err =
        ToolResult::error(&call, "`unit` must be one of `celsius`, `fahrenheit`; got `kelvin`");
    assert_eq!(
        tool_result_block(&err).message,
        json!({
            "type": "tool_result",
            "tool_use_id": "toolu_1",
            "content": [{"type": "text", "text": "`unit` must be one of `celsius`, `fahrenheit`; got `kelvin`"}],
            "is_error": true
        })
    );
    let mut ok = ToolResult::success(&call, json!("sunny"));
    ok.content.push(Content::Image { data: "AAAA".into(), mime_type: "image/png".into() });
    let block = tool_result_block(&ok).into_message();
    assert_eq!(block["is_error"], false);
    assert_eq!(
        block["content"][1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}})
    );
    let msg = tool_result_message(&[ok, err]);
    assert!(msg.notes.is_empty());
    assert_eq!(msg.message["role"], "user");
    assert_eq!(msg.message["content"].as_array().unwrap().len(), 2);
}

#[test]
fn content_of_every_kind_is_carried_changed_or_reported() {
    let result = tooldef_testkit::content::every_kind();
    let mapped = tool_result_block(&result);
    assert_eq!(
        mapped.message,
        json!({
            "type": "tool_result",
            "tool_use_id": "call_7",
            "content": [
                {"type": "text", "text": "Report ready."},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
                {"type": "text", "text": "[audio of type audio/wav not sent: Anthropic tool results hold text, images and documents, not audio]"},
                {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "# Summary\nAll good."}, "title": "file:///reports/summary.md"},
                {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0xLjcK"}, "title": "file:///reports/q3.pdf"},
                {"type": "text", "text": "resource link: raw.csv <file:///reports/raw.csv> (text/csv, 52000 bytes)"},
            ],
            "is_error": false
        })
    );
    let notes: Vec<String> = mapped.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "fetch_report (call call_7): content 2 (audio) not carried: Anthropic tool results hold text, images and documents, not audio",
            "fetch_report (call call_7): content 3 (text resource) carried with a change: sent as a plain-text document",
            "fetch_report (call call_7): content 5 (resource link) carried with a change: written as text",
        ]
    );
    assert!(!mapped.carried_all());
}
