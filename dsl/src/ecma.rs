//! ECMA-262 patterns (the dialect of JSON Schema) compiled with ECMA's meaning, or the reason
//! that cannot be done.
//!
//! One source file serves both crates: it lives in `tooldef-macros`, which refuses a `pattern`
//! key at compile time with the reason given here, and `tooldef`'s `src/ecma.rs` is a symbolic
//! link to it (packaging copies the file into each crate), where `arg_checks::compile` wraps it for
//! import, validation and dispatch. So a pattern the macros accept is one dispatch enforces. It
//! uses `std` and the engine, `regex-lite` (named `regex` in both crates' `Cargo.toml`).

use std::borrow::Cow;

/// The largest compiled program of one part of a pattern, in bytes of the engine's program
/// (`a{1000}{1000}` and the like are refused rather than built).
pub(crate) const MAX_PROGRAM_SIZE: usize = 1 << 20;

/// A pattern compiled with its ECMA meaning: the part after any leading lookaheads, and each
/// leading lookahead's body anchored at the start with whether it must match (`true`) or not.
#[derive(Debug, Clone)]
pub(crate) struct Compiled {
    /// The pattern after its leading lookaheads.
    pub(crate) main: regex::Regex,
    /// Leading lookaheads (`^(?=...)`, `^(?!...)`), each anchored at the start.
    pub(crate) ahead: Vec<(regex::Regex, bool)>,
}

/// Compiles an ECMA-262 pattern with ECMA's meaning.
///
/// Lookahead is kept exactly in the form real schemas use it, at the start of an anchored
/// pattern without a top-level `|`: each lookahead is then a separate pattern anchored at the
/// start, all of which must hold. What the engine cannot do with ECMA's meaning is refused:
/// lookbehind, backreferences, `\p{..}` property escapes, inline flags, lookahead anywhere
/// else, a quantifier applied to a quantifier (a syntax error in ECMA-262), what the engine
/// cannot parse, and a part whose program passes [`MAX_PROGRAM_SIZE`].
///
/// # Errors
///
/// The reason the pattern cannot be enforced.
pub(crate) fn compile(source: &str) -> Result<Compiled, String> {
    let (ahead, rest) = leading_lookaheads(source);
    let mut parts = Vec::with_capacity(ahead.len());
    for (body, want) in ahead {
        parts.push((build(&format!("^(?:{body})"))?, want));
    }
    Ok(Compiled { main: build(&rest)?, ahead: parts })
}

/// Compiles one part: translated by [`ecma`], bounded by [`MAX_PROGRAM_SIZE`].
fn build(source: &str) -> Result<regex::Regex, String> {
    let translated = ecma(source).map_err(str::to_owned)?;
    regex::RegexBuilder::new(&translated).size_limit(MAX_PROGRAM_SIZE).build().map_err(|e| {
        let text = e.to_string();
        // The engine's message ends with its own reading of the pattern: keep the reason.
        text.lines().rev().find(|l| l.starts_with("error:")).map_or(
            if text.contains("size limit") || text.contains("too big") {
                format!("it compiles to more than {MAX_PROGRAM_SIZE} bytes")
            } else {
                text.lines().next().unwrap_or("").to_owned()
            },
            |l| l.trim_start_matches("error:").trim().to_owned(),
        )
    })
}

/// Splits `^(?=A)(?!B)R` into its lookahead bodies (`A` must match, `B` must not) and `^R`,
/// when the lookaheads lead an anchored pattern whose rest has no top-level `|` (otherwise
/// the lookaheads do not simply hold at the start). Anything else is returned whole.
fn leading_lookaheads(source: &str) -> (Vec<(&str, bool)>, Cow<'_, str>) {
    let whole = (Vec::new(), Cow::Borrowed(source));
    let Some(mut rest) = source.strip_prefix('^') else { return whole };
    let mut ahead = Vec::new();
    while let Some(want) =
        rest.strip_prefix("(?=").map(|_| true).or(rest.strip_prefix("(?!").map(|_| false))
    {
        let Some(end) = group_end(&rest[3..]) else { return whole };
        ahead.push((&rest[3..3 + end], want));
        rest = &rest[3 + end + 1..];
    }
    if ahead.is_empty() || has_top_level_bar(rest) {
        return whole;
    }
    (ahead, Cow::Owned(format!("^{rest}")))
}

