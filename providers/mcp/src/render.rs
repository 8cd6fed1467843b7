//! The renderer: MCP `Tool` definitions per protocol version, and the `tools/list` result of a
//! set.

use tooldef::JsonPointer;
use tooldef::json_key;
use tooldef::render::{
    Change, ChangeKind, JsonWriter, LossPolicy, NameRules, RenderCtx, RenderError, Rendered,
    Renderer, SchemaOptions, write_input_schema, write_output_schema,
};
use tooldef::{SchemaKind, ToolDescriptor};

use crate::rules::{self, TOOL_NAME};

/// A dated MCP protocol version whose `Tool` and results differ from the others.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum McpVersion {
    /// `2025-06-18`: `outputSchema` and `structuredContent` must be objects; results have no
    /// `resultType`.
    V2025_06_18,
    /// `2025-11-25`: as 2025-06-18 for everything rendered here.
    V2025_11_25,
    /// `2026-07-28` (latest): `outputSchema` may be any schema, `structuredContent` any value;
    /// every result carries `resultType`, and `tools/list` results `cacheScope` and `ttlMs`.
    #[default]
    V2026_07_28,
}

impl McpVersion {
    /// The version's date, as the protocol spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            McpVersion::V2025_06_18 => "2025-06-18",
            McpVersion::V2025_11_25 => "2025-11-25",
            McpVersion::V2026_07_28 => "2026-07-28",
        }
    }

    /// Whether `outputSchema` must have `type: "object"` at its root and `structuredContent`
    /// must be an object.
    pub const fn object_output_only(self) -> bool {
        !matches!(self, McpVersion::V2026_07_28)
    }

    /// Whether results carry `resultType` (and `tools/list` results the caching fields).
    pub const fn has_result_type(self) -> bool {
        matches!(self, McpVersion::V2026_07_28)
    }
}

/// The [`Extensions`](tooldef::Extensions) namespace of MCP `Tool` fields the IR does not
/// model (`_meta`, `icons`, `execution`, and any other): filled by the import, written back by
/// the renderer.
pub const EXTENSION_NAMESPACE: &str = "mcp";

/// The `Tool` fields the renderer writes from the descriptor itself.
const MODELLED: &[&str] =
    &["name", "title", "description", "inputSchema", "outputSchema", "annotations"];

/// Renders tools as MCP `Tool` objects: `{name, title?, description?, inputSchema,
/// outputSchema?, annotations?}`, then every field kept in the descriptor's `mcp`
/// [extensions](tooldef::Extensions) (`_meta`, `icons`, `execution`...) as it was imported.
///
/// The schemas are JSON Schema 2020-12 with nothing lowered (`$defs`, recursion, bounds,
/// formats, patterns, defaults, open and typed objects all kept); a zero-argument tool gets
/// `{"type":"object","additionalProperties":false}`. A schema the descriptor still holds as it
/// was imported ([`ToolDescriptor::source_input_schema`], `source_output_schema`) is written as
/// it was read, so an MCP tool imported and rendered again comes back as the server listed it;
/// once anything changed the IR (an override, an edit), the schema is written from the IR, and
/// so is a text MCP would refuse (no `"type": "object"` at the root of an `inputSchema`, or of
/// an `outputSchema` before 2026-07-28), with a report entry.
/// Before 2026-07-28 an `outputSchema` must be an object schema: another output schema is left
/// out and reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct McpRenderer {
    version: McpVersion,
}

impl McpRenderer {
    /// For the latest version, 2026-07-28.
    pub const fn new() -> Self {
        McpRenderer { version: McpVersion::V2026_07_28 }
    }

    /// For the given protocol version.
    pub const fn version(version: McpVersion) -> Self {
        McpRenderer { version }
    }

    /// The protocol version.
    pub const fn protocol(&self) -> McpVersion {
        self.version
    }

    /// The lowering used for `inputSchema` and `outputSchema` (none: plain 2020-12).
    pub const fn schema_options(&self) -> SchemaOptions {
        SchemaOptions { empty_properties: false, ..SchemaOptions::JSON_SCHEMA }
    }
}

impl Renderer for McpRenderer {
    fn name(&self) -> &str {
        "mcp"
    }

