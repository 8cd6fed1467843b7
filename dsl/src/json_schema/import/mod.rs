//! Import: JSON Schema (2020-12, and the draft-07 spellings real tools emit) read into the IR.
//!
//! [`import_input`] reads an input object schema and [`import_schema`] any schema. Both accept
//! 2020-12 keywords and the draft-07 spellings tools still emit (`definitions`,
//! `#/definitions/X`, draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum`). A `$ref` to `#`
//! (the document root, i.e. recursion through the root) becomes a reference to a definition that
//! holds a copy of the root schema, named `Input` ([`import_input`]) or `Root`
//! ([`import_schema`]), with a numeric suffix when that name is taken; a note records it. A
//! `$ref` to any other place of the document (`#/properties/contents/items`) becomes a
//! reference to a definition lifted from that place (`Input_contents_items`; see `lower/reference.rs`),
//! with a note.
//!
//! Annotation keywords never fail: `title`, `description`, `default` and `examples` are kept
//! (a default that its own schema rejects, or one left unchecked when the import's budget of
//! steps for checking them runs out, is kept apart with a note: a kept `default` keyword
//! ([`Kept`]), shown to the model as written and never applied; an example that its schema
//! rejects, and a default or an example that a [`Literal`] cannot hold, is left out with a
//! note: see `settle/mod.rs`); the others (`$schema`, `$id`, `$comment`, `deprecated`, `readOnly`,
//! `writeOnly`, `x-*`, unknown keywords...) are dropped with an [`ImportNote`]. A keyword that
//! changes what is valid and that the IR cannot type (`not`, `if`/`then`/`else`,
//! `patternProperties`, `propertyNames`, `dependentRequired`, `dependentSchemas`, `prefixItems`,
//! `contains`, `minProperties`/`maxProperties`...) is kept verbatim ([`Kept`]) with a note
//! (but a `propertyNames` that accepts every string, such as zod's `{"type": "string"}`, says
//! nothing and is dropped with a note), and
//! a `oneOf` keeps its spelling, marked when its variants may overlap ([`Combine`]). A required
//! key that `properties` does not list becomes a property that takes what other keys take. A
//! definition that cannot be read is dropped with a note unless something refers to it.
//! What stays an [`ImportError`] naming its JSON pointer: a schema that is not JSON Schema (a
//! keyword of the wrong type, an unknown type name, a `$ref` to no place of the document or to
//! another document), one that no
//! value satisfies, and what the IR cannot hold at all (an `allOf` that cannot be merged
//! exactly, an enum value that is an array or an object, constraints beside `$ref` or
//! `anyOf`), and a tool of more than [`MAX_IMPORT_NODES`](crate::json_schema::MAX_IMPORT_NODES) schema nodes (at the pointer where
//! the count crossed it; the spec reader counts a tool's input and output schemas together);
//! nothing is lost silently. Enums and `const`s of strings, integers, numbers and
//! booleans are read as they are (`1.0` under `type: integer` as `1`); values a `type` beside
//! them excludes are dropped with a note, and only an enum with no value left is refused. A schema without
//! `type` whose constraints all belong to one type (e.g. only `properties`) is read as that type,
//! with a note. The imported parts are not validated against [`crate::descriptor_rules`]: callers that
//! build a descriptor call [`ToolDescriptor::validate`] (the spec loader does).
//!
//! # Stages
//!
//! An import runs three stages over a private context ([`Cx`](context::Cx), `context.rs`),
//! each a set of free functions:
//!
//! | stage | files | what it does |
//! | --- | --- | --- |
//! | read | `read.rs` | one schema object (JSON) read into a `Node`: its keywords with `allOf` merged in, each with its [`JsonPointer`], its properties as `Prop`s |
//! | lower | `lower/` | a `Node` lowered into a [`Schema`], one file per kind (number, string, list, object, union, enums, reference) and for annotations and kept keywords |
//! | settle | `settle/` | once every definition is read: the definitions (read, dropped when failed and unreferenced), defaults and examples checked, `oneOf` disjointness (`disjoint.rs`), finiteness (`finite.rs`) |
//!
//! `mod.rs` holds the entry points and runs the stages for an input object
//! ([`import_input`]) or any schema ([`import_schema`]).

mod context;
mod lower;
mod read;
mod settle;

