//! [`JsonWriter`]: the JSON text writer renderers write into, with serde_json's escaping and
//! number formatting (tests compare the two byte for byte).

use std::cell::Cell;
use std::fmt::Write as _;

use serde_json::Value;

use crate::descriptor::ToolDescriptor;
use crate::literal::Literal;

/// Writes compact JSON text straight into a `String`, with commas placed for you.
///
/// No intermediate `serde_json::Value`: renderers write the wire object key by key. The caller
/// keeps keys and values paired and objects balanced; the output is then valid JSON with
/// strings escaped exactly as `serde_json` escapes them.
#[derive(Debug, Default)]
pub struct JsonWriter {
    buf: String,
    comma: bool,
    /// `buf` is this thread's scratch buffer ([`JsonWriter::for_tool`]), given back on drop.
    scratch: bool,
}

/// The largest scratch buffer a thread keeps between renderings: a buffer grown past this by
/// one huge tool is freed rather than held for the thread's lifetime.
const MAX_SCRATCH: usize = 256 * 1024;

thread_local! {
    /// The buffer that [`JsonWriter::for_tool`] writes into on this thread. Taken while a
    /// writer holds it (a rendering within a rendering gets a fresh one), and given back empty.
    static SCRATCH: Cell<String> = const { Cell::new(String::new()) };
}

impl Clone for JsonWriter {
    /// A writer with the same text so far, in a buffer of its own (not the thread's scratch).
    fn clone(&self) -> Self {
        JsonWriter { buf: self.buf.clone(), comma: self.comma, scratch: false }
    }
}

impl Drop for JsonWriter {
    fn drop(&mut self) {
        if self.scratch && self.buf.capacity() <= MAX_SCRATCH {
            let mut buf = std::mem::take(&mut self.buf);
            buf.clear();
            // On a thread being torn down the buffer is simply freed.
            let _ = SCRATCH.try_with(|s| s.set(buf));
        }
    }
}

impl JsonWriter {
    /// An empty writer.
    pub fn new() -> Self {
        JsonWriter { buf: String::with_capacity(1024), comma: false, scratch: false }
    }

    /// An empty writer for the wire object of `tool`, to be [`finish`](Self::finish)ed into
    /// text of exactly its length.
    ///
    /// It writes into a buffer this thread keeps from one rendering to the next (up to 256 KiB),
    /// so that rendering a set of tools neither sizes each one beforehand nor grows a buffer
    /// for each; `finish` copies the text out, and the buffer is given back when the writer is
    /// dropped, on an error too.
    pub fn for_tool(tool: &ToolDescriptor) -> Self {
        // Given back empty (see `Drop`), or new.
        let mut buf = SCRATCH.try_with(Cell::take).unwrap_or_default();
        // Only a new buffer grows here: one that has written a tool before has this room.
        buf.reserve(tool.name.as_str().len() + tool.description.len() + 1024);
        JsonWriter { buf, comma: false, scratch: true }
    }

    /// Room for at least `additional` more bytes of text.
    pub fn reserve(&mut self, additional: usize) {
        self.buf.reserve(additional);
    }

    /// The text written so far.
    pub fn as_str(&self) -> &str {
        &self.buf
    }

    /// The finished text.
    pub fn finish(mut self) -> String {
        if self.scratch {
            // A copy at its exact length; the scratch buffer goes back on drop.
            self.buf.as_str().to_owned()
        } else {
            std::mem::take(&mut self.buf)
        }
    }

    fn sep(&mut self) {
        if self.comma {
            self.buf.push(',');
        }
    }

    /// `{`.
    pub fn begin_object(&mut self) {
        self.sep();
        self.buf.push('{');
        self.comma = false;
    }

    /// `}`.
    pub fn end_object(&mut self) {
        self.buf.push('}');
        self.comma = true;
    }

    /// `[`.
    pub fn begin_array(&mut self) {
        self.sep();
        self.buf.push('[');
        self.comma = false;
    }

    /// `]`.
    pub fn end_array(&mut self) {
        self.buf.push(']');
        self.comma = true;
    }

    /// An object key; the next call writes its value.
    pub fn key(&mut self, key: &str) {
        self.sep();
        escape_into(&mut self.buf, key);
        self.buf.push(':');
        self.comma = false;
    }

    /// A key known when the program is built (see [`json_key!`](crate::json_key)): written
    /// with its quotes and colon in one copy, without the escape check [`key`](JsonWriter::key)
    /// makes, and without the comma when none is due.
    #[inline(always)]
    pub fn static_key(&mut self, key: StaticKey) {
        // Each branch copies a length known where a literal key is inlined.
        if self.comma {
            self.buf.push_str(key.0);
        } else {
            self.buf.push_str(key.0.get(1..).unwrap_or(key.0));
        }
        self.comma = false;
    }

