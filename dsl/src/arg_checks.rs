//! Argument checks for the constraints serde does not enforce: ranges, lengths, item counts,
//! enum membership and patterns. Each returns an [`ArgError`] whose text tells the model what to
//! fix, with the JSON pointer of the argument (`/days must be at most 10; got 11`).
//!
//! Shared by the code `#[tool]` generates (typed checks after decoding, the fast path) and by
//! [`crate::dispatch`] (checks of JSON values against a [`crate::Schema`]). Owns the messages;
//! knows nothing about descriptors or providers.
//!
//! The check functions take the argument's pointer as text that is already escaped (the code
//! `#[tool]` generates writes it as a literal, escaped by the macros); the [`ArgError`] they
//! return holds it as a [`JsonPointer`].

use std::fmt;
use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::ecma;
use crate::pointer::JsonPointer;
use crate::schema::{Bounds, Broken, NumberSchema, ScalarRef};

/// One argument the model got wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgError {
    /// The JSON pointer of the argument (`/days`, `/filter/tags/2`; the root for the whole
    /// object).
    pub pointer: JsonPointer,
    /// What is wrong, phrased to follow the pointer (`must be at most 10; got 11`).
    pub message: String,
}

impl ArgError {
    /// An error at `pointer`.
    pub fn new(pointer: impl Into<JsonPointer>, message: impl Into<String>) -> Self {
        ArgError { pointer: pointer.into(), message: message.into() }
    }

    /// An error at `pointer`, pointer text as the check functions of this module take it.
    fn at(pointer: &str, message: impl Into<String>) -> Self {
        ArgError::new(JsonPointer::from_written(pointer), message)
    }
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "the arguments {}", self.message)
        } else {
            write!(f, "{} {}", self.pointer, self.message)
        }
    }
}

impl std::error::Error for ArgError {}

/// Every argument the model got wrong in one call (never empty when returned as an error).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArgErrors(pub Vec<ArgError>);

impl ArgErrors {
    /// Adds the error of `check`, if any.
    pub fn push(&mut self, check: Result<(), ArgError>) {
        if let Err(e) = check {
            self.0.push(e);
        }
    }

    /// `Ok` when nothing was pushed.
    ///
    /// # Errors
    ///
    /// The collected errors.
    pub fn into_result(self) -> Result<(), ArgErrors> {
        if self.0.is_empty() { Ok(()) } else { Err(self) }
    }
}

impl From<ArgError> for ArgErrors {
    fn from(e: ArgError) -> Self {
        ArgErrors(vec![e])
    }
}

impl fmt::Display for ArgErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ArgErrors {}

/// Checks inclusive integer bounds.
///
/// # Errors
///
/// The value is outside the bounds.
pub fn int_range(
    value: impl Into<i128>,
    min: Option<i64>,
    max: Option<i64>,
    pointer: &str,
) -> Result<(), ArgError> {
    let v = value.into();
    broken(Bounds::inclusive(min, max).int_inclusive(v), v, pointer)
}

/// Checks exclusive integer bounds.
///
/// # Errors
///
/// The value is not strictly inside the bounds.
pub fn int_exclusive(
    value: impl Into<i128>,
    min: Option<i64>,
    max: Option<i64>,
    pointer: &str,
) -> Result<(), ArgError> {
    let v = value.into();
    let bounds =
        Bounds { exclusive_minimum: min, exclusive_maximum: max, ..Bounds::inclusive(None, None) };
    broken(bounds.int_exclusive(v), v, pointer)
}

/// Checks that an integer is a multiple of `step`.
///
/// # Errors
///
/// It is not.
pub fn int_multiple_of(value: impl Into<i128>, step: i64, pointer: &str) -> Result<(), ArgError> {
    let v = value.into();
    let bounds = Bounds { multiple_of: Some(step), ..Bounds::inclusive(None, None) };
    broken(bounds.int_step(v), v, pointer)
}

