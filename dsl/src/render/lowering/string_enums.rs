//! [`Pass::StringEnums`](super::Pass::StringEnums): a dialect whose enums hold strings only
//! (Gemini's OpenAPI `parameters`) is sent an enum of integers, numbers or booleans as the JSON
//! text of each value (`3` as `"3"`), so that the model is still held to the list. On the way
//! back a string that is the text of such a value is given back as that value, unless the enum
//! takes the string itself.
//!
//! The pass runs only where the texts tell the values apart; an enum holding both `3` and
//! `"3"` is lowered by [`Pass::EnumsInText`](super::Pass::EnumsInText) instead.

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::Value;

use crate::render::report::{Change, ChangeKind};
use crate::schema::{EnumValues, ScalarRef};

/// The change the pass records.
pub(crate) fn change() -> Change {
    Change::lossless(ChangeKind::Rewritten, "enum").detail(
        "values sent as strings: the provider takes enums of strings only; the way back gives each string back as the value it stands for",
    )
}

/// How `value` is sent: a string as itself, any other value as its JSON text.
pub(crate) fn wire_text(value: ScalarRef<'_>) -> Cow<'_, str> {
    match value {
        ScalarRef::Str(s) => Cow::Borrowed(s),
        other => Cow::Owned(other.to_string()),
    }
}

/// Whether the pass can send `values` as strings: some value is not a string, and no two
/// values are sent as the same text.
pub(crate) fn fires(values: &EnumValues) -> bool {
    if values.all_strings() {
        return false;
    }
    let mut seen = HashSet::with_capacity(values.len());
    values.iter().all(|v| seen.insert(wire_text(v)))
}

/// The value that `sent` stands for, when it is the text of a value that is not a string and
/// the enum does not take `sent` itself; `None` leaves the string as it is.
pub(crate) fn typed(values: &EnumValues, sent: &str) -> Option<Value> {
    if values.contains(sent) {
        return None;
    }
    values.iter().find(|v| v.as_str().is_none() && wire_text(*v) == sent).map(ScalarRef::to_json)
}
