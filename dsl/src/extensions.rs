//! [`Extensions`]: tool-level fields of a provider's wire format that the IR does not model,
//! kept verbatim per provider namespace.
//!
//! Owns only the container. What goes in a namespace is the provider crate's business: the MCP
//! crate keeps a `Tool`'s `_meta`, `icons`, `execution` and any field a later protocol version
//! adds under `mcp`, and writes them back when it renders, so that an import followed by a
//! render for the same provider gives them back. Renderers of other providers report a
//! namespace that is not theirs as omitted.

use std::fmt;
use std::sync::Arc;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// Provider fields the IR does not model, as `namespace -> {field: value}` (namespaces and
/// fields in insertion order; every value kept exactly as read).
///
/// Cloning is a reference-count increment. The serde form is the JSON object itself:
/// `{"mcp": {"_meta": {...}, "icons": [...]}}`.
///
/// ```
/// use serde_json::json;
/// use tooldef::Extensions;
///
/// let mut ext = Extensions::NONE;
/// ext.insert("mcp", "_meta", json!({"vendor": "example"}));
/// assert_eq!(ext.get("mcp", "_meta"), Some(&json!({"vendor": "example"})));
/// assert_eq!(serde_json::to_value(&ext).unwrap(), json!({"mcp": {"_meta": {"vendor": "example"}}}));
/// ```
#[derive(Clone, Default, PartialEq)]
pub struct Extensions(Option<Arc<Map<String, Value>>>);

impl Extensions {
    /// No extension field.
    pub const NONE: Extensions = Extensions(None);

    /// Whether no field is kept.
    pub fn is_empty(&self) -> bool {
        self.0
            .as_ref()
            .is_none_or(|m| m.values().all(|ns| ns.as_object().is_none_or(Map::is_empty)))
    }

    /// The fields of `namespace`, if it has any.
    pub fn namespace(&self, namespace: &str) -> Option<&Map<String, Value>> {
        self.0.as_ref()?.get(namespace)?.as_object().filter(|m| !m.is_empty())
    }

    /// One field of `namespace`.
    pub fn get(&self, namespace: &str, field: &str) -> Option<&Value> {
        self.namespace(namespace)?.get(field)
    }

    /// The namespaces that hold fields, in order.
    pub fn namespaces(&self) -> impl Iterator<Item = &str> + '_ {
        self.0
            .iter()
            .flat_map(|m| m.iter())
            .filter(|(_, ns)| ns.as_object().is_some_and(|m| !m.is_empty()))
            .map(|(name, _)| name.as_str())
    }

    /// Sets a field of `namespace`; the previous value, if any.
    pub fn insert(
        &mut self,
        namespace: &str,
        field: impl Into<String>,
        value: Value,
    ) -> Option<Value> {
        let map = Arc::make_mut(self.0.get_or_insert_with(Default::default));
        let ns = map.entry(namespace.to_owned()).or_insert_with(|| Value::Object(Map::new()));
        if !ns.is_object() {
            *ns = Value::Object(Map::new());
        }
        match ns {
            Value::Object(fields) => fields.insert(field.into(), value),
            _ => None,
        }
    }

    /// Removes a whole namespace; its fields, if it had any.
    pub fn remove_namespace(&mut self, namespace: &str) -> Option<Map<String, Value>> {
        let map = Arc::make_mut(self.0.as_mut()?);
        match map.remove(namespace)? {
            Value::Object(fields) => Some(fields),
            _ => None,
        }
    }

    /// Reads the serde form, `{namespace: {field: value}}`.
    ///
    /// # Errors
    ///
    /// The namespace whose value is not an object, or `""` when `value` itself is not one.
    pub fn from_value(value: &Value) -> Result<Extensions, String> {
        let Value::Object(map) = value else { return Err(String::new()) };
        if let Some((name, _)) = map.iter().find(|(_, ns)| !ns.is_object()) {
            return Err(name.clone());
        }
        Ok(if map.is_empty() { Extensions::NONE } else { Extensions(Some(Arc::new(map.clone()))) })
    }

    /// The serde form, `{namespace: {field: value}}`.
    pub fn to_value(&self) -> Value {
        Value::Object(self.0.as_deref().cloned().unwrap_or_default())
    }
}

impl fmt::Debug for Extensions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Some(m) => fmt::Debug::fmt(m, f),
            None => f.write_str("{}"),
        }
    }
}

impl Serialize for Extensions {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Some(m) => m.serialize(serializer),
            None => serializer.serialize_map(Some(0))?.end(),
        }
    }
}

impl<'de> Deserialize<'de> for Extensions {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ExtensionsVisitor;

        impl<'de> Visitor<'de> for ExtensionsVisitor {
            type Value = Extensions;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of namespaces, each an object of fields")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Extensions, A::Error> {
                let mut map = Map::new();
                while let Some((name, fields)) =
                    access.next_entry::<String, Map<String, Value>>()?
                {
                    map.insert(name, Value::Object(fields));
                }
                Ok(if map.is_empty() { Extensions::NONE } else { Extensions(Some(Arc::new(map))) })
            }
        }

        deserializer.deserialize_map(ExtensionsVisitor)
    }
}
