//! Object schemas: `properties`, `required` (a required key `properties` does not list
//! included) and `additionalProperties`.

use std::collections::HashSet;

use serde_json::Value;

use super::{check_keywords, schema, schema_of_node};
use crate::descriptor::Param;
use crate::json_schema::import::context::Cx;
use crate::json_schema::import::read::{Node, read_node};
use crate::json_schema::imported::{ImportError, ImportErrorKind, unsupported, wrong};
use crate::json_schema::keyword::is_annotation;
use crate::schema::{Additional, Schema};

/// The properties of an object schema and what it accepts beyond them.
///
/// At the root (`depth` 0) a property that cannot be read is kept in `cx.errors` and the
/// next one read, so that one import reports the problem of every property; the caller
/// fails the import when any was kept. Deeper, the first problem stops the import, as does
/// crossing [`MAX_IMPORT_NODES`](crate::json_schema::MAX_IMPORT_NODES) anywhere.
pub(in crate::json_schema::import) fn object(
    cx: &mut Cx,
    node: &Node<'_>,
    depth: usize,
) -> Result<(Vec<Param>, Additional), ImportError> {
    let mut params = Vec::new();
    let mut failed: HashSet<&str> = HashSet::new();
    let required: HashSet<&str> = node.required.iter().flatten().map(|r| r.name).collect();
    for prop in node.props.iter().flatten() {
        let name = prop.name;
        let schema = match schema(cx, prop.schema, &prop.ptr, depth + 1) {
            Ok(schema) => schema,
            Err(e) if depth == 0 && e.kind != ImportErrorKind::TooManyNodes => {
                cx.errors.push(e);
                failed.insert(name);
                continue;
            }
            Err(e) => return Err(e),
        };
        let required = required.contains(name);
        params.push(Param::named(name.to_string(), schema).with_required(required));
    }
    let mut described: HashSet<String> = params.iter().map(|p| p.name.to_string()).collect();
    described.extend(failed.iter().map(|name| (*name).to_owned()));
    let before = cx.nodes;
    let additional = additional(cx, node, depth)?;
    // Each such key below holds a copy of what other keys take: as many nodes again.
    let copy_nodes = (cx.nodes - before).max(1);
    // A required key that `properties` does not describe takes what other keys take.
    for r in node.required.iter().flatten() {
        let (name, ptr) = (r.name, &r.ptr);
        if described.contains(name) {
            continue;
        }
        let schema = match &additional {
            Additional::Closed => {
                return Err(unsupported(
                    ptr,
                    "required",
                    format!(
                        "`{name}` is required, but `properties` does not list it and `additionalProperties` is false, so no value is valid"
                    ),
                ));
            }
            Additional::Typed(t) => {
                cx.count_nodes(copy_nodes, ptr)?;
                t.get().clone()
            }
            Additional::Open | Additional::Unstated => {
                cx.count_nodes(copy_nodes, ptr)?;
                Schema::any()
            }
        };
        cx.note(
            ptr,
            "required",
            format!(
                "names `{name}`, which `properties` does not list; it became a property that takes what other keys take"
            ),
        );
        params.push(Param::named(name.to_string(), schema));
    }
    Ok((params, additional))
}

fn additional(cx: &mut Cx, node: &Node<'_>, depth: usize) -> Result<Additional, ImportError> {
    Ok(match node.get("additionalProperties") {
        None => Additional::Unstated,
        Some(kw) => match &*kw.value {
            Value::Bool(false) => Additional::Closed,
            Value::Bool(true) => Additional::Open,
            Value::Object(m) => {
                let inner = read_node(cx, m, &kw.ptr)?;
                if inner.has_validity() {
                    cx.count_nodes(1, &kw.ptr)?;
                    let inner_schema = schema_of_node(cx, &inner, depth + 1)?;
                    Additional::Typed(inner_schema.into())
                } else {
                    check_keywords(cx, &inner);
                    for k in inner.kws.keys().filter(|k| is_annotation(k)) {
                        let p = kw.ptr.child(k);
                        cx.note(&p, k, "of an unconstrained `additionalProperties` was dropped");
                    }
                    Additional::Open
                }
            }
            other => {
                return Err(wrong(&kw.ptr, "additionalProperties", "a boolean or a schema", other));
            }
        },
    })
}
