//! [`Pass::EnumsInText`](super::Pass::EnumsInText): a dialect whose enums hold strings only is
//! given an enum of other values that [`Pass::StringEnums`](super::Pass::StringEnums) cannot
//! send as strings (two of its values would be sent as the same text, or that pass does not
//! run): the enum is written as its base type, with the values listed in the description.
//!
//! Back: nothing to give back. The model may send any value of the type; dispatch checks the
//! enum, and its error names the pointer the model saw. A lossy reported change.

use std::fmt::Write as _;

use super::{Pass, push_note, string_enums};
use crate::render::report::{Change, ChangeKind};
use crate::render::schema_options::{NullStyle, SchemaOptions};
use crate::schema::{EnumValues, ScalarRef};

/// How an enum is written under a dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EnumForm {
    /// Its values as they are (strings, or a dialect that takes any scalar).
    AsIs,
    /// Each value as its string ([`Pass::StringEnums`](super::Pass::StringEnums)).
    Strings,
    /// Its base type, the values in the description (this pass).
    InText,
}

/// How the enum of `values` is written under `opts`: as it is, unless some value is not a
/// string and the dialect takes enums of strings only (either enum pass runs, or its values
/// have several types and [`NullStyle::OpenApi`] can say neither a type array nor no type);
/// then as strings where [`Pass::StringEnums`](super::Pass::StringEnums) runs (or this pass
/// does not) and the values' texts tell them apart, else in the description.
#[inline]
pub(crate) fn form(values: &EnumValues, opts: &SchemaOptions) -> EnumForm {
    if values.all_strings() {
        return EnumForm::AsIs;
    }
    let strings = opts.runs(Pass::StringEnums);
    let in_text = opts.runs(Pass::EnumsInText);
    let strings_only = strings
        || in_text
        || (opts.null_style == NullStyle::OpenApi && values.json_types().len() > 1);
    if !strings_only {
        EnumForm::AsIs
    } else if (strings || !in_text) && string_enums::fires(values) {
        EnumForm::Strings
    } else {
        EnumForm::InText
    }
}

/// The change the pass records.
pub(crate) fn change() -> Change {
    Change::lossy(ChangeKind::MovedToDescription, "enum")
        .detail("values written into the description: the provider takes enums of strings only")
}

/// The change recorded where an enum's values carry descriptions, written into the
/// description whatever the form.
pub(crate) fn described_change() -> Change {
    Change::lossless(ChangeKind::MovedToDescription, "enum")
        .detail("descriptions of enum values written into the description")
}

/// Whether some value of the enum carries a description.
pub(crate) fn has_descriptions(values: &EnumValues) -> bool {
    values.iter_described().any(|(_, d)| d.is_some())
}

/// Appends the note listing an enum's values and their descriptions (`Values: a = A; b.`).
pub(crate) fn push_note_of(notes: &mut String, values: &EnumValues) {
    // One allocation for the whole note.
    let room: usize = values
        .iter_described()
        .map(|(v, d)| match v {
            ScalarRef::Str(v) => v.len(),
            _ => 24,
        } + d.map_or(0, str::len) + 5)
        .sum();
    notes.reserve(room + 11);
    push_note(notes, "Values: ");
    for (i, (v, d)) in values.iter_described().enumerate() {
        if i > 0 {
            notes.push_str("; ");
        }
        match v {
            ScalarRef::Str(v) => notes.push_str(v),
            other => {
                let _ = write!(notes, "{other}");
            }
        }
        if let Some(d) = d {
            notes.push_str(" = ");
            notes.push_str(d.trim_end().trim_end_matches('.'));
        }
    }
    notes.push('.');
}
