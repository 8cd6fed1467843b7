//! Vertex AI (Gemini on Vertex), validated against the subset of Google's `aiplatform:v1` discovery
//! document in `gemini/vertex-aiplatform-v1.discovery-subset.json`.
//!
//! Discovery schemas are not JSON Schema. Rules applied (the specs README's `Discovery`): `$ref` is a
//! bare id into `schemas`; `type` is `object | array | string | integer | number | boolean | any`;
//! an object's keys must be among its `properties` (else its `additionalProperties` schema, if any;
//! with no `properties` it is a map); `format` refines (`int64`/`uint64` travel as decimal strings,
//! numbers accepted too; `byte` is base64; `google-duration` is `"1.5s"`); `enum` lists the allowed
//! names; a property is required when its description starts with `"Required."` (the only place the
//! document records it); `null` means unset.

use super::{SpecResult, SpecViolation, complete_fragment, load_spec, wire};
use serde_json::{Map, Value, json};
use std::sync::OnceLock;

/// The spec file, relative to the specs directory.
pub const SPEC: &str = "gemini/vertex-aiplatform-v1.discovery-subset.json";

/// The prefix of every schema id in the document.
pub const PREFIX: &str = "GoogleCloudAiplatformV1";

fn schemas() -> &'static Map<String, Value> {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| load_spec(SPEC))
        .get("schemas")
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("provider spec `{SPEC}` has no `schemas`"))
}

fn lookup(id: &str) -> &'static Value {
    schemas().get(id).unwrap_or_else(|| panic!("provider spec `{SPEC}` has no schema `{id}`"))
}

fn is_required(property: &Value) -> bool {
    property.get("description").and_then(Value::as_str).is_some_and(|d| d.starts_with("Required."))
}

struct Walk {
    out: Vec<SpecViolation>,
}

impl Walk {
    fn fail(&mut self, pointer: &str, message: String) {
        self.out.push(SpecViolation::new(pointer, message));
    }

    /// Checks `value` against discovery schema `schema`; `name` is the nearest schema id, for messages.
    fn check(&mut self, name: &str, schema: &Value, value: &Value, pointer: &str) {
        if let Some(id) = schema.get("$ref").and_then(Value::as_str) {
            self.check(id, lookup(id), value, pointer);
            return;
        }
        let kind = schema.get("type").and_then(Value::as_str).unwrap_or("any");
        match kind {
            "any" => {}
            "object" => self.object(name, schema, value, pointer),
            "array" => {
                let Some(items) = value.as_array() else {
                    return self.expected(name, "an array", value, pointer);
                };
                let item_schema = schema.get("items").unwrap_or(&Value::Null);
                for (i, item) in items.iter().enumerate() {
                    let here = wire::index(pointer, i);
                    if item.is_null() {
                        self.fail(&here, format!("array items of `{name}` cannot be null"));
                    } else if !item_schema.is_null() {
                        self.check(name, item_schema, item, &here);
                    }
                }
            }
            "string" => self.string(name, schema, value, pointer),
            "integer" => {
                if wire::integral(value).is_none() {
                    self.expected(name, "an integer", value, pointer);
                }
            }
            "number" => {
                if !wire::is_float(value) {
                    self.expected(name, "a number", value, pointer);
                }
            }
            "boolean" => {
                if !value.is_boolean() {
                    self.expected(name, "a boolean", value, pointer);
                }
            }
            other => panic!("provider spec `{SPEC}`: unknown discovery type `{other}` in `{name}`"),
        }
    }

    fn expected(&mut self, name: &str, what: &str, value: &Value, pointer: &str) {
        self.fail(pointer, format!("`{name}` expects {what}, found {}", wire::preview(value)));
    }

