//! The early checker: each value the scanner completes, checked against the schema at its
//! path, so that an argument that already breaks the schema is known before the call ends.
//!
//! Direct members of the arguments object are checked whole (every constraint, nested ones
//! included) when they complete; scalars deeper down are checked on their own as soon as they
//! complete, where the path leads to one schema (through objects, lists and references; not
//! into `anyOf`, where the variant is not known yet). Each problem is reported once.

use std::borrow::Cow;

use serde_json::Value;

use crate::checks::{self, ArgError};
use crate::descriptor::{Definition, ToolDescriptor};
use crate::dispatch::{MAX_DEPTH, MAX_ERRORS, Validator};
use crate::schema::{Additional, Schema, SchemaKind};
use crate::stream::scan::{Completed, Frame, Scanner};

/// What checking one completed value found.
pub(crate) enum Finding {
    /// Problems not reported before.
    Invalid(Vec<ArgError>),
    /// The value's own text is not JSON (a mistyped number or literal).
    Malformed(String),
}

/// The early checks of one call against its descriptor.
#[derive(Debug)]
pub(crate) struct Early<'d> {
    descriptor: &'d ToolDescriptor,
    reported: Vec<ArgError>,
}

impl<'d> Early<'d> {
    pub(crate) fn new(descriptor: &'d ToolDescriptor) -> Self {
        Early { descriptor, reported: Vec::new() }
    }

    /// Checks the value `done` that `scanner` has just completed in `buf`.
    pub(crate) fn check(
        &mut self,
        validator: &Validator,
        scanner: &Scanner,
        buf: &str,
        done: &Completed,
    ) -> Option<Finding> {
        let mut frames = scanner.frames();
        let depth = frames.len();
        // The root object itself: what is missing is dispatch's to say, once the call is whole.
        let Some(Frame::Object { key: Some(key) }) = frames.next() else { return None };
        if depth > 1 && done.container {
            return None;
        }
        let key = key_text(&buf[key.clone()])?;
        let d = self.descriptor;
        let mut schema = match d.params.iter().find(|p| p.name() == key) {
            Some(p) => &p.schema,
            None => match &d.additional {
                Additional::Typed(s) => &**s,
                Additional::Open => return None,
                Additional::Closed if depth == 1 => {
                    let pointer = pointer_of(scanner.frames(), buf)?;
                    let names = d.params.iter().map(|p| p.name());
                    let e = checks::unknown_key(&pointer, Some(d.name.as_str()), names);
                    return self.fresh(vec![e]);
                }
                Additional::Closed => return None,
            },
        };
        for frame in frames {
            schema = step(schema, &d.definitions, frame, buf)?;
        }
        let value: Value = match serde_json::from_str(&buf[done.range.clone()]) {
            Ok(v) => v,
            Err(_) => {
                let pointer = pointer_of(scanner.frames(), buf)?;
                let text = &buf[done.range.clone()];
                let shown = match text.char_indices().nth(32) {
                    Some((cut, _)) => format!("{}...", &text[..cut]),
                    None => text.to_owned(),
                };
                return Some(Finding::Malformed(format!(
                    "`{shown}` at {pointer} is not a JSON value"
                )));
            }
        };
        if quick_accept(schema, &value) {
            return None;
        }
        let pointer = pointer_of(scanner.frames(), buf)?;
        match validator.check_value(schema, &d.definitions, &value, &pointer) {
            Ok(()) => None,
            Err(errors) => self.fresh(errors.0),
        }
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

/// A value that needs no further look: a string for a plain string schema, a boolean for a
/// boolean one (the common case, checked without building the validator's walk).
fn quick_accept(schema: &Schema, value: &Value) -> bool {
    match (&schema.kind, value) {
        (SchemaKind::String(s), Value::String(_)) => {
            s.format.is_none()
                && s.pattern.is_none()
                && s.min_length.is_none()
                && s.max_length.is_none()
        }
        (SchemaKind::Boolean, Value::Bool(_)) | (SchemaKind::Any, _) => true,
        _ => false,
    }
}

/// The schema one step down `frame` from `schema`, when the path leads to exactly one.
fn step<'s>(
    mut schema: &'s Schema,
    defs: &'s [Definition],
    frame: &Frame,
    buf: &str,
) -> Option<&'s Schema> {
    for _ in 0..MAX_DEPTH {
        let SchemaKind::Ref(r) = &schema.kind else { break };
        schema = &defs.iter().find(|d| d.name == r.name)?.schema;
    }
    match (&schema.kind, frame) {
        (SchemaKind::Object(o), Frame::Object { key: Some(k) }) => {
            let key = key_text(&buf[k.clone()])?;
            match o.properties.iter().find(|p| p.name() == key) {
                Some(p) => Some(&p.schema),
                None => match &o.additional {
                    Additional::Typed(s) => Some(&**s),
                    _ => None,
                },
            }
        }
        (SchemaKind::List(l), Frame::Array { .. }) => Some(&*l.items),
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

/// The JSON pointer of the value at the end of `frames`.
fn pointer_of<'f>(frames: impl Iterator<Item = &'f Frame>, buf: &str) -> Option<String> {
    let mut out = String::new();
    for f in frames {
        out.push('/');
        match f {
            Frame::Object { key: Some(k) } => {
                for c in key_text(&buf[k.clone()])?.chars() {
                    match c {
                        '~' => out.push_str("~0"),
                        '/' => out.push_str("~1"),
                        c => out.push(c),
                    }
                }
            }
            Frame::Object { key: None } => return None,
            Frame::Array { index } => out.push_str(&index.to_string()),
        }
    }
    Some(out)
}
