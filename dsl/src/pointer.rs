//! [`JsonPointer`]: a JSON pointer (RFC 6901) that escapes its own segments, and the one place
//! in the crate that knows the `~0` / `~1` escapes.

use std::borrow::{Borrow, Cow};
use std::fmt::{self, Write as _};
use std::str::FromStr;

// Shared with `tooldef-macros`, which writes the pointers of `#[tool]` parameters with it.
#[allow(unreachable_pub)]
mod segment;

pub(crate) use segment::{escape_into, unescape};

/// A JSON pointer in its RFC 6901 text form: `""` is the whole document, `/properties/a~1b`
/// is the property `a/b` of the object at `/properties`.
///
/// Segments are escaped as they are added ([`push`](Self::push), [`child`](Self::child)), so
/// a pointer always holds valid pointer text. A walker keeps one pointer for the whole walk:
/// it notes [`len`](Self::len) before descending and [`truncate`](Self::truncate)s back to it
/// afterwards, which allocates nothing once the buffer has grown.
///
/// ```
/// use tooldef::JsonPointer;
///
/// let mut p = JsonPointer::root();
/// p.push("properties");
/// let mark = p.len();
/// p.push("a/b");
/// p.push_index(2);
/// assert_eq!(p, "/properties/a~1b/2");
/// assert_eq!(p.segments().collect::<Vec<_>>(), ["properties", "a/b", "2"]);
/// p.truncate(mark);
/// assert_eq!(p, "/properties");
/// assert_eq!(p.child("~x"), "/properties/~0x");
/// assert_eq!(JsonPointer::parse("/a~1b").unwrap().segments().next().unwrap(), "a/b");
/// assert!(JsonPointer::parse("a").is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JsonPointer(String);

/// Why text is not a JSON pointer ([`JsonPointer::parse`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PointerError {
    /// Non-empty text that does not start with `/`.
    #[error("a JSON pointer is empty or starts with `/`")]
    NoLeadingSlash,
    /// A `~` not followed by `0` or `1`, at this byte offset.
    #[error("`~` at byte {at} is not followed by `0` or `1`")]
    BadEscape {
        /// Byte offset of the `~`.
        at: usize,
    },
    /// In a URI fragment ([`JsonPointer::from_fragment`]), a `%` at this byte offset that is
    /// not followed by two hexadecimal digits, or whose bytes do not decode to UTF-8 text.
    #[error("`%` at byte {at} is not a percent escape of UTF-8 text")]
    BadPercent {
        /// Byte offset of the `%` in the fragment as given.
        at: usize,
    },
}

impl JsonPointer {
    /// The pointer to the whole document (`""`).
    pub const fn root() -> Self {
        JsonPointer(String::new())
    }

    /// The root pointer with room for `capacity` bytes of text.
    pub fn with_capacity(capacity: usize) -> Self {
        JsonPointer(String::with_capacity(capacity))
    }

