//! `anyOf` and `oneOf`: a union of variants, an enum when every variant is a `const`, and the
//! `null` variant folded into `nullable`.

use std::borrow::Cow;
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use serde_json::{Map, Value};

use super::annotations::annotations_clash;
use super::enums::EqKey;
use super::schema;
use crate::json_schema::import::context::Cx;
use crate::json_schema::import::read::{Kw, Node, type_fits};
use crate::json_schema::imported::{ImportError, describe, item, unsupported, wrong};
use crate::json_schema::keyword::is_constraint;
use crate::pointer::JsonPointer;
use crate::schema::{Combine, EnumSchema, EnumValue, EnumValues, Scalar, Schema, SchemaKind};

/// A `oneOf` whose variants may overlap, as its note says.
pub(in crate::json_schema::import) const OVERLAPPING_ONE_OF: &str = "has variants that may overlap (a value matching two is invalid); it is kept as `oneOf` for providers that take it, and renderers that write `anyOf` report the loss";

/// `{"const": "v"}` with at most a description, a title, a comment or `type: string` beside it.
fn const_member(m: &Value) -> bool {
    let Some(o) = m.as_object() else { return false };
    let Some(c) = o
        .get("const")
        .filter(|c| matches!(c, Value::String(_) | Value::Number(_) | Value::Bool(_)))
    else {
        return false;
    };
    o.iter().all(|(k, v)| match k.as_str() {
        "const" | "description" | "title" | "$comment" => true,
        "type" => v.as_str().is_some_and(|t| type_fits(t, c)),
        _ => false,
    })
}

/// Whether two of `members` are equal JSON values (`==` on [`Value`]), in linear time: the
/// members are bucketed by a hash that agrees with `==` and compared within a bucket only.
fn listed_twice<'v>(members: impl Iterator<Item = &'v Value>) -> bool {
    let mut buckets: HashMap<u64, Vec<&Value>> = HashMap::new();
    for m in members {
        let mut h = DefaultHasher::new();
        hash_value(m, &mut h, 0);
        let bucket = buckets.entry(h.finish()).or_default();
        if bucket.contains(&m) {
            return true;
        }
        bucket.push(m);
    }
    false
}

/// Feeds `v` to `h` so that values equal under `==` hash alike: object members in key order
/// (`==` ignores member order), numbers by the value `==` compares. Below a few levels it stops
/// descending: equal values still hash alike, and deep near-twins only share a bucket.
fn hash_value(v: &Value, h: &mut DefaultHasher, depth: usize) {
    std::mem::discriminant(v).hash(h);
    if depth > 8 {
        return;
    }
    match v {
        Value::Null => {}
        Value::Bool(b) => b.hash(h),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => (0u8, u).hash(h),
            (None, Some(i), _) => (1u8, i).hash(h),
            // `-0.0 == 0.0`: one key for both.
            (None, None, f) => (2u8, f.map(|f| (f + 0.0).to_bits())).hash(h),
        },
        Value::String(s) => s.hash(h),
        Value::Array(items) => {
            items.len().hash(h);
            for item in items {
                hash_value(item, h, depth + 1);
            }
        }
        Value::Object(o) => {
            o.len().hash(h);
            let mut members: Vec<(&String, &Value)> = o.iter().collect();
            members.sort_unstable_by_key(|(k, _)| *k);
            for (k, v) in members {
                k.hash(h);
                hash_value(v, h, depth + 1);
            }
        }
    }
}

