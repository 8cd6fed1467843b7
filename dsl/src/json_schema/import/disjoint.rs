//! Whether two schemas can match the same value: a `oneOf` whose variants are disjoint means
//! the same as an `anyOf`, and only one whose variants may overlap is kept as `oneOf`.

use super::definitions::ByName;
use crate::descriptor_rules::MAX_DEPTH;
use crate::schema::{RefSchema, Schema, SchemaKind};

/// Whether no value can match both `a` and `b` (conservative: `false` when unsure).
pub(super) fn disjoint(a: &Schema, b: &Schema, defs: &ByName<'_>, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
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
            SchemaKind::List(_) => 4,
            SchemaKind::Object(_) => 5,
            SchemaKind::AnyOf(_) | SchemaKind::Ref(_) => return None,
        })
    }
    let (a, b) = (resolve(a, defs), resolve(b, defs));
    let nulls = |s: &Schema| s.nullable || matches!(s.kind, SchemaKind::Null);
    if nulls(a) && nulls(b) {
        return false;
    }
    match (&a.kind, &b.kind) {
        (SchemaKind::AnyOf(x), _) => x.variants.iter().all(|v| disjoint(v, b, defs, depth + 1)),
        (_, SchemaKind::AnyOf(y)) => y.variants.iter().all(|v| disjoint(a, v, defs, depth + 1)),
        (SchemaKind::Enum(x), SchemaKind::Enum(y)) => {
            !x.values.iter().any(|v| y.values.iter().any(|w| v.json_eq(w)))
        }
        (SchemaKind::Object(x), SchemaKind::Object(y)) => x.properties.iter().any(|p| {
            let Some(q) = y.properties.iter().find(|q| q.name == p.name) else { return false };
            let (ps, qs) = (resolve(&p.schema, defs), resolve(&q.schema, defs));
            p.required
                && q.required
                && !ps.nullable
                && !qs.nullable
                && matches!((&ps.kind, &qs.kind), (SchemaKind::Enum(_), SchemaKind::Enum(_)))
                && disjoint(ps, qs, defs, depth + 1)
        }),
        _ => match (class(a), class(b)) {
            (Some(x), Some(y)) => x != y,
            _ => false,
        },
    }
}
