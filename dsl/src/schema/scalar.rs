//! [`Scalar`] and [`ScalarRef`]: one JSON string, integer, number or boolean, as an enum lists it,
//! and the JSON Schema equality between such values (`1` and `1.0` are one value).
//!
//! The comparisons are `const fn` so that the structural rules can find a duplicate enum value
//! or a default outside an enum at compile time; `str_eq` is the one `const` string equality
//! the crate's rules use.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize, Serializer};

use super::text_str;
use crate::literal::{Literal, Text};

/// One value an enum allows: a JSON string, integer, number or boolean.
///
/// `null` is not a value of its own: an enum that admits it is
/// [`Schema::nullable`](super::Schema::nullable), as every other kind is. Two values are the same
/// when JSON Schema says they are equal: `1` and `1.0` are one value ([`ScalarRef::json_eq`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Scalar {
    /// `true` or `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number written with a fraction or an exponent (finite; see `validate`).
    Float(f64),
    /// A string.
    Str(Text),
}

impl Scalar {
    /// A string value (usable in `const`).
    pub const fn str(s: &'static str) -> Self {
        Scalar::Str(Cow::Borrowed(s))
    }

    /// The value, borrowed (usable in `const`).
    pub const fn as_ref(&self) -> ScalarRef<'_> {
        match self {
            Scalar::Bool(b) => ScalarRef::Bool(*b),
            Scalar::Int(i) => ScalarRef::Int(*i),
            Scalar::Float(f) => ScalarRef::Float(*f),
            Scalar::Str(s) => ScalarRef::Str(text_str(s)),
        }
    }

    /// The scalar a JSON value is, if it is one (`null`, arrays, objects and integers outside
    /// `i64` are not).
    pub fn from_json(value: &serde_json::Value) -> Option<Self> {
        use serde_json::Value;
        match value {
            Value::Bool(b) => Some(Scalar::Bool(*b)),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Some(Scalar::Int(i)),
                None if n.is_u64() => None,
                None => n.as_f64().map(Scalar::Float),
            },
            Value::String(s) => Some(Scalar::Str(Cow::Owned(s.clone()))),
            Value::Null | Value::Array(_) | Value::Object(_) => None,
        }
    }
}

impl From<&str> for Scalar {
    fn from(s: &str) -> Self {
        Scalar::Str(Cow::Owned(s.to_owned()))
    }
}

impl From<String> for Scalar {
    fn from(s: String) -> Self {
        Scalar::Str(Cow::Owned(s))
    }
}

impl From<Text> for Scalar {
    fn from(s: Text) -> Self {
        Scalar::Str(s)
    }
}

impl From<bool> for Scalar {
    fn from(b: bool) -> Self {
        Scalar::Bool(b)
    }
}

impl From<i64> for Scalar {
    fn from(i: i64) -> Self {
        Scalar::Int(i)
    }
}

impl From<f64> for Scalar {
    fn from(f: f64) -> Self {
        Scalar::Float(f)
    }
}

/// An enum value borrowed from [`EnumValues`](super::EnumValues), what its accessors return.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarRef<'a> {
    /// `true` or `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A number written with a fraction or an exponent.
    Float(f64),
    /// A string.
    Str(&'a str),
}

impl<'a> ScalarRef<'a> {
    /// The string, if the value is one (usable in `const`).
    pub const fn as_str(self) -> Option<&'a str> {
        match self {
            ScalarRef::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The JSON type name (`"string"`, `"integer"`, `"number"`, `"boolean"`).
    pub const fn type_name(self) -> &'static str {
        match self {
            ScalarRef::Bool(_) => "boolean",
            ScalarRef::Int(_) => "integer",
            ScalarRef::Float(_) => "number",
            ScalarRef::Str(_) => "string",
        }
    }

    /// Whether JSON Schema holds the two values equal: `1` equals `1.0`, a number never
    /// equals a string or a boolean (usable in `const`).
    pub const fn json_eq(self, other: ScalarRef<'_>) -> bool {
        match (self, other) {
            (ScalarRef::Bool(a), ScalarRef::Bool(b)) => a == b,
            (ScalarRef::Int(a), ScalarRef::Int(b)) => a == b,
            (ScalarRef::Float(a), ScalarRef::Float(b)) => a == b,
            (ScalarRef::Int(a), ScalarRef::Float(b)) | (ScalarRef::Float(b), ScalarRef::Int(a)) => {
                int_eq_float(a, b)
            }
            (ScalarRef::Str(a), ScalarRef::Str(b)) => str_eq(a, b),
            _ => false,
        }
    }

