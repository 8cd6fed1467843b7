//! The call/result half: `toolUse` content blocks to [`ToolCall`], [`ToolResult`] to
//! `toolResult` content blocks.

use serde_json::{Map, Value, json};
use tooldef::{
    Arguments, CallError, Carried, Content, ContentNote, ResourceContents, ResultMessage, ToolCall,
    ToolResult,
};

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

/// Bedrock's document format name for a MIME type, if it takes that type.
fn document_format(mime: &str) -> Option<&'static str> {
    match mime {
        "application/pdf" => Some("pdf"),
        "text/csv" => Some("csv"),
        "application/msword" => Some("doc"),
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document" => Some("docx"),
        "application/vnd.ms-excel" => Some("xls"),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" => Some("xlsx"),
        "text/html" => Some("html"),
        "text/plain" => Some("txt"),
        "text/markdown" => Some("md"),
        _ => None,
    }
}

/// A document name Bedrock accepts, from a resource URI: its last segment with every character
/// other than letters, digits, hyphens, parentheses and square brackets turned into a space,
/// spaces never doubled, at most 200 characters; `resource` when nothing is left.
fn document_name(uri: &str) -> String {
    let path = uri.split(['?', '#']).next().unwrap_or(uri);
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or_default();
    let mut name = String::new();
    for ch in last.chars() {
        let keep = ch.is_alphanumeric() || matches!(ch, '-' | '(' | ')' | '[' | ']');
        if keep {
            name.push(ch);
        } else if !name.is_empty() && !name.ends_with(' ') {
            name.push(' ');
        }
    }
    let name: String = name.trim_end().chars().take(200).collect();
    let name = name.trim_end().to_owned();
    if name.is_empty() { "resource".to_owned() } else { name }
}

/// The `toolResult` content block answering one call, with a note for each piece of content it
/// could not carry as it was.
///
/// `content` starts with `{"json": …}` for a successful result whose structured value is an
/// object or array, otherwise with its text as `{"text": …}`; the other content follows, each
/// piece as the block Bedrock has for it:
///
/// | content | block |
/// | --- | --- |
/// | text | the first block's text |
/// | image (PNG, JPEG, GIF, WebP) | `image`; another type is not carried |
/// | audio | not carried: tool results hold text, JSON, images, documents and video |
/// | text resource | `document` with a `text` source, named after its URI (changed: the URI becomes a name Bedrock accepts) |
/// | binary resource | an image type above: `image` (changed: the URI is not sent); a document type (PDF, CSV, DOC, DOCX, XLS, XLSX, HTML, TXT, Markdown): `document` with its bytes, named after its URI (changed); another type is not carried |
/// | resource link | `text` naming it (changed) |
///
/// What is not carried leaves a text block saying so in its place, and a `tracing` warning. An
/// error result has `"status": "error"`.
pub fn tool_result_block(result: &ToolResult) -> ResultMessage {
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
    let mut notes = Vec::new();
    for (i, c) in result.content.iter().enumerate() {
        let mut changed =
            |reason: String| notes.push(ContentNote::new(result, i, Carried::Changed, reason));
        let block = match c {
            Content::Text { .. } => continue,
            Content::Image { data, mime_type } => match image_format(mime_type) {
                Some(format) => Ok(image(format, data)),
                None => Err("Bedrock images are PNG, JPEG, GIF or WebP"),
            },
            Content::Audio { .. } => {
                Err("Bedrock tool results hold text, JSON, images, documents and video, not audio")
            }
            Content::Resource { resource: ResourceContents::Text { uri, mime_type, text } } => {
                let format = mime_type.as_deref().and_then(document_format).unwrap_or("txt");
                let name = document_name(uri);
                changed(format!("sent as a {format} document named \"{name}\""));
                Ok(
                    json!({ "document": { "format": format, "name": name, "source": { "text": text } } }),
                )
            }
            Content::Resource { resource: ResourceContents::Blob { uri, mime_type, blob } } => {
                let mime = mime_type.as_deref().unwrap_or_default();
                if let Some(format) = image_format(mime) {
                    changed("sent as an image, without its URI".to_owned());
                    Ok(image(format, blob))
                } else if let Some(format) = document_format(mime) {
                    let name = document_name(uri);
                    changed(format!("sent as a {format} document named \"{name}\""));
                    Ok(
                        json!({ "document": { "format": format, "name": name, "source": { "bytes": blob } } }),
                    )
                } else {
                    Err(
                        "Bedrock takes images (PNG, JPEG, GIF, WebP) and documents (PDF, CSV, DOC, DOCX, XLS, XLSX, HTML, TXT, Markdown)",
                    )
                }
            }
            Content::ResourceLink(link) => {
                changed("written as text".to_owned());
                Ok(json!({ "text": link.to_text() }))
            }
            _ => Err("Bedrock has no block for this kind of content"),
        };
        content.push(block.unwrap_or_else(|reason| {
            let note = ContentNote::new(result, i, Carried::NotCarried, reason);
            let text = note.placeholder(c);
            notes.push(note);
            json!({ "text": text })
        }));
    }
    let mut body = Map::new();
    body.insert("toolUseId".into(), Value::String(result.call_id.clone()));
    body.insert("content".into(), Value::Array(content));
    if result.is_error {
        body.insert("status".into(), Value::String("error".into()));
    }
    ResultMessage::new(json!({ "toolResult": body }), notes)
}

fn image(format: &str, data: &str) -> Value {
    json!({ "image": { "format": format, "source": { "bytes": data } } })
}

/// The user message that answers a turn's calls: `{"role":"user","content":[toolResult…]}`,
/// with the notes of every result ([`tool_result_block`]).
pub fn tool_result_message<'a>(results: impl IntoIterator<Item = &'a ToolResult>) -> ResultMessage {
    let mut notes = Vec::new();
    let content: Vec<Value> = results
        .into_iter()
        .map(|r| {
            let block = tool_result_block(r);
            notes.extend(block.notes);
            block.message
        })
        .collect();
    ResultMessage::new(json!({ "role": "user", "content": content }), notes)
}
