//! Import: JSON Schema (2020-12, and the draft-07 spellings real tools emit) read into the IR.
//!
//! [`import_input`] reads an input object schema and [`import_schema`] any schema. Both accept
//! 2020-12 keywords and the draft-07 spellings tools still emit (`definitions`,
//! `#/definitions/X`, draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum`). A `$ref` to `#`
//! (the document root, i.e. recursion through the root) becomes a reference to a definition that
//! holds a copy of the root schema, named `Input` ([`import_input`]) or `Root`
//! ([`import_schema`]), with a numeric suffix when that name is taken; a note records it. A
//! `$ref` to any other place of the document (`#/properties/contents/items`) becomes a
//! reference to a definition lifted from that place (`Input_contents_items`; see `refs.rs`),
//! with a note.
//!
//! Annotation keywords never fail: `title`, `description`, `default` and `examples` are kept
//! (a default that its own schema rejects, or one left unchecked when the import's budget of
//! steps for checking them runs out, is kept apart with a note: a kept `default` keyword
//! ([`Kept`]), shown to the model as written and never applied; an example that its schema
//! rejects, and a default or an example that a [`Literal`] cannot hold, is left out with a
//! note: see `settle.rs`); the others (`$schema`, `$id`, `$comment`, `deprecated`, `readOnly`,
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
//! `anyOf`), and a tool of more than [`MAX_IMPORT_NODES`] schema nodes (at the pointer where
//! the count crossed it; the spec reader counts a tool's input and output schemas together);
//! nothing is lost silently. Enums and `const`s of strings, integers, numbers and
//! booleans are read as they are (`1.0` under `type: integer` as `1`); values a `type` beside
//! them excludes are dropped with a note, and only an enum with no value left is refused. A schema without
//! `type` whose constraints all belong to one type (e.g. only `properties`) is read as that type,
//! with a note. The imported parts are not validated against [`crate::descriptor_rules`]: callers that
//! build a descriptor call [`ToolDescriptor::validate`] (the spec loader does).

//!
//! # Files
//!
//! | file | owns |
//! | --- | --- |
//! | `mod.rs` | the entry points, the `Importer` state and the dispatch of one schema by its keywords |
//! | `all_of.rs` | the flattened view of a schema object, `allOf` merged in |
//! | `typed.rs` | schemas read by `type`, and the string keywords |
//! | `numbers.rs` | numeric bounds |
//! | `object.rs` | properties, `required`, `additionalProperties` |
//! | `enums.rs` | `enum` and `const` |
//! | `combine.rs` | `anyOf` and `oneOf` |
//! | `disjoint.rs` | whether two schemas can match the same value |
//! | `refs.rs` | `$ref` resolution and the names references point at |
//! | `definitions.rs` | reading the root's definitions, dropping the failed ones, base cases |
//! | `annotations.rs` | `title`, `description`, `default`, `examples` |
//! | `kept.rs` | keywords outside the typed IR: dropped or kept verbatim |
//! | `settle.rs` | the last pass, once the definitions are in |

mod all_of;
mod annotations;
mod combine;
mod definitions;
mod disjoint;
mod enums;
mod kept;
mod numbers;
mod object;
mod refs;
mod settle;
mod typed;

pub use definitions::merge_definitions;

use std::borrow::Cow;

use indexmap::IndexSet;
use serde_json::{Map, Value};

use crate::descriptor::Definition;
use crate::descriptor_rules::MAX_DEPTH;
use crate::json_schema::imported::{
    ImportError, ImportErrorKind, ImportNote, Imported, ImportedSchema, InputSchema,
    MAX_IMPORT_NODES, child, describe, unsupported, wrong,
};
use crate::json_schema::keyword::{Family, Role, SchemaKeyword, is_constraint};
use crate::json_schema::view::View;
use crate::json_text::order::KeyOrder;
use crate::pointer::JsonPointer;
use crate::schema::{Additional, ObjectSchema, Schema, SchemaKind};
use annotations::{merge_annotations, whole};
use definitions::ByName;
use refs::{LiftedPlaces, Located, find_def, place};

/// The state of one import: the definition names of the document, the notes so far, and what
/// the final passes need to know.
struct Importer {
    notes: Vec<ImportNote>,
    defs_2020: IndexSet<String>,
    defs_07: IndexSet<String>,
    root_name: String,
    root_used: bool,
    /// What is left of the steps the final pass may take to check defaults and examples
    /// against their schemas and `oneOf` variants for overlap ([`settle::SETTLE_STEPS`]).
    settle_steps: usize,
    /// Definitions that could not be read, with why: fatal only when something refers to them.
    failed_defs: Vec<(String, ImportError)>,
    /// Problems of the root object's properties, each property read past the one before it
    /// failed (see [`Importer::object`]); any one fails the import.
    errors: Vec<ImportError>,
    /// The key order of the document's text, for properties, definitions and object literals.
    order: KeyOrder,
    /// Schema nodes built so far for the tool, this import's and those of the tool's other
    /// schema read before it (at most [`MAX_IMPORT_NODES`]).
    nodes: usize,
    /// Places of the document that `$ref`s point at, lifted into definitions (`refs.rs`).
    lifted: LiftedPlaces,
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
/// nesting deeper than [`MAX_DEPTH`], or more than [`MAX_IMPORT_NODES`] schema nodes.
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
    import_input_every(schema, order, &mut 0).map_err(first)
}

