//! The renderer: `FunctionDeclaration`s with `parametersJsonSchema` (JSON Schema subset) or with
//! the OpenAPI-subset `parameters` (Live API and older models), and the `tools` wrapper.

use std::collections::HashMap;

use indexmap::IndexMap;
use serde_json::Value;
use tooldef::JsonPointer;
use tooldef::json_key;
use tooldef::render::{
    Change, ChangeKind, JsonWriter, Keyword, Keywords, LossPolicy, ModelChoice, NameRules,
    NullStyle, Pass, RenderCtx, RenderError, RenderRule, Rendered, Renderer, SchemaOptions,
    Unsupported, fold_input_examples, write_input_schema, write_output_schema,
};
use tooldef::{Additional, ToolDescriptor};

use crate::node::Node;
use crate::rules::{self, FUNCTION_NAME, PROPERTY_NAME};

/// Which schema field a declaration carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Form {
    /// `parametersJsonSchema` / `responseJsonSchema`: the JSON Schema subset Gemini 2.5+ and
    /// Vertex accept (`$defs` and recursion kept).
    #[default]
    JsonSchema,
    /// `parameters` / `response`: the OpenAPI 3.0 subset (`Schema` message) the Live API and
    /// older models need: one upper-case `type` per schema (a union of different types as an
    /// `anyOf` of such schemas, with no `type` of its own), `nullable: true`, definitions inlined
    /// (recursion is an error), `propertyOrdering` on objects with more than one property, no
    /// `additionalProperties`, and zero-argument tools without `parameters`.
    OpenApi,
}

/// String formats the `Schema` message documents (`enum` and `date-time` for STRING).
const OPENAPI_FORMATS: &[&str] = &["date-time", "enum"];

/// Renders tools as Gemini `FunctionDeclaration`s.
///
/// Gemini has no per-tool strict flag (schema enforcement is the request's
/// `functionCallingConfig.mode: VALIDATED`), no field for a tool's title or annotations (both
/// reported as omitted), and requires `description`: an empty one is replaced by the tool's
/// title when it has one, else sent as `""`, and either way reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GeminiRenderer {
    form: Form,
    model: ModelChoice,
}

impl GeminiRenderer {
    /// `parametersJsonSchema` (the default).
    pub const fn new() -> Self {
        GeminiRenderer { form: Form::JsonSchema, model: ModelChoice::WireApi }
    }

    /// The OpenAPI-subset `parameters` form, for the Live API and models before 2.5.
    pub const fn openapi() -> Self {
        GeminiRenderer { form: Form::OpenApi, model: ModelChoice::WireApi }
    }

    /// The same renderer for the model `id`: its family's
    /// [`ModelProfile`](tooldef::render::ModelProfile) runs on top of the form's lowering
    /// (chosen by [`ModelChoice::for_id`]; an id no profile matches keeps the defaults and is
    /// reported on each tool).
    #[must_use]
    pub fn model(self, id: &str) -> Self {
        GeminiRenderer { model: ModelChoice::for_id(id), ..self }
    }

    /// The model the tools are rendered for.
    pub const fn model_choice(&self) -> ModelChoice {
        self.model
    }

    /// The form rendered.
    pub const fn form(&self) -> Form {
        self.form
    }

    /// The lowering used for the parameter and response schemas.
    pub const fn schema_options(&self) -> SchemaOptions {
        self.model.schema_options(self.form_options())
    }

    /// The form's own lowering, before the model's profile.
    const fn form_options(&self) -> SchemaOptions {
        match self.form {
            Form::JsonSchema => SchemaOptions {
                // The documented subset; the rest is written into descriptions.
                keywords: Keywords::NONE
                    .with(Keyword::Title)
                    .with(Keyword::Format)
                    .with(Keyword::Minimum)
                    .with(Keyword::Maximum)
                    .with(Keyword::MinItems)
                    .with(Keyword::MaxItems),
                unsupported: Unsupported::Describe,
                property_names: Some(PROPERTY_NAME),
                ..SchemaOptions::JSON_SCHEMA
            }
            .with(Pass::OneOfAsAnyOf)
            .with(Pass::KeptInText),
            Form::OpenApi => SchemaOptions {
                keywords: Keywords::NONE
                    .with(Keyword::Title)
                    .with(Keyword::Default)
                    .with(Keyword::Format)
                    .with(Keyword::Pattern)
                    .with(Keyword::MinLength)
                    .with(Keyword::MaxLength)
                    .with(Keyword::Minimum)
                    .with(Keyword::Maximum)
                    .with(Keyword::MinItems)
                    .with(Keyword::MaxItems),
                unsupported: Unsupported::Describe,
                formats: Some(OPENAPI_FORMATS),
                null_style: NullStyle::OpenApi,
                // Recursion is found while inlining.
                recursion: false,
                empty_properties: false,
                upper_case_types: true,
                // A schema of any value is refused with its reason (see `node.rs`); no
                // `needs_type` lowering.
                property_names: Some(PROPERTY_NAME),
                ..SchemaOptions::JSON_SCHEMA
            }
            .with(Pass::InlineRefs)
            // No `additionalProperties` at all.
            .with(Pass::MapValuesInText)
            // The OpenAPI `Schema.enum` is a list of strings.
            .with(Pass::StringEnums)
            .with(Pass::OneOfAsAnyOf)
            .with(Pass::KeptInText),
        }
    }

