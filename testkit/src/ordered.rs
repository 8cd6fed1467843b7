//! A JSON value whose objects keep their key order, for snapshots that show the wire as sent.
//!
//! serde_json's `Value` iterates objects in sorted key order unless its `preserve_order`
//! feature is on, and tooldef leaves that feature off (Cargo would turn it on for the user's
//! whole build). A snapshot that went through `Value` would show keys sorted, not in the order
//! the renderer wrote them; parsing into [`Json`] keeps that order.

use std::fmt;

use indexmap::IndexMap;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

/// A JSON value: scalars as serde_json holds them, arrays and objects in text order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`, a boolean, a number or a string.
    Scalar(Value),
    /// An array.
    Array(Vec<Json>),
    /// An object, in key order (a repeated key keeps its first place and its last value).
    Object(IndexMap<String, Json>),
}

impl Json {
    /// Parses JSON text.
    ///
    /// # Errors
    ///
    /// serde_json's error for text that is not one JSON value.
    pub fn parse(text: &str) -> Result<Json, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// A string value.
    pub fn string(s: impl Into<String>) -> Json {
        Json::Scalar(Value::String(s.into()))
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Scalar(v) => v.serialize(serializer),
            Json::Array(items) => serializer.collect_seq(items),
            Json::Object(map) => {
                let mut m = serializer.serialize_map(Some(map.len()))?;
                for (k, v) in map {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Scalar(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Scalar(Value::from(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Scalar(Value::from(v)))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Scalar(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::string(v))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::string(v))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Scalar(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Json, A::Error> {
        let mut map = IndexMap::new();
        while let Some((k, v)) = access.next_entry::<String, Json>()? {
            map.insert(k, v);
        }
        Ok(Json::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips_with_its_key_order() {
        let text = r#"{"zeta":{"type":"string","maximum":18446744073709551615},"alpha":[1,-2,2.5,null,true],"m":{}}"#;
        let json = Json::parse(text).unwrap();
        assert_eq!(serde_json::to_string(&json).unwrap(), text);
    }
}
