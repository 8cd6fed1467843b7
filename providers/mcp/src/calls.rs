//! The call/result half: `tools/call` requests to [`ToolCall`], [`ToolResult`] to
//! `CallToolResult`.

use serde_json::{Map, Value, json};
use tooldef::{Arguments, CallError, Content, ResourceContents, ToolCall, ToolResult};

use crate::McpVersion;

fn err(pointer: impl Into<String>, message: impl Into<String>) -> CallError {
    CallError { pointer: pointer.into(), message: message.into() }
}

/// The call of a `tools/call` request.
///
/// Accepts the whole JSON-RPC request (`{"jsonrpc":"2.0","id":…,"method":"tools/call",
/// "params":{…}}`), whose `id` becomes [`ToolCall::id`] (a number as its decimal text), or the
/// bare `params` (`{"name":…,"arguments":{…}}`), which gives an empty id. Absent `arguments` are
/// an empty object.
///
/// # Errors
///
/// Another method, no string `name`, or `arguments` that is not an object.
pub fn tool_call(request: &Value) -> Result<ToolCall, CallError> {
    let (params, base, id) = match request.get("method") {
        Some(method) => {
            if method.as_str() != Some("tools/call") {
                return Err(err("/method", format!("expected `tools/call`, got {method}")));
            }
            let id = match request.get("id") {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Number(n)) => n.to_string(),
                _ => String::new(),
            };
            let params = request.get("params").ok_or_else(|| err("/params", "missing `params`"))?;
            (params, "/params", id)
        }
        None => (request, "", String::new()),
    };
    let name = params
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| err(format!("{base}/name"), "`name` must be a string"))?;
    let arguments = match params.get("arguments") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(v @ Value::Object(_)) => v.clone(),
        Some(_) => return Err(err(format!("{base}/arguments"), "`arguments` must be an object")),
    };
    Ok(ToolCall { id, name: name.to_owned(), arguments: Arguments::Json(arguments) })
}

/// The `CallToolResult` for a result, in the given version's shape.
///
/// `content` holds every kind of [`Content`] as MCP's content block of that kind (text, image,
/// audio, an embedded resource, a resource link: MCP carries them all); `isError` is written
/// for errors; `structuredContent` carries the structured value (before 2026-07-28 only when it
/// is an object, as those versions require); 2026-07-28 adds `"resultType": "complete"`.
pub fn call_tool_result(result: &ToolResult, version: McpVersion) -> Value {
    let content: Vec<Value> = result.content.iter().map(content_block).collect();
    let mut m = Map::new();
    m.insert("content".into(), Value::Array(content));
    if let Some(v) = &result.structured
        && (v.is_object() || !version.object_output_only())
    {
        m.insert("structuredContent".into(), v.clone());
    }
    if result.is_error {
        m.insert("isError".into(), Value::Bool(true));
    }
    if version.has_result_type() {
        m.insert("resultType".into(), json!("complete"));
    }
    Value::Object(m)
}

/// MCP's content block for one piece of content.
fn content_block(content: &Content) -> Value {
    match content {
        Content::Text { text } => json!({ "type": "text", "text": text }),
        Content::Image { data, mime_type } => {
            json!({ "type": "image", "data": data, "mimeType": mime_type })
        }
        Content::Audio { data, mime_type } => {
            json!({ "type": "audio", "data": data, "mimeType": mime_type })
        }
        Content::Resource { resource } => {
            let mut r = Map::new();
            r.insert("uri".into(), json!(resource.uri()));
            if let Some(mime) = resource.mime_type_value() {
                r.insert("mimeType".into(), json!(mime));
            }
            match resource {
                ResourceContents::Text { text, .. } => r.insert("text".into(), json!(text)),
                ResourceContents::Blob { blob, .. } => r.insert("blob".into(), json!(blob)),
            };
            json!({ "type": "resource", "resource": r })
        }
        Content::ResourceLink(link) => {
            let mut m = Map::new();
            m.insert("type".into(), json!("resource_link"));
            m.insert("uri".into(), json!(link.uri));
            m.insert("name".into(), json!(link.name));
            let optional = [
                ("title", link.title.as_ref().map(|t| json!(t))),
                ("description", link.description.as_ref().map(|d| json!(d))),
                ("mimeType", link.mime_type.as_ref().map(|t| json!(t))),
                ("size", link.size.map(|s| json!(s))),
            ];
            for (key, value) in optional {
                if let Some(v) = value {
                    m.insert(key.into(), v);
                }
            }
            Value::Object(m)
        }
        // A kind added to `Content` later: written as tooldef's JSON of it (with its `type`),
        // so it is not lost on the way out, and logged.
        other => {
            tracing::warn!(kind = %other.kind(), "content kind without an MCP mapping; sent as its JSON");
            serde_json::to_value(other).unwrap_or(Value::Null)
        }
    }
}
