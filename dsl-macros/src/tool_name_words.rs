//! The words of the tool name rule, written once: what a name that breaks it is told, whether
//! it was written in `#[tool]`, given to the `const` builder or read at run time.
//!
//! `tooldef`'s `NameError` (run time) and `ToolName::new` (a `const` panic) and `#[tool]`'s
//! compile-time check all build their message from these pieces, in this order. One source file
//! serves both crates: it lives in `tooldef-macros`, and `tooldef`'s
//! `src/descriptor/name_words.rs` is a symbolic link to it (packaging copies the file into each
//! crate). It uses nothing but `std`.

/// `tool name is empty; it must match PATTERN`.
pub const EMPTY: &str = "tool name is empty; it must match ";
/// Before the name, in the other two messages.
pub const NAME: &str = "tool name `";
/// `tool name `N` is LEN characters long; at most MAX are allowed`.
pub const TOO_LONG: [&str; 3] = ["` is ", " characters long; at most ", " are allowed"];
/// `tool name `N` has the character 'C' at byte AT; only CHARACTERS are allowed`.
pub const BAD_CHAR: [&str; 4] = ["` has the character ", " at byte ", "; only ", " are allowed"];

/// The message for an empty name under the rule `pattern`.
pub fn empty(pattern: &str) -> String {
    format!("{EMPTY}{pattern}")
}

/// The message for a name of `len` bytes under a rule of at most `max`.
pub fn too_long(name: &str, len: usize, max: usize) -> String {
    let [is, long, allowed] = TOO_LONG;
    format!("{NAME}{name}{is}{len}{long}{max}{allowed}")
}

/// The message for a name whose first character the rule refuses is `ch`, at byte `at`;
/// `characters` are those it allows, in words.
pub fn bad_char(name: &str, ch: char, at: usize, characters: &str) -> String {
    let [has, byte, only, allowed] = BAD_CHAR;
    format!("{NAME}{name}{has}{ch:?}{byte}{at}{only}{characters}{allowed}")
}