    /// A string value that needs no escaping, given with its quotes (`"string"`), written in
    /// one copy: the type names schemas are made of.
    #[inline]
    pub(crate) fn quoted_string(&mut self, quoted: &'static str) {
        self.sep();
        self.buf.push_str(quoted);
        self.comma = true;
    }

    /// A string value.
    pub fn string(&mut self, s: &str) {
        self.sep();
        escape_into(&mut self.buf, s);
        self.comma = true;
    }

    /// A boolean value.
    pub fn bool(&mut self, b: bool) {
        self.raw(if b { "true" } else { "false" });
    }

    /// `null`.
    pub fn null(&mut self) {
        self.raw("null");
    }

    /// An integer value.
    pub fn int(&mut self, i: i64) {
        self.sep();
        if i < 0 {
            self.buf.push('-');
        }
        push_digits(&mut self.buf, i.unsigned_abs());
        self.comma = true;
    }

    /// An unsigned integer value.
    pub fn uint(&mut self, u: u64) {
        self.sep();
        push_digits(&mut self.buf, u);
        self.comma = true;
    }

    /// A number value, written as `serde_json` writes it; NaN and infinities become `null`.
    pub fn float(&mut self, f: f64) {
        self.sep();
        push_float(&mut self.buf, f);
        self.comma = true;
    }

    /// A [`Literal`] value.
    pub fn literal(&mut self, l: &Literal) {
        match l {
            Literal::Null => self.null(),
            Literal::Bool(b) => self.bool(*b),
            Literal::Int(i) => self.int(*i),
            Literal::Float(f) => self.float(*f),
            Literal::Str(s) => self.string(s),
            Literal::List(items) => {
                self.begin_array();
                items.iter().for_each(|i| self.literal(i));
                self.end_array();
            }
            Literal::Object(entries) => {
                self.begin_object();
                for (k, v) in entries.iter() {
                    self.key(k);
                    self.literal(v);
                }
                self.end_object();
            }
        }
    }

    /// A `serde_json::Value`.
    pub fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.null(),
            Value::Bool(b) => self.bool(*b),
            Value::Number(n) => self.raw(&n.to_string()),
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                self.begin_array();
                items.iter().for_each(|i| self.value(i));
                self.end_array();
            }
            Value::Object(map) => {
                self.begin_object();
                for (k, v) in map {
                    self.key(k);
                    self.value(v);
                }
                self.end_object();
            }
        }
    }

    /// A value that is already JSON text (for example another [`Rendered::json`](super::Rendered::json)).
    pub fn raw(&mut self, json: &str) {
        self.sep();
        self.buf.push_str(json);
        self.comma = true;
    }
}

/// An object key known when the program is built, kept as `,"key":` (the comma written only
/// when one is due), checked when it is made to need no escaping; [`JsonWriter::static_key`]
/// writes it in one copy. Make one with [`json_key!`](crate::json_key).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaticKey(&'static str);

impl StaticKey {
    /// The key written as `,"key":`, whose key has no character JSON escapes.
    ///
    /// # Panics
    ///
    /// When `comma_key` is not of that form; in the `const` that [`json_key!`](crate::json_key)
    /// makes, that is a compile error rather than a panic.
    pub const fn new(comma_key: &'static str) -> StaticKey {
        let b = comma_key.as_bytes();
        let n = b.len();
        assert!(
            n >= 4 && b[0] == b',' && b[1] == b'"' && b[n - 2] == b'"' && b[n - 1] == b':',
            "a static key is written `,\"key\":`"
        );
        let mut i = 2;
        while i < n - 2 {
            assert!(
                b[i] >= 0x20 && b[i] != b'"' && b[i] != b'\\',
                "a static key must need no escaping"
            );
            i += 1;
        }
        StaticKey(comma_key)
    }

    /// The key itself, without quotes.
    pub fn as_str(&self) -> &'static str {
        self.0.get(2..self.0.len() - 2).unwrap_or_default()
    }
}

/// A [`StaticKey`] from a string literal, made and checked at compile time:
/// `out.static_key(json_key!("parameters"))` writes the key `parameters` as
/// [`JsonWriter::key`] would, in one copy. A key with a character JSON escapes does not compile.
///
/// ```
/// use tooldef::json_key;
/// use tooldef::render::JsonWriter;
///
/// let mut out = JsonWriter::new();
/// out.begin_object();
/// out.static_key(json_key!("type"));
/// out.string("function");
/// out.static_key(json_key!("name"));
/// out.string("get_weather");
/// out.end_object();
/// assert_eq!(out.as_str(), r#"{"type":"function","name":"get_weather"}"#);
/// ```
///
/// ```compile_fail
/// let key = tooldef::json_key!("say \"hi\"");
/// ```
#[macro_export]
macro_rules! json_key {
    ($key:literal) => {
        const { $crate::render::StaticKey::new(concat!(",\"", $key, "\":")) }
    };
}

