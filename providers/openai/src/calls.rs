//! The call/result half: OpenAI tool calls to [`ToolCall`], [`ToolResult`] to OpenAI messages.
//!
//! OpenAI sends arguments as a JSON *string*; it is kept as [`Arguments::Text`] so dispatch can
//! decode it straight into the typed parameters.

use serde::Deserialize;
use serde_json::{Map, Value, json};
use tooldef::{
    Arguments, CallError, Carried, Content, ContentNote, ResourceContents, ResultMessage, ToolCall,
    ToolResult,
};

#[derive(Deserialize)]
struct WireCall {
    #[serde(default)]
    id: String,
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    function: Option<WireFunction>,
}

#[derive(Deserialize)]
struct WireFunction {
    name: String,
    #[serde(default)]
    arguments: Option<String>,
}

/// The tool calls of a Chat Completions assistant message (`{"role":"assistant",
/// "tool_calls":[…]}`), or of a bare `tool_calls` array, in order. A message without tool calls
/// gives an empty list. A custom tool call (`"type": "custom"`) gives the arguments
/// `{"input": <its custom.input>}` (see [`tooldef::grammar`]).
///
/// # Errors
///
/// A call without `function.name`, or whose `arguments` is not a string; a custom call without
/// string `custom.name` and `custom.input`.
pub fn chat_tool_calls(message: &Value) -> Result<Vec<ToolCall>, CallError> {
    let (calls, base) = match message {
        Value::Array(items) => (items.as_slice(), ""),
        Value::Object(m) => match m.get("tool_calls") {
            Some(Value::Array(items)) => (items.as_slice(), "/tool_calls"),
            Some(Value::Null) | None => return Ok(Vec::new()),
            Some(_) => return Err(err("/tool_calls", "`tool_calls` must be an array")),
        },
        _ => return Err(err("", "expected an assistant message object or a tool_calls array")),
    };
    let mut out = Vec::with_capacity(calls.len());
    for (i, call) in calls.iter().enumerate() {
        let wire = WireCall::deserialize(call).map_err(|e| err(&format!("{base}/{i}"), e))?;
        if wire.kind.as_deref() == Some("custom") {
            out.push(crate::custom::chat_custom_call(call, &format!("{base}/{i}"))?);
            continue;
        }
        if wire.kind.as_deref().is_some_and(|k| k != "function") {
            continue;
        }
        let Some(function) = wire.function else {
            return Err(err(&format!("{base}/{i}/function"), "a function call needs `function`"));
        };
        out.push(ToolCall {
            id: wire.id,
            name: function.name,
            arguments: Arguments::Text(function.arguments.unwrap_or_else(|| "{}".into())),
        });
    }
    Ok(out)
}

#[derive(Deserialize)]
struct WireItem {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    call_id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<String>,
}

/// The `function_call` and `custom_tool_call` items of a Responses `output` (the whole response
/// object or its `output` array), in order; other items (messages, reasoning) are skipped. The
/// call's id is its `call_id`, which the result must echo. A custom tool call's raw `input`
/// becomes the arguments `{"input": <text>}` (see [`tooldef::grammar`]).
///
/// # Errors
///
/// A `function_call` item without `call_id`, `name` or string `arguments`, or a
/// `custom_tool_call` without `call_id`, `name` or string `input`.
pub fn responses_tool_calls(output: &Value) -> Result<Vec<ToolCall>, CallError> {
    let (items, base) = match output {
        Value::Array(items) => (items.as_slice(), ""),
        Value::Object(m) => match m.get("output") {
            Some(Value::Array(items)) => (items.as_slice(), "/output"),
            _ => return Err(err("/output", "expected a response with an `output` array")),
        },
        _ => return Err(err("", "expected a response object or its output array")),
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let pointer = format!("{base}/{i}");
        let Ok(wire) = WireItem::deserialize(item) else { continue };
        if wire.kind == "custom_tool_call" {
            out.push(crate::custom::responses_custom_call(item, &pointer)?);
            continue;
        }
        if wire.kind != "function_call" {
            continue;
        }
        let missing = |field: &str| err(&format!("{pointer}/{field}"), "missing or not a string");
        out.push(ToolCall {
            id: wire.call_id.ok_or_else(|| missing("call_id"))?,
            name: wire.name.ok_or_else(|| missing("name"))?,
            arguments: Arguments::Text(wire.arguments.ok_or_else(|| missing("arguments"))?),
        });
    }
    Ok(out)
}

/// The Chat Completions tool message answering a call:
/// `{"role":"tool","tool_call_id":…,"content":…}`, with a note for each piece of content it
/// could not carry as it was.
///
/// Chat tool messages carry text only (the spec's tool message content parts are `text` alone):
///
/// | content | in the message |
/// | --- | --- |
/// | text | its text |
/// | text resource | its text under a line naming its URI and MIME type (changed) |
/// | resource link | a line naming it (changed) |
/// | image, audio, binary resource | not carried: a note in its place, and a `tracing` warning |
///
/// The pieces are joined by newlines. An error result's text is sent as is; Chat has no error
/// flag.
pub fn chat_tool_message(result: &ToolResult) -> ResultMessage {
    chat_tool_text(result).map(
        |content| json!({ "role": "tool", "tool_call_id": result.call_id, "content": content }),
    )
}

