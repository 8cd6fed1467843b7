//! The last pass, once every definition is read: marks each `oneOf` whose variants may overlap,
//! and leaves out each default and example that its own schema rejects.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::Importer;
use super::combine::OVERLAPPING_ONE_OF;
use super::definitions::ByName;
use super::disjoint::disjoint;
use crate::descriptor::{Definition, Param};
use crate::descriptor_rules::MAX_DEPTH;
use crate::json_schema::imported::child;
use crate::schema::{Additional, Combine, Schema, SchemaKind};

impl Importer {
    /// The last pass over what was read, once the definitions are in: marks each `oneOf` whose
    /// variants may overlap, and leaves out (with a note) each default and example that its own
    /// schema rejects.
    pub(super) fn settle(
        &mut self,
        s: &mut Schema,
        defs: &ByName<'_>,
        ptr: &mut String,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        let at = ptr.len();
        match &mut s.kind {
            SchemaKind::List(l) => {
                ptr.push_str("/items");
                self.settle(l.items.make_mut(), defs, ptr, depth + 1);
            }
            SchemaKind::Object(o) => {
                self.settle_object(o.properties.to_mut(), &mut o.additional, defs, ptr, depth);
            }
            SchemaKind::AnyOf(a) => {
                let keyword = if a.combine.is_one_of() { "oneOf" } else { "anyOf" };
                for (i, v) in a.variants.to_mut().iter_mut().enumerate() {
                    ptr.truncate(at);
                    let _ = write!(ptr, "/{keyword}/{i}");
                    self.settle(v, defs, ptr, depth + 1);
                }
                ptr.truncate(at);
                let vs = &a.variants;
                let overlap = || {
                    (0..vs.len()).any(|i| vs[i + 1..].iter().any(|w| !disjoint(&vs[i], w, defs, 0)))
                };
                if a.combine == Combine::OneOfDisjoint && overlap() {
                    a.combine = Combine::OneOf;
                    self.note(&child(ptr, "oneOf"), "oneOf", OVERLAPPING_ONE_OF);
                }
            }
            _ => {}
        }
        ptr.truncate(at);
        if let Some(d) = s.default.take() {
            match crate::rules::literal_fits(s, &d, defs.list()) {
                Ok(()) => s.default = Some(d),
                Err(why) => self.note(
                    &child(ptr, "default"),
                    "default",
                    format!("is not a value its own schema accepts ({why}); it was not applied"),
                ),
            }
        }
        if !s.examples.is_empty() {
            let examples = std::mem::take(&mut s.examples).into_owned();
            let mut kept = Vec::with_capacity(examples.len());
            for (i, e) in examples.into_iter().enumerate() {
                match crate::rules::literal_fits(s, &e, defs.list()) {
                    Ok(()) => kept.push(e),
                    Err(why) => self.note(
                        &format!("{ptr}/examples/{i}"),
                        "examples",
                        format!("is not a value its own schema accepts ({why}) and was dropped"),
                    ),
                }
            }
            s.examples = Cow::Owned(kept);
        }
    }

    pub(super) fn settle_object(
        &mut self,
        params: &mut [Param],
        additional: &mut Additional,
        defs: &ByName<'_>,
        ptr: &mut String,
        depth: usize,
    ) {
        let at = ptr.len();
        for p in params {
            ptr.push_str("/properties");
            let name = p.name.clone();
            ptr.push_str(&child("", &name));
            self.settle(&mut p.schema, defs, ptr, depth + 1);
            ptr.truncate(at);
        }
        if let Additional::Typed(t) = additional {
            ptr.push_str("/additionalProperties");
            self.settle(t.make_mut(), defs, ptr, depth + 1);
            ptr.truncate(at);
        }
    }

    /// Settles every definition (see [`Importer::settle`]).
    pub(super) fn settle_definitions(
        &mut self,
        definitions: &mut [Definition],
        snapshot: &ByName<'_>,
    ) {
        let mut ptr = String::new();
        for d in definitions {
            let table = if self.defs_2020.contains(&*d.name) { "$defs" } else { "definitions" };
            ptr.clear();
            ptr.push_str(&child(&child("", table), &d.name));
            self.settle(&mut d.schema, snapshot, &mut ptr, 1);
        }
    }
}
