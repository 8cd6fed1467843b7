//! Gemini API (Generative Language API), validated against Google's protobuf descriptor of it,
//! `gemini/generativelanguage-protos.json` (protobufjs JSON from `@google-ai/generativelanguage`),
//! under the proto3 JSON mapping: the REST surface is generated from these protos.
//!
//! Rules applied (the specs README's `ProtoJson`): messages are looked up by full name and field
//! types resolved like protoc (innermost scope outwards); unknown keys are rejected (the service
//! answers `Unknown name "…"`); keys may be the json name or the snake_case proto name; `null`
//! means unset; 32-bit ints are numbers, 64-bit ints numbers or decimal strings, floats numbers,
//! `bytes` base64, enums their value *names*; `repeated` are arrays and maps objects;
//! `google.protobuf.Value` is any JSON and `Struct` any object; fields whose
//! `google.api.field_behavior` is `REQUIRED` must be set, except those bound to the URL path of a
//! method taking the message (e.g. `GenerateContentRequest.model`); at most one member of a real
//! `oneof` is set (`_`-prefixed oneofs are proto3 `optional` wrappers).

use super::{SpecResult, SpecViolation, complete_fragment, load_spec, wire};
use serde_json::{Map, Value, json};
use std::sync::OnceLock;

/// The spec file, relative to the specs directory.
pub const SPEC: &str = "gemini/generativelanguage-protos.json";

/// The proto package the named validators use.
pub const V1BETA: &str = "google.ai.generativelanguage.v1beta";

/// The parsed descriptor.
struct Descriptor {
    root: Value,
}

fn descriptor() -> &'static Descriptor {
    static DESC: OnceLock<Descriptor> = OnceLock::new();
    DESC.get_or_init(|| Descriptor { root: load_spec(SPEC) })
}

impl Descriptor {
    /// The namespace, message or enum with this full name (`a.b.C`).
    fn find(&self, full: &str) -> Option<&Value> {
        full.split('.').try_fold(&self.root, |node, part| node.get("nested")?.get(part))
    }

    /// Resolves `name` as written in a field of `scope` (a full name): the innermost scope first,
    /// then each enclosing one, as protoc does.
    fn resolve(&self, scope: &str, name: &str) -> Option<(String, &Value)> {
        if let Some(absolute) = name.strip_prefix('.') {
            return self.find(absolute).map(|node| (absolute.to_owned(), node));
        }
        let mut scope = scope;
        loop {
            let candidate =
                if scope.is_empty() { name.to_owned() } else { format!("{scope}.{name}") };
            if let Some(node) = self.find(&candidate) {
                return Some((candidate, node));
            }
            if scope.is_empty() {
                return None;
            }
            scope = scope.rfind('.').map_or("", |i| &scope[..i]);
        }
    }

    /// Fields of `message` bound to the URL path by a method of its package taking it as request.
    fn url_bound_fields(&self, message: &str) -> Vec<String> {
        let package = message.rfind('.').map_or("", |i| &message[..i]);
        let Some(Value::Object(nested)) = self.find(package).and_then(|p| p.get("nested")) else {
            return Vec::new();
        };
        let mut fields = Vec::new();
        let services = nested.values().filter_map(|s| s.get("methods")?.as_object());
        for method in services.flat_map(Map::values) {
            let request = method.get("requestType").and_then(Value::as_str);
            let takes_message = request
                .and_then(|r| self.resolve(package, r))
                .is_some_and(|(full, _)| full == message);
            if !takes_message {
                continue;
            }
            let Some(options) = method.get("options").and_then(Value::as_object) else {
                continue;
            };
            let templates = options
                .iter()
                .filter(|(key, _)| key.starts_with("(google.api.http)"))
                .filter_map(|(_, template)| template.as_str());
            for template in templates {
                for bound in template.split('{').skip(1) {
                    let name = bound.split(['=', '}']).next().unwrap_or_default();
                    if !name.is_empty() && !fields.iter().any(|f| f == name) {
                        fields.push(name.to_owned());
                    }
                }
            }
        }
        fields
    }
}