/// Checks inclusive and exclusive number bounds and `multipleOf`.
///
/// # Errors
///
/// The value breaks one of them.
pub fn float_range(value: f64, bounds: &NumberSchema<f64>, pointer: &str) -> Result<(), ArgError> {
    if !value.is_finite() {
        return Err(ArgError::at(pointer, format!("must be a finite number; got {value}")));
    }
    let bounds = bounds.bounds();
    let first = bounds.float_bounds(value).or_else(|| bounds.float_step(value));
    broken(first, value, pointer)
}

/// The argument message of the bound a number breaks (every kind of number words it alike).
fn broken<T: fmt::Display>(
    broken: Option<Broken<T>>,
    got: impl fmt::Display,
    pointer: &str,
) -> Result<(), ArgError> {
    let Some(broken) = broken else { return Ok(()) };
    let message = match broken {
        Broken::Minimum(b) => format!("must be at least {b}; got {got}"),
        Broken::Maximum(b) => format!("must be at most {b}; got {got}"),
        Broken::ExclusiveMinimum(b) => format!("must be greater than {b}; got {got}"),
        Broken::ExclusiveMaximum(b) => format!("must be less than {b}; got {got}"),
        Broken::MultipleOf(b) => format!("must be a multiple of {b}; got {got}"),
    };
    Err(ArgError::at(pointer, message))
}

/// Checks a string's length in characters (Unicode scalar values, as JSON Schema counts).
///
/// # Errors
///
/// The string is too short or too long.
pub fn length(
    value: &str,
    min: Option<u64>,
    max: Option<u64>,
    pointer: &str,
) -> Result<(), ArgError> {
    if min.is_none() && max.is_none() {
        return Ok(());
    }
    let n = value.chars().count() as u64;
    let got = || format!("got a string of {}", counted(n, "character", "characters"));
    if let Some(min) = min
        && n < min
    {
        let want = counted(min, "character", "characters");
        return Err(ArgError::at(pointer, format!("must be at least {want} long; {}", got())));
    }
    if let Some(max) = max
        && n > max
    {
        let want = counted(max, "character", "characters");
        return Err(ArgError::at(pointer, format!("must be at most {want} long; {}", got())));
    }
    Ok(())
}

/// `1 item`, `3 items`: a count with its noun in the number the count asks for.
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Checks a list's item count.
///
/// # Errors
///
/// Too few or too many items.
pub fn items(
    len: usize,
    min: Option<u64>,
    max: Option<u64>,
    pointer: &str,
) -> Result<(), ArgError> {
    let n = len as u64;
    let got = || format!("got an array of {}", counted(n, "item", "items"));
    if let Some(min) = min
        && n < min
    {
        let want = counted(min, "item", "items");
        return Err(ArgError::at(pointer, format!("must have at least {want}; {}", got())));
    }
    if let Some(max) = max
        && n > max
    {
        let want = counted(max, "item", "items");
        return Err(ArgError::at(pointer, format!("must have at most {want}; {}", got())));
    }
    Ok(())
}

/// Checks that a string is one of `allowed`.
///
/// # Errors
///
/// It is not; the message lists the allowed values.
pub fn one_of<'a>(
    value: &str,
    allowed: impl IntoIterator<Item = &'a str>,
    pointer: &str,
) -> Result<(), ArgError> {
    // This runs on the fast path: remember the values without allocating (beyond 16 of them)
    // and build the message only on failure.
    let mut first: [&str; 16] = [""; 16];
    let mut n = 0;
    let mut rest = Vec::new();
    for a in allowed {
        if a == value {
            return Ok(());
        }
        if n < first.len() {
            first[n] = a;
            n += 1;
        } else {
            rest.push(a);
        }
    }
    let listed = one_of_phrase(first[..n].iter().copied().chain(rest));
    Err(ArgError::at(pointer, format!("must be {listed}; got {}", quote(value))))
}

/// The error for a value that is not one of `allowed` and not even a string
/// (`/unit must be one of "celsius", "fahrenheit"; got 3`).
pub fn not_one_of<'a>(
    got: &serde_json::Value,
    allowed: impl IntoIterator<Item = &'a str>,
    pointer: &str,
) -> ArgError {
    ArgError::at(pointer, format!("must be {}; got {}", one_of_phrase(allowed), describe(got)))
}