/// The byte offset of the `)` that closes a group whose body starts `text`, skipping escapes,
/// classes and nested groups.
fn group_end(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_class = false;
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class && depth == 0 => return Some(i),
            ')' if !in_class => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Whether `text` has a `|` outside every group and class.
fn has_top_level_bar(text: &str) -> bool {
    let mut depth = 0usize;
    let mut in_class = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '(' if !in_class => depth += 1,
            ')' if !in_class => depth = depth.saturating_sub(1),
            '|' if !in_class && depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// ECMA-262 whitespace and line terminators (`\s`), as the items of a character class.
const ECMA_SPACE: &str = r"\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// An ECMA-262 pattern in the syntax of the engine, with ECMA's meaning: `\s` and `\S` are
/// Unicode whitespace, `.` stops at every line terminator (not only `\n`), `[\b]` is a
/// backspace, `\0` is NUL, and `[`, `&`, `~` inside a class are literal characters. `\d`,
/// `\w`, `\b` and their negations already mean the same in both. One approximation: `\S`
/// inside a class is the engine's ASCII `\S` (a class cannot hold a negated class there).
///
/// # Errors
///
/// What the engine cannot do with ECMA's meaning (see [`compile`]).
pub(crate) fn ecma(source: &str) -> Result<Cow<'_, str>, &'static str> {
    if !source.contains(['\\', '.', '[', '(', '{', '*', '+', '?']) {
        return Ok(Cow::Borrowed(source));
    }
    let mut out = String::with_capacity(source.len() + 16);
    let mut in_class = false;
    // Whether the last item outside a class was a quantifier (`*`, `+`, `?`, `{n,m}`), and
    // whether that quantifier already took its lazy `?`.
    let mut after_quantifier = false;
    let mut lazy_taken = false;
    let mut chars = source.chars().peekable();
    // Escapes are consumed whole, so `\\d` stays an escaped backslash and a `d`.
    while let Some(c) = chars.next() {
        let quantifier = !in_class && matches!(c, '*' | '+' | '?' | '{');
        if quantifier && after_quantifier {
            if c == '?' && !lazy_taken {
                lazy_taken = true;
                out.push('?');
                continue;
            }
            return Err("a quantifier cannot follow a quantifier (nothing to repeat)");
        }
        if !quantifier && !in_class {
            after_quantifier = false;
            lazy_taken = false;
        }
        match c {
            '\\' => match chars.next() {
                Some('s') if in_class => out.push_str(ECMA_SPACE),
                Some('s') => {
                    out.push('[');
                    out.push_str(ECMA_SPACE);
                    out.push(']');
                }
                Some('S') if !in_class => {
                    out.push_str("[^");
                    out.push_str(ECMA_SPACE);
                    out.push(']');
                }
                Some('b') if in_class => out.push_str(r"\x08"),
                Some('0') if !chars.peek().is_some_and(char::is_ascii_digit) => {
                    out.push_str(r"\x00");
                }
                Some('1'..='9') | Some('k') => return Err("backreferences are not supported"),
                Some('p' | 'P') => return Err("Unicode property escapes are not supported"),
                Some('A' | 'z' | 'Z' | '<' | '>') => {
                    return Err("this escape means something else to the engine");
                }
                Some(e) => {
                    out.push('\\');
                    out.push(e);
                }
                None => return Err("it ends with a lone backslash"),
            },
            '[' if !in_class => {
                in_class = true;
                out.push('[');
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            '[' | '&' | '~' if in_class => {
                out.push('\\');
                out.push(c);
            }
            '.' if !in_class => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
            '(' if !in_class && chars.peek() == Some(&'?') => {
                chars.next();
                let rest: String = chars.clone().take(2).collect();
                if rest.starts_with(['=', '!']) {
                    return Err(
                        "lookahead is supported only at the start of a pattern anchored with `^`, \
                         without a top-level `|`",
                    );
                }
                if rest == "<=" || rest == "<!" {
                    return Err("lookbehind is not supported");
                }
                if !rest.starts_with([':', '<']) {
                    return Err("only `(?:` and `(?<name>` groups are ECMA-262 groups");
                }
                out.push_str("(?");
                if rest.starts_with('<') {
                    // A named group: the engine spells it `(?P<name>` too, and `(?<name>`.
                    chars.next();
                    out.push('<');
                }
            }
            '{' if !in_class => {
                // A counted quantifier: copy it whole, so `}` ends it.
                out.push('{');
                for d in chars.by_ref() {
                    out.push(d);
                    if d == '}' {
                        break;
                    }
                }
                after_quantifier = true;
                continue;
            }
            other => out.push(other),
        }
        if quantifier {
            after_quantifier = true;
        }
    }
    Ok(Cow::Owned(out))
}
