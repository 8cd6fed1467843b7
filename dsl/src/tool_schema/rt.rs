//! What generated code calls at run time, re-exported through `__private`: the tool and
//! parameter tables, the defaults' and bounds' `const` fit checks, and the schema builders of
//! derived types.

use std::borrow::Cow;

use serde::de::DeserializeOwned;

use super::packed::ParamSpec;
pub use super::packed::SchemaFn;
use super::{SchemaGen, Shape, ToolSchema};
use crate::descriptor::{Param, ToolDescriptor, ToolName};
use crate::literal::Literal;
use crate::schema::{
    Additional, AnyOfSchema, Bound, EnumSchema, EnumValue, EnumValues, ObjectSchema, Scalar,
    Schema, SchemaKind, SchemaRef, Slot, lower_int, str_eq, upper_int,
};
use crate::tool::ToolError;

/// A tool as `#[tool]` declares it: its checked name, its other keys packed into one string
/// (see `packed`), and the schema function and optionality of each parameter type.
/// [`ToolSpec::describe`] turns it into a descriptor.
///
/// The descriptor is built on first use into a box: a `static` holding the `OnceLock` is
/// written out whole in the binary's data, so an inline descriptor would cost its full size
/// (about 230 bytes) per tool in the file, where the box costs one pointer.
#[derive(Debug)]
pub struct ToolSpec {
    name: ToolName,
    text: &'static str,
    types: &'static [(SchemaFn, bool)],
    built: std::sync::OnceLock<Box<ToolDescriptor>>,
}

impl ParamSpec {
    /// The parameter as IR.
    pub(crate) fn build(self, cx: &mut SchemaGen) -> Param {
        let mut schema = (self.schema)(cx);
        self.constrain(&mut schema);
        if let Some(d) = self.description {
            schema.description = Some(Cow::Borrowed(d));
        }
        let required = !self.optional && self.default.is_none();
        schema.default = self.default;
        if !self.examples.is_empty() {
            schema.examples = Cow::Owned(self.examples);
        }
        let mut p = Param::named(self.name, schema);
        p.required = required;
        p
    }

    fn constrain(&self, schema: &mut Schema) {
        let lower: fn(&Literal) -> Option<i64> = |l| match l {
            Literal::Int(i) => Some(*i),
            Literal::Float(f) => Some(lower_int(*f)),
            _ => None,
        };
        let upper: fn(&Literal) -> Option<i64> = |l| match l {
            Literal::Int(i) => Some(*i),
            Literal::Float(f) => Some(upper_int(*f)),
            _ => None,
        };
        let as_f64 = |l: &Literal| match l {
            Literal::Int(i) => Some(*i as f64),
            Literal::Float(f) => Some(*f),
            _ => None,
        };
        // Bounds go where the kind keeps them; one that does not fit the kind was refused
        // by the macros at compile time, so a misfit is skipped here.
        let bounds =
            [(Bound::Minimum, &self.minimum, lower), (Bound::Maximum, &self.maximum, upper)];
        for (bound, value, to_int) in bounds {
            let Some(value) = value else { continue };
            match bound.slot(&mut schema.kind) {
                // Keep the tighter of the natural bound and the declared one.
                Ok(Slot::Int(slot)) => {
                    if let Some(v) = to_int(value) {
                        let tighter = match (bound, *slot) {
                            (Bound::Minimum, Some(m)) => m.max(v),
                            (_, Some(m)) => m.min(v),
                            (_, None) => v,
                        };
                        *slot = Some(tighter);
                    }
                }
                Ok(Slot::Float(slot)) => {
                    if let Some(v) = as_f64(value) {
                        *slot = Some(v);
                    }
                }
                _ => {}
            }
        }
        if self.min_length.is_some() || self.max_length.is_some() {
            for (bound, value) in
                [(Bound::MinLength, self.min_length), (Bound::MaxLength, self.max_length)]
            {
                if let Ok(Slot::Count(slot)) = bound.slot(&mut schema.kind) {
                    *slot = value;
                }
            }
        }
        for (bound, value) in [(Bound::Pattern, self.pattern), (Bound::Format, self.format)] {
            if let (Some(value), Ok(Slot::Text(slot))) = (value, bound.slot(&mut schema.kind)) {
                *slot = Some(Cow::Borrowed(value));
            }
        }
        if !self.one_of.is_empty() && matches!(schema.kind, SchemaKind::String(_)) {
            let values = self.one_of.iter().map(|v| EnumValue::new(v)).collect();
            schema.kind = SchemaKind::Enum(EnumSchema { values: EnumValues::owned(values) });
        }
    }
}

