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
//! # The way back
//!
//! Every change the writer makes to fit a provider is a named lowering [`Pass`], defined next
//! to its inverse. A rendering whose lowering changed how some value is sent keeps an
//! [`Inverse`] ([`Rendered::inverse`]), and every render output implements [`WayBack`]: apply
//! [`WayBack::restore`] ([`Rendered::restore`], [`RenderedSet::restore`],
//! [`MappedSet::restore`]) to each [`ToolCall`](crate::ToolCall) a provider crate maps from the
//! model's message, then dispatch it.
//!
//! **The contract.** For every provider, mode and policy, and every argument value `v`: `v` is
//! valid for the descriptor exactly when what a model obeying the rendered schema sends for
//! `v`, given back by [`WayBack::restore`], is accepted by dispatch, and the tool then receives
//! `v`, with the descriptor's defaults applied. Where a provider's form cannot say a constraint
//! (a bound or a format moved into the description, a map's value type kept in text), dispatch
//! still enforces it, and its error names the JSON pointer of the value the model sent.
//!
//! The exceptions, where two values are sent alike and the way back reads the one given here:
//!
//! | pass | sent alike | read back as |
//! | --- | --- | --- |
//! | [`Pass::NullForAbsent`] | an optional parameter left out, and `null` for one that does not take `null` | left out: the default applies, an `Option` is `None` |
//! | [`Pass::NullForAbsent`] | an optional parameter that takes `null` left out, and its `null` | `null`: the model cannot leave such a parameter out |
//! | [`Pass::StringEnums`] | an enum value that is not a string, and its text (`3` and `"3"`) | the enum value, unless the enum takes the string itself |
//! | any, in a union | a value two variants read differently once given back | the first variant, in the schema's order, that the value then fits |
//!
//! A value the lowered schema cannot hold at all (a key of an open object or a map that a
//! strict mode closed) is a lossy change of the render's report, refused under
//! [`LossPolicy::Refuse`]. An object that does not state `additionalProperties` is closed by
//! the strict modes as a lossless change (tooldef reads unstated as closed): a key it does not
//! describe cannot be sent there, although dispatch, reading it as JSON Schema does, would take
//! it.
//!
//! | pass | on the way out | on the way back |
//! | --- | --- | --- |
//! | [`Pass::NullForAbsent`] | an optional property made required and nullable (OpenAI strict) | `null` read as absent where the descriptor did not take `null` |
//! | [`Pass::StringEnums`] | enum values that are not strings sent as strings (Gemini `parameters`) | each string given back as its typed value |
//! | [`Pass::MapNames`] | names a provider refuses sent under safe names ([`render_mapped`]) | the original names ([`NameMap::restore`]) |
//! | [`Pass::EnumsInText`] | an enum whose values cannot be told apart as strings, written as its type with the values in the description | none: dispatch checks the enum |
//! | [`Pass::OneOfAsAnyOf`] | `oneOf` written as `anyOf` | none: dispatch checks that exactly one variant matches |
//! | [`Pass::InlineRefs`] | a `$ref` replaced by its definition | none: the value is the same |
//! | [`Pass::WrapRefSiblings`] | a `$ref` with siblings wrapped in `anyOf` | none |
//! | [`Pass::MapValuesInText`] | a map's value type written into the description | none: dispatch checks each value |
//! | [`Pass::KeywordsInText`] | a keyword the provider refuses written into the description, or dropped | none: dispatch checks it |
//! | [`Pass::KeptInText`] | a keyword import kept verbatim written into the description | none: dispatch checks it |
//! | [`Pass::ClampMinItems`] | `minItems` clamped to what the provider takes | none: dispatch checks the bound |
//! | [`Pass::CloseObjects`] | objects closed with `additionalProperties: false` | none |
//! | [`Pass::OpenAnyMaps`] | a map of any value written as `additionalProperties: true` (model profiles) | none: the same values are valid |
//! | [`Pass::DropNeverVariants`] | `anyOf` variants that accept no value left out (model profiles) | none: the same values are valid |
//!
//! Each pass is one small unit in `render/lowering/`, in a file named after it (the table in
//! `ARCHITECTURE.md` lists them): what the schema writer asks it at a node (does it fire,
//! what is written), the note and change it records, and its inverse. The writer is the one
//! walker over the subschemas; a dialect is a set of passes
//! ([`SchemaOptions::passes`], composed with [`SchemaOptions::with`]) beside the facts of its
//! form (keywords kept, null style, reference style). Who runs what:
//!
//! | renderer | passes |
//! | --- | --- |
//! | OpenAI Chat and Responses, Anthropic, Bedrock (not strict); MCP | none |
//! | OpenAI strict (and the strict OpenAI-shaped profiles but Cohere) | null-for-absent, one-of-as-any-of, wrap-ref-siblings, keywords-in-text, kept-in-text, close-objects |
//! | Cohere strict | as OpenAI strict, without null-for-absent |
//! | Anthropic strict, Bedrock strict | one-of-as-any-of, wrap-ref-siblings, keywords-in-text, kept-in-text, clamp-min-items, close-objects |
//! | Gemini `parametersJsonSchema` | one-of-as-any-of, keywords-in-text, kept-in-text |
//! | Gemini OpenAPI `parameters` | string-enums, enums-in-text, one-of-as-any-of, inline-refs, map-values-in-text, keywords-in-text, kept-in-text |
//! | Ollama | one-of-as-any-of, map-values-in-text, keywords-in-text, kept-in-text |
//!
//! The inverses run in the reverse order of the passes: first those of the rendered
//! descriptor (under the wire names), then the name map.
//!
//! Every place a rendering goes keeps its way back: the render outputs themselves, a provider
//! crate's [`RequestFragment`](crate::RequestFragment) (its `tools`), and the stream
//! accumulators given one with `way_back`, which find a mapped tool by its original name
//! ([`WayBack::original_name`]) and read its arguments under the names the model was sent
//! ([`WayBack::wire_descriptor`]). Their early checks follow dispatch's repairs: set the
//! stream's `repair` as [`CallOptions::repair`](crate::dispatch::CallOptions::repair) is set.
//!
//! ```
//! use tooldef::render::{LossPolicy, Renderer};
//! use tooldef::{Param, ToolDescriptor, Toolbox, dispatch::DynamicTool};
//! use tooldef_openai::{OpenAiRenderer, chat_tool_calls};
//!
//! static FORECAST: ToolDescriptor = ToolDescriptor::new("forecast").params(const {
//!     &[Param::string("city"), Param::integer("days").range(1, 10).default_int(3)]
//! });
//! let rendered = OpenAiRenderer::chat().strict(true).render(&FORECAST, LossPolicy::Refuse).unwrap();
//! // Strict mode made `days` required and nullable: a model that wants the default sends null.
//! let message = serde_json::json!({"tool_calls": [{"id": "c1", "type": "function", "function":
//!     {"name": "forecast", "arguments": "{\"city\":\"Paris\",\"days\":null}"}}]});
//! let calls = rendered.restore_all(chat_tool_calls(&message).unwrap());
//!
//! let toolbox = Toolbox::new()
//!     .with_executor(DynamicTool::new_sync(FORECAST.clone(), |args| Ok(args)).into());
//! let result = toolbox.call_blocking(&calls[0]);
//! assert_eq!(result.structured, Some(serde_json::json!({"city": "Paris", "days": 3})));
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
//! | `examples.rs` | [`fold_input_examples`]: tool-level input examples written into descriptions |
//! | `models.rs` | [`ModelProfile`], [`ModelChoice`]: model families on top of a wire API, chosen by model id |
//! | `lowering/` | the lowering passes ([`Pass`]), each next to its inverse, and the way back ([`Inverse`], [`WayBack`]): `back.rs` the walker, one file per value-changing pass |
//! | `schema_writer/` | [`write_input_schema`], [`write_output_schema`] (one file per concept: nodes, planning, annotations, objects, references, definitions) |

mod cache;
mod examples;
mod grammar;
mod json_writer;
pub(crate) mod lowering;
mod models;
pub(crate) mod name_map;
mod names;
mod renderer;
mod report;
mod schema_options;
mod schema_writer;

pub use cache::{RenderCache, content_hash};
pub use examples::{fold_input_examples, input_examples_text};
pub use grammar::grammar_as_function;
pub use json_writer::{JsonWriter, StaticKey, escape_into, literal_text};
pub use lowering::{Inverse, Pass, Passes, WayBack};
pub use models::{ModelChoice, ModelProfile};
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