    fn schema_keys(&self) -> (&'static str, &'static str) {
        match self.form {
            Form::JsonSchema => ("parametersJsonSchema", "responseJsonSchema"),
            Form::OpenApi => ("parameters", "response"),
        }
    }

    /// Writes one schema (input when `output` is false) at `pointer` into `out`.
    fn schema(
        &self,
        out: &mut JsonWriter,
        tool: &ToolDescriptor,
        ctx: &mut RenderCtx,
        pointer: &JsonPointer,
        output: bool,
    ) -> Result<(), RenderError> {
        let opts = self.schema_options();
        let write = |w: &mut JsonWriter, ctx: &mut RenderCtx| {
            if output {
                write_output_schema(w, tool, &opts, ctx, pointer).map(drop)
            } else {
                write_input_schema(w, tool, &opts, ctx, pointer).map(drop)
            }
        };
        if self.form == Form::JsonSchema {
            return write(out, ctx);
        }
        // The OpenAPI form is completed on a parsed copy: unions folded into one `type`,
        // `propertyOrdering` added.
        let mut buf = JsonWriter::new();
        write(&mut buf, ctx)?;
        let mut value: Node = serde_json::from_str(buf.as_str()).map_err(|e| {
            ctx.error(pointer, "", RenderRule::Unsupported, format_args!("internal JSON: {e}"))
        })?;
        let mut at = pointer.clone();
        openapi_fixup(&mut value, &mut at, ctx)?;
        value.write(out);
        Ok(())
    }

    /// Writes the output schema as `key`, or, when it cannot be written for Gemini, leaves it out
    /// with a lossy report entry at the place that failed: the output schema never blocks the
    /// input side.
    fn response(
        &self,
        out: &mut JsonWriter,
        tool: &ToolDescriptor,
        ctx: &mut RenderCtx,
        key: &str,
    ) -> Result<(), RenderError> {
        // Written aside, with its own report, so that a failure half-way leaves nothing behind.
        let mut aside = RenderCtx::new(tool, ctx.policy());
        let mut buf = JsonWriter::new();
        match self.schema(&mut buf, tool, &mut aside, &JsonPointer::from_segments([key]), true) {
            Ok(()) => {
                for c in aside.report().iter() {
                    ctx.record(c.clone())?;
                }
                out.key(key);
                out.raw(buf.as_str());
                Ok(())
            }
            // The `Refuse` policy refuses a lossy change inside it as it stands.
            Err(e) if e.rule == RenderRule::Lossy => Err(e),
            Err(e) => ctx.record(
                Change::lossy(ChangeKind::Dropped, key.to_owned())
                    .at(e.pointer.clone())
                    .param(e.param.clone())
                    .detail(format!("the output schema is not sent: {}", error_detail(&e))),
            ),
        }
    }
}

/// The detail of an error's message, without the tool, parameter and pointer it starts with.
fn error_detail(e: &RenderError) -> &str {
    let mut prefix = format!("tool `{}`", e.tool);
    if !e.param.is_empty() {
        prefix.push_str(&format!(", parameter `{}`", e.param));
    }
    if !e.pointer.is_empty() {
        prefix.push_str(&format!(" at {}", e.pointer));
    }
    prefix.push_str(": ");
    e.message.strip_prefix(&prefix).unwrap_or(&e.message)
}

impl Renderer for GeminiRenderer {
    fn tools_field(&self, rendered: &[Rendered]) -> String {
        tools_json(rendered)
    }

    fn name(&self) -> &str {
        match self.form {
            Form::JsonSchema => "gemini",
            Form::OpenApi => "gemini-openapi",
        }
    }

    fn name_rules(&self) -> NameRules {
        rules::NAME_RULES
    }