/// The error for a value that is none of an enum's scalar values, which messages list as JSON
/// (`/unit must be one of 1, 2; got 3`; a string enum reads as [`one_of`]'s message).
pub fn not_in_enum<'a>(
    got: &serde_json::Value,
    allowed: impl IntoIterator<Item = ScalarRef<'a>>,
    pointer: &str,
) -> ArgError {
    let got = match got {
        serde_json::Value::String(s) => quote(s),
        other => describe(other),
    };
    ArgError::at(pointer, format!("must be {}; got {got}", one_of_values_phrase(allowed)))
}

/// `one of "a", 1, true`: how messages name the scalar values of an enum, each as JSON.
pub fn one_of_values_phrase<'a>(allowed: impl IntoIterator<Item = ScalarRef<'a>>) -> String {
    let mut out = String::from("one of ");
    for (i, a) in allowed.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{a}");
    }
    out
}

/// `one of "a", "b"`: how messages name the values of an enum.
pub fn one_of_phrase<'a>(allowed: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::from("one of ");
    for (i, a) in allowed.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&quote(a));
    }
    out
}

/// The error for a value of the wrong JSON type; `expected` is a phrase such as `"an integer"`
/// or `"a string or null"` (`/days must be an integer; got "three"`).
pub fn wrong_type(expected: &str, got: &serde_json::Value, pointer: &str) -> ArgError {
    ArgError::at(pointer, format!("must be {expected}; got {}", describe(got)))
}

/// The error for an object with too few or too many keys (`minProperties`, `maxProperties`):
/// `/tags must have at least 1 key; got an object with 0 keys`.
pub fn property_count(len: usize, min: Option<u64>, max: Option<u64>, pointer: &str) -> ArgError {
    let got = counted(len as u64, "key", "keys");
    match (min, max) {
        (Some(min), _) => {
            let want = counted(min, "key", "keys");
            ArgError::at(pointer, format!("must have at least {want}; got an object with {got}"))
        }
        (_, Some(max)) => {
            let want = counted(max, "key", "keys");
            ArgError::at(pointer, format!("must have at most {want}; got an object with {got}"))
        }
        (None, None) => ArgError::at(pointer, format!("has a wrong number of keys ({len})")),
    }
}

/// The error for a key that `dependentRequired` ties to another which is absent:
/// `/range must have `end` as well as `start``.
pub fn dependent_required(key: &str, needs: &str, pointer: &str) -> ArgError {
    ArgError::at(pointer, format!("must have `{needs}` as well as `{key}`"))
}

/// The error for a value that matches two variants of a `oneOf` (numbered from 0).
pub fn one_of_twice(first: usize, second: usize, pointer: &str) -> ArgError {
    ArgError::at(
        pointer,
        format!(
            "must match exactly one of the `oneOf` variants; it matches variants {first} and {second}"
        ),
    )
}

/// The error for a required key that is absent (`/city is required`).
pub fn required(pointer: &str) -> ArgError {
    ArgError::at(pointer, "is required")
}

/// The error for a key that the arguments' text gives twice in one object
/// (`/city is given twice`): JSON leaves such text without one meaning, so it is refused
/// rather than read as the last value.
pub(crate) fn given_twice(pointer: JsonPointer) -> ArgError {
    ArgError::new(pointer, "is given twice")
}

/// The error for a key a closed object does not accept. `tool` names the tool when the object
/// is the tool's arguments; `known` are the keys that are accepted, in order
/// (`/extra is not a parameter of get_weather; the parameters are city, unit, days`).
pub fn unknown_key<'a>(
    pointer: &str,
    tool: Option<&str>,
    known: impl IntoIterator<Item = &'a str>,
) -> ArgError {
    let mut listed = String::new();
    for (i, k) in known.into_iter().enumerate() {
        if i > 0 {
            listed.push_str(", ");
        }
        listed.push_str(k);
    }
    let message = match (tool, listed.is_empty()) {
        (Some(tool), false) => {
            format!("is not a parameter of {tool}; the parameters are {listed}")
        }
        (Some(tool), true) => format!("is not a parameter of {tool}; it takes no parameters"),
        (None, false) => format!("is not a known property; the properties are {listed}"),
        (None, true) => "is not a known property; this object takes no properties".to_owned(),
    };
    ArgError::at(pointer, message)
}

