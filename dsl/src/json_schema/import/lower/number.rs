//! Numeric bounds (`minimum`, `maximum`, their exclusive forms, draft-04 booleans included, and
//! `multipleOf`) for integers and numbers.

use std::borrow::Cow;

use serde_json::Value;

use crate::json_schema::import::context::Cx;
use crate::json_schema::import::read::Node;
use crate::json_schema::imported::{ImportError, unsupported, wrong};
use crate::schema::NumberSchema;

fn int_of(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64().filter(|f| f.fract() == 0.0 && *f >= -9.2e18 && *f <= 9.2e18).map(|f| f as i64)
    })
}

pub(super) fn number_kws<T: Copy>(
    node: &Node<'_>,
    conv: impl Fn(&Value) -> Option<T>,
) -> Result<NumberSchema<T>, ImportError> {
    let expected = "a number";
    let get = |key: &str| -> Result<Option<T>, ImportError> {
        match node.get(key) {
            None => Ok(None),
            Some(kw) => {
                conv(&kw.value).map(Some).ok_or_else(|| wrong(&kw.ptr, key, expected, &kw.value))
            }
        }
    };
    let mut minimum = get("minimum")?;
    let mut maximum = get("maximum")?;
    let bound = |key: &str, plain: &mut Option<T>| -> Result<Option<T>, ImportError> {
        match node.get(key) {
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
        format: None,
    })
}

/// An integer schema's bound as written: a 64-bit integer, a whole number beyond that range,
/// or a number with a fractional part.
#[derive(Clone, Copy)]
enum IntBound {
    Int(i64),
    Beyond,
    Fraction(f64),
}

/// The integer schema of a node: its bounds (see [`int_kws`]) and its `int32` or `int64`
/// format.
pub(super) fn integer(cx: &mut Cx, node: &Node<'_>) -> Result<NumberSchema<i64>, ImportError> {
    let mut n = int_kws(cx, node)?;
    n.format = int_format(node).map(|f| Cow::Owned(f.to_owned()));
    Ok(n)
}

/// The `format` of an integer that the IR keeps: `int32` or `int64`, the bounds of a signed
/// integer of that width (any other format on an integer is dropped with a note).
pub(super) fn int_format<'n>(node: &'n Node<'_>) -> Option<&'n str> {
    let format = node.get("format")?.value.as_str()?;
    crate::schema::int_format_range(format).map(|_| format)
}

/// The bounds of an integer schema. JSON Schema reads any number with a zero fractional
/// part as an integer (`1.0`, `1e3`, `-0`), and so does this. A bound beyond the 64-bit
/// range of the IR that every 64-bit integer satisfies (`maximum: 18446744073709551615`)
/// is dropped with a note; one that none satisfies cannot be held and is an error. A
/// fractional bound is read as the integer bound that admits the same integers
/// (`minimum: 0.1` as `minimum: 1`, `exclusiveMaximum: 9.5` as `exclusiveMaximum: 10`),
/// a fractional step as the whole step that admits the same integers (`multipleOf: 0.3`,
/// which is 3/10, as `multipleOf: 3`), and a step of which every integer is a multiple
/// (`multipleOf: 0.5`) is dropped, each with a note.
fn int_kws(cx: &mut Cx, node: &Node<'_>) -> Result<NumberSchema<i64>, ImportError> {
    const EDGE: f64 = 9_223_372_036_854_775_807.0;
    let wide = number_kws(node, |v| {
        int_of(v).map(IntBound::Int).or_else(|| {
            let f = v.as_f64().filter(|f| f.is_finite())?;
            Some(if f.fract() != 0.0 {
                IntBound::Fraction(f)
            } else if f >= EDGE || f <= -EDGE {
                IntBound::Beyond
            } else {
                return None;
            })
        })
    })?;
    // The fractional bounds read, by keyword: a range they leave empty is named below.
    let mut fractions: Vec<(&'static str, f64)> = Vec::new();
    let mut keep =
        |key: &'static str, bound: Option<IntBound>, upper: bool, round: fn(f64) -> f64| {
            int_bound(cx, node, IntBoundAt { key, upper, round }, bound, &mut fractions)
        };
    // n >= 0.1 <=> n >= 1; n > 0.1 <=> n > 0; n <= 9.5 <=> n <= 9; n < 9.5 <=> n < 10.
    let minimum = keep("minimum", wide.minimum, false, f64::ceil)?;
    let maximum = keep("maximum", wide.maximum, true, f64::floor)?;
    let exclusive_minimum = keep("exclusiveMinimum", wide.exclusive_minimum, false, f64::floor)?;
    let exclusive_maximum = keep("exclusiveMaximum", wide.exclusive_maximum, true, f64::ceil)?;
    if let Some(e) = no_integer_between(
        node,
        &fractions,
        [("minimum", minimum), ("exclusiveMinimum", exclusive_minimum)],
        [("maximum", maximum), ("exclusiveMaximum", exclusive_maximum)],
    ) {
        return Err(e);
    }
    let multiple_of = int_step(cx, node, wide.multiple_of)?;
    Ok(NumberSchema {
        minimum,
        maximum,
        exclusive_minimum,
        exclusive_maximum,
        multiple_of,
        format: None,
    })
}

