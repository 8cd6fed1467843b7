//! Annotations: `title`, `description`, `default` and `examples` read onto a schema, never
//! failing (what cannot be held is left out with a note), and the literals they hold.

use std::borrow::Cow;

use serde_json::Value;

use crate::descriptor_rules::MAX_DEPTH;
use crate::json_schema::import::context::Cx;
use crate::json_schema::import::read::Node;
use crate::json_schema::imported::{ImportError, ImportErrorKind, describe, item, unsupported};
use crate::json_text::order::KeyOrder;
use crate::literal::Literal;
use crate::pointer::JsonPointer;
use crate::schema::Schema;

/// Whether the annotations `outer` gives would overwrite those `inner` has.
pub(super) fn annotations_clash(inner: &Schema, outer: &Node<'_>) -> bool {
    (inner.title.is_some() && outer.get("title").is_some())
        || (inner.description.is_some() && outer.get("description").is_some())
        || (inner.default.is_some() && outer.get("default").is_some())
        || (!inner.examples.is_empty() && outer.get("examples").is_some())
}

/// Writes the annotations `outer` has over those of `s`.
pub(super) fn merge_annotations(s: &mut Schema, outer: Schema) {
    if outer.title.is_some() {
        s.title = outer.title;
    }
    if outer.description.is_some() {
        s.description = outer.description;
    }
    if outer.default.is_some() {
        s.default = outer.default;
    }
    if !outer.examples.is_empty() {
        s.examples = outer.examples;
    }
}

fn literal(
    order: &KeyOrder,
    v: &Value,
    ptr: &JsonPointer,
    keyword: &str,
) -> Result<Literal, ImportError> {
    // Literals are converted recursively: refuse absurd nesting first.
    let mut stack = vec![(v, 0usize)];
    while let Some((x, d)) = stack.pop() {
        if d > 2 * MAX_DEPTH {
            return Err(ImportError::at(ptr, ImportErrorKind::TooDeep));
        }
        match x {
            Value::Array(a) => stack.extend(a.iter().map(|y| (y, d + 1))),
            Value::Object(o) => stack.extend(o.values().map(|y| (y, d + 1))),
            _ => {}
        }
    }
    order.literal(ptr.as_str(), v).map_err(|e| unsupported(ptr, keyword, e.to_string()))
}

/// A float with a zero fractional part inside the 64-bit range, as the integer it is.
pub(super) fn whole(l: &mut Literal) {
    if let Literal::Float(f) = *l
        && f.fract() == 0.0
        && f.abs() < 9.2e18
    {
        *l = Literal::Int(f as i64);
    }
}

/// Reads the annotations of a node onto `s`.
pub(super) fn annotations(cx: &mut Cx, node: &Node<'_>, s: &mut Schema) -> Result<(), ImportError> {
    for key in ["title", "description"] {
        let Some(kw) = node.get(key) else { continue };
        match &*kw.value {
            Value::String(t) => {
                let t = Cow::Owned(t.clone());
                if key == "title" { s.title = Some(t) } else { s.description = Some(t) }
            }
            other => {
                let msg = format!("is {}, not a string, and was dropped", describe(other));
                let ptr = kw.ptr.clone();
                cx.note(&ptr, key, msg);
            }
        }
    }
    if let Some(kw) = node.get("default") {
        match literal(&cx.order, &kw.value, &kw.ptr, "default") {
            Ok(l) => s.default = Some(l),
            Err(e) => {
                let ptr = kw.ptr.clone();
                cx.note(&ptr, "default", format!("cannot be held ({}) and was dropped", e.kind));
            }
        }
    }
    if let Some(kw) = node.get("examples") {
        match &*kw.value {
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, example) in items.iter().enumerate() {
                    let ptr = item(&kw.ptr, i);
                    match literal(&cx.order, example, &ptr, "examples") {
                        Ok(l) => out.push(l),
                        Err(e) => cx.note(
                            &ptr,
                            "examples",
                            format!("cannot be held ({}) and was dropped", e.kind),
                        ),
                    }
                }
                s.examples = Cow::Owned(out);
            }
            other => {
                let msg = format!("is {}, not an array, and was dropped", describe(other));
                let ptr = kw.ptr.clone();
                cx.note(&ptr, "examples", msg);
            }
        }
    }
    Ok(())
}
