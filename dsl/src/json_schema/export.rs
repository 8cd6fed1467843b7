//! Export: the IR written as JSON Schema (draft 2020-12).
//!
//! [`export_input`] writes a descriptor's input object, [`export_output`] its output schema and
//! [`export_schema`] any single schema. Keys come in a fixed order: `title`, `description`, the
//! kind's keywords (`type`, then `format`, `pattern`, `minLength`, `maxLength` for strings;
//! `format`, `minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum`, `multipleOf` for
//! numbers; `enum`
//! or `anyOf` for enums; `items`, `minItems`, `maxItems`, `uniqueItems` for lists; `properties`,
//! `required`, `additionalProperties` for objects; `anyOf` for unions; `$ref` for references),
//! then the keywords import kept verbatim ([`Kept`]), then `default`, `examples`, and `$defs`
//! last at the document root. Properties keep the IR order; `properties` and `required` are written
//! only when not empty; `additionalProperties` is written unless [unstated](Additional::Unstated). An
//! imported `oneOf` is written as `oneOf`.
//!
//! | IR | JSON Schema |
//! | --- | --- |
//! | nullable string, integer, number, boolean, list, object | `"type": [T, "null"]` |
//! | enum | `{"type": "string", "enum": [..]}` (nullable: `["string", "null"]` and a `null` value) |
//! | enum with a described value | `{"type": "string", "anyOf": [{"const": v, "description": d}, ..]}` (nullable: `["string", "null"]` and a `{"type": "null"}` member) |
//! | any-of | `{"anyOf": [..]}` (nullable: a `{"type": "null"}` member appended) |
//! | reference | `{"$ref": "#/$defs/Name"}` (nullable: `{"anyOf": [{"$ref": ..}, {"type": "null"}]}`) |
//!
//! Two IR shapes have a second spelling and come back normalised: a nullable any-of with a single
//! variant imports as that variant made nullable, and a `{"type": "null"}` variant of an any-of
//! imports as `nullable`. Non-finite floats cannot be written in JSON and are exported as `null`.
//!
//! The documents are built as [`Literal`]s, whose objects keep the order above; the
//! `serde_json::Value` forms ([`export_input`]...) keep it only when serde_json's
//! `preserve_order` feature is on (tooldef does not turn it on: a `Map` iterates sorted by key),
//! so write text from the `_literal` forms ([`export_input_literal`]...).

use std::borrow::Cow;

use serde_json::Value;

use super::keyword::SchemaKeyword as K;
use super::refs::{definition_ref, refs_of};
use crate::descriptor::{Definition, Param, ToolDescriptor};
use crate::literal::{Literal, Text};
use crate::schema::{Additional, EnumValues, Kept, NumberSchema, Schema, SchemaKind};

/// A JSON object under construction, in the order its keys are written.
#[derive(Default)]
pub(crate) struct Obj(Vec<(Text, Literal)>);

impl Obj {
    /// Appends `key`, or replaces its value where it is when already written.
    pub(crate) fn insert(&mut self, key: &'static str, value: impl Into<Literal>) {
        self.insert_text(Cow::Borrowed(key), value.into());
    }

    fn insert_text(&mut self, key: Text, value: Literal) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((key, value)),
        }
    }

    /// Appends a key known only at run time (a property or definition name).
    fn insert_owned(&mut self, key: &str, value: Literal) {
        self.0.push((Cow::Owned(key.to_owned()), value));
    }

    /// The finished object.
    pub(crate) fn done(self) -> Literal {
        Literal::Object(Cow::Owned(self.0))
    }
}

fn list(items: Vec<Literal>) -> Literal {
    Literal::List(Cow::Owned(items))
}

