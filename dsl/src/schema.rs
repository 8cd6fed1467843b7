//! The schema half of the IR: [`Schema`], its [`SchemaKind`]s and their constraints.
//!
//! Owns the data types and their `const` constructors and setters. Setters never panic and never
//! check: every rule lives in `rules`, so that the same checks run at compile time
//! (const descriptors) and at run time (dynamic descriptors). Conversion to and from JSON Schema
//! lives in [`crate::json_schema`].
//!
//! This file holds the schema tree itself (the kinds, their constraint structs, [`SchemaRef`],
//! [`Definition`]); the values an enum lists are in `scalar.rs` (one value and JSON Schema
//! equality) and `enum_values.rs` (the list), a property of an object in `param.rs`, and which
//! kind carries which bound in `bound.rs`.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub(crate) use crate::literal::text_str;
use crate::literal::{Literal, Text};

mod bound;
mod enum_values;
// Shared with `tooldef-macros`, which checks a `#[param]` default and bound with it.
#[allow(unreachable_pub)]
mod number_bounds;
mod param;
mod scalar;

pub(crate) use bound::{Bound, Slot};
pub use enum_values::{EnumValue, EnumValues};
pub(crate) use number_bounds::{Bounds, Broken, lower_int, upper_int};
pub use param::Param;
pub(crate) use scalar::str_eq;
pub use scalar::{Scalar, ScalarRef};

/// A schema: one kind with its constraints, plus the annotations every kind may carry.
///
/// ```
/// use serde_json::json;
/// use tooldef::{Schema, SchemaKind, export_schema};
///
/// static TAG: Schema = Schema::string().description("A label.");
/// static TAGS: Schema = Schema::list(&TAG).nullable();
/// assert!(matches!(TAGS.kind, SchemaKind::List(_)));
/// assert_eq!(
///     export_schema(&TAGS, &[]),
///     json!({"type": ["array", "null"], "items": {"type": "string", "description": "A label."}})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schema {
    /// What values are accepted.
    pub kind: SchemaKind,
    /// Whether `null` is accepted besides the values of `kind`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub nullable: bool,
    /// A short title (annotation only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Text>,
    /// What the value means, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<Text>,
    /// The value used when the key is absent (`null` is a default like any other: it reads
    /// back as `Some(Literal::Null)`, not as no default).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::literal::present"
    )]
    pub default: Option<Literal>,
    /// Example values (annotation only).
    #[serde(default, skip_serializing_if = "<[Literal]>::is_empty")]
    pub examples: Cow<'static, [Literal]>,
    /// Keywords an import could not type, kept verbatim in document order (see [`Kept`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<Kept>,
}

/// A JSON Schema keyword that changes what is valid and that the IR cannot type (`not`, `if`,
/// `patternProperties`, `prefixItems`...), kept verbatim by import; and a `default` that its
/// own schema rejects (`"default": null` on a plain string, a sentinel outside its enum), which
/// is still the author's word to the model but is never applied (the applicable default is
/// [`Schema::default`], which wins where both are set).
///
/// The typed part of the schema still says what the IR knows (an object's properties, an array's
/// items); the kept keywords add to it. Renderers whose provider takes full JSON Schema write
/// them as they are; the others lower them into the description as a lossy reported change
/// ([`Pass::KeptInText`](crate::render::Pass::KeptInText)), which
/// [`LossPolicy::Refuse`](crate::LossPolicy::Refuse) refuses (a kept `default`, an annotation,
/// goes into the description as a lossless one). What dispatch enforces of each is listed in
/// [`crate::json_schema`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Kept {
    /// The keyword, as spelled in the imported schema.
    pub keyword: Text,
    /// Its value, as it was.
    pub value: serde_json::Value,
}

