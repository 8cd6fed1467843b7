//! What models really send: a nested object or array that arrives as a JSON *string* where the
//! schema expects an object or an array (`"filter": "{\"limit\": 5}"`), read as the value the
//! string holds, decided by the schema and never guessed.
//!
//! A string is parsed and adopted only where the tool's schema refuses it as it is and accepts
//! what it holds: an `anyOf: [object, string]` takes the string, so it stays a string; text
//! that is not JSON, or JSON the schema refuses, stays as it came and dispatch says what is
//! wrong with it. Each adoption is a [`Repair`], kept on the call's
//! [`ToolResult::repairs`](crate::ToolResult::repairs) and in the `tooldef.dispatch` span;
//! [`CallOptions::repair`](crate::dispatch::CallOptions::repair) turns it off. Nothing else is
//! repaired: arguments cut short (a stream that ended early) are malformed JSON, never
//! completed.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::descriptor::{Definition, Param, ToolDescriptor};
use crate::dispatch::{ArgValidator, MAX_DEPTH};
use crate::pointer::JsonPointer;
use crate::schema::{Additional, Schema, SchemaKind};
use crate::tool::{Arguments, ToolCall};

/// How many union variants one call's repair tries at most.
const MAX_TRIES: usize = 1024;

/// One value dispatch read differently from how it arrived.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Repair {
    /// The JSON pointer of the value in the arguments (the root for the arguments themselves).
    pub pointer: JsonPointer,
    /// What it was read as.
    pub kind: RepairKind,
}

/// What a [`Repair`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RepairKind {
    /// A JSON string read as the object it held.
    ObjectFromString,
    /// A JSON string read as the array it held.
    ArrayFromString,
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            RepairKind::ObjectFromString => "object",
            RepairKind::ArrayFromString => "array",
        };
        let at = if self.pointer.is_empty() { "the arguments" } else { self.pointer.as_str() };
        write!(f, "{at}: a JSON string read as the {what} it holds")
    }
}

/// The arguments of `call` with every string that holds the object or array its place expects
/// read as that value, and the repairs made; `None` when there is nothing to repair (the call
/// then goes to the tool as it came).
pub(crate) fn repair(
    descriptor: &ToolDescriptor,
    call: &ToolCall,
) -> Option<(ToolCall, Vec<Repair>)> {
    let mut value = match &call.arguments {
        Arguments::Text(text) => {
            if !holds_container_text(text) {
                return None;
            }
            crate::json_text::parse_arguments(text.as_bytes()).ok()?
        }
        Arguments::Json(value) => {
            if crate::json_text::depth_exceeds(value, crate::json_text::MAX_DEPTH).is_some()
                || !holds_container_value(value)
            {
                return None;
            }
            value.clone()
        }
    };
    let mut walk = Walk {
        defs: &descriptor.definitions,
        validator: ArgValidator::new(),
        pointer: JsonPointer::root(),
        repairs: Vec::new(),
        tries: 0,
    };
    match &mut value {
        Value::Object(map) => walk.object(map, &descriptor.params, &descriptor.additional, 0),
        Value::String(text) => {
            // The whole arguments sent as one string of an object.
            if let Some(Value::Object(map)) = parse_container(text)
                && walk.validator.check_args(descriptor, &Value::Object(map.clone())).is_ok()
            {
                walk.repairs.push(Repair {
                    pointer: JsonPointer::root(),
                    kind: RepairKind::ObjectFromString,
                });
                value = Value::Object(map);
            }
        }
        _ => {}
    }
    if walk.repairs.is_empty() {
        return None;
    }
    let repairs = walk.repairs;
    Some((ToolCall { arguments: Arguments::Json(value), ..call.clone() }, repairs))
}

/// Whether argument text has a string that starts (after blanks) with `{` or `[`: only then can
/// anything be repaired, and most calls have none (one pass over the bytes, no parse).
fn holds_container_text(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    // Strings: a quote, then blanks (literal or escaped), then a bracket. A key that starts so
    // costs a parse that repairs nothing.
    while let Some(q) = b[i..].iter().position(|c| *c == b'"') {
        let mut j = i + q + 1;
        loop {
            match b.get(j) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => j += 1,
                Some(b'\\') if matches!(b.get(j + 1), Some(b'n' | b't' | b'r')) => j += 2,
                _ => break,
            }
        }
        if matches!(b.get(j), Some(b'{' | b'[')) {
            return true;
        }
        i = i + q + 1;
    }
    false
}

/// [`holds_container_text`] for parsed arguments.
fn holds_container_value(value: &Value) -> bool {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) if s.trim_start().starts_with(['{', '[']) => return true,
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    false
}

/// The object or array `text` holds, if it is one (read as arguments text is read: a key
/// given twice is not JSON here).
fn parse_container(text: &str) -> Option<Value> {
    let trimmed = text.trim();
    if !trimmed.starts_with(['{', '[']) {
        return None;
    }
    crate::json_text::parse(trimmed.as_bytes()).ok().filter(|v| v.is_object() || v.is_array())
}