/// Which integer bound [`int_bound`] reads: its keyword; `upper`, whether it is a maximum
/// (every integer below a huge one satisfies it); `round`, the integer that admits the same
/// integers as a fractional bound.
struct IntBoundAt {
    key: &'static str,
    upper: bool,
    round: fn(f64) -> f64,
}

/// One integer bound as the IR holds it (see [`int_kws`]); a fractional one is added to
/// `fractions`.
fn int_bound(
    cx: &mut Cx,
    node: &Node<'_>,
    at: IntBoundAt,
    bound: Option<IntBound>,
    fractions: &mut Vec<(&'static str, f64)>,
) -> Result<Option<i64>, ImportError> {
    let IntBoundAt { key, upper, round } = at;
    let Some(bound) = bound else { return Ok(None) };
    let kw = node.get(key).expect("a bound that was read");
    match bound {
        IntBound::Int(b) => Ok(Some(b)),
        IntBound::Fraction(f) => {
            // |f| < 2^52 for any double with a fractional part: the cast is exact.
            let b = round(f) as i64;
            cx.note(&kw.ptr, key, format!("{f} on an integer is read as {b}"));
            fractions.push((key, f));
            Ok(Some(b))
        }
        IntBound::Beyond if (kw.value.as_f64().unwrap_or(0.0) > 0.0) == upper => {
            cx.note(
                &kw.ptr,
                key,
                "is beyond the 64-bit range and every 64-bit integer satisfies it; dropped",
            );
            Ok(None)
        }
        IntBound::Beyond => Err(unsupported(
            &kw.ptr,
            key,
            "is beyond the 64-bit range of integer bounds, and no 64-bit integer satisfies it",
        )),
    }
}

/// An integer schema's `multipleOf` as the IR holds it (see [`int_kws`]).
fn int_step(
    cx: &mut Cx,
    node: &Node<'_>,
    step: Option<IntBound>,
) -> Result<Option<i64>, ImportError> {
    let r = match step {
        None => return Ok(None),
        Some(IntBound::Int(m)) => return Ok(Some(m)),
        Some(IntBound::Fraction(r)) => r,
        Some(IntBound::Beyond) => {
            let kw = node.get("multipleOf").expect("a step that was read");
            return Err(unsupported(&kw.ptr, "multipleOf", "is beyond the 64-bit range"));
        }
    };
    let kw = node.get("multipleOf").expect("a step that was read");
    match integer_step(r) {
        Some(Step::Every) => {
            let message = format!("{r}: every integer is a multiple of it; dropped");
            cx.note(&kw.ptr, "multipleOf", message);
            Ok(None)
        }
        Some(Step::Of { step, denominator }) => {
            cx.note(
                &kw.ptr,
                "multipleOf",
                format!(
                    "{r} on an integer is read as {step}: an integer is a multiple of {step}/{denominator} exactly when it is a multiple of {step}"
                ),
            );
            Ok(Some(step))
        }
        None => Err(wrong(
            &kw.ptr,
            "multipleOf",
            "a positive whole number, or a fraction of whole numbers, on an integer",
            &kw.value,
        )),
    }
}

/// The error for bounds that leave no integer between them (`minimum: 0.5, maximum: 0.7`;
/// `exclusiveMinimum: 0, exclusiveMaximum: 1`; `minimum: 1, exclusiveMaximum: 1`): named at
/// the pointer of the lower bound that decides, with both bounds as written, and with the
/// integer bounds they were read as when one of them was fractional. An exclusive bound
/// admits the integers past it (`exclusiveMinimum: 0` from 1 on), where the descriptor's own
/// check compares it as if it were inclusive and would accept the range. `None` when the range
/// holds an integer, or when two whole-number inclusive bounds decide (`minimum: 2, maximum:
/// 1` is the descriptor check's to refuse, as it always was).
fn no_integer_between(
    node: &Node<'_>,
    fractions: &[(&'static str, f64)],
    lower: [(&'static str, Option<i64>); 2],
    upper: [(&'static str, Option<i64>); 2],
) -> Option<ImportError> {
    // The tighter bound of each side by the first (last) integer it admits; on a tie, the
    // first listed.
    let (lo_key, lo, first) = lower
        .into_iter()
        .filter_map(|(k, b)| Some((k, b?, i128::from(b?) + i128::from(exclusive(k)))))
        .reduce(|a, b| if b.2 > a.2 { b } else { a })?;
    let (hi_key, hi, last) = upper
        .into_iter()
        .filter_map(|(k, b)| Some((k, b?, i128::from(b?) - i128::from(exclusive(k)))))
        .reduce(|a, b| if b.2 < a.2 { b } else { a })?;
    let fractional = fractions.iter().any(|(k, _)| *k == lo_key || *k == hi_key);
    if first <= last || !(fractional || exclusive(lo_key) || exclusive(hi_key)) {
        return None;
    }
    let written = |key: &str| match fractions.iter().find(|(k, _)| *k == key) {
        Some((_, f)) => f.to_string(),
        None => written_bound(node, key),
    };
    let read_as = if fractional { format!(" (read as {lo} and {hi})") } else { String::new() };
    let kw = node.get(lo_key)?;
    Some(unsupported(
        &kw.ptr,
        lo_key,
        format!(
            "{} with `{hi_key}` {} leaves no integer to accept{read_as}",
            written(lo_key),
            written(hi_key)
        ),
    ))
}

/// Whether `key` is an exclusive bound.
fn exclusive(key: &str) -> bool {
    key.starts_with("exclusive")
}

/// The number of the bound `key` as written.
fn written_bound(node: &Node<'_>, key: &str) -> String {
    match node.get(key) {
        // Draft-04: `exclusiveMinimum: true` makes `minimum` exclusive; its number is there.
        Some(kw) if kw.value.is_boolean() => {
            let plain = if key == "exclusiveMinimum" { "minimum" } else { "maximum" };
            node.get(plain).map_or_else(String::new, |kw| kw.value.to_string())
        }
        Some(kw) => kw.value.to_string(),
        None => String::new(),
    }
}

/// The bounds of a number schema. Bounds that leave no number between them because one of
/// them is exclusive (`exclusiveMinimum: 1, exclusiveMaximum: 1`; `minimum: 1,
/// exclusiveMaximum: 1`) are refused at the pointer of the lower bound that decides, with both
/// numbers as written: the descriptor's own check compares exclusive bounds as if they were
/// inclusive and would accept them. Two inclusive bounds the wrong way round are that check's
/// to refuse, as they always were.
pub(super) fn float_kws(node: &Node<'_>) -> Result<NumberSchema<f64>, ImportError> {
    let n = number_kws(node, Value::as_f64)?;
    // The tighter bound of each side; of two equal ones, the exclusive one.
    let tighter = |a: (&'static str, f64), b: (&'static str, f64), above: bool| {
        let past = if above { b.1 > a.1 } else { b.1 < a.1 };
        if past || (b.1 == a.1 && exclusive(b.0)) { b } else { a }
    };
    let lower = [("minimum", n.minimum), ("exclusiveMinimum", n.exclusive_minimum)];
    let upper = [("maximum", n.maximum), ("exclusiveMaximum", n.exclusive_maximum)];
    let lo =
        lower.into_iter().filter_map(|(k, b)| Some((k, b?))).reduce(|a, b| tighter(a, b, true));
    let hi =
        upper.into_iter().filter_map(|(k, b)| Some((k, b?))).reduce(|a, b| tighter(a, b, false));
    let (Some((lo_key, lo)), Some((hi_key, hi))) = (lo, hi) else { return Ok(n) };
    if lo < hi || !(exclusive(lo_key) || exclusive(hi_key)) {
        return Ok(n);
    }
    let kw = node.get(lo_key).expect("a bound that was read");
    Err(unsupported(
        &kw.ptr,
        lo_key,
        format!(
            "{} with `{hi_key}` {} leaves no number to accept",
            written_bound(node, lo_key),
            written_bound(node, hi_key)
        ),
    ))
}

/// What a fractional `multipleOf` asks of an integer.
#[derive(Debug, PartialEq)]
enum Step {
    /// Nothing: every integer is a multiple of `1/n`.
    Every,
    /// To be a multiple of `step`: the step is `step/denominator` in lowest terms, and an
    /// integer `n` is a multiple of it exactly when `step` divides `n` (they share no factor).
    Of { step: i64, denominator: f64 },
}

/// The fraction a positive fractional step stands for, read as the author wrote it: `0.3` is
/// 3/10 (its binary double is a little off, which would make no integer a multiple of it).
/// The simplest fraction that is `r` to the last bit of a double, found by continued fractions
/// (at most 64 terms); `None` when `r` is not positive or that fraction's numerator is 2^63 or
/// more.
fn integer_step(r: f64) -> Option<Step> {
    if !(r.is_finite() && r > 0.0) {
        return None;
    }
    // Convergents p/q of the continued fraction of r, from 1/0 and 0/1. The numerator is
    // exact; the denominator only has to be close.
    let (mut p, mut q) = (1u128, 0.0f64);
    let (mut p_before, mut q_before) = (0u128, 1.0f64);
    let mut x = r;
    for _ in 0..64 {
        let a = x.floor();
        // A whole double, exact below 2^128 and saturated above: a numerator that grows by
        // such a term overflows, and one that is still 0 stays 1 whatever the term.
        let p_next = (a as u128).checked_mul(p)?.checked_add(p_before)?;
        let q_next = a.mul_add(q, q_before);
        (p_before, q_before, p, q) = (p, q, p_next, q_next);
        let step = i64::try_from(p).ok()?;
        if ((p as f64) / q - r).abs() <= r * f64::EPSILON {
            return Some(if step == 1 { Step::Every } else { Step::Of { step, denominator: q } });
        }
        let rest = x - a;
        if rest.is_nan() || rest <= 0.0 {
            // Whole (no closer fraction), or past what a double can invert.
            return None;
        }
        x = 1.0 / rest;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{Step, integer_step};

    #[test]
    fn fractional_steps_read_as_the_fraction_written() {
        let of = |step, denominator| Some(Step::Of { step, denominator });
        assert_eq!(integer_step(0.3), of(3, 10.0));
        assert_eq!(integer_step(1.5), of(3, 2.0));
        assert_eq!(integer_step(2.25), of(9, 4.0));
        assert_eq!(integer_step(0.07), of(7, 100.0));
        assert_eq!(integer_step(12.345), of(2469, 200.0));
        assert_eq!(integer_step(3e-15), of(3, 1e15));
        assert_eq!(integer_step(0.5), Some(Step::Every));
        assert_eq!(integer_step(0.001), Some(Step::Every));
        assert_eq!(integer_step(1e-300), Some(Step::Every));
        assert_eq!(integer_step(1.0 / 3.0), Some(Step::Every));
        assert_eq!(integer_step(0.0), None);
        assert_eq!(integer_step(-0.5), None);
        assert_eq!(integer_step(f64::NAN), None);
        // A step beyond the 64-bit range of the IR's bounds.
        assert_eq!(integer_step(9.5e18), None);
        // Too small to invert: 1/5e-324 is infinite.
        assert_eq!(integer_step(5e-324), None);
        assert_eq!(integer_step(13.0 / 42.0), of(13, 42.0));
        assert_eq!(integer_step(std::f64::consts::PI), of(80_143_857, 25_510_582.0));
    }
}
