//! JSON Schema (draft 2020-12) export of the IR, and import of JSON Schema into the IR.
//!
//! Owns the mapping between [`Schema`](crate::Schema) / [`ToolDescriptor`](crate::ToolDescriptor) and JSON Schema documents. It does not
//! touch providers (each renderer adapts the exported schema to its own dialect) nor spec files
//! (see [`crate::spec`], which builds on this module).
//!
//! | file | owns |
//! | --- | --- |
//! | `export.rs` | [`export_input`], [`export_output`], [`export_schema`] and the key order they write |
//! | `refs.rs` | every `$ref` helper: [`definition_ref`], the definition names a schema or a JSON value refers to |
//! | `import/` | [`import_input`], [`import_schema`]: the importer, in three stages (read, lower, settle) |
//! | `imported.rs` | what an import returns: [`Imported`], [`ImportNote`], [`ImportError`] |
//! | `keyword.rs` | [`SchemaKeyword`]: the one table of keywords (wire name, what import does, family, IR bound, which value of two tightens) |
//!
//! # Keywords the IR cannot type
//!
//! Import keeps them verbatim on the schema node ([`Kept`](crate::Kept); the input root's in
//! [`ToolDescriptor::input_kept`](crate::ToolDescriptor::input_kept)), export and the renderers
//! of providers that take full JSON Schema write them back as they were, and the other renderers
//! move them into the description as a lossy reported change. An object without
//! `additionalProperties` is [unstated](crate::Additional::Unstated): dispatch accepts other
//! keys there, as JSON Schema does. What dispatch enforces of each kept keyword:
//!
//! | keyword | dispatch |
//! | --- | --- |
//! | `minProperties`, `maxProperties` | enforced (the number of keys of an object) |
//! | `dependentRequired`, draft-07 `dependencies` with an array | enforced (a key present requires the keys it names) |
//! | `oneOf` whose variants may overlap | enforced (exactly one variant matches) |
//! | `not`, `if`/`then`/`else` | not enforced: the typed part is checked, these are left to the provider and the tool |
//! | `patternProperties`, `propertyNames`, `unevaluatedProperties` | not enforced (other keys are checked against `additionalProperties` alone) |
//! | `dependentSchemas`, `dependencies` with a schema | not enforced |
//! | `prefixItems`, an array of `items`, `additionalItems`, `unevaluatedItems` | not enforced: the items of such an array are accepted as any value |
//! | `contains`, `minContains`, `maxContains` | not enforced |
//! | `$dynamicRef`, `$recursiveRef` | not enforced |

pub(crate) mod export;
mod import;
mod imported;
pub(crate) mod keyword;
mod refs;

pub use crate::json_text::order::KeyOrder;
pub use export::{
    export_input, export_input_literal, export_output, export_output_literal, export_schema,
    export_schema_literal,
};
pub use import::{
    import_input, import_input_ordered, import_schema, import_schema_ordered, merge_definitions,
};
pub(crate) use import::{import_input_every, import_schema_counted};
pub use imported::{
    ImportError, ImportErrorKind, ImportNote, Imported, ImportedSchema, InputSchema,
    MAX_IMPORT_NODES, pointer_token,
};
pub use keyword::SchemaKeyword;
pub use refs::definition_ref;
pub(crate) use refs::json_refs;
