//! One segment of a JSON pointer (RFC 6901): the `~0` / `~1` escapes, written once.
//!
//! `#[tool]` writes the pointer of each parameter into the code it generates, and `tooldef`
//! builds pointers at run time; both must escape a property name such as `a/b~c` the same way
//! (`a~1b~0c`). One source file serves both crates: it lives in `tooldef-macros`, and
//! `tooldef`'s `src/pointer/segment.rs` is a symbolic link to it (packaging copies the file
//! into each crate). It uses nothing but `std`. In `tooldef` only the `pointer` module uses it.

use std::borrow::Cow;

/// Whether `segment` holds a character that a pointer segment escapes.
fn needs_escape(segment: &str) -> bool {
    segment.bytes().any(|b| b == b'~' || b == b'/')
}

/// Appends `segment` to `out` with `~` written `~0` and `/` written `~1`.
pub fn escape_into(out: &mut String, segment: &str) {
    if !needs_escape(segment) {
        out.push_str(segment);
        return;
    }
    for c in segment.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// `segment` escaped (`a/b~c` is `a~1b~0c`), borrowed when nothing needs escaping.
pub fn escape(segment: &str) -> Cow<'_, str> {
    if !needs_escape(segment) {
        return Cow::Borrowed(segment);
    }
    let mut out = String::with_capacity(segment.len() + 2);
    escape_into(&mut out, segment);
    Cow::Owned(out)
}

/// One escaped segment, unescaped (`~1` is `/`, `~0` is `~`), borrowed when it holds no `~`.
///
/// `~1` is replaced before `~0`, so `~01` reads as `~1` and not as `/`.
pub fn unescape(segment: &str) -> Cow<'_, str> {
    if !segment.contains('~') {
        return Cow::Borrowed(segment);
    }
    Cow::Owned(segment.replace("~1", "/").replace("~0", "~"))
}