/// The text of a Chat tool message, with its notes ([`chat_tool_message`]).
pub(crate) fn chat_tool_text(result: &ToolResult) -> ResultMessage<String> {
    let mut text = String::new();
    let mut notes = Vec::new();
    for (i, c) in result.content.iter().enumerate() {
        if i > 0 {
            text.push('\n');
        }
        match c {
            Content::Text { text: t } => text.push_str(t),
            Content::Resource { resource } if resource.to_text().is_some() => {
                notes.push(ContentNote::new(result, i, Carried::Changed, "written as text"));
                text.push_str(&resource.to_text().unwrap_or_default());
            }
            Content::ResourceLink(link) => {
                notes.push(ContentNote::new(result, i, Carried::Changed, "written as text"));
                text.push_str(&link.to_text());
            }
            other => {
                let reason = "Chat Completions tool messages carry text only";
                let note = ContentNote::new(result, i, Carried::NotCarried, reason);
                text.push_str(&note.placeholder(other));
                notes.push(note);
            }
        }
    }
    ResultMessage::new(text, notes)
}

/// The Responses input item answering a call:
/// `{"type":"function_call_output","call_id":…,"output":…}`, with a note for each piece of
/// content it could not carry as it was.
///
/// A result of text alone gives a string `output`; any other content gives a list of parts:
///
/// | content | part |
/// | --- | --- |
/// | text | `input_text` |
/// | image | `input_image` with a `data:` URL |
/// | audio | not carried (function call outputs hold text, images and files): an `input_text` note in its place, and a `tracing` warning |
/// | text resource | `input_text`, its text under a line naming its URI and MIME type (changed) |
/// | binary resource | an image type: `input_image` (changed: the URI is not sent); another: `input_file` with a `data:` URL, named with the URI's last segment (changed) |
/// | resource link | `input_text` naming it (changed) |
pub fn responses_function_call_output(result: &ToolResult) -> ResultMessage {
    let only_text = result.content.iter().all(|c| matches!(c, Content::Text { .. }));
    let mut notes = Vec::new();
    let output = if only_text {
        Value::String(result.text())
    } else {
        let mut parts = Vec::with_capacity(result.content.len());
        for (i, c) in result.content.iter().enumerate() {
            let mut changed =
                |reason: String| notes.push(ContentNote::new(result, i, Carried::Changed, reason));
            let part = match c {
                Content::Text { text } => input_text(text),
                Content::Image { data, mime_type } => input_image(mime_type, data),
                Content::Resource { resource: ResourceContents::Blob { uri, mime_type, blob } } => {
                    let mime = mime_type.as_deref().unwrap_or("application/octet-stream");
                    if mime.starts_with("image/") {
                        changed("sent as an image, without its URI".to_owned());
                        input_image(mime, blob)
                    } else {
                        let name = file_name(uri);
                        changed(format!("sent as a file named {name}"));
                        json!({
                            "type": "input_file",
                            "filename": name,
                            "file_data": format!("data:{mime};base64,{blob}"),
                        })
                    }
                }
                Content::Resource { resource } => {
                    changed("written as text".to_owned());
                    input_text(&resource.to_text().unwrap_or_default())
                }
                Content::ResourceLink(link) => {
                    changed("written as text".to_owned());
                    input_text(&link.to_text())
                }
                other => {
                    let reason = match other {
                        Content::Audio { .. } => {
                            "function call outputs hold text, images and files, not audio"
                        }
                        _ => "function call outputs have no part for this kind of content",
                    };
                    let note = ContentNote::new(result, i, Carried::NotCarried, reason);
                    let part = input_text(&note.placeholder(other));
                    notes.push(note);
                    part
                }
            };
            parts.push(part);
        }
        Value::Array(parts)
    };
    let mut m = Map::new();
    m.insert("type".into(), Value::from("function_call_output"));
    m.insert("call_id".into(), Value::from(result.call_id.as_str()));
    m.insert("output".into(), output);
    ResultMessage::new(Value::Object(m), notes)
}

fn input_text(text: &str) -> Value {
    json!({"type": "input_text", "text": text})
}

fn input_image(mime_type: &str, data: &str) -> Value {
    json!({"type": "input_image", "image_url": format!("data:{mime_type};base64,{data}")})
}

/// The last path segment of a URI (what a file part is named), or `resource` when it has none.
fn file_name(uri: &str) -> &str {
    let path = uri.split(['?', '#']).next().unwrap_or(uri);
    match path.rsplit('/').next() {
        Some(last) if !last.is_empty() => last,
        _ => "resource",
    }
}

fn err(pointer: &str, message: impl std::fmt::Display) -> CallError {
    CallError { pointer: pointer.to_owned(), message: message.to_string() }
}
