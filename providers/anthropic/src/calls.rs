//! The call/result half: `tool_use` blocks to [`ToolCall`], [`ToolResult`] to `tool_result`.

use serde::Deserialize;
use serde_json::{Map, Value, json};
use tooldef::{
    Arguments, CallError, Carried, Content, ContentNote, ResourceContents, ResultMessage, ToolCall,
    ToolResult,
};

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

/// The image types Anthropic's image blocks take.
const IMAGE_TYPES: &[&str] = &["image/jpeg", "image/png", "image/gif", "image/webp"];

/// The `tool_result` block answering a call:
/// `{"type":"tool_result","tool_use_id":…,"content":[…],"is_error":…}`, with a note for each
/// piece of content it could not carry as it was.
///
/// | content | block |
/// | --- | --- |
/// | text | `text` |
/// | image (JPEG, PNG, GIF, WebP) | `image` with a base64 source; another type is not carried |
/// | audio | not carried: tool results hold text, images and documents |
/// | text resource | `document` with a `text` source, titled with its URI; a MIME type other than `text/plain` is a change (sent as plain text) |
/// | binary resource | a PDF: `document` with a base64 source, titled with its URI; an image of a type above: `image` (changed: the URI is not sent); another type is not carried |
/// | resource link | `text` naming it (changed) |
///
/// What is not carried leaves a text block saying so in its place, and a `tracing` warning.
pub fn tool_result_block(result: &ToolResult) -> ResultMessage {
    let mut notes = Vec::new();
    let mut content = Vec::with_capacity(result.content.len());
    for (i, c) in result.content.iter().enumerate() {
        let mut changed =
            |reason: &str| notes.push(ContentNote::new(result, i, Carried::Changed, reason));
        let block = match c {
            Content::Text { text } => Ok(json!({"type": "text", "text": text})),
            Content::Image { data, mime_type } if IMAGE_TYPES.contains(&mime_type.as_str()) => {
                Ok(image(mime_type, data))
            }
            Content::Image { .. } => Err("Anthropic images are JPEG, PNG, GIF or WebP"),
            Content::Audio { .. } => {
                Err("Anthropic tool results hold text, images and documents, not audio")
            }
            Content::Resource { resource: ResourceContents::Text { uri, mime_type, text } } => {
                if mime_type.as_deref().is_some_and(|m| m != "text/plain") {
                    changed("sent as a plain-text document");
                }
                Ok(json!({
                    "type": "document",
                    "source": {"type": "text", "media_type": "text/plain", "data": text},
                    "title": uri,
                }))
            }
            Content::Resource { resource: ResourceContents::Blob { uri, mime_type, blob } } => {
                match mime_type.as_deref() {
                    Some("application/pdf") => Ok(json!({
                        "type": "document",
                        "source": {"type": "base64", "media_type": "application/pdf", "data": blob},
                        "title": uri,
                    })),
                    Some(m) if IMAGE_TYPES.contains(&m) => {
                        changed("sent as an image block, without its URI");
                        Ok(image(m, blob))
                    }
                    _ => Err(
                        "Anthropic documents are PDF or plain text, and images JPEG, PNG, GIF or WebP",
                    ),
                }
            }
            Content::ResourceLink(link) => {
                changed("written as text");
                Ok(json!({"type": "text", "text": link.to_text()}))
            }
            _ => Err("Anthropic has no block for this kind of content"),
        };
        content.push(block.unwrap_or_else(|reason| {
            let note = ContentNote::new(result, i, Carried::NotCarried, reason);
            let text = note.placeholder(c);
            notes.push(note);
            json!({"type": "text", "text": text})
        }));
    }
    let block = json!({
        "type": "tool_result",
        "tool_use_id": result.call_id,
        "content": content,
        "is_error": result.is_error,
    });
    ResultMessage::new(block, notes)
}

fn image(mime_type: &str, data: &str) -> Value {
    json!({"type": "image", "source": {"type": "base64", "media_type": mime_type, "data": data}})
}

/// The user message carrying the results of one assistant turn's calls, in order, with the
/// notes of every result ([`tool_result_block`]).
pub fn tool_result_message(results: &[ToolResult]) -> ResultMessage {
    let mut notes = Vec::new();
    let blocks: Vec<Value> = results
        .iter()
        .map(|r| {
            let block = tool_result_block(r);
            notes.extend(block.notes);
            block.message
        })
        .collect();
    ResultMessage::new(json!({"role": "user", "content": blocks}), notes)
}

fn err(pointer: &str, message: impl std::fmt::Display) -> CallError {
    CallError { pointer: pointer.to_owned(), message: message.to_string() }
}