impl ToolSpec {
    /// A tool's table: `name` checked in `const`, `text` packed by `tooldef-macros`, and one
    /// `(schema, optional)` pair per parameter.
    pub const fn new(
        name: ToolName,
        text: &'static str,
        types: &'static [(SchemaFn, bool)],
    ) -> Self {
        ToolSpec { name, text, types, built: std::sync::OnceLock::new() }
    }

    /// The descriptor, built on first use (what `Tool::descriptor` returns).
    pub fn descriptor(&'static self, output: Option<SchemaFn>) -> &'static ToolDescriptor {
        self.built.get_or_init(|| Box::new(self.describe(output)))
    }

    /// Builds the descriptor (generated code calls this once, in a `OnceLock`); `output` is
    /// the output type's schema function when it has one.
    pub fn describe(&self, output: Option<SchemaFn>) -> ToolDescriptor {
        let mut head = super::packed::ToolHead::default();
        let specs = super::packed::params(self.text, self.types, Some(&mut head));
        let mut cx = SchemaGen::new();
        let params: Vec<Param> = specs.into_iter().map(|p| p.build(&mut cx)).collect();
        let output = output.map(|f| SchemaRef::new(f(&mut cx)));
        let mut d = ToolDescriptor::with_name(self.name.clone());
        d.title = head.title.map(Cow::Borrowed);
        d.description = Cow::Borrowed(head.description);
        d.params = Cow::Owned(params);
        d.output = output;
        d.annotations = head.annotations;
        d.definitions = Cow::Owned(cx.into_definitions());
        d
    }
}

/// [`SchemaGen::named`] for a derived type, with a function rather than a closure type so
/// that the generic method is instantiated once here instead of once per derived type.
pub fn named(cx: &mut SchemaGen, key: &'static str, name: &'static str, build: SchemaFn) -> Schema {
    cx.named(key, name, build)
}

/// The value of a `#[param(default = ...)]` literal as the parameter's type.
///
/// # Panics
///
/// Never for a default the macro accepted: its JSON type, bounds and enum membership were
/// checked against the parameter type's [`Shape`] at compile time. A hand-written
/// `ToolSchema` whose `SHAPE` lies about its `Deserialize` can reach the panic.
pub fn default_value<T: DeserializeOwned>(literal: &Literal, param: &str) -> T {
    match serde_json::from_value(literal.to_json()) {
        Ok(v) => v,
        Err(e) => panic!("the default of parameter `{param}` does not decode: {e}"),
    }
}

/// The JSON type of a `#[param(default = ...)]` literal, with its value where checked
/// (see [`default_fit`]).
#[derive(Clone, Copy, Debug)]
pub enum DefaultLit {
    /// A string.
    Str(&'static str),
    /// An integer.
    Int(i64),
    /// A number with a fraction.
    Float,
    /// A boolean.
    Bool,
}

/// How a `#[param(...)]` literal fits the parameter type's [`Shape`], decided in `const`.
/// Generated code matches on it and panics, spanned at the literal, with a message that
/// names the parameter and its type; the message is the macro's, since only it knows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// The literal fits (or the shape is not checked at compile time).
    Fits,
    /// The type takes a string (or one of its enum values) and the literal is not one.
    NotString,
    /// The type takes an integer and the literal is not one.
    NotInteger,
    /// The type takes a number and the literal is not one.
    NotNumber,
    /// The type takes a boolean and the literal is not one.
    NotBoolean,
    /// The literal is below the smallest value of the integer type.
    BelowMin,
    /// The literal is above the largest value of the integer type.
    AboveMax,
    /// The type is an enum and the string is not one of its values.
    NotEnumValue,
}

/// How a default literal fits the parameter type's shape.
pub const fn default_fit(shape: Shape, default: DefaultLit) -> Fit {
    match (shape, default) {
        (Shape::Other, _)
        | (Shape::String, DefaultLit::Str(_))
        | (Shape::Float, DefaultLit::Int(_) | DefaultLit::Float)
        | (Shape::Boolean, DefaultLit::Bool) => Fit::Fits,
        (Shape::Integer { .. }, DefaultLit::Int(i)) => bound_fit(shape, i),
        (Shape::Enum(values), DefaultLit::Str(s)) => {
            let mut i = 0;
            while i < values.len() {
                if str_eq(values[i], s) {
                    return Fit::Fits;
                }
                i += 1;
            }
            Fit::NotEnumValue
        }
        (Shape::String | Shape::Enum(_), _) => Fit::NotString,
        (Shape::Integer { .. }, _) => Fit::NotInteger,
        (Shape::Float, _) => Fit::NotNumber,
        (Shape::Boolean, _) => Fit::NotBoolean,
    }
}

/// How an integer (a default, or a `range`/`min`/`max` bound rounded inwards) fits the
/// natural bounds of the parameter type; only integer shapes have any.
pub const fn bound_fit(shape: Shape, value: i64) -> Fit {
    match shape {
        Shape::Integer { min, .. } if (value as i128) < min => Fit::BelowMin,
        Shape::Integer { max, .. } if (value as i128) > max => Fit::AboveMax,
        _ => Fit::Fits,
    }
}

/// A type-level probe: `(&Probe::<T>::NEW).output_schema()` is `Some(T::schema)` when
/// `T: ToolSchema` and `None` otherwise (autoref specialization, for concrete `T` only).
pub struct Probe<T: ?Sized>(std::marker::PhantomData<fn() -> Box<T>>);

impl<T: ?Sized> Probe<T> {
    /// The probe.
    pub const NEW: Self = Probe(std::marker::PhantomData);
}

/// The branch of [`Probe`] for types with a schema.
pub trait HasSchema {
    /// `Some(schema function)`.
    fn output_schema(&self) -> Option<SchemaFn>;
}

impl<T: ToolSchema + ?Sized> HasSchema for Probe<T> {
    fn output_schema(&self) -> Option<SchemaFn> {
        Some(T::schema)
    }
}

/// The fallback branch of [`Probe`].
pub trait NoSchema {
    /// `None`.
    fn output_schema(&self) -> Option<SchemaFn>;
}

impl<T: ?Sized> NoSchema for &Probe<T> {
    fn output_schema(&self) -> Option<SchemaFn> {
        None
    }
}

/// The future of an `async` tool function, with its return value made a tool result
/// (one generic function instead of an `async` block per tool keeps expansions small).
pub async fn finish<F, R>(future: F) -> Result<R::Ok, ToolError>
where
    F: std::future::Future<Output = R>,
    R: super::ToolReturn,
{
    future.await.into_tool_result()
}

/// The result of a synchronous tool function, as a ready future.
pub fn ready<R: super::ToolReturn>(value: R) -> std::future::Ready<Result<R::Ok, ToolError>> {
    std::future::ready(value.into_tool_result())
}

/// Compiles only for string parameters (what `format` asserts).
pub fn is_text<T: super::TextCheck + ?Sized>() {}

/// How a derived object treats keys it does not list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unknown {
    /// Serde ignores them: accepted, and `additionalProperties` left unstated.
    Ignore,
    /// `#[serde(deny_unknown_fields)]`.
    Deny,
}