pub use settle::definitions::merge_definitions;

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::descriptor::Definition;
use crate::json_schema::imported::{
    ImportError, ImportErrorKind, Imported, ImportedSchema, InputSchema, describe, unsupported,
    wrong,
};
use crate::json_schema::keyword::{Family, Role, SchemaKeyword, is_constraint};
use crate::json_text::order::KeyOrder;
use crate::pointer::JsonPointer;
use crate::schema::{Additional, ObjectSchema, Schema, SchemaKind};
use context::Cx;
use lower::reference::{Located, find_def, locate, place};
use lower::{check_keywords, drop_foreign, kept};
use read::{Node, read_node};
use settle::definitions::{ByName, check_base_cases, definitions, drop_failed};
use settle::{settle, settle_definitions, settle_object};

/// How one import runs: what the public entry points differ by.
struct Options<'o> {
    /// The key order of the schema's text (pointers relative to the schema).
    order: &'o KeyOrder,
    /// The schema nodes the tool's other schemas took already; the import leaves the tool's
    /// total here (see [`MAX_IMPORT_NODES`](crate::json_schema::MAX_IMPORT_NODES)).
    nodes: usize,
}

impl<'o> Options<'o> {
    fn new(order: &'o KeyOrder) -> Self {
        Options { order, nodes: 0 }
    }
}

/// Reads an input object schema (the `inputSchema` / `parameters` of a tool).
///
/// `additionalProperties` absent is kept as [`Additional::Unstated`] (accepted as JSON Schema
/// accepts it, and closed without loss by strict renderers); `true` or `{}` is
/// [`Additional::Open`]. A root `$ref` to
/// an object definition is followed. The result is not validated (see the module docs).
///
/// ```
/// use serde_json::json;
/// use tooldef::{ToolDescriptor, import_input};
///
/// let schema = json!({
///     "type": "object",
///     "properties": {
///         "city": {"type": "string", "description": "City name"},
///         "days": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3}
///     },
///     "required": ["city"]
/// });
/// let imported = import_input(&schema).unwrap();
/// let mut tool = ToolDescriptor::new("get_weather");
/// imported.value.apply_to(&mut tool);
/// assert!(tool.param("city").unwrap().required);
/// assert!(!tool.param("days").unwrap().required);
/// ```
///
/// # Errors
///
/// An [`ImportError`] naming the JSON pointer of the first problem: a root that is not an object
/// schema, a keyword of the wrong type, a keyword the IR cannot express, a dangling `$ref`,
/// nesting deeper than [`MAX_DEPTH`](crate::descriptor_rules::MAX_DEPTH), or more than [`MAX_IMPORT_NODES`](crate::json_schema::MAX_IMPORT_NODES) schema nodes.
pub fn import_input(schema: &Value) -> Result<Imported<InputSchema>, ImportError> {
    import_input_ordered(schema, &KeyOrder::default())
}

/// As [`import_input`], reading properties, definitions and object literals in the key order
/// `order` recorded from the schema's text (pointers relative to the schema).
///
/// # Errors
///
/// As [`import_input`].
pub fn import_input_ordered(
    schema: &Value,
    order: &KeyOrder,
) -> Result<Imported<InputSchema>, ImportError> {
    input(schema, &mut Options::new(order)).map_err(first)
}

/// As [`import_input_ordered`], with every problem of the root object's properties (each
/// property is read however the ones before it failed), then the problem that stopped the
/// import, if another did, in document order; never an empty list. `nodes` is the number of
/// schema nodes the tool's other schemas took already, and becomes the tool's total (see
/// [`MAX_IMPORT_NODES`](crate::json_schema::MAX_IMPORT_NODES)).
pub(crate) fn import_input_every(
    schema: &Value,
    order: &KeyOrder,
    nodes: &mut usize,
) -> Result<Imported<InputSchema>, Vec<ImportError>> {
    let mut options = Options { order, nodes: *nodes };
    let result = input(schema, &mut options);
    *nodes = options.nodes;
    result
}

/// The first of the errors an input import returns.
fn first(errors: Vec<ImportError>) -> ImportError {
    errors.into_iter().next().expect("a failed import has at least one error")
}

/// The input import: every problem of the root object's properties, then the problem that
/// stopped the import, if another did.
fn input(
    schema: &Value,
    options: &mut Options<'_>,
) -> Result<Imported<InputSchema>, Vec<ImportError>> {
    let Value::Object(root) = schema else {
        let reason = format!("got {}", describe(schema));
        return Err(vec![ImportError::at(
            &JsonPointer::root(),
            ImportErrorKind::NotAnObject { reason },
        )]);
    };
    let mut cx = Cx::new(root, "Input", options.order).map_err(|e| vec![e])?;
    cx.nodes = options.nodes;
    let mut errors = Vec::new();
    let result = input_stages(&mut cx, root, &mut errors);
    options.nodes = cx.nodes;
    match result {
        Ok(imported) if errors.is_empty() => Ok(imported),
        Ok(_) => Err(errors),
        Err(e) => {
            errors.push(e);
            Err(errors)
        }
    }
}

