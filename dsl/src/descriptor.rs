//! The tool half of the IR: [`ToolDescriptor`], [`Param`], [`ToolName`], [`Annotations`] and
//! named [`Definition`]s, with their `const` builder methods.
//!
//! Setters here never check anything; [`crate::validate`] owns every rule. The two `const`
//! entry points that do check are [`ToolName::new`] and [`ToolDescriptor::params`] (and
//! [`ToolDescriptor::checked`]): evaluated in a `const` item, a violation is a compile error.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::extensions::Extensions;
use crate::literal::{Literal, Text};
use crate::schema::{
    Additional, EnumValue, EnumValues, Schema, SchemaKind, SchemaRef, put, text_str,
};
use crate::validate;

/// A tool name: 1 to 128 characters of `a-zA-Z0-9_.-`, the widest rule a provider documents
/// (MCP's), so that a descriptor can hold any tool some provider accepts.
///
/// Names written in Rust ([`ToolName::new`], [`ToolName::parse`], the builder, the macros) and
/// workspace file stems keep the portable rule `^[a-zA-Z0-9_-]{1,64}$`, which every provider
/// accepts. Names that come from outside (spec files, a provider's tool list, a serialized
/// descriptor) are read with [`ToolName::parse_wide`]. Each renderer checks its provider's own
/// rule when rendering: `weather.get` renders for MCP and is refused, naming the rule, for
/// OpenAI, unless the host renders with name mapping
/// ([`render_mapped`](crate::render::render_mapped)).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ToolName(Text);

/// Which rule a name is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToolNameRule {
    /// `^[a-zA-Z0-9_-]{1,64}$`: accepted by every provider; names written in Rust.
    Portable,
    /// `^[a-zA-Z0-9_.-]{1,128}$`: MCP's rule, the widest; names read from outside.
    Wide,
}

impl ToolNameRule {
    /// The rule as a regular expression.
    pub const fn pattern(self) -> &'static str {
        match self {
            ToolNameRule::Portable => "^[a-zA-Z0-9_-]{1,64}$",
            ToolNameRule::Wide => "^[a-zA-Z0-9_.-]{1,128}$",
        }
    }

    /// The longest name the rule allows, in bytes.
    pub const fn max_len(self) -> usize {
        match self {
            ToolNameRule::Portable => ToolName::PORTABLE_MAX_LEN,
            ToolNameRule::Wide => ToolName::MAX_LEN,
        }
    }

    /// Whether the rule allows the byte `b` in a name.
    pub const fn allows(self, b: u8) -> bool {
        b.is_ascii_alphanumeric()
            || b == b'_'
            || b == b'-'
            || (b == b'.' && matches!(self, ToolNameRule::Wide))
    }

    /// The allowed characters, in words (for messages).
    const fn characters(self) -> &'static str {
        match self {
            ToolNameRule::Portable => "a-z, A-Z, 0-9, `_` and `-`",
            ToolNameRule::Wide => "a-z, A-Z, 0-9, `_`, `-` and `.`",
        }
    }
}

/// Why a string is not a valid [`ToolName`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// The name is empty.
    #[error("tool name is empty; it must match {}", .rule.pattern())]
    Empty {
        /// The rule the name was checked against.
        rule: ToolNameRule,
    },
    /// The name is longer than the rule allows.
    #[error("tool name `{name}` is {len} characters long; at most {} are allowed", .rule.max_len())]
    TooLong {
        /// The name.
        name: String,
        /// Its length in bytes.
        len: usize,
        /// The rule the name was checked against.
        rule: ToolNameRule,
    },
    /// The name has a character the rule does not allow.
    #[error(
        "tool name `{name}` has the character {ch:?} at byte {at}; only {} are allowed",
        .rule.characters()
    )]
    BadChar {
        /// The name.
        name: String,
        /// The first offending character.
        ch: char,
        /// Its byte offset.
        at: usize,
        /// The rule the name was checked against.
        rule: ToolNameRule,
    },
}

/// The name rule, as a `const fn`: `Ok` or the byte offset of the first bad byte
/// (`usize::MAX` for an empty or too long name).
pub(crate) const fn name_rule(name: &str, rule: ToolNameRule) -> Result<(), usize> {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > rule.max_len() {
        return Err(usize::MAX);
    }
    let mut i = 0;
    while i < bytes.len() {
        if !rule.allows(bytes[i]) {
            return Err(i);
        }
        i += 1;
    }
    Ok(())
}