impl Kept {
    /// A kept keyword.
    pub fn new(keyword: impl Into<Text>, value: serde_json::Value) -> Self {
        Kept { keyword: keyword.into(), value }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// The kinds of schema the IR expresses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SchemaKind {
    /// A string.
    String(StringSchema),
    /// A whole number.
    Integer(IntegerSchema),
    /// Any number.
    Float(FloatSchema),
    /// `true` or `false`.
    Boolean,
    /// Only `null`.
    Null,
    /// Any JSON value (`{}` in JSON Schema): what `serde_json::Value` accepts.
    Any,
    /// One of a fixed set of scalar values (strings, integers, numbers, booleans).
    Enum(EnumSchema),
    /// An array.
    List(ListSchema),
    /// An object with named, ordered properties.
    Object(ObjectSchema),
    /// Any of several schemas.
    AnyOf(AnyOfSchema),
    /// A reference to a named definition of the descriptor (see
    /// [`ToolDescriptor::definitions`](crate::ToolDescriptor::definitions)).
    Ref(RefSchema),
}

/// Constraints of a string.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StringSchema {
    /// A format name such as `date-time`, `email` or `uuid`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<Text>,
    /// A regular expression (ECMA-262 dialect, unanchored) the value must match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<Text>,
    /// Minimum length in characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_length: Option<u64>,
    /// Maximum length in characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_length: Option<u64>,
}

/// Constraints of a number; `T` is `i64` for integers and `f64` for floats.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NumberSchema<T> {
    /// Inclusive lower bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimum: Option<T>,
    /// Inclusive upper bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maximum: Option<T>,
    /// Exclusive lower bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusive_minimum: Option<T>,
    /// Exclusive upper bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusive_maximum: Option<T>,
    /// The value must be a multiple of this (strictly positive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiple_of: Option<T>,
    /// A format name. On an integer, `int32` and `int64` (what import keeps) mean the bounds
    /// of a signed 32- or 64-bit integer: a renderer whose provider takes the format writes it,
    /// the others write those bounds, with the schema's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<Text>,
}

/// The inclusive range an integer `format` means: `int32` is -2^31..=2^31-1, `int64`
/// -2^63..=2^63-1; `None` for any other format.
pub(crate) const fn int_format_range(format: &str) -> Option<(i64, i64)> {
    if str_eq(format, "int32") {
        Some((i32::MIN as i64, i32::MAX as i64))
    } else if str_eq(format, "int64") {
        Some((i64::MIN, i64::MAX))
    } else {
        None
    }
}

/// Constraints of an integer.
pub type IntegerSchema = NumberSchema<i64>;
/// Constraints of a float.
pub type FloatSchema = NumberSchema<f64>;

/// An enum: one of a fixed list of strings, integers, numbers or booleans (plus `null` when the
/// schema is [`nullable`](Schema::nullable)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumSchema {
    /// The allowed values, in order.
    pub values: EnumValues,
}

/// An array.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListSchema {
    /// The schema of every item.
    pub items: SchemaRef,
    /// Minimum number of items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_items: Option<u64>,
    /// Maximum number of items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items: Option<u64>,
    /// Whether items must be distinct.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unique: bool,
}

/// What an object says about keys it does not list.
///
/// *Unstated is not open*: JSON Schema reads an absent `additionalProperties` as "any other key",
/// and dispatch accepts other keys there as JSON Schema says, but no tool author who leaves the
/// keyword out means "send keys I did not describe". So a renderer that must close objects
/// (every strict mode) closes an [`Unstated`](Additional::Unstated) object as a lossless
/// reported change, while closing a stated [`Open`](Additional::Open) object or a
/// [`Typed`](Additional::Typed) map loses meaning. Objects built with the builder DSL are
/// [`Closed`](Additional::Closed); a derived type is `Closed` under
/// `#[serde(deny_unknown_fields)]` and `Unstated` otherwise (serde ignores other keys, and the
/// type never asks for them); import produces `Unstated` where the keyword is absent.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Additional {
    /// No other keys are accepted (`additionalProperties: false`).
    #[default]
    Closed,
    /// The schema does not say (`additionalProperties` absent): other keys are accepted, as in
    /// JSON Schema, and export writes no keyword.
    Unstated,
    /// Any other key is accepted (stated `additionalProperties: true` or `{}`).
    Open,
    /// Other keys are accepted when their value matches the schema (a map).
    Typed(SchemaRef),
}

