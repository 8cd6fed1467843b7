//! The incremental JSON scanner: finds, in argument text that arrives in pieces, every key and
//! every value that is already complete, with its path, without parsing anything twice.
//!
//! The scanner keeps only a small state (where it is, a stack of the open containers with the
//! current key or index) and offsets into the caller's buffer; it never copies text. It checks
//! the structure (brackets, commas, colons, string escapes) as it goes, so a malformed argument
//! is reported as soon as the offending byte arrives. The inside of numbers and literals is left
//! to `serde_json`, which parses each completed scalar that the early checker looks at.

use std::ops::Range;

/// One open container on the path to the value being scanned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Frame {
    /// An object; `key` is the byte range of the current key (quotes included), once read.
    Object {
        /// The current key's range in the buffer.
        key: Option<Range<usize>>,
    },
    /// An array; `index` is the index of the current item.
    Array {
        /// The current item's index.
        index: usize,
    },
}

/// A key or a value that has just been completed: its byte range, and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Completed {
    /// The key's or the value's text in the buffer.
    pub(crate) range: Range<usize>,
    /// Whether it is an object or an array (else a key, a string, number or literal).
    pub(crate) container: bool,
    /// Whether it is an object's key (the last frame's key; its value is still to come).
    pub(crate) key: bool,
}

/// A structural error, at a byte offset of the argument text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    /// The byte offset of the offending byte.
    pub(crate) at: usize,
    /// What was expected there.
    pub(crate) message: &'static str,
    /// Whether the text is well formed so far and only nests deeper than [`MAX_NESTING`]: the
    /// array or object opening at `at` is the value at the end of the scanner's frames.
    pub(crate) too_deep: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Before the root value (only whitespace so far).
    Start,
    /// A value is expected (after `:` or `,` in an array, or after `[`).
    Value,
    /// After `[`: a value or `]`.
    ValueOrClose,
    /// After `{`: a key or `}`.
    KeyOrClose,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value inside a container: `,` or the closing bracket.
    CommaOrClose,
    /// Inside a string; `key` when it is an object key.
    Str { key: bool, escape: bool },
    /// Inside a number or a literal (`true`, `false`, `null`).
    Scalar,
    /// The root value is complete; only whitespace may follow.
    End,
}

/// Nested containers deeper than this are refused (bounded memory for hostile input): the
/// limit of every reader of arguments.
pub(crate) const MAX_NESTING: usize = crate::json_text::MAX_DEPTH;

/// The scanner's state over one argument text.
#[derive(Clone, Debug)]
pub(crate) struct Scanner {
    /// How many bytes of the buffer have been scanned.
    pos: usize,
    state: State,
    /// The open containers, outermost first, each with the offset of its opening bracket.
    stack: Vec<(Frame, usize)>,
    /// Where the string or scalar being scanned started.
    token_start: usize,
    /// The first error; once set, scanning stops.
    error: Option<SyntaxError>,
}

impl Default for Scanner {
    fn default() -> Self {
        Scanner { pos: 0, state: State::Start, stack: Vec::new(), token_start: 0, error: None }
    }
}

