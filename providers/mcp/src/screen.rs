//! Tool arguments handed to dispatch as the client wrote them.
//!
//! rmcp reads each JSON-RPC message with `serde_json`, which keeps the last of two equal keys
//! without a word and drops a message nested deeper than its recursion limit without an
//! answer: a `tools/call` whose arguments say `{"path": "a", "path": "b"}` would run with `b`,
//! and one whose arguments nest 127 levels deep (within dispatch's documented
//! [`MAX_DEPTH`](tooldef::json_text::MAX_DEPTH), but 130 for the whole message) would leave the
//! client waiting forever.
//!
//! So the server screens every incoming message before rmcp sees it. A `tools/call` request's
//! `params.arguments` is taken out of the message and carried, as the text the client wrote,
//! to the call, which hands that text to dispatch: a duplicate key, a value nested too deeply
//! or a non-object is an error result naming the JSON pointer, exactly as for a provider that
//! sends arguments as text (OpenAI). Every other message passes unchanged, and so does any
//! message this reader cannot take apart (rmcp answers it as before, and the call runs with
//! the `arguments` rmcp read). The scan is one pass with no recursion, so hostile nesting costs
//! linear time and no stack.
//!
//! The carried text is written by the server alone, never by the client, so the arguments
//! that run are always the `arguments` the client sent (what a gateway, an approval prompt or
//! an audit log in front of the server saw):
//!
//! - over HTTP ([`take_arguments`]) the text travels beside the message, in the HTTP request's
//!   extensions, which no byte of the request can write;
//! - over a byte stream ([`ScreenedReader`]) it travels in `params._meta` under a key of the
//!   form `tooldef/argumentsText/<32 hex digits>`, drawn from the operating system's random
//!   source for each reader, written after the client's own `_meta` entries (so it wins over an
//!   equal key) and removed before the tool runs. A client cannot write a key it cannot know:
//!   one that writes `tooldef/argumentsText` (or any other key) only adds an entry that
//!   nothing reads.

use std::sync::Arc;

use crate::lines::{LineRewriter, Rewrite, skip_string, skip_value, skip_ws};

/// The arguments of one `tools/call`, as the text the client wrote, carried in an HTTP
/// request's extensions by the server's own reader.
#[cfg(feature = "http-server")]
#[derive(Clone, Debug)]
pub(crate) struct ArgumentsText(pub(crate) String);

/// A fresh `_meta` key for a reader to carry arguments under: `tooldef/argumentsText/` and 128
/// bits from the operating system's random source.
pub(crate) fn fresh_arguments_key() -> Arc<str> {
    let mut bits = [0u8; 16];
    if let Err(e) = getrandom::fill(&mut bits) {
        // Not expected on any supported system; the standard library's hash keys come from the
        // same source, drawn once per thread, and SipHash keeps them unreadable.
        tracing::warn!(error = %e, "no OS randomness; the arguments key is drawn from hash keys");
        use std::hash::BuildHasher as _;
        for (i, half) in bits.chunks_mut(8).enumerate() {
            let word = std::hash::RandomState::new().hash_one((i, std::process::id()));
            half.copy_from_slice(&word.to_le_bytes());
        }
    }
    let mut key = String::from("tooldef/argumentsText/");
    for b in bits {
        key.push_str(&format!("{b:02x}"));
    }
    key.into()
}

/// A `tools/call` request taken apart around its `params.arguments`.
struct Call<'t> {
    text: &'t str,
    /// The span of the `params` value.
    params: std::ops::Range<usize>,
    /// Its members (each key once).
    inner: Vec<Member>,
    /// The text of `arguments` (never `null`).
    arguments: &'t str,
}

