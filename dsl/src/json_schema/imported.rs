//! What an import returns: the imported parts ([`Imported`], [`InputSchema`],
//! [`ImportedSchema`]), the [`ImportNote`]s of what was dropped or inferred, and the
//! [`ImportError`] naming the JSON pointer of a schema the IR cannot hold.

use std::borrow::Cow;
use std::fmt;

use serde_json::Value;

use super::keyword::TYPE_NAMES;
use crate::descriptor::{Definition, Param, ToolDescriptor};
use crate::descriptor_rules::MAX_DEPTH;
use crate::json_text::order::KeyOrder;
use crate::pointer::JsonPointer;
use crate::schema::{Additional, Kept, Schema};

/// The most schema nodes import builds for one tool (65,536): its input and output schemas and
/// their definitions together, each schema object or boolean schema one node (an `anyOf` of
/// three variants is four nodes), and the copies import makes counted again: that of a root
/// that a `$ref` to `#` refers to, and that of `additionalProperties` for each required key
/// `properties` does not list. Past it the import fails with
/// [`ImportErrorKind::TooManyNodes`] at the pointer where the count crossed it, and a spec or
/// an MCP tool is refused.
///
/// An imported node takes some 200 bytes, so a spec of a megabyte made of tiny schemas
/// (`{"anyOf": [{}, {}, ...]}`, 340,000 of them) would build some 75 MB; this bounds one tool
/// to about 15 MB. The largest tool of the real-world corpus holds 122 nodes, the largest
/// schema a provider documents (OpenAI's 5,000 properties) about 5,000, and the renderers
/// never write more than this many nodes from inlined definitions either.
///
/// Text is counted while it is read, before its `serde_json::Value` is built (which takes some
/// 30 times the text for tiny schemas): spec files, `tooldef import` and
/// `tooldef_mcp::import_*_text` read through [`KeyOrder::parse_schemas`](crate::json_schema::KeyOrder::parse_schemas),
/// which refuses a schema whose properties, variants or definitions alone pass the limit at the
/// pointer where they did. Import itself refuses a `properties` or a definitions table wider
/// than what is left of the limit before it reads any of its members.
pub const MAX_IMPORT_NODES: usize = 64 * 1024;

impl KeyOrder {
    /// As [`KeyOrder::parse`], for text that holds tool schemas: their nodes are counted while
    /// reading (see the module docs of `json_text/order.rs`), and each schema past
    /// [`MAX_IMPORT_NODES`] is left `null` in the value and refused with
    /// [`ImportErrorKind::TooManyNodes`] at the pointer where the count crossed the limit (a
    /// pointer into the document). The rest of the document is read as usual.
    ///
    /// ```
    /// use tooldef::json_schema::KeyOrder;
    ///
    /// let props: Vec<String> = (0..70_000).map(|i| format!("\"p{i}\":{{}}")).collect();
    /// let text = format!(r#"{{"tools":[{{"name":"wide","inputSchema":{{"properties":{{{}}}}}}}]}}"#, props.join(","));
    /// let (value, _, refused) = KeyOrder::parse_schemas(text.as_bytes()).unwrap();
    /// assert_eq!(value["tools"][0]["inputSchema"], serde_json::Value::Null);
    /// assert_eq!(value["tools"][0]["name"], "wide");
    /// assert_eq!(refused[0].pointer, "/tools/0/inputSchema/properties/p65536");
    /// ```
    ///
    /// # Errors
    ///
    /// As [`KeyOrder::parse`].
    pub fn parse_schemas(
        text: &[u8],
    ) -> Result<(Value, KeyOrder, Vec<ImportError>), serde_json::Error> {
        let (value, order, refused) = KeyOrder::parse_counting(text, MAX_IMPORT_NODES)?;
        let refused = refused
            .into_iter()
            .map(|pointer| ImportError { pointer, kind: ImportErrorKind::TooManyNodes })
            .collect();
        Ok((value, order, refused))
    }
}

/// The result of an import: the IR value and the notes about what was dropped or inferred.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Imported<T> {
    /// What was imported.
    pub value: T,
    /// Annotation keywords dropped and types inferred, in document order.
    pub notes: Vec<ImportNote>,
}

