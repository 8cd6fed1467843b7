//! Whether two schemas can match the same value: a `oneOf` whose variants are disjoint means
//! the same as an `anyOf`, and only one whose variants may overlap is kept as `oneOf`.
//!
//! [`may_overlap`] answers for all the variants of one `oneOf` at once. Most real `oneOf`s
//! split by kind (a string or an object), by enum values, or by a discriminating property (a
//! required `kind` whose enum values differ), and those are decided in one pass over the
//! variants with a hash set. The rest are compared pair by pair with [`disjoint`], which is
//! quadratic, so it spends steps from the import's budget: out of steps, the `oneOf` is taken
//! as one whose variants may overlap, which is what a reader that cannot tell must assume.

use std::collections::HashSet;

use super::definitions::ByName;
use crate::descriptor_rules::MAX_DEPTH;
use crate::json_schema::import::lower::enums::EqKey;
use crate::schema::{EnumValues, RefSchema, Schema, SchemaKind};

/// What [`may_overlap`] found of a `oneOf`'s variants.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Overlap {
    /// No value matches two variants.
    Disjoint,
    /// Some value may match two variants.
    May,
    /// Deciding took more steps than were left; the variants may overlap.
    OutOfSteps,
}

/// Whether two of `variants` can match one value, spending at most `steps` (and subtracting
/// what it spends) on the pairs that the one-pass check cannot decide.
pub(super) fn may_overlap(variants: &[Schema], defs: &ByName<'_>, steps: &mut usize) -> Overlap {
    match by_kind(variants, defs) {
        Some(true) => return Overlap::May,
        Some(false) => return Overlap::Disjoint,
        None => {}
    }
    for (i, v) in variants.iter().enumerate() {
        for w in &variants[i + 1..] {
            if *steps == 0 {
                return Overlap::OutOfSteps;
            }
            *steps -= 1;
            let apart = disjoint(v, w, defs, 0, steps);
            if *steps == 0 {
                return Overlap::OutOfSteps;
            }
            if !apart {
                return Overlap::May;
            }
        }
    }
    Overlap::Disjoint
}

/// [`may_overlap`] in one pass, when the variants fall apart by kind: `Some(true)` when two
/// variants may overlap, `Some(false)` when none do, `None` when only comparing pairs can
/// tell (a variant of no single kind, or objects without one discriminating property). Where
/// it answers, it answers as comparing every pair with [`disjoint`] would.
fn by_kind(variants: &[Schema], defs: &ByName<'_>) -> Option<bool> {
    let resolved: Vec<&Schema> = variants.iter().map(|v| resolve(v, defs)).collect();
    if resolved.iter().filter(|s| nulls(s)).count() > 1 {
        return Some(true);
    }
    let mut by_class: [Vec<&Schema>; CLASSES] = Default::default();
    for s in &resolved {
        by_class[usize::from(class(s)?)].push(s);
    }
    for (c, group) in by_class.iter().enumerate() {
        if group.len() < 2 {
            continue;
        }
        let overlap = match c {
            LIST => true,
            OBJECT if discriminated(group, defs) => false,
            OBJECT => return None,
            // Strings, numbers, booleans (null is counted above): apart only as enums whose
            // values all differ.
            _ => {
                let mut seen = HashSet::new();
                !group.iter().all(|s| match &s.kind {
                    SchemaKind::Enum(e) => e.values.iter().all(|v| seen.insert(EqKey::of(v))),
                    _ => false,
                })
            }
        };
        if overlap {
            return Some(true);
        }
    }
    Some(false)
}

/// How many kinds [`class`] tells apart, and the two that are not scalars.
const CLASSES: usize = 6;
const LIST: usize = 4;
const OBJECT: usize = 5;

/// How many of the first object's properties are tried as the discriminator.
const CANDIDATES: usize = 4;

/// Whether one property tells every object of `objects` apart: required in each, an enum
/// without null in each, and no value in two of them (of the first object's first few such
/// properties).
fn discriminated(objects: &[&Schema], defs: &ByName<'_>) -> bool {
    let SchemaKind::Object(first) = &objects[0].kind else { return false };
    let candidates =
        first.properties.iter().filter(|p| enum_of(objects[0], &p.name, defs).is_some());
    for p in candidates.take(CANDIDATES) {
        let mut seen = HashSet::new();
        let apart = objects.iter().all(|o| {
            enum_of(o, &p.name, defs).is_some_and(|e| e.iter().all(|v| seen.insert(EqKey::of(v))))
        });
        if apart {
            return true;
        }
    }
    false
}

