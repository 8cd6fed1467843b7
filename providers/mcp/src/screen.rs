//! Tool arguments handed to dispatch as the client wrote them.
//!
//! rmcp reads each JSON-RPC message with `serde_json`, which keeps the last of two equal keys
//! without a word and drops a message nested deeper than its recursion limit without an
//! answer: a `tools/call` whose arguments say `{"path": "a", "path": "b"}` would run with `b`,
//! and one whose arguments nest 127 levels deep (within dispatch's documented
//! [`MAX_DEPTH`](tooldef::json_text::MAX_DEPTH), but 130 for the whole message) would leave the
//! client waiting forever.
//!
//! So the server screens every incoming line before rmcp sees it. A `tools/call` request's
//! `params.arguments` is taken out of the message and carried, as one JSON string, in
//! `params._meta` under [`ARGUMENTS_TEXT`]; the server hands that text to dispatch, which
//! answers a duplicate key, a value nested too deeply or a non-object with an error result
//! naming the JSON pointer, exactly as for a provider that sends arguments as text (OpenAI).
//! Every other line passes unchanged, and so does any line this reader cannot take apart (rmcp
//! answers it as before). The scan is one pass with no recursion, so hostile nesting costs
//! linear time and no stack.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};

/// The `params._meta` key that carries a `tools/call`'s arguments as the client wrote them.
///
/// Set by the server's own reader; a client that sets it itself only gives its arguments as
/// text, which dispatch checks just the same.
pub(crate) const ARGUMENTS_TEXT: &str = "tooldef/argumentsText";

/// `line` with a `tools/call`'s arguments moved into `_meta` as text, or `None` to pass the
/// line on unchanged (not a `tools/call` request, no arguments, or not a JSON object).
pub(crate) fn screen_line(line: &[u8]) -> Option<Vec<u8>> {
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
    let arguments = inner.iter().find(|m| m.key == "arguments")?;
    let arguments_text = &text[arguments.value.clone()];
    if arguments_text == "null" {
        return None;
    }
    let meta = inner.iter().find(|m| m.key == "_meta");
    let meta_rest = match meta {
        None => "",
        Some(m) => {
            // The other `_meta` entries follow ours, as they were written.
            let body = text[m.value.clone()].strip_prefix('{')?.strip_suffix('}')?.trim();
            members(text, m.value.start)?;
            body
        }
    };
    let mut params_text = String::with_capacity(params.value.len() + arguments_text.len() / 4);
    params_text.push_str("{\"_meta\":{");
    params_text.push_str(&serde_json::to_string(ARGUMENTS_TEXT).ok()?);
    params_text.push(':');
    params_text.push_str(&serde_json::to_string(arguments_text).ok()?);
    if !meta_rest.is_empty() {
        params_text.push(',');
        params_text.push_str(meta_rest);
    }
    params_text.push('}');
    for m in inner.iter().filter(|m| m.key != "arguments" && m.key != "_meta") {
        params_text.push(',');
        params_text.push_str(&text[m.whole.clone()]);
    }
    params_text.push('}');
    let mut out = Vec::with_capacity(line.len() + params_text.len());
    out.extend_from_slice(&line[..params.value.start]);
    out.extend_from_slice(params_text.as_bytes());
    out.extend_from_slice(&line[params.value.end..]);
    Some(out)
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

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// The end of the JSON string that starts at `i` (one past its closing quote).
fn skip_string(bytes: &[u8], i: usize) -> Option<usize> {
    if bytes.get(i) != Some(&b'"') {
        return None;
    }
    let mut j = i + 1;
    loop {
        match bytes.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => j += 2,
            _ => j += 1,
        }
    }
}

