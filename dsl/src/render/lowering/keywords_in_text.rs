//! [`Pass::KeywordsInText`](super::Pass::KeywordsInText): a keyword the dialect does not take
//! (outside [`SchemaOptions::keywords`], a format outside [`SchemaOptions::formats`], a pattern
//! with lookaround the dialect refuses) is written into the description (`Minimum: 1.`, a
//! lossless reported change) or, under [`Unsupported::Drop`], dropped (lossy).
//!
//! Back: nothing to give back; dispatch checks the keyword, and its error names the pointer
//! the model saw.

use super::push_note;
use crate::render::report::{Change, ChangeKind};
use crate::render::schema_options::{Keyword, SchemaOptions, Unsupported};
use crate::render::schema_writer::has_lookaround;

/// Whether the dialect keeps `format` value `f` as a keyword.
#[inline]
pub(crate) fn keeps_format(opts: &SchemaOptions, f: &str) -> bool {
    opts.keywords.contains(Keyword::Format) && opts.formats.is_none_or(|list| list.contains(&f))
}

/// Whether the dialect keeps `pattern` value `p` as a keyword.
#[inline]
pub(crate) fn keeps_pattern(opts: &SchemaOptions, p: &str) -> bool {
    opts.keywords.contains(Keyword::Pattern) && (opts.pattern_lookaround || !has_lookaround(p))
}

/// Lowers keyword `k` of value `value` (empty for a flag such as `uniqueItems`): its note
/// appended to `notes` where the dialect describes what it does not take, and the change to
/// record returned.
pub(crate) fn lower(
    k: Keyword,
    value: &str,
    unsupported: Unsupported,
    notes: &mut String,
) -> Change {
    match unsupported {
        Unsupported::Describe => {
            if value.is_empty() {
                push_note(notes, &format!("{}.", k.label()));
            } else {
                push_note(notes, &format!("{}: {value}.", k.label()));
            }
            Change::lossless(ChangeKind::MovedToDescription, k.as_str())
                .detail(format!("`{}` moved into the description", k.as_str()))
        }
        Unsupported::Drop => Change::lossy(ChangeKind::Dropped, k.as_str())
            .detail(format!("`{}` dropped: the provider does not accept it", k.as_str())),
    }
}