/// The stages of the input import; the problems of properties read past are moved into
/// `errors` (the result is then only what was left, for the caller to discard).
fn input_stages(
    cx: &mut Cx,
    root: &Map<String, Value>,
    errors: &mut Vec<ImportError>,
) -> Result<Imported<InputSchema>, ImportError> {
    let node = input_root(cx, root)?;
    check_input_root(cx, &node)?;
    check_keywords(cx, &node);
    drop_foreign(cx, &node, Some(Family::Object));
    let before = cx.nodes;
    let (mut params, mut additional) = lower::object::object(cx, &node, 0)?;
    let root_nodes = cx.nodes - before + 1;
    let kept = kept(cx, &node);
    let mut definitions = definitions(cx, root)?;
    if !cx.errors.is_empty() {
        // Some properties could not be read: the import fails. A definition that one of the
        // others needs and that cannot be read is a problem of its own; what follows would
        // only check what is left of the object.
        *errors = std::mem::take(&mut cx.errors);
        let roots: Vec<&Schema> = params.iter().map(|p| &p.schema).collect();
        if let Err(e) = drop_failed(cx, &roots, &kept, &mut definitions) {
            errors.push(e);
        }
        let value = InputSchema { params, additional, definitions, kept };
        return Ok(Imported { value, notes: std::mem::take(&mut cx.notes) });
    }
    let snapshot = definitions.clone();
    let by_name = ByName::new(&snapshot);
    settle_object(cx, &mut params, &mut additional, &by_name, &mut node.ptr.clone(), 0);
    settle_definitions(cx, &mut definitions, &by_name);
    let mut roots: Vec<&Schema> = params.iter().map(|p| &p.schema).collect();
    if let Additional::Typed(t) = &additional {
        roots.push(t.get());
    }
    drop_failed(cx, &roots, &kept, &mut definitions)?;
    if cx.root_used {
        // The copy is built as much as the root's properties were.
        cx.count_nodes(root_nodes, &node.ptr)?;
        let mut copy = Schema::of(SchemaKind::Object(ObjectSchema {
            properties: Cow::Owned(params.clone()),
            additional: additional.clone(),
        }));
        copy.kept.clone_from(&kept);
        definitions.push(Definition::named(cx.root_name.clone(), copy));
    }
    let mut roots: Vec<&Schema> = params.iter().map(|p| &p.schema).collect();
    if let Additional::Typed(t) = &additional {
        roots.push(t);
    }
    check_base_cases(cx, &definitions, &roots)?;
    let value = InputSchema { params, additional, definitions, kept };
    Ok(Imported { value, notes: std::mem::take(&mut cx.notes) })
}

/// The node of the input root: the root object, or the definition it only refers to.
fn input_root<'v>(cx: &mut Cx, root: &'v Map<String, Value>) -> Result<Node<'v>, ImportError> {
    let node = read_node(cx, root, &JsonPointer::root())?;
    let Some(r) = node.get("$ref") else { return Ok(node) };
    if let Some(k) = node.kws.keys().find(|k| is_constraint(k) && **k != "$ref") {
        return Err(unsupported(
            &JsonPointer::root().child(k),
            k,
            "`$ref` with sibling constraints",
        ));
    }
    let target = match &*r.value {
        Value::String(s) => s.clone(),
        other => return Err(wrong(&r.ptr, "$ref", "a string", other)),
    };
    let dangling =
        || ImportError::at(&r.ptr, ImportErrorKind::DanglingRef { target: target.clone() });
    let (def_ptr, def, note) = match locate(cx, &target, &r.ptr)? {
        Located::Root => {
            return Err(unsupported(&r.ptr, "$ref", "the root refers to itself"));
        }
        Located::Table(name) => {
            let (at, def) = find_def(root, &target, &name).ok_or_else(dangling)?;
            (at, def, "at the root was followed; its definition is the input object")
        }
        Located::Pointer(steps) => {
            let def = place(root, &steps).ok_or_else(dangling)?;
            let at = JsonPointer::from_segments(&steps);
            (at, def, "at the root was followed; the schema it points at is the input object")
        }
    };
    let Value::Object(def) = def else {
        let reason = format!("got {}", describe(def));
        return Err(ImportError::at(&def_ptr, ImportErrorKind::NotAnObject { reason }));
    };
    cx.note(&r.ptr, "$ref", note);
    read_node(cx, def, &def_ptr)
}

