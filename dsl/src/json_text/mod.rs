//! Reading JSON the way tooldef needs it: duplicate keys refused with their pointer, and values
//! of any depth measured and dropped without recursion.
//!
//! `serde_json` keeps the last of two equal keys without a word (`{"a": 1, "a": 2}` is
//! `{"a": 2}`), so a spec file or a tool call could say two things and be read as one.
//! [`parse`] reads JSON text into a `serde_json::Value` exactly as `serde_json::from_slice`
//! does (same line and column in errors), except that a key given twice in one object is an
//! error naming the key's JSON pointer, and so is an array or object nested deeper than
//! [`MAX_DEPTH`] (where serde_json says only `recursion limit exceeded` and where). Spec files,
//! arguments given as text and imported provider JSON are read with it.
//!
//! A `serde_json::Value` built by a host program has no depth limit, and cloning, checking,
//! serializing or dropping one recurses once per level: 100,000 levels overflow the stack.
//! Dispatch measures a value with [`depth_exceeds`] (a loop, no recursion) before it does
//! anything else with it and refuses one deeper than [`MAX_DEPTH`]; [`dismantle`] drops a value
//! of any depth.
//!
//! | file | owns |
//! | --- | --- |
//! | `mod.rs` | [`parse`], reading a call's arguments, [`depth_exceeds`], [`dismantle`] |
//! | `order.rs` | [`KeyOrder`]: the key order of JSON text, kept beside its `Value`, and the reader that records it and refuses text deeper than [`MAX_DEPTH`] |

use serde_json::Value;

use crate::pointer::JsonPointer;
pub use order::MAX_DEPTH;
use order::{KeyOrder, TextProblem};

pub(crate) mod order;

/// Parses JSON text, refusing a key that appears twice in one object.
///
/// ```
/// let err = tooldef::json_text::parse(br#"{"a": {"b": 1, "b": 2}}"#).unwrap_err();
/// assert_eq!(err.to_string(), "duplicate key: #/a/b is given twice at line 1 column 18");
/// assert!(tooldef::json_text::parse(br#"{"a": 1, "b": 1}"#).is_ok());
/// ```
///
/// # Errors
///
/// Malformed JSON, nesting deeper than [`MAX_DEPTH`] or a duplicate key, each with its line
/// and column (the last two with their pointer as well).
pub fn parse(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    // The ordered reader refuses duplicate keys with their pointer; the order itself is not
    // needed here.
    KeyOrder::parse(bytes).map(|(value, _)| value)
}

/// Why text given as a tool's arguments could not be read.
#[derive(Debug)]
pub(crate) enum ArgumentsText {
    /// Not one JSON value: serde_json's error, with its line and column.
    Malformed(serde_json::Error),
    /// Well-formed JSON that gives the key at this pointer twice in one object: an argument
    /// error at that key, like any other.
    DuplicateKey(JsonPointer),
    /// Well-formed JSON with an array or object at this pointer nested deeper than
    /// [`MAX_DEPTH`]: an argument error at that pointer.
    TooDeep(JsonPointer),
}

/// Parses arguments given as text as [`parse`] does, telling a duplicate key or nesting past
/// the limit (the model's mistake at one argument) from text that is not JSON.
pub(crate) fn parse_arguments(bytes: &[u8]) -> Result<Value, ArgumentsText> {
    match KeyOrder::parse_noting_problem(bytes) {
        Ok((value, _)) => Ok(value),
        Err((_, Some(TextProblem::DuplicateKey(pointer)))) => {
            Err(ArgumentsText::DuplicateKey(pointer))
        }
        Err((_, Some(TextProblem::TooDeep(pointer)))) => Err(ArgumentsText::TooDeep(pointer)),
        Err((error, None)) => Err(ArgumentsText::Malformed(error)),
    }
}

/// Whether `value` nests more than `max` arrays or objects (the outermost counts as one):
/// `Some(pointer)` of the first container found past the limit, `None` when it fits. Runs in
/// a loop, so any depth is safe.
pub fn depth_exceeds(value: &Value, max: usize) -> Option<JsonPointer> {
    /// How a container was reached from its parent.
    #[derive(Clone, Copy)]
    enum Seg<'v> {
        Index(usize),
        Key(&'v str),
    }
    let deeper = |x: &Value| matches!(x, Value::Array(_) | Value::Object(_));
    // Each entry: a container, its level (the outermost is 1) and the segment that reached it.
    let mut stack: Vec<(&Value, usize, Seg<'_>)> = Vec::new();
    if deeper(value) {
        stack.push((value, 1, Seg::Index(0)));
    }
    // `path[i]` is the segment of the container at level `i + 2` on the way to the current one.
    let mut path: Vec<Seg<'_>> = Vec::new();
    while let Some((v, level, seg)) = stack.pop() {
        path.truncate(level.saturating_sub(2));
        if level > 1 {
            path.push(seg);
        }
        if level > max {
            let mut pointer = JsonPointer::root();
            for seg in &path {
                match *seg {
                    Seg::Index(i) => pointer.push_index(i),
                    Seg::Key(k) => pointer.push(k),
                }
            }
            return Some(pointer);
        }
        match v {
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate().rev().filter(|(_, x)| deeper(x)) {
                    stack.push((x, level + 1, Seg::Index(i)));
                }
            }
            Value::Object(map) => {
                for (k, x) in map.iter().rev().filter(|(_, x)| deeper(x)) {
                    stack.push((x, level + 1, Seg::Key(k)));
                }
            }
            _ => {}
        }
    }
    None
}