impl ToolName {
    /// The longest name a `ToolName` holds (MCP's limit).
    pub const MAX_LEN: usize = 128;

    /// The longest name every provider accepts, and the limit of names written in Rust.
    pub const PORTABLE_MAX_LEN: usize = 64;

    /// A name from a literal, under the portable rule; an invalid name fails to compile in
    /// `const` context.
    ///
    /// # Panics
    ///
    /// Panics when `name` breaks the rule. Use it for literals only; names computed at run time
    /// go through [`ToolName::parse`], which returns an error instead.
    pub const fn new(name: &'static str) -> Self {
        match name_rule(name, ToolNameRule::Portable) {
            Ok(()) => ToolName(Cow::Borrowed(name)),
            Err(at) => panic!("{}", validate::bad_name(name, at).message()),
        }
    }

    /// Checks a name computed at run time against the portable rule `^[a-zA-Z0-9_-]{1,64}$`
    /// (what every provider accepts; the rule of names written in Rust).
    ///
    /// # Errors
    ///
    /// A [`NameError`] saying which part of the rule the name breaks.
    pub fn parse(name: impl Into<Text>) -> Result<Self, NameError> {
        ToolName::parse_with(name.into(), ToolNameRule::Portable)
    }

    /// Checks a name read from outside (a spec file, a provider's tool list) against the wide
    /// rule `^[a-zA-Z0-9_.-]{1,128}$`, so that a tool some provider accepts is never refused.
    ///
    /// ```
    /// use tooldef::ToolName;
    ///
    /// assert!(ToolName::parse_wide("github.create_issue").is_ok());
    /// assert!(ToolName::parse("github.create_issue").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// A [`NameError`] saying which part of the rule the name breaks.
    pub fn parse_wide(name: impl Into<Text>) -> Result<Self, NameError> {
        ToolName::parse_with(name.into(), ToolNameRule::Wide)
    }

    fn parse_with(name: Text, rule: ToolNameRule) -> Result<Self, NameError> {
        match name_rule(&name, rule) {
            Ok(()) => Ok(ToolName(name)),
            Err(usize::MAX) if name.is_empty() => Err(NameError::Empty { rule }),
            Err(usize::MAX) => {
                Err(NameError::TooLong { len: name.len(), name: name.into_owned(), rule })
            }
            Err(at) => Err(NameError::BadChar {
                ch: name[at..].chars().next().unwrap_or('?'),
                at,
                name: name.into_owned(),
                rule,
            }),
        }
    }

    /// Whether the name keeps to the portable rule (every provider accepts it).
    pub fn is_portable(&self) -> bool {
        name_rule(self.as_str(), ToolNameRule::Portable).is_ok()
    }

    /// The name as a string slice (usable in `const`).
    pub const fn as_str(&self) -> &str {
        text_str(&self.0)
    }

    /// The namespace: the text before the first `__`, when that text is not empty.
    ///
    /// `a2a__weather__forecast` has the namespace `a2a`; `get_weather` and `__orphan` have none.
    pub fn namespace(&self) -> Option<&str> {
        match self.as_str().split_once("__") {
            Some((ns, _)) if !ns.is_empty() => Some(ns),
            _ => None,
        }
    }

    /// The name without its namespace: `weather__forecast` for `a2a__weather__forecast`,
    /// `orphan` for `__orphan`, the whole name when there is no `__`.
    pub fn local_name(&self) -> &str {
        match self.as_str().split_once("__") {
            Some((_, local)) => local,
            None => self.as_str(),
        }
    }

    /// The same local name under another namespace (`None` removes the namespace).
    ///
    /// # Errors
    ///
    /// The combined name breaks the rule this name keeps to (the portable one when this name
    /// is portable, else the wide one): too long, or a bad character in `namespace`.
    pub fn with_namespace(&self, namespace: Option<&str>) -> Result<ToolName, NameError> {
        let rule = if self.is_portable() { ToolNameRule::Portable } else { ToolNameRule::Wide };
        let name = match namespace {
            Some(ns) => format!("{ns}__{}", self.local_name()),
            None => self.local_name().to_owned(),
        };
        ToolName::parse_with(Cow::Owned(name), rule)
    }
}

impl fmt::Display for ToolName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for ToolName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl AsRef<str> for ToolName {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for ToolName {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl std::str::FromStr for ToolName {
    type Err = NameError;

    fn from_str(s: &str) -> Result<Self, NameError> {
        ToolName::parse(s.to_owned())
    }
}

impl TryFrom<String> for ToolName {
    type Error = NameError;