/// Checks that no two items are equal.
///
/// # Errors
///
/// Two items are equal; the message gives their indexes.
pub fn unique<T: PartialEq>(items: &[T], pointer: &str) -> Result<(), ArgError> {
    for (i, a) in items.iter().enumerate() {
        if let Some(j) = items[i + 1..].iter().position(|b| a == b) {
            return Err(ArgError::at(
                pointer,
                format!("must not contain duplicates; items {i} and {} are equal", i + 1 + j),
            ));
        }
    }
    Ok(())
}

/// A value as argument messages show it: scalars as JSON (long strings shortened), containers
/// by [`kind`].
pub fn describe(value: &serde_json::Value) -> String {
    use serde_json::Value;
    const MAX_CHARS: usize = 60;
    match value {
        Value::String(s) if s.chars().count() > MAX_CHARS => {
            let head: String = s.chars().take(MAX_CHARS).collect();
            let quoted = quote(&head);
            format!("{}...\"", &quoted[..quoted.len() - 1])
        }
        Value::String(s) => quote(s),
        Value::Array(_) | Value::Object(_) => kind(value).to_owned(),
        other => other.to_string(),
    }
}

/// What kind of JSON value `value` is, as every message names it: `null`, `a boolean`,
/// `a number`, `a string`, `an array` or `an object`.
///
/// ```
/// use serde_json::json;
/// use tooldef::arg_checks::{kind, named};
///
/// assert_eq!(kind(&json!([1])), "an array");
/// assert_eq!(named(&json!(42)), "the number 42");
/// assert_eq!(named(&json!("no")), "the string \"no\"");
/// ```
pub fn kind(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A value named as messages about a file show it: its [`kind`] and, for a scalar, the value
/// (`the boolean true`, `the number 42`, `the string "no"`; a string past 40 characters only as
/// `a string`).
pub fn named(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() <= 40 => format!("the string {s:?}"),
        other => kind(other).to_owned(),
    }
}

/// A pattern compiled on first use and then reused (what generated code keeps in a `static`).
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    compiled: OnceLock<Result<EcmaRegex, PatternError>>,
}

impl Pattern {
    /// A pattern from a literal (usable in `static`).
    pub const fn new(source: &'static str) -> Self {
        Pattern { source, compiled: OnceLock::new() }
    }

    /// The pattern's source text.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Checks `value` against the pattern (unanchored, as in JSON Schema).
    ///
    /// # Errors
    ///
    /// The value does not match, or the pattern cannot be enforced (see [`compile`]).
    pub fn check(&self, value: &str, pointer: &str) -> Result<(), ArgError> {
        let compiled = self.compiled.get_or_init(|| compile(self.source));
        matches(compiled.as_ref(), self.source, value, pointer)
    }
}

/// Checks `value` against a pattern given at run time (compiled on every call; prefer
/// [`Pattern`] or a cache on hot paths).
///
/// # Errors
///
/// The value does not match, or the pattern cannot be enforced (see [`compile`]).
pub fn pattern(value: &str, source: &str, pointer: &str) -> Result<(), ArgError> {
    matches(compile(source).as_ref(), source, value, pointer)
}

/// The largest compiled pattern, in bytes of the engine's program (`a{1000}{1000}` and the
/// like are refused rather than built).
pub const MAX_PATTERN_SIZE: usize = ecma::MAX_PROGRAM_SIZE;

/// A pattern that tooldef cannot enforce with ECMA-262's meaning, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pattern {} cannot be enforced: {reason}", quote(.pattern))]
pub struct PatternError {
    /// The pattern as written.
    pub pattern: String,
    /// Why (`lookbehind is not supported`, `unclosed character class`...).
    pub reason: String,
}

