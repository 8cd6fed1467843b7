//! The silent-drop check of the real-world run: every keyword of a tool's imported input schema
//! that its rendering lacks at the same place without a report entry that accounts for it.
//!
//! It compares two JSON documents and knows no renderer: [`silent_drops`] takes the exported
//! input, the wire JSON, where the schema sits in it and the rendering's report.

use std::collections::BTreeSet;

use serde_json::{Map, Value};
use tooldef::json_schema::pointer_token;
use tooldef::render::{ChangeKind, Report};

/// Every keyword of `imported` (the IR's own JSON Schema export of the input) that the rendered
/// tool `wire` lacks at the same place, with no report entry at or above its pointer: one line
/// each (`/properties/q/default: not written and not reported`).
///
/// The walk follows properties, items, unions and the other subschema keywords; where a renderer
/// wrapped a schema in `anyOf` (nullable) the variants are searched too, and where it inlined a
/// `$ref` the definition is compared with what was inlined. Values of `required` and `enum` are
/// checked one by one; descriptions only for presence (renderers may append to them).
pub fn silent_drops(
    imported: &Value,
    wire: &Value,
    schema_pointer: &str,
    report: &Report,
) -> Vec<String> {
    let covers: Vec<(&str, &str, ChangeKind)> = report
        .iter()
        .filter_map(|c| {
            let rel = c.pointer.as_str().strip_prefix(schema_pointer)?;
            (rel.is_empty() || rel.starts_with('/')).then_some((rel, c.keyword.as_ref(), c.kind))
        })
        .collect();
    let Some(rendered) = wire.pointer(schema_pointer) else {
        // Gemini sends no schema for a tool without parameters (and reports it when the tool
        // accepted other keys); a schema with properties must be there.
        let has_properties =
            imported.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty());
        return if has_properties {
            vec![format!("{schema_pointer}: the input schema is not written")]
        } else {
            Vec::new()
        };
    };
    let defs = imported.get("$defs").and_then(Value::as_object);
    let reachable = reachable_definitions(imported, defs);
    let mut walk = Walk { covers, defs, reachable, out: Vec::new(), stack: Vec::new() };
    walk.schema(imported, "", &[(rendered, String::new())]);
    walk.out
}

struct Walk<'a> {
    /// (pointer relative to the rendered schema, keyword, kind) of every report entry inside it.
    covers: Vec<(&'a str, &'a str, ChangeKind)>,
    defs: Option<&'a Map<String, Value>>,
    out: Vec<String>,
    /// The definitions the input schema reaches through `$ref`s.
    reachable: BTreeSet<&'a str>,
    /// The definitions being compared through inlined references (recursion stops there).
    stack: Vec<String>,
}

/// The names of the definitions `schema` reaches (outside `$defs`, then through them).
fn reachable_definitions<'a>(
    schema: &'a Value,
    defs: Option<&'a Map<String, Value>>,
) -> BTreeSet<&'a str> {
    fn refs<'a>(v: &'a Value, skip_defs: bool, out: &mut Vec<&'a str>) {
        match v {
            Value::Object(m) => {
                for (k, sub) in m {
                    if k == "$ref" {
                        if let Some(name) = sub.as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
                            out.push(name);
                        }
                    } else if !(skip_defs && k == "$defs") {
                        refs(sub, false, out);
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|i| refs(i, false, out)),
            _ => {}
        }
    }
    let mut todo = Vec::new();
    refs(schema, true, &mut todo);
    let mut seen = BTreeSet::new();
    while let Some(name) = todo.pop() {
        if seen.insert(name)
            && let Some(def) = defs.and_then(|d| d.get(name))
        {
            refs(def, false, &mut todo);
        }
    }
    seen
}

type Candidates<'v> = [(&'v Value, String)];

impl<'a> Walk<'a> {
    /// Whether a report entry accounts for `keyword` missing at `at` (imported pointer) or at
    /// any of the candidates' rendered pointers.
    fn covered(&self, at: &str, keyword: &str, candidates: &Candidates<'_>) -> bool {
        let places = std::iter::once(at).chain(candidates.iter().map(|(_, p)| p.as_str()));
        places.into_iter().any(|place| {
            let full = format!("{place}/{}", pointer_token(keyword));
            self.covers.iter().any(|&(ptr, kw, kind)| {
                ptr == full
                    || (ptr == place && (kw == keyword || kw.is_empty()))
                    || (is_ancestor(ptr, place)
                        && matches!(
                            kind,
                            ChangeKind::Dropped
                                | ChangeKind::Inlined
                                | ChangeKind::Rewritten
                                | ChangeKind::MovedToDescription
                        ))
            })
        })
    }

