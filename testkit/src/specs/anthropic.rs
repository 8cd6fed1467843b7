//! Anthropic Messages API tools. **Anthropic publishes no machine-readable specification** in any
//! public repository or package (see the specs README), so this validator is *derived from the
//! published SDK types*, not from an official schema: `ToolParam` / `InputSchema` in
//! `anthropic/types/tool_param.py`, `ToolChoiceParam` in `tool_choice_param.py` (PyPI `anthropic`).
//!
//! `ToolParam`: `name` (matching `^[a-zA-Z0-9_-]{1,128}$`) and `input_schema` are required;
//! `input_schema` is an object whose `type` is required and `"object"`, with optional `properties`
//! (an object) and `required` (an array of strings) and any other JSON Schema keys; optional
//! `description` (string), `strict`, `defer_loading`, `eager_input_streaming` (booleans),
//! `cache_control` (`{"type": "ephemeral", "ttl"?: "5m" | "1h"}`), `input_examples` (array of
//! objects), `allowed_callers` (array of strings), and `type` (`"custom"` or null). Other top-level
//! keys are rejected, as the API rejects extra inputs. The hosted tool-search tools and the
//! `tool_reference` blocks answering a client-side search are derived the same way (PyPI
//! `anthropic`, `tool_search_tool_regex_20251119_param.py`, `tool_search_tool_bm25_20251119_param.py`,
//! `tool_reference_block_param.py`). Optional fields may be `null` where the SDK
//! types allow `None` (`type`, `strict`, `eager_input_streaming`, `cache_control`).

use super::{SpecResult, SpecViolation, wire};
use serde_json::{Map, Value};

/// Where the shape comes from, for reports: not an official schema.
pub const SOURCE: &str = "Anthropic SDK types (anthropic/types/tool_param.py), no official schema";

