//! Amazon Bedrock Converse, validated against botocore's service model of Bedrock Runtime,
//! `bedrock/bedrock-runtime-2023-09-30.service-2.json` (Smithy shapes, `rest-json` protocol).
//!
//! Rules applied (the specs README's `Shapes`): `structure` members are checked by shape, members
//! listed in `required` must be set (except members bound to the URL, `location: "uri"`, such as
//! `ConverseRequest.modelId`), unknown members are rejected; `union: true` means exactly one member
//! set; `document: true` is any JSON; `list` and `map` entry counts lie within `min`/`max`;
//! `string` length (in characters) within `min`/`max`, value in `enum`, and `pattern` matching the
//! **whole** string (Smithy patterns are not anchored; a renderer must satisfy the anchored reading,
//! so `weather.get` fails `[a-zA-Z0-9_-]+`); numbers within `min`/`max`; `blob` is base64 text.

use super::{SpecResult, SpecViolation, load_spec, wire};
use regex::Regex;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The spec file, relative to the specs directory.
pub const SPEC: &str = "bedrock/bedrock-runtime-2023-09-30.service-2.json";

struct Model {
    shapes: Map<String, Value>,
    /// Each string shape's `pattern`, compiled anchored at both ends.
    patterns: BTreeMap<String, Regex>,
}

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        let doc = load_spec(SPEC);
        let Some(Value::Object(shapes)) = doc.get("shapes").cloned() else {
            panic!("provider spec `{SPEC}` has no `shapes`");
        };
        let patterns = shapes
            .iter()
            .filter_map(|(name, shape)| Some((name, shape.get("pattern")?.as_str()?)))
            .map(|(name, pattern)| {
                let regex = Regex::new(&format!("^(?:{pattern})$")).unwrap_or_else(|e| {
                    panic!("provider spec `{SPEC}`: pattern of `{name}` does not compile: {e}")
                });
                (name.clone(), regex)
            })
            .collect();
        Model { shapes, patterns }
    })
}

struct Walk<'m> {
    model: &'m Model,
    out: Vec<SpecViolation>,
}

impl Walk<'_> {
    fn fail(&mut self, pointer: &str, message: String) {
        self.out.push(SpecViolation::new(pointer, message));
    }

    fn expected(&mut self, name: &str, what: &str, value: &Value, pointer: &str) {
        self.fail(
            pointer,
            format!("shape `{name}` expects {what}, found {}", wire::preview(value)),
        );
    }

    fn count(&mut self, name: &str, shape: &Value, len: usize, unit: &str, pointer: &str) {
        let bound = |key: &str| shape.get(key).and_then(Value::as_u64);
        let len = len as u64;
        if let Some(min) = bound("min").filter(|min| len < *min) {
            self.fail(pointer, format!("shape `{name}` needs at least {min} {unit}, has {len}"));
        }
        if let Some(max) = bound("max").filter(|max| len > *max) {
            self.fail(pointer, format!("shape `{name}` allows at most {max} {unit}, has {len}"));
        }
    }

    fn shape(&mut self, name: &str, value: &Value, pointer: &str) {
        let model = self.model;
        let shape = model
            .shapes
            .get(name)
            .unwrap_or_else(|| panic!("provider spec `{SPEC}` has no shape `{name}`"));
        let kind = shape.get("type").and_then(Value::as_str).unwrap_or_default();
        match kind {
            "structure" => self.structure(name, shape, value, pointer),
            "list" => {
                let Some(items) = value.as_array() else {
                    return self.expected(name, "an array", value, pointer);
                };
                self.count(name, shape, items.len(), "entries", pointer);
                let member = target(shape, "member", name);
                for (i, item) in items.iter().enumerate() {
                    self.shape(member, item, &wire::index(pointer, i));
                }
            }
            "map" => {
                let Some(entries) = value.as_object() else {
                    return self.expected(name, "an object", value, pointer);
                };
                self.count(name, shape, entries.len(), "entries", pointer);
                let key_shape = target(shape, "key", name);
                let value_shape = target(shape, "value", name);
                for (key, entry) in entries {
                    let here = wire::child(pointer, key);
                    self.shape(key_shape, &Value::String(key.clone()), &here);
                    self.shape(value_shape, entry, &here);
                }
            }
            "string" => self.string(name, shape, value, pointer),
            "boolean" => {
                if !value.is_boolean() {
                    self.expected(name, "a boolean", value, pointer);
                }
            }
            "integer" | "long" => match wire::integral(value) {
                Some(n) => self.range(name, shape, n as f64, pointer),
                None => self.expected(name, "an integer", value, pointer),
            },
            "float" | "double" => match value.as_f64() {
                Some(n) => self.range(name, shape, n, pointer),
                None => self.expected(name, "a number", value, pointer),
            },
            "blob" => {
                if !value.as_str().is_some_and(wire::is_base64) {
                    self.expected(name, "base64 text", value, pointer);
                }
            }
            "timestamp" => {
                if !(value.is_number() || value.is_string()) {
                    self.expected(name, "a timestamp (epoch seconds or text)", value, pointer);
                }
            }
            other => panic!("provider spec `{SPEC}`: shape `{name}` has unknown type `{other}`"),
        }
    }

    fn range(&mut self, name: &str, shape: &Value, n: f64, pointer: &str) {
        if let Some(min) = shape.get("min").and_then(Value::as_f64).filter(|min| n < *min) {
            self.fail(pointer, format!("shape `{name}` has minimum {min}, found {n}"));
        }
        if let Some(max) = shape.get("max").and_then(Value::as_f64).filter(|max| n > *max) {
            self.fail(pointer, format!("shape `{name}` has maximum {max}, found {n}"));
        }
    }

    fn string(&mut self, name: &str, shape: &Value, value: &Value, pointer: &str) {
        let Some(text) = value.as_str() else {
            return self.expected(name, "a string", value, pointer);
        };
        self.count(name, shape, text.chars().count(), "characters", pointer);
        if let Some(allowed) = shape.get("enum").and_then(Value::as_array)
            && !allowed.iter().any(|a| a == value)
        {
            let names: Vec<&str> = allowed.iter().filter_map(Value::as_str).collect();
            self.fail(
                pointer,
                format!(
                    "{} is not in enum shape `{name}` (one of {})",
                    wire::preview(value),
                    names.join(", ")
                ),
            );
        }
        if let Some(regex) = self.model.patterns.get(name)
            && !regex.is_match(text)
        {
            let pattern = shape.get("pattern").and_then(Value::as_str).unwrap_or_default();
            self.fail(
                pointer,
                format!(
                    "{} does not match the pattern of shape `{name}` as a whole string: {pattern}",
                    wire::preview(value)
                ),
            );
        }
    }

    fn structure(&mut self, name: &str, shape: &Value, value: &Value, pointer: &str) {
        if shape.get("document") == Some(&Value::Bool(true)) {
            return;
        }
        let Some(object) = value.as_object() else {
            return self.expected(name, "an object", value, pointer);
        };
        let empty = Map::new();
        let members = shape.get("members").and_then(Value::as_object).unwrap_or(&empty);
        let mut set = Vec::new();
        for (key, item) in object {
            let here = wire::child(pointer, key);
            let Some(member) = members.get(key) else {
                self.fail(&here, format!("unknown member \"{key}\" in structure `{name}`"));
                continue;
            };
            if item.is_null() {
                continue;
            }
            set.push(key.as_str());
            self.shape(target(member, "", name), item, &here);
        }
        let required = shape.get("required").and_then(Value::as_array);
        for key in required.into_iter().flatten().filter_map(Value::as_str) {
            let in_url =
                members.get(key).and_then(|m| m.get("location")).is_some_and(|l| l == "uri");
            if !in_url && !set.contains(&key) {
                self.fail(
                    pointer,
                    format!("missing required member \"{key}\" of structure `{name}`"),
                );
            }
        }
        if shape.get("union") == Some(&Value::Bool(true)) && set.len() != 1 {
            let names: Vec<&str> = members.keys().map(String::as_str).collect();
            let found = if set.is_empty() { "none".to_owned() } else { set.join(", ") };
            self.fail(
                pointer,
                format!(
                    "union `{name}` must set exactly one of {}, found {found}",
                    names.join(", ")
                ),
            );
        }
    }
}