    fn try_from(s: String) -> Result<Self, NameError> {
        ToolName::parse(s)
    }
}

impl TryFrom<&str> for ToolName {
    type Error = NameError;

    fn try_from(s: &str) -> Result<Self, NameError> {
        ToolName::parse(s.to_owned())
    }
}

impl PartialEq<str> for ToolName {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ToolName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Serialize for ToolName {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ToolName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // A serialized descriptor may hold any name some provider accepts.
        ToolName::parse_wide(String::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

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

/// Hints about a tool's behaviour, as in MCP `ToolAnnotations`. `None` means "not said".
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// A display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Text>,
    /// The tool does not modify its environment.
    #[serde(default, rename = "readOnlyHint", skip_serializing_if = "Option::is_none")]
    pub read_only: Option<bool>,
    /// The tool may perform destructive updates.
    #[serde(default, rename = "destructiveHint", skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    /// Calling the tool twice with the same arguments has no further effect.
    #[serde(default, rename = "idempotentHint", skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<bool>,
    /// The tool interacts with an open world of external entities.
    #[serde(default, rename = "openWorldHint", skip_serializing_if = "Option::is_none")]
    pub open_world: Option<bool>,
}

impl Annotations {
    /// No hints.
    pub const NONE: Annotations = Annotations {
        title: None,
        read_only: None,
        destructive: None,
        idempotent: None,
        open_world: None,
    };

    /// Whether no hint is set.
    pub fn is_empty(&self) -> bool {
        *self == Annotations::NONE
    }
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

/// Everything a provider is told about one tool.
///
/// Built in `const` (checks are compile errors), by the run-time [`ToolBuilder`](crate::ToolBuilder)
/// (checks return a `Result`), by the macros, or imported from JSON. Plain data: `Clone`,
/// `PartialEq`, and a serde round trip.
///
/// ```
/// use tooldef::{Param, ToolDescriptor};
///
/// static SEARCH: ToolDescriptor = ToolDescriptor::new("docs__search")
///     .title("Search the docs")
///     .description("Full-text search over the documentation.")
///     .read_only()
///     .params(const {
///         &[Param::string("query").length(1, 200), Param::integer("limit").range(1, 50).optional()]
///     });
///
/// assert_eq!(SEARCH.namespace(), Some("docs"));
/// assert_eq!(SEARCH.display_name(), "Search the docs");
/// let names: Vec<&str> = SEARCH.params.iter().map(|p| &*p.name).collect();
/// assert_eq!(names, ["query", "limit"]);
///
/// let json = serde_json::to_string(&SEARCH).unwrap();
/// let back: ToolDescriptor = serde_json::from_str(&json).unwrap();
/// assert_eq!(back, SEARCH);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolDescriptor {
    /// The tool's name.
    pub name: ToolName,
    /// A display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Text>,
    /// What the tool does, for the model (empty when not given).
    #[serde(default)]
    pub description: Text,
    /// The parameters: the properties of the input object, in order.
    #[serde(default)]
    pub params: Cow<'static, [Param]>,
    /// What the input object accepts beyond `params` (closed by default).
    #[serde(default)]
    pub additional: Additional,
    /// Named schemas that `Ref` schemas in `params` and `output` point at.
    #[serde(default, skip_serializing_if = "<[Definition]>::is_empty")]
    pub definitions: Cow<'static, [Definition]>,
    /// The schema of the tool's structured result, if declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<SchemaRef>,
    /// Behaviour hints.
    #[serde(default, skip_serializing_if = "Annotations::is_empty")]
    pub annotations: Annotations,
    /// Provider fields the IR does not model (MCP `_meta`, `icons`, `execution`), kept for
    /// the renderer of that provider.
    #[serde(default, skip_serializing_if = "Extensions::is_empty")]
    pub extensions: Extensions,
}

impl ToolDescriptor {
    /// A tool with no parameters; an invalid name fails to compile in `const` context.
    ///
    /// # Panics
    ///
    /// Panics when `name` breaks the [`ToolName`] rule; use [`ToolDescriptor::builder`] for
    /// names computed at run time.
    pub const fn new(name: &'static str) -> Self {
        ToolDescriptor::with_name(ToolName::new(name))
    }

    /// A tool with no parameters and an already checked name.
    pub const fn with_name(name: ToolName) -> Self {
        ToolDescriptor {
            name,
            title: None,
            description: Cow::Borrowed(""),
            params: Cow::Borrowed(&[]),
            additional: Additional::Closed,
            definitions: Cow::Borrowed(&[]),
            output: None,
            annotations: Annotations::NONE,
            extensions: Extensions::NONE,
        }
    }