/// `line` taken apart, or `None` when it is to pass unchanged: not a `tools/call` request, no
/// arguments, or not a JSON object this reader can take apart.
fn take_apart(line: &[u8]) -> Option<Call<'_>> {
    let text = std::str::from_utf8(line).ok()?;
    // Most messages name their method before their params: stop there when it is not a call.
    let mut walk = Members::new(text, 0);
    let mut message = Vec::new();
    for member in walk.by_ref() {
        if member.key == "method" && !is_call(&text[member.value.clone()]) {
            return None;
        }
        message.push(member);
    }
    if !walk.complete {
        return None;
    }
    // A message or `params` that names a member twice is rmcp's to answer as it reads it.
    let once = |members: &[Member]| {
        let mut keys: Vec<&str> = members.iter().map(|m| m.key.as_str()).collect();
        keys.sort_unstable();
        keys.windows(2).all(|w| w[0] != w[1])
    };
    if !once(&message) {
        return None;
    }
    message.iter().find(|m| m.key == "method")?;
    let params = message.iter().find(|m| m.key == "params")?;
    let inner = members(text, params.value.start)?;
    if !once(&inner) {
        return None;
    }
    let arguments = &text[inner.iter().find(|m| m.key == "arguments")?.value.clone()];
    if arguments == "null" {
        return None;
    }
    if let Some(meta) = inner.iter().find(|m| m.key == "_meta") {
        // A `_meta` that is not an object is rmcp's to refuse.
        members(text, meta.value.start)?;
    }
    Some(Call { text, params: params.value.clone(), inner, arguments })
}

impl Call<'_> {
    /// The line with `params` replaced by `params_text`.
    fn with_params(&self, params_text: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.text.len() + params_text.len());
        out.extend_from_slice(&self.text.as_bytes()[..self.params.start]);
        out.extend_from_slice(params_text.as_bytes());
        out.extend_from_slice(&self.text.as_bytes()[self.params.end..]);
        out
    }
}

/// HTTP: `line` without its `params.arguments`, and their text, or `None` to pass the line on
/// unchanged (see [`take_apart`]).
#[cfg(feature = "http-server")]
pub(crate) fn take_arguments(line: &[u8]) -> Option<(Vec<u8>, ArgumentsText)> {
    let call = take_apart(line)?;
    let mut params_text = String::with_capacity(call.params.len());
    params_text.push('{');
    for m in call.inner.iter().filter(|m| m.key != "arguments") {
        if params_text.len() > 1 {
            params_text.push(',');
        }
        params_text.push_str(&call.text[m.whole.clone()]);
    }
    params_text.push('}');
    Some((call.with_params(&params_text), ArgumentsText(call.arguments.to_owned())))
}

/// A byte stream: `line` with its `tools/call`'s arguments moved into `_meta` as text under
/// `key`, after the client's own entries, or `None` to pass the line on unchanged (see
/// [`take_apart`]).
pub(crate) fn screen_line(line: &[u8], key: &str) -> Option<Vec<u8>> {
    let call = take_apart(line)?;
    let meta_rest = match call.inner.iter().find(|m| m.key == "_meta") {
        None => "",
        Some(m) => call.text[m.value.clone()].strip_prefix('{')?.strip_suffix('}')?.trim(),
    };
    let mut params_text = String::with_capacity(call.params.len() + call.arguments.len() / 4);
    params_text.push_str("{\"_meta\":{");
    if !meta_rest.is_empty() {
        params_text.push_str(meta_rest);
        params_text.push(',');
    }
    params_text.push_str(&serde_json::to_string(key).ok()?);
    params_text.push(':');
    params_text.push_str(&serde_json::to_string(call.arguments).ok()?);
    params_text.push('}');
    for m in call.inner.iter().filter(|m| m.key != "arguments" && m.key != "_meta") {
        params_text.push(',');
        params_text.push_str(&call.text[m.whole.clone()]);
    }
    params_text.push('}');
    Some(call.with_params(&params_text))
}

/// Whether a `method` value is `"tools/call"` (however its string is escaped).
fn is_call(value: &str) -> bool {
    value == "\"tools/call\""
        || serde_json::from_str::<String>(value).is_ok_and(|m| m == "tools/call")
}

/// One member of a JSON object: its decoded key, the span of its value, and the span of the
/// whole `"key": value` text.
struct Member {
    key: String,
    value: std::ops::Range<usize>,
    whole: std::ops::Range<usize>,
}

/// The members of the JSON object starting at byte `at` of `text` (after any whitespace), or
/// `None` when it is not a well-formed object. Nested values are skipped, not read.
fn members(text: &str, at: usize) -> Option<Vec<Member>> {
    let mut walk = Members::new(text, at);
    let out: Vec<Member> = walk.by_ref().collect();
    walk.complete.then_some(out)
}

/// The members of a JSON object one at a time, so that a caller can stop early; `complete`
/// tells, once the walk ends, whether the object was well formed to its closing brace.
struct Members<'t> {
    text: &'t str,
    at: usize,
    started: bool,
    ended: bool,
    complete: bool,
}

