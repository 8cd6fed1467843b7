//! The call/result half: `toolUse` content blocks to [`ToolCall`], [`ToolResult`] to
//! `toolResult` content blocks.

use serde_json::{Map, Value, json};
use tooldef::{Arguments, CallError, Content, ToolCall, ToolResult};

fn err(pointer: impl Into<String>, message: impl Into<String>) -> CallError {
    CallError { pointer: pointer.into(), message: message.into() }
}

/// The tool uses of an assistant turn, in order; [`ToolCall::id`] is the `toolUseId`.
///
/// Accepts a Converse response (`output.message` is read), a `Message` (`{"role":"assistant",
/// "content":[…]}`) or a bare `content` array. Other blocks (text, reasoning) are skipped.
///
/// # Errors
///
/// A `toolUse` block without a string `toolUseId` or `name`.
pub fn tool_uses(message: &Value) -> Result<Vec<ToolCall>, CallError> {
    let (blocks, base) = blocks_of(message)?;
    let mut out = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let Some(using) = block.get("toolUse") else { continue };
        let at = format!("{base}/{i}/toolUse");
        let field = |k: &str| {
            using
                .get(k)
                .and_then(Value::as_str)
                .ok_or_else(|| err(format!("{at}/{k}"), format!("`{k}` must be a string")))
        };
        let (id, name) = (field("toolUseId")?, field("name")?);
        let input = using.get("input").cloned().unwrap_or_else(|| Value::Object(Map::new()));
        out.push(ToolCall {
            id: id.to_owned(),
            name: name.to_owned(),
            arguments: Arguments::Json(input),
        });
    }
    Ok(out)
}

fn blocks_of(message: &Value) -> Result<(&[Value], String), CallError> {
    match message {
        Value::Array(items) => Ok((items, String::new())),
        Value::Object(m) if m.contains_key("output") => {
            let inner = message
                .pointer("/output/message")
                .ok_or_else(|| err("/output", "no `output.message`"))?;
            let (blocks, base) = blocks_of(inner)?;
            Ok((blocks, format!("/output/message{base}")))
        }
        Value::Object(m) => match m.get("content") {
            Some(Value::Array(items)) => Ok((items, "/content".to_owned())),
            None | Some(Value::Null) => Ok((&[], String::new())),
            Some(_) => Err(err("/content", "`content` must be an array")),
        },
        _ => Err(err("", "expected a Converse response, a Message or a content array")),
    }
}

/// Bedrock's image format name for a MIME type, if it takes that type.
fn image_format(mime: &str) -> Option<&'static str> {
    match mime {
        "image/png" => Some("png"),
        "image/jpeg" | "image/jpg" => Some("jpeg"),
        "image/gif" => Some("gif"),
        "image/webp" => Some("webp"),
        _ => None,
    }
}

/// The `toolResult` content block answering one call.
///
/// `content` holds `{"json": …}` for a successful result whose structured value is an object or
/// array, otherwise its text as `{"text": …}`; images of a supported format follow as image
/// blocks (others become a text note). An error result has `"status": "error"`.
pub fn tool_result_block(result: &ToolResult) -> Value {
    let mut content = Vec::new();
    match &result.structured {
        Some(v @ (Value::Object(_) | Value::Array(_))) if !result.is_error => {
            content.push(json!({ "json": v }));
        }
        _ => {
            let text = result.text();
            if !text.is_empty() || result.content.is_empty() {
                content.push(json!({ "text": text }));
            }
        }
    }
    for c in &result.content {
        if let Content::Image { data, mime_type } = c {
            match image_format(mime_type) {
                Some(format) => content
                    .push(json!({ "image": { "format": format, "source": { "bytes": data } } })),
                None => {
                    content.push(json!({ "text": format!("[image of type {mime_type} not sent]") }))
                }
            }
        }
    }
    let mut body = Map::new();
    body.insert("toolUseId".into(), Value::String(result.call_id.clone()));
    body.insert("content".into(), Value::Array(content));
    if result.is_error {
        body.insert("status".into(), Value::String("error".into()));
    }
    json!({ "toolResult": body })
}

/// The user message that answers a turn's calls: `{"role":"user","content":[toolResult…]}`.
pub fn tool_result_message<'a>(results: impl IntoIterator<Item = &'a ToolResult>) -> Value {
    let content: Vec<Value> = results.into_iter().map(tool_result_block).collect();
    json!({ "role": "user", "content": content })
}
