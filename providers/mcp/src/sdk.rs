//! Typed bridges to the official Rust SDK's model (`rmcp::model`), both ways: descriptors to
//! and from [`Tool`], calls to and from [`CallToolRequestParams`], results to and from
//! [`CallToolResult`].
//!
//! Each bridge goes through the same renderer and importer as the JSON half of this crate, so a
//! descriptor sent as an rmcp `Tool` and read back is the descriptor it was, and an rmcp `Tool`
//! imported here gets every check `tooldef import --from mcp` makes. Owns only the conversions;
//! the transports live in [`crate::server`] and [`crate::client`].
//!
//! ```
//! use tooldef::{Param, ToolDescriptor};
//! use tooldef_mcp::sdk::{descriptor_from_tool, tool_from_descriptor};
//!
//! let d = ToolDescriptor::builder("get_weather")
//!     .description("Get the weather.")
//!     .param(Param::string("city"))
//!     .build()
//!     .unwrap();
//! let tool: rmcp::model::Tool = tool_from_descriptor(&d, tooldef_mcp::McpVersion::default()).unwrap();
//! assert_eq!(tool.name, "get_weather");
//! assert_eq!(descriptor_from_tool(&tool).unwrap().tools, [d]);
//! ```

use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock, JsonObject, Tool};
use serde_json::{Map, Value};
use tooldef::render::{LossPolicy, RenderError, Renderer};
use tooldef::{
    Arguments, CallError, Content, JsonPointer, Outcome, ResourceContents, ResourceLink, ToolCall,
    ToolDescriptor, ToolResult,
};

use crate::import::{ImportError, ImportedTools, import_tools};
use crate::render::{McpRenderer, McpVersion};

/// A descriptor that cannot become an rmcp [`Tool`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ToolBridgeError {
    /// The MCP renderer refused the tool.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// The rendered JSON does not fit rmcp's model (a bug of either side, reported rather than
    /// hidden).
    #[error("tool `{tool}`: the rendered MCP tool does not fit rmcp's model: {message}")]
    Model {
        /// The tool.
        tool: String,
        /// serde's message.
        message: String,
    },
}

/// The rmcp [`Tool`] for a descriptor, rendered for `version` under the `Allow` policy.
///
/// Kept MCP fields ([`EXTENSION_NAMESPACE`](crate::EXTENSION_NAMESPACE)) travel as far as
/// rmcp's model holds them: `icons` and `_meta` do; a field rmcp's `Tool` has no place for
/// (`execution`, in rmcp 3.11) is left out with a `tracing` warning naming it.
///
/// # Errors
///
/// [`ToolBridgeError::Render`] when the MCP renderer refuses the tool.
pub fn tool_from_descriptor(
    descriptor: &ToolDescriptor,
    version: McpVersion,
) -> Result<Tool, ToolBridgeError> {
    let rendered = McpRenderer::version(version).render(descriptor, LossPolicy::Allow)?;
    let tool: Tool = serde_json::from_str(rendered.json()).map_err(|e| ToolBridgeError::Model {
        tool: descriptor.name.to_string(),
        message: e.to_string(),
    })?;
    let kept = descriptor.extensions.namespace(crate::EXTENSION_NAMESPACE);
    for field in kept.into_iter().flat_map(|m| m.keys()) {
        if !RMCP_TOOL_FIELDS.contains(&field.as_str()) {
            tracing::warn!(
                tool = %descriptor.name,
                field = %field,
                "rmcp's Tool has no field for this MCP tool field; it is left out"
            );
        }
    }
    Ok(tool)
}

/// The `Tool` fields rmcp's model holds (3.11).
const RMCP_TOOL_FIELDS: &[&str] = &[
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
    "icons",
    "_meta",
];

/// The descriptor of an rmcp [`Tool`], with what the import dropped or inferred.
///
/// Pointers in errors and notes start at `/tools/0`.
///
/// # Errors
///
/// The tool's name or schema cannot be imported (see [`import_tools`]).
pub fn descriptor_from_tool(tool: &Tool) -> Result<ImportedTools, ImportError> {
    descriptors_from_tools(std::slice::from_ref(tool))
}

