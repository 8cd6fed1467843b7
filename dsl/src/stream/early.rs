//! The early checker: each value the scanner completes, checked against the schema at its
//! path, so that an argument that already breaks the schema is known before the call ends.
//!
//! A key that its object does not take is reported as soon as the key is complete, before its
//! value arrives. Direct members of the arguments object are checked whole (every constraint,
//! nested ones included) when they complete; scalars deeper down are checked on their own as
//! soon as they complete, where the path leads to one schema (through objects, lists and
//! references; not into `anyOf`, where the variant is not known yet). Each problem is reported
//! once.

use std::borrow::Cow;

use serde_json::Value;

use crate::arg_checks::{self, ArgError};
use crate::descriptor::{Definition, Param, ToolDescriptor};
use crate::dispatch::{ArgValidator, MAX_DEPTH, MAX_ERRORS};
use crate::pointer::JsonPointer;
use crate::render::lowering::{null_for_absent, string_enums};
use crate::render::{Pass, Passes};
use crate::schema::{Additional, Schema, SchemaKind};
use crate::stream::scan::{Completed, Frame, Scanner};

/// What checking one completed value found.
pub(crate) enum Finding {
    /// Problems not reported before.
    Invalid(Vec<ArgError>),
    /// The value's own text is not JSON (a mistyped number or literal).
    Malformed(String),
}

/// The early checks of one call against its descriptor, reading values as the value-changing
/// lowering passes of its rendering ([`Passes`]) give them back.
#[derive(Debug)]
pub(crate) struct Early<'d> {
    descriptor: &'d ToolDescriptor,
    passes: Passes,
    /// Whether dispatch repairs a string holding the object or array its place expects.
    repair: bool,
    reported: Vec<ArgError>,
}

impl<'d> Early<'d> {
    pub(crate) fn new(descriptor: &'d ToolDescriptor, passes: Passes, repair: bool) -> Self {
        Early { descriptor, passes, repair, reported: Vec::new() }
    }

