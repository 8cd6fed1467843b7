//! The renderer: wire shapes of Chat Completions and Responses, strict-mode lowering and the
//! limits OpenAI documents, and the differences of the OpenAI-compatible providers.

use std::borrow::Cow;

use tooldef::JsonPointer;
use tooldef::json_key;
use tooldef::render::{
    Change, ChangeKind, JsonWriter, Keyword, Keywords, LossPolicy, ModelChoice, NameRules,
    NullStyle, Pass, Passes, RenderCtx, RenderError, RenderRule, Rendered, Renderer, SchemaOptions,
    SchemaStats, fold_input_examples, write_input_schema, write_output_schema,
};
use tooldef::{SchemaKind, ToolDescriptor};

use crate::rules;

/// Which OpenAI API the tools are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Api {
    /// Chat Completions: `{"type":"function","function":{name, description, parameters, strict}}`.
    Chat,
    /// Responses: flat `{"type":"function", name, description, parameters, strict}`, with
    /// `strict` always written (an omitted `strict` makes the API try strict mode).
    Responses,
}

/// Which provider speaks the OpenAI shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Profile {
    /// OpenAI itself.
    OpenAi,
    /// Mistral: Chat shape, `strict` per function, `parameters` always present.
    Mistral,
    /// DeepSeek: Chat shape, `strict` per function (beta base URL), fewer string formats.
    DeepSeek,
    /// Groq: Chat shape, treated as OpenAI.
    Groq,
    /// xAI: Chat and Responses shapes, treated as OpenAI.
    XAi,
    /// Cohere v2: Chat shape without a per-tool `strict`; strictness is the request's
    /// `strict_tools: true`, which needs one required parameter per tool and at most 200 fields
    /// over all tools.
    Cohere,
}

/// What sets one OpenAI-shaped provider apart, one row per [`Profile`]: the only place a
/// profile is told apart from another.
struct Row {
    slug: &'static str,
    /// Whether it has the Responses API.
    responses: bool,
    /// `description` written even when empty.
    description_always: bool,
    /// The string formats its strict mode accepts.
    strict_formats: &'static [&'static str],
    /// Strict mode's lowering passes beyond closing objects, rewriting `oneOf`, wrapping
    /// `$ref` siblings and moving what it refuses into descriptions.
    strict_passes: Passes,
    /// Strict mode is a per-function `"strict": true` (else a request setting).
    strict_flag: bool,
    /// OpenAI's documented strict limits (properties, nesting, enum values, names) apply.
    strict_limits: bool,
    /// Strict mode needs one required parameter per tool, and at most this many fields over
    /// all tools of a request.
    strict_fields: Option<usize>,
}

/// OpenAI's strict mode: every property required, optional ones made nullable.
const ALL_REQUIRED: Passes = Passes::NONE.with(Pass::NullForAbsent);

impl Profile {
    const fn row(self) -> &'static Row {
        const fn openai_like(slug: &'static str, responses: bool) -> Row {
            Row {
                slug,
                responses,
                description_always: false,
                strict_formats: OPENAI_FORMATS,
                strict_passes: ALL_REQUIRED,
                strict_flag: true,
                strict_limits: true,
                strict_fields: None,
            }
        }
        const OPENAI: Row = openai_like("openai", true);
        const MISTRAL: Row = openai_like("mistral", false);
        const DEEPSEEK: Row =
            Row { strict_formats: DEEPSEEK_FORMATS, ..openai_like("deepseek", false) };
        const GROQ: Row = openai_like("groq", false);
        const XAI: Row = openai_like("xai", true);
        // Cohere's `strict_tools` keeps optional parameters optional.
        const COHERE: Row = Row {
            description_always: true,
            strict_passes: Passes::NONE,
            strict_flag: false,
            strict_limits: false,
            strict_fields: Some(COHERE_MAX_FIELDS),
            ..openai_like("cohere", false)
        };
        match self {
            Profile::OpenAi => &OPENAI,
            Profile::Mistral => &MISTRAL,
            Profile::DeepSeek => &DEEPSEEK,
            Profile::Groq => &GROQ,
            Profile::XAi => &XAI,
            Profile::Cohere => &COHERE,
        }
    }

    const fn slug(self) -> &'static str {
        self.row().slug
    }
}

/// Formats OpenAI strict mode accepts.
const OPENAI_FORMATS: &[&str] =
    &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];
/// Formats DeepSeek strict mode accepts.
const DEEPSEEK_FORMATS: &[&str] = &["email", "hostname", "ipv4", "ipv6", "uuid"];

