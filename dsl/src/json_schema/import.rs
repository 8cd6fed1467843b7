//! Import: JSON Schema (2020-12, and the draft-07 spellings real tools emit) read into the IR.
//!
//! [`import_input`] reads an input object schema and [`import_schema`] any schema. Both accept
//! 2020-12 keywords and the draft-07 spellings tools still emit (`definitions`,
//! `#/definitions/X`, draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum`). A `$ref` to `#`
//! (the document root, i.e. recursion through the root) becomes a reference to a definition that
//! holds a copy of the root schema, named `Input` ([`import_input`]) or `Root`
//! ([`import_schema`]), with a numeric suffix when that name is taken; a note records it.
//!
//! Annotation keywords never fail: `title`, `description`, `default` and `examples` are kept
//! (a default or an example that its own schema rejects, or that a [`Literal`] cannot hold, is
//! left out with a note); the others (`$schema`, `$id`, `$comment`, `deprecated`, `readOnly`,
//! `writeOnly`, `x-*`, unknown keywords...) are dropped with an [`ImportNote`]. A keyword that
//! changes what is valid and that the IR cannot type (`not`, `if`/`then`/`else`,
//! `patternProperties`, `propertyNames`, `dependentRequired`, `dependentSchemas`, `prefixItems`,
//! `contains`, `minProperties`/`maxProperties`...) is kept verbatim ([`Kept`]) with a note, and
//! a `oneOf` keeps its spelling, marked when its variants may overlap ([`Combine`]). A required
//! key that `properties` does not list becomes a property that takes what other keys take. A
//! definition that cannot be read is dropped with a note unless something refers to it.
//! What stays an [`ImportError`] naming its JSON pointer: a schema that is not JSON Schema (a
//! keyword of the wrong type, an unknown type name, a dangling or non-local `$ref`), one that no
//! value satisfies, and what the IR cannot hold at all (an `allOf` that cannot be merged
//! exactly, an enum value that is an array or an object, constraints beside `$ref` or
//! `anyOf`); nothing is lost silently. Enums and `const`s of strings, integers, numbers and
//! booleans are read as they are (`1.0` under `type: integer` as `1`); values a `type` beside
//! them excludes are dropped with a note, and only an enum with no value left is refused. A schema without
//! `type` whose constraints all belong to one type (e.g. only `properties`) is read as that type,
//! with a note. The imported parts are not validated against [`crate::descriptor_rules`]: callers that
//! build a descriptor call [`ToolDescriptor::validate`] (the spec loader does).

use std::borrow::Cow;
use std::fmt::Write as _;

use std::collections::HashSet;

use indexmap::{IndexMap, IndexSet};
use serde_json::{Map, Value};

use super::imported::{
    ImportError, ImportErrorKind, ImportNote, Imported, ImportedSchema, InputSchema, child,
    describe, unsupported, wrong,
};
use super::keywords::{
    DROPPED_ANNOTATIONS, Family, KEPT_ANNOTATIONS, MAX_ALL_OF_PARTS, TYPE_NAMES, family_of,
    is_constraint, kept_reason,
};
use super::order::KeyOrder;
use super::view::{Kw, View};
use crate::descriptor::{Definition, Param};
use crate::descriptor_rules::MAX_DEPTH;
use crate::literal::Literal;
use crate::schema::{
    Additional, Combine, EnumSchema, EnumValue, EnumValues, Kept, ListSchema, NumberSchema,
    ObjectSchema, RefSchema, Scalar, ScalarRef, Schema, SchemaKind, StringSchema,
};

struct Importer {
    notes: Vec<ImportNote>,
    defs_2020: IndexSet<String>,
    defs_07: IndexSet<String>,
    root_name: String,
    root_used: bool,
    /// Whether some `oneOf` was read (the final pass then checks which ones overlap).
    one_of_seen: bool,
    /// Definitions that could not be read, with why: fatal only when something refers to them.
    failed_defs: Vec<(String, ImportError)>,
    /// The key order of the document's text, for properties, definitions and object literals.
    order: KeyOrder,
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
/// schema, a keyword of the wrong type, a keyword the IR cannot express, a dangling `$ref`, or
/// nesting deeper than [`MAX_DEPTH`].
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
    let Value::Object(root) = schema else {
        return Err(ImportError {
            pointer: String::new(),
            kind: ImportErrorKind::NotAnObject { reason: format!("got {}", describe(schema)) },
        });
    };
    let mut im = Importer::new(root, "Input", order)?;
    let mut view = im.view(root, "")?;
    // A root that only refers to a definition: read the definition as the root object.
    if let Some(r) = view.get("$ref") {
        if let Some(k) = view.kws.keys().find(|k| is_constraint(k) && **k != "$ref") {
            return Err(unsupported(&child("", k), k, "`$ref` with sibling constraints"));
        }
        let (target, name) = match &*r.value {
            Value::String(s) => (s.clone(), im.resolve(s, &r.ptr)?),
            other => return Err(wrong(&r.ptr, "$ref", "a string", other)),
        };
        if name == im.root_name {
            return Err(unsupported(&r.ptr, "$ref", "the root refers to itself"));
        }
        let (def_ptr, def) = find_def(root, &target, &name).ok_or_else(|| ImportError {
            pointer: r.ptr.clone(),
            kind: ImportErrorKind::DanglingRef { target: target.clone() },
        })?;
        let Value::Object(def) = def else {
            return Err(ImportError {
                pointer: def_ptr,
                kind: ImportErrorKind::NotAnObject { reason: format!("got {}", describe(def)) },
            });
        };
        im.note(&r.ptr, "$ref", "at the root was followed; its definition is the input object");
        view = im.view(def, &def_ptr)?;
    }
    let types = im.types(&view)?;
    let is_object = match &types {
        None => true,
        Some(t) => t.iter().any(|t| t == "object"),
    };
    if !is_object {
        return Err(ImportError {
            pointer: child(&view.ptr, "type"),
            kind: ImportErrorKind::NotAnObject {
                reason: "its `type` does not allow `object`".into(),
            },
        });
    }
    if let Some(t) = &types
        && t.len() > 1
    {
        return Err(ImportError {
            pointer: child(&view.ptr, "type"),
            kind: ImportErrorKind::NotAnObject {
                reason: "its `type` allows more than `object`".into(),
            },
        });
    }
    for k in ["anyOf", "oneOf", "enum", "const"] {
        if let Some(kw) = view.get(k) {
            return Err(ImportError {
                pointer: kw.ptr.clone(),
                kind: ImportErrorKind::NotAnObject {
                    reason: format!("`{k}` at the root is not a single object"),
                },
            });
        }
    }
    if types.is_none() {
        im.note(&view.ptr, "type", "is absent at the root; read as `object`");
    }
    for k in ["title", "description", "default", "examples"] {
        if let Some(kw) = view.get(k) {
            let ptr = kw.ptr.clone();
            im.note(&ptr, k, "of the input root was dropped (the tool's own fields describe it)");
        }
    }
    im.check_keywords(&view)?;
    im.drop_foreign(&view, Some(Family::Object));
    let (mut params, mut additional) = im.object(&view, 0)?;
    let kept = im.kept(&view);
    let mut definitions = im.definitions(root)?;
    let snapshot = definitions.clone();
    im.settle_object(&mut params, &mut additional, &snapshot, &mut view.ptr.clone(), 0);
    im.settle_definitions(&mut definitions, &snapshot);
    let mut roots: Vec<&Schema> = params.iter().map(|p| &p.schema).collect();
    if let Additional::Typed(t) = &additional {
        roots.push(t.get());
    }
    im.drop_failed(&roots, &kept, &mut definitions)?;
    if im.root_used {
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
    Ok(Imported { value: InputSchema { params, additional, definitions, kept }, notes: im.notes })
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
    let root = match schema {
        Value::Object(root) => root,
        other => {
            // `true`, `false` and non-objects get the usual schema error.
            let mut im = Importer::new(&Map::new(), "Root", order)?;
            im.schema(other, "", 0)?;
            return Err(wrong("", "schema", "an object", other));
        }
    };
    let mut im = Importer::new(root, "Root", order)?;
    let mut schema = im.schema(schema, "", 0)?;
    let mut definitions = im.definitions(root)?;
    let snapshot = definitions.clone();
    im.settle(&mut schema, &snapshot, &mut String::new(), 0);
    im.settle_definitions(&mut definitions, &snapshot);
    im.drop_failed(&[&schema], &[], &mut definitions)?;
    if im.root_used {
        definitions.push(Definition::named(im.root_name.clone(), schema.clone()));
    }
    im.check_base_cases(&definitions, &[&schema])?;
    Ok(Imported { value: ImportedSchema { schema, definitions }, notes: im.notes })
}

/// Adds `more` to `into`, skipping definitions already there with the same schema.
///
/// # Errors
///
/// The name of a definition present in both with different schemas.
pub fn merge_definitions(into: &mut Vec<Definition>, more: Vec<Definition>) -> Result<(), String> {
    let mut at: std::collections::HashMap<String, usize> =
        into.iter().enumerate().map(|(i, d)| (d.name.to_string(), i)).collect();
    for d in more {
        match at.get(&*d.name) {
            Some(&i) if into[i].schema == d.schema => {}
            Some(_) => return Err(d.name.into_owned()),
            None => {
                at.insert(d.name.to_string(), into.len());
                into.push(d);
            }
        }
    }
    Ok(())
}

fn find_def<'v>(
    root: &'v Map<String, Value>,
    target: &str,
    name: &str,
) -> Option<(String, &'v Value)> {
    let table = if target.starts_with("#/definitions/") { "definitions" } else { "$defs" };
    let v = root.get(table)?.as_object()?.get(name)?;
    Some((child(&child("", table), name), v))
}