/// As [`import_input_ordered`], with every problem of the root object's properties (each
/// property is read however the ones before it failed), then the problem that stopped the
/// import, if another did, in document order; never an empty list. `nodes` is the number of
/// schema nodes the tool's other schemas took already, and becomes the tool's total (see
/// [`MAX_IMPORT_NODES`]).
pub(crate) fn import_input_every(
    schema: &Value,
    order: &KeyOrder,
    nodes: &mut usize,
) -> Result<Imported<InputSchema>, Vec<ImportError>> {
    let mut errors = Vec::new();
    match read_input(schema, order, nodes, &mut errors) {
        Ok(imported) if errors.is_empty() => Ok(imported),
        Ok(_) => Err(errors),
        Err(e) => {
            errors.push(e);
            Err(errors)
        }
    }
}

/// The first of the errors [`import_input_every`] returns.
fn first(errors: Vec<ImportError>) -> ImportError {
    errors.into_iter().next().expect("a failed import has at least one error")
}

/// The input import; the problems of properties read past are moved into `errors` (the result
/// is then only what was left, for the caller to discard).
fn read_input(
    schema: &Value,
    order: &KeyOrder,
    nodes: &mut usize,
    errors: &mut Vec<ImportError>,
) -> Result<Imported<InputSchema>, ImportError> {
    let Value::Object(root) = schema else {
        return Err(ImportError::at(
            "",
            ImportErrorKind::NotAnObject { reason: format!("got {}", describe(schema)) },
        ));
    };
    Importer::new(root, "Input", order)?.counted(nodes, |im| read_input_with(im, root, errors))
}

