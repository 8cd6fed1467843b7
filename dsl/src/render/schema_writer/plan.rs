//! Planning a node before it is written: which of its keywords the provider keeps, and, for
//! each one it does not, the note that goes into the description and the change that goes into
//! the report (lossless when the note says it all, lossy when meaning is lost).

use std::fmt::Write as _;

use super::SchemaWriter;
use super::annotations::Ann;
use super::{integer_keywords, number_keywords};
use crate::literal::Literal;
use crate::render::json_writer::{literal_text, push_float};
use crate::render::lowering::Pass;
use crate::render::report::{Change, ChangeKind, RenderError};
use crate::render::schema_options::{Keyword, Keywords, NullStyle, Unsupported};
use crate::schema::{
    Additional, Combine, EnumValues, NumberSchema, ScalarRef, SchemaKind, int_format_range,
};

impl<'a> SchemaWriter<'a> {
    /// Decides which keywords of this node are written; the others become notes and changes.
    pub(super) fn plan(
        &mut self,
        kind: &'a SchemaKind,
        ann: &Ann<'a>,
        notes: &mut String,
    ) -> Result<Keywords, RenderError> {
        let allowed = self.opts.keywords;
        let mut kept = Keywords::NONE;
        // Keeps `k` when allowed, else notes `text` under its label.
        macro_rules! keyword {
            ($k:expr, $text:expr) => {{
                let k: Keyword = $k;
                if allowed.contains(k) {
                    kept = kept.with(k);
                } else {
                    self.unsupported(k, $text.as_ref(), notes)?;
                }
            }};
        }
        if let Some(title) = ann.title {
            keyword!(Keyword::Title, title);
        }
        if let Some(d) = ann.default {
            keyword!(Keyword::Default, literal_text(d));
        }
        if !ann.examples.is_empty() {
            keyword!(Keyword::Examples, join_literals(ann.examples));
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
        if !self.opts.verbatim {
            // A kept default was shown above (or is written as it is); it is no keyword to lower.
            let mut lowered = ann.verbatim.iter().filter(|k| k.keyword != "default").peekable();
            if lowered.peek().is_some() {
                self.ctx.mark(Pass::KeptInText);
            }
            for k in lowered {
                push_note(notes, &format!("{}: {}.", k.keyword, k.value));
                self.record(Change::lossy(ChangeKind::MovedToDescription, k.keyword.to_string()).detail(format!(
                        "`{}` moved into the description: the provider does not take it and the IR cannot lower it",
                        k.keyword
                    )))?;
            }
        } else if ann.verbatim.iter().any(|k| k.keyword == "prefixItems" || k.keyword == "items") {
            // The kept `prefixItems`/`items` stand for the array's items.
            self.tuple_items = true;
        }
        match kind {
            SchemaKind::AnyOf(a) if a.combine == Combine::OneOf && !self.opts.verbatim => {
                self.ctx.mark(Pass::OneOfAsAnyOf);
                self.record(Change::lossy(ChangeKind::Rewritten, "oneOf").detail("`oneOf` written as `anyOf`: its variants may overlap, so the provider also accepts a value that matches two"))?;
            }
            SchemaKind::String(s) => {
                if let Some(f) = &s.format {
                    let known = self.opts.formats.is_none_or(|list| list.contains(&f.as_ref()));
                    if allowed.contains(Keyword::Format) && known {
                        kept = kept.with(Keyword::Format);
                    } else {
                        self.unsupported(Keyword::Format, f, notes)?;
                    }
                }
                if let Some(p) = &s.pattern {
                    let ok = self.opts.pattern_lookaround || !has_lookaround(p);
                    if allowed.contains(Keyword::Pattern) && ok {
                        kept = kept.with(Keyword::Pattern);
                    } else {
                        self.unsupported(Keyword::Pattern, p, notes)?;
                    }
                }
                if let Some(v) = s.min_length {
                    keyword!(Keyword::MinLength, v.to_string());
                }
                if let Some(v) = s.max_length {
                    keyword!(Keyword::MaxLength, v.to_string());
                }
            }
            SchemaKind::Integer(n) => {
                self.plan_format(n.format.as_deref(), Some(n), &mut kept, notes)?;
                let bounds = integer_keywords(n, kept.contains(Keyword::Format));
                self.plan_number(bounds, |v| v.to_string(), &mut kept, notes)?;
            }
            SchemaKind::Float(n) => {
                self.plan_format(n.format.as_deref(), None, &mut kept, notes)?;
                self.plan_number(number_keywords(n), float_text, &mut kept, notes)?;
            }
            SchemaKind::Enum(e) if self.enum_as_strings(&e.values) => {
                self.ctx.mark(Pass::StringEnums);
                self.record(Change::lossless(ChangeKind::Rewritten, "enum").detail(
                    "values sent as strings: the provider takes enums of strings only; the way back gives each string back as the value it stands for",
                ))?;
                if e.values.iter_described().any(|(_, d)| d.is_some()) {
                    push_enum_note(notes, &e.values);
                    self.record(
                        Change::lossless(ChangeKind::MovedToDescription, "enum")
                            .detail("descriptions of enum values written into the description"),
                    )?;
                }
            }
            SchemaKind::Enum(e) if self.enum_lowered(&e.values) => {
                self.ctx.mark(Pass::EnumsInText);
                push_enum_note(notes, &e.values);
                self.record(Change::lossy(ChangeKind::MovedToDescription, "enum").detail(
                    "values written into the description: the provider takes enums of strings only",
                ))?;
            }
            SchemaKind::Enum(e)
                if self.opts.null_style == NullStyle::AnyOf && self.kind_type(kind).is_none() =>
            {
                self.record(Change::lossless(ChangeKind::Rewritten, "type").detail(
                    "`type` left out: the values have several types and the provider takes no type arrays; `enum` alone says what is valid",
                ))?;
                if e.values.iter_described().any(|(_, d)| d.is_some()) {
                    push_enum_note(notes, &e.values);
                    self.record(
                        Change::lossless(ChangeKind::MovedToDescription, "enum")
                            .detail("descriptions of enum values written into the description"),
                    )?;
                }
            }
            SchemaKind::Enum(e) if e.values.iter_described().any(|(_, d)| d.is_some()) => {
                push_enum_note(notes, &e.values);
                self.record(
                    Change::lossless(ChangeKind::MovedToDescription, "enum")
                        .detail("descriptions of enum values written into the description"),
                )?;
            }
            SchemaKind::List(l) => {
                if let Some(v) = l.min_items {
                    match self.opts.max_min_items {
                        Some(max) if v > max && allowed.contains(Keyword::MinItems) => {
                            self.ctx.mark(Pass::ClampMinItems);
                            kept = kept.with(Keyword::MinItems);
                            push_note(notes, &format!("Minimum items: {v}."));
                            self
                                .record(Change::lossless(ChangeKind::Rewritten, "minItems").detail(
                                format!(
                                    "minItems {v} clamped to {max}; the bound is in the description"
                                ),
                            ))?;
                        }
                        _ => keyword!(Keyword::MinItems, v.to_string()),
                    }
                }
                if let Some(v) = l.max_items {
                    keyword!(Keyword::MaxItems, v.to_string());
                }
                if l.unique {
                    if allowed.contains(Keyword::UniqueItems) {
                        kept = kept.with(Keyword::UniqueItems);
                    } else {
                        self.unsupported(Keyword::UniqueItems, "", notes)?;
                    }
                }
            }
            SchemaKind::Object(o) => self.plan_additional(&o.additional, notes)?,
            _ => {}
        }
        Ok(kept)
    }

    /// A map whose dialect has no `additionalProperties` keeps its value type in the description.
    fn plan_additional(
        &mut self,
        additional: &Additional,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        let Additional::Typed(values) = additional else { return Ok(()) };
        if self.opts.additional_properties {
            return Ok(());
        }
        self.ctx.mark(Pass::MapValuesInText);
        // Written from the ordered literal, so the keys come in the order tooldef writes them.
        let literal = crate::json_schema::export_schema_literal(values, &[]);
        let text = serde_json::to_string(&literal).unwrap_or_default();
        push_note(notes, &format!("Values of other keys: {text}."));
        self.record(Change::lossy(ChangeKind::MovedToDescription, "additionalProperties").detail("the schema of map values moved into the description: the provider does not accept additionalProperties"))
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
        let known = self.opts.formats.is_none_or(|list| list.contains(&f));
        if self.opts.keywords.contains(Keyword::Format) && known {
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
                if self.opts.keywords.contains(k) {
                    *kept = kept.with(k);
                } else {
                    self.unsupported(k, &text(v), notes)?;
                }
            }
        }
        Ok(())
    }

