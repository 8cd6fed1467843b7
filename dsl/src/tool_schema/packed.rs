//! The packed tables of generated code: a tool's keys, or a derived object's fields, written by
//! `tooldef-macros` into one string literal and read here once, when the descriptor is built.
//!
//! Why a string: rustc const-evaluates and validates every struct literal of a `static` table,
//! which cost about 0.4 ms per parameter (a `ParamSpec { .. }` with its `Option`s and
//! `Literal`s); one `&str` per tool costs almost nothing. The schema functions and optionality
//! of the parameter types cannot be text, so they stay beside the string, one
//! `(schema, optional)` pair per parameter in order.
//!
//! # Format
//!
//! A sequence of records `<key><len>:<value>`: `key` is one ASCII byte, `len` the length of
//! `value` in bytes, in decimal, and `value` any UTF-8 text (it may hold `:` or digits, so it
//! is never scanned for a delimiter).
//!
//! | key | meaning | value |
//! |---|---|---|
//! | `T` | tool title | text |
//! | `D` | tool description | text |
//! | `R` `X` `I` `O` | read-only, destructive, idempotent, open-world hints | `1` or `0` |
//! | `p` | starts a parameter (or field) | its wire name |
//! | `d` | the parameter's description | text |
//! | `=` | its default | literal |
//! | `e` | one example (repeated) | literal |
//! | `<` `>` | minimum, maximum | literal |
//! | `l` `L` | minimum, maximum length | decimal |
//! | `r` | pattern | text |
//! | `f` | format | text |
//! | `o` | one allowed value (repeated) | text |
//! | `F` | `#[serde(flatten)]` | empty |
//! | `v` | an enum value (enum tables only); a `d` after it describes it | text |
//!
//! A literal is its JSON type's letter then its text: `s` + a string, `i` + an integer, `f` + a
//! number with a fraction, `b` + `true` or `false`.
//!
//! The writer is `tooldef-macros`, pinned to this crate's exact version, so a record this
//! reader does not know is a bug of the pair: it is logged and skipped, never a panic.

use std::borrow::Cow;

use super::rt::{ParamSpec, SchemaFn};
use crate::descriptor::Annotations;
use crate::literal::Literal;
use crate::schema::EnumValue;

/// The records of a packed table, in order; stops (and logs) at the first malformed record.
struct Records {
    rest: &'static str,
}