impl Unknown {
    /// What the object's schema says of other keys.
    ///
    /// A type that ignores other keys leaves `additionalProperties` [unstated](Additional::Unstated)
    /// rather than stating `true`: the type never asks for keys it does not list, so a strict
    /// renderer closes it without loss, and a lenient one writes nothing where `true` would
    /// restate JSON Schema's default in every request.
    const fn additional(self) -> Additional {
        match self {
            Unknown::Ignore => Additional::Unstated,
            Unknown::Deny => Additional::Closed,
        }
    }
}

/// An object from a packed table of fields (see `packed`) and their types; flattened
/// fields merge their properties in.
pub fn object(
    cx: &mut SchemaGen,
    text: &'static str,
    types: &'static [(SchemaFn, bool)],
    unknown: Unknown,
) -> Schema {
    let fields = super::packed::params(text, types, None);
    let mut base =
        ObjectSchema { properties: Cow::Owned(Vec::new()), additional: unknown.additional() };
    let mut alternatives: Vec<Schema> = Vec::new();
    for f in fields {
        if f.flatten {
            let inner = (f.schema)(cx);
            match inner.kind {
                SchemaKind::Object(o) => merge_into(&mut base, o),
                SchemaKind::AnyOf(a) => alternatives = a.variants.into_owned(),
                _ => {}
            }
        } else {
            base.properties.to_mut().push(f.build(cx));
        }
    }
    if alternatives.is_empty() {
        return Schema::of(SchemaKind::Object(base));
    }
    // A flattened enum: one object per variant, each merged with the struct's own fields.
    let variants = alternatives
        .into_iter()
        .map(|v| match v.kind {
            SchemaKind::Object(o) => {
                let mut merged = base.clone();
                merge_into(&mut merged, o);
                Schema { kind: SchemaKind::Object(merged), ..v }
            }
            _ => v,
        })
        .collect();
    Schema::any_of_owned(variants)
}