/// The end of the JSON value that starts at `i`. Containers are skipped by counting brackets
/// (strings excepted), so their insides are not checked here: dispatch checks the arguments,
/// and rmcp the rest of the message.
fn skip_value(bytes: &[u8], i: usize) -> Option<usize> {
    match bytes.get(i)? {
        b'"' => skip_string(bytes, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match bytes.get(j)? {
                    b'"' => {
                        j = skip_string(bytes, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        _ => {
            let end = bytes[i..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .map_or(bytes.len(), |n| i + n);
            (end > i).then_some(end)
        }
    }
}

/// An [`AsyncRead`] of newline-delimited JSON-RPC messages that passes each line through
/// [`screen_line`] on its way to rmcp.
pub(crate) struct ScreenedReader<R> {
    inner: R,
    /// Bytes read but not yet part of a whole line.
    partial: Vec<u8>,
    /// How much of `partial` is known to hold no newline (a long line is searched once).
    searched: usize,
    /// Screened bytes ready for the reader, from `out_at` on.
    out: Vec<u8>,
    out_at: usize,
    eof: bool,
    /// Where reads from `inner` land (allocated on first use).
    chunk: Vec<u8>,
}

impl<R> ScreenedReader<R> {
    pub(crate) fn new(inner: R) -> Self {
        ScreenedReader {
            inner,
            partial: Vec::new(),
            searched: 0,
            out: Vec::new(),
            out_at: 0,
            eof: false,
            chunk: Vec::new(),
        }
    }

    /// Moves every whole line of `partial` (all of it at end of input) to `out`, screened.
    fn screen_pending(&mut self) {
        let mut start = 0;
        let mut from = self.searched;
        while let Some(n) = self.partial[from..].iter().position(|&b| b == b'\n') {
            let end = from + n;
            let line = &self.partial[start..end];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            match screen_line(line) {
                Some(screened) => self.out.extend_from_slice(&screened),
                None => self.out.extend_from_slice(line),
            }
            self.out.push(b'\n');
            start = end + 1;
            from = start;
        }
        self.partial.drain(..start);
        self.searched = self.partial.len();
        if self.eof && !self.partial.is_empty() {
            // An unterminated last line: rmcp does not deliver it; pass it on as it is.
            self.out.append(&mut self.partial);
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for ScreenedReader<R> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.out_at < this.out.len() {
                let n = buf.remaining().min(this.out.len() - this.out_at);
                buf.put_slice(&this.out[this.out_at..this.out_at + n]);
                this.out_at += n;
                if this.out_at == this.out.len() {
                    this.out.clear();
                    this.out_at = 0;
                }
                return Poll::Ready(Ok(()));
            }
            if this.eof {
                return Poll::Ready(Ok(()));
            }
            if this.chunk.is_empty() {
                this.chunk = vec![0; 64 << 10];
            }
            let mut chunk_buf = ReadBuf::new(&mut this.chunk);
            match Pin::new(&mut this.inner).poll_read(cx, &mut chunk_buf) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(())) => {
                    let got = chunk_buf.filled();
                    if got.is_empty() {
                        this.eof = true;
                    } else {
                        this.partial.extend_from_slice(got);
                    }
                    this.screen_pending();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn screened(line: &str) -> Option<Value> {
        screen_line(line.as_bytes()).map(|out| serde_json::from_slice(&out).unwrap())
    }

    #[test]
    fn a_call_s_arguments_travel_as_their_own_text() {
        let line = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"f","arguments":{"a":1,"a":2}}}"#;
        assert_eq!(
            screened(line).unwrap(),
            json!({"jsonrpc":"2.0","id":7,"method":"tools/call",
                   "params":{"_meta":{ARGUMENTS_TEXT:r#"{"a":1,"a":2}"#},"name":"f"}})
        );
    }

    #[test]
    fn other_meta_entries_and_params_are_kept() {
        let line = r#"{"id":"x","params":{"_meta":{"progressToken":3},"name":"f","arguments":{"s":"}\"{"}},"method":"tools/call","jsonrpc":"2.0"}"#;
        assert_eq!(
            screened(line).unwrap(),
            json!({"id":"x","method":"tools/call","jsonrpc":"2.0",
                   "params":{"_meta":{ARGUMENTS_TEXT:r#"{"s":"}\"{"}"#,"progressToken":3},"name":"f"}})
        );
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
            assert!(screen_line(line.as_bytes()).is_none(), "{line}");
        }
    }

    #[test]
    fn hostile_nesting_is_scanned_without_recursion() {
        let deep = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"f","arguments":{deep}}}}}"#
        );
        let out = screened(&line).unwrap();
        assert_eq!(out["params"]["_meta"][ARGUMENTS_TEXT].as_str().unwrap().len(), deep.len());
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
        ScreenedReader::new(r).read_to_string(&mut out).await.unwrap();
        writer.await.unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].as_bytes(), screen_line(call.as_bytes()).unwrap());
        assert_eq!(lines[1], r#"{"jsonrpc":"2.0","method":"ping"}"#);
    }
}