    /// The pointer through `segments`, each escaped (`["$defs", "a/b"]` is `/$defs/a~1b`).
    pub fn from_segments<I>(segments: I) -> Self
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let mut p = JsonPointer::root();
        for s in segments {
            p.push(s.as_ref());
        }
        p
    }

    /// Reads text that is already a JSON pointer (escaped, as in a message or a `$ref` after
    /// its `#`).
    ///
    /// # Errors
    ///
    /// Non-empty text that does not start with `/`, or a `~` not followed by `0` or `1`.
    pub fn parse(text: &str) -> Result<Self, PointerError> {
        if !text.is_empty() && !text.starts_with('/') {
            return Err(PointerError::NoLeadingSlash);
        }
        let bytes = text.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'~' && !matches!(bytes.get(i + 1), Some(b'0' | b'1')) {
                return Err(PointerError::BadEscape { at: i });
            }
        }
        Ok(JsonPointer(text.to_owned()))
    }

    /// Reads the fragment of a URI that is a JSON pointer, as in a `$ref` (`#/$defs/a~1b`,
    /// `#/$defs/a%20b`): percent escapes are decoded first (RFC 3986), then the text is read as
    /// [`parse`](Self::parse) reads it. The leading `#` may be given or left off.
    ///
    /// ```
    /// use tooldef::JsonPointer;
    ///
    /// let p = JsonPointer::from_fragment("#/$defs/a~1b%20c").unwrap();
    /// assert_eq!(p.segments().collect::<Vec<_>>(), ["$defs", "a/b c"]);
    /// assert_eq!(JsonPointer::from_fragment("").unwrap(), "");
    /// assert!(JsonPointer::from_fragment("#/a%2").is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// A `%` not followed by two hexadecimal digits, escapes that do not decode to UTF-8 text,
    /// or decoded text that is not a JSON pointer (the offset of a
    /// [`BadEscape`](PointerError::BadEscape) counts in the decoded text).
    pub fn from_fragment(fragment: &str) -> Result<Self, PointerError> {
        let skip = usize::from(fragment.starts_with('#'));
        let text = &fragment[skip..];
        if !text.contains('%') {
            return JsonPointer::parse(text);
        }
        let bad = |at: usize| PointerError::BadPercent { at: skip + at };
        let bytes = text.as_bytes();
        let mut decoded = Vec::with_capacity(bytes.len());
        // For each decoded byte, the offset in `text` of what produced it.
        let mut origin = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
                let b = hex.and_then(|h| u8::from_str_radix(h, 16).ok()).ok_or_else(|| bad(i))?;
                decoded.push(b);
                origin.push(i);
                i += 3;
            } else {
                decoded.push(bytes[i]);
                origin.push(i);
                i += 1;
            }
        }
        let text =
            String::from_utf8(decoded).map_err(|e| bad(origin[e.utf8_error().valid_up_to()]))?;
        JsonPointer::parse(&text)
    }

    /// Pointer text that tooldef wrote itself, such as the pointer of a parameter in code that
    /// `#[tool]` generates. Text that is not a pointer (it never is, unless a caller of a
    /// public check function passes some) is kept whole as one segment, so the result is valid.
    pub(crate) fn from_written(text: &str) -> Self {
        JsonPointer::parse(text).unwrap_or_else(|_| JsonPointer::from_segments([text]))
    }

    /// Appends one segment, escaping `~` as `~0` and `/` as `~1`.
    pub fn push(&mut self, segment: &str) {
        self.0.push('/');
        escape_into(&mut self.0, segment);
    }

    /// Appends an array index.
    pub fn push_index(&mut self, index: usize) {
        self.0.push('/');
        self.0.push_str(itoa::Buffer::new().format(index));
    }

    /// Appends the segments of `other` (a pointer followed by a pointer is a pointer).
    pub(crate) fn push_pointer(&mut self, other: &JsonPointer) {
        self.0.push_str(&other.0);
    }

    /// This pointer with one more segment.
    pub fn child(&self, segment: &str) -> JsonPointer {
        let mut p = JsonPointer(String::with_capacity(self.0.len() + 1 + segment.len()));
        p.0.push_str(&self.0);
        p.push(segment);
        p
    }

    /// The length of the pointer text in bytes: a mark to [`truncate`](Self::truncate) back to.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether this is the root pointer (`""`).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Shortens the pointer to `len` bytes, a length [`len`](Self::len) returned earlier on
    /// this pointer. A `len` that is not the end of a segment shortens to the last segment end
    /// before it, so the pointer stays valid; a `len` past the end does nothing.
    pub fn truncate(&mut self, len: usize) {
        if len >= self.0.len() {
            return;
        }
        let end = if self.0.as_bytes()[len] == b'/' {
            len
        } else {
            self.0.as_bytes()[..len].iter().rposition(|&b| b == b'/').unwrap_or(0)
        };
        self.0.truncate(end);
    }

    /// Removes the last segment; `false` (and nothing changed) at the root.
    pub fn pop(&mut self) -> bool {
        match self.0.rfind('/') {
            Some(i) => {
                self.0.truncate(i);
                true
            }
            None => false,
        }
    }

    /// Empties the pointer back to the root, keeping its buffer.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The pointer text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The pointer text, owned.
    pub fn into_string(self) -> String {
        self.0
    }

    /// The segments, unescaped (`/a~1b/0` gives `a/b`, then `0`); none for the root.
    pub fn segments(&self) -> Segments<'_> {
        Segments { rest: self.0.strip_prefix('/') }
    }

    /// Whether this pointer is `prefix` or lies under it, by whole segments (`/ab` is not
    /// under `/a`).
    pub fn starts_with(&self, prefix: &JsonPointer) -> bool {
        self.0
            .strip_prefix(prefix.as_str())
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    }

    /// `prefix` followed by this pointer: the same place, seen from a document that holds this
    /// one's document at `prefix`.
    ///
    /// ```
    /// use tooldef::JsonPointer;
    ///
    /// let at = JsonPointer::from_segments(["properties", "a"]);
    /// assert_eq!(at.under(&JsonPointer::from_segments(["input_schema"])), "/input_schema/properties/a");
    /// ```
    #[must_use]
    pub fn under(mut self, prefix: &JsonPointer) -> JsonPointer {
        self.0.insert_str(0, prefix.as_str());
        self
    }

    /// This pointer with its leading `from` replaced by `to`, when it
    /// [`starts_with`](Self::starts_with) `from`; `None` otherwise.
    ///
    /// ```
    /// use tooldef::JsonPointer;
    ///
    /// let p: JsonPointer = "/input_schema/properties/a".parse().unwrap();
    /// let from: JsonPointer = "/input_schema".parse().unwrap();
    /// let to: JsonPointer = "/inputSchema".parse().unwrap();
    /// assert_eq!(p.rebased(&from, &to).unwrap(), "/inputSchema/properties/a");
    /// assert_eq!(to.rebased(&from, &to), None);
    /// ```
    pub fn rebased(&self, from: &JsonPointer, to: &JsonPointer) -> Option<JsonPointer> {
        if !self.starts_with(from) {
            return None;
        }
        let rest = &self.0[from.len()..];
        let mut out = String::with_capacity(to.len() + rest.len());
        out.push_str(to.as_str());
        out.push_str(rest);
        Some(JsonPointer(out))
    }
}