/// The values of the property `name` of the object `s`, when it is required and an enum
/// without null.
fn enum_of<'s>(s: &'s Schema, name: &str, defs: &ByName<'s>) -> Option<&'s EnumValues> {
    let SchemaKind::Object(o) = &s.kind else { return None };
    let p = o.properties.iter().find(|p| p.name == name)?;
    let ps = resolve(&p.schema, defs);
    match &ps.kind {
        SchemaKind::Enum(e) if p.required && !ps.nullable => Some(&e.values),
        _ => None,
    }
}

/// `s` with its references followed (at most [`MAX_DEPTH`] of them).
fn resolve<'s>(mut s: &'s Schema, defs: &ByName<'s>) -> &'s Schema {
    for _ in 0..MAX_DEPTH {
        match &s.kind {
            SchemaKind::Ref(RefSchema { name }) => match defs.get(name) {
                Some(d) => s = d,
                None => return s,
            },
            _ => return s,
        }
    }
    s
}

/// The kind of value `s` takes, when it takes one kind only: strings 0, numbers 1, booleans 2,
/// null 3, lists [`LIST`], objects [`OBJECT`].
fn class(s: &Schema) -> Option<u8> {
    Some(match &s.kind {
        SchemaKind::String(_) => 0,
        SchemaKind::Integer(_) | SchemaKind::Float(_) => 1,
        SchemaKind::Enum(e) => match e.values.json_types().as_slice() {
            ["string"] => 0,
            ["integer"] | ["number"] => 1,
            ["boolean"] => 2,
            _ => return None,
        },
        SchemaKind::Boolean => 2,
        SchemaKind::Null => 3,
        SchemaKind::Any => return None,
        SchemaKind::List(_) => LIST as u8,
        SchemaKind::Object(_) => OBJECT as u8,
        SchemaKind::AnyOf(_) | SchemaKind::Ref(_) => return None,
    })
}

/// Whether `s` accepts null.
fn nulls(s: &Schema) -> bool {
    s.nullable || matches!(s.kind, SchemaKind::Null)
}

/// Whether no value can match both `a` and `b` (conservative: `false` when unsure, and when
/// `steps` runs out, which the caller sees as `*steps == 0`).
fn disjoint(a: &Schema, b: &Schema, defs: &ByName<'_>, depth: usize, steps: &mut usize) -> bool {
    if depth > MAX_DEPTH || *steps == 0 {
        return false;
    }
    *steps -= 1;
    let (a, b) = (resolve(a, defs), resolve(b, defs));
    if nulls(a) && nulls(b) {
        return false;
    }
    // What comparing the two lists costs, paid before it is done.
    let mut pay = |cost: usize| match steps.checked_sub(cost) {
        Some(left) => {
            *steps = left;
            true
        }
        None => {
            *steps = 0;
            false
        }
    };
    match (&a.kind, &b.kind) {
        (SchemaKind::AnyOf(x), _) => {
            x.variants.iter().all(|v| disjoint(v, b, defs, depth + 1, steps))
        }
        (_, SchemaKind::AnyOf(y)) => {
            y.variants.iter().all(|v| disjoint(a, v, defs, depth + 1, steps))
        }
        (SchemaKind::Enum(x), SchemaKind::Enum(y)) => {
            if !pay(x.values.len() + y.values.len()) {
                return false;
            }
            let xs: HashSet<EqKey> = x.values.iter().map(EqKey::of).collect();
            !y.values.iter().any(|w| xs.contains(&EqKey::of(w)))
        }
        (SchemaKind::Object(x), SchemaKind::Object(y)) => {
            if !pay(x.properties.len().saturating_mul(y.properties.len())) {
                return false;
            }
            x.properties.iter().any(|p| {
                let Some(q) = y.properties.iter().find(|q| q.name == p.name) else {
                    return false;
                };
                let (ps, qs) = (resolve(&p.schema, defs), resolve(&q.schema, defs));
                p.required
                    && q.required
                    && !ps.nullable
                    && !qs.nullable
                    && matches!((&ps.kind, &qs.kind), (SchemaKind::Enum(_), SchemaKind::Enum(_)))
                    && disjoint(ps, qs, defs, depth + 1, steps)
            })
        }
        _ => match (class(a), class(b)) {
            (Some(x), Some(y)) => x != y,
            _ => false,
        },
    }
}
