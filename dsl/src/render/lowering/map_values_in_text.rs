//! [`Pass::MapValuesInText`](super::Pass::MapValuesInText): a dialect that takes no
//! `additionalProperties` at all (Gemini's `parameters`, Ollama) gets a map's value schema
//! written into the map's description (lossy; at the root of a tool's parameters, whose
//! description is not the tool's, dropped), and a closed object's `additionalProperties: false`
//! left out (lossless: the contract stays closed).
//!
//! Back: nothing to give back; dispatch checks each value against the map's value schema, and
//! refuses another key of a closed object, naming the pointer the model saw.

use super::{Pass, push_note};
use crate::render::report::{Change, ChangeKind};
use crate::render::schema_options::SchemaOptions;
use crate::schema::Schema;

/// Whether the pass runs: no `additionalProperties` is written.
#[inline]
pub(crate) fn fires(opts: &SchemaOptions) -> bool {
    opts.runs(Pass::MapValuesInText)
}

/// Appends the note holding a map's value schema, and returns the change it records.
pub(crate) fn lower(values: &Schema, notes: &mut String) -> Change {
    // Written from the ordered literal, so the keys come in the order tooldef writes them.
    let literal = crate::json_schema::export_schema_literal(values, &[]);
    let text = serde_json::to_string(&literal).unwrap_or_default();
    push_note(notes, &format!("Values of other keys: {text}."));
    Change::lossy(ChangeKind::MovedToDescription, "additionalProperties").detail(
        "the schema of map values moved into the description: the provider does not accept additionalProperties",
    )
}

/// The change recorded for a map at the root of a tool's parameters.
pub(crate) fn dropped_at_root() -> Change {
    Change::lossy(ChangeKind::Dropped, "additionalProperties").detail(
        "the schema of map values is dropped: the provider does not accept additionalProperties",
    )
}

/// The change recorded for a closed object. Lossless: the contract stays closed (a call with
/// another key is refused when it is checked), the model is shown every key it may send, and
/// neither provider without the keyword reads it (Ollama's server discards it).
pub(crate) fn closed_left_out() -> Change {
    Change::lossless(ChangeKind::Dropped, "additionalProperties").detail(
        "`additionalProperties: false` not written: the provider does not accept additionalProperties; a call with another key is still refused when it is checked",
    )
}