impl<'t> Members<'t> {
    fn new(text: &'t str, at: usize) -> Self {
        Members { text, at, started: false, ended: false, complete: false }
    }

    fn step(&mut self) -> Option<Member> {
        let bytes = self.text.as_bytes();
        let mut i = skip_ws(bytes, self.at);
        if !self.started {
            self.started = true;
            if bytes.get(i) != Some(&b'{') {
                return None;
            }
            i = skip_ws(bytes, i + 1);
            if bytes.get(i) == Some(&b'}') {
                self.complete = true;
                return None;
            }
        } else {
            match bytes.get(i) {
                Some(b',') => i = skip_ws(bytes, i + 1),
                Some(b'}') => {
                    self.complete = true;
                    return None;
                }
                _ => return None,
            }
        }
        let key_start = i;
        let key_end = skip_string(bytes, i)?;
        let key: String = serde_json::from_str(&self.text[key_start..key_end]).ok()?;
        i = skip_ws(bytes, key_end);
        if bytes.get(i) != Some(&b':') {
            return None;
        }
        let value_start = skip_ws(bytes, i + 1);
        let value_end = skip_value(bytes, value_start)?;
        self.at = value_end;
        Some(Member { key, value: value_start..value_end, whole: key_start..value_end })
    }
}

impl Iterator for Members<'_> {
    type Item = Member;

    fn next(&mut self) -> Option<Member> {
        if self.ended {
            return None;
        }
        let next = self.step();
        self.ended = next.is_none();
        next
    }
}

/// An [`AsyncRead`] of newline-delimited JSON-RPC messages that passes each line through
/// [`screen_line`] on its way to rmcp, with a [`key`](ScreenedReader::key) of its own.
pub(crate) type ScreenedReader<R> = LineRewriter<R, Screen>;

/// What a [`ScreenedReader`] does to each line: screen a `tools/call`'s arguments out.
pub(crate) struct Screen {
    /// The `_meta` key this reader carries arguments under.
    key: Arc<str>,
    /// Bytes read but not yet part of a whole line.
    partial: Vec<u8>,
    /// How much of `partial` is known to hold no newline (a long line is searched once).
    searched: usize,
}

impl<R> LineRewriter<R, Screen> {
    pub(crate) fn new(inner: R) -> Self {
        let screen = Screen { key: fresh_arguments_key(), partial: Vec::new(), searched: 0 };
        LineRewriter::rewriting(inner, screen)
    }

    /// The `_meta` key this reader carries a call's arguments under; only the reader writes it.
    pub(crate) fn key(&self) -> &Arc<str> {
        &self.rewrite().key
    }
}

impl Screen {
    /// Moves every whole line of `partial` to `out`, screened.
    fn screen_pending(&mut self, out: &mut Vec<u8>) {
        let mut start = 0;
        let mut from = self.searched;
        while let Some(n) = self.partial[from..].iter().position(|&b| b == b'\n') {
            let end = from + n;
            let line = &self.partial[start..end];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            match screen_line(line, &self.key) {
                Some(screened) => out.extend_from_slice(&screened),
                None => out.extend_from_slice(line),
            }
            out.push(b'\n');
            start = end + 1;
            from = start;
        }
        self.partial.drain(..start);
        self.searched = self.partial.len();
    }
}

impl Rewrite for Screen {
    fn feed(&mut self, bytes: &[u8], out: &mut Vec<u8>) {
        self.partial.extend_from_slice(bytes);
        self.screen_pending(out);
    }

