//! Anthropic's rules: the tool-name rule the renderer checks (and name mapping fits), and an
//! independent checker of the strict tool use schema rules, over JSON (not the IR).

use serde_json::Value;
use tooldef::JsonPointer;
use tooldef::json_schema::SchemaKeyword;
use tooldef::render::{NameRule, NameRules};

/// Anthropic's tool-name rule as the API enforces it, `^[a-zA-Z0-9_-]{1,128}$` (API errors of
/// 2025-06 and 2026-09; older documents say 64).
pub const TOOL_NAME: NameRule = NameRule::COMMON_128;

/// What the renderer checks: tool names only.
pub(crate) const NAME_RULES: NameRules = NameRules::tools(TOOL_NAME);

const UNSUPPORTED: &[SchemaKeyword] = &[
    SchemaKeyword::Minimum,
    SchemaKeyword::Maximum,
    SchemaKeyword::ExclusiveMinimum,
    SchemaKeyword::ExclusiveMaximum,
    SchemaKeyword::MultipleOf,
    SchemaKeyword::MinLength,
    SchemaKeyword::MaxLength,
    SchemaKeyword::MaxItems,
    SchemaKeyword::UniqueItems,
    SchemaKeyword::OneOf,
    SchemaKeyword::Not,
    SchemaKeyword::If,
    SchemaKeyword::Then,
    SchemaKeyword::Else,
    SchemaKeyword::PatternProperties,
    SchemaKeyword::DependentRequired,
    SchemaKeyword::DependentSchemas,
    SchemaKeyword::Default,
];

const FORMATS: &[&str] =
    &["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"];

/// Every way `input_schema` breaks Anthropic's strict tool use rules, as `pointer: problem`
/// lines; empty when it is accepted.
///
/// Checked: the root is `"type": "object"`; every object has `additionalProperties: false`;
/// no numeric or length bounds, `minItems` only 0 or 1; only supported formats; no lookaround
/// in patterns; only local `$ref`s, and no definition that reaches itself.
pub fn strict_violations(input_schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if input_schema.get("type").and_then(Value::as_str) != Some("object") {
        out.push(": the root must be `\"type\": \"object\"`".to_owned());
    }
    check(input_schema, &mut JsonPointer::root(), &mut out);
    for defs in ["$defs", "definitions"] {
        if let Some(d) = input_schema.get(defs).and_then(Value::as_object) {
            for name in d.keys() {
                if reaches(input_schema, defs, name, name, &mut Vec::new()) {
                    let at = JsonPointer::from_segments([defs, name.as_str()]);
                    out.push(format!("{at}: recursive definition"));
                }
            }
        }
    }
    out
}

fn check(schema: &Value, pointer: &mut JsonPointer, out: &mut Vec<String>) {
    let Some(map) = schema.as_object() else { return };
    for key in map.keys() {
        if SchemaKeyword::from_wire(key).is_some_and(|k| UNSUPPORTED.contains(&k)) {
            out.push(format!("{pointer}: keyword `{key}` is not supported in strict mode"));
        }
    }
    if let Some(n) = map.get("minItems").and_then(Value::as_u64)
        && n > 1
    {
        out.push(format!("{pointer}: minItems {n}; only 0 or 1 is supported"));
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
    if let Some(r) = map.get("$ref").and_then(Value::as_str)
        && !r.starts_with("#/")
    {
        out.push(format!("{pointer}: external `$ref` {r}"));
    }
    let is_object = match map.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        _ => false,
    };
    if is_object && map.get("additionalProperties") != Some(&Value::Bool(false)) {
        out.push(format!("{pointer}: an object needs `additionalProperties: false`"));
    }
    for (key, sub) in map {
        let mark = pointer.len();
        pointer.push(key);
        match key.as_str() {
            "properties" | "$defs" | "definitions" => {
                if let Some(m) = sub.as_object() {
                    for (name, s) in m {
                        let at = pointer.len();
                        pointer.push(name);
                        check(s, pointer, out);
                        pointer.truncate(at);
                    }
                }
            }
            "anyOf" | "allOf" => {
                if let Some(vs) = sub.as_array() {
                    for (i, s) in vs.iter().enumerate() {
                        let at = pointer.len();
                        pointer.push_index(i);
                        check(s, pointer, out);
                        pointer.truncate(at);
                    }
                }
            }
            "items" | "additionalProperties" => check(sub, pointer, out),
            _ => {}
        }
        pointer.truncate(mark);
    }
}

/// Whether the definition `from` reaches `target` through `$ref`s.
fn reaches(root: &Value, defs: &str, from: &str, target: &str, seen: &mut Vec<String>) -> bool {
    if seen.iter().any(|s| s == from) {
        return false;
    }
    seen.push(from.to_owned());
    let Some(schema) = root.get(defs).and_then(|d| d.get(from)) else { return false };
    let mut refs = Vec::new();
    collect_refs(schema, &mut refs);
    refs.iter()
        .filter_map(|r| definition_name(r, defs))
        .any(|name| name == target || reaches(root, defs, &name, target, seen))
}

/// The name of the definition in `defs` that the local `$ref` `target` names, unescaped and
/// percent-decoded (`#/$defs/a~1b%20c` is `a/b c`); `None` for any other reference.
fn definition_name(target: &str, defs: &str) -> Option<String> {
    if !target.starts_with('#') {
        return None;
    }
    let pointer = JsonPointer::from_fragment(target).ok()?;
    let mut segments = pointer.segments();
    match (segments.next(), segments.next(), segments.next()) {
        (Some(d), Some(name), None) if d == defs => Some(name.into_owned()),
        _ => None,
    }
}

fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                out.push(r.clone());
            }
            m.values().for_each(|x| collect_refs(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_refs(x, out)),
        _ => {}
    }
}