/// A pattern compiled with its ECMA-262 meaning (see [`compile`]).
#[derive(Debug, Clone)]
pub struct EcmaRegex {
    /// The pattern after its leading lookaheads.
    main: regex::Regex,
    /// Leading lookaheads (`^(?=...)`, `^(?!...)`): each body anchored at the start, and
    /// whether it must match (`true`) or must not.
    ahead: Vec<(regex::Regex, bool)>,
}

impl EcmaRegex {
    /// Whether the pattern matches somewhere in `value` (unanchored, as in JSON Schema).
    pub fn is_match(&self, value: &str) -> bool {
        self.ahead.iter().all(|(re, want)| re.is_match(value) == *want) && self.main.is_match(value)
    }
}

/// Compiles an ECMA-262 pattern (the dialect of JSON Schema) with its ECMA meaning, or says
/// why that cannot be done. Import and [`crate::ToolDescriptor::validate`] refuse what this
/// refuses, and dispatch refuses any value against a pattern that slipped past them (a
/// `const` descriptor): a pattern is never accepted and then ignored.
///
/// The engine is `regex-lite` (the dependency is named `regex` in `Cargo.toml`): it compiles
/// in about a sixth of the time of the `regex` crate, and its ASCII `\d`, `\w` and `\b` are
/// those of ECMA-262. The `ecma` module (shared with the macros) translates the rest where the dialects differ and refuses what
/// the engine lacks: lookbehind, backreferences, `\p{..}` property escapes, inline flags, and
/// a quantifier applied to a quantifier (a syntax error in ECMA-262). Lookahead is enforced
/// exactly in the form real schemas use it, at the start of an anchored pattern without a
/// top-level `|` (`^(?=.*[0-9])(?!.*\s).{8,}$`): each lookahead is then a separate pattern
/// anchored at the start, all of which must hold; anywhere else it is refused. The compiled
/// program is bounded by [`MAX_PATTERN_SIZE`] per part. The macros run the same code on every
/// `pattern` key, so what they accept compiles here.
///
/// # Errors
///
/// A [`PatternError`] naming the pattern and what cannot be enforced.
pub fn compile(source: &str) -> Result<EcmaRegex, PatternError> {
    ecma::compile(source)
        .map(|c| EcmaRegex { main: c.main, ahead: c.ahead })
        .map_err(|reason| PatternError { pattern: source.to_owned(), reason })
}

/// Checks `value` against a compiled pattern; a pattern that could not be compiled refuses
/// every value (it was never enforceable, so nothing may pass as if it had been checked).
pub(crate) fn matches(
    compiled: Result<&EcmaRegex, &PatternError>,
    source: &str,
    value: &str,
    pointer: &str,
) -> Result<(), ArgError> {
    match compiled {
        Ok(re) if re.is_match(value) => Ok(()),
        Ok(_) => Err(ArgError::at(
            pointer,
            format!("must match the pattern {source}; got {}", quote(value)),
        )),
        Err(e) => Err(ArgError::at(pointer, format!("cannot be checked: the tool's {e}"))),
    }
}

