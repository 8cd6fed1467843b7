//! Arrays: `items` (a tuple's is kept verbatim, see `kept.rs`), `minItems`, `maxItems` and
//! `uniqueItems`.

use super::kept::tuple_items;
use super::schema;
use crate::json_schema::import::context::Cx;
use crate::json_schema::import::read::Node;
use crate::json_schema::imported::{ImportError, wrong};
use crate::schema::{ListSchema, Schema};

/// The list schema of a node, `depth` schemas below the root.
pub(super) fn list(cx: &mut Cx, node: &Node<'_>, depth: usize) -> Result<ListSchema, ImportError> {
    let item = match node.get("items") {
        Some(items) if !tuple_items(node) => schema(cx, &items.value, &items.ptr, depth + 1)?,
        _ => Schema::any(),
    };
    let unique = match node.get("uniqueItems") {
        None => false,
        Some(kw) => kw
            .value
            .as_bool()
            .ok_or_else(|| wrong(&kw.ptr, "uniqueItems", "a boolean", &kw.value))?,
    };
    Ok(ListSchema {
        items: item.into(),
        min_items: node.count("minItems")?,
        max_items: node.count("maxItems")?,
        unique,
    })
}
