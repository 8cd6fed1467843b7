//! The rules a grammar definition keeps, checked by `#[derive(ToolGrammar)]` at compile time
//! and by `tooldef`'s `Grammar::check` at run time.
//!
//! One source file serves both crates, as `ecma.rs` does: it lives in `tooldef-macros` and
//! `tooldef`'s `src/grammar_rules.rs` is a symbolic link to it (packaging copies the file into
//! each crate). It uses `std`, the engine (`regex-lite`, named `regex` in both crates) and
//! `ecma::MAX_PROGRAM_SIZE`.

/// The longest grammar definition, in bytes.
pub(crate) const MAX_DEFINITION_BYTES: usize = 16 * 1024;

/// Whether `definition` (a regex when `regex`, else a Lark grammar) is one OpenAI's grammar
/// engine can take: not empty, at most [`MAX_DEFINITION_BYTES`], no lazy quantifier or
/// lookaround, and, for a regex, compiling.
pub(crate) fn check_definition(regex: bool, definition: &str) -> Result<(), String> {
    if definition.trim().is_empty() {
        return Err("the grammar definition is empty".to_owned());
    }
    if definition.len() > MAX_DEFINITION_BYTES {
        return Err(format!(
            "the grammar definition is {} bytes, more than {MAX_DEFINITION_BYTES}",
            definition.len()
        ));
    }
    if let Some(at) = lazy_or_lookaround(definition) {
        return Err(format!(
            "the grammar uses a lazy quantifier or a lookaround at byte {at}, which OpenAI's \
             grammar engine does not support"
        ));
    }
    if regex {
        compile(definition)?;
    }
    Ok(())
}

/// The byte of the first `*?`, `+?`, `??`, `}?`, `(?=`, `(?!`, `(?<=` or `(?<!` outside a
/// character class and not escaped.
fn lazy_or_lookaround(definition: &str) -> Option<usize> {
    let bytes = definition.as_bytes();
    let (mut i, mut class, mut quoted) = (0, false, None::<u8>);
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\\' => {
                i += 2;
                continue;
            }
            b'"' | b'\'' if !class && quoted.is_none_or(|q| q == b) => {
                quoted = if quoted.is_some() { None } else { Some(b) };
            }
            _ if quoted.is_some() => {}
            b'[' => class = true,
            b']' => class = false,
            b'*' | b'+' | b'?' | b'}' if !class && bytes.get(i + 1) == Some(&b'?') => {
                return Some(i);
            }
            b'(' if !class => {
                let rest = &definition[i + 1..];
                if ["?=", "?!", "?<=", "?<!"].iter().any(|p| rest.starts_with(p)) {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The regex anchored at both ends, compiled with a bounded program.
pub(crate) fn compile(definition: &str) -> Result<regex::Regex, String> {
    regex::RegexBuilder::new(&format!("^(?:{definition})$"))
        .size_limit(crate::ecma::MAX_PROGRAM_SIZE)
        .build()
        .map_err(|e| {
            let text = e.to_string();
            let reason = text.lines().rev().find(|l| l.starts_with("error:")).map_or_else(
                || text.lines().next().unwrap_or("").to_owned(),
                |l| l.trim_start_matches("error:").trim().to_owned(),
            );
            format!("the regular expression does not compile: {reason}")
        })
}