impl Scanner {
    /// The open containers, outermost first.
    pub(crate) fn frames(&self) -> impl ExactSizeIterator<Item = &Frame> + Clone + '_ {
        self.stack.iter().map(|(f, _)| f)
    }

    /// Whether nothing but whitespace has been seen.
    pub(crate) fn is_blank(&self) -> bool {
        self.state == State::Start
    }

    /// The first structural error, once found.
    pub(crate) fn error(&self) -> Option<&SyntaxError> {
        self.error.as_ref()
    }

    /// Whether the root value is complete.
    pub(crate) fn is_done(&self) -> bool {
        self.state == State::End
    }

    /// Scans the bytes of `buf` not yet seen, calling `on` for every key and every value
    /// completed inside the root container (`frames()` is then the path to it, which for a key
    /// ends with the key's object and the key; the root itself completes with no frames). `buf`
    /// must be the previous buffer with text appended.
    ///
    /// The root must be an object: tool arguments always are.
    pub(crate) fn advance(
        &mut self,
        buf: &str,
        on: &mut impl FnMut(&Scanner, Completed),
    ) -> Result<(), SyntaxError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let bytes = buf.as_bytes();
        let mut i = self.pos;
        while i < bytes.len() {
            let b = bytes[i];
            match self.state {
                State::Str { key, escape } => {
                    if escape {
                        self.state = State::Str { key, escape: false };
                        i += 1;
                        continue;
                    }
                    // Skip plain string bytes in one go.
                    match bytes[i..].iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20) {
                        None => i = bytes.len(),
                        Some(n) => {
                            i += n;
                            match bytes[i] {
                                b'\\' => self.state = State::Str { key, escape: true },
                                b'"' => {
                                    let range = self.token_start..i + 1;
                                    if key {
                                        if let Some((Frame::Object { key }, _)) =
                                            self.stack.last_mut()
                                        {
                                            *key = Some(range.clone());
                                        }
                                        self.state = State::Colon;
                                        on(self, Completed { range, container: false, key: true });
                                    } else {
                                        self.state = State::CommaOrClose;
                                        on(self, Completed { range, container: false, key: false });
                                    }
                                }
                                _ => return self.fail(i, "a control character inside a string"),
                            }
                            i += 1;
                        }
                    }
                    continue;
                }
                State::Scalar => {
                    if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        self.state = State::CommaOrClose;
                        let range = self.token_start..i;
                        on(self, Completed { range, container: false, key: false });
                        // The delimiter is scanned again in the new state.
                        continue;
                    }
                    if !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.')) {
                        return self.fail(i, "an unexpected character in a number or literal");
                    }
                    i += 1;
                    continue;
                }
                _ => {}
            }
            if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
                continue;
            }
            match self.state {
                State::Start => {
                    if b != b'{' {
                        return self.fail(i, "the arguments must be a JSON object");
                    }
                    self.open(Frame::Object { key: None }, i)?;
                    self.state = State::KeyOrClose;
                }
                State::Value | State::ValueOrClose => {
                    if b == b']' && self.state == State::ValueOrClose {
                        self.close(i, on)?;
                    } else {
                        self.value_start(b, i)?;
                    }
                }
                State::KeyOrClose | State::Key => match b {
                    b'"' => {
                        self.token_start = i;
                        self.state = State::Str { key: true, escape: false };
                    }
                    b'}' if self.state == State::KeyOrClose => self.close(i, on)?,
                    _ => return self.fail(i, "expected a key in double quotes"),
                },
                State::Colon => {
                    if b != b':' {
                        return self.fail(i, "expected `:` after a key");
                    }
                    self.state = State::Value;
                }
                State::CommaOrClose => match (b, self.stack.last_mut()) {
                    (b',', Some((Frame::Object { key }, _))) => {
                        *key = None;
                        self.state = State::Key;
                    }
                    (b',', Some((Frame::Array { index }, _))) => {
                        *index += 1;
                        self.state = State::Value;
                    }
                    (b'}', Some((Frame::Object { .. }, _)))
                    | (b']', Some((Frame::Array { .. }, _))) => self.close(i, on)?,
                    _ => return self.fail(i, "expected `,` or a closing bracket"),
                },
                State::End => return self.fail(i, "unexpected text after the arguments object"),
                // Handled before the whitespace skip above.
                State::Str { .. } | State::Scalar => {}
            }
            i += 1;
        }
        self.pos = i;
        Ok(())
    }

    fn value_start(&mut self, b: u8, i: usize) -> Result<(), SyntaxError> {
        match b {
            b'{' => {
                self.open(Frame::Object { key: None }, i)?;
                self.state = State::KeyOrClose;
            }
            b'[' => {
                self.open(Frame::Array { index: 0 }, i)?;
                self.state = State::ValueOrClose;
            }
            b'"' => {
                self.token_start = i;
                self.state = State::Str { key: false, escape: false };
            }
            b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => {
                self.token_start = i;
                self.state = State::Scalar;
            }
            _ => return self.fail(i, "expected a JSON value"),
        }
        Ok(())
    }

    fn open(&mut self, frame: Frame, at: usize) -> Result<(), SyntaxError> {
        if self.stack.len() >= MAX_NESTING {
            let e =
                SyntaxError { at, message: "the arguments are nested too deeply", too_deep: true };
            self.error = Some(e.clone());
            return Err(e);
        }
        self.stack.push((frame, at));
        Ok(())
    }

    fn close(
        &mut self,
        i: usize,
        on: &mut impl FnMut(&Scanner, Completed),
    ) -> Result<(), SyntaxError> {
        let Some((_, start)) = self.stack.pop() else {
            return self.fail(i, "a closing bracket without an opening one");
        };
        self.state = if self.stack.is_empty() { State::End } else { State::CommaOrClose };
        on(self, Completed { range: start..i + 1, container: true, key: false });
        Ok(())
    }

    fn fail<T>(&mut self, at: usize, message: &'static str) -> Result<T, SyntaxError> {
        let e = SyntaxError { at, message, too_deep: false };
        self.error = Some(e.clone());
        Err(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value completed while `text` arrives in pieces of `step` bytes, as (path, text).
    fn completions(text: &str, step: usize) -> Result<Vec<(String, String)>, SyntaxError> {
        let mut scanner = Scanner::default();
        let mut buf = String::new();
        let mut out = Vec::new();
        let chars: Vec<char> = text.chars().collect();
        for chunk in chars.chunks(step) {
            buf.extend(chunk);
            scanner.advance(&buf, &mut |s, c| {
                let path: Vec<String> = s
                    .frames()
                    .map(|f| match f {
                        Frame::Object { key: Some(k) } => buf[k.clone()].to_owned(),
                        Frame::Object { key: None } => "?".to_owned(),
                        Frame::Array { index } => index.to_string(),
                    })
                    .collect();
                let text = &buf[c.range];
                out.push((
                    path.join("/"),
                    if c.key { format!("key {text}") } else { text.to_owned() },
                ));
            })?;
        }
        Ok(out)
    }

    #[test]
    fn values_complete_with_their_paths_whatever_the_chunking() {
        let text = r#" {"city": "Pa\"ris", "days": 3, "tags": [true, {"x": null}], "n": -1.5e3}"#;
        let expected: Vec<(String, String)> = [
            (r#""city""#, r#"key "city""#),
            (r#""city""#, r#""Pa\"ris""#),
            (r#""days""#, r#"key "days""#),
            (r#""days""#, "3"),
            (r#""tags""#, r#"key "tags""#),
            (r#""tags"/0"#, "true"),
            (r#""tags"/1/"x""#, r#"key "x""#),
            (r#""tags"/1/"x""#, "null"),
            (r#""tags"/1"#, r#"{"x": null}"#),
            (r#""tags""#, r#"[true, {"x": null}]"#),
            (r#""n""#, r#"key "n""#),
            (r#""n""#, "-1.5e3"),
            ("", text.trim()),
        ]
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect();
        for step in [1, 2, 3, 7, text.len()] {
            assert_eq!(completions(text, step).unwrap(), expected, "step {step}");
        }
    }

    #[test]
    fn a_number_completes_only_at_its_delimiter() {
        let mut scanner = Scanner::default();
        let mut seen = Vec::new();
        let mut buf = String::from(r#"{"days": 12"#);
        scanner.advance(&buf, &mut |_, c| seen.push(c.range)).unwrap();
        assert_eq!(seen, vec![1..7], "the key only: 12 might still become 123");
        buf.push(',');
        scanner.advance(&buf, &mut |_, c| seen.push(c.range)).unwrap();
        assert_eq!(seen, vec![1..7, 9..11]);
    }

    #[test]
    fn structural_errors_name_the_byte() {
        let cases = [
            ("[1]", 0, "the arguments must be a JSON object"),
            (r#"{"a" 1}"#, 5, "expected `:` after a key"),
            (r#"{"a": 1 "b": 2}"#, 8, "expected `,` or a closing bracket"),
            (r#"{a: 1}"#, 1, "expected a key in double quotes"),
            (r#"{"a": ]}"#, 6, "expected a JSON value"),
            (r#"{"a": [1}"#, 8, "expected `,` or a closing bracket"),
            (r#"{} x"#, 3, "unexpected text after the arguments object"),
            ("{\"a\": \"x\ny\"}", 8, "a control character inside a string"),
        ];
        for (text, at, message) in cases {
            let want = SyntaxError { at, message, too_deep: false };
            assert_eq!(completions(text, 1).unwrap_err(), want, "{text}");
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_followed() {
        let text = format!(r#"{{"a": {}"#, "[".repeat(MAX_NESTING + 5));
        let err = completions(&text, 64).unwrap_err();
        // The root object and `MAX_NESTING - 1` arrays fit; the next bracket is refused.
        let at = 6 + MAX_NESTING - 1;
        assert_eq!(
            err,
            SyntaxError { at, message: "the arguments are nested too deeply", too_deep: true }
        );
    }
}
