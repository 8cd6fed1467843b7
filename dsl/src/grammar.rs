//! Grammar tools: a tool whose input is text in a grammar rather than a JSON object.
//!
//! OpenAI's custom tools take a grammar (`{"type": "custom", "format": {"type": "grammar",
//! "syntax": "lark" | "regex", "definition": ...}}`), and the model's input is then text the
//! grammar accepts. A Rust type says what that text is by implementing [`ToolGrammar`] (with
//! `#[derive(ToolGrammar)]`: an enum of literal alternatives, a newtype checked by a regex, or a
//! newtype with a Lark grammar written in the attribute), and
//! [`ToolDescriptor::grammar_tool`](crate::ToolDescriptor::grammar_tool) makes the descriptor.
//!
//! The descriptor has one string parameter, [`INPUT`] (`input`), whose description holds the
//! grammar, and [`ToolDescriptor::grammar`](crate::ToolDescriptor) says what it is. OpenAI's
//! renderer writes a custom tool; every other renderer writes the function tool with that one
//! parameter and reports it ([`grammar_as_function`](crate::render::grammar_as_function)). A
//! custom tool call comes back as the arguments `{"input": <the model's text>}`, which is what
//! the function tool sends too, so both reach dispatch the same way; a typed tool takes
//! [`GrammarInput<T>`] as its `Args`, which parses the text into `T`, and a text that does not
//! parse is an argument error naming what was expected and at which byte.
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::grammar::ToolGrammar;
//! use tooldef::ToolDescriptor;
//!
//! #[derive(Debug, PartialEq, tooldef::ToolGrammar)]
//! enum Unit {
//!     Celsius,
//!     #[grammar("°F")]
//!     Fahrenheit,
//! }
//!
//! assert_eq!(Unit::GRAMMAR.definition, r#"start: "celsius" | "°F""#);
//! assert_eq!(Unit::parse("°F"), Ok(Unit::Fahrenheit));
//! assert_eq!(
//!     Unit::parse("celcius").unwrap_err().to_string(),
//!     r#"expected one of "celsius", "°F" at byte 3; got "celcius""#
//! );
//!
//! let tool = ToolDescriptor::grammar_tool::<Unit>("set_unit", "Set the display unit.").unwrap();
//! assert_eq!(tool.params[0].name, "input");
//! ```

use std::fmt;
use std::marker::PhantomData;
use std::sync::OnceLock;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::literal::Text;

/// The name of a grammar tool's one parameter, and of the field of a custom tool call the
/// model's text comes in.
pub const INPUT: &str = "input";

/// The longest grammar definition, in bytes. OpenAI publishes no limit on a definition; this one
/// keeps a grammar small enough to read in a description and to compile quickly.
pub const MAX_DEFINITION_BYTES: usize = crate::grammar_rules::MAX_DEFINITION_BYTES;

/// The language a grammar is written in (OpenAI's `format.syntax`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GrammarSyntax {
    /// A Lark grammar (the variant OpenAI reads with LLGuidance: no lookaround, no lazy
    /// quantifiers, terminals in Rust `regex` syntax).
    Lark,
    /// One regular expression in Rust `regex` syntax, matching the whole input.
    Regex,
}

impl GrammarSyntax {
    /// `lark` or `regex`, as the wire writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            GrammarSyntax::Lark => "lark",
            GrammarSyntax::Regex => "regex",
        }
    }
}

impl fmt::Display for GrammarSyntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A grammar: its syntax and its definition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grammar {
    /// The language of `definition`.
    pub syntax: GrammarSyntax,
    /// The grammar itself.
    pub definition: Text,
}

impl Grammar {
    /// A Lark grammar.
    pub const fn lark(definition: &'static str) -> Self {
        Grammar { syntax: GrammarSyntax::Lark, definition: Text::Borrowed(definition) }
    }

    /// A regular expression the whole input must match.
    pub const fn regex(definition: &'static str) -> Self {
        Grammar { syntax: GrammarSyntax::Regex, definition: Text::Borrowed(definition) }
    }

