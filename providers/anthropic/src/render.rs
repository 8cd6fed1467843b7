//! The renderer: `{"name", "description", "input_schema", "strict"}`, strict tool use lowering
//! and its per-request limits.

use std::borrow::Cow;

use tooldef::JsonPointer;
use tooldef::ToolDescriptor;
use tooldef::json_key;
use tooldef::render::{
    Change, ChangeKind, JsonWriter, Keyword, Keywords, LossPolicy, NameRules, NullStyle, Pass,
    RenderCtx, RenderError, RenderRule, Rendered, Renderer, SchemaOptions, SchemaStats,
    write_input_schema,
};

use crate::rules;

/// Formats strict tool use accepts.
const STRICT_FORMATS: &[&str] =
    &["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"];

/// Per-request limits of strict tool use (sources in `docs/budgets.md`).
pub(crate) const MAX_STRICT_TOOLS: usize = 20;
pub(crate) const MAX_OPTIONAL: usize = 24;
pub(crate) const MAX_UNIONS: usize = 16;

/// Renders tools for the Anthropic Messages API.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnthropicRenderer {
    strict: bool,
}

impl AnthropicRenderer {
    /// Plain tools (no `strict`).
    pub fn new() -> Self {
        AnthropicRenderer { strict: false }
    }

    /// Strict tool use on or off (`"strict": true` on each tool).
    #[must_use]
    pub fn strict(self, strict: bool) -> Self {
        AnthropicRenderer { strict }
    }

    /// Whether strict tool use is on.
    pub fn is_strict(&self) -> bool {
        self.strict
    }

    /// The JSON Schema dialect used for `input_schema`.
    pub fn schema_options(&self) -> SchemaOptions {
        if !self.strict {
            // Anthropic's SDK trips over type arrays: "or null" is always an anyOf.
            return SchemaOptions {
                null_style: NullStyle::AnyOf,
                empty_properties: true,
                ..SchemaOptions::JSON_SCHEMA
            };
        }
        let keywords = Keywords::ALL
            .without(Keyword::Default)
            .without(Keyword::Examples)
            .without(Keyword::Minimum)
            .without(Keyword::Maximum)
            .without(Keyword::ExclusiveMinimum)
            .without(Keyword::ExclusiveMaximum)
            .without(Keyword::MultipleOf)
            .without(Keyword::MinLength)
            .without(Keyword::MaxLength)
            .without(Keyword::MaxItems)
            .without(Keyword::UniqueItems);
        SchemaOptions {
            keywords,
            formats: Some(STRICT_FORMATS),
            pattern_lookaround: false,
            null_style: NullStyle::AnyOf,
            recursion: false,
            needs_type: true,
            ..SchemaOptions::JSON_SCHEMA
        }
        .with(Pass::CloseObjects)
        .with(Pass::OneOfAsAnyOf)
        .with(Pass::KeptInText)
        .with(Pass::WrapRefSiblings)
        .with(Pass::ClampMinItems)
    }

    fn render_counted(
        &self,
        tool: &ToolDescriptor,
        policy: LossPolicy,
    ) -> Result<(Rendered, SchemaStats), RenderError> {
        let mut ctx = RenderCtx::new(tool, policy);
        tooldef::render::grammar_as_function(&mut ctx, tool)?;
        ctx.check_name(&rules::TOOL_NAME)?;
        let mut out = JsonWriter::for_tool(tool);
        out.begin_object();
        out.static_key(json_key!("name"));
        out.string(tool.name.as_str());
        if !tool.description.is_empty() {
            out.static_key(json_key!("description"));
            out.string(&tool.description);
        }
        out.static_key(json_key!("input_schema"));
        let stats = write_input_schema(
            &mut out,
            tool,
            &self.schema_options(),
            &mut ctx,
            &JsonPointer::from_segments(["input_schema"]),
        )?;
        if self.strict {
            out.static_key(json_key!("strict"));
            out.bool(true);
        }
        // The tool's own field for whole example inputs.
        if !tool.input_examples.is_empty() {
            out.static_key(json_key!("input_examples"));
            out.begin_array();
            tool.input_examples.iter().for_each(|e| out.literal(e));
            out.end_array();
        }
        out.end_object();
        if let Some(title) = &tool.title {
            ctx.record(
                Change::lossless(ChangeKind::Omitted, "title").detail(format!(
                    "title `{title}` omitted: Anthropic tools have no title field"
                )),
            )?;
        }
        if !tool.annotations.is_empty() {
            ctx.record(
                Change::lossless(ChangeKind::Omitted, "annotations")
                    .detail("behaviour hints omitted: Anthropic tools have no annotations field"),
            )?;
        }
        if tool.output.is_some() {
            ctx.record(
                Change::lossless(ChangeKind::Omitted, "output_schema")
                    .detail("output schema omitted: Anthropic tools have no output schema"),
            )?;
        }
        ctx.omit_extensions(tool, &JsonPointer::root(), None)?;
        Ok((ctx.finish(out), stats))
    }