/// [`read_input`] past the importer's creation.
fn read_input_with(
    im: &mut Importer,
    root: &Map<String, Value>,
    errors: &mut Vec<ImportError>,
) -> Result<Imported<InputSchema>, ImportError> {
    let mut view = im.view(root, "")?;
    // A root that only refers to a definition: read the definition as the root object.
    if let Some(r) = view.get("$ref") {
        if let Some(k) = view.kws.keys().find(|k| is_constraint(k) && **k != "$ref") {
            return Err(unsupported(&child("", k), k, "`$ref` with sibling constraints"));
        }
        let target = match &*r.value {
            Value::String(s) => s.clone(),
            other => return Err(wrong(&r.ptr, "$ref", "a string", other)),
        };
        let dangling =
            || ImportError::at(&r.ptr, ImportErrorKind::DanglingRef { target: target.clone() });
        let (def_ptr, def, note) = match im.locate(&target, &r.ptr)? {
            Located::Root => {
                return Err(unsupported(&r.ptr, "$ref", "the root refers to itself"));
            }
            Located::Table(name) => {
                let (at, def) = find_def(root, &target, &name).ok_or_else(dangling)?;
                (at, def, "at the root was followed; its definition is the input object")
            }
            Located::Pointer(steps) => {
                let def = place(root, &steps).ok_or_else(dangling)?;
                let at = crate::pointer::JsonPointer::from_segments(&steps).into_string();
                (at, def, "at the root was followed; the schema it points at is the input object")
            }
        };
        let Value::Object(def) = def else {
            return Err(ImportError::at(
                &def_ptr,
                ImportErrorKind::NotAnObject { reason: format!("got {}", describe(def)) },
            ));
        };
        im.note(&r.ptr, "$ref", note);
        view = im.view(def, &def_ptr)?;
    }
    let types = im.types(&view)?;
    let is_object = match &types {
        None => true,
        Some(t) => t.iter().any(|t| t == "object"),
    };
    if !is_object {
        return Err(ImportError::at(
            &child(&view.ptr, "type"),
            ImportErrorKind::NotAnObject { reason: "its `type` does not allow `object`".into() },
        ));
    }
    if let Some(t) = &types
        && t.len() > 1
    {
        return Err(ImportError::at(
            &child(&view.ptr, "type"),
            ImportErrorKind::NotAnObject { reason: "its `type` allows more than `object`".into() },
        ));
    }
    for k in ["anyOf", "oneOf", "enum", "const"] {
        if let Some(kw) = view.get(k) {
            return Err(ImportError::at(
                &kw.ptr,
                ImportErrorKind::NotAnObject {
                    reason: format!("`{k}` at the root is not a single object"),
                },
            ));
        }
    }
    if types.is_none() {
        im.note(&view.ptr, "type", "is absent at the root; read as `object`");
    }
    let annotations = SchemaKeyword::ALL.iter().filter(|k| k.role() == Role::Annotation);
    for k in annotations.map(|k| k.wire()) {
        if let Some(kw) = view.get(k) {
            let ptr = kw.ptr.clone();
            im.note(&ptr, k, "of the input root was dropped (the tool's own fields describe it)");
        }
    }
    im.check_keywords(&view)?;
    im.drop_foreign(&view, Some(Family::Object));
    let before = im.nodes;
    let (mut params, mut additional) = im.object(&view, 0)?;
    let root_nodes = im.nodes - before + 1;
    let kept = im.kept(&view);
    let mut definitions = im.definitions(root)?;
    if !im.errors.is_empty() {
        // Some properties could not be read: the import fails. A definition that one of the
        // others needs and that cannot be read is a problem of its own; what follows would
        // only check what is left of the object.
        *errors = std::mem::take(&mut im.errors);
        let roots: Vec<&Schema> = params.iter().map(|p| &p.schema).collect();
        if let Err(e) = im.drop_failed(&roots, &kept, &mut definitions) {
            errors.push(e);
        }
        let value = InputSchema { params, additional, definitions, kept };
        return Ok(Imported { value, notes: std::mem::take(&mut im.notes) });
    }
    let snapshot = definitions.clone();
    let by_name = ByName::new(&snapshot);
    im.settle_object(&mut params, &mut additional, &by_name, &mut view.ptr.clone(), 0);
    im.settle_definitions(&mut definitions, &by_name);
    let mut roots: Vec<&Schema> = params.iter().map(|p| &p.schema).collect();
    if let Additional::Typed(t) = &additional {
        roots.push(t.get());
    }
    im.drop_failed(&roots, &kept, &mut definitions)?;
    if im.root_used {
        // The copy is built as much as the root's properties were.
        im.count_nodes(root_nodes, &view.ptr)?;
        let mut copy = Schema::of(SchemaKind::Object(ObjectSchema {
            properties: Cow::Owned(params.clone()),
            additional: additional.clone(),
        }));
        copy.kept.clone_from(&kept);
        definitions.push(Definition::named(im.root_name.clone(), copy));
    }
    let mut roots: Vec<&Schema> = params.iter().map(|p| &p.schema).collect();
    if let Additional::Typed(t) = &additional {
        roots.push(t);
    }
    im.check_base_cases(&definitions, &roots)?;
    let value = InputSchema { params, additional, definitions, kept };
    Ok(Imported { value, notes: std::mem::take(&mut im.notes) })
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
    import_schema_counted(schema, order, &mut 0)
}

/// As [`import_schema_ordered`]; `nodes` is the number of schema nodes the tool's other schemas
/// took already, and becomes the tool's total (see [`MAX_IMPORT_NODES`]).
pub(crate) fn import_schema_counted(
    schema: &Value,
    order: &KeyOrder,
    nodes: &mut usize,
) -> Result<Imported<ImportedSchema>, ImportError> {
    let root = match schema {
        Value::Object(root) => root,
        other => {
            // `true`, `false` and non-objects get the usual schema error.
            let mut im = Importer::new(&Map::new(), "Root", order)?;
            im.schema(other, "", 0)?;
            return Err(wrong("", "schema", "an object", other));
        }
    };
    Importer::new(root, "Root", order)?.counted(nodes, |im| read_schema(im, root, schema))
}

/// [`import_schema_counted`] past the importer's creation.
fn read_schema(
    im: &mut Importer,
    root: &Map<String, Value>,
    schema: &Value,
) -> Result<Imported<ImportedSchema>, ImportError> {
    let before = im.nodes;
    let mut schema = im.schema(schema, "", 0)?;
    let root_nodes = im.nodes - before;
    if !im.errors.is_empty() {
        return Err(im.errors.swap_remove(0));
    }
    let mut definitions = im.definitions(root)?;
    let snapshot = definitions.clone();
    let by_name = ByName::new(&snapshot);
    im.settle(&mut schema, &by_name, &mut String::new(), 0);
    im.settle_definitions(&mut definitions, &by_name);
    im.drop_failed(&[&schema], &[], &mut definitions)?;
    if im.root_used {
        // The copy is built as much as the root was.
        im.count_nodes(root_nodes, "")?;
        definitions.push(Definition::named(im.root_name.clone(), schema.clone()));
    }
    im.check_base_cases(&definitions, &[&schema])?;
    let notes = std::mem::take(&mut im.notes);
    Ok(Imported { value: ImportedSchema { schema, definitions }, notes })
}

