//! The values of an enum schema: [`EnumValue`] (a value with its description) and
//! [`EnumValues`] (the ordered list an [`EnumSchema`](super::EnumSchema) holds).
//!
//! [`EnumValues`] keeps a plain list of `&'static str` as it is, so that the most common enum,
//! a `const` list of strings, costs nothing to build; its accessors hand out [`ScalarRef`]s
//! whichever form it has.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Scalar, ScalarRef, put};
use crate::literal::Text;

/// One allowed value of an enum, with an optional description of what it means.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnumValue {
    /// The value the model sends.
    pub value: Scalar,
    /// What choosing it means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
}

impl EnumValue {
    /// A string value without description.
    pub const fn new(value: &'static str) -> Self {
        EnumValue { value: Scalar::str(value), description: None }
    }

    /// A string value with a description.
    pub const fn described(value: &'static str, description: &'static str) -> Self {
        EnumValue { value: Scalar::str(value), description: Some(Cow::Borrowed(description)) }
    }

    /// Any scalar value without description (usable in `const`).
    pub const fn scalar(value: Scalar) -> Self {
        EnumValue { value, description: None }
    }

    /// Sets the description (usable in `const`).
    pub const fn with_description(mut self, description: &'static str) -> Self {
        put(&mut self.description, Some(Cow::Borrowed(description)));
        self
    }
}

/// The values of an enum, in order.
///
/// Built from a plain list of strings (`&["celsius", "fahrenheit"]`, usable in `const`) or from
/// [`EnumValue`]s, which carry descriptions and may be integers, numbers or booleans. The
/// accessors hand out [`ScalarRef`]s; [`contains`](Self::contains) and
/// [`all_strings`](Self::all_strings) are the string-only fast paths.
#[derive(Clone)]
pub struct EnumValues(EnumRepr);

#[derive(Clone)]
enum EnumRepr {
    Plain(&'static [&'static str]),
    Full(Cow<'static, [EnumValue]>),
}

impl EnumValues {
    /// Values given as plain strings.
    pub const fn plain(values: &'static [&'static str]) -> Self {
        EnumValues(EnumRepr::Plain(values))
    }

    /// Values that may carry descriptions.
    pub const fn described(values: &'static [EnumValue]) -> Self {
        EnumValues(EnumRepr::Full(Cow::Borrowed(values)))
    }

    /// Values built at run time.
    pub fn owned(values: Vec<EnumValue>) -> Self {
        EnumValues(EnumRepr::Full(Cow::Owned(values)))
    }

    /// The number of values.
    #[inline]
    pub const fn len(&self) -> usize {
        match &self.0 {
            EnumRepr::Plain(v) => v.len(),
            EnumRepr::Full(Cow::Borrowed(v)) => v.len(),
            EnumRepr::Full(Cow::Owned(v)) => v.len(),
        }
    }

    /// Whether there are no values (never valid, see `validate`).
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value at `index` (usable in `const`).
    ///
    /// # Panics
    ///
    /// When `index` is not below [`len`](Self::len).
    #[inline(always)]
    pub const fn get(&self, index: usize) -> ScalarRef<'_> {
        match &self.0 {
            EnumRepr::Plain(v) => ScalarRef::Str(v[index]),
            EnumRepr::Full(Cow::Borrowed(v)) => v[index].value.as_ref(),
            EnumRepr::Full(Cow::Owned(v)) => v.as_slice()[index].value.as_ref(),
        }
    }

    /// The value at `index` if it is a string (usable in `const`).
    ///
    /// # Panics
    ///
    /// When `index` is not below [`len`](Self::len).
    pub const fn str_at(&self, index: usize) -> Option<&str> {
        self.get(index).as_str()
    }

    /// Whether every value is a string (usable in `const`; immediate for plain lists).
    pub const fn all_strings(&self) -> bool {
        if let EnumRepr::Plain(_) = &self.0 {
            return true;
        }
        let mut i = 0;
        while i < self.len() {
            if self.str_at(i).is_none() {
                return false;
            }
            i += 1;
        }
        true
    }

    /// The description of the value at `index`, if any.
    pub fn description_at(&self, index: usize) -> Option<&str> {
        match &self.0 {
            EnumRepr::Plain(_) => None,
            EnumRepr::Full(v) => v.get(index).and_then(|v| v.description.as_deref()),
        }
    }

    /// The values, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = ScalarRef<'_>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// The values with their descriptions, in order.
    pub fn iter_described(
        &self,
    ) -> impl ExactSizeIterator<Item = (ScalarRef<'_>, Option<&str>)> + '_ {
        (0..self.len()).map(|i| (self.get(i), self.description_at(i)))
    }

    /// Whether the string `value` is one of the values.
    pub fn contains(&self, value: &str) -> bool {
        self.iter().any(|v| v.as_str() == Some(value))
    }

    /// Whether a JSON value is one of the values, by JSON Schema equality (`1.0` is `1`).
    pub fn contains_json(&self, value: &serde_json::Value) -> bool {
        self.iter().any(|v| v.matches(value))
    }

    /// The JSON types of the values, in the order they first appear; integers and numbers
    /// together are `"number"`.
    pub fn json_types(&self) -> Vec<&'static str> {
        let float = self.iter().any(|v| matches!(v, ScalarRef::Float(_)));
        let mut out: Vec<&'static str> = Vec::with_capacity(1);
        for v in self.iter() {
            let t = match v {
                ScalarRef::Int(_) if float => "number",
                v => v.type_name(),
            };
            if !out.contains(&t) {
                out.push(t);
            }
        }
        out
    }

    /// The values as owned [`EnumValue`]s, for editing.
    pub fn to_vec(&self) -> Vec<EnumValue> {
        self.iter_described()
            .map(|(value, description)| EnumValue {
                value: value.to_scalar(),
                description: description.map(|d| Cow::Owned(d.to_owned())),
            })
            .collect()
    }

    /// The values as a new owned list with `keep` applied (used to narrow an enum).
    pub fn retain(&self, mut keep: impl FnMut(ScalarRef<'_>) -> bool) -> EnumValues {
        EnumValues::owned(self.to_vec().into_iter().filter(|v| keep(v.value.as_ref())).collect())
    }
}

impl PartialEq for EnumValues {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter_described().eq(other.iter_described())
    }
}

impl fmt::Debug for EnumValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter_described()).finish()
    }
}

impl FromIterator<EnumValue> for EnumValues {
    fn from_iter<I: IntoIterator<Item = EnumValue>>(iter: I) -> Self {
        EnumValues::owned(iter.into_iter().collect())
    }
}

impl Serialize for EnumValues {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Entry<'a> {
            value: ScalarRef<'a>,
            #[serde(skip_serializing_if = "Option::is_none")]
            description: Option<&'a str>,
        }
        serializer.collect_seq(
            self.iter_described().map(|(value, description)| Entry { value, description }),
        )
    }
}

impl<'de> Deserialize<'de> for EnumValues {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<EnumValue>::deserialize(deserializer).map(EnumValues::owned)
    }
}
