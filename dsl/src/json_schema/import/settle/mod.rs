//! The settle stage, once every definition is read: the root's definitions read, and those
//! that cannot be read dropped unless something refers to them (`definitions.rs`); each
//! `oneOf` whose variants may overlap marked (`disjoint.rs`); each default that its own schema
//! rejects moved among the kept keywords (shown to the model, never applied) and each such
//! example left out, all within one budget of steps per import ([`SETTLE_STEPS`]); and a
//! referenced definition that no finite value matches refused (`finite.rs`).

pub(super) mod definitions;
mod disjoint;
mod finite;

use std::borrow::Cow;

use super::context::{Cx, SETTLE_STEPS};
use super::lower::union::OVERLAPPING_ONE_OF;
use crate::descriptor::{Definition, Param};
use crate::descriptor_rules::MAX_DEPTH;
use crate::json_schema::imported::item;
use crate::literal::Literal;
use crate::pointer::JsonPointer;
use crate::rules::{Unfit, literal_fits};
use crate::schema::{Additional, Combine, Kept, Schema, SchemaKind};
use definitions::{ByName, definition_pointer};
use disjoint::{Overlap, may_overlap};

/// The last pass over what was read, once the definitions are in: marks each `oneOf` whose
/// variants may overlap, keeps each default that its own schema rejects as a kept
/// `default` keyword ([`Kept`]: written where JSON Schema passes through, described
/// elsewhere, never applied) and leaves out each such example, each with a note.
pub(in crate::json_schema::import) fn settle(
    cx: &mut Cx,
    s: &mut Schema,
    defs: &ByName<'_>,
    ptr: &mut JsonPointer,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let at = ptr.len();
    match &mut s.kind {
        SchemaKind::List(l) => {
            ptr.push("items");
            settle(cx, l.items.make_mut(), defs, ptr, depth + 1);
        }
        SchemaKind::Object(o) => {
            settle_object(cx, o.properties.to_mut(), &mut o.additional, defs, ptr, depth);
        }
        SchemaKind::AnyOf(a) => {
            let keyword = if a.combine.is_one_of() { "oneOf" } else { "anyOf" };
            for (i, v) in a.variants.to_mut().iter_mut().enumerate() {
                ptr.truncate(at);
                ptr.push(keyword);
                ptr.push_index(i);
                settle(cx, v, defs, ptr, depth + 1);
            }
            ptr.truncate(at);
            if a.combine == Combine::OneOfDisjoint {
                let message = match may_overlap(&a.variants, defs, &mut cx.settle_steps) {
                    Overlap::Disjoint => None,
                    Overlap::May => Some(Cow::Borrowed(OVERLAPPING_ONE_OF)),
                    Overlap::OutOfSteps => Some(Cow::Owned(format!(
                        "could not be shown to have disjoint variants within the import's \
                         {SETTLE_STEPS} steps; it {}",
                        OVERLAPPING_ONE_OF.split_once("; it ").map_or("", |(_, rest)| rest)
                    ))),
                };
                if let Some(message) = message {
                    a.combine = Combine::OneOf;
                    cx.note(&ptr.child("oneOf"), "oneOf", message);
                }
            }
        }
        _ => {}
    }
    ptr.truncate(at);
    if let Some(d) = s.default.take() {
        match fits(cx, s, &d, defs) {
            Ok(()) => s.default = Some(d),
            // Still the author's word to the model: kept verbatim, never applied.
            Err(why) => {
                cx.note(
                    &ptr.child("default"),
                    "default",
                    format!("{why}; it is kept to be shown as written and never applied"),
                );
                s.kept.push(Kept::new("default", d.to_json()));
            }
        }
    }
    if !s.examples.is_empty() {
        let examples = std::mem::take(&mut s.examples).into_owned();
        let mut kept = Vec::with_capacity(examples.len());
        for (i, e) in examples.into_iter().enumerate() {
            match fits(cx, s, &e, defs) {
                Ok(()) => kept.push(e),
                Err(why) => cx.note(
                    &item(&ptr.child("examples"), i),
                    "examples",
                    format!("{why} and was dropped"),
                ),
            }
        }
        s.examples = Cow::Owned(kept);
    }
}

/// Whether `l` is a value `s` accepts, from the import's budget of steps, or the start of
/// a note saying why it is not kept.
fn fits(cx: &mut Cx, s: &Schema, l: &Literal, defs: &ByName<'_>) -> Result<(), String> {
    let (list, order) = (defs.list(), defs.sorted());
    match literal_fits(s, l, list, order, &mut cx.settle_steps) {
        Ok(()) => Ok(()),
        Err(Unfit::Rejected(why)) => Err(format!("is not a value its own schema accepts ({why})")),
        Err(Unfit::Unchecked(why)) => Err(format!("was not checked against its schema ({why})")),
        Err(Unfit::OutOfSteps) => Err(format!(
            "was not checked against its schema: the defaults and examples of this schema \
             take more than the import's {SETTLE_STEPS} steps to check"
        )),
    }
}

pub(in crate::json_schema::import) fn settle_object(
    cx: &mut Cx,
    params: &mut [Param],
    additional: &mut Additional,
    defs: &ByName<'_>,
    ptr: &mut JsonPointer,
    depth: usize,
) {
    let at = ptr.len();
    for p in params {
        ptr.push("properties");
        ptr.push(&p.name);
        settle(cx, &mut p.schema, defs, ptr, depth + 1);
        ptr.truncate(at);
    }
    if let Additional::Typed(t) = additional {
        ptr.push("additionalProperties");
        settle(cx, t.make_mut(), defs, ptr, depth + 1);
        ptr.truncate(at);
    }
}

/// Settles every definition (see [`settle`]).
pub(in crate::json_schema::import) fn settle_definitions(
    cx: &mut Cx,
    definitions: &mut [Definition],
    snapshot: &ByName<'_>,
) {
    for d in definitions {
        let mut ptr = definition_pointer(cx, &d.name);
        settle(cx, &mut d.schema, snapshot, &mut ptr, 1);
    }
}