/// Drops a value of any depth without recursion (a deep `Value` dropped normally overflows
/// the stack).
pub fn dismantle(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, x)| x)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_what_serde_json_reads() {
        let text = br#"{"z": [1, -2, 3.5, "x", null, true, {"k": {}}], "a": 18446744073709551615}"#;
        assert_eq!(parse(text).unwrap(), serde_json::from_slice::<Value>(text).unwrap());
    }

    #[test]
    fn duplicate_keys_are_refused_with_their_pointer() {
        let err = parse(br#"{"a": 1, "a": 2}"#).unwrap_err();
        assert_eq!(err.to_string(), "duplicate key: #/a is given twice at line 1 column 12");
        let err = parse(b"[0, {\"x/y\": 1,\n \"x/y\": 2}]").unwrap_err();
        assert_eq!(err.to_string(), "duplicate key: #/1/x~1y is given twice at line 2 column 6");
        // The same key in two objects is fine.
        assert!(parse(br#"[{"a": 1}, {"a": 1}]"#).is_ok());
    }

    #[test]
    fn syntax_errors_are_serde_json_s_and_the_depth_limit_is_serde_json_s_with_a_pointer() {
        // serde_json reads 127 levels and stops at the 128th; so does `parse`, naming it at the
        // same place.
        let at_limit = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(serde_json::from_str::<Value>(&at_limit).is_ok());
        assert!(parse(at_limit.as_bytes()).is_ok());
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(
            serde_json::from_str::<Value>(&deep).unwrap_err().to_string(),
            "recursion limit exceeded at line 1 column 128"
        );
        let pointer = "/0".repeat(MAX_DEPTH);
        assert_eq!(
            parse(deep.as_bytes()).unwrap_err().to_string(),
            format!(
                "too deep: #{pointer} is nested more than 127 levels deep at line 1 column 128"
            )
        );
        let Err(ArgumentsText::TooDeep(at)) = parse_arguments(deep.as_bytes()) else {
            panic!("not refused as too deep")
        };
        assert_eq!(at, pointer.as_str());
        assert_eq!(
            parse(b"{\"a\": 1} x").unwrap_err().to_string(),
            serde_json::from_str::<Value>("{\"a\": 1} x").unwrap_err().to_string()
        );
    }

    fn nested(levels: usize) -> Value {
        let mut v = json!(0);
        for i in 0..levels {
            // Not `json!`: it would serialize `v` again, recursively.
            v = if i % 2 == 0 {
                Value::Array(vec![v])
            } else {
                Value::Object(serde_json::Map::from_iter([("k".to_owned(), v)]))
            };
        }
        v
    }

    #[test]
    fn depth_is_measured_and_deep_values_dropped_without_recursion() {
        let v = nested(100_000);
        assert!(depth_exceeds(&v, MAX_DEPTH).is_some());
        dismantle(v);
        assert_eq!(depth_exceeds(&nested(MAX_DEPTH), MAX_DEPTH), None);
        // Levels alternate; with an odd count the outermost is an array, with an even count
        // an object.
        let v = nested(MAX_DEPTH + 1);
        let pointer = depth_exceeds(&v, MAX_DEPTH).unwrap();
        assert_eq!(pointer.segments().count(), MAX_DEPTH);
        let want = if MAX_DEPTH.is_multiple_of(2) { "/0/k/0/k" } else { "/k/0/k/0" };
        assert!(pointer.as_str().starts_with(want), "{pointer}");
        dismantle(v);
        let v = json!({"a": [1, {"b": []}], "c": {"d": 3}});
        assert_eq!(depth_exceeds(&v, 4), None);
        assert_eq!(depth_exceeds(&v, 3).unwrap(), "/a/1/b");
        assert_eq!(depth_exceeds(&v, 2).unwrap(), "/a/1");
        assert_eq!(depth_exceeds(&json!({"x": 1}), 1), None);
        assert_eq!(depth_exceeds(&json!(1), 0), None);
        assert_eq!(depth_exceeds(&json!({"a/b": {"~": []}}), 2).unwrap(), "/a~1b/~0");
    }
}
