//! Define the tools an LLM may call once, with Rust types, and hand every provider exactly the
//! JSON it accepts.
//!
//! A tool is one typed [`ToolDescriptor`], built by `#[tool]` on a function, `#[derive(Tool)]` on
//! a struct, the `const` builder, or imported from JSON ([`parse_spec`], [`import_input`], the
//! provider crates' importers). It is checked at compile time where the compiler can see it,
//! patched by [`Override`]s, rendered by one crate per provider through the [`Renderer`] trait
//! (with a [`Report`] of every change made to fit the provider), and called back through a
//! [`Toolbox`] with typed, validated arguments.
//!
//! **Start with the [`guide`]**: install, `#[tool]` functions, async and stateful tools,
//! `#[derive(Tool)]` and `#[derive(ToolSchema)]`, the `const` builder, the request's `tools`
//! array ([`tools_json`]), the model's tool calls, and the complete attribute reference.
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::{LossPolicy, Tool, ToolCall, Toolbox, tool, tools_json};
//! use tooldef_openai::OpenAiRenderer;
//!
//! /// Get the current weather for a city.
//! #[tool(read_only)]
//! fn get_weather(
//!     /// City name, e.g. "Paris".
//!     city: String,
//!     #[param(range = 1..=10, default = 3)] days: u8,
//! ) -> String {
//!     format!("{days} sunny days in {city}")
//! }
//!
//! // The request's `tools` field, for OpenAI Chat Completions.
//! let tools = tools_json(&OpenAiRenderer::chat(), [GetWeather::descriptor()], LossPolicy::Refuse).unwrap();
//! assert!(tools.starts_with(r#"[{"type":"function","function":{"name":"get_weather""#));
//!
//! // The model's call, checked against the schema before the function runs.
//! let toolbox = Toolbox::new().with(GetWeather);
//! let call = ToolCall::new("call_1", "get_weather", serde_json::json!({"city": "Paris", "days": 11}));
//! assert_eq!(
//!     toolbox.call_blocking(&call).text(),
//!     "invalid arguments for get_weather: /days must be at most 10; got 11"
//! );
//! ```
//!
//! # Where things are
//!
//! The crate root is the front door: every type a user names is re-exported here. Modules are
//! public where they hold a namespace of their own (a renderer author's toolkit, the import and
//! export functions, the dispatch, registry and workspace machinery) or a guide of their own;
//! the IR, the run-time builder and the call contract live in private modules (named in `code`
//! below) whose items are all here at the root, so that each of those items has one path to keep.
//!
//! | stage | module | front-door types |
//! | --- | --- | --- |
//! | the IR | `descriptor`, `schema`, `literal`, `extensions` | [`ToolDescriptor`], [`Param`], [`ToolName`], [`Schema`], [`Literal`] |
//! | structural rules of a descriptor | [`descriptor_rules`], `builder` | [`DescriptorError`], [`ToolBuilder`] |
//! | Rust types to schemas, the macros' runtime | [`tool_schema`] | [`ToolSchema`], [`ToolSet`], [`RunTool`] |
//! | Rust types as the text of a grammar (grammar tools) | [`grammar`](mod@grammar) | [`ToolGrammar`](trait@ToolGrammar), [`Grammar`], [`GrammarInput`] |
//! | JSON Schema in and out, spec files | [`json_schema`], [`spec`], [`files`], [`json_text`], [`pointer`](mod@pointer) | [`import_input`], [`export_input`], [`Spec`], [`JsonPointer`] |
//! | patches | [`overrides`] | [`Override`], [`Overrides`], [`Constraint`] |
//! | which tools exist | [`registry`], [`workspace`] | [`ToolRegistry`], [`Workspace`] |
//! | what one model call is told | [`assembly`] | [`Assembler`], [`PromptAssembly`] |
//! | provider JSON | [`render`] (providers: one crate each) | [`Renderer`], [`Rendered`], [`RenderCache`], [`tools_json`] |
//! | the model's calls | `tool`, [`dispatch`], [`arg_checks`], [`stream`] | [`ToolCall`], [`ToolResult`], [`Toolbox`], [`Executor`] |
//! | build scripts | [`export`] | [`export_to_out_dir`] |
//!
//! # Features
//!
//! - `macros` (default): `#[tool]`, `#[tools]`, `#[derive(Tool)]`, `#[derive(ToolSchema)]`,
//!   `#[derive(ToolGrammar)]`.
//! - `chrono`, `uuid`, `url`: [`ToolSchema`] for those crates' types, with the matching `format`.
#![cfg_attr(docsrs, feature(doc_auto_cfg))]