    /// Checks what can be checked without the provider: the definition is not empty, not longer
    /// than [`MAX_DEFINITION_BYTES`], uses no lazy quantifier or lookaround (OpenAI's grammar
    /// engine has neither), and, for a regex, compiles.
    ///
    /// # Errors
    ///
    /// The reason, in words.
    pub fn check(&self) -> Result<(), String> {
        crate::grammar_rules::check_definition(
            self.syntax == GrammarSyntax::Regex,
            &self.definition,
        )
    }

    /// The description of the `input` parameter when the grammar is sent inside a function tool:
    /// the grammar, with what it is.
    pub fn description(&self) -> String {
        match self.syntax {
            GrammarSyntax::Lark => {
                format!("Text in this Lark grammar (start rule `start`):\n{}", self.definition)
            }
            GrammarSyntax::Regex => {
                format!("Text that this whole regular expression matches: {}", self.definition)
            }
        }
    }
}

/// The model's text does not parse: what was expected, at which byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrammarError {
    /// The byte of the input where it stops fitting the grammar.
    pub at: usize,
    /// What the grammar expected there, in words.
    pub expected: String,
    /// The input (at most 200 bytes of it, cut at a character boundary).
    pub found: String,
}

impl GrammarError {
    /// An error at byte `at` of `input`.
    pub fn new(input: &str, at: usize, expected: impl Into<String>) -> Self {
        let mut end = input.len().min(200);
        while !input.is_char_boundary(end) {
            end -= 1;
        }
        let mut found = input[..end].to_owned();
        if end < input.len() {
            found.push('…');
        }
        GrammarError { at, expected: expected.into(), found }
    }
}

impl fmt::Display for GrammarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {} at byte {}; got {:?}", self.expected, self.at, self.found)
    }
}

impl std::error::Error for GrammarError {}

/// A Rust type that is the text of a grammar: its [`Grammar`] and how its text parses.
///
/// Derive it (`#[derive(tooldef::ToolGrammar)]`) for an enum of unit variants (each variant a
/// literal: its name in snake case, or `#[grammar("text")]`), for a newtype over `String` with
/// `#[grammar(regex = "...")]` (the input must match the whole regex), or for a newtype with
/// `#[grammar(lark = "...")]` (OpenAI guarantees the text parses; tooldef does not parse Lark
/// and takes the text as it comes). The derive checks the grammar at compile time.
pub trait ToolGrammar: Sized {
    /// The grammar the input is written in.
    const GRAMMAR: Grammar;

    /// Reads the model's text.
    ///
    /// # Errors
    ///
    /// What was expected, at which byte.
    fn parse(input: &str) -> Result<Self, GrammarError>;
}

/// The index of the literal `input` is, or the byte where it leaves every literal. What the
/// enum form of `#[derive(ToolGrammar)]` calls.
///
/// # Errors
///
/// A [`GrammarError`] at the first byte no literal continues with (the input's end when it is a
/// prefix of one), expecting one of the literals.
pub fn match_literal(input: &str, literals: &[&str]) -> Result<usize, GrammarError> {
    if let Some(i) = literals.iter().position(|l| *l == input) {
        return Ok(i);
    }
    let at = literals
        .iter()
        .map(|l| l.bytes().zip(input.bytes()).take_while(|(a, b)| a == b).count())
        .max()
        .unwrap_or(0);
    let mut at = at.min(input.len());
    while !input.is_char_boundary(at) {
        at -= 1;
    }
    let listed: Vec<String> = literals.iter().map(|l| format!("{l:?}")).collect();
    Err(GrammarError::new(input, at, format!("one of {}", listed.join(", "))))
}

/// A regex grammar, compiled on first use: what the regex form of `#[derive(ToolGrammar)]`
/// keeps in a `static`.
#[derive(Debug)]
pub struct RegexGrammar {
    definition: &'static str,
    compiled: OnceLock<Result<regex::Regex, String>>,
}

impl RegexGrammar {
    /// The grammar of `definition`, not compiled yet.
    pub const fn new(definition: &'static str) -> Self {
        RegexGrammar { definition, compiled: OnceLock::new() }
    }

