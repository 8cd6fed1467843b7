//! [`Pass::OneOfAsAnyOf`](super::Pass::OneOfAsAnyOf): a dialect without `oneOf` is sent a
//! `oneOf` as `anyOf`. Where the variants cannot overlap (`Combine::OneOfDisjoint`) the two say
//! the same and nothing is reported; where they may, the provider also accepts a value that
//! matches two, a lossy reported change.
//!
//! Back: nothing to give back; dispatch checks that exactly one variant matches.

use super::Pass;
use crate::render::report::{Change, ChangeKind};
use crate::render::schema_options::SchemaOptions;
use crate::schema::Combine;

/// The keyword a union is written under.
#[inline]
pub(crate) fn keyword(combine: Combine, opts: &SchemaOptions) -> &'static str {
    if combine.is_one_of() && !opts.runs(Pass::OneOfAsAnyOf) { "oneOf" } else { "anyOf" }
}

/// Whether the pass changes the meaning of a union (reported): a `oneOf` whose variants may
/// overlap, written as `anyOf`.
#[inline]
pub(crate) fn fires(combine: Combine, opts: &SchemaOptions) -> bool {
    combine == Combine::OneOf && opts.runs(Pass::OneOfAsAnyOf)
}

/// The change the pass records where it [`fires`].
pub(crate) fn change() -> Change {
    Change::lossy(ChangeKind::Rewritten, "oneOf").detail(
        "`oneOf` written as `anyOf`: its variants may overlap, so the provider also accepts a value that matches two",
    )
}
