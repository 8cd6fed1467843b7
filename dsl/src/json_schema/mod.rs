//! JSON Schema (draft 2020-12) export of the IR, and import of JSON Schema into the IR.
//!
//! Owns the mapping between [`Schema`](crate::Schema) / [`ToolDescriptor`](crate::ToolDescriptor) and JSON Schema documents. It does not
//! touch providers (each renderer adapts the exported schema to its own dialect) nor spec files
//! (see [`crate::spec`], which builds on this module).
//!
//! | file | owns |
//! | --- | --- |
//! | `export.rs` | [`export_input`], [`export_output`], [`export_schema`] and the key order they write |
//! | `import.rs` | [`import_input`], [`import_schema`]: the importer |
//! | `imported.rs` | what an import returns: [`Imported`], [`ImportNote`], [`ImportError`] |
//! | `finite.rs` | which definitions some finite value matches (a `$ref` cycle needs a base case) |
//! | `keywords.rs` | the keyword tables import reads by |
//! | `order.rs` | [`KeyOrder`]: the key order of JSON text, kept beside its `Value` |
//! | `view.rs` | the flattened view of one schema object (`allOf` merged) |

pub(crate) mod export;
mod finite;
mod import;
mod imported;
mod keywords;
mod order;
mod view;

pub use export::{
    definition_ref, export_input, export_input_literal, export_output, export_output_literal,
    export_schema, export_schema_literal,
};
pub(crate) use import::json_refs;
pub use import::{
    import_input, import_input_ordered, import_schema, import_schema_ordered, merge_definitions,
};
pub use imported::{
    ImportError, ImportErrorKind, ImportNote, Imported, ImportedSchema, InputSchema, pointer_token,
};
pub use order::KeyOrder;
