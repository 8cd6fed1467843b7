//! Decoding of `#[tool]` argument structs: the `Deserialize` that generated code implements
//! with a few lines over these helpers, in place of `#[derive(Deserialize)]`.
//!
//! Why not serde's derive: it writes a field enum, a field visitor with three `visit_*`
//! methods, and sequence and map visitors for every struct, about 16 KB of code per tool that
//! rustc then expands, type-checks and borrow-checks. Here the visitor, the duplicate and
//! missing checks are written once, and a tool adds its wire names and a loop with one
//! `Option` slot and one match arm per parameter ([`DecodeArgs`]).
//!
//! What is accepted is what the derive with `#[serde(deny_unknown_fields)]` accepts from an
//! object, with the same error messages: unknown keys, duplicate keys and missing required keys
//! are refused; an absent `Option` is `None` (decided by the type's own `Deserialize`, as
//! serde does, so wrappers of `Option` behave the same); an absent key with a default takes it.
//! A sequence is refused (the derive would take one; tool arguments are always an object, and
//! `TypedTool::decode` refuses anything else before decoding).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, Visitor};

/// The per-tool part of decoding arguments, implemented by `#[tool]` on its arguments struct:
/// the wire names, and the loop over an object's keys with one local `Option` slot per
/// parameter ([`next_key`] and [`DecodeParam`] do the work).
pub trait DecodeArgs<'de>: Sized {
    /// The wire names, in declaration order.
    const FIELDS: &'static [&'static str];

    /// Reads the arguments from an object's entries.
    ///
    /// # Errors
    ///
    /// An unknown or duplicate key, the first required key (in declaration order) that is
    /// absent, or a value's own decoding error.
    fn visit_map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// Decodes the arguments `S` from an object.
///
/// # Errors
///
/// What the deserializer reports, and the errors of [`DecodeArgs::visit_map`].
pub fn decode_args<'de, S, D>(deserializer: D) -> Result<S, D::Error>
where
    S: DecodeArgs<'de>,
    D: Deserializer<'de>,
{
    deserializer.deserialize_struct("arguments", S::FIELDS, ArgsVisitor::<S>(PhantomData))
}

struct ArgsVisitor<S>(PhantomData<S>);

impl<'de, S: DecodeArgs<'de>> Visitor<'de> for ArgsVisitor<S> {
    type Value = S;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of arguments")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<S, A::Error> {
        S::visit_map(map)
    }
}

/// The index of the next key of `map` in the wire names of `S`, or `None` at the end.
///
/// # Errors
///
/// `unknown field` for a key that is not a parameter, or the deserializer's own error.
pub fn next_key<'de, S, A>(map: &mut A) -> Result<Option<usize>, A::Error>
where
    S: DecodeArgs<'de>,
    A: MapAccess<'de>,
{
    map.next_key_seed(FieldIndex(S::FIELDS))
}