    fn string(&mut self, name: &str, schema: &Value, value: &Value, pointer: &str) {
        let format = schema.get("format").and_then(Value::as_str);
        if matches!(format, Some("int64" | "uint64")) {
            if wire::integral_or_decimal_string(value).is_none() {
                self.expected(name, "an integer as a decimal string", value, pointer);
            }
            return;
        }
        let Some(text) = value.as_str() else {
            return self.expected(name, "a string", value, pointer);
        };
        match format {
            Some("byte") if !wire::is_base64(text) => {
                self.expected(name, "base64 text", value, pointer);
            }
            Some("google-duration") if !wire::is_duration(text) => {
                self.expected(name, "a duration such as \"1.5s\"", value, pointer);
            }
            _ => {}
        }
        if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
            && !allowed.iter().any(|a| a == value)
        {
            let names: Vec<&str> = allowed.iter().filter_map(Value::as_str).collect();
            self.fail(
                pointer,
                format!(
                    "{} is not an allowed value in `{name}` (one of {})",
                    wire::preview(value),
                    names.join(", ")
                ),
            );
        }
    }

    fn object(&mut self, name: &str, schema: &Value, value: &Value, pointer: &str) {
        let Some(object) = value.as_object() else {
            return self.expected(name, "an object", value, pointer);
        };
        let properties = schema.get("properties").and_then(Value::as_object);
        let additional = schema.get("additionalProperties");
        for (key, item) in object {
            let here = wire::child(pointer, key);
            let property = properties.and_then(|p| p.get(key));
            let Some(property) = property.or(additional) else {
                self.fail(&here, format!("unknown field \"{key}\" in `{name}`"));
                continue;
            };
            if !item.is_null() {
                self.check(name, property, item, &here);
            }
        }
        for (key, property) in properties.into_iter().flatten() {
            let present = object.get(key).is_some_and(|v| !v.is_null());
            if !present && is_required(property) {
                self.fail(
                    pointer,
                    format!("missing field \"{key}\", described \"Required.\" in `{name}`"),
                );
            }
        }
    }
}

/// Validates `instance` against schema id `id` (e.g. `"GoogleCloudAiplatformV1Tool"`).
///
/// # Panics
/// If the document has no such schema.
pub fn validate_schema_id(id: &str, instance: &Value) -> SpecResult {
    let mut walk = Walk { out: Vec::new() };
    walk.check(id, lookup(id), instance, "");
    if walk.out.is_empty() { Ok(()) } else { Err(walk.out) }
}

/// A `tools[]` entry (`GoogleCloudAiplatformV1Tool`).
pub fn validate_tool(instance: &Value) -> SpecResult {
    validate_schema_id("GoogleCloudAiplatformV1Tool", instance)
}

/// One `functionDeclarations[]` entry (`GoogleCloudAiplatformV1FunctionDeclaration`: `name`
/// required, `description` optional, unlike the Gemini API).
pub fn validate_function_declaration(instance: &Value) -> SpecResult {
    validate_schema_id("GoogleCloudAiplatformV1FunctionDeclaration", instance)
}

/// An OpenAPI-style `Schema` (`GoogleCloudAiplatformV1Schema`; unlike the Gemini API it also has
/// `additionalProperties`, `ref` and `defs`).
pub fn validate_schema(instance: &Value) -> SpecResult {
    validate_schema_id("GoogleCloudAiplatformV1Schema", instance)
}

/// A whole `generateContent` body (`GoogleCloudAiplatformV1GenerateContentRequest`; `model` is in the URL).
pub fn validate_generate_content_request(instance: &Value) -> SpecResult {
    validate_schema_id("GoogleCloudAiplatformV1GenerateContentRequest", instance)
}

/// A fragment of a `generateContent` body (e.g. `{"tools": [...], "toolConfig": ...}`), validated
/// as a whole body after filling in placeholder `contents` if absent.
pub fn validate_generate_content_fragment(fragment: &Value) -> SpecResult {
    let defaults = json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]});
    validate_generate_content_request(&complete_fragment(fragment, &defaults))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `$ref` in the subset names a schema in it.
    #[test]
    fn every_reference_resolves() {
        fn visit(value: &Value, seen: &mut usize) {
            match value {
                Value::Object(map) => {
                    if let Some(Value::String(id)) = map.get("$ref") {
                        assert!(schemas().contains_key(id), "`{id}` is not in the subset");
                        *seen += 1;
                    }
                    map.values().for_each(|v| visit(v, seen));
                }
                Value::Array(items) => items.iter().for_each(|v| visit(v, seen)),
                _ => {}
            }
        }
        let mut seen = 0;
        schemas().values().for_each(|s| visit(s, &mut seen));
        assert!(seen > 50, "only {seen} references seen");
    }
}
