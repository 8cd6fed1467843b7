//! The call/result half: `functionCall` parts to [`ToolCall`], [`ToolResult`] to
//! `functionResponse` parts.
//!
//! Gemini identifies a call by its name and position; newer API versions may add an optional
//! `functionCall.id`. [`ToolCall::id`] is that `id` when the model sent one and empty otherwise,
//! and [`function_response`] echoes it only when non-empty, so a round trip sends back exactly
//! what arrived. Answer calls in the order they came.

use serde_json::{Map, Value, json};
use tooldef::{
    Arguments, CallError, Carried, Content, ContentNote, ResourceContents, ResultMessage, ToolCall,
    ToolResult,
};

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

/// The MIME types Gemini's function response parts take (images, PDF, plain text).
const PART_TYPES: &[&str] =
    &["image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"];

/// The `functionResponse` part answering one call, with a note for each piece of content it
/// could not carry as it was.
///
/// `response` is `{"output": …}` for a success (the structured value when there is one, else
/// the text) and `{"error": "…"}` for an error, as Gemini's docs ask. Other content goes into
/// `functionResponse.parts` as inline data, which takes PNG, JPEG and WebP images, PDF and
/// plain text:
///
/// | content | in the message |
/// | --- | --- |
/// | text | the response's `output` (or `error`) text |
/// | image (PNG, JPEG, WebP) | an inline data part; another type is not carried |
/// | audio | not carried |
/// | text resource | a `text/plain` part holding its text under a line naming its URI and MIME type (changed) |
/// | binary resource of a type above | an inline data part (changed: the URI is not sent); another type is not carried |
/// | resource link | a `text/plain` part naming it (changed) |
///
/// What is not carried leaves a `text/plain` part saying so in its place, and a `tracing`
/// warning.
pub fn function_response(result: &ToolResult) -> ResultMessage {
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
    let mut notes = Vec::new();
    let mut parts = Vec::new();
    for (i, c) in result.content.iter().enumerate() {
        let mut changed =
            |reason: &str| notes.push(ContentNote::new(result, i, Carried::Changed, reason));
        let part = match c {
            Content::Text { .. } => continue,
            Content::Image { data, mime_type } if PART_TYPES.contains(&mime_type.as_str()) => {
                Ok(inline(mime_type, data.clone()))
            }
            Content::Image { .. } => {
                Err("Gemini function responses take PNG, JPEG and WebP images")
            }
            Content::Audio { .. } => {
                Err("Gemini function responses take images, PDF and plain text, not audio")
            }
            Content::Resource { resource: r @ ResourceContents::Text { .. } } => {
                changed("sent as a text/plain part");
                Ok(inline("text/plain", base64(r.to_text().unwrap_or_default().as_bytes())))
            }
            Content::Resource { resource: ResourceContents::Blob { mime_type, blob, .. } } => {
                match mime_type.as_deref() {
                    Some(m) if PART_TYPES.contains(&m) => {
                        changed("sent as an inline data part, without its URI");
                        Ok(inline(m, blob.clone()))
                    }
                    _ => Err("Gemini function responses take images, PDF and plain text"),
                }
            }
            Content::ResourceLink(link) => {
                changed("written as a text/plain part");
                Ok(inline("text/plain", base64(link.to_text().as_bytes())))
            }
            _ => Err("Gemini function responses have no part for this kind of content"),
        };
        parts.push(part.unwrap_or_else(|reason| {
            let note = ContentNote::new(result, i, Carried::NotCarried, reason);
            let text = note.placeholder(c);
            notes.push(note);
            inline("text/plain", base64(text.as_bytes()))
        }));
    }
    if !parts.is_empty() {
        body.insert("parts".into(), Value::Array(parts));
    }
    ResultMessage::new(json!({ "functionResponse": body }), notes)
}

fn inline(mime_type: &str, data: String) -> Value {
    json!({ "inlineData": { "mimeType": mime_type, "data": data } })
}

/// Standard base64 with padding (what proto3's JSON form of `bytes` is).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (k, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if k <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The `Content` that answers a turn's calls: `{"role":"user","parts":[functionResponse…]}`,
/// with the notes of every result ([`function_response`]).
pub fn function_response_content<'a>(
    results: impl IntoIterator<Item = &'a ToolResult>,
) -> ResultMessage {
    let mut notes = Vec::new();
    let parts: Vec<Value> = results
        .into_iter()
        .map(|r| {
            let part = function_response(r);
            notes.extend(part.notes);
            part.message
        })
        .collect();
    ResultMessage::new(json!({ "role": "user", "parts": parts }), notes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_pads_as_the_standard_says() {
        let cases =
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg==")];
        for (plain, encoded) in cases {
            assert_eq!(super::base64(plain.as_bytes()), encoded);
        }
    }
}