impl Importer {
    /// Runs `read` with the node count of the tool's schemas read before (`nodes`), and leaves
    /// the tool's new total there (see [`MAX_IMPORT_NODES`]).
    fn counted<T>(mut self, nodes: &mut usize, read: impl FnOnce(&mut Importer) -> T) -> T {
        self.nodes = *nodes;
        let result = read(&mut self);
        *nodes = self.nodes;
        result
    }

    fn new(
        root: &Map<String, Value>,
        root_name: &str,
        order: &KeyOrder,
    ) -> Result<Self, ImportError> {
        let mut im = Importer {
            notes: Vec::new(),
            defs_2020: IndexSet::new(),
            defs_07: IndexSet::new(),
            root_name: String::new(),
            root_used: false,
            settle_steps: settle::SETTLE_STEPS,
            failed_defs: Vec::new(),
            errors: Vec::new(),
            order: order.clone(),
            nodes: 0,
            lifted: LiftedPlaces::default(),
        };
        for table in ["$defs", "definitions"] {
            match root.get(table) {
                None => {}
                Some(Value::Object(defs)) => {
                    let at = child("", table);
                    let entries = im.order.entries(&at, defs);
                    // Each definition is a node of its own, read or not: a table this wide is
                    // past the limit before any is read.
                    if let Some((name, _)) = entries.get(MAX_IMPORT_NODES) {
                        return Err(ImportError::at(
                            &child(&at, name),
                            ImportErrorKind::TooManyNodes,
                        ));
                    }
                    let names = entries.into_iter().map(|e| e.0.clone()).collect();
                    if table == "$defs" { im.defs_2020 = names } else { im.defs_07 = names }
                }
                Some(other) => return Err(wrong(&child("", table), table, "an object", other)),
            }
        }
        for name in &im.defs_07 {
            if im.defs_2020.contains(name) && root["$defs"][name] != root["definitions"][name] {
                return Err(unsupported(
                    &child(&child("", "definitions"), name),
                    "definitions",
                    format!("`{name}` is also in `$defs` with a different schema"),
                ));
            }
        }
        let mut name = root_name.to_owned();
        let mut n = 1;
        while im.defs_2020.contains(&name) || im.defs_07.contains(&name) {
            n += 1;
            name = format!("{root_name}_{n}");
        }
        im.root_name = name;
        Ok(im)
    }

    fn note(&mut self, pointer: &str, keyword: &str, message: impl Into<String>) {
        self.notes.push(ImportNote {
            pointer: JsonPointer::from_written(pointer),
            keyword: keyword.to_owned(),
            message: message.into(),
        });
    }

    /// Counts `n` more schema nodes built for the tool, the first of them at `ptr`; past
    /// [`MAX_IMPORT_NODES`], the error that stops the import.
    fn count_nodes(&mut self, n: usize, ptr: &str) -> Result<(), ImportError> {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > MAX_IMPORT_NODES {
            return Err(ImportError::at(ptr, ImportErrorKind::TooManyNodes));
        }
        Ok(())
    }

    /// Reads a schema at `ptr`.
    fn schema(&mut self, value: &Value, ptr: &str, depth: usize) -> Result<Schema, ImportError> {
        if depth > MAX_DEPTH {
            return Err(ImportError::at(ptr, ImportErrorKind::TooDeep));
        }
        self.count_nodes(1, ptr)?;
        let map = match value {
            Value::Object(m) => m,
            Value::Bool(true) => return Ok(Schema::any()),
            Value::Bool(false) => {
                return Err(unsupported(
                    ptr,
                    "false",
                    "a schema that accepts nothing has no IR kind",
                ));
            }
            other => return Err(wrong(ptr, "schema", "an object", other)),
        };
        let view = self.view(map, ptr)?;
        self.schema_of_view(&view, depth)
    }
    fn schema_of_view(&mut self, view: &View<'_>, depth: usize) -> Result<Schema, ImportError> {
        self.check_keywords(view)?;
        let mut s = if let Some(r) = view.get("$ref") {
            self.reference(view, r)?
        } else if view.get("anyOf").is_some() || view.get("oneOf").is_some() {
            self.union(view, depth)?
        } else if view.get("enum").is_some() || view.get("const").is_some() {
            self.enumeration(view)?
        } else {
            self.typed(view, depth)?
        };
        // A union collapsed onto its only variant keeps that variant's annotations.
        let mut annotated = Schema::of(SchemaKind::Null);
        self.annotations(view, &mut annotated)?;
        merge_annotations(&mut s, annotated);
        if matches!(s.kind, SchemaKind::Integer(_)) {
            // `-0` and `3.0` are integers to JSON Schema: hold them as such.
            if let Some(d) = &mut s.default {
                whole(d);
            }
            s.examples.to_mut().iter_mut().for_each(whole);
        }
        let kept = self.kept(view);
        s.kept.extend(kept);
        Ok(s)
    }
}
