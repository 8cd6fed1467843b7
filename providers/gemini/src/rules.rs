//! Gemini's rules: the function-name and property-name rules the renderer checks (and name
//! mapping fits), and an independent checker of the rules of the OpenAPI-subset `parameters`
//! (the `Schema` message), over JSON rather than the IR: how the tests hold the renderer to
//! them, and usable on schemas from anywhere.

use serde_json::Value;
use tooldef::JsonPointer;
use tooldef::json_schema::SchemaKeyword;
use tooldef::render::{NameRule, NameRules};

fn letter_or_underscore(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn word_or_dash(b: u8) -> bool {
    word(b) || b == b'-'
}

/// Gemini's function-name rule, read conservatively (Vertex docs, 64-character API errors):
/// `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`.
pub const FUNCTION_NAME: NameRule = NameRule {
    pattern: "^[A-Za-z_][A-Za-z0-9_-]{0,63}$",
    max_len: 64,
    allowed: word_or_dash,
    first: letter_or_underscore,
};

/// Gemini's parameter (property) name rule: `^[A-Za-z_][A-Za-z0-9_]{0,63}$`.
pub const PROPERTY_NAME: NameRule = NameRule {
    pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$",
    max_len: 64,
    allowed: word,
    first: letter_or_underscore,
};

/// What the renderer checks: function names and, at every depth, property names.
pub(crate) const NAME_RULES: NameRules =
    NameRules::tools(FUNCTION_NAME).with_properties(PROPERTY_NAME);

/// The JSON Schema keywords (and OpenAPI's `nullable` and `example`) that are fields of
/// Gemini's `Schema`.
const ALLOWED: &[SchemaKeyword] = &[
    SchemaKeyword::Type,
    SchemaKeyword::Format,
    SchemaKeyword::Title,
    SchemaKeyword::Description,
    SchemaKeyword::Nullable,
    SchemaKeyword::Enum,
    SchemaKeyword::Items,
    SchemaKeyword::MaxItems,
    SchemaKeyword::MinItems,
    SchemaKeyword::Properties,
    SchemaKeyword::Required,
    SchemaKeyword::MinProperties,
    SchemaKeyword::MaxProperties,
    SchemaKeyword::Minimum,
    SchemaKeyword::Maximum,
    SchemaKeyword::MinLength,
    SchemaKeyword::MaxLength,
    SchemaKeyword::Pattern,
    SchemaKeyword::Example,
    SchemaKeyword::AnyOf,
    SchemaKeyword::Default,
];

/// The fields of Gemini's `Schema` that no JSON Schema dialect has.
const GEMINI_FIELDS: &[&str] = &["propertyOrdering"];

const TYPES: &[&str] = &["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"];

/// Every way a `parameters` (or `response`) schema breaks Gemini's OpenAPI-subset rules, as
/// `pointer: problem` lines; empty when the schema is accepted.
///
/// Checked: every schema has exactly one upper-case `type`, or none beside an `anyOf` (how the
/// `Schema` message writes a union of different types, as google-genai sends them; never
/// neither, which the API reads as `TYPE_UNSPECIFIED`); only `Schema` fields (so no
/// `additionalProperties`, `$ref`, `$defs`, `const`, `oneOf`, `allOf`, `exclusiveMinimum`,
/// `multipleOf`, `uniqueItems`, `examples`); `enum` only on STRING and only strings; objects
/// with `properties` have at least one, names matching `^[A-Za-z_][A-Za-z0-9_]{0,63}$`,
/// `required` among them, and a `propertyOrdering` listing each of them once when there are two or
/// more; arrays have `items`.
pub fn parameters_violations(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    check(schema, &JsonPointer::root(), &mut out);
    out
}

fn check(schema: &Value, pointer: &JsonPointer, out: &mut Vec<String>) {
    let Some(map) = schema.as_object() else {
        out.push(format!("{pointer}: a schema must be an object"));
        return;
    };
    for key in map.keys() {
        let field = SchemaKeyword::from_wire(key).is_some_and(|k| ALLOWED.contains(&k))
            || GEMINI_FIELDS.contains(&key.as_str());
        if !field {
            out.push(format!("{pointer}: `{key}` is not a field of Gemini's Schema"));
        }
    }
    let ty = map.get("type").and_then(Value::as_str);
    match (map.get("type"), ty) {
        (_, Some(t)) if TYPES.contains(&t) => {}
        (_, Some(t)) => {
            out.push(format!("{pointer}: `type` {t:?} is not an upper-case Gemini type"));
        }
        // A union's schema may leave `type` out: its variants carry theirs.
        (None, None) if map.contains_key("anyOf") => {}
        (None, None) => out.push(format!(
            "{pointer}: a schema needs one upper-case `type`, or `anyOf` (Gemini 3 refuses TYPE_UNSPECIFIED)"
        )),
        (Some(_), None) => out.push(format!("{pointer}: `type` must be one upper-case type name")),
    }
    if let Some(values) = map.get("enum") {
        if ty != Some("STRING") {
            out.push(format!("{pointer}: `enum` is only accepted on STRING"));
        }
        if !values.as_array().is_some_and(|a| a.iter().all(Value::is_string)) {
            out.push(format!("{pointer}: `enum` must be an array of strings"));
        }
    }
    if ty == Some("ARRAY") {
        match map.get("items") {
            Some(items) => check(items, &pointer.child("items"), out),
            None => out.push(format!("{pointer}: an ARRAY needs `items`")),
        }
    }
    if let Some(props) = map.get("properties") {
        let Some(props) = props.as_object() else {
            out.push(format!("{pointer}/properties: must be an object"));
            return;
        };
        if props.is_empty() {
            out.push(format!("{pointer}/properties: must not be empty for OBJECT"));
        }
        for (name, sub) in props {
            if !valid_property_name(name) {
                out.push(format!(
                    "{pointer}/properties: `{name}` does not match ^[A-Za-z_][A-Za-z0-9_]{{0,63}}$"
                ));
            }
            let mut at = pointer.child("properties");
            at.push(name);
            check(sub, &at, out);
        }
        if let Some(required) = map.get("required").and_then(Value::as_array) {
            for r in required {
                if !r.as_str().is_some_and(|r| props.contains_key(r)) {
                    out.push(format!("{pointer}/required: {r} is not a property"));
                }
            }
        }
        // A parsed `Value` keeps key order only under serde_json's `preserve_order` feature, so
        // the check is the one that holds either way: every property listed exactly once.
        if props.len() > 1 {
            let mut expected: Vec<&str> = props.keys().map(String::as_str).collect();
            let given: Option<Vec<&str>> = map
                .get("propertyOrdering")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect());
            let listed = given.is_some_and(|mut given| {
                given.sort_unstable();
                expected.sort_unstable();
                given == expected
            });
            if !listed {
                out.push(format!(
                    "{pointer}: `propertyOrdering` must list every property exactly once"
                ));
            }
        }
    }
    if let Some(variants) = map.get("anyOf") {
        match variants.as_array() {
            Some(vs) => {
                for (i, v) in vs.iter().enumerate() {
                    let mut at = pointer.child("anyOf");
                    at.push_index(i);
                    check(v, &at, out);
                }
            }
            None => out.push(format!("{pointer}/anyOf: must be an array")),
        }
    }
}

fn valid_property_name(name: &str) -> bool {
    PROPERTY_NAME.check(name).is_ok()
}
