//! Grammar tools as OpenAI custom tools, and custom tool calls back to [`ToolCall`]s.
//!
//! A descriptor with a [`grammar`](tooldef::ToolDescriptor::grammar) renders, for OpenAI itself,
//! as a custom tool whose `format` is the grammar: Responses
//! `{"type":"custom","name","description","format":{"type":"grammar","syntax","definition"}}`,
//! Chat `{"type":"custom","custom":{"name","description","format":{"type":"grammar",
//! "grammar":{"definition","syntax"}}}}` (the shapes of `CustomToolParam` and
//! `CustomToolChatCompletions` in OpenAI's OpenAPI document). The model's call comes back as a
//! `custom_tool_call` item (Responses) or a `type: "custom"` tool call (Chat) carrying its raw
//! `input`, which becomes the arguments `{"input": <text>}`: what the function tool other
//! providers get sends too, so dispatch reads both the same way.

use serde_json::{Map, Value};
use tooldef::json_key;
use tooldef::render::{Change, ChangeKind, JsonWriter, RenderCtx, RenderError, Rendered};
use tooldef::stream::{CallAssembler, StreamError, StreamEvent};
use tooldef::{Arguments, CallError, ToolCall, ToolDescriptor};

use crate::render::Api;

/// Writes `tool` (which has a grammar) as a custom tool.
pub(crate) fn render_custom(
    api: Api,
    tool: &ToolDescriptor,
    mut ctx: RenderCtx,
) -> Result<Rendered, RenderError> {
    let Some(grammar) = &tool.grammar else {
        return Ok(ctx.finish(JsonWriter::for_tool(tool)));
    };
    // The call comes back as `{"input": <text>}`: a descriptor that takes anything else could
    // not be called as it says.
    let input_only = matches!(&*tool.params, [p] if p.name == tooldef::grammar::INPUT
        && p.required
        && matches!(p.schema.kind, tooldef::SchemaKind::String(_)));
    if !input_only {
        return Err(ctx.error(
            tooldef::JsonPointer::root(),
            "",
            tooldef::render::RenderRule::Unsupported,
            "a grammar tool takes exactly one parameter, the required string `input` (make it \
             with `ToolDescriptor::grammar_tool`)",
        ));
    }
    let mut out = JsonWriter::for_tool(tool);
    out.begin_object();
    out.static_key(json_key!("type"));
    out.string("custom");
    if api == Api::Chat {
        out.static_key(json_key!("custom"));
        out.begin_object();
    }
    out.static_key(json_key!("name"));
    out.string(tool.name.as_str());
    if !tool.description.is_empty() {
        out.static_key(json_key!("description"));
        out.string(&tool.description);
    }
    out.static_key(json_key!("format"));
    out.begin_object();
    out.static_key(json_key!("type"));
    out.string("grammar");
    if api == Api::Chat {
        out.static_key(json_key!("grammar"));
        out.begin_object();
    }
    out.static_key(json_key!("syntax"));
    out.string(grammar.syntax.as_str());
    out.static_key(json_key!("definition"));
    out.string(&grammar.definition);
    if api == Api::Chat {
        out.end_object();
    }
    out.end_object();
    if api == Api::Chat {
        out.end_object();
    }
    out.end_object();
    // A custom tool has fields for none of these.
    let omitted = [
        ("title", tool.title.is_some()),
        ("annotations", !tool.annotations.is_empty()),
        ("outputSchema", tool.output.is_some()),
    ];
    for (field, present) in omitted {
        if present {
            ctx.record(
                Change::lossless(ChangeKind::Omitted, field)
                    .detail("an OpenAI custom tool has no field for it"),
            )?;
        }
    }
    Ok(ctx.finish(out))
}

/// The call of a custom tool: `{"input": <text>}` as its arguments.
pub(crate) fn custom_call(id: String, name: String, input: String) -> ToolCall {
    let mut args = Map::new();
    args.insert(tooldef::grammar::INPUT.to_owned(), Value::String(input));
    ToolCall { id, name, arguments: Arguments::Json(Value::Object(args)) }
}

/// A Chat `{"type":"custom","id":…,"custom":{"name":…,"input":…}}` tool call at `pointer`.
pub(crate) fn chat_custom_call(call: &Value, pointer: &str) -> Result<ToolCall, CallError> {
    let text = |field: &str| -> Result<String, CallError> {
        let at = format!("{pointer}/custom/{field}");
        call.get("custom")
            .and_then(|c| c.get(field))
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| CallError { pointer: at, message: "missing or not a string".to_owned() })
    };
    let id = call.get("id").and_then(Value::as_str).unwrap_or_default().to_owned();
    Ok(custom_call(id, text("name")?, text("input")?))
}

/// A Responses `custom_tool_call` item at `pointer`; its id is its `call_id`.
pub(crate) fn responses_custom_call(item: &Value, pointer: &str) -> Result<ToolCall, CallError> {
    let text = |field: &str| -> Result<String, CallError> {
        item.get(field).and_then(Value::as_str).map(str::to_owned).ok_or_else(|| CallError {
            pointer: format!("{pointer}/{field}"),
            message: "missing or not a string".to_owned(),
        })
    };
    Ok(custom_call(text("call_id")?, text("name")?, text("input")?))
}

/// The argument text a streamed custom tool call opens with: `{"input":"`, the text's escaped
/// pieces follow.
const OPEN: &str = "{\"input\":\"";

/// `response.output_item.added` for a `custom_tool_call` item: the call opens, its arguments
/// the start of `{"input": "...`.
pub(crate) fn stream_added(
    calls: &mut CallAssembler<'_>,
    index: u64,
    call_id: &str,
    name: &str,
    out: &mut Vec<StreamEvent>,
) -> Result<(), StreamError> {
    calls.start(index, call_id, name, out)?;
    calls.append(index, OPEN, out)
}

/// `response.custom_tool_call_input.delta`: more of the text, escaped into the JSON string.
pub(crate) fn stream_delta(
    calls: &mut CallAssembler<'_>,
    index: u64,
    delta: &str,
    out: &mut Vec<StreamEvent>,
) -> Result<(), StreamError> {
    let quoted = Value::String(delta.to_owned()).to_string();
    calls.append(index, &quoted[1..quoted.len() - 1], out)
}

/// `response.custom_tool_call_input.done` (or the item's `done` without it): the whole text,
/// and the call is complete.
pub(crate) fn stream_done(
    calls: &mut CallAssembler<'_>,
    index: u64,
    input: &str,
    out: &mut Vec<StreamEvent>,
) -> Result<(), StreamError> {
    let mut args = Map::new();
    args.insert(tooldef::grammar::INPUT.to_owned(), Value::String(input.to_owned()));
    calls.replace(index, &Value::Object(args).to_string(), out)?;
    out.push(StreamEvent::Call(calls.finish(index)?));
    Ok(())
}
