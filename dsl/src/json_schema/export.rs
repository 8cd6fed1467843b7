//! Export: the IR written as JSON Schema (draft 2020-12).
//!
//! [`export_input`] writes a descriptor's input object, [`export_output`] its output schema and
//! [`export_schema`] any single schema. Keys come in a fixed order: `title`, `description`, the
//! kind's keywords (`type`, then `format`, `pattern`, `minLength`, `maxLength` for strings;
//! `minimum`, `exclusiveMinimum`, `maximum`, `exclusiveMaximum`, `multipleOf` for numbers; `enum`
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

use serde_json::{Map, Number, Value};

use crate::descriptor::{Definition, Param, ToolDescriptor};
use crate::literal::Literal;
use crate::schema::{Additional, Kept, NumberSchema, Schema, SchemaKind};

/// The descriptor's input object as a JSON Schema document, with every definition under `$defs`.
pub fn export_input(d: &ToolDescriptor) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), "object".into());
    object_keywords(&mut m, &d.params, &d.additional);
    kept_keywords(&mut m, &d.input_kept);
    if !d.definitions.is_empty() {
        m.insert("$defs".into(), defs_json(d.definitions.iter()));
    }
    Value::Object(m)
}

/// The descriptor's output schema as a JSON Schema document, with the definitions it reaches.
pub fn export_output(d: &ToolDescriptor) -> Option<Value> {
    d.output.as_ref().map(|out| export_schema(out, &d.definitions))
}

/// One schema as a JSON Schema document; the definitions it reaches (directly or through other
/// definitions) are written under `$defs`, in the order of `definitions`.
pub fn export_schema(schema: &Schema, definitions: &[Definition]) -> Value {
    let mut m = schema_map(schema);
    let reached = reachable(schema, definitions);
    if !reached.is_empty() {
        m.insert("$defs".into(), defs_json(reached.into_iter()));
    }
    Value::Object(m)
}

/// The `$ref` value that points at definition `name` (`#/$defs/` and the escaped name).
pub fn definition_ref(name: &str) -> String {
    let mut out = String::from("#/$defs/");
    for b in name.replace('~', "~0").replace('/', "~1").bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn defs_json<'a>(defs: impl Iterator<Item = &'a Definition>) -> Value {
    Value::Object(
        defs.map(|d| (d.name.to_string(), Value::Object(schema_map(&d.schema)))).collect(),
    )
}

/// The definitions `schema` reaches, in definition order.
fn reachable<'a>(schema: &Schema, definitions: &'a [Definition]) -> Vec<&'a Definition> {
    let mut seen = vec![false; definitions.len()];
    let mut stack = Vec::new();
    refs_in(schema, &mut stack);
    while let Some(name) = stack.pop() {
        if let Some(i) = definitions.iter().position(|d| d.name == name)
            && !seen[i]
        {
            seen[i] = true;
            refs_in(&definitions[i].schema, &mut stack);
        }
    }
    definitions.iter().zip(seen).filter(|(_, s)| *s).map(|(d, _)| d).collect()
}