/// The snake_case proto name of a lowerCamelCase json name.
fn proto_name(json_name: &str) -> String {
    let mut out = String::with_capacity(json_name.len() + 4);
    for c in json_name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether proto name `proto` (possibly dotted in a URL template, e.g. `model`) names json field `json`.
fn names_field(bound: &str, json: &str) -> bool {
    bound == json || bound == proto_name(json)
}

fn is_required(field: &Value) -> bool {
    if field.get("rule").and_then(Value::as_str) == Some("required") {
        return true;
    }
    match field.get("options").and_then(|o| o.get("(google.api.field_behavior)")) {
        Some(Value::String(behavior)) => behavior == "REQUIRED",
        Some(Value::Array(behaviors)) => behaviors.iter().any(|b| b == "REQUIRED"),
        _ => false,
    }
}

/// Whether the REQUIRED `type` of a `Schema` may be left out: in a `Schema` that sets `anyOf`.
///
/// The one place this validator departs from the descriptor's annotations, because Google's own
/// files disagree: the protos mark `Schema.type` REQUIRED while the Vertex discovery document
/// describes the same field as "Optional. Data type of the schema field.", and google-genai sends
/// a union of different types as `anyOf` of single-type schemas with no `type` beside it
/// (`Schema.from_json_schema` in `types.py`; `process_schema` in `_transformers.py` leaves an
/// `anyOf` schema untyped). A schema with neither `type` nor `anyOf` is still refused: the API
/// reads it as `TYPE_UNSPECIFIED`, which Gemini 3 rejects.
fn union_type_waived(message: &str, field: &str, set: &[&str]) -> bool {
    let schema = message
        .strip_prefix("google.ai.generativelanguage.")
        .and_then(|m| m.split_once('.').map(|(_, name)| name));
    schema == Some("Schema") && field == "type" && set.contains(&"anyOf")
}

const SCALARS: &[&str] = &[
    "double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32",
    "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes",
];

struct Walk<'d> {
    desc: &'d Descriptor,
    out: Vec<SpecViolation>,
}

