//! The lower stage: a [`Node`] lowered into the IR's [`Schema`], one file per kind.
//!
//! | file | lowers |
//! | --- | --- |
//! | `mod.rs` | one schema: which kind its keywords say, and the `type` dispatch |
//! | `number.rs` | integers and numbers: `minimum`, `maximum`, their exclusive forms, `multipleOf` |
//! | `string.rs` | strings: `format`, `pattern`, `minLength`, `maxLength` |
//! | `list.rs` | arrays: `items`, `minItems`, `maxItems`, `uniqueItems` |
//! | `object.rs` | objects: `properties`, `required`, `additionalProperties` |
//! | `union.rs` | `anyOf` and `oneOf` |
//! | `enums.rs` | `enum` and `const` |
//! | `reference.rs` | `$ref`, and the places of the document it points at |
//! | `annotations.rs` | `title`, `description`, `default`, `examples` |
//! | `kept.rs` | keywords outside the typed IR: dropped with a note, or kept verbatim |

pub(super) mod annotations;
pub(super) mod enums;
mod kept;
mod list;
mod number;
pub(super) mod object;
pub(super) mod reference;
mod string;
pub(super) mod union;

use std::borrow::Cow;

use serde_json::Value;

use super::context::Cx;
use super::read::{Node, read_node};
use crate::descriptor_rules::MAX_DEPTH;
use crate::json_schema::imported::{ImportError, ImportErrorKind, unsupported, wrong};
use crate::json_schema::keyword::{Family, family_of};
use crate::pointer::JsonPointer;
use crate::schema::{ObjectSchema, Schema, SchemaKind};
use annotations::{annotations, merge_annotations, whole};
pub(super) use kept::{check_keywords, drop_foreign, kept};

/// Reads and lowers the schema `value` at `ptr`, `depth` schemas below the root.
pub(super) fn schema(
    cx: &mut Cx,
    value: &Value,
    ptr: &JsonPointer,
    depth: usize,
) -> Result<Schema, ImportError> {
    if depth > MAX_DEPTH {
        return Err(ImportError::at(ptr, ImportErrorKind::TooDeep));
    }
    cx.count_nodes(1, ptr)?;
    let map = match value {
        Value::Object(m) => m,
        Value::Bool(true) => return Ok(Schema::any()),
        Value::Bool(false) => {
            return Err(unsupported(ptr, "false", "a schema that accepts nothing has no IR kind"));
        }
        other => return Err(wrong(ptr, "schema", "an object", other)),
    };
    let node = read_node(cx, map, ptr)?;
    schema_of_node(cx, &node, depth)
}

/// Lowers a node read already: by `$ref`, `anyOf`/`oneOf`, `enum`/`const`, else by `type`;
/// then its annotations and the keywords kept verbatim.
pub(super) fn schema_of_node(
    cx: &mut Cx,
    node: &Node<'_>,
    depth: usize,
) -> Result<Schema, ImportError> {
    check_keywords(cx, node);
    let mut s = if let Some(r) = node.get("$ref") {
        reference::reference(cx, node, r)?
    } else if node.get("anyOf").is_some() || node.get("oneOf").is_some() {
        union::union(cx, node, depth)?
    } else if node.get("enum").is_some() || node.get("const").is_some() {
        enums::enumeration(cx, node)?
    } else {
        typed(cx, node, depth)?
    };
    // A union collapsed onto its only variant keeps that variant's annotations.
    let mut annotated = Schema::of(SchemaKind::Null);
    annotations(cx, node, &mut annotated)?;
    merge_annotations(&mut s, annotated);
    if matches!(s.kind, SchemaKind::Integer(_)) {
        // `-0` and `3.0` are integers to JSON Schema: hold them as such.
        if let Some(d) = &mut s.default {
            whole(d);
        }
        s.examples.to_mut().iter_mut().for_each(whole);
    }
    let kept = kept(cx, node);
    s.kept.extend(kept);
    Ok(s)
}

