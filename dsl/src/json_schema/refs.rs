//! Every `$ref` helper, for export and import alike: the `$ref` that points at a definition,
//! the definition names a schema or a verbatim JSON value refers to, and the local `$ref`
//! fragment read back into a definition name.
//!
//! Export and import both depend on this file and neither depends on the other.

use serde_json::Value;

use crate::schema::{Additional, Schema, SchemaKind};

/// The `$ref` value that points at definition `name` (`#/$defs/` and the escaped name).
pub fn definition_ref(name: &str) -> String {
    let mut out = String::from("#/$defs/");
    crate::pointer::fragment_segment_into(&mut out, name);
    out
}

/// Appends the definition names `schema` refers to, those inside kept keywords included.
/// Iterative, so that a deep schema built at run time cannot overflow the stack here.
pub(crate) fn refs_of(schema: &Schema, out: &mut Vec<String>) {
    let mut todo = vec![schema];
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

/// Appends the definition names the `$ref`s inside a verbatim JSON value point at.
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

/// Points the draft-07 `#/definitions/X` references inside a kept value at `#/$defs/X`, where
/// export writes every definition.
pub(crate) fn retarget_refs(v: &mut Value) {
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

/// The definition name of `#/$defs/X` or `#/definitions/X`.
fn local_def_name(target: &str) -> Option<String> {
    let decoded = percent_decode(target.strip_prefix('#')?)?;
    let rest = decoded.strip_prefix("/$defs/").or_else(|| decoded.strip_prefix("/definitions/"))?;
    (!rest.contains('/')).then(|| crate::pointer::unescape(rest).into_owned())
}

/// A URI fragment with its `%XX` escapes decoded; `None` when an escape is malformed or the
/// result is not UTF-8.
pub(crate) fn percent_decode(s: &str) -> Option<String> {
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