/// The descriptors of rmcp [`Tool`]s, in order; the first that cannot be imported is the error.
///
/// # Errors
///
/// As [`import_tools`], with pointers `/tools/N/...`.
pub fn descriptors_from_tools(tools: &[Tool]) -> Result<ImportedTools, ImportError> {
    let tools = serde_json::to_value(tools).map_err(|e| ImportError {
        pointer: JsonPointer::from_segments(["tools"]),
        message: format!("rmcp tools do not serialize: {e}"),
    })?;
    import_tools(&Value::Object(Map::from_iter([("tools".to_owned(), tools)])))
}

/// The [`ToolCall`] of a `tools/call` request's params; `id` is the JSON-RPC request id (as its
/// text), and absent arguments are an empty object.
pub fn call_from_params(params: &CallToolRequestParams, id: impl Into<String>) -> ToolCall {
    let arguments = params.arguments.clone().unwrap_or_default();
    ToolCall {
        id: id.into(),
        name: params.name.to_string(),
        arguments: Arguments::Json(Value::Object(arguments)),
    }
}

/// [`call_from_params`], taking the params by value (no copy of the arguments).
pub fn into_call(params: CallToolRequestParams, id: impl Into<String>) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: params.name.into_owned(),
        arguments: Arguments::Json(Value::Object(params.arguments.unwrap_or_default())),
    }
}

/// The `tools/call` params for a call; arguments given as text are parsed.
///
/// # Errors
///
/// Arguments that are not a JSON object (pointer `/arguments`).
pub fn params_from_call(call: &ToolCall) -> Result<CallToolRequestParams, CallError> {
    let bad = |message: String| CallError { pointer: "/arguments".into(), message };
    let arguments: JsonObject = match &call.arguments {
        Arguments::Json(Value::Object(map)) => map.clone(),
        Arguments::Json(Value::Null) => JsonObject::new(),
        Arguments::Json(other) => {
            return Err(bad(format!("arguments must be a JSON object; got {other}")));
        }
        Arguments::Text(text) if text.trim().is_empty() => JsonObject::new(),
        Arguments::Text(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => map,
            Ok(other) => return Err(bad(format!("arguments must be a JSON object; got {other}"))),
            Err(e) => return Err(bad(format!("arguments are not JSON: {e}"))),
        },
    };
    Ok(CallToolRequestParams::new(call.name.clone()).with_arguments(arguments))
}

/// The rmcp [`CallToolResult`] of a result.
///
/// Every kind of [`Content`] maps to rmcp's block of that kind (text, image, audio, an embedded
/// text or blob resource, a resource link); `structuredContent` is the structured value when
/// `with_structured` is set (servers set it when the tool declares an output schema, as MCP
/// requires; before 2026-07-28 only object values are sent); `isError` is always written.
pub fn call_result_from_result(
    result: &ToolResult,
    version: McpVersion,
    with_structured: bool,
) -> CallToolResult {
    into_call_result(result.clone(), version, with_structured)
}

/// [`call_result_from_result`], taking the result by value (no copy of its content).
pub fn into_call_result(
    result: ToolResult,
    version: McpVersion,
    with_structured: bool,
) -> CallToolResult {
    let content = result.content.into_iter().map(block_from_content).collect();
    let mut out = if result.is_error {
        CallToolResult::error(content)
    } else {
        CallToolResult::success(content)
    };
    if with_structured
        && let Some(v) = result.structured
        && (v.is_object() || !version.object_output_only())
    {
        out.structured_content = Some(v);
    }
    if !version.has_result_type() {
        out.result_type = None;
    }
    out
}