/// The unescaped segments of a [`JsonPointer`] ([`JsonPointer::segments`]).
#[derive(Clone, Debug)]
pub struct Segments<'a> {
    rest: Option<&'a str>,
}

impl<'a> Iterator for Segments<'a> {
    type Item = Cow<'a, str>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.rest?;
        let (seg, rest) = match rest.find('/') {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        self.rest = rest;
        Some(unescape(seg))
    }
}

/// One pointer segment escaped (`a/b~c` is `a~1b~0c`), borrowed when nothing needs escaping;
/// for text that goes into a message next to pointer text (a [`JsonPointer`] escapes its own).
pub fn escape(segment: &str) -> Cow<'_, str> {
    segment::escape(segment)
}

/// Appends `name` to `out` as one segment of a URI fragment pointer (`#/$defs/a~1b%20c`):
/// escaped as a pointer segment, then percent-encoded outside the characters a fragment holds.
pub(crate) fn fragment_segment_into(out: &mut String, name: &str) {
    let mut seg = String::new();
    escape_into(&mut seg, name);
    for b in seg.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
}

impl fmt::Display for JsonPointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for JsonPointer {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for JsonPointer {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<JsonPointer> for String {
    fn from(p: JsonPointer) -> String {
        p.0
    }
}

impl From<&JsonPointer> for JsonPointer {
    fn from(p: &JsonPointer) -> JsonPointer {
        p.clone()
    }
}

impl FromStr for JsonPointer {
    type Err = PointerError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        JsonPointer::parse(s)
    }
}

impl PartialEq<str> for JsonPointer {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for JsonPointer {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for JsonPointer {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

impl PartialEq<JsonPointer> for str {
    fn eq(&self, other: &JsonPointer) -> bool {
        self == other.0
    }
}

impl PartialEq<JsonPointer> for &str {
    fn eq(&self, other: &JsonPointer) -> bool {
        *self == other.0
    }
}

impl serde::Serialize for JsonPointer {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for JsonPointer {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = Cow::<'de, str>::deserialize(d)?;
        JsonPointer::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_escapes_and_segments_unescape() {
        let mut p = JsonPointer::root();
        p.push("a/b");
        p.push("~c~1");
        p.push("");
        p.push_index(7);
        assert_eq!(p, "/a~1b/~0c~01//7");
        let segs: Vec<_> = p.segments().collect();
        assert_eq!(segs, ["a/b", "~c~1", "", "7"]);
        assert_eq!(JsonPointer::root().segments().count(), 0);
        assert_eq!(JsonPointer::from_segments(["a/b", "~c~1", "", "7"]), p);
    }