fn merge_into(base: &mut ObjectSchema, other: ObjectSchema) {
    base.properties.to_mut().extend(other.properties.iter().cloned());
    // Flattening hands unknown keys to the flattened type: its view of them wins.
    match other.additional {
        Additional::Typed(t) => base.additional = Additional::Typed(t),
        Additional::Open => base.additional = Additional::Open,
        Additional::Unstated if base.additional != Additional::Open => {
            base.additional = Additional::Unstated;
        }
        Additional::Unstated | Additional::Closed => {}
    }
}

/// The properties of `schema` merged into `tag` (an internally tagged variant).
pub fn tagged(tag: Param, schema: Schema, unknown: Unknown) -> Schema {
    let additional = unknown.additional();
    let mut base = ObjectSchema { properties: Cow::Owned(vec![tag]), additional };
    match schema.kind {
        SchemaKind::Object(o) => {
            merge_into(&mut base, o);
            Schema { kind: SchemaKind::Object(base), ..schema }
        }
        SchemaKind::AnyOf(AnyOfSchema { variants, .. }) => Schema::any_of_owned(
            variants
                .iter()
                .map(|v| tagged(base.properties[0].clone(), v.clone(), unknown))
                .collect(),
        ),
        _ => Schema { kind: SchemaKind::Object(base), ..schema },
    }
}

/// An object with the given properties and unknown-key policy.
pub fn object_of(properties: Vec<Param>, unknown: Unknown) -> Schema {
    Schema::of(SchemaKind::Object(ObjectSchema {
        properties: Cow::Owned(properties),
        additional: unknown.additional(),
    }))
}

/// A one-value enum (a tag or a unit variant's name).
pub fn constant(value: &'static str, description: Option<&'static str>) -> Schema {
    let v = EnumValue { value: Scalar::str(value), description: description.map(Cow::Borrowed) };
    Schema::of(SchemaKind::Enum(EnumSchema { values: EnumValues::owned(vec![v]) }))
}

