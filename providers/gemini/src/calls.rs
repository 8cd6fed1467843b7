//! The call/result half: `functionCall` parts to [`ToolCall`], [`ToolResult`] to
//! `functionResponse` parts.
//!
//! Gemini identifies a call by its name and position; newer API versions may add an optional
//! `functionCall.id`. [`ToolCall::id`] is that `id` when the model sent one and empty otherwise,
//! and [`function_response`] echoes it only when non-empty, so a round trip sends back exactly
//! what arrived. Answer calls in the order they came.

use serde_json::{Map, Value, json};
use tooldef::{Arguments, CallError, Content, ToolCall, ToolResult};

fn err(pointer: impl Into<String>, message: impl Into<String>) -> CallError {
    CallError { pointer: pointer.into(), message: message.into() }
}

/// The function calls in a model turn, in order.
///
/// Accepts a `generateContent` response (the first candidate's content is read), a `Content`
/// (`{"role":"model","parts":[…]}`) or a bare `parts` array. Parts other than `functionCall`
/// (text, thoughts) are skipped; a turn without calls gives an empty list.
///
/// # Errors
///
/// A `functionCall` without a string `name`, or whose `args` is not an object.
pub fn function_calls(message: &Value) -> Result<Vec<ToolCall>, CallError> {
    let (parts, base) = parts_of(message)?;
    let mut out = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let Some(call) = part.get("functionCall") else { continue };
        let at = format!("{base}/{i}/functionCall");
        let name = call
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| err(format!("{at}/name"), "`name` must be a string"))?;
        let args = match call.get("args") {
            None | Some(Value::Null) => Value::Object(Map::new()),
            Some(v @ Value::Object(_)) => v.clone(),
            Some(_) => return Err(err(format!("{at}/args"), "`args` must be an object")),
        };
        let id = call.get("id").and_then(Value::as_str).unwrap_or_default();
        out.push(ToolCall {
            id: id.to_owned(),
            name: name.to_owned(),
            arguments: Arguments::Json(args),
        });
    }
    Ok(out)
}

fn parts_of(message: &Value) -> Result<(&[Value], String), CallError> {
    match message {
        Value::Array(items) => Ok((items, String::new())),
        Value::Object(m) if m.contains_key("candidates") => {
            let content = message
                .pointer("/candidates/0/content")
                .ok_or_else(|| err("/candidates", "no candidate with content"))?;
            let (parts, base) = parts_of(content)?;
            Ok((parts, format!("/candidates/0/content{base}")))
        }
        Value::Object(m) => match m.get("parts") {
            Some(Value::Array(items)) => Ok((items, "/parts".to_owned())),
            None | Some(Value::Null) => Ok((&[], String::new())),
            Some(_) => Err(err("/parts", "`parts` must be an array")),
        },
        _ => Err(err("", "expected a response, a Content or a parts array")),
    }
}

/// The `functionResponse` part answering one call.
///
/// `response` is `{"output": …}` for a success (the structured value when there is one, else
/// the text) and `{"error": "…"}` for an error, as Gemini's docs ask; images go into
/// `functionResponse.parts` as inline data.
pub fn function_response(result: &ToolResult) -> Value {
    let response = if result.is_error {
        json!({ "error": result.text() })
    } else {
        match &result.structured {
            Some(v) => json!({ "output": v }),
            None => json!({ "output": result.text() }),
        }
    };
    let mut body = Map::new();
    if !result.call_id.is_empty() {
        body.insert("id".into(), Value::String(result.call_id.clone()));
    }
    body.insert("name".into(), Value::String(result.name.clone()));
    body.insert("response".into(), response);
    let images: Vec<Value> = result
        .content
        .iter()
        .filter_map(|c| match c {
            Content::Image { data, mime_type } => {
                Some(json!({ "inlineData": { "mimeType": mime_type, "data": data } }))
            }
            _ => None,
        })
        .collect();
    if !images.is_empty() {
        body.insert("parts".into(), Value::Array(images));
    }
    json!({ "functionResponse": body })
}

/// The `Content` that answers a turn's calls: `{"role":"user","parts":[functionResponse…]}`.
pub fn function_response_content<'a>(results: impl IntoIterator<Item = &'a ToolResult>) -> Value {
    let parts: Vec<Value> = results.into_iter().map(function_response).collect();
    json!({ "role": "user", "parts": parts })
}
