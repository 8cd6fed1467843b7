#![doc = include_str!("../../README.md")]
#![cfg_attr(docsrs, feature(doc_auto_cfg))]

pub mod assembly;
pub mod builder;
pub mod checks;
pub mod descriptor;
pub mod dispatch;
pub mod export;
pub mod json_schema;
pub mod literal;
pub mod overrides;
pub mod registry;
pub mod render;
pub mod schema;
pub mod spec;
pub mod stream;
pub mod tool;
pub mod tool_schema;
pub mod validate;
pub mod workspace;

// --- IR, builder, validation ---
pub use builder::{BuildError, ToolBuilder};
pub use checks::{ArgError, ArgErrors};
pub use descriptor::{Annotations, Definition, NameError, Param, ToolDescriptor, ToolName};
pub use literal::{Literal, Text};
pub use schema::{
    Additional, AnyOfSchema, EnumSchema, EnumValue, EnumValues, FloatSchema, IntegerSchema,
    ListSchema, NumberSchema, ObjectSchema, RefSchema, Schema, SchemaKind, SchemaRef, StringSchema,
};
pub use tool::{
    Arguments, BoxFuture, CallError, Content, Executor, Tool, ToolCall, ToolError, ToolResult,
};
pub use validate::{DescriptorError, Rule};

// --- json_schema, spec ---
pub use json_schema::{
    ImportError, ImportErrorKind, ImportNote, Imported, ImportedSchema, InputSchema, export_input,
    export_output, export_schema, import_input, import_schema,
};
pub use spec::{
    Command, MAX_SPEC_BYTES, MAX_TIMEOUT_MS, Spec, SpecError, SpecErrorKind, load_spec_file,
    parse_spec, spec_from_value, spec_to_json,
};

// --- tool_schema, macros ---
#[doc(hidden)]
pub use tool_schema::__private;
pub use tool_schema::{
    RunTool, SchemaGen, Shape, StringKey, ToolReturn, ToolSchema, ToolSet, ToolVisitor, schema_for,
};
#[cfg(feature = "macros")]
pub use tooldef_macros::{Tool, ToolSchema, tool, tools};

// --- dispatch ---
pub use dispatch::{DispatchError, DynamicTool, Toolbox, TypedTool, Validator};

// --- render ---
pub use render::{
    Change, ChangeKind, JsonWriter, Keyword, Keywords, NameRule, NullStyle, Policy, RefStyle,
    RenderCache, RenderCtx, RenderError, RenderRule, Rendered, RenderedSet, Renderer, Report,
    SchemaOptions, SchemaStats, Unsupported, write_input_schema, write_output_schema,
};

// --- overrides, registry ---
pub use overrides::{
    Constraint, OverriddenExecutor, Override, OverrideError, OverrideReport, Overrides,
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
    ExportError, Exported, LoadedSpec, Specs, Target, export_to_out_dir, load_spec_dir, load_specs,
    render_json,
};