/// A required property.
pub fn prop(name: &'static str, schema: Schema) -> Param {
    Param::named(name, schema)
}

/// An enum from a packed table of values and their descriptions (see `packed`).
pub fn packed_enum(text: &'static str) -> Schema {
    let values = super::packed::enum_values(text);
    Schema::of(SchemaKind::Enum(EnumSchema { values: EnumValues::owned(values) }))
}

/// A union.
pub fn any_of(variants: Vec<Schema>) -> Schema {
    Schema::any_of_owned(variants)
}

/// Sets a description when there is one.
pub fn describe(mut schema: Schema, description: Option<&'static str>) -> Schema {
    if let Some(d) = description {
        schema.description = Some(Cow::Borrowed(d));
    }
    schema
}

#[cfg(test)]
mod tests {
    use super::{DefaultLit, Fit, bound_fit, default_fit};
    use crate::tool_schema::{Shape, ToolSchema};

    /// Both ends of every integer type, one past them, as `i64` bounds (what the macro emits).
    fn ends<T: ToolSchema>(min: i128, max: i128) {
        let shape = T::SHAPE;
        let name = std::any::type_name::<T>();
        let cases = [
            (Some(min), Fit::Fits),
            (Some(max), Fit::Fits),
            (min.checked_sub(1), Fit::BelowMin),
            (max.checked_add(1), Fit::AboveMax),
        ];
        for (value, fit) in cases {
            let Some(Ok(v)) = value.map(i64::try_from) else { continue };
            assert_eq!(bound_fit(shape, v), fit, "{name} {v}");
            assert_eq!(default_fit(shape, DefaultLit::Int(v)), fit, "{name} {v}");
        }
    }

    #[test]
    fn integer_bounds_fit_their_type_at_both_ends() {
        macro_rules! each {
            ($($t:ty),*) => {$( ends::<$t>(<$t>::MIN as i128, i128::try_from(<$t>::MAX).unwrap_or(i128::MAX)); )*};
        }
        each!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);
        assert_eq!(bound_fit(<u8>::SHAPE, 300), Fit::AboveMax);
        assert_eq!(bound_fit(<Option<u8>>::SHAPE, 300), Fit::AboveMax);
        assert_eq!(bound_fit(<f64>::SHAPE, 1_000_000), Fit::Fits);
        assert_eq!(default_fit(<u128>::SHAPE, DefaultLit::Int(i64::MAX)), Fit::Fits);
    }

    #[test]
    fn defaults_of_the_wrong_json_type_are_named() {
        assert_eq!(default_fit(<u32>::SHAPE, DefaultLit::Str("ten")), Fit::NotInteger);
        assert_eq!(default_fit(<u32>::SHAPE, DefaultLit::Float), Fit::NotInteger);
        assert_eq!(default_fit(<String>::SHAPE, DefaultLit::Int(3)), Fit::NotString);
        assert_eq!(default_fit(<f64>::SHAPE, DefaultLit::Bool), Fit::NotNumber);
        assert_eq!(default_fit(<f64>::SHAPE, DefaultLit::Int(3)), Fit::Fits);
        assert_eq!(default_fit(<bool>::SHAPE, DefaultLit::Str("yes")), Fit::NotBoolean);
        let unit = Shape::Enum(&["celsius", "fahrenheit"]);
        assert_eq!(default_fit(unit, DefaultLit::Str("kelvin")), Fit::NotEnumValue);
        assert_eq!(default_fit(unit, DefaultLit::Str("celsius")), Fit::Fits);
        assert_eq!(default_fit(unit, DefaultLit::Int(1)), Fit::NotString);
        assert_eq!(default_fit(<Vec<u8>>::SHAPE, DefaultLit::Str("x")), Fit::Fits);
    }
}