impl Importer {
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
            one_of_seen: false,
            failed_defs: Vec::new(),
            order: order.clone(),
        };
        for table in ["$defs", "definitions"] {
            match root.get(table) {
                None => {}
                Some(Value::Object(defs)) => {
                    let at = child("", table);
                    let names =
                        im.order.entries(&at, defs).into_iter().map(|e| e.0.clone()).collect();
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
            pointer: pointer.to_owned(),
            keyword: keyword.to_owned(),
            message: message.into(),
        });
    }

    fn definitions(&mut self, root: &Map<String, Value>) -> Result<Vec<Definition>, ImportError> {
        let mut out: Vec<Definition> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        for table in ["$defs", "definitions"] {
            let Some(Value::Object(defs)) = root.get(table) else { continue };
            let at = child("", table);
            for (name, value) in self.order.entries(&at, defs) {
                if !seen.insert(name.as_str()) {
                    continue; // identical duplicate, checked in `new`
                }
                let ptr = child(&at, name);
                match self.schema(value, &ptr, 1) {
                    Ok(schema) => out.push(Definition::named(name.clone(), schema)),
                    Err(e) => self.failed_defs.push((name.clone(), e)),
                }
            }
        }
        Ok(out)
    }

    /// Resolves a `$ref` to a definition name.
    fn resolve(&mut self, target: &str, ptr: &str) -> Result<String, ImportError> {
        let Some(fragment) = target.strip_prefix('#') else {
            return Err(unsupported(ptr, "$ref", format!("`{target}` is not a local reference")));
        };
        if fragment.is_empty() {
            self.root_used = true;
            let name = self.root_name.clone();
            self.note(ptr, "$ref", format!("`#` (the root) became a reference to `{name}`"));
            return Ok(name);
        }
        let decoded = percent_decode(fragment).ok_or_else(|| {
            unsupported(ptr, "$ref", format!("`{target}` is not a valid URI fragment"))
        })?;
        let tokens: Vec<String> = decoded
            .strip_prefix('/')
            .map(|p| p.split('/').map(|t| crate::pointer::unescape(t).into_owned()).collect())
            .unwrap_or_default();
        let dangling = || ImportError {
            pointer: ptr.to_owned(),
            kind: ImportErrorKind::DanglingRef { target: target.to_owned() },
        };
        match tokens.as_slice() {
            [table, name] if table == "$defs" => {
                if self.defs_2020.contains(name) {
                    Ok(name.clone())
                } else {
                    Err(dangling())
                }
            }
            [table, name] if table == "definitions" => {
                if self.defs_07.contains(name) {
                    Ok(name.clone())
                } else {
                    Err(dangling())
                }
            }
            _ => Err(unsupported(
                ptr,
                "$ref",
                format!("`{target}` does not point at `#/$defs/<name>` or `#/definitions/<name>`"),
            )),
        }
    }

    /// Builds the flattened view of a schema object, merging `allOf` members into it.
    fn view<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        ptr: &str,
    ) -> Result<View<'v>, ImportError> {
        let mut view =
            View { ptr: ptr.to_owned(), kws: IndexMap::new(), props: None, required: None };
        let mut parts: Vec<(&'v Map<String, Value>, String)> = vec![(map, ptr.to_owned())];
        // Where each property and required name already is, so merging stays linear.
        let mut prop_at: std::collections::HashMap<&'v str, usize> = Default::default();
        let mut required_seen: HashSet<&'v str> = HashSet::new();
        let mut i = 0;
        while i < parts.len() {
            let (part, part_ptr) = parts[i].clone();
            for (key, value) in part {
                let kptr = child(&part_ptr, key);
                match key.as_str() {
                    "allOf" => {
                        let Value::Array(members) = value else {
                            return Err(wrong(&kptr, key, "an array of schemas", value));
                        };
                        if parts.len() > MAX_ALL_OF_PARTS {
                            return Err(ImportError {
                                pointer: kptr,
                                kind: ImportErrorKind::TooDeep,
                            });
                        }
                        for (j, member) in members.iter().enumerate() {
                            let mptr = format!("{kptr}/{j}");
                            match member {
                                Value::Object(m) => parts.push((m, mptr)),
                                Value::Bool(true) => {}
                                other => return Err(wrong(&mptr, "schema", "an object", other)),
                            }
                        }
                    }
                    "$defs" | "definitions" => {
                        if !(i == 0 && ptr.is_empty()) {
                            self.note(
                                &kptr,
                                key,
                                "nested definitions were dropped (only root definitions are read)",
                            );
                        }
                    }
                    "properties" => {
                        let Value::Object(props) = value else {
                            return Err(wrong(&kptr, key, "an object", value));
                        };
                        let list = view.props.get_or_insert_with(Vec::new);
                        for (name, schema) in self.order.entries(&kptr, props) {
                            let pptr = child(&kptr, name);
                            if let Some(&at) = prop_at.get(name.as_str()) {
                                if list[at].1 != schema {
                                    return Err(unsupported(
                                        &pptr,
                                        "allOf",
                                        format!(
                                            "property `{name}` is defined twice with different schemas"
                                        ),
                                    ));
                                }
                                continue;
                            }
                            prop_at.insert(name.as_str(), list.len());
                            list.push((name.as_str(), schema, pptr, i));
                        }
                    }
                    "required" => {
                        let Value::Array(names) = value else {
                            return Err(wrong(&kptr, key, "an array of strings", value));
                        };
                        let list = view.required.get_or_insert_with(Vec::new);
                        for (j, n) in names.iter().enumerate() {
                            let Value::String(n) = n else {
                                return Err(wrong(
                                    &format!("{kptr}/{j}"),
                                    key,
                                    "an array of strings",
                                    n,
                                ));
                            };
                            if required_seen.insert(n.as_str()) {
                                list.push((n.as_str(), format!("{kptr}/{j}")));
                            }
                        }
                    }
                    _ => self.merge_keyword(&mut view, key, value, kptr, i)?,
                }
            }
            i += 1;
        }
        // `additionalProperties` of one allOf member constrains keys outside that member's own
        // properties: merging is exact only when that member lists every property.
        if parts.len() > 1 {
            for (key, kw) in &view.kws {
                if *key != "additionalProperties" || kw.value.as_ref() == &Value::Bool(true) {
                    continue;
                }
                if let Some(props) = &view.props
                    && props.iter().any(|p| p.3 != kw.member)
                {
                    return Err(unsupported(
                        &kw.ptr,
                        "allOf",
                        "`additionalProperties` in one member and properties in another cannot be merged exactly",
                    ));
                }
            }
        }
        Ok(view)
    }

    fn merge_keyword<'v>(
        &mut self,
        view: &mut View<'v>,
        key: &'v str,
        value: &'v Value,
        kptr: String,
        member: usize,
    ) -> Result<(), ImportError> {
        let Some(prev) = view.kws.get_mut(key) else {
            view.kws.insert(key, Kw { value: Cow::Borrowed(value), ptr: kptr, member });
            return Ok(());
        };
        if prev.value.as_ref() == value {
            return Ok(());
        }
        if !is_constraint(key) && kept_reason(key).is_none() {
            self.note(
                &kptr,
                key,
                "differs from an earlier value in the same allOf; the first was kept",
            );
            return Ok(());
        }
        let num = |v: &Value, p: &str| v.as_f64().ok_or_else(|| wrong(p, key, "a number", v));
        let tighter = match key {
            "minimum" | "exclusiveMinimum" | "minLength" | "minItems" => {
                if value.is_boolean() || prev.value.is_boolean() {
                    return Err(unsupported(
                        &kptr,
                        "allOf",
                        format!("two different `{key}` values"),
                    ));
                }
                num(value, &kptr)? > num(&prev.value, &prev.ptr)?
            }
            "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" => {
                if value.is_boolean() || prev.value.is_boolean() {
                    return Err(unsupported(
                        &kptr,
                        "allOf",
                        format!("two different `{key}` values"),
                    ));
                }
                num(value, &kptr)? < num(&prev.value, &prev.ptr)?
            }
            "uniqueItems" => value == &Value::Bool(true),
            "type" => {
                let a = type_set(&prev.value, &prev.ptr)?;
                let b = type_set(value, &kptr)?;
                let has = |set: &[String], t: &str| set.iter().any(|u| u == t);
                let mut both: Vec<Value> = Vec::new();
                for t in &a {
                    let kept = if has(&b, t) {
                        Some(t.as_str())
                    } else if (t == "integer" && has(&b, "number"))
                        || (t == "number" && has(&b, "integer"))
                    {
                        Some("integer")
                    } else {
                        None
                    };
                    if let Some(k) = kept
                        && !both.iter().any(|x| x == k)
                    {
                        both.push(Value::from(k));
                    }
                }
                if both.is_empty() {
                    return Err(unsupported(
                        &kptr,
                        "allOf",
                        "the members' types have nothing in common, so no value is valid",
                    ));
                }
                prev.value = Cow::Owned(Value::Array(both));
                return Ok(());
            }
            _ => {
                return Err(unsupported(
                    &kptr,
                    "allOf",
                    format!("two different `{key}` values cannot be merged exactly"),
                ));
            }
        };
        if tighter {
            *prev = Kw { value: Cow::Borrowed(value), ptr: kptr, member };
        }
        Ok(())
    }

    /// The `type` set of a view, or `None` when absent.
    fn types(&mut self, view: &View<'_>) -> Result<Option<Vec<String>>, ImportError> {
        match view.get("type") {
            None => Ok(None),
            Some(kw) => type_set(&kw.value, &kw.ptr).map(Some),
        }
    }

    /// Notes keywords of other type families than `family` (they never apply).
    fn drop_foreign(&mut self, view: &View<'_>, family: Option<Family>) {
        let mut dropped = Vec::new();
        for (k, kw) in &view.kws {
            if let Some(f) = family_of(k)
                && Some(f) != family
            {
                dropped.push((kw.ptr.clone(), k.to_string()));
            }
        }
        for (p, k) in dropped {
            self.note(&p, &k, "does not apply to this type and was dropped");
        }
    }

    /// Reports dropped annotations and unsupported keywords of a view.
    fn check_keywords(&mut self, view: &View<'_>) -> Result<(), ImportError> {
        let mut notes = Vec::new();
        for (k, kw) in &view.kws {
            let known = KEPT_ANNOTATIONS.contains(k)
                || family_of(k).is_some()
                || kept_reason(k).is_some()
                || ["type", "enum", "const", "anyOf", "oneOf", "$ref", "$defs", "definitions"]
                    .contains(k);
            if DROPPED_ANNOTATIONS.contains(k) || k.starts_with("x-") {
                let msg = if *k == "nullable" {
                    "is not a JSON Schema keyword (OpenAPI 3.0) and was dropped; use a `type` array"
                } else {
                    "has no place in the IR and was dropped"
                };
                notes.push((kw.ptr.clone(), k.to_string(), msg));
            } else if !known {
                notes.push((
                    kw.ptr.clone(),
                    k.to_string(),
                    "is not a known keyword and was dropped",
                ));
            }
        }
        for (p, k, m) in notes {
            self.note(&p, &k, m);
        }
        Ok(())
    }

    /// The keywords of a view the IR cannot type, kept verbatim in document order, each noted.
    ///
    /// An array's `items` goes with them when it is a tuple (an array of schemas) or follows
    /// `prefixItems` (it then constrains only the items after the prefix).
    fn kept(&mut self, view: &View<'_>) -> Vec<Kept> {
        let tuple = tuple_items(view);
        let mut out = Vec::new();
        for (k, kw) in &view.kws {
            let reason = match kept_reason(k) {
                Some(reason) => reason,
                None if *k == "items" && tuple => "the IR has no tuples",
                None => continue,
            };
            let ptr = kw.ptr.clone();
            self.note(&ptr, k, format!("was kept verbatim ({reason})"));
            let mut value = kw.value.clone().into_owned();
            retarget_refs(&mut value);
            out.push(Kept::new(k.to_string(), value));
        }
        out
    }

    /// Reads a schema at `ptr`.
    fn schema(&mut self, value: &Value, ptr: &str, depth: usize) -> Result<Schema, ImportError> {
        if depth > MAX_DEPTH {
            return Err(ImportError { pointer: ptr.to_owned(), kind: ImportErrorKind::TooDeep });
        }
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

    fn annotations(&mut self, view: &View<'_>, s: &mut Schema) -> Result<(), ImportError> {
        for key in ["title", "description"] {
            let Some(kw) = view.get(key) else { continue };
            match &*kw.value {
                Value::String(t) => {
                    let t = Cow::Owned(t.clone());
                    if key == "title" { s.title = Some(t) } else { s.description = Some(t) }
                }
                other => {
                    let msg = format!("is {}, not a string, and was dropped", describe(other));
                    let ptr = kw.ptr.clone();
                    self.note(&ptr, key, msg);
                }
            }
        }
        if let Some(kw) = view.get("default") {
            match literal(&self.order, &kw.value, &kw.ptr, "default") {
                Ok(l) => s.default = Some(l),
                Err(e) => {
                    let ptr = kw.ptr.clone();
                    self.note(
                        &ptr,
                        "default",
                        format!("cannot be held ({}) and was dropped", e.kind),
                    );
                }
            }
        }
        if let Some(kw) = view.get("examples") {
            match &*kw.value {
                Value::Array(items) => {
                    let mut out = Vec::with_capacity(items.len());
                    for (i, item) in items.iter().enumerate() {
                        let ptr = format!("{}/{i}", kw.ptr);
                        match literal(&self.order, item, &ptr, "examples") {
                            Ok(l) => out.push(l),
                            Err(e) => self.note(
                                &ptr,
                                "examples",
                                format!("cannot be held ({}) and was dropped", e.kind),
                            ),
                        }
                    }
                    s.examples = Cow::Owned(out);
                }
                other => {
                    let msg = format!("is {}, not an array, and was dropped", describe(other));
                    let ptr = kw.ptr.clone();
                    self.note(&ptr, "examples", msg);
                }
            }
        }
        Ok(())
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

    fn reference(&mut self, view: &View<'_>, r: &Kw<'_>) -> Result<Schema, ImportError> {
        if let Some((k, kw)) = view.kws.iter().find(|(k, _)| is_constraint(k) && **k != "$ref") {
            return Err(unsupported(&kw.ptr, k, "constraints beside `$ref` cannot be expressed"));
        }
        if let Some(p) = view.props.as_ref().and_then(|p| p.first()) {
            return Err(unsupported(
                &p.2,
                "properties",
                "constraints beside `$ref` cannot be expressed",
            ));
        }
        if let Some((_, p)) = view.required.as_ref().and_then(|r| r.first()) {
            return Err(unsupported(
                p,
                "required",
                "constraints beside `$ref` cannot be expressed",
            ));
        }
        let Value::String(target) = &*r.value else {
            return Err(wrong(&r.ptr, "$ref", "a string", &r.value));
        };
        let name = self.resolve(target, &r.ptr)?;
        Ok(Schema::reference_to(name))
    }

    fn enumeration(&mut self, view: &View<'_>) -> Result<Schema, ImportError> {
        if let (Some(_), Some(c)) = (view.get("enum"), view.get("const")) {
            return Err(unsupported(&c.ptr, "const", "`const` beside `enum` cannot be expressed"));
        }
        let types = self.types(view)?;
        let allows = |t: &str| types.as_ref().is_none_or(|ts| ts.iter().any(|u| u == t));
        let (kw, values): (&Kw<'_>, Vec<(&Value, String)>) = if let Some(kw) = view.get("enum") {
            let Value::Array(items) = &*kw.value else {
                return Err(wrong(&kw.ptr, "enum", "an array", &kw.value));
            };
            (kw, items.iter().enumerate().map(|(i, v)| (v, format!("{}/{i}", kw.ptr))).collect())
        } else {
            let kw = view.get("const").expect("checked by the caller");
            (kw, vec![(kw.value.as_ref(), kw.ptr.clone())])
        };
        let keyword = if view.get("enum").is_some() { "enum" } else { "const" };
        if let Some((k, c)) = view
            .kws
            .iter()
            .find(|(k, _)| matches!(family_of(k), Some(Family::String)) && **k != "format")
        {
            return Err(unsupported(
                &c.ptr,
                k,
                format!("string constraints beside `{keyword}` cannot be expressed"),
            ));
        }
        let mut kept: Vec<EnumValue> = Vec::new();
        let mut seen = HashSet::new();
        let mut nullable = false;
        for (v, p) in values {
            let t = json_type(v);
            let whole =
                matches!(v, Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0));
            if !types.as_ref().is_none_or(|ts| ts.iter().any(|u| type_fits(u, v))) {
                let ts = types.as_deref().unwrap_or_default().join("`, `");
                let msg = format!("{} is excluded by `type` `{ts}` and was dropped", describe(v));
                self.note(&p, keyword, msg);
                continue;
            }
            let scalar = match v {
                Value::Null => {
                    nullable = true;
                    continue;
                }
                Value::Array(_) | Value::Object(_) => {
                    return Err(unsupported(
                        &p,
                        keyword,
                        format!(
                            "{} is not a scalar; the IR holds enums of strings, numbers and booleans",
                            describe(v)
                        ),
                    ));
                }
                // `1.0` is an integer to JSON Schema: under `type: integer` it is held as one.
                Value::Number(n) if t == "number" && whole && !allows("number") => {
                    match n.as_f64().filter(|f| f.abs() < 9.0e18) {
                        Some(f) => Scalar::Int(f as i64),
                        None => return Err(unsupported(&p, keyword, "the number cannot be held")),
                    }
                }
                other => match Scalar::from_json(other) {
                    Some(s) => s,
                    None => {
                        return Err(unsupported(
                            &p,
                            keyword,
                            format!("{} is outside the range of a 64-bit integer", describe(v)),
                        ));
                    }
                },
            };
            if !seen.insert(EqKey::of(scalar.as_ref())) {
                let msg = format!("{} is listed twice; the repeat was dropped", describe(v));
                self.note(&p, keyword, msg);
                continue;
            }
            kept.push(EnumValue::scalar(scalar));
        }
        let numbers = kept.iter().any(|k| matches!(k.value, Scalar::Int(_) | Scalar::Float(_)));
        if numbers
            && let Some((k, c)) =
                view.kws.iter().find(|(k, _)| matches!(family_of(k), Some(Family::Number)))
        {
            return Err(unsupported(
                &c.ptr,
                k,
                format!("number constraints beside `{keyword}` cannot be expressed"),
            ));
        }
        self.drop_foreign(view, None);
        let mut s = if kept.is_empty() {
            if nullable {
                nullable = false;
                Schema::null()
            } else {
                return Err(unsupported(&kw.ptr, keyword, "no value is valid"));
            }
        } else {
            Schema::of(SchemaKind::Enum(EnumSchema { values: EnumValues::owned(kept) }))
        };
        s.nullable = nullable;
        Ok(s)
    }

    fn union(&mut self, view: &View<'_>, depth: usize) -> Result<Schema, ImportError> {
        let (any, one) = (view.get("anyOf"), view.get("oneOf"));
        if let (Some(_), Some(o)) = (any, one) {
            return Err(unsupported(&o.ptr, "oneOf", "`oneOf` beside `anyOf` cannot be expressed"));
        }
        let (kw, keyword) = match any {
            Some(a) => (a, "anyOf"),
            None => (one.expect("checked by the caller"), "oneOf"),
        };
        let Value::Array(members) = &*kw.value else {
            return Err(wrong(&kw.ptr, keyword, "an array of schemas", &kw.value));
        };
        let null_member = |m: &Value| {
            m.as_object()
                .is_some_and(|o| o.len() == 1 && o.get("type") == Some(&Value::from("null")))
        };
        let has_null = members.iter().any(null_member);
        let rest: Vec<(usize, &Value)> =
            members.iter().enumerate().filter(|(_, m)| !null_member(m)).collect();
        // Siblings that constrain: only `type: string` (with null) beside an enum of consts.
        let listed_twice = rest.iter().any(|(i, m)| rest.iter().any(|(j, n)| j > i && m == n));
        let consts = !rest.is_empty()
            && rest.iter().all(|(_, m)| const_member(m))
            && !(keyword == "oneOf"
                && rest
                    .iter()
                    .any(|(i, m)| rest.iter().any(|(j, n)| j > i && m["const"] == n["const"])));
        let types = self.types(view)?;
        if let Some((k, c)) = view
            .kws
            .iter()
            .find(|(k, _)| is_constraint(k) && **k != keyword && !(**k == "type" && consts))
        {
            return Err(unsupported(
                &c.ptr,
                k,
                format!("constraints beside `{keyword}` cannot be expressed"),
            ));
        }
        if let Some(p) = view.props.as_ref().and_then(|p| p.first()) {
            return Err(unsupported(
                &p.2,
                "properties",
                format!("constraints beside `{keyword}` cannot be expressed"),
            ));
        }
        if let Some((_, p)) = view.required.as_ref().and_then(|r| r.first()) {
            return Err(unsupported(
                p,
                "required",
                format!("constraints beside `{keyword}` cannot be expressed"),
            ));
        }
        let mut nullable = has_null;
        if consts {
            if let Some(ts) = &types {
                nullable = nullable && ts.iter().any(|t| t == "null");
            }
            let mut values: Vec<EnumValue> = Vec::new();
            let mut seen = HashSet::new();
            for (i, m) in &rest {
                let o = m.as_object().expect("const member");
                let mptr = format!("{}/{i}", kw.ptr);
                let c = &o["const"];
                if !types.as_ref().is_none_or(|ts| ts.iter().any(|t| type_fits(t, c))) {
                    let ts = types.as_deref().unwrap_or_default().join("`, `");
                    let msg =
                        format!("{} is excluded by `type` `{ts}` and was dropped", describe(c));
                    self.note(&child(&mptr, "const"), "const", msg);
                    continue;
                }
                let Some(value) = Scalar::from_json(c) else {
                    return Err(unsupported(
                        &child(&mptr, "const"),
                        "const",
                        format!("{} is outside the range of a 64-bit integer", describe(c)),
                    ));
                };
                let description = match o.get("description") {
                    Some(Value::String(d)) => Some(Cow::Owned(d.clone())),
                    Some(other) => {
                        let msg = format!("is {}, not a string, and was dropped", describe(other));
                        self.note(&child(&mptr, "description"), "description", msg);
                        None
                    }
                    None => None,
                };
                for k in
                    o.keys().filter(|k| !["const", "description", "type"].contains(&k.as_str()))
                {
                    self.note(
                        &child(&mptr, k),
                        k,
                        "of an enum value has no place in the IR and was dropped",
                    );
                }
                if seen.insert(EqKey::of(value.as_ref())) {
                    values.push(EnumValue { value, description });
                }
            }
            if values.is_empty() {
                if nullable {
                    return Ok(Schema::null());
                }
                let p = view.get("type").map_or(&kw.ptr, |t| &t.ptr);
                return Err(unsupported(p, "type", "no value is valid"));
            }
            let mut s =
                Schema::of(SchemaKind::Enum(EnumSchema { values: EnumValues::owned(values) }));
            s.nullable = nullable;
            return Ok(s);
        }
        if rest.is_empty() {
            return Ok(Schema::null());
        }
        let mut variants = Vec::with_capacity(rest.len());
        for (i, m) in &rest {
            variants.push(self.schema(m, &format!("{}/{i}", kw.ptr), depth + 1)?);
        }
        // A `oneOf` is read as disjoint until the final pass (which sees the definitions) finds
        // two variants that may overlap; some overlaps are plain already.
        let mut combine = Combine::AnyOf;
        if keyword == "oneOf" {
            self.one_of_seen = true;
            combine = Combine::OneOfDisjoint;
            let null_twice = has_null
                && variants.iter().any(|v| v.nullable || matches!(v.kind, SchemaKind::Null));
            if null_twice || listed_twice {
                combine = Combine::OneOf;
                self.note(&kw.ptr, "oneOf", OVERLAPPING_ONE_OF);
            }
        }
        if variants.len() == 1 && has_null && combine != Combine::OneOf {
            let mut only = variants.pop().expect("one variant");
            // Collapse `anyOf: [X, null]` onto X unless the outer annotations would overwrite X's.
            if !annotations_clash(&only, view) {
                only.nullable = true;
                return Ok(only);
            }
            variants.push(only);
        }
        let mut s = Schema::any_of_owned(variants);
        if let SchemaKind::AnyOf(a) = &mut s.kind {
            a.combine = combine;
        }
        s.nullable = nullable;
        Ok(s)
    }

    fn typed(&mut self, view: &View<'_>, depth: usize) -> Result<Schema, ImportError> {
        let types = match self.types(view)? {
            Some(t) => t,
            None => {
                let families: Vec<Family> = {
                    let mut f: Vec<Family> = view.kws.keys().filter_map(|k| family_of(k)).collect();
                    if view.props.is_some() || view.required.is_some() {
                        f.push(Family::Object);
                    }
                    f.dedup();
                    f.sort_by_key(|f| *f as u8);
                    f.dedup();
                    f
                };
                let t = match families.as_slice() {
                    [Family::String] => "string",
                    [Family::Number] => "number",
                    [Family::Array] => "array",
                    [Family::Object] => "object",
                    [] => "any",
                    _ => {
                        return Err(unsupported(
                            &view.ptr,
                            "type",
                            "a schema without `type` whose constraints belong to several types cannot be expressed",
                        ));
                    }
                };
                if t != "any" {
                    let p = view.ptr.clone();
                    self.note(&p, "type", format!("is absent; read as `{t}` from the constraints"));
                }
                vec![t.to_owned()]
            }
        };
        let nullable = types.iter().any(|t| t == "null");
        let non_null: Vec<&str> =
            types.iter().map(String::as_str).filter(|t| *t != "null").collect();
        let used: Vec<Family> = non_null.iter().filter_map(|t| type_family(t)).collect();
        let mut foreign = Vec::new();
        for (k, kw) in &view.kws {
            if let Some(f) = family_of(k)
                && !used.contains(&f)
            {
                foreign.push((kw.ptr.clone(), k.to_string()));
            }
        }
        if !used.contains(&Family::Object) {
            if view.props.is_some() {
                foreign.push((child(&view.ptr, "properties"), "properties".into()));
            }
            if view.required.is_some() {
                foreign.push((child(&view.ptr, "required"), "required".into()));
            }
        }
        for (p, k) in foreign {
            self.note(&p, &k, "does not apply to this type and was dropped");
        }
        let mut kinds = Vec::with_capacity(non_null.len());
        for t in &non_null {
            kinds.push(self.kind(view, t, depth)?);
        }
        let mut s = match kinds.len() {
            0 => return Ok(Schema::null()),
            1 => kinds.pop().expect("one kind"),
            _ => Schema::any_of_owned(kinds),
        };
        s.nullable = nullable;
        Ok(s)
    }

    fn kind(&mut self, view: &View<'_>, t: &str, depth: usize) -> Result<Schema, ImportError> {
        Ok(match t {
            "string" => Schema::of(SchemaKind::String(StringSchema {
                format: text_kw(view, "format")?,
                pattern: pattern_kw(view)?,
                min_length: count_kw(view, "minLength")?,
                max_length: count_kw(view, "maxLength")?,
            })),
            "integer" => Schema::of(SchemaKind::Integer(self.int_kws(view)?)),
            "number" => Schema::of(SchemaKind::Float(number_kws(view, |v| v.as_f64())?)),
            "boolean" => Schema::boolean(),
            "any" => Schema::any(),
            "array" => {
                let item = match view.get("items") {
                    Some(items) if !tuple_items(view) => {
                        self.schema(&items.value, &items.ptr.clone(), depth + 1)?
                    }
                    _ => Schema::any(),
                };
                let unique = match view.get("uniqueItems") {
                    None => false,
                    Some(kw) => kw
                        .value
                        .as_bool()
                        .ok_or_else(|| wrong(&kw.ptr, "uniqueItems", "a boolean", &kw.value))?,
                };
                Schema::of(SchemaKind::List(ListSchema {
                    items: item.into(),
                    min_items: count_kw(view, "minItems")?,
                    max_items: count_kw(view, "maxItems")?,
                    unique,
                }))
            }
            "object" => {
                let (params, additional) = self.object(view, depth)?;
                Schema::of(SchemaKind::Object(ObjectSchema {
                    properties: Cow::Owned(params),
                    additional,
                }))
            }
            _ => unreachable!("type names are checked by `type_set`"),
        })
    }

    fn object(
        &mut self,
        view: &View<'_>,
        depth: usize,
    ) -> Result<(Vec<Param>, Additional), ImportError> {
        let mut params = Vec::new();
        let required: HashSet<&str> = view.required.iter().flatten().map(|(r, _)| *r).collect();
        for (name, schema, ptr, _) in view.props.iter().flatten() {
            let schema = self.schema(schema, ptr, depth + 1)?;
            let required = required.contains(name);
            params.push(Param::named(name.to_string(), schema).with_required(required));
        }
        let described: HashSet<String> = params.iter().map(|p| p.name.to_string()).collect();
        let additional = self.additional(view, depth)?;
        // A required key that `properties` does not describe takes what other keys take.
        for (name, ptr) in view.required.iter().flatten() {
            if described.contains(*name) {
                continue;
            }
            let schema = match &additional {
                Additional::Closed => {
                    return Err(unsupported(
                        ptr,
                        "required",
                        format!(
                            "`{name}` is required, but `properties` does not list it and `additionalProperties` is false, so no value is valid"
                        ),
                    ));
                }
                Additional::Typed(t) => t.get().clone(),
                Additional::Open | Additional::Unstated => Schema::any(),
            };
            self.note(
                ptr,
                "required",
                format!(
                    "names `{name}`, which `properties` does not list; it became a property that takes what other keys take"
                ),
            );
            params.push(Param::named(name.to_string(), schema));
        }
        Ok((params, additional))
    }

    fn additional(&mut self, view: &View<'_>, depth: usize) -> Result<Additional, ImportError> {
        Ok(match view.get("additionalProperties") {
            None => Additional::Unstated,
            Some(kw) => match &*kw.value {
                Value::Bool(false) => Additional::Closed,
                Value::Bool(true) => Additional::Open,
                Value::Object(m) => {
                    let inner = self.view(m, &kw.ptr.clone())?;
                    if inner.has_validity() {
                        let inner_schema = self.schema_of_view(&inner, depth + 1)?;
                        Additional::Typed(inner_schema.into())
                    } else {
                        self.check_keywords(&inner)?;
                        for k in inner.kws.keys().filter(|k| KEPT_ANNOTATIONS.contains(k)) {
                            let p = child(&kw.ptr, k);
                            self.note(
                                &p,
                                k,
                                "of an unconstrained `additionalProperties` was dropped",
                            );
                        }
                        Additional::Open
                    }
                }
                other => {
                    return Err(wrong(
                        &kw.ptr,
                        "additionalProperties",
                        "a boolean or a schema",
                        other,
                    ));
                }
            },
        })
    }

    /// The bounds of an integer schema. JSON Schema reads any number with a zero fractional
    /// part as an integer (`1.0`, `1e3`, `-0`), and so does this. A bound beyond the 64-bit
    /// range of the IR that every 64-bit integer satisfies (`maximum: 18446744073709551615`)
    /// is dropped with a note; one that none satisfies cannot be held and is an error.
    fn int_kws(&mut self, view: &View<'_>) -> Result<NumberSchema<i64>, ImportError> {
        const EDGE: f64 = 9_223_372_036_854_775_807.0;
        let wide = number_kws(view, |v| {
            int_of(v).map(Some).or_else(|| {
                let f = v.as_f64().filter(|f| f.fract() == 0.0)?;
                (f >= EDGE || f <= -EDGE).then_some(None)
            })
        })?;
        let mut keep = |key: &str, bound: Option<Option<i64>>, upper: bool| {
            let Some(bound) = bound else { return Ok(None) };
            if let Some(b) = bound {
                return Ok(Some(b));
            }
            let kw = view.get(key).expect("a bound that was read");
            let big = kw.value.as_f64().unwrap_or(0.0) > 0.0;
            if big == upper {
                let ptr = kw.ptr.clone();
                self.note(
                    &ptr,
                    key,
                    "is beyond the 64-bit range and every 64-bit integer satisfies it; dropped",
                );
                Ok(None)
            } else {
                Err(unsupported(
                    &kw.ptr,
                    key,
                    "is beyond the 64-bit range of integer bounds, and no 64-bit integer satisfies it",
                ))
            }
        };
        let minimum = keep("minimum", wide.minimum, false)?;
        let maximum = keep("maximum", wide.maximum, true)?;
        let exclusive_minimum = keep("exclusiveMinimum", wide.exclusive_minimum, false)?;
        let exclusive_maximum = keep("exclusiveMaximum", wide.exclusive_maximum, true)?;
        let multiple_of = match wide.multiple_of {
            None => None,
            Some(Some(m)) => Some(m),
            Some(None) => {
                let kw = view.get("multipleOf").expect("a step that was read");
                return Err(unsupported(&kw.ptr, "multipleOf", "is beyond the 64-bit range"));
            }
        };
        Ok(NumberSchema { minimum, maximum, exclusive_minimum, exclusive_maximum, multiple_of })
    }

    /// Refuses a referenced definition that no finite value matches (a `$ref` cycle without a
    /// base case), naming its pointer.
    fn check_base_cases(
        &self,
        definitions: &[Definition],
        roots: &[&Schema],
    ) -> Result<(), ImportError> {
        let Some((name, next)) = super::finite::first_without_base_case(definitions, roots) else {
            return Ok(());
        };
        let pointer = if name == self.root_name {
            String::new()
        } else if self.defs_2020.contains(name) {
            child("/$defs", name)
        } else {
            child("/definitions", name)
        };
        let reason = if next == name {
            format!("`{name}` refers to itself with no base case: no finite value matches it")
        } else {
            format!(
                "`{name}` refers to `{next}` in a cycle with no base case (no concrete type, \
                 optional property, null or empty list on the way round): no finite value \
                 matches it"
            )
        };
        Err(unsupported(&pointer, "$ref", reason))
    }

    /// The last pass over what was read, once the definitions are in: marks each `oneOf` whose
    /// variants may overlap, and leaves out (with a note) each default and example that its own
    /// schema rejects.
    fn settle(&mut self, s: &mut Schema, defs: &[Definition], ptr: &mut String, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let at = ptr.len();
        match &mut s.kind {
            SchemaKind::List(l) => {
                ptr.push_str("/items");
                self.settle(l.items.make_mut(), defs, ptr, depth + 1);
            }
            SchemaKind::Object(o) => {
                self.settle_object(o.properties.to_mut(), &mut o.additional, defs, ptr, depth);
            }
            SchemaKind::AnyOf(a) => {
                let keyword = if a.combine.is_one_of() { "oneOf" } else { "anyOf" };
                for (i, v) in a.variants.to_mut().iter_mut().enumerate() {
                    ptr.truncate(at);
                    let _ = write!(ptr, "/{keyword}/{i}");
                    self.settle(v, defs, ptr, depth + 1);
                }
                ptr.truncate(at);
                let vs = &a.variants;
                let overlap = || {
                    (0..vs.len()).any(|i| vs[i + 1..].iter().any(|w| !disjoint(&vs[i], w, defs, 0)))
                };
                if a.combine == Combine::OneOfDisjoint && overlap() {
                    a.combine = Combine::OneOf;
                    self.note(&child(ptr, "oneOf"), "oneOf", OVERLAPPING_ONE_OF);
                }
            }
            _ => {}
        }
        ptr.truncate(at);
        if let Some(d) = s.default.take() {
            match crate::rules::literal_fits(s, &d, defs) {
                Ok(()) => s.default = Some(d),
                Err(why) => self.note(
                    &child(ptr, "default"),
                    "default",
                    format!("is not a value its own schema accepts ({why}); it was not applied"),
                ),
            }
        }
        if !s.examples.is_empty() {
            let examples = std::mem::take(&mut s.examples).into_owned();
            let mut kept = Vec::with_capacity(examples.len());
            for (i, e) in examples.into_iter().enumerate() {
                match crate::rules::literal_fits(s, &e, defs) {
                    Ok(()) => kept.push(e),
                    Err(why) => self.note(
                        &format!("{ptr}/examples/{i}"),
                        "examples",
                        format!("is not a value its own schema accepts ({why}) and was dropped"),
                    ),
                }
            }
            s.examples = Cow::Owned(kept);
        }
    }

    fn settle_object(
        &mut self,
        params: &mut [Param],
        additional: &mut Additional,
        defs: &[Definition],
        ptr: &mut String,
        depth: usize,
    ) {
        let at = ptr.len();
        for p in params {
            ptr.push_str("/properties");
            let name = p.name.clone();
            ptr.push_str(&child("", &name));
            self.settle(&mut p.schema, defs, ptr, depth + 1);
            ptr.truncate(at);
        }
        if let Additional::Typed(t) = additional {
            ptr.push_str("/additionalProperties");
            self.settle(t.make_mut(), defs, ptr, depth + 1);
            ptr.truncate(at);
        }
    }

    /// Settles every definition (see [`Importer::settle`]).
    fn settle_definitions(&mut self, definitions: &mut [Definition], snapshot: &[Definition]) {
        let mut ptr = String::new();
        for d in definitions {
            let table =
                if self.defs_2020.iter().any(|n| *n == d.name) { "$defs" } else { "definitions" };
            ptr.clear();
            ptr.push_str(&child(&child("", table), &d.name));
            self.settle(&mut d.schema, snapshot, &mut ptr, 1);
        }
    }

    /// Definitions that could not be read block the import only when something refers to them;
    /// the others are dropped with a note, and so is every definition that refers to a dropped one.
    fn drop_failed(
        &mut self,
        roots: &[&Schema],
        kept: &[Kept],
        definitions: &mut Vec<Definition>,
    ) -> Result<(), ImportError> {
        if self.failed_defs.is_empty() {
            return Ok(());
        }
        let mut reached: Vec<String> = Vec::new();
        for r in roots {
            refs_of(r, &mut reached);
        }
        for k in kept {
            json_refs(&k.value, &mut reached);
        }
        let mut i = 0;
        while i < reached.len() {
            if let Some(d) = definitions.iter().find(|d| d.name == reached[i].as_str()) {
                let mut more = Vec::new();
                refs_of(&d.schema, &mut more);
                for m in more {
                    if !reached.contains(&m) {
                        reached.push(m);
                    }
                }
            }
            i += 1;
        }
        let failed = std::mem::take(&mut self.failed_defs);
        for (name, e) in &failed {
            if reached.contains(name) {
                return Err(e.clone());
            }
        }
        for (name, e) in failed {
            let ptr = e.pointer.clone();
            self.note(
                &ptr,
                "$defs",
                format!("definition `{name}` is not referred to and could not be read ({}); it was dropped", e.kind),
            );
        }
        // Drop what refers to a definition that is gone, until nothing does.
        loop {
            let names: Vec<String> = definitions.iter().map(|d| d.name.to_string()).collect();
            let before = definitions.len();
            let mut gone = Vec::new();
            definitions.retain(|d| {
                let mut refs = Vec::new();
                refs_of(&d.schema, &mut refs);
                let ok = refs.iter().all(|r| names.contains(r));
                if !ok {
                    gone.push(d.name.to_string());
                }
                ok
            });
            for name in gone {
                self.note(
                    "",
                    "$defs",
                    format!("definition `{name}` is not referred to and refers to a dropped definition; it was dropped"),
                );
            }
            if definitions.len() == before {
                break;
            }
        }
        Ok(())
    }
}