impl Iterator for Records {
    type Item = (u8, &'static str);

    fn next(&mut self) -> Option<Self::Item> {
        let &key = self.rest.as_bytes().first()?;
        let record = self.rest.get(1..).and_then(|after| {
            let (len, tail) = after.split_once(':')?;
            let len: usize = len.parse().ok()?;
            Some((tail.get(..len)?, tail.get(len..)?))
        });
        match record {
            Some((value, rest)) => {
                self.rest = rest;
                Some((key, value))
            }
            None => {
                tracing::error!(
                    table = self.rest,
                    "malformed packed table from tooldef-macros: the rest is ignored"
                );
                self.rest = "";
                None
            }
        }
    }
}

fn records(text: &'static str) -> Records {
    Records { rest: text }
}

/// A literal record's value: `s`, `i`, `f` or `b`, then its text.
fn literal(value: &'static str) -> Option<Literal> {
    let (kind, text) = (value.as_bytes().first()?, value.get(1..)?);
    match kind {
        b's' => Some(Literal::Str(Cow::Borrowed(text))),
        b'i' => text.parse().ok().map(Literal::Int),
        b'f' => text.parse().ok().map(Literal::Float),
        b'b' => text.parse().ok().map(Literal::Bool),
        _ => None,
    }
}

/// The tool-level keys of a packed tool table.
#[derive(Debug, Default)]
pub(crate) struct ToolHead {
    pub(crate) title: Option<&'static str>,
    pub(crate) description: &'static str,
    pub(crate) annotations: Annotations,
}

fn unknown(key: u8, value: &str) {
    tracing::error!(
        key = %char::from(key),
        value,
        "unknown or misplaced record in a packed table from tooldef-macros: skipped"
    );
}

/// Reads a packed table of parameters (a tool's when `head` is given, a derived object's
/// otherwise) with their types, in order.
pub(crate) fn params(
    text: &'static str,
    types: &'static [(SchemaFn, bool)],
    mut head: Option<&mut ToolHead>,
) -> Vec<ParamSpec> {
    let mut out: Vec<ParamSpec> = Vec::with_capacity(types.len());
    for (key, value) in records(text) {
        if key == b'p' {
            let Some(&(schema, optional)) = types.get(out.len()) else {
                tracing::error!(
                    param = value,
                    "packed table from tooldef-macros names more parameters than types: the rest is ignored"
                );
                break;
            };
            out.push(ParamSpec::new(value, schema, optional));
            continue;
        }
        let Some(p) = out.last_mut() else {
            match head.as_deref_mut() {
                Some(head) => tool_key(head, key, value),
                None => unknown(key, value),
            }
            continue;
        };
        let number = || value.parse::<u64>().ok();
        let ok = match key {
            b'd' => p.description.replace(value).is_none(),
            b'=' => literal(value).map(|l| p.default = Some(l)).is_some(),
            b'e' => literal(value).map(|l| p.examples.push(l)).is_some(),
            b'<' => literal(value).map(|l| p.minimum = Some(l)).is_some(),
            b'>' => literal(value).map(|l| p.maximum = Some(l)).is_some(),
            b'l' => number().map(|n| p.min_length = Some(n)).is_some(),
            b'L' => number().map(|n| p.max_length = Some(n)).is_some(),
            b'r' => p.pattern.replace(value).is_none(),
            b'f' => p.format.replace(value).is_none(),
            b'o' => {
                p.one_of.push(value);
                true
            }
            b'F' => {
                p.flatten = true;
                true
            }
            _ => false,
        };
        if !ok {
            unknown(key, value);
        }
    }
    if out.len() != types.len() {
        tracing::error!(
            params = out.len(),
            types = types.len(),
            "packed table from tooldef-macros names fewer parameters than types"
        );
    }
    out
}

fn tool_key(head: &mut ToolHead, key: u8, value: &'static str) {
    let hint = || match value {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    };
    let a = &mut head.annotations;
    let slot = match key {
        b'T' => {
            head.title = Some(value);
            return;
        }
        b'D' => {
            head.description = value;
            return;
        }
        b'R' => &mut a.read_only,
        b'X' => &mut a.destructive,
        b'I' => &mut a.idempotent,
        b'O' => &mut a.open_world,
        _ => return unknown(key, value),
    };
    match hint() {
        Some(b) => *slot = Some(b),
        None => unknown(key, value),
    }
}

/// Reads a packed enum table: `v` records, each optionally followed by its `d`.
pub(crate) fn enum_values(text: &'static str) -> Vec<EnumValue> {
    let mut out: Vec<EnumValue> = Vec::new();
    for (key, value) in records(text) {
        match (key, out.last_mut()) {
            (b'v', _) => out.push(EnumValue::new(value)),
            (b'd', Some(v)) if v.description.is_none() => {
                v.description = Some(Cow::Borrowed(value))
            }
            _ => unknown(key, value),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::Schema;
    use crate::tool_schema::{SchemaGen, ToolSchema};

    fn string(cx: &mut SchemaGen) -> Schema {
        String::schema(cx)
    }

    static TWO: [(SchemaFn, bool); 2] = [(string, false), (string, true)];

    #[test]
    fn values_may_hold_colons_digits_and_any_text() {
        let text = "D11:a:b 3:c\u{1}é!p4:unitd9:9: tricky=2:s:p1:xo1:1o0:";
        let mut head = ToolHead::default();
        let ps = params(text, &TWO, Some(&mut head));
        assert_eq!(head.description, "a:b 3:c\u{1}é!");
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].name, "unit");
        assert_eq!(ps[0].description, Some("9: tricky"));
        assert_eq!(ps[0].default, Some(Literal::str(":")));
        assert_eq!(ps[1].name, "x");
        assert!(ps[1].optional);
        assert_eq!(ps[1].one_of, ["1", ""]);
    }

    #[test]
    fn every_parameter_key_is_read() {
        let text = "p1:ad1:D=2:i5e3:f.5e5:btrue<3:i-2>4:f9.5l1:1L2:12r2:^ff4:dateo1:Fp1:bF0:";
        let ps = params(text, &TWO, None);
        let a = &ps[0];
        assert_eq!(a.default, Some(Literal::Int(5)));
        assert_eq!(a.examples, [Literal::Float(0.5), Literal::Bool(true)]);
        assert_eq!(a.minimum, Some(Literal::Int(-2)));
        assert_eq!(a.maximum, Some(Literal::Float(9.5)));
        assert_eq!((a.min_length, a.max_length), (Some(1), Some(12)));
        assert_eq!((a.pattern, a.format), (Some("^f"), Some("date")));
        assert_eq!(a.one_of, ["F"]);
        assert!(!a.flatten && ps[1].flatten);
    }

    #[test]
    fn tool_keys_fill_the_head() {
        let mut head = ToolHead::default();
        let ps = params("T5:TitleD4:DescR1:1X1:0I1:1O1:0", &[], Some(&mut head));
        assert!(ps.is_empty());
        assert_eq!((head.title, head.description), (Some("Title"), "Desc"));
        let a = &head.annotations;
        assert_eq!(
            (a.read_only, a.destructive, a.idempotent, a.open_world),
            (Some(true), Some(false), Some(true), Some(false))
        );
    }

    #[test]
    fn malformed_tables_keep_what_was_read_and_never_panic() {
        // A length past the end, a missing colon, a non-number length, a cut multi-byte char.
        for text in ["p1:ap1:bd99:short", "p1:ap1:bd3", "p1:ap1:bdx:y", "p1:ap1:bd1:é"] {
            let ps = params(text, &TWO, None);
            assert_eq!(ps.iter().map(|p| p.name).collect::<Vec<_>>(), ["a", "b"], "{text}");
            assert_eq!(ps[1].description, None, "{text}");
        }
        // More parameters than types, unknown keys, tool keys in an object table, bad literals.
        let ps = params("D1:xp1:ap1:bp1:c", &TWO, None);
        assert_eq!(ps.len(), 2);
        let ps = params("p1:a?1:x=2:q1<2:iz", &TWO, None);
        assert_eq!((ps[0].default.clone(), ps[0].minimum.clone()), (None, None));
        let mut head = ToolHead::default();
        params("R1:yZ0:", &[], Some(&mut head));
        assert_eq!(head.annotations.read_only, None);
    }

    #[test]
    fn enum_tables_pair_values_with_descriptions() {
        let vs = enum_values("v4:openv6:closedd8:Finishedd1:x");
        assert_eq!(vs.len(), 2);
        assert_eq!((vs[0].value.as_ref(), vs[0].description.as_deref()), ("open", None));
        assert_eq!(
            (vs[1].value.as_ref(), vs[1].description.as_deref()),
            ("closed", Some("Finished"))
        );
    }
}
