//! `enum` and `const`: scalar values read as they are, values the `type` beside them excludes
//! dropped with a note, repeats found through a hash of JSON Schema equality.

use std::collections::HashSet;

use serde_json::Value;

use super::kept::drop_foreign;
use super::number::number_kws;
use crate::json_schema::import::context::Cx;
use crate::json_schema::import::read::{Kw, Node, json_type, type_fits};
use crate::json_schema::imported::{ImportError, describe, item, unsupported, wrong};
use crate::json_schema::keyword::{Family, family_of};
use crate::pointer::JsonPointer;
use crate::schema::{EnumSchema, EnumValue, EnumValues, Scalar, ScalarRef, Schema, SchemaKind};

/// A scalar as a hash key under JSON Schema's equality ([`ScalarRef::json_eq`]): `1` and `1.0`
/// are one key, and so are `0` and `-0.0`. Duplicate enum values are found through a set of
/// these, so an enum of 100,000 values imports in linear time.
#[derive(Debug, PartialEq, Eq, Hash)]
pub(in crate::json_schema::import) enum EqKey {
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(String),
}

impl EqKey {
    pub(in crate::json_schema::import) fn of(value: ScalarRef<'_>) -> EqKey {
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

/// Applies the number constraints beside an enum to its numeric values, as JSON Schema
/// does (a value must satisfy both): a value they exclude is dropped with a note, and each
/// constraint, then met by every value left, is dropped with a note of its own.
fn bound_values(
    cx: &mut Cx,
    node: &Node<'_>,
    keyword: &str,
    kept: Vec<EnumValue>,
    at: &[JsonPointer],
) -> Result<Vec<EnumValue>, ImportError> {
    let bounds = number_kws(node, Value::as_f64)?;
    let mut left = Vec::with_capacity(kept.len());
    for (value, at) in kept.into_iter().zip(at) {
        let n = match value.value {
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
            _ => {
                left.push(value);
                continue;
            }
        };
        match crate::arg_checks::float_range(n, &bounds, "") {
            Ok(()) => left.push(value),
            Err(e) => {
                let why = e.message.split_once(';').map_or(e.message.as_str(), |(w, _)| w);
                let message = format!(
                    "{} is excluded by the number constraints beside it (it {why}) and was dropped",
                    describe(&value.value.as_ref().to_json())
                );
                cx.note(at, keyword, message);
            }
        }
    }
    let applied: Vec<(JsonPointer, String)> = node
        .kws
        .iter()
        .filter(|(k, _)| matches!(family_of(k), Some(Family::Number)))
        .map(|(k, kw)| (kw.ptr.clone(), k.to_string()))
        .collect();
    for (ptr, k) in applied {
        cx.note(
            &ptr,
            &k,
            format!("was applied to the values of `{keyword}`, which all meet it now; dropped"),
        );
    }
    Ok(left)
}

/// An `enum` or a `const`: the enum of its values that `type` admits, `null` as `nullable`.
pub(super) fn enumeration(cx: &mut Cx, node: &Node<'_>) -> Result<Schema, ImportError> {
    if let (Some(_), Some(c)) = (node.get("enum"), node.get("const")) {
        return Err(unsupported(&c.ptr, "const", "`const` beside `enum` cannot be expressed"));
    }
    let types = node.types()?;
    let (kw, values): (&Kw<'_>, Vec<(&Value, JsonPointer)>) = if let Some(kw) = node.get("enum") {
        let Value::Array(items) = &*kw.value else {
            return Err(wrong(&kw.ptr, "enum", "an array", &kw.value));
        };
        (kw, items.iter().enumerate().map(|(i, v)| (v, item(&kw.ptr, i))).collect())
    } else {
        let kw = node.get("const").expect("checked by the caller");
        (kw, vec![(kw.value.as_ref(), kw.ptr.clone())])
    };
    let keyword = if node.get("enum").is_some() { "enum" } else { "const" };
    if let Some((k, c)) = node
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
    let Listed { mut kept, kept_at, mut nullable } = listed(cx, values, keyword, types.as_deref())?;
    let numbers = kept.iter().any(|k| matches!(k.value, Scalar::Int(_) | Scalar::Float(_)));
    let bounded = node.kws.iter().any(|(k, _)| matches!(family_of(k), Some(Family::Number)));
    if numbers && bounded {
        kept = bound_values(cx, node, keyword, kept, &kept_at)?;
    }
    // Number constraints beside numbers were applied to them; beside other values they
    // do not apply.
    drop_foreign(cx, node, (numbers && bounded).then_some(Family::Number));
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

/// The values an `enum` or a `const` lists, as the IR holds them.
struct Listed {
    kept: Vec<EnumValue>,
    /// The pointer of each kept value.
    kept_at: Vec<JsonPointer>,
    /// Whether `null` is among them.
    nullable: bool,
}

/// Reads the `values` of `keyword`, each with its pointer: those `types` excludes and repeats
/// dropped with a note, `null` taken apart.
fn listed(
    cx: &mut Cx,
    values: Vec<(&Value, JsonPointer)>,
    keyword: &str,
    types: Option<&[String]>,
) -> Result<Listed, ImportError> {
    let mut out = Listed { kept: Vec::new(), kept_at: Vec::new(), nullable: false };
    let mut seen = HashSet::new();
    for (v, p) in values {
        if !types.is_none_or(|ts| ts.iter().any(|u| type_fits(u, v))) {
            let ts = types.unwrap_or_default().join("`, `");
            let msg = format!("{} is excluded by `type` `{ts}` and was dropped", describe(v));
            cx.note(&p, keyword, msg);
            continue;
        }
        let Some(scalar) = scalar(v, &p, keyword, types)? else {
            out.nullable = true;
            continue;
        };
        if !seen.insert(EqKey::of(scalar.as_ref())) {
            let msg = format!("{} is listed twice; the repeat was dropped", describe(v));
            cx.note(&p, keyword, msg);
            continue;
        }
        out.kept.push(EnumValue::scalar(scalar));
        out.kept_at.push(p);
    }
    Ok(out)
}

/// One listed value `v` (at `p`) as a scalar, `None` for `null`.
fn scalar(
    v: &Value,
    p: &JsonPointer,
    keyword: &str,
    types: Option<&[String]>,
) -> Result<Option<Scalar>, ImportError> {
    let allows = |t: &str| types.is_none_or(|ts| ts.iter().any(|u| u == t));
    let t = json_type(v);
    let whole = matches!(v, Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0));
    Ok(Some(match v {
        Value::Null => return Ok(None),
        Value::Array(_) | Value::Object(_) => {
            return Err(unsupported(
                p,
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
                None => return Err(unsupported(p, keyword, "the number cannot be held")),
            }
        }
        other => match Scalar::from_json(other) {
            Some(s) => s,
            None => {
                return Err(unsupported(
                    p,
                    keyword,
                    format!("{} is outside the range of a 64-bit integer", describe(v)),
                ));
            }
        },
    }))
}
