//! Whether a number keeps its bounds: the one comparison of a value with `minimum`, `maximum`,
//! `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`, for integers and fractional numbers,
//! and the one rounding of a fractional bound of an integer.
//!
//! Everything that judges a number against its bounds asks here and words the answer for its
//! reader: `tooldef`'s `const` rules (a default or an example, `rules/fits.rs`), the argument
//! checks at run time (`arg_checks`), a stream's early checks (`stream/early.rs`), the
//! `#[param]` range checks (`tool_schema/key_checks.rs`, `tool_schema/rt.rs`) and, at compile
//! time, `#[tool]`'s checks of a default and of a bound (`tooldef-macros`' `check.rs` and
//! `expand/tool.rs`). One source file serves both crates: it lives in `tooldef-macros`, and
//! `tooldef`'s `src/schema/number_bounds.rs` is a symbolic link to it (packaging copies the file
//! into each crate). It uses nothing but `std`; the comparisons are `const fn`.

/// The bound a number breaks, with the bound's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Broken<T> {
    /// Below `minimum`.
    Minimum(T),
    /// Above `maximum`.
    Maximum(T),
    /// Not above `exclusiveMinimum`.
    ExclusiveMinimum(T),
    /// Not below `exclusiveMaximum`.
    ExclusiveMaximum(T),
    /// Not a multiple of `multipleOf`.
    MultipleOf(T),
}

/// A number's bounds, each optional; `T` is `i64` for integers and `f64` for numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds<T> {
    /// Inclusive lower bound.
    pub minimum: Option<T>,
    /// Inclusive upper bound.
    pub maximum: Option<T>,
    /// Exclusive lower bound.
    pub exclusive_minimum: Option<T>,
    /// Exclusive upper bound.
    pub exclusive_maximum: Option<T>,
    /// The step the value is a multiple of.
    pub multiple_of: Option<T>,
}

impl<T> Bounds<T> {
    /// Inclusive bounds only.
    pub const fn inclusive(minimum: Option<T>, maximum: Option<T>) -> Self {
        Bounds {
            minimum,
            maximum,
            exclusive_minimum: None,
            exclusive_maximum: None,
            multiple_of: None,
        }
    }
}

impl Bounds<i64> {
    /// The inclusive bound `v` breaks (`minimum` first).
    pub const fn int_inclusive(&self, v: i128) -> Option<Broken<i64>> {
        if let Some(min) = self.minimum
            && v < min as i128
        {
            return Some(Broken::Minimum(min));
        }
        if let Some(max) = self.maximum
            && v > max as i128
        {
            return Some(Broken::Maximum(max));
        }
        None
    }

    /// The exclusive bound `v` breaks (`exclusiveMinimum` first).
    pub const fn int_exclusive(&self, v: i128) -> Option<Broken<i64>> {
        if let Some(min) = self.exclusive_minimum
            && v <= min as i128
        {
            return Some(Broken::ExclusiveMinimum(min));
        }
        if let Some(max) = self.exclusive_maximum
            && v >= max as i128
        {
            return Some(Broken::ExclusiveMaximum(max));
        }
        None
    }

    /// `multipleOf`, if `v` is not a multiple of it (a step of 0 takes every value).
    pub const fn int_step(&self, v: i128) -> Option<Broken<i64>> {
        match self.multiple_of {
            Some(step) if step != 0 && v % step as i128 != 0 => Some(Broken::MultipleOf(step)),
            _ => None,
        }
    }

    /// The first bound `v` breaks: inclusive, exclusive, then the step.
    pub const fn int_broken(&self, v: i128) -> Option<Broken<i64>> {
        if let Some(b) = self.int_inclusive(v) {
            return Some(b);
        }
        if let Some(b) = self.int_exclusive(v) {
            return Some(b);
        }
        self.int_step(v)
    }
}

impl Bounds<f64> {
    /// The inclusive bound `v` breaks (`minimum` first).
    pub const fn float_inclusive(&self, v: f64) -> Option<Broken<f64>> {
        if let Some(min) = self.minimum
            && v < min
        {
            return Some(Broken::Minimum(min));
        }
        if let Some(max) = self.maximum
            && v > max
        {
            return Some(Broken::Maximum(max));
        }
        None
    }

    /// The exclusive bound `v` breaks (`exclusiveMinimum` first).
    pub const fn float_exclusive(&self, v: f64) -> Option<Broken<f64>> {
        if let Some(min) = self.exclusive_minimum
            && v <= min
        {
            return Some(Broken::ExclusiveMinimum(min));
        }
        if let Some(max) = self.exclusive_maximum
            && v >= max
        {
            return Some(Broken::ExclusiveMaximum(max));
        }
        None
    }

    /// The first of the inclusive and exclusive bounds `v` breaks (the step is not judged: a
    /// fractional step is judged with a tolerance, [`Bounds::float_step`], which is not `const`).
    pub const fn float_bounds(&self, v: f64) -> Option<Broken<f64>> {
        if let Some(b) = self.float_inclusive(v) {
            return Some(b);
        }
        self.float_exclusive(v)
    }

    /// `multipleOf`, if `v` is not a multiple of it within a relative 1e-9 (binary fractions
    /// cannot hold most decimal steps exactly); a step that is not positive takes every value.
    pub fn float_step(&self, v: f64) -> Option<Broken<f64>> {
        let step = self.multiple_of?;
        let q = v / step;
        (step > 0.0 && (q - q.round()).abs() > 1e-9 * q.abs().max(1.0))
            .then_some(Broken::MultipleOf(step))
    }
}

/// A fractional lower bound of an integer, rounded inwards (up): `min = 1.5` takes 2.
pub fn lower_int(bound: f64) -> i64 {
    bound.ceil() as i64
}

/// A fractional upper bound of an integer, rounded inwards (down): `max = 2.5` takes 2.
pub fn upper_int(bound: f64) -> i64 {
    bound.floor() as i64
}