/// A `oneOf` whose variants may overlap, as its note says.
const OVERLAPPING_ONE_OF: &str = "has variants that may overlap (a value matching two is invalid); it is kept as `oneOf` for providers that take it, and renderers that write `anyOf` report the loss";

/// The definition names `s` refers to, kept keywords included.
fn refs_of(s: &Schema, out: &mut Vec<String>) {
    let mut todo = vec![s];
    while let Some(s) = todo.pop() {
        for k in &s.kept {
            json_refs(&k.value, out);
        }
        match &s.kind {
            SchemaKind::Ref(r) => out.push(r.name.to_string()),
            SchemaKind::List(l) => todo.push(l.items.get()),
            SchemaKind::Object(o) => {
                todo.extend(o.properties.iter().map(|p| &p.schema));
                if let Additional::Typed(t) = &o.additional {
                    todo.push(t.get());
                }
            }
            SchemaKind::AnyOf(a) => todo.extend(a.variants.iter()),
            _ => {}
        }
    }
}

/// Points the draft-07 `#/definitions/X` references inside a kept value at `#/$defs/X`, where
/// export writes every definition.
fn retarget_refs(v: &mut Value) {
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get_mut("$ref")
                    && r.starts_with("#/definitions/")
                    && let Some(name) = local_def_name(r)
                {
                    *r = super::export::definition_ref(&name);
                }
                todo.extend(m.values_mut());
            }
            Value::Array(a) => todo.extend(a.iter_mut()),
            _ => {}
        }
    }
}

