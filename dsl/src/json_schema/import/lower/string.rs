//! Strings: `format`, `pattern` (refused when it cannot be enforced with ECMA-262's meaning),
//! `minLength` and `maxLength`.

use std::borrow::Cow;

use serde_json::Value;

use crate::json_schema::import::read::Node;
use crate::json_schema::imported::{ImportError, unsupported, wrong};
use crate::schema::StringSchema;

/// The string schema of a node.
pub(super) fn string(node: &Node<'_>) -> Result<StringSchema, ImportError> {
    Ok(StringSchema {
        format: text_kw(node, "format")?,
        pattern: pattern_kw(node)?,
        min_length: node.count("minLength")?,
        max_length: node.count("maxLength")?,
    })
}

/// A keyword whose value is a string.
fn text_kw(node: &Node<'_>, key: &str) -> Result<Option<Cow<'static, str>>, ImportError> {
    match node.get(key) {
        None => Ok(None),
        Some(kw) => match &*kw.value {
            Value::String(s) => Ok(Some(Cow::Owned(s.clone()))),
            other => Err(wrong(&kw.ptr, key, "a string", other)),
        },
    }
}

/// `pattern`, refused with its pointer when it cannot be enforced with ECMA-262's meaning.
fn pattern_kw(node: &Node<'_>) -> Result<Option<Cow<'static, str>>, ImportError> {
    let pattern = text_kw(node, "pattern")?;
    if let (Some(source), Some(kw)) = (&pattern, node.get("pattern"))
        && let Err(e) = crate::arg_checks::compile(source)
    {
        return Err(unsupported(&kw.ptr, "pattern", e.reason));
    }
    Ok(pattern)
}
