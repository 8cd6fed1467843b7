//! The last pass, once every definition is read: marks each `oneOf` whose variants may overlap,
//! moves each default that its own schema rejects among the kept keywords (shown to the model,
//! never applied) and leaves out each such example, all within one budget of steps per import
//! ([`SETTLE_STEPS`]).

use std::borrow::Cow;
use std::fmt::Write as _;

use super::Importer;
use super::combine::OVERLAPPING_ONE_OF;
use super::definitions::ByName;
use super::disjoint::{Overlap, may_overlap};
use crate::descriptor::{Definition, Param};
use crate::descriptor_rules::MAX_DEPTH;
use crate::json_schema::imported::child;
use crate::literal::Literal;
use crate::rules::{Unfit, literal_fits};
use crate::schema::{Additional, Combine, Kept, Schema, SchemaKind};

/// The most steps the final pass of one import spends checking its defaults and examples
/// against their schemas and its `oneOf` variants for overlap, all together.
///
/// Each check is bounded on its own, but a schema can hold many: 15,000 defaults each
/// checked against an `anyOf` of 8,000 references, or a `oneOf` of 40,000 variants compared
/// pair by pair, took minutes. At some tens of nanoseconds a step this is a fraction of a
/// second; what is left unchecked when it runs out is reported (a default or an example is
/// not applied, a `oneOf` is taken as one whose variants may overlap).
pub(super) const SETTLE_STEPS: usize = 1 << 21;

impl Importer {
    /// The last pass over what was read, once the definitions are in: marks each `oneOf` whose
    /// variants may overlap, keeps each default that its own schema rejects as a kept
    /// `default` keyword ([`Kept`]: written where JSON Schema passes through, described
    /// elsewhere, never applied) and leaves out each such example, each with a note.
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
                if a.combine == Combine::OneOfDisjoint {
                    let message = match may_overlap(&a.variants, defs, &mut self.settle_steps) {
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
                        self.note(&child(ptr, "oneOf"), "oneOf", message);
                    }
                }
            }
            _ => {}
        }
        ptr.truncate(at);
        if let Some(d) = s.default.take() {
            match self.fits(s, &d, defs) {
                Ok(()) => s.default = Some(d),
                // Still the author's word to the model: kept verbatim, never applied.
                Err(why) => {
                    self.note(
                        &child(ptr, "default"),
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
                match self.fits(s, &e, defs) {
                    Ok(()) => kept.push(e),
                    Err(why) => self.note(
                        &format!("{ptr}/examples/{i}"),
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
    fn fits(&mut self, s: &Schema, l: &Literal, defs: &ByName<'_>) -> Result<(), String> {
        let (list, order) = (defs.list(), defs.sorted());
        match literal_fits(s, l, list, order, &mut self.settle_steps) {
            Ok(()) => Ok(()),
            Err(Unfit::Rejected(why)) => {
                Err(format!("is not a value its own schema accepts ({why})"))
            }
            Err(Unfit::Unchecked(why)) => {
                Err(format!("was not checked against its schema ({why})"))
            }
            Err(Unfit::OutOfSteps) => Err(format!(
                "was not checked against its schema: the defaults and examples of this schema \
                 take more than the import's {SETTLE_STEPS} steps to check"
            )),
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
            ptr.clear();
            ptr.push_str(&self.definition_pointer(&d.name));
            self.settle(&mut d.schema, snapshot, &mut ptr, 1);
        }
    }
}
