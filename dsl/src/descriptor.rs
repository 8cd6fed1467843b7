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
use crate::extensions::Extensions;
use crate::literal::{Literal, Text};
use crate::rules;
use crate::schema::{Additional, ObjectSchema, Schema, SchemaKind, SchemaRef, put, text_str};
pub use crate::schema::{Definition, Param};
use crate::source::{SchemaParts, SchemaSource};

// Shared with `tooldef-macros`, whose `#[tool]` words a bad name alike.
#[allow(unreachable_pub)]
mod name_words;

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
    #[error("{}", name_words::empty(.rule.pattern()))]
    Empty {
        /// The rule the name was checked against.
        rule: ToolNameRule,
    },
    /// The name is longer than the rule allows.
    #[error("{}", name_words::too_long(.name, *.len, .rule.max_len()))]
    TooLong {
        /// The name.
        name: String,
        /// Its length in bytes.
        len: usize,
        /// The rule the name was checked against.
        rule: ToolNameRule,
    },
    /// The name has a character the rule does not allow.
    #[error("{}", name_words::bad_char(.name, *.ch, *.at, .rule.characters()))]
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

/// The message for a name that breaks the portable rule, built in `const` from the words
/// [`NameError`] says; `at` is the offending byte offset, or `usize::MAX` for an empty or too
/// long name (see [`name_rule`]).
const fn bad_name(name: &str, at: usize) -> ConstText {
    let rule = ToolNameRule::Portable;
    let mut m = ConstText::EMPTY;
    if name.is_empty() {
        m.s(name_words::EMPTY).s(rule.pattern());
    } else if at == usize::MAX {
        let [is, long, allowed] = name_words::TOO_LONG;
        m.s(name_words::NAME).s(name).s(is).uint(name.len() as u64);
        m.s(long).uint(rule.max_len() as u64).s(allowed);
    } else {
        let [has, byte, only, allowed] = name_words::BAD_CHAR;
        let (_, rest) = name.as_bytes().split_at(at);
        let width = match rest {
            [b, ..] if *b >= 0xF0 => 4,
            [b, ..] if *b >= 0xE0 => 3,
            [b, ..] if *b >= 0x80 => 2,
            _ => 1,
        };
        m.s(name_words::NAME).s(name).s(has);
        char_debug(&mut m, str_slice(name.as_bytes(), at, at + width));
        m.s(byte).int(at as i64).s(only).s(rule.characters()).s(allowed);
    }
    m
}

/// Writes the character `ch` (one character's text) quoted as `{:?}` writes it: `'a'`, with
/// `'`, `\` and ASCII control characters escaped.
const fn char_debug(m: &mut ConstText, ch: &str) {
    m.s("'");
    match ch.as_bytes() {
        [b'\''] => m.s("\\'"),
        [b'\\'] => m.s("\\\\"),
        [b'\t'] => m.s("\\t"),
        [b'\n'] => m.s("\\n"),
        [b'\r'] => m.s("\\r"),
        [0] => m.s("\\0"),
        [b] if *b < 0x20 || *b == 0x7F => {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let digits = [HEX[(*b >> 4) as usize], HEX[(*b & 0xF) as usize]];
            let digits = str_slice(&digits, if *b >> 4 == 0 { 1 } else { 0 }, 2);
            m.s("\\u{").s(digits).s("}")
        }
        _ => m.s(ch),
    };
    m.s("'");
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
            Err(at) => panic!("{}", bad_name(name, at).as_str()),
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
#[derive(Clone, Debug, Serialize, Deserialize)]
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
    /// Provider fields the IR does not model (MCP `_meta`, `icons`, `execution`), kept for
    /// the renderer of that provider.
    #[serde(default, skip_serializing_if = "Extensions::is_empty")]
    pub extensions: Extensions,
    /// The grammar of a grammar tool's input (see [`grammar`](crate::grammar)): OpenAI sends it
    /// as a custom tool, other providers as a function tool with the one string parameter
    /// `input`. `None` for a tool whose input is the JSON object of `params`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grammar: Option<crate::grammar::Grammar>,
    /// Whole example inputs (objects of parameter values), for the model: Anthropic takes them
    /// as the tool's `input_examples`; the other renderers write them into the description
    /// and report it. Each is checked against the parameters like a default
    /// ([`validate`](Self::validate)); dispatch does not read them.
    #[serde(default, skip_serializing_if = "<[Literal]>::is_empty")]
    pub input_examples: Cow<'static, [Literal]>,
    /// The JSON text the schemas were imported from, for renderers that can write it back
    /// unchanged (see [`SchemaSource`]). Not serialized, and not part of equality.
    #[serde(skip)]
    pub source: SchemaSource,
}