impl Walk<'_> {
    fn fail(&mut self, pointer: &str, message: String) {
        self.out.push(SpecViolation::new(pointer, message));
    }

    /// Checks a single (non-repeated, non-map) value of proto type `type_name`, declared in `scope`.
    fn value(&mut self, scope: &str, type_name: &str, value: &Value, pointer: &str) {
        if SCALARS.contains(&type_name) {
            self.scalar(type_name, value, pointer);
            return;
        }
        let Some((full, node)) = self.desc.resolve(scope, type_name) else {
            panic!("provider spec `{SPEC}`: type `{type_name}` does not resolve from `{scope}`");
        };
        if self.well_known(&full, value, pointer) {
            return;
        }
        if let Some(values) = node.get("values").and_then(Value::as_object) {
            match value.as_str() {
                Some(name) if values.contains_key(name) => {}
                _ => {
                    let names: Vec<&str> = values.keys().map(String::as_str).collect();
                    self.fail(
                        pointer,
                        format!(
                            "{} is not a value name of enum `{full}` (one of {})",
                            wire::preview(value),
                            names.join(", ")
                        ),
                    );
                }
            }
            return;
        }
        self.message(&full, node, value, pointer, &[]);
    }

    /// proto3 JSON special forms of `google.protobuf` types; `true` when `full` is one of them.
    fn well_known(&mut self, full: &str, value: &Value, pointer: &str) -> bool {
        let Some(short) = full.strip_prefix("google.protobuf.") else {
            return false;
        };
        let expected = match short {
            "Value" => return true,
            "Struct" => value.is_object().then_some(()).ok_or("an object"),
            "ListValue" => value.is_array().then_some(()).ok_or("an array"),
            "NullValue" => value.is_null().then_some(()).ok_or("null"),
            "Duration" => value
                .as_str()
                .is_some_and(wire::is_duration)
                .then_some(())
                .ok_or("a duration string such as \"1.5s\""),
            "Timestamp" => value.is_string().then_some(()).ok_or("an RFC 3339 timestamp string"),
            "FieldMask" => {
                value.is_string().then_some(()).ok_or("a comma-separated field mask string")
            }
            "Empty" => {
                value.as_object().is_some_and(Map::is_empty).then_some(()).ok_or("an empty object")
            }
            "Any" => value
                .get("@type")
                .is_some_and(Value::is_string)
                .then_some(())
                .ok_or("an object with a string \"@type\""),
            wrapper if wrapper.ends_with("Value") => {
                let scalar = wrapper.trim_end_matches("Value").to_ascii_lowercase();
                self.scalar(&scalar, value, pointer);
                return true;
            }
            _ => return false,
        };
        if let Err(expected) = expected {
            self.fail(
                pointer,
                format!("`{full}` must be {expected}, found {}", wire::preview(value)),
            );
        }
        true
    }

    fn scalar(&mut self, kind: &str, value: &Value, pointer: &str) {
        let ok = match kind {
            "string" => value.is_string(),
            "bool" => value.is_boolean(),
            "bytes" => value.as_str().is_some_and(wire::is_base64),
            "double" | "float" => wire::is_float(value),
            "int32" | "sint32" | "sfixed32" => wire::integral(value)
                .is_some_and(|i| (i128::from(i32::MIN)..=i128::from(i32::MAX)).contains(&i)),
            "uint32" | "fixed32" => {
                wire::integral(value).is_some_and(|i| (0..=i128::from(u32::MAX)).contains(&i))
            }
            "int64" | "sint64" | "sfixed64" => wire::integral_or_decimal_string(value)
                .is_some_and(|i| (i128::from(i64::MIN)..=i128::from(i64::MAX)).contains(&i)),
            "uint64" | "fixed64" => wire::integral_or_decimal_string(value)
                .is_some_and(|i| (0..=i128::from(u64::MAX)).contains(&i)),
            other => panic!("provider spec `{SPEC}`: unknown scalar type `{other}`"),
        };
        if !ok {
            let expected = match kind {
                "string" => "a string",
                "bool" => "a boolean",
                "bytes" => "a base64 string",
                "double" | "float" => "a number",
                "int64" | "sint64" | "sfixed64" | "uint64" | "fixed64" => {
                    "an integer (number or decimal string) in range"
                }
                _ => "an integer number in range",
            };
            self.fail(
                pointer,
                format!("{kind} field must be {expected}, found {}", wire::preview(value)),
            );
        }
    }

    /// Checks a message instance. `url_bound` lists fields exempt from the REQUIRED check.
    fn message(
        &mut self,
        full: &str,
        node: &Value,
        value: &Value,
        pointer: &str,
        url_bound: &[String],
    ) {
        let Some(object) = value.as_object() else {
            self.fail(
                pointer,
                format!("message `{full}` must be a JSON object, found {}", wire::kind(value)),
            );
            return;
        };
        let empty = Map::new();
        let fields = node.get("fields").and_then(Value::as_object).unwrap_or(&empty);
        // Which json field each key sets; unknown keys and duplicates are reported here.
        let mut set: Vec<&str> = Vec::new();
        for (key, item) in object {
            let here = wire::child(pointer, key);
            let found = fields.iter().find(|(json, _)| *json == key || proto_name(json) == *key);
            let Some((json, field)) = found else {
                self.fail(&here, format!("unknown field \"{key}\" in message `{full}`"));
                continue;
            };
            if set.contains(&json.as_str()) {
                self.fail(
                    &here,
                    format!("field `{json}` of `{full}` is set twice (json and proto name)"),
                );
                continue;
            }
            if item.is_null() {
                continue;
            }
            set.push(json);
            self.field(full, field, item, &here);
        }
        for (json, field) in fields {
            let bound = url_bound.iter().any(|b| names_field(b, json));
            let waived = union_type_waived(full, json, &set);
            if is_required(field) && !bound && !waived && !set.contains(&json.as_str()) {
                self.fail(
                    pointer,
                    format!("missing field \"{json}\", REQUIRED in message `{full}`"),
                );
            }
        }
        let oneofs = node.get("oneofs").and_then(Value::as_object);
        for (name, oneof) in oneofs.into_iter().flatten() {
            if name.starts_with('_') {
                continue;
            }
            let members: Vec<&str> = oneof
                .get("oneof")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .filter(|m| set.contains(m))
                .collect();
            if members.len() > 1 {
                self.fail(
                    pointer,
                    format!(
                        "oneof `{name}` of `{full}` allows one member, found {}",
                        members.join(", ")
                    ),
                );
            }
        }
    }

    fn field(&mut self, scope: &str, field: &Value, item: &Value, pointer: &str) {
        let type_name = field
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("provider spec `{SPEC}`: a field of `{scope}` has no type"));
        if let Some(key_type) = field.get("keyType").and_then(Value::as_str) {
            let Some(entries) = item.as_object() else {
                self.fail(
                    pointer,
                    format!("map field must be an object, found {}", wire::kind(item)),
                );
                return;
            };
            for (key, entry) in entries {
                let here = wire::child(pointer, key);
                self.map_key(key_type, key, &here);
                self.value(scope, type_name, entry, &here);
            }
        } else if field.get("rule").and_then(Value::as_str) == Some("repeated") {
            let Some(items) = item.as_array() else {
                self.fail(
                    pointer,
                    format!("repeated field must be an array, found {}", wire::kind(item)),
                );
                return;
            };
            for (i, element) in items.iter().enumerate() {
                self.value(scope, type_name, element, &wire::index(pointer, i));
            }
        } else {
            self.value(scope, type_name, item, pointer);
        }
    }

    fn map_key(&mut self, key_type: &str, key: &str, pointer: &str) {
        let ok = match key_type {
            "string" => true,
            "bool" => key == "true" || key == "false",
            _ => wire::integral_or_decimal_string(&Value::String(key.to_owned())).is_some(),
        };
        if !ok {
            self.fail(pointer, format!("map key \"{key}\" is not a {key_type}"));
        }
    }
}