/// The family of a type name.
fn type_family(t: &str) -> Option<Family> {
    Some(match t {
        "string" => Family::String,
        "integer" | "number" => Family::Number,
        "array" => Family::Array,
        "object" => Family::Object,
        _ => return None,
    })
}

/// A schema read by its `type` (or by the one type its constraints belong to): one [`Schema`]
/// per type named, an `anyOf` of them when there are several.
fn typed(cx: &mut Cx, node: &Node<'_>, depth: usize) -> Result<Schema, ImportError> {
    let types = match node.types()? {
        Some(t) => t,
        None => vec![inferred_type(cx, node)?.to_owned()],
    };
    let nullable = types.iter().any(|t| t == "null");
    let non_null: Vec<&str> = types.iter().map(String::as_str).filter(|t| *t != "null").collect();
    drop_other_families(cx, node, &non_null);
    let mut kinds = Vec::with_capacity(non_null.len());
    for t in &non_null {
        kinds.push(kind(cx, node, t, depth)?);
    }
    let mut s = match kinds.len() {
        0 => return Ok(Schema::null()),
        1 => kinds.pop().expect("one kind"),
        _ => Schema::any_of_owned(kinds),
    };
    s.nullable = nullable;
    Ok(s)
}

/// The type of a node without `type`: the one family its constraints belong to (with a note),
/// or `any` when they belong to none.
fn inferred_type(cx: &mut Cx, node: &Node<'_>) -> Result<&'static str, ImportError> {
    let mut families: Vec<Family> = node.kws.keys().filter_map(|k| family_of(k)).collect();
    if node.props.is_some() || node.required.is_some() {
        families.push(Family::Object);
    }
    families.dedup();
    families.sort_by_key(|f| *f as u8);
    families.dedup();
    let t = match families.as_slice() {
        [Family::String] => "string",
        [Family::Number] => "number",
        [Family::Array] => "array",
        [Family::Object] => "object",
        [] => "any",
        _ => {
            return Err(unsupported(
                &node.ptr,
                "type",
                "a schema without `type` whose constraints belong to several types cannot be expressed",
            ));
        }
    };
    if t != "any" {
        cx.note(&node.ptr, "type", format!("is absent; read as `{t}` from the constraints"));
    }
    Ok(t)
}

/// Notes the keywords of families none of `types` has (they never apply).
fn drop_other_families(cx: &mut Cx, node: &Node<'_>, types: &[&str]) {
    let used: Vec<Family> = types.iter().filter_map(|t| type_family(t)).collect();
    let mut foreign = Vec::new();
    let int_format = types.contains(&"integer") && number::int_format(node).is_some();
    for (k, kw) in &node.kws {
        if let Some(f) = family_of(k)
            && !used.contains(&f)
            && !(int_format && *k == "format")
        {
            foreign.push((kw.ptr.clone(), k.to_string()));
        }
    }
    if !used.contains(&Family::Object) {
        if node.props.is_some() {
            foreign.push((node.ptr.child("properties"), "properties".into()));
        }
        if node.required.is_some() {
            foreign.push((node.ptr.child("required"), "required".into()));
        }
    }
    for (p, k) in foreign {
        cx.note(&p, &k, "does not apply to this type and was dropped");
    }
}

/// The schema of one type name `t` of a node.
fn kind(cx: &mut Cx, node: &Node<'_>, t: &str, depth: usize) -> Result<Schema, ImportError> {
    Ok(match t {
        "string" => Schema::of(SchemaKind::String(string::string(node)?)),
        "integer" => Schema::of(SchemaKind::Integer(number::integer(cx, node)?)),
        "number" => Schema::of(SchemaKind::Float(number::float_kws(node)?)),
        "boolean" => Schema::boolean(),
        "any" => Schema::any(),
        "array" => Schema::of(SchemaKind::List(list::list(cx, node, depth)?)),
        "object" => {
            let (params, additional) = object::object(cx, node, depth)?;
            Schema::of(SchemaKind::Object(ObjectSchema {
                properties: Cow::Owned(params),
                additional,
            }))
        }
        _ => unreachable!("type names are checked by `type_set`"),
    })
}
