//! [`Param`]: one named property of an object schema, and so one parameter of a tool.
//!
//! It lives in the schema layer because [`ObjectSchema`](super::ObjectSchema) holds its
//! properties as `Param`s; the descriptor uses it for its parameters and re-exports it where
//! users find it (`tooldef::Param`, `tooldef::descriptor::Param`). The setters record a misuse
//! instead of checking; `validate` reports it.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::{EnumValue, Schema, SchemaKind, put, text_str};
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
    pub const fn range(mut self, min: i64, max: i64) -> Self {
        match &mut self.schema.kind {
            SchemaKind::Integer(n) => {
                n.minimum = Some(min);
                n.maximum = Some(max);
            }
            SchemaKind::Float(n) => {
                n.minimum = Some(min as f64);
                n.maximum = Some(max as f64);
            }
            _ => self.misuse = Some("`range` applies only to integer and number parameters"),
        }
        self
    }

    /// Inclusive lower bound of an integer or number parameter.
    pub const fn min(mut self, min: i64) -> Self {
        match &mut self.schema.kind {
            SchemaKind::Integer(n) => n.minimum = Some(min),
            SchemaKind::Float(n) => n.minimum = Some(min as f64),
            _ => self.misuse = Some("`min` applies only to integer and number parameters"),
        }
        self
    }

    /// Inclusive upper bound of an integer or number parameter.
    pub const fn max(mut self, max: i64) -> Self {
        match &mut self.schema.kind {
            SchemaKind::Integer(n) => n.maximum = Some(max),
            SchemaKind::Float(n) => n.maximum = Some(max as f64),
            _ => self.misuse = Some("`max` applies only to integer and number parameters"),
        }
        self
    }

    /// Inclusive fractional bounds of a number parameter.
    pub const fn range_f64(mut self, min: f64, max: f64) -> Self {
        match &mut self.schema.kind {
            SchemaKind::Float(n) => {
                n.minimum = Some(min);
                n.maximum = Some(max);
            }
            _ => self.misuse = Some("`range_f64` applies only to number parameters"),
        }
        self
    }

    /// Exclusive bounds of an integer or number parameter (`None` leaves a side open).
    pub const fn exclusive_range(mut self, min: Option<i64>, max: Option<i64>) -> Self {
        match &mut self.schema.kind {
            SchemaKind::Integer(n) => {
                n.exclusive_minimum = min;
                n.exclusive_maximum = max;
            }
            SchemaKind::Float(n) => {
                n.exclusive_minimum = match min {
                    Some(v) => Some(v as f64),
                    None => None,
                };
                n.exclusive_maximum = match max {
                    Some(v) => Some(v as f64),
                    None => None,
                };
            }
            _ => {
                self.misuse =
                    Some("`exclusive_range` applies only to integer and number parameters")
            }
        }
        self
    }

    /// The value must be a multiple of `step` (integer or number parameters).
    pub const fn multiple_of(mut self, step: i64) -> Self {
        match &mut self.schema.kind {
            SchemaKind::Integer(n) => n.multiple_of = Some(step),
            SchemaKind::Float(n) => n.multiple_of = Some(step as f64),
            _ => self.misuse = Some("`multiple_of` applies only to integer and number parameters"),
        }
        self
    }

    /// Length bounds of a string, or item-count bounds of a list.
    pub const fn length(mut self, min: u64, max: u64) -> Self {
        match &mut self.schema.kind {
            SchemaKind::String(s) => {
                s.min_length = Some(min);
                s.max_length = Some(max);
            }
            SchemaKind::List(l) => {
                l.min_items = Some(min);
                l.max_items = Some(max);
            }
            _ => self.misuse = Some("`length` applies only to string and list parameters"),
        }
        self
    }

    /// Minimum length of a string, or minimum item count of a list.
    pub const fn min_length(mut self, min: u64) -> Self {
        match &mut self.schema.kind {
            SchemaKind::String(s) => s.min_length = Some(min),
            SchemaKind::List(l) => l.min_items = Some(min),
            _ => self.misuse = Some("`min_length` applies only to string and list parameters"),
        }
        self
    }

    /// Maximum length of a string, or maximum item count of a list.
    pub const fn max_length(mut self, max: u64) -> Self {
        match &mut self.schema.kind {
            SchemaKind::String(s) => s.max_length = Some(max),
            SchemaKind::List(l) => l.max_items = Some(max),
            _ => self.misuse = Some("`max_length` applies only to string and list parameters"),
        }
        self
    }

    /// A regular expression a string must match.
    pub const fn pattern(mut self, pattern: &'static str) -> Self {
        match &mut self.schema.kind {
            SchemaKind::String(s) => put(&mut s.pattern, Some(Cow::Borrowed(pattern))),
            _ => self.misuse = Some("`pattern` applies only to string parameters"),
        }
        self
    }

    /// A format name (`date-time`, `email`, `uuid`...) of a string.
    pub const fn format(mut self, format: &'static str) -> Self {
        match &mut self.schema.kind {
            SchemaKind::String(s) => put(&mut s.format, Some(Cow::Borrowed(format))),
            _ => self.misuse = Some("`format` applies only to string parameters"),
        }
        self
    }

    /// List items must be distinct.
    pub const fn unique(mut self) -> Self {
        match &mut self.schema.kind {
            SchemaKind::List(l) => l.unique = true,
            _ => self.misuse = Some("`unique` applies only to list parameters"),
        }
        self
    }

    /// The builder-method misuse recorded on this parameter, if any.
    pub const fn misuse(&self) -> Option<&'static str> {
        self.misuse
    }
}
