//! Rendering: the [`Renderer`] extension point, its [`Report`] of changes, [`RenderError`],
//! the [`RenderCache`], and the lowering helpers provider crates share ([`JsonWriter`], a
//! configurable JSON Schema writer driven by [`SchemaOptions`], [`NameRule`]).
//!
//! Owns how a descriptor becomes provider JSON text; it does not know any provider. Each
//! `tooldef-<provider>` crate implements [`Renderer`] with the helpers here, so that the
//! same lowering (nullable style, defaults moved into descriptions, strict closing of objects,
//! `$defs` or inlining, recursion detection) is written once.
//!
//! # Implementing a renderer
//!
//! ```
//! use tooldef::render::{
//!     Change, ChangeKind, JsonWriter, LossPolicy, RenderCtx, RenderError, RenderRule, Rendered,
//!     Renderer, SchemaOptions, write_input_schema,
//! };
//! use tooldef::{JsonPointer, Param, ToolDescriptor};
//!
//! /// `{"tool": name, "doc": description, "args": <JSON Schema>}` for an in-house gateway.
//! struct Gateway;
//!
//! impl Renderer for Gateway {
//!     fn name(&self) -> &str {
//!         "gateway"
//!     }
//!
//!     fn render(&self, tool: &ToolDescriptor, policy: LossPolicy) -> Result<Rendered, RenderError> {
//!         let mut ctx = RenderCtx::new(tool, policy);
//!         let mut out = JsonWriter::new();
//!         out.begin_object();
//!         out.key("tool");
//!         out.string(tool.name.as_str());
//!         out.key("doc");
//!         out.string(&tool.description);
//!         out.key("args");
//!         let args = JsonPointer::from_segments(["args"]);
//!         write_input_schema(&mut out, tool, &SchemaOptions::JSON_SCHEMA, &mut ctx, &args)?;
//!         out.end_object();
//!         // Every change made to fit the gateway is recorded, built by name: lossless ones
//!         // are reported; a lossy one (`Change::lossy`) is an error under `LossPolicy::Refuse`.
//!         if let Some(title) = &tool.title {
//!             ctx.record(
//!                 Change::lossless(ChangeKind::Omitted, "title")
//!                     .detail(format!("title `{title}` omitted: the gateway has no title field")),
//!             )?;
//!         }
//!         if !tool.annotations.is_empty() {
//!             ctx.record(
//!                 Change::lossy(ChangeKind::Dropped, "annotations")
//!                     .at(JsonPointer::root())
//!                     .detail("behaviour hints dropped: the gateway would run a tool it must not"),
//!             )?;
//!         }
//!         Ok(ctx.finish(out))
//!     }
//! }
//!
//! static ECHO: ToolDescriptor = ToolDescriptor::new("echo")
//!     .title("Echo")
//!     .description("Echo text.")
//!     .params(const { &[Param::string("text")] });
//! let rendered = Gateway.render(&ECHO, LossPolicy::Refuse).unwrap();
//! assert_eq!(
//!     rendered.json(),
//!     r#"{"tool":"echo","doc":"Echo text.","args":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}}"#
//! );
//! let change = &rendered.report().changes[0];
//! assert_eq!((change.tool.as_str(), change.kind, change.lossy), ("echo", ChangeKind::Omitted, false));
//! assert_eq!(change.to_string(), "tool `echo`: title `Echo` omitted: the gateway has no title field");
//!
//! static DELETE: ToolDescriptor =
//!     ToolDescriptor::new("delete").description("Delete a file.").destructive(true);
//! let err = Gateway.render(&DELETE, LossPolicy::Refuse).unwrap_err();
//! assert_eq!(err.rule, RenderRule::Lossy);
//! assert!(Gateway.render(&DELETE, LossPolicy::Allow).unwrap().report().lossy().count() == 1);
//! ```
//!
//! # Where things are
//!
//! | file | owns |
//! | --- | --- |
//! | `report.rs` | [`LossPolicy`], [`Change`], [`Report`], [`RenderError`] |
//! | `renderer.rs` | [`Renderer`], [`Rendered`], [`RenderedSet`], [`RenderCtx`], [`tools_json`] |
//! | `names.rs` | [`NameRule`] |
//! | `name_map.rs` | [`NameRules`], [`NameMap`], [`render_mapped`]: opt-in safe names |
//! | `cache.rs` | [`RenderCache`] |
//! | `json_writer.rs` | [`JsonWriter`] and its escaping |
//! | `schema_options.rs` | [`SchemaOptions`], [`Keywords`], [`SchemaStats`] |
//! | `schema_writer/` | [`write_input_schema`], [`write_output_schema`] (one file per concept: nodes, planning, annotations, objects, references, definitions) |

mod cache;
mod json_writer;
pub(crate) mod name_map;
mod names;
mod renderer;
mod report;
mod schema_options;
mod schema_writer;

pub use cache::{RenderCache, content_hash};
pub use json_writer::{JsonWriter, StaticKey, escape_into, literal_text};
pub use name_map::{MappedSet, NameMap, NameRules, render_mapped};
pub use names::NameRule;
pub use renderer::{RenderCtx, Rendered, RenderedSet, Renderer, json_array, tools_json};
pub use report::{Change, ChangeKind, LossPolicy, RenderError, RenderRule, Report};
pub use schema_options::{
    Keyword, Keywords, NullStyle, RefStyle, SchemaOptions, SchemaStats, Unsupported,
};
pub use schema_writer::{
    has_lookaround, input_description, ref_target, write_input_schema, write_output_schema,
};
