//! `enum` and `const`: scalar values read as they are, values the `type` beside them excludes
//! dropped with a note, repeats found through a hash of JSON Schema equality.

use std::collections::HashSet;

use serde_json::Value;

use super::Importer;
use super::numbers::number_kws;
use super::typed::{json_type, type_fits};
use crate::json_schema::imported::{ImportError, describe, unsupported, wrong};
use crate::json_schema::keyword::{Family, family_of};
use crate::json_schema::view::{Kw, View};
use crate::schema::{EnumSchema, EnumValue, EnumValues, Scalar, ScalarRef, Schema, SchemaKind};

/// A scalar as a hash key under JSON Schema's equality ([`ScalarRef::json_eq`]): `1` and `1.0`
/// are one key, and so are `0` and `-0.0`. Duplicate enum values are found through a set of
/// these, so an enum of 100,000 values imports in linear time.
#[derive(Debug, PartialEq, Eq, Hash)]
pub(super) enum EqKey {
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(String),
}

impl EqKey {
    pub(super) fn of(value: ScalarRef<'_>) -> EqKey {
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

impl Importer {
    /// Applies the number constraints beside an enum to its numeric values, as JSON Schema
    /// does (a value must satisfy both): a value they exclude is dropped with a note, and each
    /// constraint, then met by every value left, is dropped with a note of its own.
    fn bound_values(
        &mut self,
        view: &View<'_>,
        keyword: &str,
        kept: Vec<EnumValue>,
        at: &[String],
    ) -> Result<Vec<EnumValue>, ImportError> {
        let bounds = number_kws(view, Value::as_f64)?;
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
                    self.note(at, keyword, message);
                }
            }
        }
        let applied: Vec<(String, String)> = view
            .kws
            .iter()
            .filter(|(k, _)| matches!(family_of(k), Some(Family::Number)))
            .map(|(k, kw)| (kw.ptr.clone(), k.to_string()))
            .collect();
        for (ptr, k) in applied {
            self.note(
                &ptr,
                &k,
                format!("was applied to the values of `{keyword}`, which all meet it now; dropped"),
            );
        }
        Ok(left)
    }

    pub(super) fn enumeration(&mut self, view: &View<'_>) -> Result<Schema, ImportError> {
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
        // The pointer of each kept value.
        let mut kept_at: Vec<String> = Vec::new();
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
            kept_at.push(p);
        }
        let numbers = kept.iter().any(|k| matches!(k.value, Scalar::Int(_) | Scalar::Float(_)));
        let bounded = view.kws.iter().any(|(k, _)| matches!(family_of(k), Some(Family::Number)));
        if numbers && bounded {
            kept = self.bound_values(view, keyword, kept, &kept_at)?;
        }
        // Number constraints beside numbers were applied to them; beside other values they
        // do not apply.
        self.drop_foreign(view, (numbers && bounded).then_some(Family::Number));
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
}