    fn end(&mut self, out: &mut Vec<u8>) {
        self.screen_pending(out);
        // An unterminated last line: rmcp does not deliver it; pass it on as it is.
        out.append(&mut self.partial);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    const KEY: &str = "tooldef/argumentsText/00112233445566778899aabbccddeeff";

    fn screened(line: &str) -> Option<Value> {
        screen_line(line.as_bytes(), KEY).map(|out| serde_json::from_slice(&out).unwrap())
    }

    #[cfg(feature = "http-server")]
    fn taken(line: &str) -> Option<(Value, String)> {
        take_arguments(line.as_bytes())
            .map(|(out, ArgumentsText(text))| (serde_json::from_slice(&out).unwrap(), text))
    }

    #[test]
    fn a_call_s_arguments_travel_as_their_own_text() {
        let line = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"f","arguments":{"a":1,"a":2}}}"#;
        assert_eq!(
            screened(line).unwrap(),
            json!({"jsonrpc":"2.0","id":7,"method":"tools/call",
                   "params":{"_meta":{KEY:r#"{"a":1,"a":2}"#},"name":"f"}})
        );
        #[cfg(feature = "http-server")]
        assert_eq!(
            taken(line).unwrap(),
            (
                json!({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"f"}}),
                r#"{"a":1,"a":2}"#.to_owned()
            )
        );
    }

    #[test]
    fn other_meta_entries_and_params_are_kept() {
        let line = r#"{"id":"x","params":{"_meta":{"progressToken":3},"name":"f","arguments":{"s":"}\"{"}},"method":"tools/call","jsonrpc":"2.0"}"#;
        assert_eq!(
            screened(line).unwrap(),
            json!({"id":"x","method":"tools/call","jsonrpc":"2.0",
                   "params":{"_meta":{KEY:r#"{"s":"}\"{"}"#,"progressToken":3},"name":"f"}})
        );
        #[cfg(feature = "http-server")]
        assert_eq!(
            taken(line).unwrap(),
            (
                json!({"id":"x","method":"tools/call","jsonrpc":"2.0",
                       "params":{"_meta":{"progressToken":3},"name":"f"}}),
                r#"{"s":"}\"{"}"#.to_owned()
            )
        );
    }

    #[test]
    fn the_reader_s_key_is_written_after_the_client_s_entries() {
        // Even a client that knew the key could not win with it: of two equal keys, the last
        // is the one read.
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"f","_meta":{{"{KEY}":"{{}}","p":1}},"arguments":{{"a":1}}}}}}"#
        );
        let out = String::from_utf8(screen_line(line.as_bytes(), KEY).unwrap()).unwrap();
        assert_eq!(
            out,
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"_meta":{{"{KEY}":"{{}}","p":1,"{KEY}":"{{\"a\":1}}"}},"name":"f"}}}}"#
            )
        );
        let read: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(read["params"]["_meta"][KEY], r#"{"a":1}"#);
    }

    #[test]
    fn every_reader_draws_a_key_of_its_own() {
        let keys: Vec<Arc<str>> = (0..3).map(|_| fresh_arguments_key()).collect();
        for key in &keys {
            let (prefix, hex) = key.split_at("tooldef/argumentsText/".len());
            assert_eq!(prefix, "tooldef/argumentsText/");
            assert_eq!(hex.len(), 32, "{key}");
            assert!(hex.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()), "{key}");
        }
        assert!(keys[0] != keys[1] && keys[1] != keys[2] && keys[0] != keys[2], "{keys:?}");
    }

    #[test]
    fn everything_else_passes_unchanged() {
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f"}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","arguments":null}}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","arguments":{"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","_meta":[],"arguments":{}}}"#,
            r#"[{"method":"tools/call"}]"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","arguments":{},"arguments":{"a":1}}}"#,
            "not json",
            "",
        ] {
            assert!(screen_line(line.as_bytes(), KEY).is_none(), "{line}");
            #[cfg(feature = "http-server")]
            assert!(take_arguments(line.as_bytes()).is_none(), "{line}");
        }
    }

    #[test]
    fn hostile_nesting_is_scanned_without_recursion() {
        let deep = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"f","arguments":{deep}}}}}"#
        );
        let out = screened(&line).unwrap();
        assert_eq!(out["params"]["_meta"][KEY].as_str().unwrap().len(), deep.len());
        #[cfg(feature = "http-server")]
        assert_eq!(taken(&line).unwrap().1.len(), deep.len());
    }

    #[tokio::test]
    async fn the_reader_screens_lines_split_across_reads() {
        use tokio::io::AsyncReadExt as _;
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"f","arguments":{"a":1}}}"#;
        let input = format!("{call}\r\n{{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}}\n");
        let (mut w, r) = tokio::io::duplex(7);
        let writer = tokio::spawn(async move {
            use tokio::io::AsyncWriteExt as _;
            w.write_all(input.as_bytes()).await.unwrap();
        });
        let mut out = String::new();
        let mut reader = ScreenedReader::new(r);
        let key = Arc::clone(reader.key());
        reader.read_to_string(&mut out).await.unwrap();
        writer.await.unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].as_bytes(), screen_line(call.as_bytes(), &key).unwrap());
        assert_eq!(lines[1], r#"{"jsonrpc":"2.0","method":"ping"}"#);
    }
}
