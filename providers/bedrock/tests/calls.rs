//! Bedrock call/result half: `toolUse` blocks in, `toolResult` blocks out, validated against
//! botocore's service model.

use serde_json::json;
use tooldef::{Content, ToolCall, ToolResult};
use tooldef_bedrock::{tool_result_block, tool_result_message, tool_uses};
use tooldef_testkit::specs::{assert_conforms, bedrock};

#[test]
fn tool_uses_are_read_in_order() {
    let response = json!({"output": {"message": {"role": "assistant", "content": [
        {"text": "Checking."},
        {"toolUse": {"toolUseId": "tu-1", "name": "get_weather", "input": {"city": "Paris"}}},
        {"toolUse": {"toolUseId": "tu-2", "name": "ping", "input": {}}},
    ]}}, "stopReason": "tool_use"});
    let calls = tool_uses(&response).unwrap();
    assert_eq!(
        calls,
        [
            ToolCall::new("tu-1", "get_weather", json!({"city": "Paris"})),
            ToolCall::new("tu-2", "ping", json!({})),
        ]
    );
    assert_eq!(tool_uses(&response["output"]["message"]).unwrap(), calls);
    assert_eq!(tool_uses(&response["output"]["message"]["content"]).unwrap(), calls);
    let e = tool_uses(&json!({"content": [{"toolUse": {"name": "x"}}]})).unwrap_err();
    assert_eq!(e.pointer, "/content/0/toolUse/toolUseId");
}

#[test]
fn results_become_tool_result_blocks() {
    let call = ToolCall::new("tu-1", "get_weather", json!({}));
    let ok = ToolResult::success(&call, json!({"temp": 21}));
    assert_eq!(
        tool_result_block(&ok),
        json!({"toolResult": {"toolUseId": "tu-1", "content": [{"json": {"temp": 21}}]}})
    );
    let text = ToolResult::success(&call, json!("sunny"));
    assert_eq!(tool_result_block(&text)["toolResult"]["content"], json!([{"text": "sunny"}]));
    let failed = ToolResult::error(&call, "`city` is required");
    assert_eq!(
        tool_result_block(&failed),
        json!({"toolResult": {"toolUseId": "tu-1", "content": [{"text": "`city` is required"}], "status": "error"}})
    );
    let mut image = ToolResult::success(&call, json!("chart"));
    image.content.push(Content::Image { data: "aGk=".into(), mime_type: "image/png".into() });
    let block = tool_result_block(&image);
    assert_eq!(block["toolResult"]["content"][1]["image"]["format"], "png");

    for b in [&ok, &text, &failed, &image] {
        assert_conforms("block", bedrock::validate_shape("ContentBlock", &tool_result_block(b)));
    }
    let message = tool_result_message([&ok, &failed]);
    assert_conforms("message", bedrock::validate_shape("Message", &message));
}
