//! Keywords outside the typed IR: unknown and annotation-only keywords dropped with a note,
//! keywords of another type's family dropped, and those that change what is valid kept verbatim
//! ([`Kept`]).

use crate::json_schema::import::context::Cx;
use crate::json_schema::import::read::Node;
use crate::json_schema::keyword::{Family, Role, SchemaKeyword, family_of, kept_reason};
use crate::json_schema::refs::retarget_refs;
use crate::schema::Kept;

/// Whether the node's `items` is a tuple: an array of schemas, or the rest after `prefixItems`.
pub(super) fn tuple_items(node: &Node<'_>) -> bool {
    node.get("prefixItems").is_some() || node.get("items").is_some_and(|k| k.value.is_array())
}

/// Notes keywords of other type families than `family` (they never apply).
pub(in crate::json_schema::import) fn drop_foreign(
    cx: &mut Cx,
    node: &Node<'_>,
    family: Option<Family>,
) {
    let mut dropped = Vec::new();
    for (k, kw) in &node.kws {
        if let Some(f) = family_of(k)
            && Some(f) != family
        {
            dropped.push((kw.ptr.clone(), k.to_string()));
        }
    }
    for (p, k) in dropped {
        cx.note(&p, &k, "does not apply to this type and was dropped");
    }
}

/// Reports dropped annotations and unsupported keywords of a node.
pub(in crate::json_schema::import) fn check_keywords(cx: &mut Cx, node: &Node<'_>) {
    let mut notes = Vec::new();
    for (k, kw) in &node.kws {
        let role = SchemaKeyword::from_wire(k).map(SchemaKeyword::role);
        if role == Some(Role::Dropped) || k.starts_with("x-") {
            let msg = if *k == "nullable" {
                "is not a JSON Schema keyword (OpenAPI 3.0) and was dropped; use a `type` array"
            } else {
                "has no place in the IR and was dropped"
            };
            notes.push((kw.ptr.clone(), k.to_string(), msg));
        } else if role.is_none() {
            notes.push((kw.ptr.clone(), k.to_string(), "is not a known keyword and was dropped"));
        }
    }
    for (p, k, m) in notes {
        cx.note(&p, &k, m);
    }
}

/// The keywords of a node the IR cannot type, kept verbatim in document order, each noted.
///
/// An array's `items` goes with them when it is a tuple (an array of schemas) or follows
/// `prefixItems` (it then constrains only the items after the prefix).
pub(in crate::json_schema::import) fn kept(cx: &mut Cx, node: &Node<'_>) -> Vec<Kept> {
    let tuple = tuple_items(node);
    let mut out = Vec::new();
    for (k, kw) in &node.kws {
        let reason = match kept_reason(k) {
            Some(reason) => reason,
            None if *k == "items" && tuple => "the IR has no tuples",
            None => continue,
        };
        let ptr = kw.ptr.clone();
        if *k == "propertyNames" && says_nothing_of_names(&kw.value) {
            cx.note(&ptr, k, "says nothing (every property name is a string) and was dropped");
            continue;
        }
        cx.note(&ptr, k, format!("was kept verbatim ({reason})"));
        let mut value = kw.value.clone().into_owned();
        retarget_refs(&mut value);
        out.push(Kept::new(k.to_string(), value));
    }
    out
}

/// Whether a `propertyNames` schema accepts every string (`true`, `{}`, `{"type": "string"}`,
/// as zod 4 writes for a record), with nothing else than annotations: property names are
/// strings, so it constrains nothing and means nothing to keep.
fn says_nothing_of_names(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Bool(b) => *b,
        serde_json::Value::Object(map) => map.iter().all(|(k, v)| match k.as_str() {
            "type" => v == "string",
            "title" | "description" | "$comment" => true,
            _ => false,
        }),
        _ => false,
    }
}
