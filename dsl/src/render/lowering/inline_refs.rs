//! [`Pass::InlineRefs`](super::Pass::InlineRefs): a dialect without references gets each
//! `$ref` replaced by its definition (the reference's own annotations win over the
//! definition's); a definition that refers to itself is then a render error, and inlining is
//! bounded so that definitions that fan out cannot blow the schema up. A lossless reported
//! change.
//!
//! Back: nothing to give back; the value is the same.

use super::Pass;
use crate::render::report::{Change, ChangeKind};
use crate::render::schema_options::{RefStyle, SchemaOptions};

/// Where the writer puts definitions: inlined where the pass runs, else the dialect's own
/// [`RefStyle`].
pub(crate) const fn ref_style(opts: &SchemaOptions) -> RefStyle {
    if opts.runs(Pass::InlineRefs) { RefStyle::Inline } else { opts.refs }
}

/// The change recorded for the reference to `name`, inlined at the root of a schema
/// (`within` none) or inside the copy of definition `within`.
pub(crate) fn change(name: &str, within: Option<&str>) -> Change {
    let detail = match within {
        None => format!("reference to `{name}` replaced by its definition"),
        Some(within) => format!(
            "reference to `{name}` in definition `{within}` replaced by its definition, here \
             and in each copy of `{within}`"
        ),
    };
    Change::lossless(ChangeKind::Inlined, "$ref").detail(detail)
}