    #[test]
    fn parse_accepts_pointers_and_refuses_the_rest() {
        assert_eq!(JsonPointer::parse("").unwrap(), "");
        assert_eq!(JsonPointer::parse("/").unwrap().segments().collect::<Vec<_>>(), [""]);
        assert_eq!(JsonPointer::parse("/a~0~1").unwrap(), "/a~0~1");
        assert_eq!(JsonPointer::parse("a/b"), Err(PointerError::NoLeadingSlash));
        assert_eq!(JsonPointer::parse("/a~2"), Err(PointerError::BadEscape { at: 2 }));
        assert_eq!(JsonPointer::parse("/a~"), Err(PointerError::BadEscape { at: 2 }));
        assert_eq!("/x".parse::<JsonPointer>().unwrap(), "/x");
    }

    #[test]
    fn truncate_goes_back_to_a_mark_and_stays_valid() {
        let mut p = JsonPointer::parse("/properties").unwrap();
        let mark = p.len();
        p.push("a~b");
        p.push_index(1);
        p.truncate(mark);
        assert_eq!(p, "/properties");
        let mut q = JsonPointer::parse("/ab/cd~1e").unwrap();
        q.truncate(6);
        assert_eq!(q, "/ab", "a length inside a segment cuts at that segment's start");
        q.truncate(99);
        assert_eq!(q, "/ab");
        assert!(q.pop());
        assert!(!q.pop());
        assert!(q.is_empty());
    }

    #[test]
    fn serializes_as_its_text() {
        let p = JsonPointer::from_segments(["a/b"]);
        assert_eq!(serde_json::to_string(&p).unwrap(), r#""/a~1b""#);
        let back: JsonPointer = serde_json::from_str(r#""/a~1b""#).unwrap();
        assert_eq!(back, p);
        assert!(serde_json::from_str::<JsonPointer>(r#""a""#).is_err());
    }

    #[test]
    fn fragments_decode_percent_escapes_then_read_as_pointers() {
        let p = JsonPointer::from_fragment("#/$defs/a~1b%20c%7E1").unwrap();
        assert_eq!(p, "/$defs/a~1b c~1");
        // Decoded first: `%7E1` is `~1`, the escape of `/`.
        assert_eq!(p.segments().collect::<Vec<_>>(), ["$defs", "a/b c/"]);
        assert_eq!(JsonPointer::from_fragment("/%C3%A9").unwrap(), "/\u{e9}");
        assert_eq!(JsonPointer::from_fragment("#").unwrap(), "");
        assert_eq!(JsonPointer::from_fragment("#/a%2"), Err(PointerError::BadPercent { at: 3 }));
        assert_eq!(JsonPointer::from_fragment("/a%zz"), Err(PointerError::BadPercent { at: 2 }));
        assert_eq!(JsonPointer::from_fragment("#/x%C3"), Err(PointerError::BadPercent { at: 3 }));
        assert_eq!(JsonPointer::from_fragment("#/%7E2"), Err(PointerError::BadEscape { at: 1 }));
        assert_eq!(JsonPointer::from_fragment("#a"), Err(PointerError::NoLeadingSlash));
        let mut out = String::from("#/$defs/");
        fragment_segment_into(&mut out, "a/b~c d\u{e9}");
        assert_eq!(
            JsonPointer::from_fragment(&out).unwrap().segments().nth(1).unwrap(),
            "a/b~c d\u{e9}"
        );
    }

    #[test]
    fn written_text_stays_a_valid_pointer() {
        assert_eq!(JsonPointer::from_written("/a~1b"), "/a~1b");
        assert_eq!(JsonPointer::from_written(""), "");
        assert_eq!(JsonPointer::from_written("days"), "/days");
    }

    #[test]
    fn fragment_segments_escape_then_percent_encode() {
        let mut out = String::from("#/$defs/");
        fragment_segment_into(&mut out, "a/b~c d\u{e9}");
        assert_eq!(out, "#/$defs/a~1b~0c%20d%C3%A9");
    }
}
