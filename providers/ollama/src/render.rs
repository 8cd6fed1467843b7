//! The renderer: `/api/chat` tool definitions limited to the JSON Schema keys Ollama's server
//! keeps, and a checker of those keys.

use serde_json::Value;
use tooldef::JsonPointer;
use tooldef::ToolDescriptor;
use tooldef::json_key;
use tooldef::render::{
    Change, ChangeKind, JsonWriter, Keywords, LossPolicy, ModelChoice, Pass, RefStyle, RenderCtx,
    RenderError, Rendered, Renderer, SchemaOptions, fold_input_examples, input_description,
    write_input_schema,
};

/// Renders tools for Ollama's native `/api/chat`:
/// `{"type":"function","function":{name, description?, parameters}}`.
///
/// Ollama's server decodes a fixed subset of JSON Schema and drops every other key, so the
/// parameters use only those keys: at the root `type`, `$defs`, `items`, `required`,
/// `properties`; in a property `anyOf`, `type` (a string or an array, which is how null is
/// admitted), `items`, `description`, `enum`, `properties`, `required`. Defaults, titles,
/// examples, bounds, lengths, formats, patterns, item counts and uniqueness are written into the
/// description (reported), and what the root object would carry in its own description (root
/// keywords import kept verbatim) into the tool's; references are inlined because a
/// property's `$ref` is dropped, except a recursive one inside `items`, written as a `$ref` into
/// a root `$defs` (both kept as any JSON; recursion elsewhere is an error); the value schema of a map is dropped (lossy). The tool's title,
/// annotations and output schema have no field and are reported as omitted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OllamaRenderer {
    model: ModelChoice,
}

impl OllamaRenderer {
    /// The renderer.
    pub const fn new() -> Self {
        OllamaRenderer { model: ModelChoice::WireApi }
    }

    /// The same renderer for the model `id` (Ollama's model name, such as `qwen3:8b` or
    /// `llama3.1:70b`): its family's [`ModelProfile`](tooldef::render::ModelProfile) runs on
    /// top of Ollama's lowering (chosen by [`ModelChoice::for_id`]; an id no profile matches
    /// keeps the defaults and is reported on each tool).
    #[must_use]
    pub fn model(self, id: &str) -> Self {
        OllamaRenderer { model: ModelChoice::for_id(id) }
    }

    /// The model the tools are rendered for.
    pub const fn model_choice(&self) -> ModelChoice {
        self.model
    }

    /// The lowering used for `parameters`.
    pub const fn schema_options(&self) -> SchemaOptions {
        self.model.schema_options(
            SchemaOptions {
                keywords: Keywords::NONE,
                // A property's `$ref` is dropped; `items` and a root `$defs` are kept as any JSON.
                refs: RefStyle::DefsInItems,
                recursion: true,
                // Nor does it keep a description on the parameters object.
                root_description: false,
                ..SchemaOptions::JSON_SCHEMA
            }
            // No `additionalProperties` at all.
            .with(Pass::MapValuesInText)
            // The server keeps a fixed set of keywords and drops the rest.
            .with(Pass::OneOfAsAnyOf)
            .with(Pass::KeptInText),
        )
    }
}

impl Renderer for OllamaRenderer {
    fn name(&self) -> &str {
        "ollama"
    }

    fn render(&self, tool: &ToolDescriptor, policy: LossPolicy) -> Result<Rendered, RenderError> {
        let mut ctx = RenderCtx::new(tool, policy);
        tooldef::render::grammar_as_function(&mut ctx, tool)?;
        let prepared = self.model.prepare(
            tool,
            &mut ctx,
            &JsonPointer::from_segments(["function", "parameters"]),
            false,
        )?;
        let tool = &*prepared;
        let mut out = JsonWriter::for_tool(tool);
        out.begin_object();
        out.static_key(json_key!("type"));
        out.string("function");
        out.static_key(json_key!("function"));
        out.begin_object();
        out.static_key(json_key!("name"));
        out.string(tool.name.as_str());
        let opts = self.schema_options();
        // The server keeps no description on `parameters`: what the root lowers into text
        // goes into the tool's.
        let at = JsonPointer::from_segments(["function", "description"]);
        let description = input_description(tool, &opts, &mut ctx, &at)?;
        let description = fold_input_examples(tool, &description, &mut ctx, &at)?.into_owned();
        if !description.is_empty() {
            out.static_key(json_key!("description"));
            out.string(&description);
        }
        out.static_key(json_key!("parameters"));
        write_input_schema(
            &mut out,
            tool,
            &opts,
            &mut ctx,
            &JsonPointer::from_segments(["function", "parameters"]),
        )?;
        out.end_object();
        out.end_object();
        let omitted = [
            ("title", tool.title.is_some(), "Ollama's tool function has no title field"),
            (
                "annotations",
                !tool.annotations.is_empty(),
                "Ollama's tool function has no annotations field",
            ),
            (
                "outputSchema",
                tool.output.is_some(),
                "Ollama's tool function has no output schema field",
            ),
        ];
        for (keyword, present, detail) in omitted {
            if present {
                ctx.record(
                    Change::lossless(ChangeKind::Omitted, keyword)
                        .at(JsonPointer::from_segments(["function"]))
                        .detail(detail),
                )?;
            }
        }
        ctx.omit_extensions(tool, &JsonPointer::from_segments(["function"]), None)?;
        Ok(ctx.finish(out))
    }
}

const ROOT_KEYS: &[&str] = &["type", "$defs", "items", "required", "properties"];
const PROPERTY_KEYS: &[&str] =
    &["anyOf", "type", "items", "description", "enum", "properties", "required"];

/// The keys of a `parameters` schema that Ollama's server would discard, as JSON pointers
/// (`/properties/days/minimum`); empty when every key is kept.
///
/// `items` holds any JSON on the server side and is not descended into.
pub fn dropped_keys(parameters: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(map) = parameters.as_object() {
        for (k, v) in map {
            let here = JsonPointer::from_segments([k]);
            if !ROOT_KEYS.contains(&k.as_str()) {
                out.push(here.to_string());
            }
            if k == "properties" {
                properties(v, &here, &mut out);
            }
        }
    }
    out
}

fn properties(props: &Value, pointer: &JsonPointer, out: &mut Vec<String>) {
    for (name, schema) in props.as_object().into_iter().flatten() {
        property(schema, &pointer.child(name), out);
    }
}

fn property(schema: &Value, pointer: &JsonPointer, out: &mut Vec<String>) {
    let Some(map) = schema.as_object() else { return };
    for (k, v) in map {
        let here = pointer.child(k);
        if !PROPERTY_KEYS.contains(&k.as_str()) {
            out.push(here.into_string());
            continue;
        }
        match k.as_str() {
            "properties" => properties(v, &here, out),
            "anyOf" => {
                for (i, variant) in v.as_array().into_iter().flatten().enumerate() {
                    let mut at = here.clone();
                    at.push_index(i);
                    property(variant, &at, out);
                }
            }
            _ => {}
        }
    }
}