/// `key!(out, "type")` writes the object key `type` (see [`json_key!`](crate::json_key)).
macro_rules! key {
    ($out:expr, $key:literal) => {
        $out.static_key(crate::json_key!($key))
    };
}
pub(crate) use key;

/// Appends the decimal digits of `n` with serde_json's own integer writer (no `fmt`
/// machinery: integers are common in schemas, and bounds of 64-bit parameters run to 19 digits).
fn push_digits(buf: &mut String, n: u64) {
    buf.push_str(itoa::Buffer::new().format(n));
}

pub(super) fn push_float(buf: &mut String, f: f64) {
    match serde_json::Number::from_f64(f) {
        Some(n) => {
            let _ = write!(buf, "{n}");
        }
        None => buf.push_str("null"),
    }
}

/// Appends `s` as a JSON string literal (quotes included), escaped as `serde_json` does.
#[inline]
pub fn escape_into(buf: &mut String, s: &str) {
    if needs_escape(s.as_bytes()) {
        escape_each_into(buf, s);
        return;
    }
    buf.reserve(s.len() + 2);
    buf.push('"');
    buf.push_str(s);
    buf.push('"');
}

/// [`escape_into`] for text with a byte to escape: byte by byte, out of line so that the
/// common path stays small.
#[inline(never)]
fn escape_each_into(buf: &mut String, s: &str) {
    buf.reserve(s.len() + 2);
    buf.push('"');
    let mut start = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        buf.push_str(&s[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            buf.push_str("\\u00");
            buf.push(char::from(HEX[usize::from(b >> 4)]));
            buf.push(char::from(HEX[usize::from(b & 0xf)]));
        } else {
            buf.push_str(esc);
        }
        start = i + 1;
    }
    buf.push_str(&s[start..]);
    buf.push('"');
}

/// Whether any byte of `bytes` must be escaped (most text, and every keyword, needs none).
///
/// Text of sixteen bytes or more is checked sixteen bytes at a time without a branch per
/// chunk, which the compiler turns into vector compares (descriptions are mostly 30 to 120
/// bytes, and hardly ever need an escape, so stopping early would not pay for its branch);
/// shorter text (keys, property names) is checked in one or two eight-byte words.
#[inline]
fn needs_escape(bytes: &[u8]) -> bool {
    let len = bytes.len();
    if len >= 16 {
        let mut chunks = bytes.chunks_exact(16);
        let mut any = false;
        for chunk in &mut chunks {
            any |= chunk_needs_escape(chunk);
        }
        // The tail: the last sixteen bytes, overlapping bytes already checked (no copy).
        return any || (!chunks.remainder().is_empty() && chunk_needs_escape(&bytes[len - 16..]));
    }
    if len >= 8 {
        // Two overlapping eight-byte reads cover eight to fifteen bytes.
        return word_needs_escape(word_at(bytes)) || word_needs_escape(word_at(&bytes[len - 8..]));
    }
    let word = if len >= 4 {
        // Two overlapping four-byte reads cover four to seven bytes.
        let head = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        let tail =
            u32::from_le_bytes([bytes[len - 4], bytes[len - 3], bytes[len - 2], bytes[len - 1]]);
        u64::from(head) | (u64::from(tail) << 32)
    } else {
        // Shorter text is padded with a byte that needs no escape.
        let mut word = [b'a'; 8];
        for (w, &b) in word.iter_mut().zip(bytes) {
            *w = b;
        }
        u64::from_le_bytes(word)
    };
    word_needs_escape(word)
}

/// Whether any of the first sixteen bytes of `chunk` is a control character, `"` or `\\`:
/// written as a fold over a fixed-size array so that it compiles to vector compares.
#[inline]
fn chunk_needs_escape(chunk: &[u8]) -> bool {
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&chunk[..16]);
    bytes.iter().fold(false, |any, &b| any | (b < 0x20) | (b == b'"') | (b == b'\\'))
}

/// The first eight bytes of `bytes` (at least eight) as a little-endian word.
#[inline]
fn word_at(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(word)
}