/// The definition names the `$ref`s inside a verbatim JSON value point at.
pub(crate) fn json_refs(v: &Value, out: &mut Vec<String>) {
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(r)) = m.get("$ref")
                    && let Some(name) = local_def_name(r)
                {
                    out.push(name);
                }
                todo.extend(m.values());
            }
            Value::Array(a) => todo.extend(a.iter()),
            _ => {}
        }
    }
}

/// The definition name of `#/$defs/X` or `#/definitions/X`.
fn local_def_name(target: &str) -> Option<String> {
    let decoded = percent_decode(target.strip_prefix('#')?)?;
    let rest = decoded.strip_prefix("/$defs/").or_else(|| decoded.strip_prefix("/definitions/"))?;
    (!rest.contains('/')).then(|| crate::pointer::unescape(rest).into_owned())
}

/// Whether the view's `items` is a tuple: an array of schemas, or the rest after `prefixItems`.
fn tuple_items(view: &View<'_>) -> bool {
    view.get("prefixItems").is_some() || view.get("items").is_some_and(|k| k.value.is_array())
}

fn type_family(t: &str) -> Option<Family> {
    Some(match t {
        "string" => Family::String,
        "integer" | "number" => Family::Number,
        "array" => Family::Array,
        "object" => Family::Object,
        _ => return None,
    })
}

