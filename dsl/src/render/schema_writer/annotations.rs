//! A node's annotations: its title, its description (with the notes of what was lowered into
//! it), its default and examples, and the keywords import kept verbatim. [`Ann`] also merges a
//! reference's annotations with its definition's when the reference is inlined.

use super::SchemaWriter;
use crate::literal::Literal;
use crate::render::json_writer::{JsonWriter, key};
use crate::render::lowering::kept_in_text;
use crate::render::schema_options::{Keyword, Keywords};
use crate::schema::{Kept, Schema};

/// The annotations of a schema node after merging a reference with its definition.
#[derive(Clone, Copy)]
pub(super) struct Ann<'a> {
    pub(super) nullable: bool,
    pub(super) title: Option<&'a str>,
    pub(super) description: Option<&'a str>,
    pub(super) default: Option<&'a Literal>,
    pub(super) examples: &'a [Literal],
    /// Keywords import kept verbatim.
    pub(super) verbatim: &'a [Kept],
}

impl<'a> Ann<'a> {
    pub(super) fn of(s: &'a Schema) -> Self {
        Ann {
            nullable: s.nullable,
            title: s.title.as_deref(),
            description: s.description.as_deref(),
            default: s.default.as_ref(),
            examples: &s.examples,
            verbatim: &s.kept,
        }
    }

    /// A `default` its schema rejects, kept by import, unless an applicable default (which
    /// wins) is set.
    pub(super) fn kept_default(&self) -> Option<&'a Kept> {
        if self.default.is_some() {
            return None;
        }
        self.verbatim.iter().find(|k| k.keyword == "default")
    }

    pub(super) fn has_siblings(&self) -> bool {
        self.title.is_some()
            || self.description.is_some()
            || self.default.is_some()
            || !self.examples.is_empty()
            || !self.verbatim.is_empty()
    }
}

impl<'a> SchemaWriter<'a> {
    /// The wrapper's annotations (title, description, default, examples) for anyOf-null style.
    pub(super) fn annotations(
        &mut self,
        out: &mut JsonWriter,
        ann: &Ann<'a>,
        kept: Keywords,
        notes: &str,
    ) {
        if let Some(t) = ann.title.filter(|_| kept.contains(Keyword::Title)) {
            key!(out, "title");
            out.string(t);
        }
        write_description(out, ann.description, notes);
        self.trailing(out, ann, kept);
    }

    /// Whether a `default` its schema rejects (see [`Ann::kept_default`]) is written as it is:
    /// where the dialect passes JSON Schema through and takes defaults.
    pub(super) fn writes_kept_default(&self) -> bool {
        !kept_in_text::fires(self.opts) && self.opts.keywords.contains(Keyword::Default)
    }

    pub(super) fn trailing(&mut self, out: &mut JsonWriter, ann: &Ann<'a>, kept: Keywords) {
        if !kept_in_text::fires(self.opts) {
            let kept_default = ann.kept_default().filter(|_| self.writes_kept_default());
            for k in ann.verbatim {
                if k.keyword == "default" && !kept_default.is_some_and(|d| std::ptr::eq(d, k)) {
                    continue;
                }
                out.key(&k.keyword);
                out.value(&k.value);
            }
        }
        if let Some(d) = ann.default.filter(|_| kept.contains(Keyword::Default)) {
            key!(out, "default");
            out.literal(d);
        }
        if !ann.examples.is_empty() && kept.contains(Keyword::Examples) {
            key!(out, "examples");
            out.begin_array();
            ann.examples.iter().for_each(|e| out.literal(e));
            out.end_array();
        }
    }
}

pub(super) fn write_description(out: &mut JsonWriter, description: Option<&str>, notes: &str) {
    match (description, notes.is_empty()) {
        (None, true) => {}
        (Some(d), true) => {
            key!(out, "description");
            out.string(d);
        }
        (d, false) => {
            key!(out, "description");
            out.string(&with_notes(d, notes));
        }
    }
}

/// `description` (a full stop added where it ends without one) followed by `notes`.
pub(super) fn with_notes(description: Option<&str>, notes: &str) -> String {
    let mut text = String::with_capacity(description.map_or(0, str::len) + notes.len() + 2);
    if let Some(d) = description.map(str::trim_end).filter(|d| !d.is_empty()) {
        text.push_str(d);
        if !d.ends_with(['.', '!', '?', ':']) {
            text.push('.');
        }
        text.push(' ');
    }
    text.push_str(notes);
    text
}
