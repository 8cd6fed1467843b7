//! The call/result half: `tool_use` blocks to [`ToolCall`], [`ToolResult`] to `tool_result`.

use serde::Deserialize;
use serde_json::{Map, Value, json};
use tooldef::{Arguments, CallError, Content, ToolCall, ToolResult};

#[derive(Deserialize)]
struct ToolUse {
    id: String,
    name: String,
    #[serde(default)]
    input: Option<Value>,
}

/// The `tool_use` blocks of an assistant message (`{"role":"assistant","content":[…]}`, a whole
/// Messages response, or a bare content array), in order; text and thinking blocks are skipped.
///
/// # Errors
///
/// A `tool_use` block without a string `id` or `name`.
pub fn tool_calls(message: &Value) -> Result<Vec<ToolCall>, CallError> {
    let (blocks, base) = match message {
        Value::Array(items) => (items.as_slice(), ""),
        Value::Object(m) => match m.get("content") {
            Some(Value::Array(items)) => (items.as_slice(), "/content"),
            Some(Value::String(_)) => return Ok(Vec::new()),
            _ => return Err(err("/content", "expected a `content` array")),
        },
        _ => return Err(err("", "expected a message object or a content array")),
    };
    let mut out = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        if block.get("type").and_then(Value::as_str) != Some("tool_use") {
            continue;
        }
        let wire = ToolUse::deserialize(block).map_err(|e| err(&format!("{base}/{i}"), e))?;
        out.push(ToolCall {
            id: wire.id,
            name: wire.name,
            arguments: Arguments::Json(wire.input.unwrap_or_else(|| Value::Object(Map::new()))),
        });
    }
    Ok(out)
}

/// The `tool_result` block answering a call:
/// `{"type":"tool_result","tool_use_id":…,"content":[text and image blocks],"is_error":…}`.
pub fn tool_result_block(result: &ToolResult) -> Value {
    let content: Vec<Value> = result
        .content
        .iter()
        .filter_map(|c| match c {
            Content::Text { text } => Some(json!({"type": "text", "text": text})),
            Content::Image { data, mime_type } => Some(json!({
                "type": "image",
                "source": {"type": "base64", "media_type": mime_type, "data": data},
            })),
            _ => None,
        })
        .collect();
    json!({
        "type": "tool_result",
        "tool_use_id": result.call_id,
        "content": content,
        "is_error": result.is_error,
    })
}

/// The user message carrying the results of one assistant turn's calls, in order.
pub fn tool_result_message(results: &[ToolResult]) -> Value {
    json!({"role": "user", "content": results.iter().map(tool_result_block).collect::<Vec<_>>()})
}

fn err(pointer: &str, message: impl std::fmt::Display) -> CallError {
    CallError { pointer: pointer.to_owned(), message: message.to_string() }
}
