//! [`Constraint`]: a change to one parameter, and how it narrows the parameter's schema.

use std::fmt;

use serde_json::Value;

use crate::descriptor::Param;
use crate::dispatch::Validator;
use crate::literal::{Literal, Text};
use crate::schema::{EnumSchema, EnumValues, SchemaKind};

use super::error::OverrideError;

/// A change to one parameter, used with [`Override::constrain`](super::Override::constrain).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Constraint {
    /// Only these values: narrows an enum (every value must already be accepted) or turns a
    /// string parameter into an enum. The enum keeps its order and value descriptions.
    OneOf(Vec<Text>),
    /// Inclusive integer bounds (`None` leaves that side as it is); integer or number parameters.
    Range {
        /// Lower bound.
        min: Option<i64>,
        /// Upper bound.
        max: Option<i64>,
    },
    /// Inclusive fractional bounds (`None` leaves that side as it is); number parameters only.
    RangeF64 {
        /// Lower bound.
        min: Option<f64>,
        /// Upper bound.
        max: Option<f64>,
    },
    /// The key must be present.
    Required,
    /// The key may be absent.
    Optional,
    /// The value used when the key is absent; like [`Param::default`], the key becomes optional.
    Default(Literal),
}

impl Constraint {
    /// Only the given values (see [`Constraint::OneOf`]).
    pub fn one_of<S: Into<Text>>(values: impl IntoIterator<Item = S>) -> Self {
        Constraint::OneOf(values.into_iter().map(Into::into).collect())
    }

    /// Inclusive integer bounds.
    pub fn range(min: i64, max: i64) -> Self {
        Constraint::Range { min: Some(min), max: Some(max) }
    }

    /// Inclusive fractional bounds (number parameters).
    pub fn range_f64(min: f64, max: f64) -> Self {
        Constraint::RangeF64 { min: Some(min), max: Some(max) }
    }

    /// A default value (the key becomes optional).
    pub fn default(value: impl Into<Literal>) -> Self {
        Constraint::Default(value.into())
    }
}

pub(super) fn constrain(
    tool: &str,
    param: &mut Param,
    c: &Constraint,
) -> Result<(), OverrideError> {
    let not_applicable = |what: &'static str, kind: &'static str| OverrideError::NotApplicable {
        tool: tool.to_owned(),
        param: param.name.to_string(),
        what,
        kind,
    };
    match c {
        Constraint::Required => param.required = true,
        Constraint::Optional => param.required = false,
        Constraint::Default(v) => {
            param.schema.default = Some(v.clone());
            param.required = false;
        }
        Constraint::OneOf(values) => match &param.schema.kind {
            SchemaKind::Enum(e) => {
                let widening: Vec<String> = values
                    .iter()
                    .filter(|v| !e.values.contains(v))
                    .map(|v| v.to_string())
                    .collect();
                if !widening.is_empty() {
                    return Err(OverrideError::WidensEnum {
                        tool: tool.to_owned(),
                        param: param.name.to_string(),
                        values: widening,
                    });
                }
                let narrowed = e.values.retain(|v| values.iter().any(|k| k == v));
                param.schema.kind = SchemaKind::Enum(EnumSchema { values: narrowed });
            }
            SchemaKind::String(_) => {
                // Every value must be one the string accepts (lengths, pattern).
                let validator = Validator::new();
                let refused: Vec<String> = values
                    .iter()
                    .filter(|v| {
                        let value = Value::String(v.to_string());
                        validator.check_value(&param.schema, &[], &value, "").is_err()
                    })
                    .map(|v| v.to_string())
                    .collect();
                if !refused.is_empty() {
                    return Err(OverrideError::WidensEnum {
                        tool: tool.to_owned(),
                        param: param.name.to_string(),
                        values: refused,
                    });
                }
                let values: EnumValues = values
                    .iter()
                    .map(|v| crate::schema::EnumValue { value: v.clone(), description: None })
                    .collect();
                param.schema.kind = SchemaKind::Enum(EnumSchema { values });
            }
            other => return Err(not_applicable("`one_of`", other.type_name())),
        },
        Constraint::Range { min, max } => {
            let name = param.name.to_string();
            match &mut param.schema.kind {
                SchemaKind::Integer(n) => narrow(tool, &name, n, *min, *max)?,
                SchemaKind::Float(n) => {
                    narrow(tool, &name, n, min.map(|v| v as f64), max.map(|v| v as f64))?;
                }
                other => return Err(not_applicable("a range", other.type_name())),
            }
        }
        Constraint::RangeF64 { min, max } => {
            let name = param.name.to_string();
            match &mut param.schema.kind {
                SchemaKind::Float(n) => narrow(tool, &name, n, *min, *max)?,
                other => return Err(not_applicable("a fractional range", other.type_name())),
            }
        }
    }
    Ok(())
}

/// Sets the given inclusive bounds of a number, refusing any that would let through a value
/// the current bounds refuse.
pub(super) fn narrow<T: Copy + PartialOrd + fmt::Display>(
    tool: &str,
    param: &str,
    n: &mut crate::schema::NumberSchema<T>,
    min: Option<T>,
    max: Option<T>,
) -> Result<(), OverrideError> {
    let widens = |limit: String| OverrideError::WidensRange {
        tool: tool.to_owned(),
        param: param.to_owned(),
        limit,
    };
    if let Some(m) = min {
        if let Some(lo) = n.minimum.filter(|lo| m < *lo) {
            return Err(widens(format!("at least {lo}")));
        }
        if let Some(lo) = n.exclusive_minimum.filter(|lo| m <= *lo) {
            return Err(widens(format!("greater than {lo}")));
        }
        n.minimum = Some(m);
    }
    if let Some(m) = max {
        if let Some(hi) = n.maximum.filter(|hi| m > *hi) {
            return Err(widens(format!("at most {hi}")));
        }
        if let Some(hi) = n.exclusive_maximum.filter(|hi| m >= *hi) {
            return Err(widens(format!("less than {hi}")));
        }
        n.maximum = Some(m);
    }
    Ok(())
}