    fn drop(&mut self, at: &str, keyword: &str, candidates: &Candidates<'_>, what: &str) {
        if !self.covered(at, keyword, candidates) {
            self.out.push(format!("{at}/{}: {what}", pointer_token(keyword)));
        }
    }

    fn schema(&mut self, imported: &Value, at: &str, candidates: &Candidates<'_>) {
        let Some(map) = imported.as_object() else { return };
        let candidates = expand(candidates, map.contains_key("anyOf"));
        for (key, value) in map {
            match key.as_str() {
                "$defs" => self.definitions(value, at, &candidates),
                "$ref" => self.reference(value, at, &candidates),
                _ => self.keyword(key, value, at, &candidates),
            }
        }
    }

    fn keyword(&mut self, key: &str, value: &Value, at: &str, candidates: &Candidates<'_>) {
        // An empty `properties` or `required` says nothing; writing it or not is the same.
        let says_nothing = match value {
            Value::Object(m) => m.is_empty(),
            Value::Array(a) => a.is_empty(),
            _ => false,
        };
        if says_nothing && matches!(key, "properties" | "required") {
            return;
        }
        // `additionalProperties: true` is what its absence means.
        if key == "additionalProperties" && (value == &Value::Bool(true) || says_nothing) {
            return;
        }
        let present: Vec<(&Value, String)> = candidates
            .iter()
            .filter_map(|(node, ptr)| {
                let (found, written) = node.get(key).map(|f| (f, key)).or_else(|| match key {
                    "examples" => node.get("example").map(|f| (f, "examples")),
                    // A `oneOf` written as `anyOf`: lossless when its variants exclude each
                    // other, reported as lossy when they may overlap.
                    "oneOf" => node.get("anyOf").map(|f| (f, "anyOf")),
                    _ => None,
                })?;
                Some((found, format!("{ptr}/{}", pointer_token(written))))
            })
            .collect();
        if present.is_empty() {
            let what = match value {
                Value::Bool(_) | Value::Number(_) | Value::Null => {
                    format!("`{value}` not written and not reported")
                }
                _ => "not written and not reported".to_owned(),
            };
            self.drop(at, key, candidates, &what);
            return;
        }
        let here = format!("{at}/{}", pointer_token(key));
        match key {
            "properties" | "patternProperties" | "dependentSchemas" => {
                let Some(props) = value.as_object() else { return };
                for (name, sub) in props {
                    let token = pointer_token(name);
                    let found: Vec<_> = present
                        .iter()
                        .filter_map(|(node, ptr)| Some((node.get(name)?, format!("{ptr}/{token}"))))
                        .collect();
                    if found.is_empty() {
                        self.drop(&here, name, &present, "a property neither written nor reported");
                    } else {
                        self.schema(sub, &format!("{here}/{token}"), &found);
                    }
                }
            }
            "items"
            | "additionalProperties"
            | "not"
            | "contains"
            | "propertyNames"
            | "if"
            | "then"
            | "else"
            | "unevaluatedProperties"
            | "unevaluatedItems"
                if value.is_object() =>
            {
                let found: Vec<_> =
                    present.iter().filter(|(v, _)| v.is_object()).cloned().collect();
                if found.is_empty() {
                    self.drop(at, key, candidates, "a subschema neither written nor reported");
                } else {
                    self.schema(value, &here, &found);
                }
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                let Some(variants) = value.as_array() else { return };
                // A null variant written as `nullable: true` beside the union (Gemini's OpenAPI
                // form) is not among the written variants, which come one place earlier.
                let folded = key == "anyOf"
                    && candidates
                        .iter()
                        .any(|(n, _)| n.get("nullable") == Some(&Value::Bool(true)))
                    && !present.iter().any(|(written, _)| {
                        written.as_array().is_some_and(|vs| vs.iter().any(is_null_variant))
                    });
                let mut j = 0;
                for (i, sub) in variants.iter().enumerate() {
                    if folded && is_null_variant(sub) {
                        continue;
                    }
                    let found: Vec<_> = present
                        .iter()
                        .filter_map(|(node, ptr)| Some((node.get(j)?, format!("{ptr}/{j}"))))
                        .collect();
                    j += 1;
                    if found.is_empty() {
                        self.drop(
                            &here,
                            &i.to_string(),
                            &present,
                            "a variant neither written nor reported",
                        );
                    } else {
                        self.schema(sub, &format!("{here}/{i}"), &found);
                    }
                }
            }
            "required" | "enum" => {
                let Some(values) = value.as_array() else { return };
                for v in values {
                    let kept = present.iter().any(|(node, _)| {
                        node.as_array().is_some_and(|vs| vs.iter().any(|w| same_value(v, w)))
                    }) || (key == "enum"
                        && v.is_null()
                        && candidates.iter().any(|(n, _)| accepts_null(n)));
                    if !kept {
                        let what = format!("the value {v} neither written nor reported");
                        self.drop(at, key, candidates, &what);
                    }
                }
            }
            _ => {}
        }
    }