    fn render(&self, tool: &ToolDescriptor, policy: LossPolicy) -> Result<Rendered, RenderError> {
        let mut ctx = RenderCtx::new(tool, policy);
        tooldef::render::grammar_as_function(&mut ctx, tool)?;
        ctx.check_name(&FUNCTION_NAME)?;
        let (params_key, response_key) = self.schema_keys();
        let prepared =
            self.model.prepare(tool, &mut ctx, &JsonPointer::from_segments([params_key]), false)?;
        let tool = &*prepared;
        let mut out = JsonWriter::for_tool(tool);
        out.begin_object();
        out.static_key(json_key!("name"));
        out.string(tool.name.as_str());
        out.static_key(json_key!("description"));
        let mut title_used = false;
        if !tool.description.trim().is_empty() {
            let at = JsonPointer::from_segments(["description"]);
            out.string(&fold_input_examples(tool, &tool.description, &mut ctx, &at)?);
        } else if let Some(title) = tool.title.as_deref().filter(|t| !t.trim().is_empty()) {
            ctx.record(Change::lossless(ChangeKind::Rewritten, "description").at(JsonPointer::from_segments(["description"])).detail("the tool has no description, which FunctionDeclaration requires; its title is sent instead"))?;
            out.string(title);
            title_used = true;
        } else {
            ctx.record(Change::lossless(ChangeKind::Rewritten, "description").at(JsonPointer::from_segments(["description"])).detail("the tool has no description, which FunctionDeclaration requires; an empty string is sent"))?;
            out.string("");
        }
        if tool.params.is_empty() {
            // An object that does not state `additionalProperties` is read as closed here, as
            // every strict mode reads it.
            if matches!(tool.additional, Additional::Open | Additional::Typed(_)) {
                ctx.record(Change::lossy(ChangeKind::Dropped, "additionalProperties").at(JsonPointer::from_segments([params_key])).detail("the tool takes no named parameters but accepts other keys; Gemini needs declared properties, so no schema is sent"))?;
            }
        } else {
            out.key(params_key);
            self.schema(
                &mut out,
                tool,
                &mut ctx,
                &JsonPointer::from_segments([params_key]),
                false,
            )?;
        }
        if tool.output.is_some() {
            self.response(&mut out, tool, &mut ctx, response_key)?;
        }
        out.end_object();
        if !title_used && tool.title.is_some() {
            ctx.record(
                Change::lossless(ChangeKind::Omitted, "title")
                    .detail("FunctionDeclaration has no title field"),
            )?;
        }
        if !tool.annotations.is_empty() {
            ctx.record(
                Change::lossless(ChangeKind::Omitted, "annotations")
                    .detail("FunctionDeclaration has no annotations field"),
            )?;
        }
        ctx.omit_extensions(tool, &JsonPointer::root(), None)?;
        Ok(ctx.finish(out))
    }
}

/// The value of a request's `tools` field for a set of declarations:
/// `[{"functionDeclarations":[…]}]`, or `[]` when there are none.
pub fn tools_json<'a>(declarations: impl IntoIterator<Item = &'a Rendered>) -> String {
    let mut out = String::from("[{\"functionDeclarations\":[");
    let mut any = false;
    for (i, d) in declarations.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(d.json());
        any = true;
    }
    if !any {
        return "[]".to_owned();
    }
    out.push_str("]}]");
    out
}

fn push_segment(at: &mut JsonPointer, seg: &str) -> usize {
    let len = at.len();
    at.push(seg);
    len
}

/// Every schema directly under `node` with its pointer segment(s).
fn for_each_child(
    node: &mut IndexMap<String, Node>,
    at: &mut JsonPointer,
    f: &mut dyn FnMut(&mut Node, &mut JsonPointer) -> Result<(), RenderError>,
) -> Result<(), RenderError> {
    for key in ["properties", "$defs", "definitions"] {
        if let Some(Node::Object(props)) = node.get_mut(key) {
            let p = push_segment(at, key);
            for (name, child) in props.iter_mut() {
                let q = push_segment(at, name);
                f(child, at)?;
                at.truncate(q);
            }
            at.truncate(p);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child @ Node::Object(_)) = node.get_mut(key) {
            let p = push_segment(at, key);
            f(child, at)?;
            at.truncate(p);
        }
    }
    if let Some(Node::Array(variants)) = node.get_mut("anyOf") {
        let p = push_segment(at, "anyOf");
        for (i, child) in variants.iter_mut().enumerate() {
            let q = at.len();
            at.push_index(i);
            f(child, at)?;
            at.truncate(q);
        }
        at.truncate(p);
    }
    Ok(())
}

/// Whether a union variant is the null type (written as `nullable: true` instead).
fn is_null_variant(v: &Node) -> bool {
    v.get("type").and_then(Node::as_str) == Some("NULL")
}

