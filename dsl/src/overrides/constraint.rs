//! [`Constraint`]: a change to one parameter, and how it narrows the parameter's schema.

use std::fmt;

use serde_json::Value;

use crate::descriptor::Param;
use crate::dispatch::ArgValidator;
use crate::literal::{Literal, Text};
use crate::schema::{Bound, EnumSchema, EnumValues, Scalar, SchemaKind, Slot};

use super::error::{OverrideError, OverrideErrorKind};

/// A change to one parameter, used with [`Override::constrain`](super::Override::constrain).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Constraint {
    /// Only these values: narrows an enum (every value must already be accepted) or turns a
    /// string parameter into an enum. The enum keeps its order and value descriptions.
    OneOf(Vec<Text>),
    /// Only these values of an enum of any scalar values (integers, numbers, booleans,
    /// strings), compared as JSON Schema compares them (`1.0` is `1`); every value must already
    /// be accepted. The enum keeps its order and value descriptions.
    OneOfValues(Vec<Scalar>),
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

    /// Only the given values of an enum (see [`Constraint::OneOfValues`]).
    pub fn one_of_values<S: Into<Scalar>>(values: impl IntoIterator<Item = S>) -> Self {
        Constraint::OneOfValues(values.into_iter().map(Into::into).collect())
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
    let not_applicable = |what: &'static str, kind: &'static str| {
        OverrideError::new(
            tool.to_owned(),
            OverrideErrorKind::NotApplicable { param: param.name.to_string(), what, kind },
        )
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
                    return Err(OverrideError::new(
                        tool.to_owned(),
                        OverrideErrorKind::WidensEnum {
                            param: param.name.to_string(),
                            values: widening,
                        },
                    ));
                }
                let narrowed = e.values.retain(|v| values.iter().any(|k| v.as_str() == Some(k)));
                param.schema.kind = SchemaKind::Enum(EnumSchema { values: narrowed });
            }
            SchemaKind::String(_) => {
                // Every value must be one the string accepts (lengths, pattern).
                let validator = ArgValidator::new();
                let refused: Vec<String> = values
                    .iter()
                    .filter(|v| {
                        let value = Value::String(v.to_string());
                        validator
                            .check_value(&param.schema, &[], &value, &crate::JsonPointer::root())
                            .is_err()
                    })
                    .map(|v| v.to_string())
                    .collect();
                if !refused.is_empty() {
                    return Err(OverrideError::new(
                        tool.to_owned(),
                        OverrideErrorKind::WidensEnum {
                            param: param.name.to_string(),
                            values: refused,
                        },
                    ));
                }
                let values: EnumValues = values
                    .iter()
                    .map(|v| crate::schema::EnumValue {
                        value: Scalar::Str(v.clone()),
                        description: None,
                    })
                    .collect();
                param.schema.kind = SchemaKind::Enum(EnumSchema { values });
            }
            other => return Err(not_applicable("`one_of`", other.type_name())),
        },
        Constraint::OneOfValues(values) => match &param.schema.kind {
            SchemaKind::Enum(e) => {
                let widening: Vec<String> = values
                    .iter()
                    .filter(|v| !e.values.iter().any(|w| w.json_eq(v.as_ref())))
                    .map(|v| v.as_ref().to_string())
                    .collect();
                if !widening.is_empty() {
                    return Err(OverrideError::new(
                        tool.to_owned(),
                        OverrideErrorKind::WidensEnum {
                            param: param.name.to_string(),
                            values: widening,
                        },
                    ));
                }
                let narrowed = e.values.retain(|v| values.iter().any(|k| v.json_eq(k.as_ref())));
                param.schema.kind = SchemaKind::Enum(EnumSchema { values: narrowed });
            }
            other => return Err(not_applicable("`one_of`", other.type_name())),
        },
        Constraint::Range { min, max } => {
            let name = param.name.to_string();
            let kind = &mut param.schema.kind;
            match Bound::Minimum.slot(kind) {
                Ok(Slot::Int(_)) => narrow(tool, &name, kind, *min, *max)?,
                Ok(Slot::Float(_)) => {
                    narrow(tool, &name, kind, min.map(|v| v as f64), max.map(|v| v as f64))?;
                }
                Ok(_) => return Err(not_applicable("a range", kind.type_name())),
                Err(misfit) => return Err(not_applicable("a range", misfit.kind)),
            }
        }
        Constraint::RangeF64 { min, max } => {
            let name = param.name.to_string();
            let kind = &mut param.schema.kind;
            match Bound::Minimum.slot(kind) {
                Ok(Slot::Float(_)) => narrow(tool, &name, kind, *min, *max)?,
                Ok(_) => return Err(not_applicable("a fractional range", kind.type_name())),
                Err(misfit) => return Err(not_applicable("a fractional range", misfit.kind)),
            }
        }
    }
    Ok(())
}

/// A number type a bound slot holds: `i64` for integer schemas, `f64` for number schemas.
trait Number: Copy + PartialOrd + fmt::Display {
    /// The slot's field, when the slot holds this type.
    fn field(slot: Slot<'_>) -> Option<&mut Option<Self>>;
}

impl Number for i64 {
    fn field(slot: Slot<'_>) -> Option<&mut Option<i64>> {
        match slot {
            Slot::Int(field) => Some(field),
            _ => None,
        }
    }
}

impl Number for f64 {
    fn field(slot: Slot<'_>) -> Option<&mut Option<f64>> {
        match slot {
            Slot::Float(field) => Some(field),
            _ => None,
        }
    }
}

/// Sets the given inclusive bounds of a number, refusing any that would let through a value
/// the current bounds refuse.
fn narrow<T: Number>(
    tool: &str,
    param: &str,
    kind: &mut SchemaKind,
    min: Option<T>,
    max: Option<T>,
) -> Result<(), OverrideError> {
    let widens = |limit: String| {
        OverrideError::new(
            tool.to_owned(),
            OverrideErrorKind::WidensRange { param: param.to_owned(), limit },
        )
    };
    let current = |kind: &mut SchemaKind, bound: Bound| -> Option<T> {
        bound.slot(kind).ok().and_then(T::field).and_then(|field| *field)
    };
    let set = |kind: &mut SchemaKind, bound: Bound, value: T| {
        if let Some(field) = bound.slot(kind).ok().and_then(T::field) {
            *field = Some(value);
        }
    };
    if let Some(m) = min {
        if let Some(lo) = current(kind, Bound::Minimum).filter(|lo| m < *lo) {
            return Err(widens(format!("at least {lo}")));
        }
        if let Some(lo) = current(kind, Bound::ExclusiveMinimum).filter(|lo| m <= *lo) {
            return Err(widens(format!("greater than {lo}")));
        }
        set(kind, Bound::Minimum, m);
    }
    if let Some(m) = max {
        if let Some(hi) = current(kind, Bound::Maximum).filter(|hi| m > *hi) {
            return Err(widens(format!("at most {hi}")));
        }
        if let Some(hi) = current(kind, Bound::ExclusiveMaximum).filter(|hi| m >= *hi) {
            return Err(widens(format!("less than {hi}")));
        }
        set(kind, Bound::Maximum, m);
    }
    Ok(())
}