/// A key, decoded to its index in the wire names; any other key is an error. Holds the names
/// rather than the arguments type, so that one copy serves every tool.
struct FieldIndex(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for FieldIndex {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for FieldIndex {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an argument name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<usize, E> {
        match self.0.iter().position(|name| *name == key) {
            Some(index) => Ok(index),
            None => Err(unknown_field(key, self.0)),
        }
    }

    fn visit_bytes<E: de::Error>(self, key: &[u8]) -> Result<usize, E> {
        match self.0.iter().position(|name| name.as_bytes() == key) {
            Some(index) => Ok(index),
            None => Err(unknown_field(&String::from_utf8_lossy(key), self.0)),
        }
    }

    fn visit_u64<E: de::Error>(self, index: u64) -> Result<usize, E> {
        match usize::try_from(index) {
            Ok(i) if i < self.0.len() => Ok(i),
            _ => Err(E::invalid_value(de::Unexpected::Unsigned(index), &"an argument index")),
        }
    }
}

// The error paths, out of line and generic over the error type only, so that the code of
// every parameter of every tool does not carry a copy.

#[cold]
#[inline(never)]
fn unknown_field<E: de::Error>(key: &str, fields: &'static [&'static str]) -> E {
    E::unknown_field(key, fields)
}

#[cold]
#[inline(never)]
fn duplicate_field<E: de::Error>(name: &'static str) -> E {
    E::duplicate_field(name)
}

#[cold]
#[inline(never)]
fn named<E: de::Error>(error: E, name: &'static str) -> E {
    E::custom(format_args!("parameter `{name}`: {error}"))
}

/// Decoding of one parameter's value, implemented for every `Deserialize` type.
///
/// Generated code calls it as `<Type as DecodeParam<'de>>::fill`, spanned at the parameter's
/// type: a type without `Deserialize` is then reported there with the message below, rather
/// than as a bound of a hidden helper function.
#[diagnostic::on_unimplemented(
    message = "the parameter type `{Self}` cannot be decoded from the model's arguments",
    label = "`{Self}` does not implement `serde::Deserialize`",
    note = "a tool parameter's type needs `serde::Deserialize`: add `#[derive(serde::Deserialize)]` to it, or take a type that has it"
)]
pub trait DecodeParam<'de>: Sized {
    /// Reads one value into its slot.
    ///
    /// # Errors
    ///
    /// `duplicate field` when the slot is already filled, or the value's own decoding error.
    fn fill<A: MapAccess<'de>>(
        slot: &mut Option<Self>,
        map: &mut A,
        name: &'static str,
    ) -> Result<(), A::Error>;

    /// The value of a slot without a default: an absent key is `None` for a type that decodes
    /// "no value" (an `Option`), and `missing field` for any other.
    ///
    /// # Errors
    ///
    /// `missing field` for an absent key the type cannot do without.
    fn take<E: de::Error>(slot: Option<Self>, name: &'static str) -> Result<Self, E>;
}

impl<'de, T: Deserialize<'de>> DecodeParam<'de> for T {
    // Out of line: one copy per parameter type (and deserializer) serves every tool, where
    // inlined it would be copied into every tool's `visit_map`.
    #[inline(never)]
    fn fill<A: MapAccess<'de>>(
        slot: &mut Option<T>,
        map: &mut A,
        name: &'static str,
    ) -> Result<(), A::Error> {
        if slot.is_some() {
            return Err(duplicate_field(name));
        }
        // Name the parameter: past the schema's checks, serde's own message says what is
        // wrong (an `i64` given 2^63, say) but not where.
        match map.next_value() {
            Ok(value) => {
                *slot = Some(value);
                Ok(())
            }
            Err(e) => Err(named(e, name)),
        }
    }

    fn take<E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
        match slot {
            Some(value) => Ok(value),
            None => T::deserialize(Absent(name, PhantomData)),
        }
    }
}