fn count(n: u64) -> Literal {
    Literal::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

/// A kept keyword's value as a literal (an integer beyond `i64` becomes the nearest float).
fn kept_literal(v: &Value) -> Literal {
    Literal::from_json(v).unwrap_or_else(|_| match v {
        Value::Number(n) => Literal::Float(n.as_f64().unwrap_or(f64::MAX)),
        Value::Array(items) => list(items.iter().map(kept_literal).collect()),
        Value::Object(map) => Literal::Object(Cow::Owned(
            map.iter().map(|(k, v)| (Cow::Owned(k.clone()), kept_literal(v))).collect(),
        )),
        _ => Literal::Null,
    })
}

/// The descriptor's input object as a JSON Schema document, with every definition under `$defs`.
pub fn export_input(d: &ToolDescriptor) -> Value {
    export_input_literal(d).to_json()
}

/// As [`export_input`], as a [`Literal`] whose objects keep the key order of the module docs.
pub fn export_input_literal(d: &ToolDescriptor) -> Literal {
    let mut m = Obj::default();
    m.insert("type", "object");
    object_keywords(&mut m, &d.params, &d.additional);
    kept_keywords(&mut m, &d.input_kept);
    if !d.definitions.is_empty() {
        m.insert("$defs", defs_json(d.definitions.iter()));
    }
    m.done()
}

/// The descriptor's output schema as a JSON Schema document, with the definitions it reaches.
pub fn export_output(d: &ToolDescriptor) -> Option<Value> {
    export_output_literal(d).map(|l| l.to_json())
}

/// As [`export_output`], as a [`Literal`] in the key order of the module docs.
pub fn export_output_literal(d: &ToolDescriptor) -> Option<Literal> {
    d.output.as_ref().map(|out| export_schema_literal(out, &d.definitions))
}

/// One schema as a JSON Schema document; the definitions it reaches (directly or through other
/// definitions) are written under `$defs`, in the order of `definitions`.
pub fn export_schema(schema: &Schema, definitions: &[Definition]) -> Value {
    export_schema_literal(schema, definitions).to_json()
}

/// As [`export_schema`], as a [`Literal`] in the key order of the module docs.
pub fn export_schema_literal(schema: &Schema, definitions: &[Definition]) -> Literal {
    let mut m = schema_map(schema);
    let reached = reachable(schema, definitions);
    if !reached.is_empty() {
        m.insert("$defs", defs_json(reached.into_iter()));
    }
    m.done()
}

fn defs_json<'a>(defs: impl Iterator<Item = &'a Definition>) -> Literal {
    let mut m = Obj::default();
    for d in defs {
        m.insert_owned(&d.name, schema_map(&d.schema).done());
    }
    m.done()
}

/// The definitions `schema` reaches, in definition order.
fn reachable<'a>(schema: &Schema, definitions: &'a [Definition]) -> Vec<&'a Definition> {
    let mut seen = vec![false; definitions.len()];
    let mut stack = Vec::new();
    refs_of(schema, &mut stack);
    while let Some(name) = stack.pop() {
        if let Some(i) = definitions.iter().position(|d| d.name == name)
            && !seen[i]
        {
            seen[i] = true;
            refs_of(&definitions[i].schema, &mut stack);
        }
    }
    definitions.iter().zip(seen).filter(|(_, s)| *s).map(|(d, _)| d).collect()
}

fn type_value(name: &'static str, nullable: bool) -> Literal {
    if nullable { list(vec![Literal::str(name), Literal::str("null")]) } else { Literal::str(name) }
}

/// The `type` of an enum: its values' types (one name, or an array when they differ).
fn enum_type(values: &EnumValues, nullable: bool) -> Literal {
    let mut types = values.json_types();
    match (types.len(), nullable) {
        (1, false) => Literal::str(types[0]),
        (_, n) => {
            if n {
                types.push("null");
            }
            list(types.into_iter().map(Literal::str).collect())
        }
    }
}

fn null_member() -> Literal {
    let mut m = Obj::default();
    m.insert("type", "null");
    m.done()
}

fn float_value(f: f64) -> Literal {
    if f.is_finite() { Literal::Float(f) } else { Literal::Null }
}

fn number_keywords<T: Copy>(m: &mut Obj, n: &NumberSchema<T>, f: impl Fn(T) -> Literal) {
    let fields = [
        (K::Minimum, n.minimum),
        (K::ExclusiveMinimum, n.exclusive_minimum),
        (K::Maximum, n.maximum),
        (K::ExclusiveMaximum, n.exclusive_maximum),
        (K::MultipleOf, n.multiple_of),
    ];
    for (key, value) in fields {
        if let Some(v) = value {
            m.insert(key.wire(), f(v));
        }
    }
}

fn object_keywords(m: &mut Obj, params: &[Param], additional: &Additional) {
    if !params.is_empty() {
        let mut properties = Obj::default();
        for p in params {
            properties.insert_owned(&p.name, schema_map(&p.schema).done());
        }
        m.insert("properties", properties.done());
    }
    let required: Vec<Literal> =
        params.iter().filter(|p| p.required).map(|p| Literal::Str(p.name.clone())).collect();
    if !required.is_empty() {
        m.insert("required", list(required));
    }
    let additional = match additional {
        Additional::Closed => Literal::Bool(false),
        Additional::Unstated => return,
        Additional::Open => Literal::Bool(true),
        Additional::Typed(t) => schema_map(t).done(),
    };
    m.insert("additionalProperties", additional);
}