pub mod arg_checks;
pub mod assembly;
mod builder;
mod const_text;
pub mod context;
mod descriptor;
pub mod descriptor_rules;
pub mod dispatch;
// Shared with `tooldef-macros`, which refuses at compile time what it refuses.
mod ecma;
// Shared with `tooldef-macros` too: the rules of a grammar definition.
pub mod export;
mod extensions;
pub mod files;
pub mod grammar;
mod grammar_rules;
pub mod guide;
pub mod json_schema;
pub mod json_text;
mod literal;
pub mod overrides;
pub mod pointer;
pub mod registry;
pub mod render;
mod rules;
mod schema;
mod source;
pub mod spec;
mod spec_files;
pub mod stream;
#[doc(hidden)]
pub mod suggest;
mod tool;
pub mod tool_schema;
pub mod workspace;

// --- IR, builder, validation ---
pub use arg_checks::{ArgError, ArgErrors};
pub use builder::{BuildError, ToolBuilder};
pub use descriptor::{
    Annotations, Definition, NameError, Param, ToolDescriptor, ToolName, ToolNameRule,
};
pub use descriptor_rules::{DescriptorError, Rule};
pub use extensions::Extensions;
pub use grammar::{Grammar, GrammarError, GrammarInput, GrammarSyntax, ToolGrammar};
pub use literal::{Literal, Text};
pub use pointer::{JsonPointer, PointerError};
pub use schema::{
    Additional, AnyOfSchema, Combine, EnumSchema, EnumValue, EnumValues, FloatSchema,
    IntegerSchema, Kept, ListSchema, NumberSchema, ObjectSchema, RefSchema, Scalar, ScalarRef,
    Schema, SchemaKind, SchemaRef, StringSchema,
};
pub use source::SchemaSource;
pub use tool::{
    Arguments, BoxFuture, CallError, Carried, Content, ContentKind, ContentNote, Executor, Outcome,
    ResourceContents, ResourceLink, ResultMessage, Tool, ToolCall, ToolError, ToolResult,
};

// --- json_schema, spec ---
pub use json_schema::{
    ImportError, ImportErrorKind, ImportNote, Imported, ImportedSchema, InputSchema, KeyOrder,
    MAX_IMPORT_NODES, export_input, export_input_literal, export_output, export_output_literal,
    export_schema, export_schema_literal, import_input, import_input_ordered, import_schema,
    import_schema_ordered,
};
pub use spec::{
    Command, MAX_SPEC_BYTES, MAX_TIMEOUT_MS, Spec, SpecError, SpecErrorKind, load_spec_file,
    parse_spec, spec_from_value, spec_from_value_ordered, spec_to_json, spec_to_literal,
};

// --- tool_schema, macros ---
#[doc(hidden)]
pub use tool_schema::__private;
pub use tool_schema::{
    RunTool, SchemaGen, Shape, StringKey, ToolReturn, ToolSchema, ToolSet, ToolVisitor, schema_for,
};
#[cfg(feature = "macros")]
pub use tooldef_macros::{Tool, ToolGrammar, ToolSchema, tool, tools};

// --- dispatch ---
pub use dispatch::{
    ArgValidator, DispatchError, DispatchErrorKind, DynamicTool, Toolbox, TypedTool,
};

// --- render ---
pub use render::{
    Change, ChangeKind, Inverse, JsonWriter, Keyword, Keywords, LossPolicy, MappedSet, NameMap,
    NameRule, NameRules, NullStyle, Pass, Passes, RefStyle, RenderCache, RenderCtx, RenderError,
    RenderRule, Rendered, RenderedSet, Renderer, Report, SchemaOptions, SchemaStats, Unsupported,
    WayBack, json_array, render_mapped, tools_json, write_input_schema, write_output_schema,
};

// --- overrides, registry ---
pub use overrides::{
    Constraint, OverriddenExecutor, Override, OverrideCall, OverrideError, OverrideErrorKind,
    OverrideReport, Overrides,
};
pub use registry::{
    Batch, Origin, Registered, RegistryEntry, RegistryError, Snapshot, ToolRegistry,
};

// --- workspace ---
pub use workspace::{
    CommandFailure, ReconcileReport, SkipReason, Skipped, ToolChange, Workspace, WorkspaceError,
    WorkspaceOp, WorkspaceOptions, WorkspaceStats, WorkspaceTarget, WorkspaceTool, parse_spec_file,
};

// --- assembly ---
pub use assembly::{
    Assembler, AssemblyContext, AssemblyError, Bundle, Contribution, Contributor, ContributorId,
    DisclosureSearch, Interceptor, InterceptorId, Next, OrderKey, PatternError,
    ProgressiveDisclosure, PromptAssembly, RequestFragment, Section, SectionSource, SectionText,
    ToolFilter, ToolPattern, interceptor_fn,
};

// --- export ---
pub use export::{
    ExportError, Exported, LoadedSpec, RenderedEach, Specs, SpecsError, Target, export_to_out_dir,
    load_spec_dir, load_specs, render_each, render_each_mapped, render_json,
};

// The README's examples run as doctests too (kept out of the crate docs, which `cargo package`
// builds without the repository around them).
#[cfg(all(doctest, feature = "macros"))]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
