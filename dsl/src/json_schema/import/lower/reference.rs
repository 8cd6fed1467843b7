//! `$ref`: resolving a local reference to a definition name, and finding the definition names
//! that schemas and verbatim JSON refer to.
//!
//! A `$ref` may point at any place of its document (a JSON pointer in the URI fragment), not
//! only into `$defs` or `definitions`: published servers refer to another property's schema
//! (`#/properties/contents/items`), recursion included. Such a place is lifted into a
//! definition of its own, read once however many `$ref`s point at it (from the place itself,
//! so that its notes and errors keep their pointers), and the references become references to
//! it. Its name is the root's definition name (`Input`, `Root`) and the pointer's steps
//! without `properties`, `$defs` and `definitions` (`Input_contents_items`), with a numeric
//! suffix when that is taken: deterministic, and never one of the document's own names.
//! Each place is read once and counts toward the tool's node limit, so chains and cycles of
//! references cost at most what the document holds.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::schema;
use crate::descriptor::Definition;
use crate::json_schema::import::context::{Cx, Lifted};
use crate::json_schema::import::read::{Kw, Node};
use crate::json_schema::imported::{ImportError, ImportErrorKind, ImportNote, unsupported, wrong};
use crate::json_schema::keyword::is_constraint;
use crate::json_schema::refs::percent_decode;
use crate::pointer::JsonPointer;
use crate::schema::Schema;

/// Where a local `$ref` points.
pub(in crate::json_schema::import) enum Located {
    /// `#`: the document root.
    Root,
    /// `#/$defs/<name>` or `#/definitions/<name>` of a definition the document has.
    Table(String),
    /// Any other place, by the pointer's unescaped steps.
    Pointer(Vec<String>),
}

/// The value at `steps` under the document `root`, by JSON pointer rules (an array index is
/// digits without a leading zero).
pub(in crate::json_schema::import) fn place<'v>(
    root: &'v Map<String, Value>,
    steps: &[String],
) -> Option<&'v Value> {
    let (first, rest) = steps.split_first()?;
    rest.iter().try_fold(root.get(first)?, |v, step| match v {
        Value::Object(m) => m.get(step),
        Value::Array(items) => {
            let canonical = step == "0" || (!step.starts_with('0') && !step.is_empty());
            let i: usize = step.parse().ok().filter(|_| canonical)?;
            items.get(i)
        }
        _ => None,
    })
}

pub(in crate::json_schema::import) fn find_def<'v>(
    root: &'v Map<String, Value>,
    target: &str,
    name: &str,
) -> Option<(JsonPointer, &'v Value)> {
    let table = if target.starts_with("#/definitions/") { "definitions" } else { "$defs" };
    let v = root.get(table)?.as_object()?.get(name)?;
    Some((JsonPointer::from_segments([table, name]), v))
}

/// Where the local `$ref` `target` (at `ptr`) points.
pub(in crate::json_schema::import) fn locate(
    cx: &Cx,
    target: &str,
    ptr: &JsonPointer,
) -> Result<Located, ImportError> {
    let Some(fragment) = target.strip_prefix('#') else {
        return Err(unsupported(ptr, "$ref", format!("`{target}` is not a local reference")));
    };
    if fragment.is_empty() {
        return Ok(Located::Root);
    }
    let decoded = percent_decode(fragment).ok_or_else(|| {
        unsupported(ptr, "$ref", format!("`{target}` is not a valid URI fragment"))
    })?;
    let Some(pointer) = decoded.strip_prefix('/') else {
        return Err(unsupported(
            ptr,
            "$ref",
            format!("`{target}` is neither `#` nor a JSON pointer (`#/...`)"),
        ));
    };
    let steps: Vec<String> =
        pointer.split('/').map(|t| crate::pointer::unescape(t).into_owned()).collect();
    let dangling =
        || ImportError::at(ptr, ImportErrorKind::DanglingRef { target: target.to_owned() });
    match steps.as_slice() {
        [table, name] if table == "$defs" => {
            if cx.defs_2020.contains(name) {
                Ok(Located::Table(name.clone()))
            } else {
                Err(dangling())
            }
        }
        [table, name] if table == "definitions" => {
            if cx.defs_07.contains(name) {
                Ok(Located::Table(name.clone()))
            } else {
                Err(dangling())
            }
        }
        _ => Ok(Located::Pointer(steps)),
    }
}

/// Resolves a `$ref` to a definition name: the root's copy, a definition of the document,
/// or the definition lifted from the place it points at (see the module docs).
fn resolve(cx: &mut Cx, target: &str, ptr: &JsonPointer) -> Result<String, ImportError> {
    match locate(cx, target, ptr)? {
        Located::Root => {
            cx.root_used = true;
            let name = cx.root_name.clone();
            cx.note(ptr, "$ref", format!("`#` (the root) became a reference to `{name}`"));
            Ok(name)
        }
        Located::Table(name) => Ok(name),
        Located::Pointer(steps) => Ok(lift(cx, steps, target, ptr)),
    }
}