fn type_set(v: &Value, ptr: &str) -> Result<Vec<String>, ImportError> {
    let expected = "a type name or an array of type names";
    let names: Vec<&Value> = match v {
        Value::String(_) => vec![v],
        Value::Array(items) if !items.is_empty() => items.iter().collect(),
        other => return Err(wrong(ptr, "type", expected, other)),
    };
    let mut out: Vec<String> = Vec::new();
    for (i, n) in names.into_iter().enumerate() {
        match n.as_str() {
            Some(t) if TYPE_NAMES.contains(&t) => {
                if !out.iter().any(|o| o == t) {
                    out.push(t.to_owned());
                }
            }
            Some(t) => {
                let suggestion = crate::suggest::closest(t, TYPE_NAMES.iter().copied());
                let pointer = if v.is_array() { format!("{ptr}/{i}") } else { ptr.to_owned() };
                let kind = ImportErrorKind::UnknownType { name: t.to_owned(), suggestion };
                return Err(ImportError { pointer, kind });
            }
            None => return Err(wrong(ptr, "type", expected, n)),
        }
    }
    // `number` already accepts every integer.
    if out.iter().any(|t| t == "number") {
        out.retain(|t| t != "integer");
    }
    Ok(out)
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// `{"const": "v"}` with at most a description, a title, a comment or `type: string` beside it.
fn const_member(m: &Value) -> bool {
    let Some(o) = m.as_object() else { return false };
    let Some(c) = o
        .get("const")
        .filter(|c| matches!(c, Value::String(_) | Value::Number(_) | Value::Bool(_)))
    else {
        return false;
    };
    o.iter().all(|(k, v)| match k.as_str() {
        "const" | "description" | "title" | "$comment" => true,
        "type" => v.as_str().is_some_and(|t| type_fits(t, c)),
        _ => false,
    })
}

/// Whether the JSON type name `t` admits the value `v` (`1.0` is an integer, `1` a number).
fn type_fits(t: &str, v: &Value) -> bool {
    let vt = json_type(v);
    let whole = matches!(v, Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0));
    t == vt || (vt == "integer" && t == "number") || (vt == "number" && whole && t == "integer")
}