    /// Checks the key or the value `done` that `scanner` has just completed in `buf`.
    pub(crate) fn check(
        &mut self,
        validator: &ArgValidator,
        scanner: &Scanner,
        buf: &str,
        done: &Completed,
    ) -> Option<Finding> {
        if done.key {
            return self.check_key(scanner, buf);
        }
        let mut frames = scanner.frames();
        let depth = frames.len();
        // The root object itself: what is missing is dispatch's to say, once the call is whole.
        let Some(Frame::Object { key: Some(key) }) = frames.next() else { return None };
        if depth > 1 && done.container {
            return None;
        }
        let key = key_text(&buf[key.clone()])?;
        let d = self.descriptor;
        let mut param = d.params.iter().find(|p| p.name() == key);
        let mut schema = match param {
            Some(p) => &p.schema,
            None => match &d.additional {
                Additional::Typed(s) => &**s,
                Additional::Open | Additional::Unstated => return None,
                Additional::Closed if depth == 1 => {
                    let pointer = pointer_of(scanner.frames(), buf)?;
                    let names = d.params.iter().map(|p| p.name());
                    let e = arg_checks::unknown_key(pointer.as_str(), Some(d.name.as_str()), names);
                    return self.fresh(vec![e]);
                }
                Additional::Closed => return None,
            },
        };
        for frame in frames {
            (schema, param) = step(schema, &d.definitions, frame, buf)?;
        }
        let text = &buf[done.range.clone()];
        // A `null` the way back reads as absent is no error: what is missing is dispatch's to
        // say, once the call is whole.
        if text == "null"
            && self.passes.contains(Pass::NullForAbsent)
            && param.is_some_and(|p| null_for_absent::fires(p, &d.definitions))
        {
            return None;
        }
        // A string an enum was sent as stands for its value.
        let typed;
        let text = match self
            .passes
            .contains(Pass::StringEnums)
            .then(|| resolve(schema, &d.definitions))
        {
            Some(Some(Schema { kind: SchemaKind::Enum(e), .. }))
                if string_enums::fires(&e.values) =>
            {
                match plain_string(text).and_then(|sent| string_enums::typed(&e.values, sent)) {
                    Some(value) => {
                        typed = value.to_string();
                        typed.as_str()
                    }
                    None => text,
                }
            }
            _ => text,
        };
        // The common case, decided on the text alone: a scalar that certainly fits, or a list
        // whose items were each checked as they completed.
        if if done.container {
            covered(schema, &d.definitions)
        } else {
            accepts(schema, &d.definitions, text)
        } {
            return None;
        }
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(_) => {
                let pointer = pointer_of(scanner.frames(), buf)?;
                let shown = match text.char_indices().nth(32) {
                    Some((cut, _)) => format!("{}...", &text[..cut]),
                    None => text.to_owned(),
                };
                return Some(Finding::Malformed(format!(
                    "`{shown}` at {pointer} is not a JSON value"
                )));
            }
        };
        let pointer = pointer_of(scanner.frames(), buf)?;
        match validator.check_value(schema, &d.definitions, &value, &pointer) {
            Ok(()) => None,
            // What dispatch reads as the object or array it holds is no error either.
            Err(_)
                if self.repair
                    && crate::dispatch::repairable(validator, schema, &d.definitions, &value) =>
            {
                None
            }
            Err(errors) => self.fresh(errors.0),
        }
    }

    /// Checks the key that `scanner` has just completed (the last of its frames): one its
    /// object does not take is the error the validator gives once the value is in, now.
    fn check_key(&mut self, scanner: &Scanner, buf: &str) -> Option<Finding> {
        let d = self.descriptor;
        let frames = scanner.frames();
        let depth = frames.len();
        let mut walk = frames.clone();
        let Some(Frame::Object { key: Some(first) }) = walk.next() else { return None };
        let first = key_text(&buf[first.clone()])?;
        let param = d.params.iter().find(|p| p.name() == first);
        if depth == 1 {
            if param.is_some() || !matches!(d.additional, Additional::Closed) {
                return None;
            }
            let pointer = pointer_of(frames, buf)?;
            let names = d.params.iter().map(|p| p.name());
            let e = arg_checks::unknown_key(pointer.as_str(), Some(d.name.as_str()), names);
            return self.fresh(vec![e]);
        }
        // The schema of the object that holds the key: down the frames before the key's own.
        let mut schema = match param {
            Some(p) => &p.schema,
            None => match &d.additional {
                Additional::Typed(s) => &**s,
                _ => return None,
            },
        };
        for frame in walk.take(depth - 2) {
            schema = step(schema, &d.definitions, frame, buf)?.0;
        }
        let SchemaKind::Object(o) = &resolve(schema, &d.definitions)?.kind else { return None };
        let Some(Frame::Object { key: Some(k) }) = scanner.frames().last() else { return None };
        let key = key_text(&buf[k.clone()])?;
        if !matches!(o.additional, Additional::Closed)
            || o.properties.iter().any(|p| p.name() == key)
        {
            return None;
        }
        let pointer = pointer_of(frames, buf)?;
        let names = o.properties.iter().map(|p| p.name());
        self.fresh(vec![arg_checks::unknown_key(pointer.as_str(), None, names)])
    }

    /// The errors among `errors` not reported before (at most [`MAX_ERRORS`] in all).
    fn fresh(&mut self, errors: Vec<ArgError>) -> Option<Finding> {
        let mut new = Vec::new();
        for e in errors {
            if self.reported.len() >= MAX_ERRORS {
                break;
            }
            if !self.reported.contains(&e) {
                self.reported.push(e.clone());
                new.push(e);
            }
        }
        (!new.is_empty()).then_some(Finding::Invalid(new))
    }
}

/// `schema` with its references followed (`None` for a dangling one).
fn resolve<'s>(mut schema: &'s Schema, defs: &'s [Definition]) -> Option<&'s Schema> {
    for _ in 0..MAX_DEPTH {
        let SchemaKind::Ref(r) = &schema.kind else { return Some(schema) };
        schema = &defs.iter().find(|d| d.name == r.name)?.schema;
    }
    None
}

/// Whether the complete scalar `text` certainly satisfies `schema`, decided without building
/// a `Value`. `false` means "look closer" (the validator then decides and words the error).
fn accepts(schema: &Schema, defs: &[Definition], text: &str) -> bool {
    let Some(schema) = resolve(schema, defs) else { return false };
    if schema.nullable && text == "null" {
        return true;
    }
    match &schema.kind {
        SchemaKind::Any => true,
        SchemaKind::Boolean => text == "true" || text == "false",
        SchemaKind::Null => text == "null",
        SchemaKind::String(s) => plain_string(text).is_some_and(|inner| {
            let n = inner.chars().count() as u64;
            s.pattern.is_none()
                && s.min_length.is_none_or(|min| n >= min)
                && s.max_length.is_none_or(|max| n <= max)
        }),
        SchemaKind::Enum(e) => plain_string(text).is_some_and(|inner| e.values.contains(inner)),
        SchemaKind::Integer(n) => {
            is_json_number(text)
                && n.multiple_of.is_none_or(|step| step > 0)
                && text.parse::<i64>().is_ok_and(|v| n.bounds().int_broken(v.into()).is_none())
        }
        SchemaKind::Float(n) => {
            is_json_number(text)
                && n.multiple_of.is_none()
                && text
                    .parse::<f64>()
                    .is_ok_and(|v| v.is_finite() && n.bounds().float_bounds(v).is_none())
        }
        _ => false,
    }
}