/// The definition name of the place at `steps`, lifted the first time a `$ref` points
/// there; it is read with the document's definitions.
fn lift(cx: &mut Cx, steps: Vec<String>, target: &str, ptr: &JsonPointer) -> String {
    let pointer = JsonPointer::from_segments(&steps);
    let name = match cx.lifted.at.get(pointer.as_str()) {
        Some(name) => name.clone(),
        None => {
            let name = lifted_name(cx, &steps);
            cx.lifted.at.insert(pointer.as_str().to_owned(), name.clone());
            let first_ref = (ptr.clone(), target.to_owned());
            cx.lifted.by_name.insert(name.clone(), Lifted { pointer, steps, first_ref });
            name
        }
    };
    cx.note(
        ptr,
        "$ref",
        format!(
            "`{target}` became a reference to `{name}`, a definition that holds what it points at"
        ),
    );
    name
}

/// A definition name for the place at `steps` that the document and the places lifted
/// before do not use.
fn lifted_name(cx: &mut Cx, steps: &[String]) -> String {
    const MAX_CHARS: usize = 48;
    let structural = |s: &&String| !matches!(s.as_str(), "properties" | "$defs" | "definitions");
    let mut kept: Vec<&String> = steps.iter().filter(structural).collect();
    if kept.is_empty() {
        kept = steps.iter().collect();
    }
    let mut base = cx.root_name.clone();
    for step in kept {
        base.push('_');
        base.extend(
            step.chars()
                .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }),
        );
    }
    if base.len() > MAX_CHARS {
        base.truncate(MAX_CHARS);
    }
    let taken = |name: &str| {
        name == cx.root_name
            || cx.defs_2020.contains(name)
            || cx.defs_07.contains(name)
            || cx.lifted.by_name.contains_key(name)
    };
    let mut n = cx.lifted.suffixes.get(&base).copied().unwrap_or(1);
    let mut name = if n == 1 { base.clone() } else { format!("{base}_{n}") };
    while taken(&name) {
        n += 1;
        name = format!("{base}_{n}");
    }
    cx.lifted.suffixes.insert(base, n);
    name
}

/// Reads the places lifted into definitions, those that reading them lifts included,
/// appending them to `out` (a place that cannot be read fails the import only when
/// something refers to it, like a definition of the document).
///
/// # Errors
///
/// A `$ref` whose place the document does not have, or the tool's node limit.
pub(in crate::json_schema::import) fn lifted_definitions(
    cx: &mut Cx,
    root: &Map<String, Value>,
    out: &mut Vec<Definition>,
) -> Result<(), ImportError> {
    if cx.lifted.by_name.is_empty() {
        return Ok(());
    }
    // A place read where it stands is read again here: what it notes was noted then.
    let earlier = std::mem::take(&mut cx.notes);
    let mut i = 0;
    let mut result = Ok(());
    while let Some((name, lifted)) = cx.lifted.by_name.get_index(i) {
        let (name, lifted) = (name.clone(), lifted.clone());
        i += 1;
        let Some(value) = place(root, &lifted.steps) else {
            let (at, target) = lifted.first_ref;
            result = Err(ImportError::at(&at, ImportErrorKind::DanglingRef { target }));
            break;
        };
        match schema(cx, value, &lifted.pointer, 1) {
            Ok(schema) => out.push(Definition::named(name, schema)),
            Err(e) if e.kind == ImportErrorKind::TooManyNodes => {
                result = Err(e);
                break;
            }
            // Already among the problems of the properties, where it stands.
            Err(e) if cx.errors.contains(&e) => {}
            Err(e) => cx.failed_defs.push((name, e)),
        }
    }
    let again = std::mem::replace(&mut cx.notes, earlier);
    let seen: HashSet<&ImportNote> = cx.notes.iter().collect();
    let fresh: Vec<ImportNote> = again.into_iter().filter(|n| !seen.contains(n)).collect();
    cx.notes.extend(fresh);
    result
}
/// A `$ref`, as a reference to the definition it points at (see the module docs).
pub(super) fn reference(cx: &mut Cx, node: &Node<'_>, r: &Kw<'_>) -> Result<Schema, ImportError> {
    let beside = "constraints beside `$ref` cannot be expressed";
    if let Some((k, kw)) = node.kws.iter().find(|(k, _)| is_constraint(k) && **k != "$ref") {
        return Err(unsupported(&kw.ptr, k, beside));
    }
    if let Some(p) = node.props.as_ref().and_then(|p| p.first()) {
        return Err(unsupported(&p.ptr, "properties", beside));
    }
    if let Some(req) = node.required.as_ref().and_then(|r| r.first()) {
        return Err(unsupported(&req.ptr, "required", beside));
    }
    let Value::String(target) = &*r.value else {
        return Err(wrong(&r.ptr, "$ref", "a string", &r.value));
    };
    let name = resolve(cx, target, &r.ptr)?;
    Ok(Schema::reference_to(name))
}