    /// Whether the whole of `input` matches.
    ///
    /// # Errors
    ///
    /// A [`GrammarError`] at the end of the longest start of the input that is a whole match
    /// (byte 0 when none is), expecting the regex; or, for a regex that does not compile (only
    /// when built without the derive's compile-time check), at byte 0 with the reason.
    pub fn check(&self, input: &str) -> Result<(), GrammarError> {
        let compiled = self.compiled.get_or_init(|| crate::grammar_rules::compile(self.definition));
        let re = match compiled {
            Ok(re) => re,
            Err(reason) => return Err(GrammarError::new(input, 0, reason.clone())),
        };
        if re.is_match(input) {
            return Ok(());
        }
        let at = (0..input.len())
            .rev()
            .filter(|&end| input.is_char_boundary(end))
            .find(|&end| re.is_match(&input[..end]))
            .unwrap_or(0);
        let expected = if at > 0 {
            "the end of the input".to_owned()
        } else {
            format!("text matching the regular expression {}", self.definition)
        };
        Err(GrammarError::new(input, at, expected))
    }
}

/// The arguments of a typed grammar tool: the `input` text parsed into `T`. Use it as
/// [`Tool::Args`](crate::Tool::Args); a text that does not parse is an argument error naming
/// `/input`, what was expected and at which byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrammarInput<T>(pub T);

impl<T> GrammarInput<T> {
    /// The parsed input.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<'de, T: ToolGrammar> Deserialize<'de> for GrammarInput<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Input<T>(PhantomData<T>);
        impl<'de, T: ToolGrammar> Visitor<'de> for Input<T> {
            type Value = GrammarInput<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object with one string member `input`")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut text: Option<std::borrow::Cow<'de, str>> = None;
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    if key != INPUT {
                        return Err(de::Error::unknown_field(&key, &[INPUT]));
                    }
                    text = Some(map.next_value()?);
                }
                let text = text.ok_or_else(|| de::Error::missing_field(INPUT))?;
                T::parse(&text)
                    .map(GrammarInput)
                    .map_err(|e| de::Error::custom(format_args!("/{INPUT}: {e}")))
            }
        }
        deserializer.deserialize_map(Input(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_say_where_the_input_leaves_them() {
        let units = ["celsius", "fahrenheit"];
        assert_eq!(match_literal("fahrenheit", &units), Ok(1));
        let err = |input| match_literal(input, &units).unwrap_err().to_string();
        assert_eq!(
            err("celsus"),
            r#"expected one of "celsius", "fahrenheit" at byte 4; got "celsus""#
        );
        assert_eq!(err("cel"), r#"expected one of "celsius", "fahrenheit" at byte 3; got "cel""#);
        assert_eq!(err(""), r#"expected one of "celsius", "fahrenheit" at byte 0; got """#);
        assert_eq!(
            match_literal("°C", &["°F"]).unwrap_err().to_string(),
            r#"expected one of "°F" at byte 2; got "°C""#
        );
    }

    #[test]
    fn a_regex_matches_the_whole_input() {
        let sku = RegexGrammar::new("[A-Z]{3}-[0-9]{4}");
        assert_eq!(sku.check("ABC-1234"), Ok(()));
        assert_eq!(
            sku.check("ABC-12345").unwrap_err().to_string(),
            r#"expected the end of the input at byte 8; got "ABC-12345""#
        );
        assert_eq!(
            sku.check("abc").unwrap_err().to_string(),
            r#"expected text matching the regular expression [A-Z]{3}-[0-9]{4} at byte 0; got "abc""#
        );
    }

    #[test]
    fn definitions_the_provider_cannot_take_are_refused() {
        let cases = [
            (Grammar::regex(""), "the grammar definition is empty"),
            (
                Grammar::regex("a+?"),
                "the grammar uses a lazy quantifier or a lookaround at byte 1, which OpenAI's grammar engine does not support",
            ),
            (
                Grammar::lark("start: /(?=a)b/"),
                "the grammar uses a lazy quantifier or a lookaround at byte 8, which OpenAI's grammar engine does not support",
            ),
            (
                Grammar::regex("a("),
                "the regular expression does not compile: found open group without closing ')'",
            ),
        ];
        for (grammar, message) in cases {
            assert_eq!(grammar.check(), Err(message.to_owned()), "{grammar:?}");
        }
        assert_eq!(Grammar::lark(r#"start: "a?" "b"* "#).check(), Ok(()));
        assert_eq!(Grammar::regex("[?*]?x").check(), Ok(()));
    }
}
