//! The compile-time checks that a `#[param(...)]` key fits its parameter's type: the bound
//! literal as written ([`Bound`]) and the traits the generated code asks the type for
//! ([`RangeCheck`], [`LengthCheck`], [`TextCheck`]).

use std::collections::{BTreeSet, HashSet, VecDeque};

use crate::arg_checks::{self, ArgError};
use crate::schema::{NumberSchema, lower_int, upper_int};

/// A bound of `#[param(range/min/max)]` as written: an integer or a fractional literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// An integer literal.
    Int(i64),
    /// A fractional literal.
    Float(f64),
}

impl Bound {
    fn lower_int(self) -> i64 {
        match self {
            Bound::Int(i) => i,
            Bound::Float(f) => lower_int(f),
        }
    }

    fn upper_int(self) -> i64 {
        match self {
            Bound::Int(i) => i,
            Bound::Float(f) => upper_int(f),
        }
    }

    fn float(self) -> f64 {
        match self {
            Bound::Int(i) => i as f64,
            Bound::Float(f) => f,
        }
    }
}

/// Checks of `#[param(range/min/max)]`, implemented by integers and floats (and options of them).
#[diagnostic::on_unimplemented(
    message = "`range`, `min` and `max` apply only to integer and number parameters, not `{Self}`"
)]
pub trait RangeCheck {
    /// Checks inclusive bounds (a fractional bound of an integer is rounded inwards).
    ///
    /// # Errors
    ///
    /// The value is outside them.
    fn check_range(
        &self,
        min: Option<Bound>,
        max: Option<Bound>,
        pointer: &str,
    ) -> Result<(), ArgError>;
}

/// Checks of `#[param(length)]`, implemented by strings and lists (and options of them).
#[diagnostic::on_unimplemented(
    message = "`length` applies only to string and list parameters, not `{Self}`"
)]
pub trait LengthCheck {
    /// Checks a length (characters of a string, items of a list).
    ///
    /// # Errors
    ///
    /// Too short or too long.
    fn check_length(
        &self,
        min: Option<u64>,
        max: Option<u64>,
        pointer: &str,
    ) -> Result<(), ArgError>;
}

/// Checks of `#[param(pattern/one_of/format)]`, implemented by strings (and options of them).
#[diagnostic::on_unimplemented(
    message = "`pattern`, `format` and `one_of` apply only to string parameters, not `{Self}`"
)]
pub trait TextCheck {
    /// The text, if there is one.
    fn text(&self) -> Option<&str>;
}

macro_rules! int_range_check {
    ($($t:ty),*) => {$(
        impl RangeCheck for $t {
            fn check_range(&self, min: Option<Bound>, max: Option<Bound>, pointer: &str)
                -> Result<(), ArgError> {
                arg_checks::int_range(*self, min.map(Bound::lower_int), max.map(Bound::upper_int), pointer)
            }
        }
    )*};
}

int_range_check!(i8, i16, i32, i64, u8, u16, u32, u64, i128);

impl RangeCheck for isize {
    fn check_range(
        &self,
        min: Option<Bound>,
        max: Option<Bound>,
        pointer: &str,
    ) -> Result<(), ArgError> {
        (*self as i64).check_range(min, max, pointer)
    }
}

impl RangeCheck for usize {
    fn check_range(
        &self,
        min: Option<Bound>,
        max: Option<Bound>,
        pointer: &str,
    ) -> Result<(), ArgError> {
        (*self as u64).check_range(min, max, pointer)
    }
}

impl RangeCheck for f64 {
    fn check_range(
        &self,
        min: Option<Bound>,
        max: Option<Bound>,
        pointer: &str,
    ) -> Result<(), ArgError> {
        let bounds = NumberSchema {
            minimum: min.map(Bound::float),
            maximum: max.map(Bound::float),
            ..NumberSchema::NONE_F64
        };
        arg_checks::float_range(*self, &bounds, pointer)
    }
}

impl RangeCheck for f32 {
    fn check_range(
        &self,
        min: Option<Bound>,
        max: Option<Bound>,
        pointer: &str,
    ) -> Result<(), ArgError> {
        f64::from(*self).check_range(min, max, pointer)
    }
}

impl<T: RangeCheck> RangeCheck for Option<T> {
    fn check_range(
        &self,
        min: Option<Bound>,
        max: Option<Bound>,
        pointer: &str,
    ) -> Result<(), ArgError> {
        self.as_ref().map_or(Ok(()), |v| v.check_range(min, max, pointer))
    }
}

impl LengthCheck for String {
    fn check_length(
        &self,
        min: Option<u64>,
        max: Option<u64>,
        pointer: &str,
    ) -> Result<(), ArgError> {
        arg_checks::length(self, min, max, pointer)
    }
}

impl<T> LengthCheck for Vec<T> {
    fn check_length(
        &self,
        min: Option<u64>,
        max: Option<u64>,
        pointer: &str,
    ) -> Result<(), ArgError> {
        arg_checks::items(self.len(), min, max, pointer)
    }
}

impl<T> LengthCheck for VecDeque<T> {
    fn check_length(
        &self,
        min: Option<u64>,
        max: Option<u64>,
        pointer: &str,
    ) -> Result<(), ArgError> {
        arg_checks::items(self.len(), min, max, pointer)
    }
}

impl<T, S> LengthCheck for HashSet<T, S> {
    fn check_length(
        &self,
        min: Option<u64>,
        max: Option<u64>,
        pointer: &str,
    ) -> Result<(), ArgError> {
        arg_checks::items(self.len(), min, max, pointer)
    }
}

impl<T> LengthCheck for BTreeSet<T> {
    fn check_length(
        &self,
        min: Option<u64>,
        max: Option<u64>,
        pointer: &str,
    ) -> Result<(), ArgError> {
        arg_checks::items(self.len(), min, max, pointer)
    }
}

impl<T: LengthCheck> LengthCheck for Option<T> {
    fn check_length(
        &self,
        min: Option<u64>,
        max: Option<u64>,
        pointer: &str,
    ) -> Result<(), ArgError> {
        self.as_ref().map_or(Ok(()), |v| v.check_length(min, max, pointer))
    }
}

impl TextCheck for String {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl<T: TextCheck> TextCheck for Option<T> {
    fn text(&self) -> Option<&str> {
        self.as_ref().and_then(TextCheck::text)
    }
}
