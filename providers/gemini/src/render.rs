//! The renderer: `FunctionDeclaration`s with `parametersJsonSchema` (JSON Schema subset) or with
//! the OpenAPI-subset `parameters` (Live API and older models), and the `tools` wrapper.

use indexmap::IndexMap;
use serde_json::Value;
use tooldef::JsonPointer;
use tooldef::render::{
    Change, ChangeKind, JsonWriter, Keyword, Keywords, NameRules, NullStyle, Policy, RefStyle,
    RenderCtx, RenderError, RenderRule, Rendered, Renderer, SchemaOptions, Unsupported,
    write_input_schema, write_output_schema,
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
    /// older models need: one upper-case `type` per schema, `nullable: true`, definitions inlined
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
}

impl GeminiRenderer {
    /// `parametersJsonSchema` (the default).
    pub const fn new() -> Self {
        GeminiRenderer { form: Form::JsonSchema }
    }

    /// The OpenAPI-subset `parameters` form, for the Live API and models before 2.5.
    pub const fn openapi() -> Self {
        GeminiRenderer { form: Form::OpenApi }
    }

    /// The form rendered.
    pub const fn form(&self) -> Form {
        self.form
    }

    /// The lowering used for the parameter and response schemas.
    pub const fn schema_options(&self) -> SchemaOptions {
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
                verbatim: false,
                ..SchemaOptions::JSON_SCHEMA
            },
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
                pattern_lookaround: true,
                null_style: NullStyle::OpenApi,
                refs: RefStyle::Inline,
                recursion: false,
                ref_siblings: true,
                all_required: false,
                close_objects: false,
                additional_properties: false,
                empty_properties: false,
                empty_required: false,
                max_min_items: None,
                upper_case_types: true,
                verbatim: false,
                property_names: Some(PROPERTY_NAME),
            },
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

    fn render(&self, tool: &ToolDescriptor, policy: Policy) -> Result<Rendered, RenderError> {
        let mut ctx = RenderCtx::new(tool, policy);
        ctx.check_name(&FUNCTION_NAME)?;
        let (params_key, response_key) = self.schema_keys();
        let mut out = JsonWriter::new();
        out.begin_object();
        out.key("name");
        out.string(tool.name.as_str());
        out.key("description");
        let mut title_used = false;
        if !tool.description.trim().is_empty() {
            out.string(&tool.description);
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
            out.key(response_key);
            self.schema(
                &mut out,
                tool,
                &mut ctx,
                &JsonPointer::from_segments([response_key]),
                true,
            )?;
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

/// The upper-case type names of a schema's `anyOf` variants, null variants aside.
fn variant_types(variants: &[Node]) -> Vec<Option<&str>> {
    variants
        .iter()
        .filter(|v| v.get("type").and_then(Node::as_str) != Some("NULL"))
        .map(|v| v.get("type").and_then(Node::as_str))
        .collect()
}

/// Completes the OpenAPI form: `propertyOrdering`, unions made expressible with one `type`.
fn openapi_fixup(
    v: &mut Node,
    at: &mut JsonPointer,
    ctx: &mut RenderCtx,
) -> Result<(), RenderError> {
    let Node::Object(map) = v else { return Ok(()) };
    if let Some(Node::Array(variants)) = map.get("anyOf") {
        let had_null =
            variants.iter().any(|v| v.get("type").and_then(Node::as_str) == Some("NULL"));
        let types = variant_types(variants);
        let first = types.first().copied().flatten();
        let uniform = first.is_some() && types.iter().all(|t| *t == first);
        if !uniform {
            let listed: Vec<&str> = types.iter().map(|t| t.unwrap_or("untyped")).collect();
            return Err(ctx.error(
                &*at,
                "",
                RenderRule::Unsupported,
                format_args!(
                    "a union of {} cannot be written in Gemini's OpenAPI `parameters`, where every schema has exactly one `type`; use parametersJsonSchema",
                    listed.join(", ")
                ),
            ));
        }
        let type_name = first.unwrap_or("STRING").to_owned();
        let Some(Node::Array(variants)) = map.shift_remove("anyOf") else { return Ok(()) };
        let mut kept: Vec<Node> = Vec::new();
        for v in variants {
            // Null variants become `nullable`; identical variants are one.
            if v.get("type").and_then(Node::as_str) != Some("NULL") && !kept.contains(&v) {
                kept.push(v);
            }
        }
        if kept.len() > 1 && matches!(type_name.as_str(), "ARRAY" | "OBJECT") {
            return Err(ctx.error(
                &*at,
                "",
                RenderRule::Unsupported,
                format_args!(
                    "a union of different {type_name} schemas cannot be written in Gemini's OpenAPI `parameters`, where an {type_name} needs its own items or properties; use parametersJsonSchema"
                ),
            ));
        }
        if kept.len() == 1 {
            // One typed variant left: its keywords replace the union.
            let Some(Node::Object(only)) = kept.into_iter().next() else { return Ok(()) };
            let mut merged = only;
            for (k, val) in std::mem::take(map) {
                match k.as_str() {
                    "description" if merged.contains_key("description") => {
                        let inner = merged.get("description").and_then(Node::as_str).unwrap_or("");
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
        } else {
            map.shift_insert(0, "type".to_owned(), Node::string(&type_name));
            map.insert("anyOf".to_owned(), Node::Array(kept));
        }
        if had_null {
            map.insert("nullable".to_owned(), Node::Scalar(Value::Bool(true)));
        }
        ctx.record(Change::lossless(ChangeKind::Rewritten, "anyOf").at(&*at).detail(format!(
            "union written with the single type {type_name}{}",
            if had_null { " and nullable: true" } else { "" }
        )))?;
    }
    if !map.contains_key("type") {
        return Err(ctx.error(
            &*at,
            "",
            RenderRule::Unsupported,
            "a schema that accepts any value has no single `type`, which Gemini's OpenAPI `parameters` requires; use parametersJsonSchema",
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
