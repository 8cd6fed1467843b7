//! The tool half of the IR: [`ToolDescriptor`], [`ToolName`] and [`Annotations`], with their
//! `const` builder methods. [`Param`] and [`Definition`] belong to the schema layer (an object
//! schema's properties are `Param`s, a `Ref` schema names a `Definition`) and are re-exported
//! here, where users find them.
//!
//! This module builds on the schema layer and the structural rules, which take schema types and
//! know nothing of descriptors. Setters here never check anything; the `const` entry points that
//! do are [`ToolName::new`] (the name rule, here), [`ToolDescriptor::params`] and
//! [`ToolDescriptor::checked`]: evaluated in a `const` item, a violation is a compile error.
//! `validate` is the run-time face of the same rules.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::const_text::{ConstText, str_slice};
use crate::literal::Text;
use crate::rules;
use crate::schema::{Additional, ObjectSchema, Schema, SchemaKind, SchemaRef, put, text_str};
pub use crate::schema::{Definition, Param};

/// A tool name, valid for every provider: `^[a-zA-Z0-9_-]{1,64}$`.
///
/// Providers that accept more (MCP: dots, 128 characters) or less (Gemini: no leading digit or
/// `-`) check their own rule when rendering.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ToolName(Text);

/// Why a string is not a valid [`ToolName`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// The name is empty.
    #[error("tool name is empty; it must match ^[a-zA-Z0-9_-]{{1,64}}$")]
    Empty,
    /// The name is longer than 64 bytes.
    #[error("tool name `{name}` is {len} characters long; at most 64 are allowed")]
    TooLong {
        /// The name.
        name: String,
        /// Its length in bytes.
        len: usize,
    },
    /// The name has a character outside `a-zA-Z0-9_-`.
    #[error(
        "tool name `{name}` has the character {ch:?} at byte {at}; only a-z, A-Z, 0-9, `_` and `-` are allowed"
    )]
    BadChar {
        /// The name.
        name: String,
        /// The first offending character.
        ch: char,
        /// Its byte offset.
        at: usize,
    },
}

/// The name rule, as a `const fn`: `Ok` or the byte offset of the first bad byte
/// (`usize::MAX` for an empty or too long name).
pub(crate) const fn name_rule(name: &str) -> Result<(), usize> {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes.len() > ToolName::MAX_LEN {
        return Err(usize::MAX);
    }
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
            return Err(i);
        }
        i += 1;
    }
    Ok(())
}

/// The message for a tool name that breaks the rule, built in `const`; `at` is the offending
/// byte offset, or `usize::MAX` for an empty or too long name (see [`name_rule`]).
const fn bad_name(name: &str, at: usize) -> ConstText {
    let mut m = ConstText::EMPTY;
    m.s("invalid tool name \"").s(name).s("\": ");
    if name.is_empty() {
        m.s("it is empty");
    } else if at == usize::MAX {
        m.s("it is ").uint(name.len() as u64).s(" bytes long");
    } else {
        let (_, rest) = name.as_bytes().split_at(at);
        let width = match rest {
            [b, ..] if *b >= 0xF0 => 4,
            [b, ..] if *b >= 0xE0 => 3,
            [b, ..] if *b >= 0x80 => 2,
            _ => 1,
        };
        m.s("the character `").s(str_slice(name.as_bytes(), at, at + width)).s("` at byte ");
        m.int(at as i64).s(" is not allowed");
    }
    m.s("; a tool name must be 1 to 64 characters of a-z, A-Z, 0-9, `_` or `-`");
    m
}

impl ToolName {
    /// The longest name every provider accepts.
    pub const MAX_LEN: usize = 64;

    /// A name from a literal; an invalid name fails to compile in `const` context.
    ///
    /// # Panics
    ///
    /// Panics when `name` breaks the rule. Use it for literals only; names computed at run time
    /// go through [`ToolName::parse`], which returns an error instead.
    pub const fn new(name: &'static str) -> Self {
        match name_rule(name) {
            Ok(()) => ToolName(Cow::Borrowed(name)),
            Err(at) => panic!("{}", bad_name(name, at).as_str()),
        }
    }

    /// Checks a name computed at run time.
    ///
    /// # Errors
    ///
    /// A [`NameError`] saying which part of the rule the name breaks.
    pub fn parse(name: impl Into<Text>) -> Result<Self, NameError> {
        let name = name.into();
        match name_rule(&name) {
            Ok(()) => Ok(ToolName(name)),
            Err(usize::MAX) if name.is_empty() => Err(NameError::Empty),
            Err(usize::MAX) => Err(NameError::TooLong { len: name.len(), name: name.into_owned() }),
            Err(at) => Err(NameError::BadChar {
                ch: name[at..].chars().next().unwrap_or('?'),
                at,
                name: name.into_owned(),
            }),
        }
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
    /// The combined name breaks the rule (too long, or a bad character in `namespace`).
    pub fn with_namespace(&self, namespace: Option<&str>) -> Result<ToolName, NameError> {
        match namespace {
            Some(ns) => ToolName::parse(format!("{ns}__{}", self.local_name())),
            None => ToolName::parse(self.local_name().to_owned()),
        }
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
        ToolName::parse(String::deserialize(deserializer)?).map_err(serde::de::Error::custom)
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
    /// Keywords of the input root object an import could not type, kept verbatim (see
    /// [`Kept`](crate::Kept)).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub input_kept: Vec<crate::schema::Kept>,
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
            input_kept: Vec::new(),
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
    /// In a `const` item a violation of any rule of `validate` is a compile error
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

    /// Runs every check of `validate` and returns the descriptor unchanged.
    ///
    /// # Panics
    ///
    /// Panics with the violation's message when a rule is broken (a compile error in `const`).
    pub const fn checked(self) -> Self {
        match rules::check_tool(
            self.name.as_str(),
            rules::slice(&self.params),
            &self.additional,
            rules::slice(&self.definitions),
            &self.output,
        ) {
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
        let mut s = Schema::of(SchemaKind::Object(ObjectSchema {
            properties: self.params.clone(),
            additional: self.additional.clone(),
        }));
        s.kept.clone_from(&self.input_kept);
        s
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
