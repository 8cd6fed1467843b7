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
        tool_result_block(&ok).message,
        json!({"toolResult": {"toolUseId": "tu-1", "content": [{"json": {"temp": 21}}]}})
    );
    let text = ToolResult::success(&call, json!("sunny"));
    assert_eq!(
        tool_result_block(&text).message["toolResult"]["content"],
        json!([{"text": "sunny"}])
    );
    let failed = ToolResult::error(&call, "`city` is required");
    assert_eq!(
        tool_result_block(&failed).message,
        json!({"toolResult": {"toolUseId": "tu-1", "content": [{"text": "`city` is required"}], "status": "error"}})
    );
    let mut image = ToolResult::success(&call, json!("chart"));
    image.content.push(Content::Image { data: "aGk=".into(), mime_type: "image/png".into() });
    let block = tool_result_block(&image).message;
    assert_eq!(block["toolResult"]["content"][1]["image"]["format"], "png");

    for b in [&ok, &text, &failed, &image] {
        let block = tool_result_block(b);
        assert!(block.notes.is_empty());
        assert_conforms("block", bedrock::validate_shape("ContentBlock", &block.message));
    }
    let message = tool_result_message([&ok, &failed]).into_message();
    assert_conforms("message", bedrock::validate_shape("Message", &message));
}

#[test]
fn content_of_every_kind_is_carried_changed_or_reported() {
    let result = tooldef_testkit::content::every_kind();
    let block = tool_result_block(&result);
    assert_eq!(
        block.message,
        json!({"toolResult": {"toolUseId": "call_7", "content": [
            {"text": "Report ready."},
            {"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}},
            {"text": "[audio of type audio/wav not sent: Bedrock tool results hold text, JSON, images, documents and video, not audio]"},
            {"document": {"format": "md", "name": "summary md", "source": {"text": "# Summary\nAll good."}}},
            {"document": {"format": "pdf", "name": "q3 pdf", "source": {"bytes": "JVBERi0xLjcK"}}},
            {"text": "resource link: raw.csv <file:///reports/raw.csv> (text/csv, 52000 bytes)"},
        ]}})
    );
    assert_conforms("every kind", bedrock::validate_shape("ContentBlock", &block.message));
    let notes: Vec<String> = block.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "fetch_report (call call_7): content 2 (audio) not carried: Bedrock tool results hold text, JSON, images, documents and video, not audio",
            "fetch_report (call call_7): content 3 (text resource) carried with a change: sent as a md document named \"summary md\"",
            "fetch_report (call call_7): content 4 (binary resource) carried with a change: sent as a pdf document named \"q3 pdf\"",
            "fetch_report (call call_7): content 5 (resource link) carried with a change: written as text",
        ]
    );
}