/// Documented limits of OpenAI strict schemas.
const MAX_PROPERTIES: usize = 5000;
const MAX_DEPTH: usize = 10;
const MAX_ENUM_VALUES: usize = 1000;
const MAX_NAME_CHARS: usize = 120_000;
const LARGE_ENUM: usize = 250;
const LARGE_ENUM_CHARS: usize = 15_000;
/// Cohere `strict_tools`: fields over all tools of a request.
const COHERE_MAX_FIELDS: usize = 200;

/// Renders tools for OpenAI or an OpenAI-compatible provider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenAiRenderer {
    api: Api,
    profile: Profile,
    strict: bool,
    model: ModelChoice,
    key: String,
    /// Where the function object is in the output (`/function` in Chat, the root in
    /// Responses), and its parameters: built once, not per tool.
    base: JsonPointer,
    parameters: JsonPointer,
}

impl Default for OpenAiRenderer {
    fn default() -> Self {
        OpenAiRenderer::chat()
    }
}

impl OpenAiRenderer {
    fn make(api: Api, profile: Profile, strict: bool, model: ModelChoice) -> Self {
        let api_name = match api {
            Api::Chat => "chat",
            Api::Responses => "responses",
        };
        let mut key =
            format!("{}-{api_name}{}", profile.slug(), if strict { "-strict" } else { "" });
        match model {
            ModelChoice::WireApi => {}
            ModelChoice::Profile(p) => {
                key.push('+');
                key.push_str(p.family());
            }
            ModelChoice::Unknown => key.push_str("+unknown-model"),
        }
        let base = match api {
            Api::Chat => JsonPointer::from_segments(["function"]),
            Api::Responses => JsonPointer::root(),
        };
        let parameters = base.child("parameters");
        OpenAiRenderer { api, profile, strict, model, key, base, parameters }
    }

    /// OpenAI Chat Completions, non-strict.
    pub fn chat() -> Self {
        OpenAiRenderer::make(Api::Chat, Profile::OpenAi, false, ModelChoice::WireApi)
    }

    /// OpenAI Responses, non-strict (`"strict": false` written).
    pub fn responses() -> Self {
        OpenAiRenderer::make(Api::Responses, Profile::OpenAi, false, ModelChoice::WireApi)
    }

    /// The same renderer for another provider.
    #[must_use]
    pub fn profile(self, profile: Profile) -> Self {
        OpenAiRenderer::make(self.api, profile, self.strict, self.model)
    }

    /// Strict mode on or off (Structured Outputs for function calling).
    #[must_use]
    pub fn strict(self, strict: bool) -> Self {
        OpenAiRenderer::make(self.api, self.profile, strict, self.model)
    }

    /// The same renderer for the model `id` served over this API: its family's
    /// [`ModelProfile`](tooldef::render::ModelProfile) runs on top of the wire API's lowering
    /// (chosen by [`ModelChoice::for_id`]; an id no profile matches keeps the defaults and is
    /// reported on each tool). A family without strict tool definitions renders without them,
    /// reported as lossy.
    ///
    /// ```
    /// use tooldef::render::{LossPolicy, Renderer};
    /// use tooldef::{Param, ToolDescriptor};
    /// use tooldef_openai::OpenAiRenderer;
    ///
    /// static LOOKUP: ToolDescriptor = ToolDescriptor::new("lookup")
    ///     .params(const { &[Param::string("code").pattern("^[A-Z]{3}$")] });
    /// let r = OpenAiRenderer::chat().model("meta-llama/Llama-3.3-70B-Instruct");
    /// let rendered = r.render(&LOOKUP, LossPolicy::Refuse).unwrap();
    /// assert_eq!(
    ///     rendered.json(),
    ///     r#"{"type":"function","function":{"name":"lookup","parameters":{"type":"object","properties":{"code":{"type":"string","description":"Pattern: ^[A-Z]{3}$."}},"required":["code"],"additionalProperties":false}}}"#
    /// );
    /// ```
    #[must_use]
    pub fn model(self, id: &str) -> Self {
        OpenAiRenderer::make(self.api, self.profile, self.strict, ModelChoice::for_id(id))
    }

    /// The model the tools are rendered for.
    pub fn model_choice(&self) -> ModelChoice {
        self.model
    }

    /// Whether strict tool definitions are sent: strict mode on, and the model's family takes
    /// them.
    fn strict_sent(&self) -> bool {
        self.strict && self.model.strict_tools()
    }

    /// The API.
    pub fn api(&self) -> Api {
        self.api
    }

