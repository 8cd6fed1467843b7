//! [`Pass::KeptInText`](super::Pass::KeptInText): the keywords import kept verbatim because the
//! IR cannot say them (`not`, `if`, `patternProperties`, `prefixItems`...) are written into the
//! description (`not: {"type":"null"}.`) for a dialect that does not take full JSON Schema; at
//! the root of a tool's parameters, where the dialect keeps no description, into the tool's.
//! A lossy reported change.
//!
//! Back: nothing to give back; dispatch checks every kept keyword, and its error names the
//! pointer the model saw.

use super::{Pass, push_note};
use crate::render::report::{Change, ChangeKind};
use crate::render::schema_options::SchemaOptions;
use crate::schema::Kept;

/// Whether the pass runs: kept keywords are not written as they are.
#[inline]
pub(crate) fn fires(opts: &SchemaOptions) -> bool {
    opts.runs(Pass::KeptInText)
}

/// Appends the note of the kept keyword `k`, and returns the change it records.
pub(crate) fn lower(k: &Kept, notes: &mut String) -> Change {
    push_note(notes, &format!("{}: {}.", k.keyword, k.value));
    Change::lossy(ChangeKind::MovedToDescription, k.keyword.to_string()).detail(format!(
        "`{}` moved into the description: the provider does not take it and the IR cannot lower it",
        k.keyword
    ))
}