/// Whether any of the eight bytes of `w` is a control character, `"` or `\\`.
#[inline]
fn word_needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte below 0x20 borrows; a byte equal to the pattern becomes zero and borrows. Bytes
    // with the high bit set (UTF-8 continuation and lead bytes) are masked out by `!w`.
    let below = w.wrapping_sub(ONES * 0x20);
    let quote = (w ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES);
    let backslash = (w ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    (below | quote | backslash) & !w & HIGH != 0
}

/// The JSON text of a literal (for description notes such as `Default: "celsius".`).
pub fn literal_text(l: &Literal) -> String {
    let mut w = JsonWriter { buf: String::new(), comma: false, scratch: false };
    w.literal(l);
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scratch buffer never leaks text from one tool into the next: not from a writer
    /// dropped half-way (a render that failed), not between two writers alive at once (a
    /// rendering within a rendering), not after one huge tool.
    #[test]
    fn tool_writers_start_empty_and_finish_at_their_own_length() {
        let tool = ToolDescriptor::new("t");
        let mut failed = JsonWriter::for_tool(&tool);
        failed.begin_object();
        failed.string("left behind");
        drop(failed);

        let mut outer = JsonWriter::for_tool(&tool);
        outer.begin_object();
        let mut inner = JsonWriter::for_tool(&tool);
        inner.string("inner");
        let copy = outer.clone();
        outer.end_object();
        assert_eq!(inner.finish(), r#""inner""#);
        let outer = outer.finish();
        assert_eq!((outer.as_str(), outer.len(), outer.capacity()), ("{}", 2, 2));
        assert_eq!(copy.as_str(), "{");

        let mut huge = JsonWriter::for_tool(&tool);
        huge.string(&"x".repeat(MAX_SCRATCH * 2));
        assert_eq!(huge.finish().len(), MAX_SCRATCH * 2 + 2);
        let mut next = JsonWriter::for_tool(&tool);
        next.null();
        assert_eq!(next.finish(), "null");
        assert!(SCRATCH.with(Cell::take).capacity() <= MAX_SCRATCH);
    }

    #[test]
    fn escaping_matches_serde_json() {
        let s = "a\"b\\c\n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f}é😀";
        let mut buf = String::new();
        escape_into(&mut buf, s);
        assert_eq!(buf, serde_json::to_string(s).unwrap());
    }

    #[test]
    fn escaping_matches_serde_json_at_every_offset() {
        // The fast path skips eight bytes at a time: put each character that needs care at
        // every position of a text longer than two words, among ASCII and multi-byte text.
        let specials = ['"', '\\', '\n', '\u{0}', '\u{1f}', '\u{7f}', 'é', '€', '😀', ' ', '~'];
        for fill in ["abcdefghijklmnopqrstuvwx", "ééééééééééé", "a😀b😀c😀d😀"] {
            for special in specials {
                for at in 0..=fill.chars().count() {
                    let s: String = fill
                        .chars()
                        .take(at)
                        .chain([special])
                        .chain(fill.chars().skip(at))
                        .collect();
                    let mut buf = String::new();
                    escape_into(&mut buf, &s);
                    assert_eq!(buf, serde_json::to_string(&s).unwrap(), "{s:?}");
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn escaping_any_text_matches_serde_json(s in "(?s).{0,40}") {
            let mut buf = String::new();
            escape_into(&mut buf, &s);
            proptest::prop_assert_eq!(buf, serde_json::to_string(&s).unwrap());
        }
    }

    #[test]
    fn static_keys_are_written_as_keys() {
        let mut w = JsonWriter::new();
        w.begin_object();
        key!(w, "type");
        w.string("object");
        key!(w, "required");
        w.begin_array();
        w.end_array();
        w.key("a\"b");
        w.static_key(crate::render::Keyword::Minimum.json_key());
        w.int(1);
        w.end_object();
        assert_eq!(w.finish(), r#"{"type":"object","required":[],"a\"b":"minimum":1}"#);
        assert_eq!(crate::json_key!("minLength").as_str(), "minLength");
        assert_eq!(crate::render::Keyword::Minimum.json_key().as_str(), "minimum");
    }

    #[test]
    fn integers_are_written_as_serde_json_writes_them() {
        for i in [0, 7, -7, 10, -10, 4096, -99_999, i64::MAX, i64::MIN, i64::MIN + 1] {
            let mut w = JsonWriter::default();
            w.int(i);
            assert_eq!(w.finish(), i.to_string());
        }
        for u in [0, 9, 10, 99, 100, 101, 999, 1000, 12_345, 1_000_000_007, u64::MAX, u64::MAX - 9]
        {
            let mut w = JsonWriter::default();
            w.uint(u);
            assert_eq!(w.finish(), u.to_string());
        }
    }
}