/// Whether `name` matches `^[a-zA-Z0-9_-]{1,128}$`.
fn valid_name(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

struct Walk {
    out: Vec<SpecViolation>,
}

impl Walk {
    fn fail(&mut self, pointer: &str, message: String) {
        self.out.push(SpecViolation::new(pointer, message));
    }

    fn expect(&mut self, ok: bool, pointer: &str, what: &str, value: &Value) {
        if !ok {
            self.fail(
                pointer,
                format!("expected {what}, found {} ({SOURCE})", wire::preview(value)),
            );
        }
    }

    fn tool(&mut self, value: &Value) {
        let Some(tool) = value.as_object() else {
            return self.expect(false, "", "a tool object", value);
        };
        for (key, item) in tool {
            let here = wire::child("", key);
            match key.as_str() {
                "name" => match item.as_str() {
                    Some(name) => self.expect(
                        valid_name(name),
                        &here,
                        "a name matching ^[a-zA-Z0-9_-]{1,128}$",
                        item,
                    ),
                    None => self.expect(false, &here, "a string", item),
                },
                "input_schema" => self.input_schema(item, &here),
                "description" => self.expect(item.is_string(), &here, "a string", item),
                "defer_loading" => self.expect(item.is_boolean(), &here, "a boolean", item),
                "strict" | "eager_input_streaming" => {
                    self.expect(
                        item.is_boolean() || item.is_null(),
                        &here,
                        "a boolean or null",
                        item,
                    );
                }
                "type" => self.expect(
                    item.is_null() || item == "custom",
                    &here,
                    "\"custom\" or null",
                    item,
                ),
                "cache_control" => {
                    if !item.is_null() {
                        self.cache_control(item, &here);
                    }
                }
                "input_examples" => match item.as_array() {
                    Some(examples) => {
                        for (i, example) in examples.iter().enumerate() {
                            self.expect(
                                example.is_object(),
                                &wire::index(&here, i),
                                "an object",
                                example,
                            );
                        }
                    }
                    None => self.expect(false, &here, "an array of objects", item),
                },
                "allowed_callers" => match item.as_array() {
                    Some(callers) => {
                        for (i, caller) in callers.iter().enumerate() {
                            self.expect(
                                caller.is_string(),
                                &wire::index(&here, i),
                                "a string",
                                caller,
                            );
                        }
                    }
                    None => self.expect(false, &here, "an array of strings", item),
                },
                other => self.fail(&here, format!("unknown tool key \"{other}\" ({SOURCE})")),
            }
        }
        for required in ["name", "input_schema"] {
            if !tool.contains_key(required) {
                self.fail("", format!("missing required key \"{required}\" ({SOURCE})"));
            }
        }
    }

    fn input_schema(&mut self, value: &Value, pointer: &str) {
        let Some(schema) = value.as_object() else {
            return self.expect(false, pointer, "an object", value);
        };
        match schema.get("type") {
            None => {
                self.fail(pointer, format!("input_schema needs \"type\": \"object\" ({SOURCE})"))
            }
            Some(t) => self.expect(t == "object", &wire::child(pointer, "type"), "\"object\"", t),
        }
        if let Some(properties) = schema.get("properties") {
            let ok = properties.is_object() || properties.is_null();
            self.expect(ok, &wire::child(pointer, "properties"), "an object or null", properties);
        }
        if let Some(required) = schema.get("required") {
            let ok = required.is_null()
                || required.as_array().is_some_and(|names| names.iter().all(Value::is_string));
            self.expect(
                ok,
                &wire::child(pointer, "required"),
                "an array of strings or null",
                required,
            );
        }
    }

    fn cache_control(&mut self, value: &Value, pointer: &str) {
        let Some(control) = value.as_object() else {
            return self.expect(false, pointer, "an object", value);
        };
        self.known_keys(control, &["type", "ttl"], pointer);
        match control.get("type") {
            Some(t) => {
                self.expect(t == "ephemeral", &wire::child(pointer, "type"), "\"ephemeral\"", t)
            }
            None => self.fail(pointer, format!("cache_control needs \"type\" ({SOURCE})")),
        }
        if let Some(ttl) = control.get("ttl") {
            self.expect(
                ttl == "5m" || ttl == "1h",
                &wire::child(pointer, "ttl"),
                "\"5m\" or \"1h\"",
                ttl,
            );
        }
    }

    fn known_keys(&mut self, object: &Map<String, Value>, known: &[&str], pointer: &str) {
        for key in object.keys().filter(|k| !known.contains(&k.as_str())) {
            self.fail(&wire::child(pointer, key), format!("unknown key \"{key}\" ({SOURCE})"));
        }
    }

    fn tool_choice(&mut self, value: &Value) {
        let Some(choice) = value.as_object() else {
            return self.expect(false, "", "a tool_choice object", value);
        };
        let kind = choice.get("type").and_then(Value::as_str);
        let known: &[&str] = match kind {
            Some("auto" | "any") => &["type", "disable_parallel_tool_use"],
            Some("tool") => &["type", "name", "disable_parallel_tool_use"],
            Some("none") => &["type"],
            _ => {
                let found = choice.get("type").unwrap_or(&Value::Null);
                return self.expect(
                    false,
                    "/type",
                    "one of \"auto\", \"any\", \"tool\", \"none\"",
                    found,
                );
            }
        };
        self.known_keys(choice, known, "");
        if let Some(flag) = choice.get("disable_parallel_tool_use") {
            self.expect(flag.is_boolean(), "/disable_parallel_tool_use", "a boolean", flag);
        }
        if kind == Some("tool") {
            match choice.get("name") {
                Some(name) => self.expect(name.is_string(), "/name", "a string", name),
                None => {
                    self.fail("", format!("tool_choice of type \"tool\" needs \"name\" ({SOURCE})"))
                }
            }
        }
    }
}

fn finish(walk: Walk) -> SpecResult {
    if walk.out.is_empty() { Ok(()) } else { Err(walk.out) }
}

/// A `tools[]` entry for a custom (client) tool: the SDK's `ToolParam`.
pub fn validate_tool(instance: &Value) -> SpecResult {
    let mut walk = Walk { out: Vec::new() };
    walk.tool(instance);
    finish(walk)
}

/// A `tools[]` entry of any kind tooldef writes: a hosted tool-search tool (the SDK's
/// `ToolSearchToolRegex20251119Param` and `ToolSearchToolBm25_20251119Param`: `name` and
/// `type` required literals; optional `allowed_callers`, `cache_control`, `defer_loading`,
/// `strict`) or else a custom tool ([`validate_tool`]).
pub fn validate_tools_entry(instance: &Value) -> SpecResult {
    let kind = instance.get("type").and_then(Value::as_str);
    let search = match kind {
        Some("tool_search_tool_regex_20251119" | "tool_search_tool_regex") => {
            Some("tool_search_tool_regex")
        }
        Some("tool_search_tool_bm25_20251119" | "tool_search_tool_bm25") => {
            Some("tool_search_tool_bm25")
        }
        _ => None,
    };
    let Some(name) = search else { return validate_tool(instance) };
    let mut walk = Walk { out: Vec::new() };
    let Some(tool) = instance.as_object() else { return validate_tool(instance) };
    walk.known_keys(
        tool,
        &["name", "type", "allowed_callers", "cache_control", "defer_loading", "strict"],
        "",
    );
    match tool.get("name") {
        Some(n) => walk.expect(n == name, "/name", &format!("\"{name}\""), n),
        None => walk.fail("", format!("missing required key \"name\" ({SOURCE})")),
    }
    for flag in ["defer_loading", "strict"] {
        if let Some(v) = tool.get(flag) {
            walk.expect(v.is_boolean(), &wire::child("", flag), "a boolean", v);
        }
    }
    if let Some(c) = tool.get("cache_control")
        && !c.is_null()
    {
        walk.cache_control(c, "/cache_control");
    }
    finish(walk)
}

/// A `tool_result` block answering a client-side tool search: `tool_use_id` and `type` required,
/// `content` an array of the SDK's `ToolReferenceBlockParam` (`{"type": "tool_reference",
/// "tool_name", "cache_control"?}`), the names at most 64 characters (the API's limit on a
/// reference, see `PROVIDERS.md`).
pub fn validate_tool_reference_result(instance: &Value) -> SpecResult {
    let mut walk = Walk { out: Vec::new() };
    let Some(block) = instance.as_object() else {
        walk.expect(false, "", "a tool_result block", instance);
        return finish(walk);
    };
    walk.known_keys(block, &["type", "tool_use_id", "content", "cache_control", "is_error"], "");
    match block.get("type") {
        Some(t) => walk.expect(t == "tool_result", "/type", "\"tool_result\"", t),
        None => walk.fail("", format!("missing required key \"type\" ({SOURCE})")),
    }
    match block.get("tool_use_id") {
        Some(id) => walk.expect(id.is_string(), "/tool_use_id", "a string", id),
        None => walk.fail("", format!("missing required key \"tool_use_id\" ({SOURCE})")),
    }
    if let Some(content) = block.get("content") {
        match content.as_array() {
            Some(items) => {
                for (i, item) in items.iter().enumerate() {
                    let here = wire::index("/content", i);
                    let Some(reference) = item.as_object() else {
                        walk.expect(false, &here, "a tool_reference block", item);
                        continue;
                    };
                    walk.known_keys(reference, &["type", "tool_name", "cache_control"], &here);
                    let kind = reference.get("type").unwrap_or(&Value::Null);
                    walk.expect(kind == "tool_reference", &here, "\"tool_reference\"", kind);
                    let name = reference.get("tool_name").unwrap_or(&Value::Null);
                    let ok = name.as_str().is_some_and(|n| (1..=64).contains(&n.chars().count()));
                    walk.expect(ok, &here, "a tool_name of 1 to 64 characters", name);
                }
            }
            None => walk.expect(false, "/content", "an array", content),
        }
    }
    finish(walk)
}

/// A `tool_choice` value: the SDK's `ToolChoiceParam` (`auto`, `any`, `tool` with `name`, `none`).
pub fn validate_tool_choice(instance: &Value) -> SpecResult {
    let mut walk = Walk { out: Vec::new() };
    walk.tool_choice(instance);
    finish(walk)
}