/// The members of one `anyOf` or `oneOf`: the keyword, and the members other than
/// `{"type": "null"}`, each with its index.
struct Members<'a, 'v> {
    kw: &'a Kw<'v>,
    keyword: &'static str,
    rest: Vec<(usize, &'a Value)>,
    has_null: bool,
}

/// An `anyOf` or a `oneOf`: an enum when every member is a `const`, else a union of the
/// members' schemas, `{"type": "null"}` folded into `nullable`.
pub(super) fn union(cx: &mut Cx, node: &Node<'_>, depth: usize) -> Result<Schema, ImportError> {
    let (any, one) = (node.get("anyOf"), node.get("oneOf"));
    if let (Some(_), Some(o)) = (any, one) {
        return Err(unsupported(&o.ptr, "oneOf", "`oneOf` beside `anyOf` cannot be expressed"));
    }
    let (kw, keyword) = match any {
        Some(a) => (a, "anyOf"),
        None => (one.expect("checked by the caller"), "oneOf"),
    };
    let Value::Array(members) = &*kw.value else {
        return Err(wrong(&kw.ptr, keyword, "an array of schemas", &kw.value));
    };
    let null_member = |m: &Value| {
        m.as_object().is_some_and(|o| o.len() == 1 && o.get("type") == Some(&Value::from("null")))
    };
    let has_null = members.iter().any(null_member);
    let rest: Vec<(usize, &Value)> =
        members.iter().enumerate().filter(|(_, m)| !null_member(m)).collect();
    let members = Members { kw, keyword, rest, has_null };
    // Siblings that constrain: only `type: string` (with null) beside an enum of consts.
    let listed_twice = listed_twice(members.rest.iter().map(|(_, m)| *m));
    let consts = all_consts(&members);
    let types = node.types()?;
    nothing_beside(node, keyword, consts)?;
    if consts {
        return const_union(cx, node, &members, types.as_deref());
    }
    if members.rest.is_empty() {
        return Ok(Schema::null());
    }
    let mut variants = Vec::with_capacity(members.rest.len());
    for (i, m) in &members.rest {
        variants.push(schema(cx, m, &item(&kw.ptr, *i), depth + 1)?);
    }
    // A `oneOf` is read as disjoint until the final pass (which sees the definitions) finds
    // two variants that may overlap; some overlaps are plain already.
    let mut combine = Combine::AnyOf;
    if keyword == "oneOf" {
        combine = Combine::OneOfDisjoint;
        let null_twice =
            has_null && variants.iter().any(|v| v.nullable || matches!(v.kind, SchemaKind::Null));
        if null_twice || listed_twice {
            combine = Combine::OneOf;
            cx.note(&kw.ptr, "oneOf", OVERLAPPING_ONE_OF);
        }
    }
    if variants.len() == 1 && has_null && combine != Combine::OneOf {
        let mut only = variants.pop().expect("one variant");
        // Collapse `anyOf: [X, null]` onto X unless the outer annotations would overwrite X's.
        if !annotations_clash(&only, node) {
            only.nullable = true;
            return Ok(only);
        }
        variants.push(only);
    }
    let mut s = Schema::any_of_owned(variants);
    if let SchemaKind::AnyOf(a) = &mut s.kind {
        a.combine = combine;
    }
    s.nullable = has_null;
    Ok(s)
}

/// Whether every member is a `const` (of a `oneOf`, with no value twice): the union is then
/// an enum.
fn all_consts(members: &Members<'_, '_>) -> bool {
    let rest = &members.rest;
    !rest.is_empty()
        && rest.iter().all(|(_, m)| const_member(m))
        && !(members.keyword == "oneOf" && {
            let mut seen = HashSet::new();
            !rest
                .iter()
                .filter_map(|(_, m)| Scalar::from_json(&m["const"]))
                .all(|c| seen.insert(EqKey::of(c.as_ref())))
        })
}

/// Refuses a constraint beside `keyword` (but `type` beside an enum of consts).
fn nothing_beside(node: &Node<'_>, keyword: &str, consts: bool) -> Result<(), ImportError> {
    let beside = format!("constraints beside `{keyword}` cannot be expressed");
    if let Some((k, c)) = node
        .kws
        .iter()
        .find(|(k, _)| is_constraint(k) && **k != keyword && !(**k == "type" && consts))
    {
        return Err(unsupported(&c.ptr, k, beside));
    }
    if let Some(p) = node.props.as_ref().and_then(|p| p.first()) {
        return Err(unsupported(&p.ptr, "properties", beside));
    }
    if let Some(r) = node.required.as_ref().and_then(|r| r.first()) {
        return Err(unsupported(&r.ptr, "required", beside));
    }
    Ok(())
}

/// A union of `const`s, as the enum of their values (those `types` admit).
fn const_union(
    cx: &mut Cx,
    node: &Node<'_>,
    members: &Members<'_, '_>,
    types: Option<&[String]>,
) -> Result<Schema, ImportError> {
    let mut nullable = members.has_null;
    if let Some(ts) = types {
        nullable = nullable && ts.iter().any(|t| t == "null");
    }
    let mut values: Vec<EnumValue> = Vec::new();
    let mut seen = HashSet::new();
    for (i, m) in &members.rest {
        let o = m.as_object().expect("const member");
        let Some(value) = const_value(cx, o, &item(&members.kw.ptr, *i), types)? else {
            continue;
        };
        if seen.insert(EqKey::of(value.value.as_ref())) {
            values.push(value);
        }
    }
    if values.is_empty() {
        if nullable {
            return Ok(Schema::null());
        }
        let p = node.get("type").map_or(&members.kw.ptr, |t| &t.ptr);
        return Err(unsupported(p, "type", "no value is valid"));
    }
    let mut s = Schema::of(SchemaKind::Enum(EnumSchema { values: EnumValues::owned(values) }));
    s.nullable = nullable;
    Ok(s)
}

/// The enum value of one `const` member at `mptr`, with its description; `None` when `types`
/// excludes it (with a note).
fn const_value(
    cx: &mut Cx,
    o: &Map<String, Value>,
    mptr: &JsonPointer,
    types: Option<&[String]>,
) -> Result<Option<EnumValue>, ImportError> {
    let c = &o["const"];
    if !types.is_none_or(|ts| ts.iter().any(|t| type_fits(t, c))) {
        let ts = types.unwrap_or_default().join("`, `");
        let msg = format!("{} is excluded by `type` `{ts}` and was dropped", describe(c));
        cx.note(&mptr.child("const"), "const", msg);
        return Ok(None);
    }
    let Some(value) = Scalar::from_json(c) else {
        return Err(unsupported(
            &mptr.child("const"),
            "const",
            format!("{} is outside the range of a 64-bit integer", describe(c)),
        ));
    };
    let description = match o.get("description") {
        Some(Value::String(d)) => Some(Cow::Owned(d.clone())),
        Some(other) => {
            let msg = format!("is {}, not a string, and was dropped", describe(other));
            cx.note(&mptr.child("description"), "description", msg);
            None
        }
        None => None,
    };
    for k in o.keys().filter(|k| !["const", "description", "type"].contains(&k.as_str())) {
        cx.note(&mptr.child(k), k, "of an enum value has no place in the IR and was dropped");
    }
    Ok(Some(EnumValue { value, description }))
}