/// Validates `instance` as the message with full name `message` (e.g.
/// `"google.ai.generativelanguage.v1beta.Tool"`). Fields bound to the URL path of a method taking
/// this message as its request are not required.
///
/// # Panics
/// If the descriptor has no such message.
pub fn validate_message(message: &str, instance: &Value) -> SpecResult {
    let desc = descriptor();
    let node = desc
        .find(message)
        .filter(|node| node.get("fields").is_some())
        .unwrap_or_else(|| panic!("provider spec `{SPEC}` has no message `{message}`"));
    let url_bound = desc.url_bound_fields(message);
    let mut walk = Walk { desc, out: Vec::new() };
    walk.message(message, node, instance, "", &url_bound);
    if walk.out.is_empty() { Ok(()) } else { Err(walk.out) }
}

fn v1beta(name: &str, instance: &Value) -> SpecResult {
    validate_message(&format!("{V1BETA}.{name}"), instance)
}

/// A `tools[]` entry (`v1beta.Tool`, e.g. `{"functionDeclarations": [...]}`).
pub fn validate_tool(instance: &Value) -> SpecResult {
    v1beta("Tool", instance)
}

/// One `functionDeclarations[]` entry (`v1beta.FunctionDeclaration`: `name` and `description`
/// REQUIRED; `parameters` (a `Schema`) or `parametersJsonSchema` (any JSON)).
pub fn validate_function_declaration(instance: &Value) -> SpecResult {
    v1beta("FunctionDeclaration", instance)
}

/// An OpenAPI-style `Schema` (`v1beta.Schema`: `type` REQUIRED as an upper-case enum name unless
/// `anyOf` is set; no `additionalProperties`, `$ref`, `const`, `oneOf`, `allOf`).
pub fn validate_schema(instance: &Value) -> SpecResult {
    v1beta("Schema", instance)
}

/// A `toolConfig` (`v1beta.ToolConfig`, e.g. `{"functionCallingConfig": {"mode": "ANY"}}`).
pub fn validate_tool_config(instance: &Value) -> SpecResult {
    v1beta("ToolConfig", instance)
}

/// A whole `generateContent` body (`v1beta.GenerateContentRequest`; `model` is in the URL).
pub fn validate_generate_content_request(instance: &Value) -> SpecResult {
    v1beta("GenerateContentRequest", instance)
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

    /// Every field type of every message in the v1beta package resolves (or is a scalar), so the
    /// protoc-like lookup never hits the panic path on real data.
    #[test]
    fn every_v1beta_field_type_resolves() {
        fn visit(desc: &Descriptor, full: &str, node: &Value, checked: &mut usize) {
            for field in node.get("fields").and_then(Value::as_object).into_iter().flatten() {
                let type_name = field.1["type"].as_str().expect("field type");
                assert!(
                    SCALARS.contains(&type_name) || desc.resolve(full, type_name).is_some(),
                    "`{type_name}` in `{full}` does not resolve"
                );
                *checked += 1;
            }
            for (name, child) in node.get("nested").and_then(Value::as_object).into_iter().flatten()
            {
                visit(desc, &format!("{full}.{name}"), child, checked);
            }
        }
        let desc = descriptor();
        let mut checked = 0;
        visit(desc, V1BETA, desc.find(V1BETA).expect("v1beta package"), &mut checked);
        assert!(checked > 500, "only {checked} fields seen");
    }

    #[test]
    fn url_bound_fields_come_from_http_templates() {
        let desc = descriptor();
        assert_eq!(desc.url_bound_fields(&format!("{V1BETA}.GenerateContentRequest")), ["model"]);
        assert!(desc.url_bound_fields(&format!("{V1BETA}.Tool")).is_empty());
    }

    #[test]
    fn a_schema_needs_a_type_unless_it_is_a_union() {
        let union = json!({"anyOf": [{"type": "STRING"}, {"type": "INTEGER"}], "nullable": true});
        assert_eq!(validate_schema(&union), Ok(()));
        let typeless = validate_schema(&json!({"description": "anything"})).unwrap_err();
        assert!(typeless[0].to_string().contains("missing field \"type\""), "{typeless:?}");
        let nested = json!({"type": "OBJECT", "properties": {"v": {"nullable": true}}});
        assert!(validate_schema(&nested).is_err());
        let decl = json!({"name": "f", "description": "d", "parameters": {
            "type": "OBJECT",
            "properties": {"v": {"anyOf": [{"type": "STRING"}, {"type": "ARRAY", "items": {"type": "STRING"}}]}},
        }});
        assert_eq!(validate_function_declaration(&decl), Ok(()));
    }

    #[test]
    fn proto_names() {
        assert_eq!(proto_name("parametersJsonSchema"), "parameters_json_schema");
        assert_eq!(proto_name("name"), "name");
    }
}
