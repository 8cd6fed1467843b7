//! A parsed JSON value whose objects keep their key order, for the OpenAPI form's rewrite.
//!
//! The OpenAPI form is completed on a parsed copy of the JSON Schema form. serde_json's `Map`
//! iterates in sorted key order unless its `preserve_order` feature is on, and tooldef leaves
//! that feature to the user (Cargo would turn it on for every crate of their build); the
//! property order is what `propertyOrdering` tells the model, so objects here are `IndexMap`s.

use std::collections::hash_map::DefaultHasher;
use std::fmt;
use std::hash::{Hash, Hasher};

use indexmap::IndexMap;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use tooldef::render::JsonWriter;

/// A JSON value: scalars as serde_json holds them, arrays and objects in text order.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Node {
    /// `null`, a boolean, a number or a string.
    Scalar(Value),
    /// An array.
    Array(Vec<Node>),
    /// An object, in key order.
    Object(IndexMap<String, Node>),
}

impl Node {
    /// A string node.
    pub(crate) fn string(s: &str) -> Node {
        Node::Scalar(Value::String(s.to_owned()))
    }

    /// The member `key` of an object.
    pub(crate) fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Object(map) => map.get(key),
            _ => None,
        }
    }

    /// A hash that agrees with `==`: object members are fed in key order (`==` on an
    /// `IndexMap` ignores order) and numbers by the value `==` compares. Below a few levels it
    /// stops descending, so equal nodes still hash alike and deep near-twins share a hash.
    pub(crate) fn eq_hash(&self) -> u64 {
        fn feed(n: &Node, h: &mut DefaultHasher, depth: usize) {
            std::mem::discriminant(n).hash(h);
            if depth > 8 {
                return;
            }
            match n {
                Node::Scalar(Value::Number(x)) => match (x.as_u64(), x.as_i64(), x.as_f64()) {
                    (Some(u), _, _) => (0u8, u).hash(h),
                    (None, Some(i), _) => (1u8, i).hash(h),
                    // `-0.0 == 0.0`: one key for both.
                    (None, None, f) => (2u8, f.map(|f| (f + 0.0).to_bits())).hash(h),
                },
                Node::Scalar(v) => v.as_str().hash(h),
                Node::Array(items) => {
                    items.len().hash(h);
                    items.iter().for_each(|i| feed(i, h, depth + 1));
                }
                Node::Object(map) => {
                    map.len().hash(h);
                    let mut members: Vec<(&String, &Node)> = map.iter().collect();
                    members.sort_unstable_by_key(|(k, _)| *k);
                    for (k, v) in members {
                        k.hash(h);
                        feed(v, h, depth + 1);
                    }
                }
            }
        }
        let mut h = DefaultHasher::new();
        feed(self, &mut h, 0);
        h.finish()
    }

    /// The text of a string node.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Node::Scalar(v) => v.as_str(),
            _ => None,
        }
    }

    /// Writes the node as `JsonWriter::value` writes a `Value`, objects in their order.
    pub(crate) fn write(&self, out: &mut JsonWriter) {
        match self {
            Node::Scalar(v) => out.value(v),
            Node::Array(items) => {
                out.begin_array();
                items.iter().for_each(|i| i.write(out));
                out.end_array();
            }
            Node::Object(map) => {
                out.begin_object();
                for (k, v) in map {
                    out.key(k);
                    v.write(out);
                }
                out.end_object();
            }
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Scalar(Value::Bool(v)))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Scalar(Value::from(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Scalar(Value::from(v)))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        Ok(Node::Scalar(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::string(v))
    }

    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::Scalar(Value::String(v)))
    }

    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Scalar(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Node, A::Error> {
        let mut map = IndexMap::new();
        while let Some((k, v)) = access.next_entry::<String, Node>()? {
            map.insert(k, v);
        }
        Ok(Node::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_comes_back_byte_for_byte_with_its_key_order() {
        let text =
            r#"{"zeta":{"type":"STRING","nullable":true},"alpha":[1,-2,2.5,null,"x"],"m":{}}"#;
        let node: Node = serde_json::from_str(text).unwrap();
        let mut out = JsonWriter::new();
        node.write(&mut out);
        assert_eq!(out.as_str(), text);
    }
}