/// The deserializer of an absent key: "no value" to a type that asks for an option, `missing
/// field` to any other.
struct Absent<E>(&'static str, PhantomData<E>);

impl<'de, E: de::Error> Deserializer<'de> for Absent<E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, E> {
        Err(E::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    /// What `#[tool]` generates for `fn f(city: String, days: Option<u8>, #[param(default =
    /// 3)] limit: u32, #[serde(rename)]-style wire name "type" for `kind: String`)`, written
    /// out by hand, beside the serde derive it replaces.
    #[derive(Debug, PartialEq)]
    struct Args {
        city: String,
        days: Option<u8>,
        limit: u32,
        kind: String,
    }

    fn three() -> u32 {
        3
    }

    impl<'de> DecodeArgs<'de> for Args {
        const FIELDS: &'static [&'static str] = &["city", "days", "limit", "type"];

        fn visit_map<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
            let (mut city, mut days, mut limit, mut kind) = (None, None, None, None);
            while let Some(i) = next_key::<Self, A>(&mut map)? {
                match i {
                    0 => DecodeParam::fill(&mut city, &mut map, "city")?,
                    1 => DecodeParam::fill(&mut days, &mut map, "days")?,
                    2 => DecodeParam::fill(&mut limit, &mut map, "limit")?,
                    _ => DecodeParam::fill(&mut kind, &mut map, "type")?,
                }
            }
            Ok(Args {
                city: DecodeParam::take::<A::Error>(city, "city")?,
                days: DecodeParam::take::<A::Error>(days, "days")?,
                limit: limit.unwrap_or_else(three),
                kind: DecodeParam::take::<A::Error>(kind, "type")?,
            })
        }
    }

    impl<'de> Deserialize<'de> for Args {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            decode_args::<Self, D>(d)
        }
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Derived {
        city: String,
        days: Option<u8>,
        #[serde(default = "three")]
        limit: u32,
        #[serde(rename = "type")]
        kind: String,
    }

    /// Our message without the parameter it names (serde's derive names none).
    fn unnamed(message: String) -> String {
        match message.strip_prefix("parameter `").and_then(|m| m.split_once("`: ")) {
            Some((_, rest)) => rest.to_owned(),
            None => message,
        }
    }

    fn same(text: &str) {
        let ours = serde_json::from_str::<Args>(text).map_err(|e| unnamed(e.to_string()));
        let theirs = serde_json::from_str::<Derived>(text).map_err(|e| e.to_string());
        match (ours, theirs) {
            (Ok(a), Ok(b)) => {
                assert_eq!((a.city, a.days, a.limit, a.kind), (b.city, b.days, b.limit, b.kind))
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "{text}"),
            (a, b) => panic!("{text}: ours {a:?}, serde's {b:?}"),
        }
        // The same from a parsed value (what `Arguments::Json` decodes).
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
            let ours = Args::deserialize(&value).map_err(|e| unnamed(e.to_string()));
            let theirs = Derived::deserialize(&value).map_err(|e| e.to_string());
            assert_eq!(ours.is_ok(), theirs.is_ok(), "{text}");
            if let (Err(a), Err(b)) = (ours, theirs) {
                assert_eq!(a, b, "{text}");
            }
        }
    }

    #[test]
    fn a_value_serde_refuses_names_its_parameter() {
        let text = r#"{"city":"Oslo","type":"x","days":300}"#;
        let err = serde_json::from_str::<Args>(text).err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("parameter `days`: invalid value: integer `300`, expected u8 at line 1 column 36")
        );
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let err = Args::deserialize(&value).err().map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("parameter `days`: invalid value: integer `300`, expected u8")
        );
    }

    #[test]
    fn objects_decode_as_the_serde_derive_does() {
        for text in [
            r#"{"city":"Oslo","type":"x"}"#,
            r#"{"type":"x","days":2,"limit":9,"city":"Oslo"}"#,
            r#"{"city":"Oslo","days":null,"type":"x"}"#,
            r#"{"city":"Oslo","type":"x","extra":1}"#,
            r#"{"city":"Oslo","city":"Bergen","type":"x"}"#,
            r#"{"days":1,"type":"x"}"#,
            r#"{"city":"Oslo"}"#,
            r#"{"city":"Oslo","type":"x","limit":null}"#,
            r#"{"city":"Oslo","type":"x","days":"two"}"#,
            r#"{"city":"Oslo","type":"x","days":300}"#,
            r#"{"city":"Oslo","kind":"x"}"#,
            r#"{"city":7,"type":"x"}"#,
            r#"{}"#,
            r#"{"city":"Oslo","type":"x""#,
        ] {
            same(text);
        }
    }

    #[test]
    fn keys_by_index_and_bytes_resolve_like_names() {
        let ok: Result<usize, serde_json::Error> = FieldIndex(Args::FIELDS).visit_u64(3);
        assert_eq!(ok.ok(), Some(3));
        let out_of_range: Result<usize, serde_json::Error> = FieldIndex(Args::FIELDS).visit_u64(4);
        assert!(out_of_range.is_err());
        let bytes: Result<usize, serde_json::Error> =
            FieldIndex(Args::FIELDS).visit_bytes(b"limit");
        assert_eq!(bytes.ok(), Some(2));
        let unknown: Result<usize, serde_json::Error> = FieldIndex(Args::FIELDS).visit_bytes(b"zz");
        assert_eq!(
            unknown.map_err(|e| e.to_string()).unwrap_err(),
            "unknown field `zz`, expected one of `city`, `days`, `limit`, `type`"
        );
    }

    #[test]
    fn a_sequence_is_not_arguments() {
        let err = serde_json::from_str::<Args>(r#"["Oslo", null, 3, "x"]"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid type: sequence, expected an object of arguments at line 1 column 1"
        );
    }
}