/// The shape a member, list `member`, or map `key`/`value` points at (`part == ""` for a member).
fn target<'v>(shape: &'v Value, part: &str, owner: &str) -> &'v str {
    let reference = if part.is_empty() { Some(shape) } else { shape.get(part) };
    reference
        .and_then(|r| r.get("shape"))
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("provider spec `{SPEC}`: `{owner}` has a member without a shape"))
}

/// Validates `instance` as shape `name` (e.g. `"ToolChoice"`).
///
/// # Panics
/// If the model has no such shape.
pub fn validate_shape(name: &str, instance: &Value) -> SpecResult {
    let mut walk = Walk { model: model(), out: Vec::new() };
    walk.shape(name, instance, "");
    if walk.out.is_empty() { Ok(()) } else { Err(walk.out) }
}

/// A `toolConfig.tools[]` entry (`Tool`, a union: exactly one of `toolSpec`, `systemTool`, `cachePoint`).
pub fn validate_tool(instance: &Value) -> SpecResult {
    validate_shape("Tool", instance)
}

/// A `toolSpec` (`ToolSpecification`: `name` matching `[a-zA-Z0-9_-]+` (1-64), `inputSchema` `{"json": …}`).
pub fn validate_tool_specification(instance: &Value) -> SpecResult {
    validate_shape("ToolSpecification", instance)
}

/// A `toolConfig` (`ToolConfiguration`: `tools` (at least one), optional `toolChoice`).
pub fn validate_tool_configuration(instance: &Value) -> SpecResult {
    validate_shape("ToolConfiguration", instance)
}

/// A whole Converse body (`ConverseRequest`; `modelId` is bound to the URL, so optional here).
pub fn validate_converse_request(instance: &Value) -> SpecResult {
    validate_shape("ConverseRequest", instance)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape reference names a shape, and every pattern compiled (anchored).
    #[test]
    fn every_shape_reference_resolves() {
        let model = model();
        let mut seen = 0;
        for (name, shape) in &model.shapes {
            let members = shape.get("members").and_then(Value::as_object);
            let refs = members
                .into_iter()
                .flat_map(|m| m.values())
                .chain(["member", "key", "value"].iter().filter_map(|k| shape.get(*k)));
            for reference in refs {
                let target = reference["shape"].as_str().expect("shape reference");
                assert!(model.shapes.contains_key(target), "`{name}` refers to missing `{target}`");
                seen += 1;
            }
        }
        assert!(seen > 300, "only {seen} references seen");
        assert!(model.patterns["ToolName"].is_match("get_weather"));
        assert!(!model.patterns["ToolName"].is_match("weather.get"));
    }
}
