//! JSON values that can be written in `const` context: defaults, examples and injected values.
//!
//! `serde_json::Value` cannot be built by a `const fn`, so the IR carries its own small value
//! type. It converts losslessly to and from `serde_json::Value` for every value whose integers fit
//! in `i64` (larger integers are carried as floats only when they came in as floats).

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// Text held by the IR: borrowed from a literal in `const` descriptors, owned at run time.
pub type Text = Cow<'static, str>;

/// A JSON value usable in `const` context.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number with a fractional part or an exponent.
    Float(f64),
    /// A string.
    Str(Text),
    /// An array.
    List(Cow<'static, [Literal]>),
    /// An object, in key order.
    Object(Cow<'static, [(Text, Literal)]>),
}

/// The error returned when a JSON value cannot be held by a [`Literal`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("integer {0} is outside the range of a 64-bit signed integer")]
pub struct LiteralRangeError(pub String);

impl Literal {
    /// A string literal.
    pub const fn str(s: &'static str) -> Self {
        Literal::Str(Cow::Borrowed(s))
    }

    /// The JSON type name of this value, as used in error messages (`"string"`, `"integer"`...).
    pub const fn type_name(&self) -> &'static str {
        match self {
            Literal::Null => "null",
            Literal::Bool(_) => "boolean",
            Literal::Int(_) => "integer",
            Literal::Float(_) => "number",
            Literal::Str(_) => "string",
            Literal::List(_) => "array",
            Literal::Object(_) => "object",
        }
    }

    /// The string, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Literal::Str(s) => Some(s),
            _ => None,
        }
    }

    /// Converts to a `serde_json::Value`.
    pub fn to_json(&self) -> Value {
        match self {
            Literal::Null => Value::Null,
            Literal::Bool(b) => Value::Bool(*b),
            Literal::Int(i) => Value::from(*i),
            Literal::Float(f) => {
                serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number)
            }
            Literal::Str(s) => Value::String(s.to_string()),
            Literal::List(items) => Value::Array(items.iter().map(Literal::to_json).collect()),
            Literal::Object(entries) => {
                Value::Object(entries.iter().map(|(k, v)| (k.to_string(), v.to_json())).collect())
            }
        }
    }

    /// Converts from a `serde_json::Value`.
    ///
    /// # Errors
    ///
    /// An unsigned integer above `i64::MAX` cannot be held.
    pub fn from_json(value: &Value) -> Result<Self, LiteralRangeError> {
        Ok(match value {
            Value::Null => Literal::Null,
            Value::Bool(b) => Literal::Bool(*b),
            Value::Number(n) => {
                if let Some(i) = n.as_i64() {
                    Literal::Int(i)
                } else if n.is_u64() {
                    return Err(LiteralRangeError(n.to_string()));
                } else {
                    Literal::Float(n.as_f64().unwrap_or(f64::NAN))
                }
            }
            Value::String(s) => Literal::Str(Cow::Owned(s.clone())),
            Value::Array(items) => Literal::List(Cow::Owned(
                items.iter().map(Literal::from_json).collect::<Result<_, _>>()?,
            )),
            Value::Object(map) => Literal::Object(Cow::Owned(
                map.iter()
                    .map(|(k, v)| Ok((Cow::Owned(k.clone()), Literal::from_json(v)?)))
                    .collect::<Result<_, _>>()?,
            )),
        })
    }
}

impl From<&str> for Literal {
    fn from(s: &str) -> Self {
        Literal::Str(Cow::Owned(s.to_owned()))
    }
}

impl From<String> for Literal {
    fn from(s: String) -> Self {
        Literal::Str(Cow::Owned(s))
    }
}

impl From<bool> for Literal {
    fn from(b: bool) -> Self {
        Literal::Bool(b)
    }
}

impl From<i64> for Literal {
    fn from(i: i64) -> Self {
        Literal::Int(i)
    }
}

impl From<f64> for Literal {
    fn from(f: f64) -> Self {
        Literal::Float(f)
    }
}

impl TryFrom<&Value> for Literal {
    type Error = LiteralRangeError;

    fn try_from(value: &Value) -> Result<Self, Self::Error> {
        Literal::from_json(value)
    }
}

impl From<&Literal> for Value {
    fn from(literal: &Literal) -> Self {
        literal.to_json()
    }
}