fn annotations_clash(inner: &Schema, outer: &View<'_>) -> bool {
    (inner.title.is_some() && outer.get("title").is_some())
        || (inner.description.is_some() && outer.get("description").is_some())
        || (inner.default.is_some() && outer.get("default").is_some())
        || (!inner.examples.is_empty() && outer.get("examples").is_some())
}

fn merge_annotations(s: &mut Schema, outer: Schema) {
    if outer.title.is_some() {
        s.title = outer.title;
    }
    if outer.description.is_some() {
        s.description = outer.description;
    }
    if outer.default.is_some() {
        s.default = outer.default;
    }
    if !outer.examples.is_empty() {
        s.examples = outer.examples;
    }
}

fn literal(order: &KeyOrder, v: &Value, ptr: &str, keyword: &str) -> Result<Literal, ImportError> {
    // Literals are converted recursively: refuse absurd nesting first.
    let mut stack = vec![(v, 0usize)];
    while let Some((x, d)) = stack.pop() {
        if d > 2 * MAX_DEPTH {
            return Err(ImportError { pointer: ptr.to_owned(), kind: ImportErrorKind::TooDeep });
        }
        match x {
            Value::Array(a) => stack.extend(a.iter().map(|y| (y, d + 1))),
            Value::Object(o) => stack.extend(o.values().map(|y| (y, d + 1))),
            _ => {}
        }
    }
    order.literal(ptr, v).map_err(|e| unsupported(ptr, keyword, e.to_string()))
}

