//! [`Param`]: one named property of an object schema, and so one parameter of a tool.
//!
//! It lives in the schema layer because [`ObjectSchema`](super::ObjectSchema) holds its
//! properties as `Param`s; the descriptor uses it for its parameters and re-exports it where
//! users find it (`tooldef::Param`, `tooldef::descriptor::Param`). The setters record a misuse
//! instead of checking; `validate` reports it.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::{Bound, EnumValue, Schema, Slot, put, text_str};
use crate::literal::{Literal, Text};

/// One property of an object, and in particular one parameter of a tool.
///
/// Three facts are kept apart: [`required`](Param::required) (the key must be present),
/// [`nullable`](Schema::nullable) (`null` is an accepted value) and
/// [`default`](Schema::default) (the value used when the key is absent). The last two live on
/// the schema, so that list items and union variants can carry them too.
///
/// ```
/// use tooldef::{Literal, Param};
///
/// const DAYS: Param = Param::integer("days").range(1, 10).default(Literal::Int(3));
/// assert!(!DAYS.required); // a default makes the key optional...
/// assert!(!DAYS.schema.nullable); // ...but does not make `null` acceptable
///
/// const NOTE: Param = Param::string("note").nullable();
/// assert!(NOTE.required && NOTE.schema.nullable); // present, and possibly `null`
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The property name, as the model sends it.
    pub name: Text,
    /// What values are accepted, with description and default.
    pub schema: Schema,
    /// Whether the key must be present.
    #[serde(default = "yes")]
    pub required: bool,
    /// A builder method that does not apply to the schema's kind, reported by validation.
    #[serde(skip)]
    pub(crate) misuse: Option<&'static str>,
}

fn yes() -> bool {
    true
}

impl Param {
    /// A required parameter with the given schema.
    pub const fn new(name: &'static str, schema: Schema) -> Self {
        Param { name: Cow::Borrowed(name), schema, required: true, misuse: None }
    }

    /// A required parameter whose name is computed at run time.
    pub fn named(name: impl Into<Text>, schema: Schema) -> Self {
        Param { name: name.into(), schema, required: true, misuse: None }
    }

    /// A required string parameter.
    pub const fn string(name: &'static str) -> Self {
        Param::new(name, Schema::string())
    }

    /// A required integer parameter.
    pub const fn integer(name: &'static str) -> Self {
        Param::new(name, Schema::integer())
    }

    /// A required number parameter.
    pub const fn float(name: &'static str) -> Self {
        Param::new(name, Schema::float())
    }

    /// A required boolean parameter.
    pub const fn boolean(name: &'static str) -> Self {
        Param::new(name, Schema::boolean())
    }