// Serialized and deserialized directly, not through `serde_json::Value`, whose objects are sorted
// by key unless serde_json's `preserve_order` feature is on: an object literal keeps its order.
impl Serialize for Literal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Literal::Null => serializer.serialize_unit(),
            Literal::Bool(b) => serializer.serialize_bool(*b),
            Literal::Int(i) => serializer.serialize_i64(*i),
            // A non-finite float has no JSON spelling; `to_json` writes it as null too.
            Literal::Float(f) if !f.is_finite() => serializer.serialize_unit(),
            Literal::Float(f) => serializer.serialize_f64(*f),
            Literal::Str(s) => serializer.serialize_str(s),
            Literal::List(items) => serializer.collect_seq(items.iter()),
            Literal::Object(entries) => {
                let mut map = serializer.serialize_map(Some(entries.len()))?;
                for (k, v) in entries.iter() {
                    map.serialize_entry(k.as_ref(), v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Literal {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(LiteralVisitor)
    }
}

struct LiteralVisitor;

impl<'de> Visitor<'de> for LiteralVisitor {
    type Value = Literal;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Literal, E> {
        Ok(Literal::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Literal, E> {
        Ok(Literal::Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Literal, E> {
        i64::try_from(v).map(Literal::Int).map_err(|_| E::custom(LiteralRangeError(v.to_string())))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Literal, E> {
        Ok(Literal::Float(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Literal, E> {
        Ok(Literal::Str(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<Literal, E> {
        Ok(Literal::Str(Cow::Owned(v)))
    }

    fn visit_unit<E>(self) -> Result<Literal, E> {
        Ok(Literal::Null)
    }

    fn visit_none<E>(self) -> Result<Literal, E> {
        Ok(Literal::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Literal, D::Error> {
        Literal::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Literal, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Literal::List(Cow::Owned(items)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Literal, A::Error> {
        let mut entries: Vec<(Text, Literal)> = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Literal>()? {
            // A repeated key keeps its first place and its last value, as a JSON object does.
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(entry) => entry.1 = value,
                None => entries.push((Cow::Owned(key), value)),
            }
        }
        Ok(Literal::Object(Cow::Owned(entries)))
    }
}

/// Reads a field that is present as `Some`, `null` included (serde's `Option` would read a
/// present `null` as absent); pair it with `#[serde(default)]` for the absent case.
pub(crate) fn present<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Literal>, D::Error> {
    Literal::deserialize(deserializer).map(Some)
}

/// The `&str` of a [`Text`], usable in `const`.
pub(crate) const fn text_str(text: &Text) -> &str {
    match text {
        Cow::Borrowed(s) => s,
        Cow::Owned(s) => s.as_str(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_round_trip_keeps_types() {
        let value = json!({"z": 1, "a": [true, null, 1.5, "x"], "m": {"k": -3}});
        let literal = Literal::from_json(&value).unwrap();
        assert_eq!(literal.to_json(), value);
    }

    #[test]
    fn serde_text_round_trip_keeps_key_order() {
        let text = r#"{"z":1,"a":[true,null,1.5,"x"],"m":{"k":-3,"b":{}}}"#;
        let literal: Literal = serde_json::from_str(text).unwrap();
        let Literal::Object(entries) = &literal else { panic!("not an object: {literal:?}") };
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_ref()).collect();
        assert_eq!(keys, ["z", "a", "m"]);
        assert_eq!(serde_json::to_string(&literal).unwrap(), text);
        // A repeated key: first place, last value.
        let literal: Literal = serde_json::from_str(r#"{"b":1,"a":2,"b":3}"#).unwrap();
        assert_eq!(serde_json::to_string(&literal).unwrap(), r#"{"b":3,"a":2}"#);
        let err = serde_json::from_str::<Literal>(&u64::MAX.to_string()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "integer 18446744073709551615 is outside the range of a 64-bit signed integer at line 1 column 20"
        );
    }

    #[test]
    fn huge_unsigned_is_an_error_not_a_silent_float() {
        let err = Literal::from_json(&json!(u64::MAX)).unwrap_err();
        assert!(err.to_string().contains("18446744073709551615"));
    }

    #[test]
    fn numbers_outside_i64_read_back_as_the_same_float() {
        // Parsed as the nearest float, written shortest, read back: the same float each time.
        for text in ["-92233720368547710000", "18446744073709551616", "1e300", "0.1", "-0.0"] {
            let value: Value = serde_json::from_str(text).unwrap();
            let literal = Literal::from_json(&value).unwrap();
            let written = serde_json::to_string(&literal).unwrap();
            let back: Literal = serde_json::from_str(&written).unwrap();
            assert_eq!(back, literal, "{text} was written as {written}");
        }
    }

    #[test]
    fn a_null_default_reads_back_as_a_null_default() {
        let schema = crate::Schema::string().nullable().default(Literal::Null);
        let json = serde_json::to_string(&schema).unwrap();
        let back: crate::Schema = serde_json::from_str(&json).unwrap();
        assert_eq!(back.default, Some(Literal::Null));
        assert_eq!(back, schema);
        let absent: crate::Schema = serde_json::from_str(r#"{"kind":{"type":"boolean"}}"#).unwrap();
        assert_eq!(absent.default, None);
    }

    #[test]
    fn const_literals_build() {
        const L: Literal = Literal::str("celsius");
        assert_eq!(L.as_str(), Some("celsius"));
        assert_eq!(L.type_name(), "string");
    }
}
