//! Schemas read by their `type` (or by the one type their constraints belong to): strings,
//! numbers, booleans, lists and objects, one [`Schema`] per type named.

use std::borrow::Cow;

use serde_json::Value;

use super::Importer;
use super::kept::tuple_items;
use super::numbers::float_kws;
use crate::json_schema::imported::{ImportError, ImportErrorKind, child, unsupported, wrong};
use crate::json_schema::keyword::{Family, TYPE_NAMES, family_of};
use crate::json_schema::view::View;
use crate::schema::{ListSchema, ObjectSchema, Schema, SchemaKind, StringSchema};

fn type_family(t: &str) -> Option<Family> {
    Some(match t {
        "string" => Family::String,
        "integer" | "number" => Family::Number,
        "array" => Family::Array,
        "object" => Family::Object,
        _ => return None,
    })
}

pub(super) fn type_set(v: &Value, ptr: &str) -> Result<Vec<String>, ImportError> {
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
                return Err(ImportError::at(&pointer, kind));
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

pub(super) fn json_type(v: &Value) -> &'static str {
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

/// Whether the JSON type name `t` admits the value `v` (`1.0` is an integer, `1` a number).
pub(super) fn type_fits(t: &str, v: &Value) -> bool {
    let vt = json_type(v);
    let whole = matches!(v, Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0));
    t == vt || (vt == "integer" && t == "number") || (vt == "number" && whole && t == "integer")
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

/// The `format` of an integer that the IR keeps: `int32` or `int64`, the bounds of a signed
/// integer of that width (any other format on an integer is dropped with a note).
fn int_format<'v>(view: &'v View<'_>) -> Option<&'v str> {
    let format = view.get("format")?.value.as_str()?;
    crate::schema::int_format_range(format).map(|_| format)
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

impl Importer {
    /// The `type` set of a view, or `None` when absent.
    pub(super) fn types(&mut self, view: &View<'_>) -> Result<Option<Vec<String>>, ImportError> {
        match view.get("type") {
            None => Ok(None),
            Some(kw) => type_set(&kw.value, &kw.ptr).map(Some),
        }
    }
    pub(super) fn typed(&mut self, view: &View<'_>, depth: usize) -> Result<Schema, ImportError> {
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
        let int_format = non_null.contains(&"integer") && int_format(view).is_some();
        for (k, kw) in &view.kws {
            if let Some(f) = family_of(k)
                && !used.contains(&f)
                && !(int_format && *k == "format")
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

    pub(super) fn kind(
        &mut self,
        view: &View<'_>,
        t: &str,
        depth: usize,
    ) -> Result<Schema, ImportError> {
        Ok(match t {
            "string" => Schema::of(SchemaKind::String(StringSchema {
                format: text_kw(view, "format")?,
                pattern: pattern_kw(view)?,
                min_length: count_kw(view, "minLength")?,
                max_length: count_kw(view, "maxLength")?,
            })),
            "integer" => {
                let mut n = self.int_kws(view)?;
                n.format = int_format(view).map(|f| Cow::Owned(f.to_owned()));
                Schema::of(SchemaKind::Integer(n))
            }
            "number" => Schema::of(SchemaKind::Float(float_kws(view)?)),
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
}
