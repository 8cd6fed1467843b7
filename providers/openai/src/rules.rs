//! OpenAI's rules: the function-name rule the renderer checks (and name mapping fits), and an
//! independent checker of the strict-mode schema rules, over JSON (not the IR): usable on
//! schemas from anywhere, and how the tests hold the renderer to the rules.

use serde_json::Value;
use tooldef::JsonPointer;
use tooldef::json_schema::SchemaKeyword;
use tooldef::render::{NameRule, NameRules};

/// OpenAI's function-name rule, `^[a-zA-Z0-9_-]{1,64}$` (SDK types and API errors), shared by
/// the OpenAI-compatible profiles (Mistral, DeepSeek, Groq, xAI, Cohere).
pub const TOOL_NAME: NameRule = NameRule::COMMON_64;

/// What the renderer checks: function names only (no property-name rule is documented).
pub(crate) const NAME_RULES: NameRules = NameRules::tools(TOOL_NAME);

/// The keywords strict mode accepts.
const ALLOWED: &[SchemaKeyword] = &[
    SchemaKeyword::Type,
    SchemaKeyword::Description,
    SchemaKeyword::Title,
    SchemaKeyword::Properties,
    SchemaKeyword::Required,
    SchemaKeyword::AdditionalProperties,
    SchemaKeyword::Items,
    SchemaKeyword::Enum,
    SchemaKeyword::Const,
    SchemaKeyword::AnyOf,
    SchemaKeyword::Ref,
    SchemaKeyword::Defs,
    SchemaKeyword::Definitions,
    SchemaKeyword::Pattern,
    SchemaKeyword::Format,
    SchemaKeyword::MultipleOf,
    SchemaKeyword::Maximum,
    SchemaKeyword::ExclusiveMaximum,
    SchemaKeyword::Minimum,
    SchemaKeyword::ExclusiveMinimum,
    SchemaKeyword::MinItems,
    SchemaKeyword::MaxItems,
    SchemaKeyword::MinLength,
    SchemaKeyword::MaxLength,
];

const FORMATS: &[&str] =
    &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

const TYPES: &[&str] = &["string", "number", "boolean", "integer", "object", "array", "null"];

/// Every way `parameters` breaks OpenAI's strict-mode rules, as `pointer: problem` lines; empty
/// when the schema is accepted.
///
/// Checked: the root is an object and not `anyOf`; every object has `properties`, lists every
/// property in `required` and has `additionalProperties: false`; only supported keywords and
/// formats; every schema has a `type` (or is an `anyOf` or a `$ref`: "schema must have a
/// 'type' key"); arrays have `items`; a `$ref` has no sibling keywords; `pattern` has no
/// lookaround.
pub fn strict_violations(parameters: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if parameters.get("type").and_then(Value::as_str) != Some("object") {
        out.push(": the root must be `\"type\": \"object\"`".to_owned());
    }
    if parameters.get("anyOf").is_some() {
        out.push(": the root must not be `anyOf`".to_owned());
    }
    check(parameters, &mut JsonPointer::root(), &mut out);
    out
}

fn check(schema: &Value, pointer: &mut JsonPointer, out: &mut Vec<String>) {
    let Some(map) = schema.as_object() else {
        out.push(format!("{pointer}: a schema must be an object"));
        return;
    };
    for key in map.keys() {
        if !SchemaKeyword::from_wire(key).is_some_and(|k| ALLOWED.contains(&k)) {
            out.push(format!("{pointer}: keyword `{key}` is not supported in strict mode"));
        }
    }
    if map.contains_key("$ref") && map.len() > 1 {
        out.push(format!("{pointer}: `$ref` must not have sibling keywords"));
    }
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        Some(_) => {
            out.push(format!("{pointer}: `type` must be a string or an array of strings"));
            Vec::new()
        }
        None => Vec::new(),
    };
    if !map.contains_key("type") && !map.contains_key("anyOf") && !map.contains_key("$ref") {
        out.push(format!("{pointer}: a schema needs a `type` (or `anyOf` or `$ref`)"));
    }
    for t in &types {
        if !TYPES.contains(t) {
            out.push(format!("{pointer}: type `{t}` is not supported"));
        }
    }
    if let Some(f) = map.get("format").and_then(Value::as_str)
        && !FORMATS.contains(&f)
    {
        out.push(format!("{pointer}: format `{f}` is not supported"));
    }
    if let Some(p) = map.get("pattern").and_then(Value::as_str)
        && tooldef::render::has_lookaround(p)
    {
        out.push(format!("{pointer}: pattern uses lookaround or backreferences"));
    }
    if types.contains(&"object") {
        match map.get("properties").and_then(Value::as_object) {
            None => out.push(format!("{pointer}: an object needs `properties`")),
            Some(props) => {
                let required: Vec<&str> = map
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                let mark = pointer.len();
                pointer.push("properties");
                for (name, sub) in props {
                    let at = pointer.len();
                    pointer.push(name);
                    if !required.contains(&name.as_str()) {
                        out.push(format!("{pointer}: not listed in `required`"));
                    }
                    check(sub, pointer, out);
                    pointer.truncate(at);
                }
                pointer.truncate(mark);
            }
        }
        if map.get("additionalProperties") != Some(&Value::Bool(false)) {
            out.push(format!("{pointer}: an object needs `additionalProperties: false`"));
        }
    }
    if types.contains(&"array") {
        match map.get("items") {
            Some(items) => {
                let mark = pointer.len();
                pointer.push("items");
                check(items, pointer, out);
                pointer.truncate(mark);
            }
            None => out.push(format!("{pointer}: an array needs `items`")),
        }
    }
    if let Some(variants) = map.get("anyOf") {
        match variants.as_array() {
            Some(vs) => {
                let mark = pointer.len();
                pointer.push("anyOf");
                for (i, v) in vs.iter().enumerate() {
                    let at = pointer.len();
                    pointer.push_index(i);
                    check(v, pointer, out);
                    pointer.truncate(at);
                }
                pointer.truncate(mark);
            }
            None => out.push(format!("{pointer}: `anyOf` must be an array")),
        }
    }
    for defs in ["$defs", "definitions"] {
        if let Some(d) = map.get(defs).and_then(Value::as_object) {
            let mark = pointer.len();
            pointer.push(defs);
            for (name, sub) in d {
                let at = pointer.len();
                pointer.push(name);
                check(sub, pointer, out);
                pointer.truncate(at);
            }
            pointer.truncate(mark);
        }
    }
}