/// Completes the OpenAPI form: `propertyOrdering`, unions written as `anyOf` of single-type
/// schemas with their null variant as `nullable: true`.
fn openapi_fixup(
    v: &mut Node,
    at: &mut JsonPointer,
    ctx: &mut RenderCtx,
) -> Result<(), RenderError> {
    let Node::Object(map) = v else { return Ok(()) };
    while let Some(Node::Array(_)) = map.get("anyOf") {
        let Some(Node::Array(variants)) = map.shift_remove("anyOf") else { return Ok(()) };
        let nulls = variants.iter().filter(|v| is_null_variant(v)).count();
        let had_null = nulls > 0;
        let listed = variants.len();
        let mut kept: Vec<Node> = Vec::new();
        // The positions in `kept` of each hash, so that finding a repeat stays linear.
        let mut by_hash: HashMap<u64, Vec<usize>> = HashMap::new();
        for v in variants {
            // Null variants become `nullable`; identical variants are one.
            if is_null_variant(&v) {
                continue;
            }
            let same = by_hash.entry(v.eq_hash()).or_default();
            if !same.iter().any(|&i| kept[i] == v) {
                same.push(kept.len());
                kept.push(v);
            }
        }
        let types: Vec<Option<&str>> =
            kept.iter().map(|v| v.get("type").and_then(Node::as_str)).collect();
        let first = types.first().copied().flatten();
        // A union of one scalar type keeps that `type` beside its variants.
        let scalar = first.filter(|t| !matches!(*t, "ARRAY" | "OBJECT"));
        let one_type = scalar.filter(|t| types.iter().all(|u| *u == Some(*t))).map(str::to_owned);
        let repeated = listed - nulls > kept.len();
        match kept.len() {
            0 => {
                return Err(ctx.error(
                    &*at,
                    "",
                    RenderRule::Unsupported,
                    "a union of only null variants has no type for Gemini's OpenAPI `parameters`; use parametersJsonSchema",
                ));
            }
            1 => {
                // One variant left: its keywords replace the union.
                let Some(Node::Object(only)) = kept.into_iter().next() else { return Ok(()) };
                let type_name = only.get("type").and_then(Node::as_str).unwrap_or("").to_owned();
                if had_null {
                    map.insert("nullable".to_owned(), Node::Scalar(Value::Bool(true)));
                }
                let mut merged = only;
                for (k, val) in std::mem::take(map) {
                    match k.as_str() {
                        "description" if merged.contains_key("description") => {
                            let inner =
                                merged.get("description").and_then(Node::as_str).unwrap_or("");
                            let outer = val.as_str().unwrap_or("");
                            let text = format!("{outer} {inner}");
                            merged.insert(k, Node::string(text.trim()));
                        }
                        _ => {
                            merged.insert(k, val);
                        }
                    }
                }
                *map = merged;
                ctx.record(Change::lossless(ChangeKind::Rewritten, "anyOf").at(&*at).detail(
                    format!(
                        "union written with the single type {type_name}{}",
                        if had_null { " and nullable: true" } else { "" }
                    ),
                ))?;
            }
            _ => {
                if let Some(type_name) = &one_type {
                    map.shift_insert(0, "type".to_owned(), Node::string(type_name));
                }
                map.insert("anyOf".to_owned(), Node::Array(kept));
                if had_null {
                    map.insert("nullable".to_owned(), Node::Scalar(Value::Bool(true)));
                }
                let nullable = if had_null { " and nullable: true" } else { "" };
                let detail = match &one_type {
                    Some(t) => format!("union written with the single type {t}{nullable}"),
                    None if had_null => {
                        "the union's null variant written as nullable: true".to_owned()
                    }
                    None if repeated => "identical variants of the union written once".to_owned(),
                    // Written as it came: an `anyOf` of single-type schemas.
                    None => break,
                };
                ctx.record(
                    Change::lossless(ChangeKind::Rewritten, "anyOf").at(&*at).detail(detail),
                )?;
                break;
            }
        }
    }
    if !map.contains_key("type") && !map.contains_key("anyOf") {
        return Err(ctx.error(
            &*at,
            "",
            RenderRule::Unsupported,
            "a schema that accepts any value has no `type`, which Gemini's OpenAPI `parameters` requires (Gemini 3 refuses TYPE_UNSPECIFIED, and an `anyOf` of every type would need an ARRAY with `items` of any value); use parametersJsonSchema",
        ));
    }
    if let Some(Node::Object(props)) = map.get("properties")
        && props.len() > 1
    {
        let order: Vec<Node> = props.keys().map(|k| Node::string(k)).collect();
        map.insert("propertyOrdering".to_owned(), Node::Array(order));
    }
    for_each_child(map, at, &mut |c, at| openapi_fixup(c, at, ctx))
}