    /// Sets the description.
    pub const fn description(mut self, description: &'static str) -> Self {
        put(&mut self.description, Cow::Borrowed(description));
        self
    }

    /// Sets the title.
    pub const fn title(mut self, title: &'static str) -> Self {
        put(&mut self.title, Some(Cow::Borrowed(title)));
        self
    }

    /// Sets the parameters and checks the whole descriptor.
    ///
    /// In a `const` item a violation of any rule of [`crate::validate`] is a compile error
    /// whose message names the parameter and the rule. Pass the slice as `const { &[...] }` (or
    /// a named `const`) so that it lives for `'static`.
    ///
    /// # Panics
    ///
    /// Panics when a rule is broken; at run time prefer [`ToolDescriptor::builder`].
    pub const fn params(mut self, params: &'static [Param]) -> Self {
        put(&mut self.params, Cow::Borrowed(params));
        self.checked()
    }

    /// Sets the named definitions that `Ref` schemas point at. Call before [`params`](Self::params)
    /// so that references are checked against them.
    pub const fn definitions(mut self, definitions: &'static [Definition]) -> Self {
        put(&mut self.definitions, Cow::Borrowed(definitions));
        self
    }

    /// Sets the output schema.
    pub const fn output(mut self, output: &'static Schema) -> Self {
        put(&mut self.output, Some(SchemaRef::from_static(output)));
        self
    }

    /// Sets the behaviour hints.
    pub const fn annotations(mut self, annotations: Annotations) -> Self {
        put(&mut self.annotations, annotations);
        self
    }

    /// Lets the input object accept keys beyond `params`.
    pub const fn open(mut self) -> Self {
        put(&mut self.additional, Additional::Open);
        self
    }

    /// Marks the tool read-only.
    pub const fn read_only(mut self) -> Self {
        self.annotations.read_only = Some(true);
        self
    }

    /// Marks the tool destructive (or explicitly not).
    pub const fn destructive(mut self, destructive: bool) -> Self {
        self.annotations.destructive = Some(destructive);
        self
    }

    /// Marks the tool idempotent.
    pub const fn idempotent(mut self) -> Self {
        self.annotations.idempotent = Some(true);
        self
    }

    /// Marks whether the tool talks to an open world.
    pub const fn open_world(mut self, open_world: bool) -> Self {
        self.annotations.open_world = Some(open_world);
        self
    }

    /// Runs every check of [`crate::validate`] and returns the descriptor unchanged.
    ///
    /// # Panics
    ///
    /// Panics with the violation's message when a rule is broken (a compile error in `const`).
    pub const fn checked(self) -> Self {
        match validate::check(&self) {
            Ok(()) => self,
            Err(violation) => panic!("{}", violation.message()),
        }
    }

    /// The parameter named `name`, if any.
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// Mutable access to the parameter named `name`, if any.
    pub fn param_mut(&mut self, name: &str) -> Option<&mut Param> {
        self.params.to_mut().iter_mut().find(|p| p.name == name)
    }

    /// The definition named `name`, if any.
    pub fn definition(&self, name: &str) -> Option<&Schema> {
        self.definitions.iter().find(|d| d.name == name).map(|d| &d.schema)
    }

    /// The input schema as one object schema (the root of what the model sends).
    pub fn input_schema(&self) -> Schema {
        Schema::of(SchemaKind::Object(crate::schema::ObjectSchema {
            properties: self.params.clone(),
            additional: self.additional.clone(),
        }))
    }

    /// The namespace of the name (see [`ToolName::namespace`]).
    pub fn namespace(&self) -> Option<&str> {
        self.name.namespace()
    }

    /// The name without its namespace (see [`ToolName::local_name`]).
    pub fn local_name(&self) -> &str {
        self.name.local_name()
    }

    /// The display name: `title`, then `annotations.title`, then `name` (MCP's precedence).
    pub fn display_name(&self) -> &str {
        self.title.as_deref().or(self.annotations.title.as_deref()).unwrap_or(self.name.as_str())
    }
}

impl EnumValues {
    /// The values as a new owned list with `keep` applied (used to narrow an enum).
    pub fn retain(&self, mut keep: impl FnMut(&str) -> bool) -> EnumValues {
        EnumValues::owned(self.to_vec().into_iter().filter(|v| keep(&v.value)).collect())
    }
}