    fn unsupported(
        &mut self,
        k: Keyword,
        value: &str,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        self.ctx.mark(Pass::KeywordsInText);
        match self.opts.unsupported {
            Unsupported::Describe => {
                if value.is_empty() {
                    push_note(notes, &format!("{}.", k.label()));
                } else {
                    push_note(notes, &format!("{}: {value}.", k.label()));
                }
                self.record(
                    Change::lossless(ChangeKind::MovedToDescription, k.as_str())
                        .detail(format!("`{}` moved into the description", k.as_str())),
                )
            }
            Unsupported::Drop => self.record(
                Change::lossy(ChangeKind::Dropped, k.as_str())
                    .detail(format!("`{}` dropped: the provider does not accept it", k.as_str())),
            ),
        }
    }
}

fn push_note(notes: &mut String, note: &str) {
    if !notes.is_empty() {
        notes.push(' ');
    }
    notes.push_str(note);
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

/// Appends the note listing an enum's values and their descriptions (`Values: a = A; b.`).
fn push_enum_note(s: &mut String, values: &EnumValues) {
    // One allocation for the whole note.
    let room: usize = values
        .iter_described()
        .map(|(v, d)| match v {
            ScalarRef::Str(v) => v.len(),
            _ => 24,
        } + d.map_or(0, str::len) + 5)
        .sum();
    s.reserve(room + 11);
    if !s.is_empty() {
        s.push(' ');
    }
    s.push_str("Values: ");
    for (i, (v, d)) in values.iter_described().enumerate() {
        if i > 0 {
            s.push_str("; ");
        }
        match v {
            ScalarRef::Str(v) => s.push_str(v),
            other => {
                let _ = write!(s, "{other}");
            }
        }
        if let Some(d) = d {
            s.push_str(" = ");
            s.push_str(d.trim_end().trim_end_matches('.'));
        }
    }
    s.push('.');
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