    /// The provider profile.
    pub fn provider(&self) -> Profile {
        self.profile
    }

    /// Whether strict mode is on.
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// The JSON Schema dialect used for `parameters`.
    pub fn schema_options(&self) -> SchemaOptions {
        self.model.schema_options(self.wire_options())
    }

    /// The API's own dialect, before the model's profile.
    fn wire_options(&self) -> SchemaOptions {
        if !self.strict_sent() {
            return SchemaOptions {
                null_style: NullStyle::TypeArray,
                empty_properties: true,
                ..SchemaOptions::JSON_SCHEMA
            };
        }
        let row = self.profile.row();
        let keywords = Keywords::ALL
            .without(Keyword::Default)
            .without(Keyword::Examples)
            .without(Keyword::UniqueItems);
        SchemaOptions {
            keywords,
            formats: Some(row.strict_formats),
            pattern_lookaround: false,
            needs_type: true,
            ..SchemaOptions::JSON_SCHEMA
        }
        .with(Pass::CloseObjects)
        .with(Pass::OneOfAsAnyOf)
        .with(Pass::KeptInText)
        .with(Pass::WrapRefSiblings)
        .with_passes(row.strict_passes)
    }

    /// Renders one tool and returns the counts of its parameter schema too.
    fn render_counted(
        &self,
        tool: &ToolDescriptor,
        policy: LossPolicy,
    ) -> Result<(Rendered, SchemaStats), RenderError> {
        let mut ctx = RenderCtx::new(tool, policy);
        ctx.check_name(&rules::TOOL_NAME)?;
        let prepared = self.model.prepare(tool, &mut ctx, &self.parameters, self.strict)?;
        let tool = &*prepared;
        let strict = self.strict_sent();
        let row = self.profile.row();
        if self.api == Api::Responses && !row.responses {
            return Err(ctx.error(
                JsonPointer::root(),
                "",
                RenderRule::Unsupported,
                format_args!("{} has no Responses API; use the Chat shape", self.profile.slug()),
            ));
        }
        if tool.grammar.is_some() {
            if self.profile == Profile::OpenAi {
                let rendered = crate::custom::render_custom(self.api, tool, ctx)?;
                return Ok((rendered, SchemaStats::default()));
            }
            tooldef::render::grammar_as_function(&mut ctx, tool)?;
        }
        if strict && row.strict_fields.is_some() && !tool.params.iter().any(|p| p.required) {
            return Err(ctx.error(
                JsonPointer::from_segments(["function", "parameters", "required"]),
                "",
                RenderRule::Unsupported,
                "Cohere's strict_tools needs at least one required parameter per tool",
            ));
        }
        let opts = self.schema_options();
        let mut out = JsonWriter::for_tool(tool);
        out.begin_object();
        out.static_key(json_key!("type"));
        out.string("function");
        if self.api == Api::Chat {
            out.static_key(json_key!("function"));
            out.begin_object();
        }
        let base = &self.base;
        out.static_key(json_key!("name"));
        out.string(tool.name.as_str());
        let description =
            fold_input_examples(tool, &tool.description, &mut ctx, &base.child("description"))?;
        if !description.is_empty() || row.description_always {
            out.static_key(json_key!("description"));
            out.string(&description);
        }
        out.static_key(json_key!("parameters"));
        let pointer = &self.parameters;
        let stats = write_input_schema(&mut out, tool, &opts, &mut ctx, pointer)?;
        if strict {
            self.check_limits(&ctx, pointer, &stats)?;
        }
        match self.api {
            Api::Chat => {
                if strict && row.strict_flag {
                    out.static_key(json_key!("strict"));
                    out.bool(true);
                }
            }
            Api::Responses => {
                out.static_key(json_key!("strict"));
                out.bool(strict);
            }
        }
        self.omissions(tool, &mut ctx, &mut out, base)?;
        if self.api == Api::Chat {
            out.end_object();
        }
        out.end_object();
        Ok((ctx.finish(out), stats))
    }