/// A float with a zero fractional part inside the 64-bit range, as the integer it is.
fn whole(l: &mut Literal) {
    if let Literal::Float(f) = *l
        && f.fract() == 0.0
        && f.abs() < 9.2e18
    {
        *l = Literal::Int(f as i64);
    }
}

fn text_kw(view: &View<'_>, key: &str) -> Result<Option<Cow<'static, str>>, ImportError> {
    match view.get(key) {
        None => Ok(None),
        Some(kw) => match &*kw.value {
            Value::String(s) => Ok(Some(Cow::Owned(s.clone()))),
            other => Err(wrong(&kw.ptr, key, "a string", other)),
        },
    }
}

/// `pattern`, refused with its pointer when it cannot be enforced with ECMA-262's meaning.
fn pattern_kw(view: &View<'_>) -> Result<Option<Cow<'static, str>>, ImportError> {
    let pattern = text_kw(view, "pattern")?;
    if let (Some(source), Some(kw)) = (&pattern, view.get("pattern"))
        && let Err(e) = crate::arg_checks::compile(source)
    {
        return Err(unsupported(&kw.ptr, "pattern", e.reason));
    }
    Ok(pattern)
}

fn count_kw(view: &View<'_>, key: &str) -> Result<Option<u64>, ImportError> {
    match view.get(key) {
        None => Ok(None),
        Some(kw) => {
            let v = &*kw.value;
            v.as_u64()
                .or_else(|| {
                    v.as_f64()
                        .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 1.8e19)
                        .map(|f| f as u64)
                })
                .map(Some)
                .ok_or_else(|| wrong(&kw.ptr, key, "a non-negative integer", v))
        }
    }
}

fn int_of(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64().filter(|f| f.fract() == 0.0 && *f >= -9.2e18 && *f <= 9.2e18).map(|f| f as i64)
    })
}

