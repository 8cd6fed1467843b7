//! [`Pass::WrapRefSiblings`](super::Pass::WrapRefSiblings): a dialect that takes no keyword
//! beside a `$ref` gets a reference with siblings (`description`, `default`, notes) written as
//! `"anyOf": [{"$ref": …}]` with the siblings outside. A lossless reported change.
//!
//! Back: nothing to give back; the value is the same.

use super::Pass;
use crate::render::report::{Change, ChangeKind};
use crate::render::schema_options::SchemaOptions;

/// Whether a reference with sibling keywords (`siblings`) is wrapped.
#[inline]
pub(crate) fn fires(siblings: bool, opts: &SchemaOptions) -> bool {
    siblings && opts.runs(Pass::WrapRefSiblings)
}

/// The change recorded where a reference is wrapped for its siblings alone (a nullable
/// reference is wrapped anyway, to say "or null").
pub(crate) fn change() -> Change {
    Change::lossless(ChangeKind::Rewritten, "$ref")
        .detail("`$ref` with sibling keywords wrapped in anyOf")
}
