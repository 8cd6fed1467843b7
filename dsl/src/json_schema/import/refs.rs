//! `$ref`: resolving a local reference to a definition name, and finding the definition names
//! that schemas and verbatim JSON refer to.

use serde_json::{Map, Value};

use super::Importer;
use crate::json_schema::export::definition_ref;
use crate::json_schema::imported::{ImportError, ImportErrorKind, child, unsupported, wrong};
use crate::json_schema::keywords::is_constraint;
use crate::json_schema::view::{Kw, View};
use crate::schema::{Additional, Schema, SchemaKind};

pub(super) fn find_def<'v>(
    root: &'v Map<String, Value>,
    target: &str,
    name: &str,
) -> Option<(String, &'v Value)> {
    let table = if target.starts_with("#/definitions/") { "definitions" } else { "$defs" };
    let v = root.get(table)?.as_object()?.get(name)?;
    Some((child(&child("", table), name), v))
}

/// The definition names `s` refers to, kept keywords included.
pub(super) fn refs_of(s: &Schema, out: &mut Vec<String>) {
    let mut todo = vec![s];
    while let Some(s) = todo.pop() {
        for k in &s.kept {
            json_refs(&k.value, out);
        }
        match &s.kind {
            SchemaKind::Ref(r) => out.push(r.name.to_string()),
            SchemaKind::List(l) => todo.push(l.items.get()),
            SchemaKind::Object(o) => {
                todo.extend(o.properties.iter().map(|p| &p.schema));
                if let Additional::Typed(t) = &o.additional {
                    todo.push(t.get());
                }
            }
            SchemaKind::AnyOf(a) => todo.extend(a.variants.iter()),
            _ => {}
        }
    }
}

/// Points the draft-07 `#/definitions/X` references inside a kept value at `#/$defs/X`, where
/// export writes every definition.
pub(super) fn retarget_refs(v: &mut Value) {
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get_mut("$ref")
                    && r.starts_with("#/definitions/")
                    && let Some(name) = local_def_name(r)
                {
                    *r = definition_ref(&name);
                }
                todo.extend(m.values_mut());
            }
            Value::Array(a) => todo.extend(a.iter_mut()),
            _ => {}
        }
    }
}

/// The definition names the `$ref`s inside a verbatim JSON value point at.
pub(crate) fn json_refs(v: &Value, out: &mut Vec<String>) {
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref")
                    && let Some(name) = local_def_name(r)
                {
                    out.push(name);
                }
                todo.extend(m.values());
            }
            Value::Array(a) => todo.extend(a.iter()),
            _ => {}
        }
    }
}

/// The definition name of `#/$defs/X` or `#/definitions/X`.
fn local_def_name(target: &str) -> Option<String> {
    let decoded = percent_decode(target.strip_prefix('#')?)?;
    let rest = decoded.strip_prefix("/$defs/").or_else(|| decoded.strip_prefix("/definitions/"))?;
    (!rest.contains('/')).then(|| crate::pointer::unescape(rest).into_owned())
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

impl Importer {
    /// Resolves a `$ref` to a definition name.
    pub(super) fn resolve(&mut self, target: &str, ptr: &str) -> Result<String, ImportError> {
        let Some(fragment) = target.strip_prefix('#') else {
            return Err(unsupported(ptr, "$ref", format!("`{target}` is not a local reference")));
        };
        if fragment.is_empty() {
            self.root_used = true;
            let name = self.root_name.clone();
            self.note(ptr, "$ref", format!("`#` (the root) became a reference to `{name}`"));
            return Ok(name);
        }
        let decoded = percent_decode(fragment).ok_or_else(|| {
            unsupported(ptr, "$ref", format!("`{target}` is not a valid URI fragment"))
        })?;
        let tokens: Vec<String> = decoded
            .strip_prefix('/')
            .map(|p| p.split('/').map(|t| crate::pointer::unescape(t).into_owned()).collect())
            .unwrap_or_default();
        let dangling =
            || ImportError::at(ptr, ImportErrorKind::DanglingRef { target: target.to_owned() });
        match tokens.as_slice() {
            [table, name] if table == "$defs" => {
                if self.defs_2020.contains(name) {
                    Ok(name.clone())
                } else {
                    Err(dangling())
                }
            }
            [table, name] if table == "definitions" => {
                if self.defs_07.contains(name) {
                    Ok(name.clone())
                } else {
                    Err(dangling())
                }
            }
            _ => Err(unsupported(
                ptr,
                "$ref",
                format!("`{target}` does not point at `#/$defs/<name>` or `#/definitions/<name>`"),
            )),
        }
    }
    pub(super) fn reference(&mut self, view: &View<'_>, r: &Kw<'_>) -> Result<Schema, ImportError> {
        if let Some((k, kw)) = view.kws.iter().find(|(k, _)| is_constraint(k) && **k != "$ref") {
            return Err(unsupported(&kw.ptr, k, "constraints beside `$ref` cannot be expressed"));
        }
        if let Some(p) = view.props.as_ref().and_then(|p| p.first()) {
            return Err(unsupported(
                &p.2,
                "properties",
                "constraints beside `$ref` cannot be expressed",
            ));
        }
        if let Some((_, p)) = view.required.as_ref().and_then(|r| r.first()) {
            return Err(unsupported(
                p,
                "required",
                "constraints beside `$ref` cannot be expressed",
            ));
        }
        let Value::String(target) = &*r.value else {
            return Err(wrong(&r.ptr, "$ref", "a string", &r.value));
        };
        let name = self.resolve(target, &r.ptr)?;
        Ok(Schema::reference_to(name))
    }
}