/// Keywords kept verbatim by import, written as they were.
fn kept_keywords(m: &mut Obj, kept: &[Kept]) {
    for k in kept {
        m.insert_text(k.keyword.clone(), kept_literal(&k.value));
    }
}

/// The keywords of an enum: `type` and `enum`, or an `anyOf` of `const`s when a value is
/// described.
fn enum_keywords(m: &mut Obj, values: &EnumValues, nullable: bool) {
    m.insert("type", enum_type(values, nullable));
    let described = values.iter_described().any(|(_, d)| d.is_some());
    if described {
        let mut members: Vec<Literal> = values
            .iter_described()
            .map(|(value, description)| {
                let mut c = Obj::default();
                c.insert("const", value.to_literal());
                if let Some(d) = description {
                    c.insert("description", d);
                }
                c.done()
            })
            .collect();
        if nullable {
            members.push(null_member());
        }
        m.insert("anyOf", list(members));
    } else {
        let mut listed: Vec<Literal> = values.iter().map(|v| v.to_literal()).collect();
        if nullable {
            listed.push(Literal::Null);
        }
        m.insert("enum", list(listed));
    }
}

fn schema_map(s: &Schema) -> Obj {
    let mut m = Obj::default();
    if let Some(title) = &s.title {
        m.insert("title", Literal::Str(title.clone()));
    }
    if let Some(description) = &s.description {
        m.insert("description", Literal::Str(description.clone()));
    }
    match &s.kind {
        SchemaKind::String(st) => {
            m.insert("type", type_value("string", s.nullable));
            if let Some(format) = &st.format {
                m.insert(K::Format.wire(), Literal::Str(format.clone()));
            }
            if let Some(pattern) = &st.pattern {
                m.insert(K::Pattern.wire(), Literal::Str(pattern.clone()));
            }
            if let Some(min) = st.min_length {
                m.insert(K::MinLength.wire(), count(min));
            }
            if let Some(max) = st.max_length {
                m.insert(K::MaxLength.wire(), count(max));
            }
        }
        SchemaKind::Integer(n) => {
            m.insert("type", type_value("integer", s.nullable));
            if let Some(format) = &n.format {
                m.insert(K::Format.wire(), Literal::Str(format.clone()));
            }
            number_keywords(&mut m, n, Literal::Int);
        }
        SchemaKind::Float(n) => {
            m.insert("type", type_value("number", s.nullable));
            if let Some(format) = &n.format {
                m.insert(K::Format.wire(), Literal::Str(format.clone()));
            }
            number_keywords(&mut m, n, float_value);
        }
        SchemaKind::Boolean => {
            m.insert("type", type_value("boolean", s.nullable));
        }
        SchemaKind::Null => {
            m.insert("type", "null");
        }
        // `{}` accepts every value, `null` included, so `nullable` adds nothing to write.
        SchemaKind::Any => {}
        SchemaKind::Enum(e) => enum_keywords(&mut m, &e.values, s.nullable),
        SchemaKind::List(l) => {
            m.insert("type", type_value("array", s.nullable));
            // After `prefixItems`, `items` is a kept keyword of its own.
            if !s.kept.iter().any(|k| k.keyword == "prefixItems") {
                m.insert("items", schema_map(&l.items).done());
            }
            if let Some(min) = l.min_items {
                m.insert(K::MinItems.wire(), count(min));
            }
            if let Some(max) = l.max_items {
                m.insert(K::MaxItems.wire(), count(max));
            }
            if l.unique {
                m.insert(K::UniqueItems.wire(), true);
            }
        }
        SchemaKind::Object(o) => {
            m.insert("type", type_value("object", s.nullable));
            object_keywords(&mut m, &o.properties, &o.additional);
        }
        SchemaKind::AnyOf(a) => {
            let mut variants: Vec<Literal> =
                a.variants.iter().map(|v| schema_map(v).done()).collect();
            if s.nullable {
                variants.push(null_member());
            }
            let keyword = if a.combine.is_one_of() { "oneOf" } else { "anyOf" };
            m.insert(keyword, list(variants));
        }
        SchemaKind::Ref(r) => {
            let reference = Literal::from(definition_ref(&r.name));
            if s.nullable {
                let mut target = Obj::default();
                target.insert("$ref", reference);
                m.insert("anyOf", list(vec![target.done(), null_member()]));
            } else {
                m.insert("$ref", reference);
            }
        }
    }
    kept_keywords(&mut m, &s.kept);
    if let Some(default) = &s.default {
        m.insert("default", default.clone());
    }
    if !s.examples.is_empty() {
        m.insert("examples", Literal::List(s.examples.clone()));
    }
    m
}