/// Whether a completed container needs no check of its own: a list without item-count or
/// uniqueness rules whose items are scalars (each was checked when it completed).
fn covered(schema: &Schema, defs: &[Definition]) -> bool {
    let Some(schema) = resolve(schema, defs) else { return false };
    match &schema.kind {
        SchemaKind::List(l) => {
            l.min_items.is_none()
                && l.max_items.is_none()
                && !l.unique
                && resolve(&l.items, defs).is_some_and(|items| {
                    !matches!(
                        items.kind,
                        SchemaKind::List(_)
                            | SchemaKind::Object(_)
                            | SchemaKind::AnyOf(_)
                            | SchemaKind::Any
                    )
                })
        }
        SchemaKind::Any => true,
        _ => false,
    }
}

/// The inside of a JSON string without escapes (`None` for anything else).
fn plain_string(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('"')?.strip_suffix('"')?;
    (!inner.contains('\\')).then_some(inner)
}

/// Whether `text` is a number by JSON's grammar (Rust's parsers also take `inf`, `+1`, `01`).
fn is_json_number(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// The schema one step down `frame` from `schema`, when the path leads to exactly one, with
/// the property it is the schema of (none for list items and map values).
fn step<'s>(
    schema: &'s Schema,
    defs: &'s [Definition],
    frame: &Frame,
    buf: &str,
) -> Option<(&'s Schema, Option<&'s Param>)> {
    let schema = resolve(schema, defs)?;
    match (&schema.kind, frame) {
        (SchemaKind::Object(o), Frame::Object { key: Some(k) }) => {
            let key = key_text(&buf[k.clone()])?;
            match o.properties.iter().find(|p| p.name() == key) {
                Some(p) => Some((&p.schema, Some(p))),
                None => match &o.additional {
                    Additional::Typed(s) => Some((&**s, None)),
                    _ => None,
                },
            }
        }
        (SchemaKind::List(l), Frame::Array { .. }) => Some((&*l.items, None)),
        _ => None,
    }
}

/// The text of a key (its raw JSON string, quotes included); `None` if the escapes are bad.
pub(crate) fn key_text(raw: &str) -> Option<Cow<'_, str>> {
    if raw.contains('\\') {
        serde_json::from_str::<String>(raw).ok().map(Cow::Owned)
    } else {
        raw.get(1..raw.len().saturating_sub(1)).map(Cow::Borrowed)
    }
}

/// The JSON pointer of the value at the end of `frames`, a key whose escapes do not read
/// (the text is broken there anyway) taken as written.
pub(crate) fn frames_pointer<'f>(
    frames: impl Iterator<Item = &'f Frame>,
    buf: &str,
) -> JsonPointer {
    let mut out = JsonPointer::root();
    for f in frames {
        match f {
            Frame::Object { key: Some(k) } => {
                let raw = &buf[k.clone()];
                match key_text(raw) {
                    Some(key) => out.push(&key),
                    None => out.push(raw.get(1..raw.len().saturating_sub(1)).unwrap_or(raw)),
                }
            }
            // Between a key and the next: no value is being read there.
            Frame::Object { key: None } => {}
            Frame::Array { index } => out.push_index(*index),
        }
    }
    out
}

/// The JSON pointer of the value at the end of `frames`.
fn pointer_of<'f>(frames: impl Iterator<Item = &'f Frame>, buf: &str) -> Option<JsonPointer> {
    let mut out = JsonPointer::root();
    for f in frames {
        match f {
            Frame::Object { key: Some(k) } => out.push(&key_text(&buf[k.clone()])?),
            Frame::Object { key: None } => return None,
            Frame::Array { index } => out.push_index(*index),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_numbers_are_told_from_what_rust_also_parses() {
        for ok in ["0", "-0", "12", "-3.25", "1e9", "2.5E-3", "6e+2"] {
            assert!(is_json_number(ok), "{ok}");
        }
        for bad in ["", "-", "01", "+1", "1.", ".5", "1e", "inf", "nan", "NaN", "1_000", "0x10"] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }
}