fn refs_in(schema: &Schema, out: &mut Vec<String>) {
    // Iterative, so that a deep schema built at run time cannot overflow the stack here.
    let mut todo = vec![schema];
    while let Some(s) = todo.pop() {
        for k in &s.kept {
            super::import::json_refs(&k.value, out);
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

fn type_value(name: &str, nullable: bool) -> Value {
    if nullable { Value::from(vec![name, "null"]) } else { Value::from(name) }
}

fn null_member() -> Value {
    let mut m = Map::new();
    m.insert("type".into(), "null".into());
    Value::Object(m)
}

fn float_value(f: f64) -> Value {
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

fn number_keywords<T: Copy>(
    m: &mut Map<String, Value>,
    n: &NumberSchema<T>,
    f: impl Fn(T) -> Value,
) {
    let fields = [
        ("minimum", n.minimum),
        ("exclusiveMinimum", n.exclusive_minimum),
        ("maximum", n.maximum),
        ("exclusiveMaximum", n.exclusive_maximum),
        ("multipleOf", n.multiple_of),
    ];
    for (key, value) in fields {
        if let Some(v) = value {
            m.insert(key.into(), f(v));
        }
    }
}

fn object_keywords(m: &mut Map<String, Value>, params: &[Param], additional: &Additional) {
    if !params.is_empty() {
        let properties = params
            .iter()
            .map(|p| (p.name.to_string(), Value::Object(schema_map(&p.schema))))
            .collect();
        m.insert("properties".into(), Value::Object(properties));
    }
    let required: Vec<Value> =
        params.iter().filter(|p| p.required).map(|p| Value::from(p.name.as_ref())).collect();
    if !required.is_empty() {
        m.insert("required".into(), Value::Array(required));
    }
    let additional = match additional {
        Additional::Closed => Value::Bool(false),
        Additional::Unstated => return,
        Additional::Open => Value::Bool(true),
        Additional::Typed(t) => Value::Object(schema_map(t)),
    };
    m.insert("additionalProperties".into(), additional);
}

/// Keywords kept verbatim by import, written as they were.
fn kept_keywords(m: &mut Map<String, Value>, kept: &[Kept]) {
    for k in kept {
        m.insert(k.keyword.to_string(), k.value.clone());
    }
}

fn schema_map(s: &Schema) -> Map<String, Value> {
    let mut m = Map::new();
    if let Some(title) = &s.title {
        m.insert("title".into(), title.as_ref().into());
    }
    if let Some(description) = &s.description {
        m.insert("description".into(), description.as_ref().into());
    }
    match &s.kind {
        SchemaKind::String(st) => {
            m.insert("type".into(), type_value("string", s.nullable));
            if let Some(format) = &st.format {
                m.insert("format".into(), format.as_ref().into());
            }
            if let Some(pattern) = &st.pattern {
                m.insert("pattern".into(), pattern.as_ref().into());
            }
            if let Some(min) = st.min_length {
                m.insert("minLength".into(), min.into());
            }
            if let Some(max) = st.max_length {
                m.insert("maxLength".into(), max.into());
            }
        }
        SchemaKind::Integer(n) => {
            m.insert("type".into(), type_value("integer", s.nullable));
            number_keywords(&mut m, n, Value::from);
        }
        SchemaKind::Float(n) => {
            m.insert("type".into(), type_value("number", s.nullable));
            number_keywords(&mut m, n, float_value);
        }
        SchemaKind::Boolean => {
            m.insert("type".into(), type_value("boolean", s.nullable));
        }
        SchemaKind::Null => {
            m.insert("type".into(), "null".into());
        }
        // `{}` accepts every value, `null` included, so `nullable` adds nothing to write.
        SchemaKind::Any => {}
        SchemaKind::Enum(e) => {
            m.insert("type".into(), type_value("string", s.nullable));
            let described = e.values.iter_described().any(|(_, d)| d.is_some());
            if described {
                let mut members: Vec<Value> = e
                    .values
                    .iter_described()
                    .map(|(value, description)| {
                        let mut c = Map::new();
                        c.insert("const".into(), value.into());
                        if let Some(d) = description {
                            c.insert("description".into(), d.into());
                        }
                        Value::Object(c)
                    })
                    .collect();
                if s.nullable {
                    members.push(null_member());
                }
                m.insert("anyOf".into(), Value::Array(members));
            } else {
                let mut values: Vec<Value> = e.values.iter().map(Value::from).collect();
                if s.nullable {
                    values.push(Value::Null);
                }
                m.insert("enum".into(), Value::Array(values));
            }
        }
        SchemaKind::List(l) => {
            m.insert("type".into(), type_value("array", s.nullable));
            // After `prefixItems`, `items` is a kept keyword of its own.
            if !s.kept.iter().any(|k| k.keyword == "prefixItems") {
                m.insert("items".into(), Value::Object(schema_map(&l.items)));
            }
            if let Some(min) = l.min_items {
                m.insert("minItems".into(), min.into());
            }
            if let Some(max) = l.max_items {
                m.insert("maxItems".into(), max.into());
            }
            if l.unique {
                m.insert("uniqueItems".into(), true.into());
            }
        }
        SchemaKind::Object(o) => {
            m.insert("type".into(), type_value("object", s.nullable));
            object_keywords(&mut m, &o.properties, &o.additional);
        }
        SchemaKind::AnyOf(a) => {
            let mut variants: Vec<Value> =
                a.variants.iter().map(|v| Value::Object(schema_map(v))).collect();
            if s.nullable {
                variants.push(null_member());
            }
            let keyword = if a.combine.is_one_of() { "oneOf" } else { "anyOf" };
            m.insert(keyword.into(), Value::Array(variants));
        }
        SchemaKind::Ref(r) => {
            let reference = Value::from(definition_ref(&r.name));
            if s.nullable {
                let mut target = Map::new();
                target.insert("$ref".into(), reference);
                m.insert("anyOf".into(), Value::Array(vec![Value::Object(target), null_member()]));
            } else {
                m.insert("$ref".into(), reference);
            }
        }
    }
    kept_keywords(&mut m, &s.kept);
    if let Some(default) = &s.default {
        m.insert("default".into(), default.to_json());
    }
    if !s.examples.is_empty() {
        m.insert("examples".into(), s.examples.iter().map(Literal::to_json).collect());
    }
    m
}