    fn cache_key(&self) -> std::borrow::Cow<'_, str> {
        std::borrow::Cow::Owned(format!("mcp-{}", self.version.as_str()))
    }

    fn name_rules(&self) -> NameRules {
        rules::NAME_RULES
    }

    fn render(&self, tool: &ToolDescriptor, policy: LossPolicy) -> Result<Rendered, RenderError> {
        let mut ctx = RenderCtx::new(tool, policy);
        tooldef::render::grammar_as_function(&mut ctx, tool)?;
        ctx.check_name(&TOOL_NAME)?;
        let opts = self.schema_options();
        let mut out = JsonWriter::for_tool(tool);
        out.begin_object();
        out.static_key(json_key!("name"));
        out.string(tool.name.as_str());
        if let Some(title) = &tool.title {
            out.static_key(json_key!("title"));
            out.string(title);
        }
        if !tool.description.is_empty() {
            out.static_key(json_key!("description"));
            out.string(&tool.description);
        }
        if !tool.input_examples.is_empty() {
            // MCP's `Tool` has no field for them, and the description is the server's own text.
            ctx.record(
                Change::lossless(ChangeKind::Omitted, "input_examples")
                    .detail("the tool's input examples omitted: MCP's Tool has no field for them"),
            )?;
        }
        out.static_key(json_key!("inputSchema"));
        // A schema unchanged since import is written as it was read: the same schema as the
        // IR's, in the server's own spelling, so nothing is changed or reported. Unless MCP
        // refuses that spelling: every version requires `"type": "object"` at the root.
        let input_text = tool.source_input_schema();
        if let Some(text) = input_text.filter(|t| states_object(t)) {
            out.raw(text);
        } else {
            if input_text.is_some() {
                ctx.record(source_not_written("inputSchema", "every version of MCP"))?;
            }
            write_input_schema(
                &mut out,
                tool,
                &opts,
                &mut ctx,
                &JsonPointer::from_segments(["inputSchema"]),
            )?;
        }
        if let Some(output) = &tool.output {
            let object_root = matches!(output.kind, SchemaKind::Object(_)) && !output.nullable;
            if self.version.object_output_only() && !object_root {
                ctx.record(
                    Change::lossless(ChangeKind::Omitted, "outputSchema")
                        .at(JsonPointer::from_segments(["outputSchema"]))
                        .param("$output")
                        .detail(format!(
                            "MCP {} accepts only object output schemas; this {} one is left out",
                            self.version.as_str(),
                            output.type_name()
                        )),
                )?;
            } else {
                out.static_key(json_key!("outputSchema"));
                let output_text = tool.source_output_schema();
                let object_only = self.version.object_output_only();
                if let Some(text) = output_text.filter(|t| !object_only || states_object(t)) {
                    out.raw(text);
                } else {
                    if output_text.is_some() {
                        let which = format!("MCP {}", self.version.as_str());
                        ctx.record(source_not_written("outputSchema", &which))?;
                    }
                    write_output_schema(
                        &mut out,
                        tool,
                        &opts,
                        &mut ctx,
                        &JsonPointer::from_segments(["outputSchema"]),
                    )?;
                }
            }
        }
        let a = &tool.annotations;
        if !a.is_empty() {
            out.static_key(json_key!("annotations"));
            out.begin_object();
            if let Some(t) = &a.title {
                out.static_key(json_key!("title"));
                out.string(t);
            }
            let hints = [
                ("readOnlyHint", a.read_only),
                ("destructiveHint", a.destructive),
                ("idempotentHint", a.idempotent),
                ("openWorldHint", a.open_world),
            ];
            for (key, value) in hints {
                if let Some(v) = value {
                    out.key(key);
                    out.bool(v);
                }
            }
            out.end_object();
        }
        for (key, value) in tool.extensions.namespace(EXTENSION_NAMESPACE).into_iter().flatten() {
            if MODELLED.contains(&key.as_str()) {
                ctx.record(Change::lossy(ChangeKind::Dropped, "extensions").at(JsonPointer::from_segments([key])).detail(format!(
                        "extension field `{key}` is not written: the descriptor's own `{key}` is"
                    )))?;
                continue;
            }
            out.key(key);
            out.value(value);
        }
        ctx.omit_extensions(tool, &JsonPointer::root(), Some(EXTENSION_NAMESPACE))?;
        out.end_object();
        Ok(ctx.finish(out))
    }
}

/// Whether a schema's JSON text says `"type": "object"` at its root, as MCP requires of
/// `inputSchema` (and of `outputSchema` before 2026-07-28). Read without building a value.
fn states_object(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Root<'a> {
        #[serde(rename = "type", borrow, default)]
        ty: Option<&'a str>,
    }
    serde_json::from_str::<Root<'_>>(text).is_ok_and(|root| root.ty == Some("object"))
}

/// The change of a schema written from the IR because its imported text, which the IR still
/// matches, lacks the root `type` that `who` requires (the import read it as an object).
fn source_not_written(field: &'static str, who: &str) -> Change {
    Change::lossless(ChangeKind::Rewritten, "type").at(JsonPointer::from_segments([field])).detail(
        format!(
            "the imported schema is written from the IR, as the object it was read as: its text \
             has no `\"type\": \"object\"` at the root, which {who} requires"
        ),
    )
}

/// Who may reuse a cached `tools/list` result (2026-07-28 `cacheScope`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CacheScope {
    /// Only within the same authorization context.
    #[default]
    Private,
    /// Any client or intermediary.
    Public,
}

/// The fields of a `tools/list` result besides the tools.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListOptions {
    /// `cacheScope` (2026-07-28).
    pub cache_scope: CacheScope,
    /// `ttlMs`: how long the client may cache the list (2026-07-28); 0 means stale at once.
    pub ttl_ms: u64,
    /// `nextCursor`, when there are more pages.
    pub next_cursor: Option<String>,
}

/// The `tools/list` result (`ListToolsResult`) for rendered tools, in the given version's shape.
pub fn list_tools_result<'a>(
    tools: impl IntoIterator<Item = &'a Rendered>,
    version: McpVersion,
    options: &ListOptions,
) -> String {
    let mut out = JsonWriter::new();
    out.begin_object();
    out.static_key(json_key!("tools"));
    out.begin_array();
    for t in tools {
        out.raw(t.json());
    }
    out.end_array();
    if let Some(cursor) = &options.next_cursor {
        out.static_key(json_key!("nextCursor"));
        out.string(cursor);
    }
    if version.has_result_type() {
        out.static_key(json_key!("resultType"));
        out.string("complete");
        out.static_key(json_key!("cacheScope"));
        out.string(match options.cache_scope {
            CacheScope::Private => "private",
            CacheScope::Public => "public",
        });
        out.static_key(json_key!("ttlMs"));
        out.uint(options.ttl_ms);
    }
    out.end_object();
    out.finish()
}
