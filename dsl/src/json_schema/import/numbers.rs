//! Numeric bounds (`minimum`, `maximum`, their exclusive forms, draft-04 booleans included, and
//! `multipleOf`) for integers and numbers.

use serde_json::Value;

use super::Importer;
use crate::json_schema::imported::{ImportError, unsupported, wrong};
use crate::json_schema::view::View;
use crate::schema::NumberSchema;

fn int_of(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64().filter(|f| f.fract() == 0.0 && *f >= -9.2e18 && *f <= 9.2e18).map(|f| f as i64)
    })
}

pub(super) fn number_kws<T: Copy>(
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

impl Importer {
    /// The bounds of an integer schema. JSON Schema reads any number with a zero fractional
    /// part as an integer (`1.0`, `1e3`, `-0`), and so does this. A bound beyond the 64-bit
    /// range of the IR that every 64-bit integer satisfies (`maximum: 18446744073709551615`)
    /// is dropped with a note; one that none satisfies cannot be held and is an error.
    pub(super) fn int_kws(&mut self, view: &View<'_>) -> Result<NumberSchema<i64>, ImportError> {
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
}