    fn definitions(&mut self, value: &Value, at: &str, candidates: &Candidates<'_>) {
        let Some(defs) = value.as_object() else { return };
        let here = format!("{at}/$defs");
        let kept: Vec<_> = candidates
            .iter()
            .filter_map(|(node, ptr)| Some((node.get("$defs")?, format!("{ptr}/$defs"))))
            .collect();
        // A renderer that inlines every reference drops `$defs` whole; each reference is then
        // compared with its definition where it was inlined.
        if kept.is_empty() {
            return;
        }
        for (name, sub) in defs {
            // A definition only the output schema uses is not the input's to keep.
            if !self.reachable.contains(name.as_str()) {
                continue;
            }
            let token = pointer_token(name);
            let found: Vec<_> = kept
                .iter()
                .filter_map(|(node, ptr)| Some((node.get(name)?, format!("{ptr}/{token}"))))
                .collect();
            if found.is_empty() {
                self.drop(&here, name, &kept, "a definition neither written nor reported");
            } else {
                self.schema(sub, &format!("{here}/{token}"), &found);
            }
        }
    }

    fn reference(&mut self, value: &Value, at: &str, candidates: &Candidates<'_>) {
        if candidates.iter().any(|(node, _)| node.get("$ref") == Some(value)) {
            return;
        }
        if !self.covered(at, "$ref", candidates) {
            self.out.push(format!("{at}/$ref: not written and not reported"));
            return;
        }
        // Inlined: compare the definition with what was written in its place.
        let Some(name) = value.as_str().and_then(|r| r.strip_prefix("#/$defs/")) else { return };
        if self.stack.iter().any(|n| n == name) {
            return;
        }
        let Some(def) = self.defs.and_then(|d| d.get(name)) else { return };
        self.stack.push(name.to_owned());
        self.schema(def, at, candidates);
        self.stack.pop();
    }
}

/// The candidates, and the variants of any `anyOf` a renderer added (the imported schema has
/// none here): a nullable schema written as `anyOf: [schema, {"type": "null"}]`.
fn expand<'v>(candidates: &Candidates<'v>, imported_has_any_of: bool) -> Vec<(&'v Value, String)> {
    let mut out = candidates.to_vec();
    if !imported_has_any_of {
        for (node, ptr) in candidates {
            if let Some(variants) = node.get("anyOf").and_then(Value::as_array) {
                out.extend(
                    variants.iter().enumerate().map(|(i, v)| (v, format!("{ptr}/anyOf/{i}"))),
                );
            }
        }
    }
    out
}

/// Whether a schema is the null type alone (`{"type": "null"}`, any case).
fn is_null_variant(v: &Value) -> bool {
    v.as_object().is_some_and(|o| {
        o.len() == 1
            && o.get("type").and_then(Value::as_str).is_some_and(|t| t.eq_ignore_ascii_case("null"))
    })
}

/// Whether a rendered schema (or one of its `anyOf` variants) says null is valid.
fn accepts_null(node: &Value) -> bool {
    let null_type = |n: &Value| match n.get("type") {
        Some(Value::String(t)) => t.eq_ignore_ascii_case("null"),
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        _ => false,
    };
    null_type(node)
        || node.get("nullable") == Some(&Value::Bool(true))
        || node.get("anyOf").and_then(Value::as_array).is_some_and(|vs| vs.iter().any(null_type))
}

fn is_ancestor(ancestor: &str, of: &str) -> bool {
    of == ancestor || of.strip_prefix(ancestor).is_some_and(|rest| rest.starts_with('/'))
}

/// JSON equality, or the same text (a provider that takes string enums only writes `1` as
/// `"1"`).
fn same_value(a: &Value, b: &Value) -> bool {
    a == b
        || match (a, b) {
            (Value::String(s), other @ (Value::Number(_) | Value::Bool(_)))
            | (other @ (Value::Number(_) | Value::Bool(_)), Value::String(s)) => {
                serde_json::from_str::<Value>(s).is_ok_and(|parsed| parsed == *other)
            }
            _ => false,
        }
}
