//! Planning a node before it is written: which of its keywords the provider keeps, and, for
//! each one it does not, the note that goes into the description and the change that goes into
//! the report (lossless when the note says it all, lossy when meaning is lost). What each
//! lowering does is its pass's, in `render/lowering/`; this file asks them node by node.

use super::SchemaWriter;
use super::annotations::Ann;
use super::{integer_keywords, number_keywords};
use crate::literal::Literal;
use crate::render::json_writer::{literal_text, push_float};
use crate::render::lowering::enums_in_text::{self, EnumForm};
use crate::render::lowering::{
    Pass, clamp_min_items, kept_in_text, keywords_in_text, map_values_in_text, one_of_as_any_of,
    push_note, string_enums,
};
use crate::render::report::{Change, ChangeKind, RenderError};
use crate::render::schema_options::{Keyword, Keywords, NullStyle};
use crate::schema::{
    Additional, EnumValues, ListSchema, NumberSchema, SchemaKind, StringSchema, int_format_range,
};

impl<'a> SchemaWriter<'a> {
    /// Decides which keywords of this node are written; the others become notes and changes.
    pub(super) fn plan(
        &mut self,
        kind: &'a SchemaKind,
        ann: &Ann<'a>,
        notes: &mut String,
    ) -> Result<Keywords, RenderError> {
        let mut kept = self.plan_annotations(ann, notes)?;
        self.plan_kept(ann, notes)?;
        match kind {
            SchemaKind::AnyOf(a) if one_of_as_any_of::fires(a.combine, self.opts) => {
                self.lower(Pass::OneOfAsAnyOf, one_of_as_any_of::change())?;
            }
            SchemaKind::String(s) => self.plan_string(s, &mut kept, notes)?,
            SchemaKind::Integer(n) => {
                self.plan_format(n.format.as_deref(), Some(n), &mut kept, notes)?;
                let bounds = integer_keywords(n, kept.contains(Keyword::Format));
                self.plan_number(bounds, |v| v.to_string(), &mut kept, notes)?;
            }
            SchemaKind::Float(n) => {
                self.plan_format(n.format.as_deref(), None, &mut kept, notes)?;
                self.plan_number(number_keywords(n), float_text, &mut kept, notes)?;
            }
            SchemaKind::Enum(e) => self.plan_enum(kind, &e.values, notes)?,
            SchemaKind::List(l) => self.plan_list(l, &mut kept, notes)?,
            SchemaKind::Object(o) => self.plan_additional(&o.additional, notes)?,
            _ => {}
        }
        Ok(kept)
    }

    /// Keeps keyword `k` where the dialect takes it; else lowers it, with `text` (made only
    /// then) as its value.
    fn keyword<T: AsRef<str>>(
        &mut self,
        k: Keyword,
        kept: &mut Keywords,
        notes: &mut String,
        text: impl FnOnce() -> T,
    ) -> Result<(), RenderError> {
        if self.opts.keywords.contains(k) {
            *kept = kept.with(k);
            Ok(())
        } else {
            self.unsupported(k, text().as_ref(), notes)
        }
    }

    /// `title`, `default` and `examples`, and a default its schema rejects.
    fn plan_annotations(
        &mut self,
        ann: &Ann<'a>,
        notes: &mut String,
    ) -> Result<Keywords, RenderError> {
        let mut kept = Keywords::NONE;
        if let Some(title) = ann.title {
            self.keyword(Keyword::Title, &mut kept, notes, || title)?;
        }
        if let Some(d) = ann.default {
            self.keyword(Keyword::Default, &mut kept, notes, || literal_text(d))?;
        }
        if !ann.examples.is_empty() {
            self.keyword(Keyword::Examples, &mut kept, notes, || join_literals(ann.examples))?;
        }
        // A default its schema rejects (kept by import) is shown as the author wrote it:
        // verbatim where the dialect passes JSON Schema through, else in the description.
        if let Some(k) = ann.kept_default()
            && !self.writes_kept_default()
        {
            push_note(notes, &format!("{}: {}.", Keyword::Default.label(), k.value));
            self.record(Change::lossless(ChangeKind::MovedToDescription, "default").detail(
                "a default its own schema rejects moved into the description (it is never applied)",
            ))?;
        }
        Ok(kept)
    }

    /// The keywords import kept verbatim: into the description ([`Pass::KeptInText`]), or
    /// written as they are, where a kept `prefixItems`/`items` stands for the array's items.
    fn plan_kept(&mut self, ann: &Ann<'a>, notes: &mut String) -> Result<(), RenderError> {
        if kept_in_text::fires(self.opts) {
            // A kept default was shown above (or is written as it is); it is no keyword to lower.
            for k in ann.verbatim.iter().filter(|k| k.keyword != "default") {
                self.lower(Pass::KeptInText, kept_in_text::lower(k, notes))?;
            }
        } else if ann.verbatim.iter().any(|k| k.keyword == "prefixItems" || k.keyword == "items") {
            self.tuple_items = true;
        }
        Ok(())
    }

    fn plan_string(
        &mut self,
        s: &StringSchema,
        kept: &mut Keywords,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        if let Some(f) = &s.format {
            if keywords_in_text::keeps_format(self.opts, f) {
                *kept = kept.with(Keyword::Format);
            } else {
                self.unsupported(Keyword::Format, f, notes)?;
            }
        }
        if let Some(p) = &s.pattern {
            if keywords_in_text::keeps_pattern(self.opts, p) {
                *kept = kept.with(Keyword::Pattern);
            } else {
                self.unsupported(Keyword::Pattern, p, notes)?;
            }
        }
        if let Some(v) = s.min_length {
            self.keyword(Keyword::MinLength, kept, notes, || v.to_string())?;
        }
        if let Some(v) = s.max_length {
            self.keyword(Keyword::MaxLength, kept, notes, || v.to_string())?;
        }
        Ok(())
    }