    /// Tool-level information: the Responses API keeps the output schema; the rest has no field.
    fn omissions(
        &self,
        tool: &ToolDescriptor,
        ctx: &mut RenderCtx,
        out: &mut JsonWriter,
        base: &JsonPointer,
    ) -> Result<(), RenderError> {
        if let Some(title) = &tool.title {
            ctx.record(
                Change::lossless(ChangeKind::Omitted, "title")
                    .at(base)
                    .detail(format!("title `{title}` omitted: the function has no title field")),
            )?;
        }
        if !tool.annotations.is_empty() {
            ctx.record(
                Change::lossless(ChangeKind::Omitted, "annotations")
                    .at(base)
                    .detail("behaviour hints omitted: the function has no annotations field"),
            )?;
        }
        ctx.omit_extensions(tool, base, None)?;
        if tool.output.is_some() {
            if self.api == Api::Responses {
                out.static_key(json_key!("output_schema"));
                let opts = SchemaOptions::JSON_SCHEMA;
                write_output_schema(
                    out,
                    tool,
                    &opts,
                    ctx,
                    &JsonPointer::from_segments(["output_schema"]),
                )?;
            } else {
                ctx.record(
                    Change::lossless(ChangeKind::Omitted, "output_schema").at(base).detail(
                        "output schema omitted: Chat Completions functions have no output schema",
                    ),
                )?;
            }
        }
        Ok(())
    }

    fn check_limits(
        &self,
        ctx: &RenderCtx,
        pointer: &JsonPointer,
        stats: &SchemaStats,
    ) -> Result<(), RenderError> {
        if !self.profile.row().strict_limits {
            return Ok(());
        }
        let limit = |detail: String| Err(ctx.error(pointer, "", RenderRule::Limit, detail));
        if stats.properties > MAX_PROPERTIES {
            return limit(format!(
                "strict schemas allow at most {MAX_PROPERTIES} object properties; this one has {}",
                stats.properties
            ));
        }
        if stats.max_depth > MAX_DEPTH {
            return limit(format!(
                "strict schemas allow at most {MAX_DEPTH} levels of object nesting; this one has {}",
                stats.max_depth
            ));
        }
        if stats.enum_values > MAX_ENUM_VALUES {
            return limit(format!(
                "strict schemas allow at most {MAX_ENUM_VALUES} enum values in all; this one has {}",
                stats.enum_values
            ));
        }
        if stats.name_chars > MAX_NAME_CHARS {
            return limit(format!(
                "strict schemas allow at most {MAX_NAME_CHARS} characters of property names, definition names and enum values; this one has {}",
                stats.name_chars
            ));
        }
        if stats.largest_enum > LARGE_ENUM && stats.largest_enum_chars > LARGE_ENUM_CHARS {
            return limit(format!(
                "an enum of more than {LARGE_ENUM} values may have at most {LARGE_ENUM_CHARS} characters; one has {} values of {} characters",
                stats.largest_enum, stats.largest_enum_chars
            ));
        }
        Ok(())
    }
}

impl Renderer for OpenAiRenderer {
    fn name(&self) -> &str {
        &self.key
    }

    fn cache_key(&self) -> Cow<'_, str> {
        Cow::Borrowed(&self.key)
    }

    fn name_rules(&self) -> NameRules {
        rules::NAME_RULES
    }

    fn render(&self, tool: &ToolDescriptor, policy: LossPolicy) -> Result<Rendered, RenderError> {
        self.render_counted(tool, policy).map(|(r, _)| r)
    }

    fn check_set(&self, tools: &[&ToolDescriptor], policy: LossPolicy) -> Result<(), RenderError> {
        let Some(max_fields) = self.profile.row().strict_fields.filter(|_| self.strict_sent())
        else {
            return Ok(());
        };
        let mut fields = 0;
        for tool in tools {
            fields += count_fields(tool);
            if fields > max_fields {
                return Err(RenderError::new(
                    tool.name.as_str(),
                    JsonPointer::root(),
                    "",
                    RenderRule::SetLimit,
                    format_args!(
                        "Cohere's strict_tools allows at most {max_fields} fields over all tools of a request; {fields} reached at this tool"
                    ),
                ));
            }
        }
        let _ = policy;
        Ok(())
    }
}

/// Parameters and nested properties of a tool (Cohere counts every field).
fn count_fields(tool: &ToolDescriptor) -> usize {
    fn schema(s: &tooldef::Schema, depth: usize) -> usize {
        if depth > 64 {
            return 0;
        }
        match &s.kind {
            SchemaKind::Object(o) => {
                o.properties.iter().map(|p| 1 + schema(&p.schema, depth + 1)).sum()
            }
            SchemaKind::List(l) => schema(&l.items, depth + 1),
            SchemaKind::AnyOf(a) => a.variants.iter().map(|v| schema(v, depth + 1)).sum(),
            _ => 0,
        }
    }
    let params: usize = tool.params.iter().map(|p| 1 + schema(&p.schema, 0)).sum();
    let defs: usize = tool.definitions.iter().map(|d| schema(&d.schema, 0)).sum();
    params + defs
}