    /// A required parameter taking one of the given strings.
    pub const fn enumeration(name: &'static str, values: &'static [&'static str]) -> Self {
        Param::new(name, Schema::enumeration(values))
    }

    /// A required parameter taking one of the given strings, each with a description.
    pub const fn enumeration_described(name: &'static str, values: &'static [EnumValue]) -> Self {
        Param::new(name, Schema::enumeration_described(values))
    }

    /// A required array parameter.
    pub const fn list(name: &'static str, items: &'static Schema) -> Self {
        Param::new(name, Schema::list(items))
    }

    /// A required object parameter with the given properties (closed).
    pub const fn object(name: &'static str, properties: &'static [Param]) -> Self {
        Param::new(name, Schema::object(properties))
    }

    /// A required open object parameter: the given properties and any other key (see
    /// [`Schema::open_object`]).
    pub const fn open_object(name: &'static str, properties: &'static [Param]) -> Self {
        Param::new(name, Schema::open_object(properties))
    }

    /// The property name (usable in `const`).
    pub const fn name(&self) -> &str {
        text_str(&self.name)
    }

    /// The description, if any.
    pub fn description_text(&self) -> Option<&str> {
        self.schema.description.as_deref()
    }

    /// The default, if any.
    pub fn default_value(&self) -> Option<&Literal> {
        self.schema.default.as_ref()
    }

    /// Whether `null` is accepted.
    pub const fn is_nullable(&self) -> bool {
        self.schema.nullable
    }

    /// Sets the description.
    pub const fn description(mut self, description: &'static str) -> Self {
        put(&mut self.schema.description, Some(Cow::Borrowed(description)));
        self
    }

    /// Sets the title.
    pub const fn title(mut self, title: &'static str) -> Self {
        put(&mut self.schema.title, Some(Cow::Borrowed(title)));
        self
    }

    /// The key may be absent.
    pub const fn optional(mut self) -> Self {
        self.required = false;
        self
    }

    /// The key must be present (the default).
    pub const fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// `null` is accepted besides the kind's values.
    pub const fn nullable(mut self) -> Self {
        self.schema.nullable = true;
        self
    }

    /// Sets the default value; the key becomes optional.
    pub const fn default(mut self, value: Literal) -> Self {
        put(&mut self.schema.default, Some(value));
        self.required = false;
        self
    }

    /// Sets a string default; the key becomes optional.
    pub const fn default_str(self, value: &'static str) -> Self {
        self.default(Literal::Str(Cow::Borrowed(value)))
    }

    /// Sets an integer default; the key becomes optional.
    pub const fn default_int(self, value: i64) -> Self {
        self.default(Literal::Int(value))
    }

    /// Sets a number default; the key becomes optional.
    pub const fn default_float(self, value: f64) -> Self {
        self.default(Literal::Float(value))
    }

    /// Sets a boolean default; the key becomes optional.
    pub const fn default_bool(self, value: bool) -> Self {
        self.default(Literal::Bool(value))
    }

    /// Sets example values.
    pub const fn examples(mut self, examples: &'static [Literal]) -> Self {
        put(&mut self.schema.examples, Cow::Borrowed(examples));
        self
    }

    /// Inclusive bounds of an integer or number parameter.
    pub const fn range(self, min: i64, max: i64) -> Self {
        const MISUSE: &str = "`range` applies only to integer and number parameters";
        self.number(Bound::Minimum, Some(min), MISUSE).number(Bound::Maximum, Some(max), MISUSE)
    }

    /// Inclusive lower bound of an integer or number parameter.
    pub const fn min(self, min: i64) -> Self {
        self.number(
            Bound::Minimum,
            Some(min),
            "`min` applies only to integer and number parameters",
        )
    }

    /// Inclusive upper bound of an integer or number parameter.
    pub const fn max(self, max: i64) -> Self {
        self.number(
            Bound::Maximum,
            Some(max),
            "`max` applies only to integer and number parameters",
        )
    }

    /// Inclusive fractional bounds of a number parameter.
    pub const fn range_f64(self, min: f64, max: f64) -> Self {
        const MISUSE: &str = "`range_f64` applies only to number parameters";
        self.fraction(Bound::Minimum, min, MISUSE).fraction(Bound::Maximum, max, MISUSE)
    }

    /// Exclusive bounds of an integer or number parameter (`None` leaves a side open).
    pub const fn exclusive_range(self, min: Option<i64>, max: Option<i64>) -> Self {
        const MISUSE: &str = "`exclusive_range` applies only to integer and number parameters";
        self.number(Bound::ExclusiveMinimum, min, MISUSE).number(
            Bound::ExclusiveMaximum,
            max,
            MISUSE,
        )
    }

    /// The value must be a multiple of `step` (integer or number parameters).
    pub const fn multiple_of(self, step: i64) -> Self {
        self.number(
            Bound::MultipleOf,
            Some(step),
            "`multiple_of` applies only to integer and number parameters",
        )
    }

    /// Length bounds of a string, or item-count bounds of a list.
    pub const fn length(self, min: u64, max: u64) -> Self {
        const MISUSE: &str = "`length` applies only to string and list parameters";
        self.count(Bound::MinLength, min, MISUSE).count(Bound::MaxLength, max, MISUSE)
    }

    /// Minimum length of a string, or minimum item count of a list.
    pub const fn min_length(self, min: u64) -> Self {
        self.count(Bound::MinLength, min, "`min_length` applies only to string and list parameters")
    }

    /// Maximum length of a string, or maximum item count of a list.
    pub const fn max_length(self, max: u64) -> Self {
        self.count(Bound::MaxLength, max, "`max_length` applies only to string and list parameters")
    }

    /// A regular expression a string must match.
    pub const fn pattern(self, pattern: &'static str) -> Self {
        self.text(Bound::Pattern, pattern, "`pattern` applies only to string parameters")
    }

    /// A format name (`date-time`, `email`, `uuid`...) of a string.
    pub const fn format(self, format: &'static str) -> Self {
        self.text(Bound::Format, format, "`format` applies only to string parameters")
    }

    /// List items must be distinct.
    pub const fn unique(mut self) -> Self {
        match Bound::Unique.slot(&mut self.schema.kind) {
            Ok(Slot::Flag(unique)) => *unique = true,
            _ => self.misuse = Some("`unique` applies only to list parameters"),
        }
        self
    }

    /// Sets an integer bound on an integer or number schema (an integer bound converts to a
    /// number), or records `misuse`.
    const fn number(mut self, bound: Bound, value: Option<i64>, misuse: &'static str) -> Self {
        match bound.slot(&mut self.schema.kind) {
            Ok(Slot::Int(slot)) => *slot = value,
            Ok(Slot::Float(slot)) => {
                *slot = match value {
                    Some(v) => Some(v as f64),
                    None => None,
                }
            }
            _ => self.misuse = Some(misuse),
        }
        self
    }

    /// Sets a fractional bound on a number schema, or records `misuse`.
    const fn fraction(mut self, bound: Bound, value: f64, misuse: &'static str) -> Self {
        match bound.slot(&mut self.schema.kind) {
            Ok(Slot::Float(slot)) => *slot = Some(value),
            _ => self.misuse = Some(misuse),
        }
        self
    }

    /// Sets a length or item count on a string or list schema, or records `misuse`.
    const fn count(mut self, bound: Bound, value: u64, misuse: &'static str) -> Self {
        match bound.slot(&mut self.schema.kind) {
            Ok(Slot::Count(slot)) => *slot = Some(value),
            _ => self.misuse = Some(misuse),
        }
        self
    }

    /// Sets a pattern or format on a string schema, or records `misuse`.
    const fn text(mut self, bound: Bound, value: &'static str, misuse: &'static str) -> Self {
        match bound.slot(&mut self.schema.kind) {
            Ok(Slot::Text(slot)) => put(slot, Some(Cow::Borrowed(value))),
            _ => self.misuse = Some(misuse),
        }
        self
    }

    /// The builder-method misuse recorded on this parameter, if any.
    pub const fn misuse(&self) -> Option<&'static str> {
        self.misuse
    }
}