/// An object with named properties, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectSchema {
    /// The properties, in order; each says whether it is required.
    pub properties: Cow<'static, [Param]>,
    /// What is accepted beyond `properties`.
    #[serde(default)]
    pub additional: Additional,
}

/// A union: a value is valid when it matches at least one variant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnyOfSchema {
    /// The variants, in order.
    pub variants: Cow<'static, [Schema]>,
    /// How the variants combine: `anyOf`, or an imported `oneOf`.
    #[serde(default, skip_serializing_if = "Combine::is_any_of")]
    pub combine: Combine,
}

/// How the variants of a union combine.
///
/// Built in Rust, a union is always [`AnyOf`](Combine::AnyOf). Import keeps the `oneOf` spelling
/// so that an import followed by an export gives back the same schema, and says whether the
/// variants can overlap: a `oneOf` whose variants exclude each other means the same as `anyOf`
/// (renderers lower it without a report), one whose variants may overlap does not (lowering it
/// to `anyOf` is a lossy reported change, and dispatch checks that exactly one variant matches).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Combine {
    /// At least one variant matches (`anyOf`).
    #[default]
    AnyOf,
    /// Exactly one variant matches (`oneOf`), and no value can match two: the same as `anyOf`.
    OneOfDisjoint,
    /// Exactly one variant matches (`oneOf`), and some value may match two.
    OneOf,
}

impl Combine {
    /// Whether this is plain `anyOf`.
    pub const fn is_any_of(&self) -> bool {
        matches!(self, Combine::AnyOf)
    }

    /// Whether the schema spells it `oneOf`.
    pub const fn is_one_of(&self) -> bool {
        !self.is_any_of()
    }
}

/// A reference to a named definition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RefSchema {
    /// The definition's name.
    pub name: Text,
}

/// A named schema that [`SchemaKind::Ref`] points at; how recursive types are expressed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Definition {
    /// The name references use.
    pub name: Text,
    /// The schema.
    pub schema: Schema,
}

impl Definition {
    /// A definition (usable in `const`).
    pub const fn new(name: &'static str, schema: Schema) -> Self {
        Definition { name: Cow::Borrowed(name), schema }
    }

    /// A definition whose name is computed at run time.
    pub fn named(name: impl Into<Text>, schema: Schema) -> Self {
        Definition { name: name.into(), schema }
    }
}

/// A pointer to a nested schema: `&'static` in `const` descriptors, boxed at run time.
#[derive(Clone)]
pub struct SchemaRef(RefRepr);

#[derive(Clone)]
enum RefRepr {
    Static(&'static Schema),
    Owned(Box<Schema>),
}

impl SchemaRef {
    /// Points at a schema with `'static` lifetime (usable in `const`).
    pub const fn from_static(schema: &'static Schema) -> Self {
        SchemaRef(RefRepr::Static(schema))
    }

    /// Owns a schema built at run time.
    pub fn new(schema: Schema) -> Self {
        SchemaRef(RefRepr::Owned(Box::new(schema)))
    }

    /// The schema (usable in `const`, but only for static references).
    pub const fn get(&self) -> &Schema {
        match &self.0 {
            RefRepr::Static(s) => s,
            RefRepr::Owned(b) => b,
        }
    }

    /// Mutable access; a static schema is cloned first.
    pub fn make_mut(&mut self) -> &mut Schema {
        if let RefRepr::Static(s) = self.0 {
            self.0 = RefRepr::Owned(Box::new(s.clone()));
        }
        match &mut self.0 {
            RefRepr::Owned(b) => b,
            RefRepr::Static(_) => unreachable!("converted to owned above"),
        }
    }
}

impl Deref for SchemaRef {
    type Target = Schema;