/// The input half of a descriptor, imported from an object schema.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct InputSchema {
    /// The properties, in document order.
    pub params: Vec<Param>,
    /// What the object says about other keys (`Unstated` when `additionalProperties` is absent).
    pub additional: Additional,
    /// Named definitions (`$defs`, then `definitions`, then the root copy if `#` is referenced).
    pub definitions: Vec<Definition>,
    /// Keywords of the root object the IR cannot type, kept verbatim (see [`Kept`]).
    pub kept: Vec<Kept>,
}

impl InputSchema {
    /// Replaces the descriptor's parameters, additional-properties policy, definitions and kept
    /// root keywords.
    pub fn apply_to(self, d: &mut ToolDescriptor) {
        d.params = Cow::Owned(self.params);
        d.additional = self.additional;
        d.definitions = Cow::Owned(self.definitions);
        d.input_kept = self.kept;
    }
}

/// One schema imported with the definitions of its document.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ImportedSchema {
    /// The schema.
    pub schema: Schema,
    /// Named definitions its references point at.
    pub definitions: Vec<Definition>,
}

/// Something an import dropped or inferred without failing.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct ImportNote {
    /// JSON pointer of the keyword (`/properties/city/deprecated`).
    pub pointer: JsonPointer,
    /// The keyword.
    pub keyword: String,
    /// What happened to it.
    pub message: String,
}

impl fmt::Display for ImportNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}: `{}` {}", self.pointer, self.keyword, self.message)
    }
}

impl ImportNote {
    /// A note about `keyword` at `pointer`.
    pub fn new(
        pointer: JsonPointer,
        keyword: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        ImportNote { pointer, keyword: keyword.into(), message: message.into() }
    }

    /// The same note with its pointer seen from a document that holds the imported schema at
    /// `prefix` (see [`JsonPointer::under`]).
    #[must_use]
    pub fn prefixed(mut self, prefix: &JsonPointer) -> Self {
        self.pointer = self.pointer.under(prefix);
        self
    }
}

/// A JSON Schema that cannot be imported, with the JSON pointer of the fault.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("#{pointer}: {kind}")]
#[non_exhaustive]
pub struct ImportError {
    /// JSON pointer of the offending keyword or schema (empty for the document root).
    pub pointer: JsonPointer,
    /// What is wrong.
    pub kind: ImportErrorKind,
}

impl ImportError {
    /// An error at `pointer`.
    pub(crate) fn at(pointer: &JsonPointer, kind: ImportErrorKind) -> Self {
        ImportError { pointer: pointer.clone(), kind }
    }

    /// The same error with its pointer seen from a document that holds the imported schema at
    /// `prefix` (see [`JsonPointer::under`]).
    #[must_use]
    pub fn prefixed(mut self, prefix: &JsonPointer) -> Self {
        self.pointer = self.pointer.under(prefix);
        self
    }
}

/// Why a JSON Schema cannot be imported.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ImportErrorKind {
    /// A keyword (or a schema) has a value of the wrong JSON type.
    #[error("`{keyword}` must be {expected}; got {found}")]
    WrongType {
        /// The keyword (`schema` for a schema position).
        keyword: String,
        /// What was expected.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// A `type` names no JSON Schema type (`"integr"`).
    #[error(
        "`{name}` is not a JSON Schema type; {}",
        match suggestion {
            Some(s) => format!("did you mean `{s}`?"),
            None => format!("expected one of {}", TYPE_NAMES.join(", ")),
        }
    )]
    UnknownType {
        /// The name given.
        name: String,
        /// The type name it is likely a typo of.
        suggestion: Option<&'static str>,
    },
    /// A keyword changes what is valid in a way the IR cannot express.
    #[error("`{keyword}` cannot be expressed by tooldef: {reason}")]
    Unsupported {
        /// The keyword.
        keyword: String,
        /// Why.
        reason: String,
    },
    /// A `$ref` points at no place of its document.
    #[error("`$ref` `{target}` points at nothing in the document")]
    DanglingRef {
        /// The reference.
        target: String,
    },
    /// The input schema is not an object schema.
    #[error("the input schema must be an object schema: {reason}")]
    NotAnObject {
        /// Why.
        reason: String,
    },
    /// Schemas nest deeper than [`MAX_DEPTH`].
    #[error("schemas nest deeper than {} levels", MAX_DEPTH)]
    TooDeep,
    /// The tool's schemas hold more than [`MAX_IMPORT_NODES`] schema nodes; the pointer is
    /// where the count crossed it.
    #[error(
        "schemas hold more than {} nodes (the tool's input and output schemas and their \
         definitions together)",
        MAX_IMPORT_NODES
    )]
    TooManyNodes,
}

