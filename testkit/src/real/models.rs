//! The real-world corpus rendered for each model profile
//! ([`ModelProfile::ALL`](tooldef::render::ModelProfile::ALL)) over the wire APIs its family
//! is served through: the same run as the twelve targets (official specs, provider rules,
//! policy agreement, silent drops), plus the family's own rules ([`family_violations`]) and a
//! check that every rendering the profile changed says so in its report ([`unreported`]).

use serde_json::Value;
use tooldef::render::{LossPolicy, ModelProfile, Renderer};
use tooldef_gemini::GeminiRenderer;
use tooldef_ollama::OllamaRenderer;
use tooldef_openai::OpenAiRenderer;

use super::{RealTool, Run, Target, TargetRenderer, import, run_with};

/// The targets a family is rendered for: Gemini's two forms for Google's families; OpenAI's
/// Chat Completions for the others (strict too where the family takes strict tool
/// definitions), Responses for OpenAI's own, and Ollama for Llama.
pub fn targets(profile: &ModelProfile) -> Vec<Target> {
    let family = profile.family();
    if family.starts_with("gemini") {
        return vec![Target::Gemini, Target::GeminiOpenApi];
    }
    let mut out = vec![Target::OpenAiChat];
    if profile.strict_tools() {
        out.push(Target::OpenAiChatStrict);
    }
    if family == "openai-reasoning" {
        out.push(Target::OpenAiResponses);
    }
    if family == "llama" {
        out.push(Target::Ollama);
    }
    out
}

/// The target's renderer for the model `id`.
///
/// # Panics
///
/// A target that takes no model (Anthropic, MCP, Bedrock).
pub fn renderer(target: Target, id: &str) -> Box<dyn Renderer + Send + Sync> {
    match target {
        Target::OpenAiChat => Box::new(OpenAiRenderer::chat().model(id)),
        Target::OpenAiChatStrict => Box::new(OpenAiRenderer::chat().strict(true).model(id)),
        Target::OpenAiResponses => Box::new(OpenAiRenderer::responses().model(id)),
        Target::OpenAiResponsesStrict => {
            Box::new(OpenAiRenderer::responses().strict(true).model(id))
        }
        Target::Gemini => Box::new(GeminiRenderer::new().model(id)),
        Target::GeminiOpenApi => Box::new(GeminiRenderer::openapi().model(id)),
        Target::Ollama => Box::new(OllamaRenderer::new().model(id)),
        other => panic!("{other} takes no model"),
    }
}

/// A model id of the family (its first prefix).
pub fn model_id(profile: &ModelProfile) -> &'static str {
    profile.prefixes()[0]
}

/// The corpus run for one profile over its [`targets`].
pub fn run(tools: &[RealTool], profile: &ModelProfile) -> Run {
    let id = model_id(profile);
    let renderers: Vec<TargetRenderer> =
        targets(profile).into_iter().map(|t| (t, renderer(t, id))).collect();
    run_with(tools, renderers)
}

/// Every way `schema` (a rendered parameters object) breaks what the family is documented to
/// refuse, one line each: for Kimi, `$schema`, `additionalProperties: {}`, `not`, `oneOf`, and
/// `type` beside `anyOf`; nothing for the other families.
pub fn family_violations(profile: &ModelProfile, schema: &Value) -> Vec<String> {
    fn walk(v: &Value, at: &str, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                for key in ["$schema", "not", "oneOf"] {
                    if map.contains_key(key) {
                        out.push(format!("{at}: `{key}`"));
                    }
                }
                let empty = |a: &Value| a.as_object().is_some_and(serde_json::Map::is_empty);
                if map.get("additionalProperties").is_some_and(empty) {
                    out.push(format!("{at}: `additionalProperties: {{}}`"));
                }
                if map.contains_key("anyOf") && map.contains_key("type") {
                    out.push(format!("{at}: `type` beside `anyOf`"));
                }
                for (k, sub) in map {
                    match k.as_str() {
                        // Names, not schemas: each value is a schema.
                        "properties" | "$defs" | "definitions" => {
                            for (name, s) in sub.as_object().into_iter().flatten() {
                                walk(s, &format!("{at}/{k}/{name}"), out);
                            }
                        }
                        // Values, not schemas.
                        "enum" | "const" | "default" | "examples" | "required" => {}
                        _ => walk(sub, &format!("{at}/{k}"), out),
                    }
                }
            }
            Value::Array(items) => {
                for (i, sub) in items.iter().enumerate() {
                    walk(sub, &format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    if profile.family() == "kimi" {
        walk(schema, "", &mut out);
    }
    out
}

/// `wire` with the two spellings the passes choose without changing what is valid, and do
/// not report, made alike: `oneOf` of disjoint variants written `anyOf`
/// ([`Pass::OneOfAsAnyOf`](tooldef::render::Pass::OneOfAsAnyOf)), and `"required": []`
/// ([`Pass::NullForAbsent`](tooldef::render::Pass::NullForAbsent)).
fn same_meaning_spelling(mut wire: Value) -> Value {
    fn walk(v: &mut Value) {
        match v {
            Value::Object(map) => {
                if let Some(one) = map.remove("oneOf") {
                    map.insert("anyOf".to_owned(), one);
                }
                if map.get("required").is_some_and(|r| r.as_array().is_some_and(Vec::is_empty)) {
                    map.remove("required");
                }
                map.values_mut().for_each(walk);
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut wire);
    wire
}

/// The renderings of `tools` for the profile whose wire JSON differs from the wire API's own
/// rendering while the report has no entry more, and those that break the family's rules
/// ([`family_violations`]): `file#index [target]: what`, one line each. Tools a renderer
/// refuses are left to [`run`].
pub fn unreported(tools: &[RealTool], profile: &ModelProfile) -> Vec<String> {
    let id = model_id(profile);
    let pairs: Vec<_> =
        targets(profile).into_iter().map(|t| (t, t.renderer(), renderer(t, id))).collect();
    let mut out = Vec::new();
    for tool in tools {
        let Ok(imported) = import(tool) else { continue };
        let d = &imported.descriptor;
        for (target, wire, model) in &pairs {
            let (Ok(plain), Ok(profiled)) =
                (wire.render(d, LossPolicy::Allow), model.render(d, LossPolicy::Allow))
            else {
                continue;
            };
            let at = format!("{} [{target}]", tool.id());
            let value = profiled.to_value();
            if same_meaning_spelling(plain.to_value()) != same_meaning_spelling(value.clone())
                && profiled.report().changes.len() <= plain.report().changes.len()
            {
                out.push(format!("{at}: changed without a report entry"));
            }
            if let Some(schema) = value.pointer(target.schema_pointer()) {
                out.extend(
                    family_violations(profile, schema).into_iter().map(|v| format!("{at}: {v}")),
                );
            }
        }
    }
    out
}
