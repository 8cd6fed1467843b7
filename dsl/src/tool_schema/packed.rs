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
//! The key letters are the constants of `packed_keys.rs`, one file shared with the writer in
//! `tooldef-macros` (a symbolic link there), so that writer and reader name each key once:
//!
//! | key | meaning | value |
//! |---|---|---|
//! | `TITLE`, `DESCRIPTION` | tool title, tool description | text |
//! | `READ_ONLY`, `DESTRUCTIVE`, `IDEMPOTENT`, `OPEN_WORLD` | the tool's hints | `1` or `0` |
//! | `PARAM` | starts a parameter (or field) | its wire name |
//! | `DOC` | the parameter's (or enum value's) description | text |
//! | `DEFAULT` | its default | literal |
//! | `EXAMPLE` | one example (repeated) | literal |
//! | `MINIMUM`, `MAXIMUM` | minimum, maximum | literal |
//! | `MIN_LENGTH`, `MAX_LENGTH` | minimum, maximum length | decimal |
//! | `PATTERN`, `FORMAT` | pattern, format | text |
//! | `ONE_OF` | one allowed value (repeated) | text |
//! | `FLATTEN` | `#[serde(flatten)]` | empty |
//! | `ENUM_VALUE` | an enum value (enum tables only); a `DOC` after it describes it | text |
//!
//! A literal is its JSON type's letter then its text: `LIT_STR` + a string, `LIT_INT` + an
//! integer, `LIT_FLOAT` + a number with a fraction, `LIT_BOOL` + `true` or `false`.
//!
//! The writer is `tooldef-macros`, pinned to this crate's exact version, so a record this
//! reader does not know is a bug of the pair: it is logged and skipped, never a panic.

use std::borrow::Cow;

// The key letters, shared with the writer in `tooldef-macros` (see that file).
#[path = "packed_keys.rs"]
#[allow(unreachable_pub)]
mod keys;

use super::SchemaGen;
use crate::descriptor::Annotations;
use crate::literal::Literal;
use crate::schema::{EnumValue, Schema};

/// A schema function (`<T as ToolSchema>::schema`).
pub type SchemaFn = fn(&mut SchemaGen) -> Schema;

/// One parameter (or field) with its `#[param(...)]` keys, read from a packed table.
#[derive(Debug)]
pub(crate) struct ParamSpec {
    /// The wire name.
    pub(crate) name: &'static str,
    /// The description.
    pub(crate) description: Option<&'static str>,
    /// The schema of the type.
    pub(crate) schema: SchemaFn,
    /// Whether the key may be absent.
    pub(crate) optional: bool,
    /// `default`.
    pub(crate) default: Option<Literal>,
    /// `example`.
    pub(crate) examples: Vec<Literal>,
    /// `min` / `range` start.
    pub(crate) minimum: Option<Literal>,
    /// `max` / `range` end.
    pub(crate) maximum: Option<Literal>,
    /// `length` start.
    pub(crate) min_length: Option<u64>,
    /// `length` end.
    pub(crate) max_length: Option<u64>,
    /// `pattern`.
    pub(crate) pattern: Option<&'static str>,
    /// `format`.
    pub(crate) format: Option<&'static str>,
    /// `one_of` (empty: none).
    pub(crate) one_of: Vec<&'static str>,
    /// `#[serde(flatten)]` (derives only): the properties are merged into the parent.
    pub(crate) flatten: bool,
}

impl ParamSpec {
    /// A parameter with only a name, a schema and optionality.
    pub(crate) fn new(name: &'static str, schema: SchemaFn, optional: bool) -> Self {
        ParamSpec {
            name,
            description: None,
            schema,
            optional,
            default: None,
            examples: Vec::new(),
            minimum: None,
            maximum: None,
            min_length: None,
            max_length: None,
            pattern: None,
            format: None,
            one_of: Vec::new(),
            flatten: false,
        }
    }
}

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
    match *kind {
        keys::LIT_STR => Some(Literal::Str(Cow::Borrowed(text))),
        keys::LIT_INT => text.parse().ok().map(Literal::Int),
        // Read by serde_json, whose number parser every program with tooldef holds already,
        // rather than by `f64::from_str`, which would add the standard library's own float
        // parser and its tables (about 14 KB) for this one use. Both round-trip exactly.
        keys::LIT_FLOAT => serde_json::from_str(text).ok().map(Literal::Float),
        keys::LIT_BOOL => text.parse().ok().map(Literal::Bool),
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
        if key == keys::PARAM {
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
            keys::DOC => p.description.replace(value).is_none(),
            keys::DEFAULT => literal(value).map(|l| p.default = Some(l)).is_some(),
            keys::EXAMPLE => literal(value).map(|l| p.examples.push(l)).is_some(),
            keys::MINIMUM => literal(value).map(|l| p.minimum = Some(l)).is_some(),
            keys::MAXIMUM => literal(value).map(|l| p.maximum = Some(l)).is_some(),
            keys::MIN_LENGTH => number().map(|n| p.min_length = Some(n)).is_some(),
            keys::MAX_LENGTH => number().map(|n| p.max_length = Some(n)).is_some(),
            keys::PATTERN => p.pattern.replace(value).is_none(),
            keys::FORMAT => p.format.replace(value).is_none(),
            keys::ONE_OF => {
                p.one_of.push(value);
                true
            }
            keys::FLATTEN => {
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
        keys::TITLE => {
            head.title = Some(value);
            return;
        }
        keys::DESCRIPTION => {
            head.description = value;
            return;
        }
        keys::READ_ONLY => &mut a.read_only,
        keys::DESTRUCTIVE => &mut a.destructive,
        keys::IDEMPOTENT => &mut a.idempotent,
        keys::OPEN_WORLD => &mut a.open_world,
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
            (keys::ENUM_VALUE, _) => out.push(EnumValue::new(value)),
            (keys::DOC, Some(v)) if v.description.is_none() => {
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
        let text = "p1:ad1:D=2:i5e4:f0.5e5:btrue<3:i-2>4:f9.5l1:1L2:12r2:^ff4:dateo1:Fp1:bF0:";
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
        assert_eq!(
            (vs[0].value.as_ref().as_str(), vs[0].description.as_deref()),
            (Some("open"), None)
        );
        assert_eq!(
            (vs[1].value.as_ref().as_str(), vs[1].description.as_deref()),
            (Some("closed"), Some("Finished"))
        );
    }
}