    fn deref(&self) -> &Schema {
        self.get()
    }
}

impl From<Schema> for SchemaRef {
    fn from(schema: Schema) -> Self {
        SchemaRef::new(schema)
    }
}

impl PartialEq for SchemaRef {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}

impl fmt::Debug for SchemaRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

impl Serialize for SchemaRef {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SchemaRef {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Schema::deserialize(deserializer).map(SchemaRef::new)
    }
}

/// Replaces `slot` with `value` in `const` context, where the old value cannot be dropped.
///
/// Every `const` setter goes through this: assigning would run the old value's destructor,
/// which `const fn` cannot do. The old value always came from a constructor of this crate, so
/// forgetting it leaks nothing that was allocated in `const`; at run time a setter called twice
/// leaks the first owned value, which is why the run-time setters of [`crate::builder`] assign
/// normally instead.
pub(crate) const fn put<T>(slot: &mut T, value: T) {
    std::mem::forget(std::mem::replace(slot, value));
}

impl Schema {
    /// A schema of the given kind with no annotations.
    pub const fn of(kind: SchemaKind) -> Self {
        Schema {
            kind,
            nullable: false,
            title: None,
            description: None,
            default: None,
            examples: Cow::Borrowed(&[]),
            kept: Vec::new(),
        }
    }

    /// Any string.
    pub const fn string() -> Self {
        Schema::of(SchemaKind::String(StringSchema {
            format: None,
            pattern: None,
            min_length: None,
            max_length: None,
        }))
    }

    /// Any integer.
    pub const fn integer() -> Self {
        Schema::of(SchemaKind::Integer(NumberSchema::NONE_I64))
    }

    /// Any number.
    pub const fn float() -> Self {
        Schema::of(SchemaKind::Float(NumberSchema::NONE_F64))
    }

    /// `true` or `false`.
    pub const fn boolean() -> Self {
        Schema::of(SchemaKind::Boolean)
    }

    /// Only `null`.
    pub const fn null() -> Self {
        Schema::of(SchemaKind::Null)
    }

    /// Any JSON value.
    pub const fn any() -> Self {
        Schema::of(SchemaKind::Any)
    }

    /// One of the given strings.
    pub const fn enumeration(values: &'static [&'static str]) -> Self {
        Schema::of(SchemaKind::Enum(EnumSchema { values: EnumValues::plain(values) }))
    }

    /// One of the given values, each with an optional description; the values may be strings,
    /// integers, numbers or booleans ([`EnumValue::scalar`]).
    pub const fn enumeration_described(values: &'static [EnumValue]) -> Self {
        Schema::of(SchemaKind::Enum(EnumSchema { values: EnumValues::described(values) }))
    }

    /// An array of `items`.
    pub const fn list(items: &'static Schema) -> Self {
        Schema::of(SchemaKind::List(ListSchema {
            items: SchemaRef::from_static(items),
            min_items: None,
            max_items: None,
            unique: false,
        }))
    }

    /// An array of `items`, built at run time.
    pub fn list_of(items: Schema) -> Self {
        Schema::of(SchemaKind::List(ListSchema {
            items: SchemaRef::new(items),
            min_items: None,
            max_items: None,
            unique: false,
        }))
    }

    /// A closed object with the given properties.
    pub const fn object(properties: &'static [Param]) -> Self {
        Schema::of(SchemaKind::Object(ObjectSchema {
            properties: Cow::Borrowed(properties),
            additional: Additional::Closed,
        }))
    }

    /// A closed object with properties built at run time.
    pub fn object_of(properties: Vec<Param>) -> Self {
        Schema::of(SchemaKind::Object(ObjectSchema {
            properties: Cow::Owned(properties),
            additional: Additional::Closed,
        }))
    }

    /// An open object: the given properties, and any other key with any value
    /// (`additionalProperties: true`). Usable in `const`, like [`Schema::object`].
    ///
    /// ```
    /// use tooldef::{Additional, Param, Schema, SchemaKind};
    ///
    /// const METADATA: Schema =
    ///     Schema::open_object(const { &[Param::string("source").optional()] })
    ///         .description("Free-form metadata.");
    /// let SchemaKind::Object(object) = &METADATA.kind else { unreachable!() };
    /// assert_eq!(object.additional, Additional::Open);
    /// ```
    pub const fn open_object(properties: &'static [Param]) -> Self {
        Schema::of(SchemaKind::Object(ObjectSchema {
            properties: Cow::Borrowed(properties),
            additional: Additional::Open,
        }))
    }