/// Refuses an input root that is not a single object schema; notes a `type` left out and the
/// annotations of the root, which the tool's own fields replace.
fn check_input_root(cx: &mut Cx, node: &Node<'_>) -> Result<(), ImportError> {
    let types = node.types()?;
    let not_an_object = |ptr: &JsonPointer, reason: String| {
        ImportError::at(ptr, ImportErrorKind::NotAnObject { reason })
    };
    let is_object = match &types {
        None => true,
        Some(t) => t.iter().any(|t| t == "object"),
    };
    if !is_object {
        let reason = "its `type` does not allow `object`".into();
        return Err(not_an_object(&node.ptr.child("type"), reason));
    }
    if let Some(t) = &types
        && t.len() > 1
    {
        let reason = "its `type` allows more than `object`".into();
        return Err(not_an_object(&node.ptr.child("type"), reason));
    }
    for k in ["anyOf", "oneOf", "enum", "const"] {
        if let Some(kw) = node.get(k) {
            let reason = format!("`{k}` at the root is not a single object");
            return Err(not_an_object(&kw.ptr, reason));
        }
    }
    if types.is_none() {
        cx.note(&node.ptr, "type", "is absent at the root; read as `object`");
    }
    let annotations = SchemaKeyword::ALL.iter().filter(|k| k.role() == Role::Annotation);
    for k in annotations.map(|k| k.wire()) {
        if let Some(kw) = node.get(k) {
            cx.note(
                &kw.ptr,
                k,
                "of the input root was dropped (the tool's own fields describe it)",
            );
        }
    }
    Ok(())
}

/// Reads one schema and the definitions of its document.
///
/// # Errors
///
/// As [`import_input`], except that the root may be any schema.
pub fn import_schema(schema: &Value) -> Result<Imported<ImportedSchema>, ImportError> {
    import_schema_ordered(schema, &KeyOrder::default())
}

/// As [`import_schema`], in the key order `order` recorded from the schema's text.
///
/// # Errors
///
/// As [`import_input`], except that the root may be any schema.
pub fn import_schema_ordered(
    schema: &Value,
    order: &KeyOrder,
) -> Result<Imported<ImportedSchema>, ImportError> {
    any_schema(schema, &mut Options::new(order))
}

/// As [`import_schema_ordered`]; `nodes` is the number of schema nodes the tool's other schemas
/// took already, and becomes the tool's total (see [`MAX_IMPORT_NODES`](crate::json_schema::MAX_IMPORT_NODES)).
pub(crate) fn import_schema_counted(
    schema: &Value,
    order: &KeyOrder,
    nodes: &mut usize,
) -> Result<Imported<ImportedSchema>, ImportError> {
    let mut options = Options { order, nodes: *nodes };
    let result = any_schema(schema, &mut options);
    *nodes = options.nodes;
    result
}

/// The import of any schema.
fn any_schema(
    schema: &Value,
    options: &mut Options<'_>,
) -> Result<Imported<ImportedSchema>, ImportError> {
    let root = match schema {
        Value::Object(root) => root,
        other => {
            // `true`, `false` and non-objects get the usual schema error.
            let mut cx = Cx::new(&Map::new(), "Root", options.order)?;
            lower::schema(&mut cx, other, &JsonPointer::root(), 0)?;
            return Err(wrong(&JsonPointer::root(), "schema", "an object", other));
        }
    };
    let mut cx = Cx::new(root, "Root", options.order)?;
    cx.nodes = options.nodes;
    let result = schema_stages(&mut cx, root, schema);
    options.nodes = cx.nodes;
    result
}

/// The stages of the import of any schema.
fn schema_stages(
    cx: &mut Cx,
    root: &Map<String, Value>,
    schema: &Value,
) -> Result<Imported<ImportedSchema>, ImportError> {
    let before = cx.nodes;
    let mut schema = lower::schema(cx, schema, &JsonPointer::root(), 0)?;
    let root_nodes = cx.nodes - before;
    if !cx.errors.is_empty() {
        return Err(cx.errors.swap_remove(0));
    }
    let mut definitions = definitions(cx, root)?;
    let snapshot = definitions.clone();
    let by_name = ByName::new(&snapshot);
    settle(cx, &mut schema, &by_name, &mut JsonPointer::root(), 0);
    settle_definitions(cx, &mut definitions, &by_name);
    drop_failed(cx, &[&schema], &[], &mut definitions)?;
    if cx.root_used {
        // The copy is built as much as the root was.
        cx.count_nodes(root_nodes, &JsonPointer::root())?;
        definitions.push(Definition::named(cx.root_name.clone(), schema.clone()));
    }
    check_base_cases(cx, &definitions, &[&schema])?;
    let notes = std::mem::take(&mut cx.notes);
    Ok(Imported { value: ImportedSchema { schema, definitions }, notes })
}
