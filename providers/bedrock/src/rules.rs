//! Bedrock's rules: the tool-name rule the renderer checks (and name mapping fits), and an
//! independent checker of the strict tool-use schema rules, over JSON (not the IR): how the
//! tests hold the renderer to them, and usable on schemas from anywhere.

use serde_json::Value;
use tooldef::JsonPointer;
use tooldef::json_schema::SchemaKeyword;
use tooldef::render::{NameRule, NameRules};

/// Bedrock's tool-name rule, `[a-zA-Z0-9_-]+` of 1 to 64 characters (the Converse service
/// model).
pub const TOOL_NAME: NameRule = NameRule::COMMON_64;

/// What the renderer checks: tool names only.
pub(crate) const NAME_RULES: NameRules = NameRules::tools(TOOL_NAME);

const REJECTED: &[SchemaKeyword] = &[
    SchemaKeyword::Minimum,
    SchemaKeyword::Maximum,
    SchemaKeyword::ExclusiveMinimum,
    SchemaKeyword::ExclusiveMaximum,
    SchemaKeyword::MultipleOf,
    SchemaKeyword::MaxItems,
];

/// Every way `inputSchema.json` breaks Bedrock's strict rules, as `pointer: problem` lines;
/// empty when the schema is accepted.
///
/// Checked: the root is `"type": "object"`; no `minimum`, `maximum`, `exclusiveMinimum`,
/// `exclusiveMaximum`, `multipleOf` or `maxItems`; `minItems` only 0 or 1; patterns without
/// lookaround or backreferences; every object has `additionalProperties: false`.
pub fn strict_violations(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        out.push(": the root must be `\"type\": \"object\"`".to_owned());
    }
    check(schema, &JsonPointer::root(), &mut out);
    out
}

fn check(schema: &Value, pointer: &JsonPointer, out: &mut Vec<String>) {
    let Some(map) = schema.as_object() else {
        if !schema.is_boolean() {
            out.push(format!("{pointer}: a schema must be an object"));
        }
        return;
    };
    for key in REJECTED.iter().map(|k| k.wire()) {
        if map.contains_key(key) {
            out.push(format!("{pointer}: `{key}` is rejected in strict mode"));
        }
    }
    if let Some(n) = map.get("minItems")
        && n.as_u64().is_none_or(|n| n > 1)
    {
        out.push(format!("{pointer}: `minItems` must be 0 or 1, got {n}"));
    }
    if let Some(p) = map.get("pattern").and_then(Value::as_str)
        && uses_lookaround(p)
    {
        out.push(format!("{pointer}: pattern {p:?} uses lookaround or a backreference"));
    }
    let is_object =
        map.get("type").and_then(Value::as_str) == Some("object") || map.contains_key("properties");
    if is_object && map.get("additionalProperties") != Some(&Value::Bool(false)) {
        out.push(format!("{pointer}: objects need `additionalProperties: false`"));
    }
    for key in ["properties", "$defs", "definitions"] {
        if let Some(children) = map.get(key).and_then(Value::as_object) {
            for (name, sub) in children {
                let mut at = pointer.child(key);
                at.push(name);
                check(sub, &at, out);
            }
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub @ Value::Object(_)) = map.get(key) {
            check(sub, &pointer.child(key), out);
        }
    }
    for key in ["anyOf", "allOf", "oneOf"] {
        if let Some(vs) = map.get(key).and_then(Value::as_array) {
            for (i, v) in vs.iter().enumerate() {
                let mut at = pointer.child(key);
                at.push_index(i);
                check(v, &at, out);
            }
        }
    }
}

/// Lookahead, lookbehind and backreferences, found by their syntax.
fn uses_lookaround(pattern: &str) -> bool {
    ["(?=", "(?!", "(?<=", "(?<!", "\\k<"].iter().any(|s| pattern.contains(s))
        || pattern.as_bytes().windows(2).any(|w| w[0] == b'\\' && (b'1'..=b'9').contains(&w[1]))
}