fn number_kws<T: Copy>(
    view: &View<'_>,
    conv: impl Fn(&Value) -> Option<T>,
) -> Result<NumberSchema<T>, ImportError> {
    let expected = "a number (a whole number for integers)";
    let get = |key: &str| -> Result<Option<T>, ImportError> {
        match view.get(key) {
            None => Ok(None),
            Some(kw) => {
                conv(&kw.value).map(Some).ok_or_else(|| wrong(&kw.ptr, key, expected, &kw.value))
            }
        }
    };
    let mut minimum = get("minimum")?;
    let mut maximum = get("maximum")?;
    let bound = |key: &str, plain: &mut Option<T>| -> Result<Option<T>, ImportError> {
        match view.get(key) {
            None => Ok(None),
            // Draft-04: a boolean turns the plain bound exclusive.
            Some(kw) if kw.value.is_boolean() => {
                Ok(if *kw.value == Value::Bool(true) { plain.take() } else { None })
            }
            Some(kw) => {
                conv(&kw.value).map(Some).ok_or_else(|| wrong(&kw.ptr, key, expected, &kw.value))
            }
        }
    };
    let exclusive_minimum = bound("exclusiveMinimum", &mut minimum)?;
    let exclusive_maximum = bound("exclusiveMaximum", &mut maximum)?;
    Ok(NumberSchema {
        minimum,
        maximum,
        exclusive_minimum,
        exclusive_maximum,
        multiple_of: get("multipleOf")?,
    })
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Whether no value can match both `a` and `b` (conservative: `false` when unsure).
fn disjoint(a: &Schema, b: &Schema, defs: &[Definition], depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    fn resolve<'s>(mut s: &'s Schema, defs: &'s [Definition]) -> &'s Schema {
        for _ in 0..MAX_DEPTH {
            match &s.kind {
                SchemaKind::Ref(RefSchema { name }) => {
                    match defs.iter().find(|d| d.name == *name) {
                        Some(d) => s = &d.schema,
                        None => return s,
                    }
                }
                _ => return s,
            }
        }
        s
    }
    fn class(s: &Schema) -> Option<u8> {
        Some(match &s.kind {
            SchemaKind::String(_) => 0,
            SchemaKind::Integer(_) | SchemaKind::Float(_) => 1,
            SchemaKind::Enum(e) => match e.values.json_types().as_slice() {
                ["string"] => 0,
                ["integer"] | ["number"] => 1,
                ["boolean"] => 2,
                _ => return None,
            },
            SchemaKind::Boolean => 2,
            SchemaKind::Null => 3,
            SchemaKind::Any => return None,
            SchemaKind::List(_) => 4,
            SchemaKind::Object(_) => 5,
            SchemaKind::AnyOf(_) | SchemaKind::Ref(_) => return None,
        })
    }
    let (a, b) = (resolve(a, defs), resolve(b, defs));
    let nulls = |s: &Schema| s.nullable || matches!(s.kind, SchemaKind::Null);
    if nulls(a) && nulls(b) {
        return false;
    }
    match (&a.kind, &b.kind) {
        (SchemaKind::AnyOf(x), _) => x.variants.iter().all(|v| disjoint(v, b, defs, depth + 1)),
        (_, SchemaKind::AnyOf(y)) => y.variants.iter().all(|v| disjoint(a, v, defs, depth + 1)),
        (SchemaKind::Enum(x), SchemaKind::Enum(y)) => {
            !x.values.iter().any(|v| y.values.iter().any(|w| v.json_eq(w)))
        }
        (SchemaKind::Object(x), SchemaKind::Object(y)) => x.properties.iter().any(|p| {
            let Some(q) = y.properties.iter().find(|q| q.name == p.name) else { return false };
            let (ps, qs) = (resolve(&p.schema, defs), resolve(&q.schema, defs));
            p.required
                && q.required
                && !ps.nullable
                && !qs.nullable
                && matches!((&ps.kind, &qs.kind), (SchemaKind::Enum(_), SchemaKind::Enum(_)))
                && disjoint(ps, qs, defs, depth + 1)
        }),
        _ => match (class(a), class(b)) {
            (Some(x), Some(y)) => x != y,
            _ => false,
        },
    }
}

/// A scalar as a hash key under JSON Schema's equality ([`ScalarRef::json_eq`]): `1` and `1.0`
/// are one key, and so are `0` and `-0.0`. Duplicate enum values are found through a set of
/// these, so an enum of 100,000 values imports in linear time.
#[derive(Debug, PartialEq, Eq, Hash)]
enum EqKey {
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(String),
}

impl EqKey {
    fn of(value: ScalarRef<'_>) -> EqKey {
        match value {
            ScalarRef::Bool(b) => EqKey::Bool(b),
            ScalarRef::Int(i) => EqKey::Int(i),
            // Below 2^63 in magnitude a whole float is exactly an `i64`.
            ScalarRef::Float(f) if f.fract() == 0.0 && f.abs() < 9.2e18 => EqKey::Int(f as i64),
            ScalarRef::Float(f) => EqKey::Float(f.to_bits()),
            ScalarRef::Str(s) => EqKey::Str(s.to_owned()),
        }
    }
}
