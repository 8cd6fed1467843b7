//! The key letters of the packed tables that `tooldef-macros` writes and `tooldef` reads (the
//! format is described in `tooldef`'s `tool_schema/packed.rs`).
//!
//! One source file serves both crates: it lives in `tooldef-macros`, and `tooldef`'s
//! `src/tool_schema/packed_keys.rs` is a symbolic link to it (packaging copies the file into each
//! crate), so the writer and the reader cannot disagree on a letter. It uses nothing but `std`.

/// The tool's title (tool tables).
pub const TITLE: u8 = b'T';
/// The tool's description (tool tables).
pub const DESCRIPTION: u8 = b'D';
/// The read-only hint, `1` or `0` (tool tables).
pub const READ_ONLY: u8 = b'R';
/// The destructive hint, `1` or `0` (tool tables).
pub const DESTRUCTIVE: u8 = b'X';
/// The idempotent hint, `1` or `0` (tool tables).
pub const IDEMPOTENT: u8 = b'I';
/// The open-world hint, `1` or `0` (tool tables).
pub const OPEN_WORLD: u8 = b'O';

/// Starts a parameter (or field); the value is its wire name.
pub const PARAM: u8 = b'p';
/// The description of the parameter, or of the enum value, before it.
pub const DOC: u8 = b'd';
/// The parameter's default, a literal.
pub const DEFAULT: u8 = b'=';
/// One example of the parameter, a literal (repeated).
pub const EXAMPLE: u8 = b'e';
/// The parameter's minimum, a literal.
pub const MINIMUM: u8 = b'<';
/// The parameter's maximum, a literal.
pub const MAXIMUM: u8 = b'>';
/// The parameter's minimum length, in decimal.
pub const MIN_LENGTH: u8 = b'l';
/// The parameter's maximum length, in decimal.
pub const MAX_LENGTH: u8 = b'L';
/// The parameter's pattern.
pub const PATTERN: u8 = b'r';
/// The parameter's format.
pub const FORMAT: u8 = b'f';
/// One allowed value of the parameter (repeated).
pub const ONE_OF: u8 = b'o';
/// The field is `#[serde(flatten)]`; the value is empty.
pub const FLATTEN: u8 = b'F';
/// One value of an enum (enum tables only).
pub const ENUM_VALUE: u8 = b'v';

/// The first letter of a literal value: a string follows.
pub const LIT_STR: u8 = b's';
/// The first letter of a literal value: an integer follows.
pub const LIT_INT: u8 = b'i';
/// The first letter of a literal value: a number with a fraction follows.
pub const LIT_FLOAT: u8 = b'f';
/// The first letter of a literal value: `true` or `false` follows.
pub const LIT_BOOL: u8 = b'b';
