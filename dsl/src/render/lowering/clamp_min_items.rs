//! [`Pass::ClampMinItems`](super::Pass::ClampMinItems): strict modes document `minItems` 0 and
//! 1 only; a larger one is written as [`MAX`] and the bound itself goes into the description
//! (`Minimum items: 3.`). A lossless reported change.
//!
//! Back: nothing to give back; dispatch checks the original bound, and its error names the
//! pointer the model saw.

use super::{Pass, push_note};
use crate::render::report::{Change, ChangeKind};
use crate::render::schema_options::SchemaOptions;

/// The largest `minItems` written where the pass runs.
pub(crate) const MAX: u64 = 1;

/// Whether the pass changes `minItems` of value `v`.
#[inline]
pub(crate) fn fires(v: u64, opts: &SchemaOptions) -> bool {
    v > MAX && opts.runs(Pass::ClampMinItems)
}

/// `minItems` as written.
#[inline]
pub(crate) fn written(v: u64, opts: &SchemaOptions) -> u64 {
    if opts.runs(Pass::ClampMinItems) { v.min(MAX) } else { v }
}

/// Appends the note of the bound `v`, and returns the change the pass records.
pub(crate) fn lower(v: u64, notes: &mut String) -> Change {
    push_note(notes, &format!("Minimum items: {v}."));
    Change::lossless(ChangeKind::Rewritten, "minItems")
        .detail(format!("minItems {v} clamped to {MAX}; the bound is in the description"))
}