    /// Whether a JSON value is this value, by JSON Schema equality.
    pub fn matches(self, value: &serde_json::Value) -> bool {
        use serde_json::Value;
        match (self, value) {
            (ScalarRef::Bool(a), Value::Bool(b)) => a == *b,
            (ScalarRef::Str(a), Value::String(b)) => a == b,
            (ScalarRef::Int(a), Value::Number(n)) => match (n.as_i64(), n.as_f64()) {
                (Some(b), _) => a == b,
                (None, Some(b)) => !n.is_u64() && int_eq_float(a, b),
                (None, None) => false,
            },
            (ScalarRef::Float(a), Value::Number(n)) => match n.as_i64() {
                Some(b) => int_eq_float(b, a),
                None => !n.is_u64() && n.as_f64() == Some(a),
            },
            _ => false,
        }
    }

    /// The value as JSON (a non-finite float, which `validate` refuses, as `null`).
    pub fn to_json(self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            ScalarRef::Bool(b) => Value::Bool(b),
            ScalarRef::Int(i) => Value::from(i),
            ScalarRef::Float(f) => {
                serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
            }
            ScalarRef::Str(s) => Value::String(s.to_owned()),
        }
    }

    /// The value as a [`Literal`].
    pub fn to_literal(self) -> Literal {
        match self {
            ScalarRef::Bool(b) => Literal::Bool(b),
            ScalarRef::Int(i) => Literal::Int(i),
            ScalarRef::Float(f) => Literal::Float(f),
            ScalarRef::Str(s) => Literal::Str(Cow::Owned(s.to_owned())),
        }
    }

    /// The value, owned.
    pub fn to_scalar(self) -> Scalar {
        match self {
            ScalarRef::Bool(b) => Scalar::Bool(b),
            ScalarRef::Int(i) => Scalar::Int(i),
            ScalarRef::Float(f) => Scalar::Float(f),
            ScalarRef::Str(s) => Scalar::Str(Cow::Owned(s.to_owned())),
        }
    }

    /// Whether a [`Literal`] is this value, by JSON Schema equality (usable in `const`).
    pub const fn matches_literal(self, literal: &Literal) -> bool {
        match literal {
            Literal::Bool(b) => self.json_eq(ScalarRef::Bool(*b)),
            Literal::Int(i) => self.json_eq(ScalarRef::Int(*i)),
            Literal::Float(f) => self.json_eq(ScalarRef::Float(*f)),
            Literal::Str(s) => self.json_eq(ScalarRef::Str(text_str(s))),
            Literal::Null | Literal::List(_) | Literal::Object(_) => false,
        }
    }
}

/// A value equals a string when it is that string.
impl PartialEq<str> for ScalarRef<'_> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

/// A value equals a string when it is that string.
impl PartialEq<&str> for ScalarRef<'_> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl Serialize for ScalarRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            ScalarRef::Bool(b) => serializer.serialize_bool(b),
            ScalarRef::Int(i) => serializer.serialize_i64(i),
            ScalarRef::Float(f) => serializer.serialize_f64(f),
            ScalarRef::Str(s) => serializer.serialize_str(s),
        }
    }
}

/// Writes the value as JSON text: `"celsius"`, `3`, `2.5`, `true`.
impl fmt::Display for ScalarRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScalarRef::Str(s) => write!(f, "{}", serde_json::Value::String((*s).to_owned())),
            other => write!(f, "{}", other.to_json()),
        }
    }
}

/// An integer and a float are equal when the float is that whole number exactly.
const fn int_eq_float(i: i64, f: f64) -> bool {
    // i64::MIN..=i64::MAX as f64 rounds the top up to 2^63, which no i64 equals.
    f.is_finite() && f >= -9_223_372_036_854_775_808.0 && f < 9_223_372_036_854_775_808.0 && {
        let w = f as i64;
        w as f64 == f && w == i
    }
}

/// Whether two strings are equal, in `const` (the one copy the crate's `const` rules use).
pub(crate) const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
