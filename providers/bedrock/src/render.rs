//! The renderer: Converse `toolSpec`s, plain and strict, and the `toolConfig` of a set.

use tooldef::JsonPointer;
use tooldef::ToolDescriptor;
use tooldef::json_key;
use tooldef::render::{
    Change, ChangeKind, JsonWriter, Keyword, Keywords, LossPolicy, NameRules, NullStyle, Pass,
    RenderCtx, RenderError, RenderRule, Rendered, Renderer, SchemaOptions, fold_input_examples,
    write_input_schema,
};

use crate::rules;

/// Formats strict tool use accepts (Claude's structured-outputs list).
const STRICT_FORMATS: &[&str] =
    &["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"];

/// Renders tools as Bedrock Converse `Tool`s: `{"toolSpec":{name, description?, inputSchema:
/// {json}, strict?}}`.
///
/// Names follow `^[a-zA-Z0-9_-]{1,64}$`; an empty description is left out (the field needs at
/// least one character); the title, annotations and output schema have no field and are reported
/// as omitted. In strict mode (`"strict": true`, Claude models) the bounds Bedrock rejects
/// (`minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `maxItems`,
/// lookaround patterns, formats outside the supported list) are written into descriptions,
/// `minItems` above 1 is clamped to 1 and noted, every object is closed (opening is lossy) and
/// recursive definitions are an error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BedrockRenderer {
    strict: bool,
}

impl BedrockRenderer {
    /// Plain tool use.
    pub const fn new() -> Self {
        BedrockRenderer { strict: false }
    }

    /// Strict tool use (`"strict": true`).
    pub const fn strict() -> Self {
        BedrockRenderer { strict: true }
    }

    /// Whether strict mode is on.
    pub const fn is_strict(&self) -> bool {
        self.strict
    }

    /// The lowering used for `inputSchema.json`.
    pub const fn schema_options(&self) -> SchemaOptions {
        if !self.strict {
            return SchemaOptions::JSON_SCHEMA;
        }
        SchemaOptions {
            keywords: Keywords::ALL
                .without(Keyword::Minimum)
                .without(Keyword::Maximum)
                .without(Keyword::ExclusiveMinimum)
                .without(Keyword::ExclusiveMaximum)
                .without(Keyword::MultipleOf)
                .without(Keyword::MaxItems),
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
}

impl Renderer for BedrockRenderer {
    fn name(&self) -> &str {
        if self.strict { "bedrock-strict" } else { "bedrock" }
    }

    fn name_rules(&self) -> NameRules {
        rules::NAME_RULES
    }

    fn render(&self, tool: &ToolDescriptor, policy: LossPolicy) -> Result<Rendered, RenderError> {
        let mut ctx = RenderCtx::new(tool, policy);
        tooldef::render::grammar_as_function(&mut ctx, tool)?;
        ctx.check_name(&rules::TOOL_NAME)?;
        let mut out = JsonWriter::for_tool(tool);
        out.begin_object();
        out.static_key(json_key!("toolSpec"));
        out.begin_object();
        out.static_key(json_key!("name"));
        out.string(tool.name.as_str());
        let description = fold_input_examples(
            tool,
            &tool.description,
            &mut ctx,
            &JsonPointer::from_segments(["toolSpec", "description"]),
        )?;
        if !description.is_empty() {
            out.static_key(json_key!("description"));
            out.string(&description);
        }
        out.static_key(json_key!("inputSchema"));
        out.begin_object();
        out.static_key(json_key!("json"));
        write_input_schema(
            &mut out,
            tool,
            &self.schema_options(),
            &mut ctx,
            &JsonPointer::from_segments(["toolSpec", "inputSchema", "json"]),
        )?;
        out.end_object();
        if self.strict {
            out.static_key(json_key!("strict"));
            out.bool(true);
        }
        out.end_object();
        out.end_object();
        let omitted = [
            ("title", tool.title.is_some(), "ToolSpecification has no title field"),
            (
                "annotations",
                !tool.annotations.is_empty(),
                "ToolSpecification has no annotations field",
            ),
            ("outputSchema", tool.output.is_some(), "ToolSpecification has no output schema field"),
        ];
        for (keyword, present, detail) in omitted {
            if present {
                ctx.record(
                    Change::lossless(ChangeKind::Omitted, keyword)
                        .at(JsonPointer::from_segments(["toolSpec"]))
                        .detail(detail),
                )?;
            }
        }
        ctx.omit_extensions(tool, &JsonPointer::from_segments(["toolSpec"]), None)?;
        Ok(ctx.finish(out))
    }

    fn check_set(&self, tools: &[&ToolDescriptor], _policy: LossPolicy) -> Result<(), RenderError> {
        if tools.is_empty() {
            return Err(empty_set());
        }
        Ok(())
    }
}

fn empty_set() -> RenderError {
    RenderError::new(
        "",
        JsonPointer::from_segments(["tools"]),
        "",
        RenderRule::SetLimit,
        "Bedrock's toolConfig needs at least one tool",
    )
}

/// The request's `toolConfig` for a set of rendered tools: `{"tools":[…]}`.
///
/// # Errors
///
/// [`RenderRule::SetLimit`] when there is no tool (Converse requires at least one).
pub fn tool_config<'a>(
    tools: impl IntoIterator<Item = &'a Rendered>,
) -> Result<String, RenderError> {
    let mut out = String::from("{\"tools\":[");
    let mut n = 0;
    for t in tools {
        if n > 0 {
            out.push(',');
        }
        out.push_str(t.json());
        n += 1;
    }
    if n == 0 {
        return Err(empty_set());
    }
    out.push_str("]}");
    Ok(out)
}