    /// An enum: sent as strings ([`Pass::StringEnums`]), written in the description
    /// ([`Pass::EnumsInText`]) or as it is; its values' descriptions go into the description.
    fn plan_enum(
        &mut self,
        kind: &SchemaKind,
        values: &EnumValues,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        let described = enums_in_text::has_descriptions(values);
        match enums_in_text::form(values, self.opts) {
            EnumForm::Strings => self.lower(Pass::StringEnums, string_enums::change())?,
            EnumForm::InText => {
                enums_in_text::push_note_of(notes, values);
                return self.lower(Pass::EnumsInText, enums_in_text::change());
            }
            EnumForm::AsIs
                if self.opts.null_style == NullStyle::AnyOf && self.kind_type(kind).is_none() =>
            {
                self.record(Change::lossless(ChangeKind::Rewritten, "type").detail(
                    "`type` left out: the values have several types and the provider takes no type arrays; `enum` alone says what is valid",
                ))?;
            }
            EnumForm::AsIs => {}
        }
        if described {
            enums_in_text::push_note_of(notes, values);
            self.record(enums_in_text::described_change())?;
        }
        Ok(())
    }

    fn plan_list(
        &mut self,
        l: &ListSchema,
        kept: &mut Keywords,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        if let Some(v) = l.min_items {
            if clamp_min_items::fires(v, self.opts)
                && self.opts.keywords.contains(Keyword::MinItems)
            {
                *kept = kept.with(Keyword::MinItems);
                self.lower(Pass::ClampMinItems, clamp_min_items::lower(v, notes))?;
            } else {
                self.keyword(Keyword::MinItems, kept, notes, || v.to_string())?;
            }
        }
        if let Some(v) = l.max_items {
            self.keyword(Keyword::MaxItems, kept, notes, || v.to_string())?;
        }
        if l.unique {
            self.keyword(Keyword::UniqueItems, kept, notes, || "")?;
        }
        Ok(())
    }

    /// A map whose dialect has no `additionalProperties` keeps its value type in the
    /// description ([`Pass::MapValuesInText`]).
    fn plan_additional(
        &mut self,
        additional: &Additional,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        if let Additional::Typed(values) = additional
            && map_values_in_text::fires(self.opts)
        {
            return self.lower(Pass::MapValuesInText, map_values_in_text::lower(values, notes));
        }
        Ok(())
    }

    /// A number's `format`: kept where the dialect takes it; where not, an integer's `int32` or
    /// `int64` (`integer` is given) is written as the bounds it means (see `integer_keywords`)
    /// and any other format is unsupported.
    fn plan_format(
        &mut self,
        format: Option<&str>,
        integer: Option<&NumberSchema<i64>>,
        kept: &mut Keywords,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        let Some(f) = format else { return Ok(()) };
        if keywords_in_text::keeps_format(self.opts, f) {
            *kept = kept.with(Keyword::Format);
            return Ok(());
        }
        match (integer, int_format_range(f)) {
            (Some(n), Some((low, high))) => {
                let mut written = Vec::new();
                for (k, v) in integer_keywords(n, false).iter().zip(number_keywords(n)) {
                    if k.1 != v.1 {
                        written.push(format!("`{}: {}`", k.0.as_str(), k.1.unwrap_or_default()));
                    }
                }
                let detail = if written.is_empty() {
                    format!(
                        "`format: {f}` ({low} to {high}) not written: the provider does not take \
                         it, and the schema's own bounds are as tight"
                    )
                } else {
                    format!(
                        "`format: {f}` ({low} to {high}) written as {}: the provider does not \
                         take the format",
                        written.join(" and ")
                    )
                };
                self.record(Change::lossless(ChangeKind::Rewritten, "format").detail(detail))
            }
            _ => self.unsupported(Keyword::Format, f, notes),
        }
    }

    fn plan_number<T: Copy>(
        &mut self,
        bounds: [(Keyword, Option<T>); 5],
        text: impl Fn(T) -> String,
        kept: &mut Keywords,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        for (k, v) in bounds {
            if let Some(v) = v {
                self.keyword(k, kept, notes, || text(v))?;
            }
        }
        Ok(())
    }

    /// Lowers keyword `k` the dialect does not take ([`Pass::KeywordsInText`]).
    fn unsupported(
        &mut self,
        k: Keyword,
        value: &str,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        let change = keywords_in_text::lower(k, value, self.opts.unsupported, notes);
        self.lower(Pass::KeywordsInText, change)
    }
}

pub(super) fn float_text(f: f64) -> String {
    let mut s = String::new();
    push_float(&mut s, f);
    s
}

fn join_literals(items: &[Literal]) -> String {
    let mut s = String::new();
    for (i, l) in items.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&literal_text(l));
    }
    s
}

/// Whether a regular expression uses lookaround or backreferences, which some strict dialects
/// reject.
pub fn has_lookaround(pattern: &str) -> bool {
    let b = pattern.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                if b.get(i + 1).is_some_and(|c| c.is_ascii_digit() && *c != b'0')
                    || b.get(i + 1) == Some(&b'k')
                {
                    return true;
                }
                i += 2;
                continue;
            }
            b'(' if b.get(i + 1) == Some(&b'?') => {
                let rest = &b[i + 2..];
                if rest.starts_with(b"=")
                    || rest.starts_with(b"!")
                    || rest.starts_with(b"<=")
                    || rest.starts_with(b"<!")
                {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}
