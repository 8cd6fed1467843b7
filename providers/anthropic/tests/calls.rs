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
        tool_result_block(&err),
        json!({
            "type": "tool_result",
            "tool_use_id": "toolu_1",
            "content": [{"type": "text", "text": "`unit` must be one of `celsius`, `fahrenheit`; got `kelvin`"}],
            "is_error": true
        })
    );
    let mut ok = ToolResult::success(&call, json!("sunny"));
    ok.content.push(Content::Image { data: "AAAA".into(), mime_type: "image/png".into() });
    let block = tool_result_block(&ok);
    assert_eq!(block["is_error"], false);
    assert_eq!(
        block["content"][1],
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}})
    );
    let msg = tool_result_message(&[ok, err]);
    assert_eq!(msg["role"], "user");
    assert_eq!(msg["content"].as_array().unwrap().len(), 2);
}
