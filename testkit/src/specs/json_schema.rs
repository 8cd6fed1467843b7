//! Compiling JSON-Schema-based specs (OpenAPI 3.1 documents, MCP schema files) with the
//! `jsonschema` crate, and turning its errors into [`SpecViolation`]s with precise pointers.

use super::{SpecResult, SpecViolation, wire};
use jsonschema::error::ValidationErrorKind;
use jsonschema::{Draft, ValidationError, Validator};
use serde_json::{Map, Value};

/// One compiled root of a spec document.
pub(crate) struct Compiled {
    validator: Validator,
    /// The spec file, named in messages next to the failing keyword's location.
    spec: String,
}

impl Compiled {
    /// Compiles `document` with a root `$ref` to `pointer` (a fragment such as
    /// `#/components/schemas/Tool`). `keep` names the keys of `document` to copy into the compiled
    /// wrapper (all others are dropped, so the compiler never looks at `paths` or `info`).
    ///
    /// # Panics
    /// If the spec does not compile: the spec file is broken, not the instance.
    pub(crate) fn new(
        spec: &str,
        document: &Value,
        keep: &[&str],
        pointer: &str,
        draft: Draft,
    ) -> Self {
        let mut wrapper = Map::new();
        if let Some(dialect) = document.get("$schema") {
            wrapper.insert("$schema".into(), dialect.clone());
        }
        for key in keep {
            let part = document
                .get(*key)
                .unwrap_or_else(|| panic!("provider spec `{spec}` has no `{key}`"));
            wrapper.insert((*key).into(), part.clone());
        }
        wrapper.insert("$ref".into(), Value::String(pointer.into()));
        let wrapper = Value::Object(wrapper);
        let validator = jsonschema::options()
            .with_draft(draft)
            .should_validate_formats(false)
            .build(&wrapper)
            .unwrap_or_else(|e| {
                panic!("provider spec `{spec}` does not compile at `{pointer}`: {e}")
            });
        Self { validator, spec: spec.to_owned() }
    }

    /// Validates `instance`, reporting every error.
    pub(crate) fn check(&self, instance: &Value) -> SpecResult {
        let mut out = Vec::new();
        for error in self.validator.iter_errors(instance) {
            flatten(&error, &self.spec, &mut out);
        }
        if out.is_empty() { Ok(()) } else { Err(out) }
    }
}

/// Rewrites OpenAPI 3.0 `nullable: true` leftovers into JSON Schema 2020-12 (see the specs README):
/// `{"type": T, "nullable": true}` becomes `{"type": [T, "null"]}` (an `enum` also gains `null`), a
/// type-less one becomes `{"anyOf": [<it>, {"type": "null"}]}`.
pub(crate) fn rewrite_nullable(value: &mut Value) {
    match value {
        Value::Array(items) => items.iter_mut().for_each(rewrite_nullable),
        Value::Object(map) => {
            map.values_mut().for_each(rewrite_nullable);
            if map.get("nullable") != Some(&Value::Bool(true)) {
                return;
            }
            map.remove("nullable");
            if let Some(Value::Array(values)) = map.get_mut("enum")
                && !values.contains(&Value::Null)
            {
                values.push(Value::Null);
            }
            match map.get_mut("type") {
                Some(Value::String(t)) => {
                    let t = std::mem::take(t);
                    map.insert("type".into(), serde_json::json!([t, "null"]));
                }
                Some(Value::Array(types)) => {
                    if !types.iter().any(|t| t == "null") {
                        types.push("null".into());
                    }
                }
                _ => {
                    let inner = Value::Object(std::mem::take(map));
                    map.insert("anyOf".into(), serde_json::json!([inner, {"type": "null"}]));
                }
            }
        }
        _ => {}
    }
}

/// Turns one `jsonschema` error into violations. A failed `oneOf`/`anyOf` is looked into: branches
/// that the instance rules out at once (wrong type, or a `const`/`enum` mismatch on a direct member
/// such as a `type` discriminator) are dropped, and if exactly one branch is left its errors are
/// reported instead, so the pointer lands on the real fault.
fn flatten(error: &ValidationError<'_>, spec: &str, out: &mut Vec<SpecViolation>) {
    let pointer = error.instance_path().as_str().to_owned();
    let branches = match error.kind() {
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            Some(context)
        }
        _ => None,
    };
    if let Some(branches) = branches {
        let keyword = error.kind().keyword();
        let plausible: Vec<&Vec<ValidationError<'static>>> = branches
            .iter()
            .filter(|errors| !errors.iter().any(|e| rules_out(e, &pointer)))
            .collect();
        if let [only] = plausible.as_slice() {
            for inner in only.iter() {
                flatten(inner, spec, out);
            }
            return;
        }
        // Say why each alternative failed, by its first error.
        let reasons: Vec<String> = branches
            .iter()
            .enumerate()
            .filter_map(|(i, errors)| {
                let first = errors.first()?;
                let at = first.instance_path().as_str();
                let at = if at == pointer { String::new() } else { format!(" at {at}") };
                Some(format!("[{i}]{at}: {}", short(&first.to_string())))
            })
            .collect();
        out.push(SpecViolation::new(
            pointer,
            format!(
                "{} matches none of the {} alternatives of `{keyword}` ({spec}#{}): {}",
                wire::preview(error.instance()),
                branches.len(),
                error.schema_path(),
                reasons.join("; ")
            ),
        ));
        return;
    }
    out.push(SpecViolation::new(
        pointer,
        format!("{} ({spec}#{})", short(&error.to_string()), error.schema_path()),
    ));
}

/// Whether `error` shows that a `oneOf`/`anyOf` branch cannot be the one meant for the instance at
/// `base`.
fn rules_out(error: &ValidationError<'_>, base: &str) -> bool {
    let path = error.instance_path().as_str();
    match error.kind() {
        ValidationErrorKind::Type { .. } => path == base,
        ValidationErrorKind::Constant { .. } | ValidationErrorKind::Enum { .. } => path
            .strip_prefix(base)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|rest| !rest.contains('/')),
        _ => false,
    }
}

/// Cuts a long message (the crate quotes whole instances) to a readable length.
fn short(message: &str) -> String {
    const MAX: usize = 240;
    if message.chars().count() <= MAX {
        message.to_owned()
    } else {
        let cut: String = message.chars().take(MAX).collect();
        format!("{cut}…")
    }
}
