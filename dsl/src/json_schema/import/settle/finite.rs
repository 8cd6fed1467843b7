//! Which definitions some finite value can match: a `$ref` cycle needs a base case.
//!
//! `a = {"$ref": b}`, `b = {"$ref": a}` (or `anyOf` of each other, or a required property of
//! each other) is well-formed JSON Schema that no value matches: checking a value against it
//! never reaches a concrete type. Import refuses such a definition with its pointer rather than
//! let every call fail later. A cycle through an optional property, a nullable schema, an
//! `anyOf` with a concrete variant or a list that may be empty has a base case and is fine.
//!
//! The answer is a least fixed point: a definition is *finite* once its schema is, given the
//! definitions already known to be finite. Each definition is checked once, and again only when
//! a definition it refers to has just turned out finite.

use crate::descriptor::Definition;
use crate::schema::{Schema, SchemaKind};

/// The first definition (in document order) reachable from `roots` that no finite value can
/// match, with the definition it refers to on the way round its cycle.
pub(super) fn first_without_base_case<'d>(
    definitions: &'d [Definition],
    roots: &[&'d Schema],
) -> Option<(&'d str, &'d str)> {
    if definitions.is_empty() {
        return None;
    }
    let index: std::collections::HashMap<&str, usize> =
        definitions.iter().enumerate().map(|(i, d)| (&*d.name, i)).collect();
    // Who refers to whom: when a definition turns out finite, only those referring to it can
    // learn something new.
    let mut referrers: Vec<Vec<usize>> = vec![Vec::new(); definitions.len()];
    for (i, d) in definitions.iter().enumerate() {
        let mut inner = vec![&d.schema];
        while let Some(s) = inner.pop() {
            for_each_child(s, |c| inner.push(c));
            if let SchemaKind::Ref(r) = &s.kind
                && let Some(&j) = index.get(&*r.name)
                && referrers[j].last() != Some(&i)
            {
                referrers[j].push(i);
            }
        }
    }
    let mut finite = vec![false; definitions.len()];
    let mut queue: Vec<usize> = (0..definitions.len()).rev().collect();
    while let Some(i) = queue.pop() {
        if !finite[i] && is_finite(&definitions[i].schema, &index, &finite) {
            finite[i] = true;
            queue.extend(referrers[i].iter().copied().filter(|j| !finite[*j]));
        }
    }
    if finite.iter().all(|f| *f) {
        return None;
    }
    // Definitions reachable from the roots: only those can make a value unmatchable.
    let mut referenced = vec![false; definitions.len()];
    let mut stack: Vec<&Schema> = roots.to_vec();
    while let Some(s) = stack.pop() {
        for_each_child(s, |c| stack.push(c));
        if let SchemaKind::Ref(r) = &s.kind
            && let Some(&j) = index.get(&*r.name)
            && !referenced[j]
        {
            referenced[j] = true;
            stack.push(&definitions[j].schema);
        }
    }
    // For the message: the first unmatchable definition each one refers to.
    let mut first_ref: Vec<Option<&str>> = vec![None; definitions.len()];
    for (i, d) in definitions.iter().enumerate() {
        let mut inner = vec![&d.schema];
        while let Some(s) = inner.pop() {
            for_each_child(s, |c| inner.push(c));
            if let SchemaKind::Ref(r) = &s.kind
                && first_ref[i].is_none()
                && index.get(&*r.name).is_some_and(|j| !finite[*j])
            {
                first_ref[i] = Some(&r.name);
            }
        }
    }
    (0..definitions.len())
        .find(|&i| !finite[i] && referenced[i])
        .map(|i| (&*definitions[i].name, first_ref[i].unwrap_or(&definitions[i].name)))
}

/// Whether some finite value matches `schema`, given the definitions known to be finite.
fn is_finite(
    schema: &Schema,
    index: &std::collections::HashMap<&str, usize>,
    finite: &[bool],
) -> bool {
    // Depth is bounded by the importer's nesting limit; the recursion follows the schema's own
    // nesting, never a reference.
    if schema.nullable {
        return true;
    }
    match &schema.kind {
        // A dangling reference is reported elsewhere; it does not make a cycle.
        SchemaKind::Ref(r) => index.get(&*r.name).is_none_or(|i| finite[*i]),
        SchemaKind::AnyOf(a) => a.variants.iter().any(|v| is_finite(v, index, finite)),
        SchemaKind::List(l) => l.min_items.unwrap_or(0) == 0 || is_finite(&l.items, index, finite),
        SchemaKind::Object(o) => {
            o.properties.iter().all(|p| !p.required || is_finite(&p.schema, index, finite))
        }
        _ => true,
    }
}

/// Calls `f` on each schema directly inside `s` (not through references).
fn for_each_child<'s>(s: &'s Schema, mut f: impl FnMut(&'s Schema)) {
    match &s.kind {
        SchemaKind::List(l) => f(&l.items),
        SchemaKind::Object(o) => {
            for p in o.properties.iter() {
                f(&p.schema);
            }
            if let crate::schema::Additional::Typed(t) = &o.additional {
                f(t);
            }
        }
        SchemaKind::AnyOf(a) => a.variants.iter().for_each(f),
        _ => {}
    }
}