pub(super) fn wrong(
    pointer: &JsonPointer,
    keyword: &str,
    expected: &'static str,
    found: &Value,
) -> ImportError {
    ImportError::at(
        pointer,
        ImportErrorKind::WrongType {
            keyword: keyword.to_owned(),
            expected,
            found: describe(found),
        },
    )
}

pub(super) fn unsupported(
    pointer: &JsonPointer,
    keyword: &str,
    reason: impl Into<String>,
) -> ImportError {
    ImportError::at(
        pointer,
        ImportErrorKind::Unsupported { keyword: keyword.to_owned(), reason: reason.into() },
    )
}

/// A short description of a JSON value for messages.
pub(super) fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() > 40 => {
            format!("a string ({:?}...)", s.chars().take(40).collect::<String>())
        }
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// Escapes one JSON pointer token.
pub fn pointer_token(key: &str) -> Cow<'_, str> {
    crate::pointer::escape(key)
}

/// `pointer` and then the array index `i`.
pub(super) fn item(pointer: &JsonPointer, i: usize) -> JsonPointer {
    let mut p = pointer.clone();
    p.push_index(i);
    p
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// `n` members `"p0":{}`... of a `properties` object.
    fn props(n: usize) -> String {
        (0..n).map(|i| format!(r#""p{i}":{{}}"#)).collect::<Vec<_>>().join(",")
    }

    #[test]
    fn a_schema_past_the_node_limit_is_left_null_and_refused_where_the_count_crossed() {
        let text = format!(
            r#"{{"tools":[{{"name":"a","inputSchema":{{"properties":{{{}}}}}}},{{"name":"b","inputSchema":{{"properties":{{"q":{{}}}}}}}}]}}"#,
            props(MAX_IMPORT_NODES + 10)
        );
        let (value, order, refused) = KeyOrder::parse_schemas(text.as_bytes()).unwrap();
        assert_eq!(value["tools"][0], json!({"name": "a", "inputSchema": null}));
        assert_eq!(
            value["tools"][1],
            json!({"name": "b", "inputSchema": {"properties": {"q": {}}}})
        );
        let expected = ImportError {
            pointer: JsonPointer::parse("/tools/0/inputSchema/properties/p65536").unwrap(),
            kind: ImportErrorKind::TooManyNodes,
        };
        assert_eq!(refused, [expected]);
        // Nothing is kept of the refused schema's key order.
        assert_eq!(order.keys("/tools/0/inputSchema/properties"), None);
        // At the limit, nothing is refused.
        let text = format!(r#"{{"properties":{{{}}}}}"#, props(MAX_IMPORT_NODES));
        assert_eq!(KeyOrder::parse_schemas(text.as_bytes()).unwrap().2, []);
    }

    #[test]
    fn variants_and_nested_properties_count_and_literals_do_not() {
        // A property holding `anyOf` variants: the property and each variant are nodes.
        let variants = vec!["{}"; MAX_IMPORT_NODES].join(",");
        let text = format!(r#"{{"properties":{{"x":{{"anyOf":[{variants}]}}}}}}"#);
        let refused = KeyOrder::parse_schemas(text.as_bytes()).unwrap().2;
        assert_eq!(refused[0].pointer, "/properties/x/anyOf/65535");
        // The same members in literals and in keywords kept verbatim are not schema nodes.
        let wide = format!("{{{}}}", props(MAX_IMPORT_NODES + 1));
        for keyword in ["default", "enum", "const", "examples", "not", "patternProperties"] {
            let text =
                format!(r#"{{"properties":{{"x":{{"{keyword}":{{"properties":{wide}}}}}}}}}"#);
            assert_eq!(KeyOrder::parse_schemas(text.as_bytes()).unwrap().2, [], "{keyword}");
        }
        // Definitions count apart from the rest: each side has the limit to itself here, and
        // the import, which adds them up, refuses what they hold together.
        let defs = props(MAX_IMPORT_NODES - 1);
        let text =
            format!(r#"{{"$defs":{{"d":{{"properties":{{{defs}}}}}}},"properties":{wide}}}"#);
        let refused = KeyOrder::parse_schemas(text.as_bytes()).unwrap().2;
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].pointer, "/properties/p65536");
    }
}
