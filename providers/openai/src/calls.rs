//! The call/result half: OpenAI tool calls to [`ToolCall`], [`ToolResult`] to OpenAI messages.
//!
//! OpenAI sends arguments as a JSON *string*; it is kept as [`Arguments::Text`] so dispatch can
//! decode it straight into the typed parameters.

use serde::Deserialize;
use serde_json::{Map, Value, json};
use tooldef::{Arguments, CallError, Content, ToolCall, ToolResult};

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
/// `{"role":"tool","tool_call_id":…,"content":…}`.
///
/// Chat tool messages carry text only: images are replaced by a note naming their type (and a
/// `tracing` warning). An error result's text is sent as is; Chat has no error flag.
pub fn chat_tool_message(result: &ToolResult) -> Value {
    json!({ "role": "tool", "tool_call_id": result.call_id, "content": chat_tool_text(result) })
}

/// The text of a Chat tool message: text parts joined by newlines, images replaced by a note.
pub(crate) fn chat_tool_text(result: &ToolResult) -> String {
    let mut text = String::new();
    for c in &result.content {
        if !text.is_empty() {
            text.push('\n');
        }
        match c {
            Content::Text { text: t } => text.push_str(t),
            Content::Image { mime_type, .. } => {
                tracing::warn!(
                    tool = %result.name,
                    "Chat Completions tool messages carry text only; an image was replaced by a note"
                );
                text.push_str(&format!("[image of type {mime_type} omitted]"));
            }
            _ => {}
        }
    }
    text
}

/// The Responses input item answering a call:
/// `{"type":"function_call_output","call_id":…,"output":…}`; text only gives a string output,
/// images give a list of `input_text` / `input_image` parts.
pub fn responses_function_call_output(result: &ToolResult) -> Value {
    let has_image = result.content.iter().any(|c| matches!(c, Content::Image { .. }));
    let output = if has_image {
        Value::Array(
            result
                .content
                .iter()
                .filter_map(|c| match c {
                    Content::Text { text } => Some(json!({"type": "input_text", "text": text})),
                    Content::Image { data, mime_type } => Some(json!({
                        "type": "input_image",
                        "image_url": format!("data:{mime_type};base64,{data}"),
                    })),
                    _ => None,
                })
                .collect(),
        )
    } else {
        Value::String(result.text())
    };
    let mut m = Map::new();
    m.insert("type".into(), Value::from("function_call_output"));
    m.insert("call_id".into(), Value::from(result.call_id.as_str()));
    m.insert("output".into(), output);
    Value::Object(m)
}

fn err(pointer: &str, message: impl std::fmt::Display) -> CallError {
    CallError { pointer: pointer.to_owned(), message: message.to_string() }
}