// By hand, to leave `source` out: it is where the IR came from, not what it is, so an imported
// descriptor equals the one built in Rust with the same IR. (Destructured, so that a new field
// cannot be forgotten here.)
impl PartialEq for ToolDescriptor {
    fn eq(&self, other: &Self) -> bool {
        let ToolDescriptor {
            name,
            title,
            description,
            params,
            additional,
            definitions,
            output,
            annotations,
            input_kept,
            extensions,
            grammar,
            input_examples,
            source: _,
        } = self;
        *name == other.name
            && *title == other.title
            && *description == other.description
            && *params == other.params
            && *additional == other.additional
            && *definitions == other.definitions
            && *output == other.output
            && *annotations == other.annotations
            && *input_kept == other.input_kept
            && *extensions == other.extensions
            && *grammar == other.grammar
            && *input_examples == other.input_examples
    }
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
            extensions: Extensions::NONE,
            grammar: None,
            input_examples: Cow::Borrowed(&[]),
            source: SchemaSource::NONE,
        }
    }

    /// A grammar tool whose input is the text of `T` (see [`grammar`](crate::grammar)): one
    /// string parameter, `input`, described by the grammar, and `T`'s [`Grammar`](crate::grammar::Grammar).
    ///
    /// # Errors
    ///
    /// A name that breaks the [`ToolName`] rule, or a grammar that [`Grammar::check`](crate::grammar::Grammar::check)
    /// refuses (named as the `input` parameter's problem).
    pub fn grammar_tool<T: crate::grammar::ToolGrammar>(
        name: &str,
        description: &str,
    ) -> Result<ToolDescriptor, crate::BuildError> {
        let grammar = T::GRAMMAR;
        let mut input = Param::string(crate::grammar::INPUT);
        input.schema.description = Some(Cow::Owned(grammar.description()));
        let mut tool = ToolDescriptor::builder(name.to_owned())
            .description(description.to_owned())
            .param(input)
            .build()?;
        if let Err(reason) = grammar.check() {
            let input = crate::grammar::INPUT;
            return Err(crate::BuildError::Invalid(crate::DescriptorError {
                tool: name.to_owned(),
                param: input.to_owned(),
                rule: crate::Rule::BadPattern,
                message: format!("tool `{name}`, parameter `{input}`: {reason}"),
            }));
        }
        tool.grammar = Some(grammar);
        Ok(tool)
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

    /// Sets whole example inputs ([`input_examples`](Self::input_examples)), each an object of
    /// parameter values; [`validate`](Self::validate) checks each against the parameters.
    pub const fn input_examples(mut self, examples: &'static [Literal]) -> Self {
        put(&mut self.input_examples, Cow::Borrowed(examples));
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

    /// The input schema's JSON text as it was imported, while the input side of the IR
    /// (`params`, `additional`, `definitions`, `input_kept`) is still what that text was
    /// imported as; `None` when nothing was kept or anything changed since.
    ///
    /// Writing it is writing the same schema as the IR, in the source's own spelling: what a
    /// renderer whose provider takes full JSON Schema does to give back exactly what it read.
    ///
    /// ```
    /// use tooldef::spec_from_value;
    ///
    /// let spec = serde_json::json!({
    ///     "name": "pick",
    ///     "input_schema": {"type": "object", "properties": {"n": {"type": "number", "enum": [1, 2]}}}
    /// });
    /// let mut d = spec_from_value("pick.json", &spec, None).unwrap().descriptor;
    /// assert_eq!(
    ///     d.source_input_schema(),
    ///     Some(r#"{"properties":{"n":{"enum":[1,2],"type":"number"}},"type":"object"}"#)
    /// );
    /// d.params.to_mut().clear();
    /// assert_eq!(d.source_input_schema(), None);
    /// ```
    pub fn source_input_schema(&self) -> Option<&str> {
        self.source.input_for(self.schema_parts())
    }

    /// The output schema's JSON text as it was imported, while `output` and `definitions` are
    /// still what that text was imported as (see [`source_input_schema`](Self::source_input_schema)).
    pub fn source_output_schema(&self) -> Option<&str> {
        self.source.output_for(self.schema_parts())
    }

    /// Keeps `input` and `output` (compact JSON texts) as the source the schemas as they are now
    /// were imported from.
    pub(crate) fn keep_source(&mut self, input: Option<String>, output: Option<String>) {
        self.source = SchemaSource::new(self.schema_parts(), input, output);
    }

    fn schema_parts(&self) -> SchemaParts<'_> {
        SchemaParts {
            params: &self.params,
            additional: &self.additional,
            definitions: &self.definitions,
            input_kept: &self.input_kept,
            output: &self.output,
        }
    }

    /// The display name: `title`, then `annotations.title`, then `name` (MCP's precedence).
    pub fn display_name(&self) -> &str {
        self.title.as_deref().or(self.annotations.title.as_deref()).unwrap_or(self.name.as_str())
    }
}
