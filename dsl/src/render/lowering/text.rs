//! The way back of [`Pass::NullForAbsent`](super::Pass::NullForAbsent) over argument *text*,
//! for the common case: a strict model's call whose `null`s stand for parameters of the root
//! object left out. One scan of the text (the stream's scanner, which copies nothing) finds
//! the root's members; those whose `null` the pass reads as absent are left out of a new text,
//! which dispatch then decodes straight into the typed parameters, with no `Value` in between.
//! A `null` deeper down that may stand for absent, or text that is not one JSON object, is
//! left to the walker over a parsed value ([`back`](super::back)).

use std::ops::Range;

use super::null_for_absent;
use crate::descriptor::{Definition, Param, ToolDescriptor};
use crate::schema::{Additional, Schema, SchemaKind};
use crate::stream::scan::{Frame, Scanner};

/// What the text way back found.
pub(crate) enum Text {
    /// Nothing to give back: the text stays as it is.
    Unchanged,
    /// The text with each root member whose `null` stands for absent left out.
    Restored(String),
    /// Something only the walker over a parsed value can decide.
    Walk,
}

/// The text way back of null-for-absent for `descriptor`'s arguments `text`.
pub(crate) fn restore(descriptor: &ToolDescriptor, text: &str) -> Text {
    let defs: &[Definition] = &descriptor.definitions;
    let mut scanner = Scanner::default();
    // The root's members (key start to value end), and whether each is left out.
    let mut members: Vec<(Range<usize>, bool)> = Vec::new();
    let mut walk = false;
    let scanned = scanner.advance(text, &mut |s, done| {
        // Keys are reported as they complete too; the member is taken once its value is.
        if done.key {
            return;
        }
        let mut frames = s.frames();
        let depth = frames.len();
        let Some(Frame::Object { key: Some(key) }) = frames.next() else { return };
        let name = &text[key.start + 1..key.end - 1];
        let is_null = &text[done.range.clone()] == "null";
        if depth == 1 {
            // An escaped key names no parameter here; the walker reads it.
            let absent = is_null
                && !name.contains('\\')
                && find(&descriptor.params, name).is_some_and(|p| null_for_absent::fires(p, defs));
            walk |= is_null && name.contains('\\');
            members.push((key.start..done.range.end, absent));
        } else if is_null && !walk {
            walk = deep_null_may_be_absent(descriptor, text, s);
        }
    });
    if scanned.is_err() || !scanner.is_done() || walk {
        return Text::Walk;
    }
    if !members.iter().any(|(_, absent)| *absent) {
        return Text::Unchanged;
    }
    let mut out = String::with_capacity(text.len());
    out.push('{');
    for (range, _) in members.iter().filter(|(_, absent)| !*absent) {
        if out.len() > 1 {
            out.push(',');
        }
        out.push_str(&text[range.clone()]);
    }
    out.push('}');
    Text::Restored(out)
}

fn find<'p>(params: &'p [Param], name: &str) -> Option<&'p Param> {
    params.iter().find(|p| p.name() == name)
}

/// Whether a `null` below the root, at the scanner's path, may stand for absent: the path
/// leads through objects, lists and references to a property the pass fires for, or into a
/// union or past what the descriptor says (where only the walker can tell).
fn deep_null_may_be_absent(descriptor: &ToolDescriptor, text: &str, s: &Scanner) -> bool {
    let defs: &[Definition] = &descriptor.definitions;
    let mut frames = s.frames();
    let Some(Frame::Object { key: Some(key) }) = frames.next() else { return true };
    let name = &text[key.start + 1..key.end - 1];
    let Some(mut param) = find(&descriptor.params, name) else {
        return !matches!(
            descriptor.additional,
            Additional::Closed | Additional::Open | Additional::Unstated
        );
    };
    let mut schema: &Schema = &param.schema;
    for frame in frames {
        let Some(resolved) = resolve(schema, defs) else { return true };
        match (&resolved.kind, frame) {
            (SchemaKind::Object(o), Frame::Object { key: Some(k) }) => {
                let name = &text[k.start + 1..k.end - 1];
                if name.contains('\\') {
                    return true;
                }
                match find(&o.properties, name) {
                    Some(p) => {
                        param = p;
                        schema = &p.schema;
                    }
                    None => return matches!(o.additional, Additional::Typed(_)),
                }
            }
            (SchemaKind::List(l), Frame::Array { .. }) => {
                // A list item's null is the item's, never a property's.
                let Some(items) = resolve(&l.items, defs) else { return true };
                if matches!(items.kind, SchemaKind::AnyOf(_)) {
                    return true;
                }
                schema = &l.items;
                continue;
            }
            (SchemaKind::Any, _) => return false,
            _ => return true,
        }
    }
    // The null is the value of `param` only if the last frame named it.
    matches!(s.frames().last(), Some(Frame::Object { .. })) && null_for_absent::fires(param, defs)
}

fn resolve<'s>(mut schema: &'s Schema, defs: &'s [Definition]) -> Option<&'s Schema> {
    for _ in 0..crate::dispatch::MAX_DEPTH {
        let SchemaKind::Ref(r) = &schema.kind else { return Some(schema) };
        schema = &defs.iter().find(|d| d.name == r.name)?.schema;
    }
    None
}
