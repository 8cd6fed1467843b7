//! The call/result half: `message.tool_calls` to [`ToolCall`], [`ToolResult`] to a `tool`
//! message.
//!
//! Ollama's calls carry no id in older servers; [`ToolCall::id`] is the call's `id` when the
//! server sent one and empty otherwise. Results are matched by `tool_name` and order.

use serde_json::{Map, Value, json};
use tooldef::{
    Arguments, CallError, Carried, Content, ContentNote, ResourceContents, ResultMessage, ToolCall,
    ToolResult,
};

fn err(pointer: impl Into<String>, message: impl Into<String>) -> CallError {
    CallError { pointer: pointer.into(), message: message.into() }
}

/// The tool calls of an assistant turn, in order.
///
/// Accepts a `/api/chat` response (`{"message":{…}}`), a message (`{"role":"assistant",
/// "tool_calls":[…]}`) or a bare `tool_calls` array. Arguments arrive as an object; an
/// arguments *string* (some OpenAI-minded proxies) is kept as [`Arguments::Text`].
///
/// # Errors
///
/// A call without `function.name`, or whose `arguments` is neither an object nor a string.
pub fn tool_calls(message: &Value) -> Result<Vec<ToolCall>, CallError> {
    let (calls, base) = match message {
        Value::Array(items) => (items.as_slice(), String::new()),
        Value::Object(m) if m.contains_key("message") => {
            match message.pointer("/message/tool_calls") {
                Some(Value::Array(items)) => (items.as_slice(), "/message/tool_calls".to_owned()),
                None | Some(Value::Null) => return Ok(Vec::new()),
                Some(_) => return Err(err("/message/tool_calls", "`tool_calls` must be an array")),
            }
        }
        Value::Object(m) => match m.get("tool_calls") {
            Some(Value::Array(items)) => (items.as_slice(), "/tool_calls".to_owned()),
            None | Some(Value::Null) => return Ok(Vec::new()),
            Some(_) => return Err(err("/tool_calls", "`tool_calls` must be an array")),
        },
        _ => return Err(err("", "expected a chat response, a message or a tool_calls array")),
    };
    let mut out = Vec::with_capacity(calls.len());
    for (i, call) in calls.iter().enumerate() {
        let at = format!("{base}/{i}/function");
        let name = call
            .pointer("/function/name")
            .and_then(Value::as_str)
            .ok_or_else(|| err(format!("{at}/name"), "`name` must be a string"))?;
        let arguments = match call.pointer("/function/arguments") {
            None | Some(Value::Null) => Arguments::Json(Value::Object(Map::new())),
            Some(v @ Value::Object(_)) => Arguments::Json(v.clone()),
            Some(Value::String(s)) => Arguments::Text(s.clone()),
            Some(_) => return Err(err(format!("{at}/arguments"), "`arguments` must be an object")),
        };
        let id = call.get("id").and_then(Value::as_str).unwrap_or_default();
        out.push(ToolCall { id: id.to_owned(), name: name.to_owned(), arguments });
    }
    Ok(out)
}

/// The `tool` message answering one call: `{"role":"tool","tool_name":…,"content":…}`, with a
/// note for each piece of content it could not carry as it was.
///
/// `content` is the result's text (for an error, the message telling the model what to fix,
/// prefixed `Error: ` since Ollama has no error flag); images go into `images` as base64:
///
/// | content | in the message |
/// | --- | --- |
/// | text | `content` |
/// | image | `images` |
/// | audio | not carried: a note in `content`, and a `tracing` warning |
/// | text resource | `content`, its text under a line naming its URI and MIME type (changed) |
/// | binary resource | an image type: `images` (changed: the URI is not sent); another type is not carried |
/// | resource link | a line of `content` naming it (changed) |
pub fn tool_message(result: &ToolResult) -> ResultMessage {
    let mut lines: Vec<String> = Vec::new();
    let mut images = Vec::new();
    let mut notes = Vec::new();
    for (i, c) in result.content.iter().enumerate() {
        let mut changed =
            |reason: &str| notes.push(ContentNote::new(result, i, Carried::Changed, reason));
        match c {
            Content::Text { text } => lines.push(text.clone()),
            Content::Image { data, .. } => images.push(json!(data)),
            Content::Resource {
                resource: ResourceContents::Blob { mime_type: Some(m), blob, .. },
            } if m.starts_with("image/") => {
                changed("sent as an image, without its URI");
                images.push(json!(blob));
            }
            Content::Resource { resource } if resource.to_text().is_some() => {
                changed("written as text");
                lines.push(resource.to_text().unwrap_or_default());
            }
            Content::ResourceLink(link) => {
                changed("written as text");
                lines.push(link.to_text());
            }
            other => {
                let reason = match other {
                    Content::Audio { .. } => "Ollama tool messages hold text and images, not audio",
                    _ => "Ollama tool messages hold text and images",
                };
                let note = ContentNote::new(result, i, Carried::NotCarried, reason);
                lines.push(note.placeholder(other));
                notes.push(note);
            }
        }
    }
    let text = lines.join("\n");
    let content = if result.is_error { format!("Error: {text}") } else { text };
    let mut m = Map::new();
    m.insert("role".into(), json!("tool"));
    m.insert("tool_name".into(), json!(result.name));
    m.insert("content".into(), json!(content));
    if !images.is_empty() {
        m.insert("images".into(), Value::Array(images));
    }
    ResultMessage::new(Value::Object(m), notes)
}