    /// An open object with properties built at run time (see [`Schema::open_object`]).
    pub fn open_object_of(properties: Vec<Param>) -> Self {
        Schema::of(SchemaKind::Object(ObjectSchema {
            properties: Cow::Owned(properties),
            additional: Additional::Open,
        }))
    }

    /// A map from string keys to values of `values`.
    pub const fn map(values: &'static Schema) -> Self {
        Schema::of(SchemaKind::Object(ObjectSchema {
            properties: Cow::Borrowed(&[]),
            additional: Additional::Typed(SchemaRef::from_static(values)),
        }))
    }

    /// Any of the given variants.
    pub const fn any_of(variants: &'static [Schema]) -> Self {
        Schema::of(SchemaKind::AnyOf(AnyOfSchema {
            variants: Cow::Borrowed(variants),
            combine: Combine::AnyOf,
        }))
    }

    /// Any of the given variants, built at run time.
    pub fn any_of_owned(variants: Vec<Schema>) -> Self {
        Schema::of(SchemaKind::AnyOf(AnyOfSchema {
            variants: Cow::Owned(variants),
            combine: Combine::AnyOf,
        }))
    }

    /// A reference to the definition `name`.
    pub const fn reference(name: &'static str) -> Self {
        Schema::of(SchemaKind::Ref(RefSchema { name: Cow::Borrowed(name) }))
    }

    /// A reference to a definition whose name is computed at run time.
    pub fn reference_to(name: impl Into<Text>) -> Self {
        Schema::of(SchemaKind::Ref(RefSchema { name: name.into() }))
    }

    /// Sets the description.
    pub const fn description(mut self, description: &'static str) -> Self {
        put(&mut self.description, Some(Cow::Borrowed(description)));
        self
    }

    /// Sets the title.
    pub const fn title(mut self, title: &'static str) -> Self {
        put(&mut self.title, Some(Cow::Borrowed(title)));
        self
    }

    /// Accepts `null` besides the kind's values.
    pub const fn nullable(mut self) -> Self {
        self.nullable = true;
        self
    }

    /// Sets the default value.
    pub const fn default(mut self, value: Literal) -> Self {
        put(&mut self.default, Some(value));
        self
    }

    /// Sets example values.
    pub const fn examples(mut self, examples: &'static [Literal]) -> Self {
        put(&mut self.examples, Cow::Borrowed(examples));
        self
    }

    /// The short JSON type name of the kind, for messages (`"string"`, `"integer"`...).
    pub const fn type_name(&self) -> &'static str {
        self.kind.type_name()
    }
}

impl SchemaKind {
    /// The short JSON type name, for messages (`"string"`, `"integer"`...).
    pub const fn type_name(&self) -> &'static str {
        match self {
            SchemaKind::String(_) => "string",
            SchemaKind::Integer(_) => "integer",
            SchemaKind::Float(_) => "number",
            SchemaKind::Boolean => "boolean",
            SchemaKind::Null => "null",
            SchemaKind::Any => "any value",
            SchemaKind::Enum(_) => "enum",
            SchemaKind::List(_) => "array",
            SchemaKind::Object(_) => "object",
            SchemaKind::AnyOf(_) => "anyOf",
            SchemaKind::Ref(_) => "$ref",
        }
    }
}

impl<T: Copy> NumberSchema<T> {
    /// Its bounds, which [`Bounds`] judges a value against.
    pub(crate) const fn bounds(&self) -> Bounds<T> {
        Bounds {
            minimum: self.minimum,
            maximum: self.maximum,
            exclusive_minimum: self.exclusive_minimum,
            exclusive_maximum: self.exclusive_maximum,
            multiple_of: self.multiple_of,
        }
    }
}

impl NumberSchema<i64> {
    /// No constraint.
    pub const NONE_I64: Self = NumberSchema {
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        multiple_of: None,
        format: None,
    };
}

impl NumberSchema<f64> {
    /// No constraint.
    pub const NONE_F64: Self = NumberSchema {
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        multiple_of: None,
        format: None,
    };
}