/// rmcp's content block for one piece of content.
pub fn block_from_content(content: Content) -> ContentBlock {
    match content {
        Content::Text { text } => ContentBlock::text(text),
        Content::Image { data, mime_type } => ContentBlock::image(data, mime_type),
        Content::Audio { data, mime_type } => ContentBlock::audio(data, mime_type),
        Content::Resource { resource } => ContentBlock::resource(match resource {
            ResourceContents::Text { uri, mime_type, text } => {
                rmcp::model::ResourceContents::TextResourceContents {
                    uri,
                    mime_type,
                    text,
                    meta: None,
                }
            }
            ResourceContents::Blob { uri, mime_type, blob } => {
                rmcp::model::ResourceContents::BlobResourceContents {
                    uri,
                    mime_type,
                    blob,
                    meta: None,
                }
            }
        }),
        Content::ResourceLink(link) => {
            let mut r = rmcp::model::Resource::new(link.uri, link.name);
            r.title = link.title;
            r.description = link.description;
            r.mime_type = link.mime_type;
            r.size = link.size;
            ContentBlock::resource_link(r)
        }
        // A kind tooldef adds later and this bridge does not know yet: sent as text holding
        // its JSON, with a warning, rather than dropped.
        other => {
            tracing::warn!(kind = %other.kind(), "content kind without an rmcp mapping; sent as its JSON text");
            ContentBlock::text(serde_json::to_string(&other).unwrap_or_default())
        }
    }
}

/// The [`Content`] of one of rmcp's content blocks. Annotations and `_meta` are not kept (a
/// [`Content`] has no place for them).
pub fn content_from_block(block: &ContentBlock) -> Content {
    match block {
        ContentBlock::Text(t) => Content::text(t.text.clone()),
        ContentBlock::Image(i) => Content::image(i.data.clone(), i.mime_type.clone()),
        ContentBlock::Audio(a) => Content::audio(a.data.clone(), a.mime_type.clone()),
        ContentBlock::Resource(r) => match &r.resource {
            rmcp::model::ResourceContents::TextResourceContents {
                uri, mime_type, text, ..
            } => Content::resource(ResourceContents::Text {
                uri: uri.clone(),
                mime_type: mime_type.clone(),
                text: text.clone(),
            }),
            rmcp::model::ResourceContents::BlobResourceContents {
                uri, mime_type, blob, ..
            } => Content::resource(ResourceContents::Blob {
                uri: uri.clone(),
                mime_type: mime_type.clone(),
                blob: blob.clone(),
            }),
            // A kind of resource contents rmcp adds later: kept as text holding its JSON.
            other => Content::text(serde_json::to_string(other).unwrap_or_default()),
        },
        ContentBlock::ResourceLink(r) => {
            let mut link = ResourceLink::new(r.uri.clone(), r.name.clone());
            link.title = r.title.clone();
            link.description = r.description.clone();
            link.mime_type = r.mime_type.clone();
            link.size = r.size;
            Content::ResourceLink(link)
        }
        // A block kind rmcp adds later: kept as text holding its JSON, so nothing the server
        // sent is lost to the model.
        other => Content::text(
            serde_json::to_string(other)
                .unwrap_or_else(|e| format!("(a content block that does not serialize: {e})")),
        ),
    }
}

/// The [`ToolResult`] of an rmcp [`CallToolResult`] answering `call`.
///
/// Every block maps to the [`Content`] of its kind ([`content_from_block`]); a block kind rmcp
/// adds later becomes a text block holding its JSON, so nothing the server sent is lost to the
/// model. `structuredContent` is kept; an absent `isError` means success.
pub fn result_from_call_result(result: &CallToolResult, call: &ToolCall) -> ToolResult {
    let content = result.content.iter().map(content_from_block).collect();
    let is_error = result.is_error.unwrap_or(false);
    ToolResult {
        call_id: call.id.clone(),
        name: call.name.clone(),
        content,
        structured: result.structured_content.clone(),
        is_error,
        outcome: if is_error { Outcome::ToolError } else { Outcome::Success },
        repairs: Vec::new(),
    }
}

/// The tooldef protocol version whose shapes match rmcp's negotiated `version` (anything
/// before 2026-07-28 renders as 2025-11-25).
pub fn version_of(version: Option<&rmcp::model::ProtocolVersion>) -> McpVersion {
    match version {
        Some(v) if v.as_str() < McpVersion::V2026_07_28.as_str() => McpVersion::V2025_11_25,
        _ => McpVersion::V2026_07_28,
    }
}