    fn set_limits(&self, tools: &[&ToolDescriptor], policy: LossPolicy) -> Result<(), RenderError> {
        if !self.strict {
            return Ok(());
        }
        if tools.len() > MAX_STRICT_TOOLS {
            let at = tools[MAX_STRICT_TOOLS].name.as_str();
            return Err(RenderError::new(
                at,
                JsonPointer::root(),
                "",
                RenderRule::SetLimit,
                format_args!(
                    "a request may carry at most {MAX_STRICT_TOOLS} strict tools; this set has {}",
                    tools.len()
                ),
            ));
        }
        let mut total = SchemaStats::default();
        for tool in tools {
            let (_, stats) = self.render_counted(tool, policy)?;
            total.add(&stats);
            let over = |what: &str, limit: usize, n: usize| {
                RenderError::new(
                    tool.name.as_str(),
                    JsonPointer::from_segments(["input_schema"]),
                    "",
                    RenderRule::SetLimit,
                    format_args!(
                        "strict schemas of one request may have at most {limit} {what} in all; {n} reached at this tool"
                    ),
                )
            };
            if total.optional_properties > MAX_OPTIONAL {
                return Err(over("optional parameters", MAX_OPTIONAL, total.optional_properties));
            }
            if total.unions > MAX_UNIONS {
                return Err(over("union-typed parameters", MAX_UNIONS, total.unions));
            }
        }
        Ok(())
    }
}

impl Renderer for AnthropicRenderer {
    fn name(&self) -> &str {
        if self.strict { "anthropic-strict" } else { "anthropic" }
    }

    fn cache_key(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.name())
    }

    fn name_rules(&self) -> NameRules {
        rules::NAME_RULES
    }

    fn render(&self, tool: &ToolDescriptor, policy: LossPolicy) -> Result<Rendered, RenderError> {
        self.render_counted(tool, policy).map(|(r, _)| r)
    }

    fn check_set(&self, tools: &[&ToolDescriptor], policy: LossPolicy) -> Result<(), RenderError> {
        self.set_limits(tools, policy)
    }

    fn render_set(
        &self,
        tools: &[&ToolDescriptor],
        policy: LossPolicy,
    ) -> Result<Vec<Rendered>, RenderError> {
        if !self.strict {
            return tools.iter().map(|t| self.render(t, policy)).collect();
        }
        // Render once, counting as we go, instead of check_set + render.
        if tools.len() > MAX_STRICT_TOOLS {
            return self.set_limits(tools, policy).map(|()| Vec::new());
        }
        let mut total = SchemaStats::default();
        let mut out = Vec::with_capacity(tools.len());
        for tool in tools {
            let (rendered, stats) = self.render_counted(tool, policy)?;
            total.add(&stats);
            if total.optional_properties > MAX_OPTIONAL || total.unions > MAX_UNIONS {
                // Let the checker build the message.
                self.set_limits(tools, policy)?;
            }
            out.push(rendered);
        }
        Ok(out)
    }
}