/// A value quoted as JSON for messages (`"kelvin"`).
pub fn quote(value: &str) -> String {
    serde_json::Value::String(value.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ecma::ecma;

    #[test]
    fn messages_name_the_pointer_and_what_to_fix() {
        let e = one_of("kelvin", ["celsius", "fahrenheit"], "/unit").unwrap_err();
        assert_eq!(e.to_string(), r#"/unit must be one of "celsius", "fahrenheit"; got "kelvin""#);
        let e = int_range(11_u8, Some(1), Some(10), "/days").unwrap_err();
        assert_eq!(e.to_string(), "/days must be at most 10; got 11");
        let e = int_range(0_i64, Some(1), None, "/days").unwrap_err();
        assert_eq!(e.to_string(), "/days must be at least 1; got 0");
        let e = length("ab", Some(3), None, "/code").unwrap_err();
        assert_eq!(
            e.to_string(),
            "/code must be at least 3 characters long; got a string of 2 characters"
        );
        let e = items(4, None, Some(3), "/tags").unwrap_err();
        assert_eq!(e.to_string(), "/tags must have at most 3 items; got an array of 4 items");
    }

    #[test]
    fn counts_agree_in_number_and_say_what_was_counted() {
        let cases = [
            (
                length("", Some(1), None, "/query"),
                "/query must be at least 1 character long; got a string of 0 characters",
            ),
            (
                length("a", Some(2), None, "/q"),
                "/q must be at least 2 characters long; got a string of 1 character",
            ),
            (
                length("ab", None, Some(1), "/q"),
                "/q must be at most 1 character long; got a string of 2 characters",
            ),
            (
                items(0, Some(1), None, "/tags"),
                "/tags must have at least 1 item; got an array of 0 items",
            ),
            (
                items(1, Some(2), None, "/tags"),
                "/tags must have at least 2 items; got an array of 1 item",
            ),
            (
                items(2, None, Some(1), "/tags"),
                "/tags must have at most 1 item; got an array of 2 items",
            ),
            (
                Err(property_count(0, Some(1), None, "/m")),
                "/m must have at least 1 key; got an object with 0 keys",
            ),
            (
                Err(property_count(1, Some(2), None, "/m")),
                "/m must have at least 2 keys; got an object with 1 key",
            ),
            (
                Err(property_count(2, None, Some(1), "/m")),
                "/m must have at most 1 key; got an object with 2 keys",
            ),
        ];
        for (result, want) in cases {
            assert_eq!(result.unwrap_err().to_string(), want);
        }
    }

    #[test]
    fn bounds_are_inclusive_or_exclusive_as_declared() {
        assert!(int_range(10, Some(1), Some(10), "/d").is_ok());
        assert!(int_exclusive(10, None, Some(10), "/d").is_err());
        assert!(int_exclusive(9, Some(1), Some(10), "/d").is_ok());
        assert!(int_multiple_of(15, 5, "/d").is_ok());
        assert!(int_multiple_of(16, 5, "/d").is_err());
        let b = NumberSchema { minimum: Some(0.0), maximum: Some(1.0), ..NumberSchema::NONE_F64 };
        assert!(float_range(0.5, &b, "/r").is_ok());
        assert!(float_range(1.5, &b, "/r").is_err());
        assert!(float_range(f64::NAN, &b, "/r").is_err());
        let step = NumberSchema { multiple_of: Some(0.1), ..NumberSchema::NONE_F64 };
        assert!(float_range(0.3, &step, "/r").is_ok(), "tolerates binary rounding");
        assert!(float_range(0.35, &step, "/r").is_err());
    }

    #[test]
    fn lengths_count_characters_not_bytes() {
        assert!(length("héé", Some(3), Some(3), "/s").is_ok());
    }

    #[test]
    fn patterns_mean_what_ecma_262_says() {
        let ok = |source: &str, value: &str| pattern(value, source, "/p").is_ok();
        // `\d` and `\w` are ASCII in ECMA-262: Arabic-Indic digits are not digits.
        assert!(ok(r"^\d{3}$", "123"));
        assert!(!ok(r"^\d{3}$", "\u{663}\u{664}\u{665}"));
        assert!(!ok(r"^\w+$", "caf\u{e9}"));
        // `\s` is Unicode whitespace; `.` stops at every line terminator.
        assert!(ok(r"^a\sb$", "a\u{a0}b"));
        assert!(ok(r"^a[\s-]b$", "a\u{3000}b"));
        assert!(!ok(r"^a\Sb$", "a\u{2028}b"));
        assert!(!ok(r"^a.b$", "a\rb"));
        assert!(ok(r"^a.b$", "a\u{e9}b"));
        // Inside a class: `\b` is a backspace, `[`, `&` and `~` are characters.
        assert!(ok(r"^[\b]$", "\u{8}"));
        assert!(ok(r"^[[&~]+$", "[&~"));
        assert!(ok(r"^a\0$", "a\0"));
        // An escaped backslash is not the start of another escape.
        assert!(ok(r"^\\s$", r"\s"));
        assert_eq!(ecma(r"^[A-Z]{3}$").unwrap(), r"^[A-Z]{3}$");
        assert_eq!(ecma(r"\.\d").unwrap(), r"\.\d");
        // Lazy quantifiers are quantifiers; a quantifier on a quantifier is a syntax error.
        assert!(ok(r"^a+?b{1,2}?$", "aab"));
        assert_eq!(ecma("a**"), Err("a quantifier cannot follow a quantifier (nothing to repeat)"));
        assert_eq!(ecma("a{2}{3}"), ecma("a+*"));
        assert_eq!(ecma("a*??"), ecma("a+*"));
        // Property escapes are beyond the engine: refused, and no value passes unchecked.
        assert_eq!(
            compile(r"^\p{L}+$").unwrap_err().to_string(),
            r#"pattern "^\\p{L}+$" cannot be enforced: Unicode property escapes are not supported"#
        );
        assert!(!ok(r"^\p{L}+$", "123"));
    }

    #[test]
    fn patterns_are_unanchored_and_compiled_once() {
        static CODE: Pattern = Pattern::new("^[A-Z]{3}$");
        assert!(CODE.check("EUR", "/c").is_ok());
        let e = CODE.check("eur", "/c").unwrap_err();
        assert_eq!(e.to_string(), r#"/c must match the pattern ^[A-Z]{3}$; got "eur""#);
        assert!(pattern("xx-12-yy", "[0-9]+", "/p").is_ok());
        // Leading lookaheads of an anchored pattern hold at the start, each exactly.
        let password = r"^(?=.*[0-9])(?!.*\s).{8,}$";
        assert!(pattern("abcdefg1", password, "/p").is_ok());
        assert!(pattern("abcdefgh", password, "/p").is_err());
        assert!(pattern("abcd efg1", password, "/p").is_err());
        assert!(pattern("abc1", password, "/p").is_err());
        assert!(pattern("ab", r"^(?=a(?:b|c))a", "/p").is_ok());
        assert!(pattern("ad", r"^(?=a(?:b|c))a", "/p").is_err());
        // Elsewhere lookahead cannot be enforced: the value is refused, never waved through.
        assert!(compile("^(?=a)b|c").is_err());
        assert!(compile("x(?=a)").is_err());
        assert_eq!(
            pattern("anything", "(?=x)", "/p").unwrap_err().to_string(),
            "/p cannot be checked: the tool's pattern \"(?=x)\" cannot be enforced: lookahead is supported only at the start of a pattern anchored with `^`, without a top-level `|`"
        );
    }

    #[test]
    fn value_messages_name_what_is_expected_and_what_came() {
        use serde_json::json;
        let e = wrong_type("an integer", &json!("three"), "/days");
        assert_eq!(e.to_string(), r#"/days must be an integer; got "three""#);
        assert_eq!(required("/city").to_string(), "/city is required");
        let e = unknown_key("/extra", Some("get_weather"), ["city", "unit"]);
        assert_eq!(
            e.to_string(),
            "/extra is not a parameter of get_weather; the parameters are city, unit"
        );
        let e = unknown_key("/x", Some("ping"), []);
        assert_eq!(e.to_string(), "/x is not a parameter of ping; it takes no parameters");
        let e = not_one_of(&json!(3), ["a", "b"], "/u");
        assert_eq!(e.to_string(), r#"/u must be one of "a", "b"; got 3"#);
        assert_eq!(
            unique(&[1, 2, 1], "/t").unwrap_err().message,
            "must not contain duplicates; items 0 and 2 are equal"
        );
        assert!(unique(&[1, 2, 3], "/t").is_ok());
        assert_eq!(describe(&json!("x".repeat(100))), format!("\"{}...\"", "x".repeat(60)));
        assert_eq!(describe(&json!({"a": 1})), "an object");
        assert_eq!(describe(&json!(null)), "null");
    }

    #[test]
    fn errors_collect_and_join() {
        let mut errs = ArgErrors::default();
        errs.push(int_range(0, Some(1), None, "/a"));
        errs.push(one_of("x", ["y"], "/b"));
        errs.push(Ok(()));
        let err = errs.into_result().unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"/a must be at least 1; got 0; /b must be one of "y"; got "x""#
        );
        assert!(ArgErrors::default().into_result().is_ok());
    }
}