struct Walk<'d> {
    defs: &'d [Definition],
    validator: ArgValidator,
    pointer: JsonPointer,
    repairs: Vec<Repair>,
    tries: usize,
}

impl Walk<'_> {
    fn object(
        &mut self,
        map: &mut Map<String, Value>,
        params: &[Param],
        additional: &Additional,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        for (key, v) in map.iter_mut() {
            let schema = match params.iter().find(|p| p.name() == key) {
                Some(p) => &p.schema,
                None => match additional {
                    Additional::Typed(s) => &**s,
                    _ => continue,
                },
            };
            let mark = self.pointer.len();
            self.pointer.push(key);
            self.value(v, schema, depth + 1);
            self.pointer.truncate(mark);
        }
    }

    fn value(&mut self, v: &mut Value, schema: &Schema, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let Some(schema) = resolve(schema, self.defs) else { return };
        if let Value::String(text) = &*v {
            if holds_containers(schema, self.defs)
                && self.validator.check_value(schema, self.defs, v, &self.pointer).is_err()
                && let Some(held) = parse_container(text)
                && self.validator.check_value(schema, self.defs, &held, &self.pointer).is_ok()
            {
                let kind = if held.is_object() {
                    RepairKind::ObjectFromString
                } else {
                    RepairKind::ArrayFromString
                };
                self.repairs.push(Repair { pointer: self.pointer.clone(), kind });
                *v = held;
            }
            return;
        }
        match (&schema.kind, v) {
            (SchemaKind::Object(o), Value::Object(map)) => {
                self.object(map, &o.properties, &o.additional, depth);
            }
            (SchemaKind::List(l), Value::Array(items)) => {
                for (i, item) in items.iter_mut().enumerate() {
                    let mark = self.pointer.len();
                    self.pointer.push_index(i);
                    self.value(item, &l.items, depth + 1);
                    self.pointer.truncate(mark);
                }
            }
            (SchemaKind::AnyOf(a), v @ (Value::Object(_) | Value::Array(_))) => {
                // The first variant under which the value, repaired, fits.
                for variant in a.variants.iter() {
                    if self.tries >= MAX_TRIES {
                        return;
                    }
                    self.tries += 1;
                    let mark = self.repairs.len();
                    let mut attempt = v.clone();
                    self.value(&mut attempt, variant, depth + 1);
                    if self.repairs.len() == mark {
                        continue;
                    }
                    if self
                        .validator
                        .check_value(variant, self.defs, &attempt, &self.pointer)
                        .is_ok()
                    {
                        *v = attempt;
                        return;
                    }
                    self.repairs.truncate(mark);
                }
            }
            _ => {}
        }
    }
}

/// Whether dispatch would read `value`, a string the schema refuses, as the object or array it
/// holds (for the stream's early checks, which must not report what dispatch repairs).
pub(crate) fn repairable(
    validator: &ArgValidator,
    schema: &Schema,
    defs: &[Definition],
    value: &Value,
) -> bool {
    let Value::String(text) = value else { return false };
    let Some(schema) = resolve(schema, defs) else { return false };
    holds_containers(schema, defs)
        && parse_container(text).is_some_and(|held| {
            validator.check_value(schema, defs, &held, &JsonPointer::root()).is_ok()
        })
}

/// `schema` with its references followed (`None` for a dangling one or a loop).
fn resolve<'s>(mut schema: &'s Schema, defs: &'s [Definition]) -> Option<&'s Schema> {
    for _ in 0..MAX_DEPTH {
        let SchemaKind::Ref(r) = &schema.kind else { return Some(schema) };
        schema = &defs.iter().find(|d| d.name == r.name)?.schema;
    }
    None
}

/// Whether a value of `schema` may be an object or an array.
fn holds_containers(schema: &Schema, defs: &[Definition]) -> bool {
    fn go(schema: &Schema, defs: &[Definition], hops: usize) -> bool {
        if hops > 16 {
            return false;
        }
        match &schema.kind {
            SchemaKind::Object(_) | SchemaKind::List(_) => true,
            SchemaKind::AnyOf(a) => a.variants.iter().any(|v| go(v, defs, hops + 1)),
            SchemaKind::Ref(r) => defs
                .iter()
                .find(|d| d.name == r.name)
                .is_some_and(|d| go(&d.schema, defs, hops + 1)),
            _ => false,
        }
    }
    go(schema, defs, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_text_with_a_string_that_opens_a_container_is_parsed() {
        for yes in [r#"{"a":"{}"}"#, r#"{"a": " [1]"}"#, r#"{"a":"\n{\"b\":1}"}"#] {
            assert!(holds_container_text(yes), "{yes}");
        }
        for no in [r#"{"a":"x{"}"#, r#"{"a":[1,{"b":2}]}"#, r#"{}"#, ""] {
            assert!(!holds_container_text(no), "{no}");
        }
    }
}
