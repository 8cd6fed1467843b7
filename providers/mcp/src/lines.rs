//! JSON-RPC lines from a peer, bounded and answered.
//!
//! rmcp reads newline-delimited messages of at most [`MAX_LINE`] bytes, and what it cannot read
//! it drops: a longer line without a word, a request whose `params` is an array or a string, or
//! that nests deeper than serde_json reads, with an "Invalid request" that does not carry the
//! request's id. Either way the peer that sent the request never gets an answer it can match,
//! and waits until its own deadline. And whatever sits in front of rmcp and buffers lines (the
//! server's argument screen) would buffer a line without end first.
//!
//! A [`LineGuard`] sits between the peer's bytes and what reads them. It holds one line at a
//! time, never more than [`MAX_LINE`]:
//!
//! - A longer line is not kept: its first [`MAX_LINE`] bytes are searched for the message's
//!   `id`, the rest is discarded up to its newline, and the line is replaced. On a server, by a
//!   request to the method [`REFUSED_METHOD`] with that id, which the server answers with the
//!   error it carries ("larger than 16777216 bytes"); on a client, by an error response with
//!   that id, marked with [`TOO_LARGE`] in its `data`, so that the call waiting for it fails at
//!   once. Without an id found, the line is dropped (there is nobody to answer).
//! - On a server with checks on ([`LineGuard::server_checked`], placed where rmcp reads), a
//!   request whose `params` is neither an object nor `null`, or whose text nests deeper than
//!   [`MAX_NESTING`] levels, is replaced by the same kind of refusal, with `-32602` or `-32600`.
//! - Every other line passes unchanged.
//!
//! The scans are single passes without recursion, so hostile nesting costs linear time and no
//! stack.
//!
//! Owns the line limit and the refusals' wire form; answering a refusal is the server's
//! (`on_custom_request`), reading a client's error the client's.

use std::io;
use std::ops::Range;
use std::pin::Pin;
use std::task::{Context, Poll};

#[cfg(feature = "server")]
use serde_json::Value;
use tokio::io::{AsyncRead, ReadBuf};

/// The most bytes one message may take on a line, its newline included: rmcp's own limit,
/// which a longer line never reaches.
pub(crate) const MAX_LINE: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// The deepest nesting of arrays and objects a message may have: serde_json, which rmcp reads
/// every message with, refuses the 128th level.
pub(crate) const MAX_NESTING: usize = 127;

/// The method of the request a server-side [`LineGuard`] puts in place of one it refuses: its
/// `params` carry the JSON-RPC error (`code`, `message`) to answer with.
pub(crate) const REFUSED_METHOD: &str = "tooldef/refused";

/// The key in an error's `data` that marks the answer a client-side [`LineGuard`] put in place
/// of one over [`MAX_LINE`]; its value is the limit.
pub(crate) const TOO_LARGE: &str = "tooldef/tooLarge";

/// JSON-RPC's "Invalid Request".
const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's "Invalid params".
const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC's "Internal error".
const INTERNAL_ERROR: i64 = -32603;

/// Which side of the connection reads the lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// A server reading requests; `checks` also refuses requests rmcp cannot read.
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    Server { checks: bool },
    /// A client reading answers.
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    Client,
}

/// An [`AsyncRead`] of newline-delimited JSON-RPC that never holds more than one line of at
/// most [`MAX_LINE`] bytes, and replaces what would go unanswered (see the module docs).
pub(crate) type LineGuard<R> = LineRewriter<R, Guard>;

/// What a [`LineGuard`] does to each line: bound it, and check it on the side it reads.
pub(crate) struct Guard {
    side: Side,
    /// The line being read, up to [`MAX_LINE`] bytes.
    line: Vec<u8>,
    /// Past the limit: the rest of the line is being dropped.
    discarding: bool,
}

/// What a [`LineRewriter`] does with the bytes it reads: whole lines rewritten into what its
/// reader gets.
pub(crate) trait Rewrite {
    /// Takes `bytes` read from the peer, writing what is ready for the reader to `out` and
    /// holding the start of a line until its end arrives.
    fn feed(&mut self, bytes: &[u8], out: &mut Vec<u8>);

    /// The peer's input ended: writes to `out` what is still held.
    fn end(&mut self, out: &mut Vec<u8>);
}

/// A reader that reads its peer in chunks, has a [`Rewrite`] turn them into the bytes its own
/// reader gets, and hands those out: the buffered loop that [`LineGuard`] and
/// `crate::screen::ScreenedReader` share.
pub(crate) struct LineRewriter<R, F> {
    inner: R,
    rewrite: F,
    /// Bytes ready for the reader, from `out_at` on.
    out: Vec<u8>,
    out_at: usize,
    eof: bool,
    /// Where reads from `inner` land (allocated on first use).
    chunk: Vec<u8>,
}

impl<R, F> LineRewriter<R, F> {
    /// Reads `inner` through `rewrite`.
    pub(crate) fn rewriting(inner: R, rewrite: F) -> Self {
        LineRewriter { inner, rewrite, out: Vec::new(), out_at: 0, eof: false, chunk: Vec::new() }
    }

    /// The rewrite's state.
    #[cfg_attr(not(feature = "server"), allow(dead_code))]
    pub(crate) fn rewrite(&self) -> &F {
        &self.rewrite
    }
}

impl<R: AsyncRead + Unpin, F: Rewrite + Unpin> AsyncRead for LineRewriter<R, F> {
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
                    let filled = chunk_buf.filled().len();
                    if filled == 0 {
                        this.eof = true;
                        this.rewrite.end(&mut this.out);
                    } else {
                        this.rewrite.feed(&this.chunk[..filled], &mut this.out);
                    }
                }
            }
        }
    }
}

impl<R> LineRewriter<R, Guard> {
    fn guarded(inner: R, side: Side) -> Self {
        LineRewriter::rewriting(inner, Guard { side, line: Vec::new(), discarding: false })
    }

    /// A server's first reader: lines over [`MAX_LINE`] refused, nothing else looked at.
    #[cfg(feature = "server")]
    pub(crate) fn server(inner: R) -> Self {
        LineGuard::guarded(inner, Side::Server { checks: false })
    }

    /// A server's last reader, in front of rmcp: lines over [`MAX_LINE`] and requests rmcp
    /// would drop refused.
    #[cfg(feature = "server")]
    pub(crate) fn server_checked(inner: R) -> Self {
        LineGuard::guarded(inner, Side::Server { checks: true })
    }

    /// A client's reader of a server's answers: an answer over [`MAX_LINE`] becomes an error
    /// for the request it answers.
    #[cfg(feature = "client")]
    pub(crate) fn client(inner: R) -> Self {
        LineGuard::guarded(inner, Side::Client)
    }
}

impl Guard {
    /// Takes `bytes` read from the peer: whole lines go to `out` (checked, or replaced), the
    /// start of the next stays in `line`.
    fn take(&mut self, mut bytes: &[u8], out: &mut Vec<u8>) {
        while !bytes.is_empty() {
            let newline = bytes.iter().position(|&b| b == b'\n');
            let (part, rest) = match newline {
                Some(at) => (&bytes[..at], &bytes[at + 1..]),
                None => (bytes, &[][..]),
            };
            bytes = rest;
            if self.discarding {
                self.discarding = newline.is_none();
                continue;
            }
            // The line and its newline must fit in the limit.
            if self.line.len() + part.len() >= MAX_LINE {
                let room = MAX_LINE.saturating_sub(self.line.len());
                self.hold(&part[..room.min(part.len())]);
                self.too_large(out);
                self.discarding = newline.is_none();
                continue;
            }
            self.hold(part);
            if newline.is_some() {
                self.finish_line(out);
            }
        }
    }

    /// Appends to `line`, never growing it past [`MAX_LINE`] (no doubling beyond it).
    fn hold(&mut self, bytes: &[u8]) {
        let needed = self.line.len() + bytes.len();
        if needed > self.line.capacity() {
            let target = (self.line.capacity() * 2).clamp(needed, MAX_LINE.max(needed));
            self.line.reserve_exact(target - self.line.len());
        }
        self.line.extend_from_slice(bytes);
    }

    /// Empties `line`, letting go of the memory a long one took.
    fn clear_line(&mut self) {
        self.line.clear();
        if self.line.capacity() > 1 << 20 {
            self.line.shrink_to(64 << 10);
        }
    }

    /// Replaces the line in `line`, over the limit, by its refusal (or by nothing).
    fn too_large(&mut self, out: &mut Vec<u8>) {
        let message = format!(
            "the message is larger than {MAX_LINE} bytes, the most one message may be; it was \
             discarded unread"
        );
        match self.side {
            Side::Server { .. } => {
                if let Some(id) = message_id(&self.line) {
                    tracing::warn!(id, "a request over the line limit was refused");
                    refusal(out, id, INVALID_REQUEST, &message);
                } else {
                    tracing::warn!("a message over the line limit, without an id, was discarded");
                }
            }
            Side::Client => {
                if let Some(id) = message_id(&self.line) {
                    tracing::warn!(id, "an answer over the line limit was discarded");
                    too_large_answer(out, id, &message);
                } else {
                    tracing::warn!("a message over the line limit, without an id, was discarded");
                }
            }
        }
        self.clear_line();
    }

    /// Moves the whole line in `line` to `out`, or its refusal.
    fn finish_line(&mut self, out: &mut Vec<u8>) {
        let refused = match self.side {
            Side::Server { checks: true } => check_request(&self.line),
            _ => None,
        };
        match refused {
            Some((id, code, message)) => {
                tracing::debug!(id, message, "a request rmcp cannot read was refused");
                refusal(out, id, code, &message);
            }
            None => {
                out.extend_from_slice(&self.line);
                out.push(b'\n');
            }
        }
        self.clear_line();
    }
}

impl Rewrite for Guard {
    fn feed(&mut self, bytes: &[u8], out: &mut Vec<u8>) {
        self.take(bytes, out);
    }

    fn end(&mut self, out: &mut Vec<u8>) {
        // An unterminated last line goes on as it is (rmcp drops it).
        if !self.discarding {
            out.append(&mut self.line);
        }
    }
}

/// Writes the request a server answers with the error `code` and `message` (see
/// [`REFUSED_METHOD`]), for the request `id` (its JSON text).
pub(crate) fn refusal(out: &mut Vec<u8>, id: &str, code: i64, message: &str) {
    let params = serde_json::json!({"code": code, "message": message});
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    out.extend_from_slice(id.as_bytes());
    out.extend_from_slice(b",\"method\":\"");
    out.extend_from_slice(REFUSED_METHOD.as_bytes());
    out.extend_from_slice(b"\",\"params\":");
    out.extend_from_slice(params.to_string().as_bytes());
    out.extend_from_slice(b"}\n");
}

/// Writes the error answer a client reads in place of one over the limit.
fn too_large_answer(out: &mut Vec<u8>, id: &str, message: &str) {
    let error = serde_json::json!({
        "code": INTERNAL_ERROR,
        "message": message,
        "data": {TOO_LARGE: MAX_LINE},
    });
    out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
    out.extend_from_slice(id.as_bytes());
    out.extend_from_slice(b",\"error\":");
    out.extend_from_slice(error.to_string().as_bytes());
    out.extend_from_slice(b"}\n");
}

/// The error a server answers a [`REFUSED_METHOD`] request with: the one its `params` carry.
#[cfg(feature = "server")]
pub(crate) fn refused(params: Option<&Value>) -> rmcp::ErrorData {
    let code = params.and_then(|p| p.get("code")).and_then(Value::as_i64);
    let message = params.and_then(|p| p.get("message")).and_then(Value::as_str);
    match (code.and_then(|c| i32::try_from(c).ok()), message) {
        (Some(code), Some(message)) => {
            rmcp::ErrorData::new(rmcp::model::ErrorCode(code), message.to_owned(), None)
        }
        _ => rmcp::ErrorData::invalid_params(
            format!("`{REFUSED_METHOD}` takes a `code` and a `message`"),
            None,
        ),
    }
}

/// Whether a client's error is the one a client-side [`LineGuard`] put in place of an answer
/// over [`MAX_LINE`].
#[cfg(feature = "client")]
pub(crate) fn is_too_large(error: &rmcp::ErrorData) -> bool {
    error.data.as_ref().and_then(|d| d.get(TOO_LARGE)).is_some()
}

/// The id, refusal code and message for a whole request line rmcp would not answer: `params`
/// neither an object nor `null`, or nesting past [`MAX_NESTING`]. `None` for every other
/// line (notifications and answers included: nobody waits for an answer to them).
pub(crate) fn check_request(line: &[u8]) -> Option<(&str, i64, String)> {
    let top = top_members(line)?;
    if !top.complete {
        return None;
    }
    let id = top.id?;
    top.method.as_ref()?;
    let depth = max_depth(line);
    if depth > MAX_NESTING {
        let message = format!(
            "the request nests {depth} levels deep; a message may nest at most {MAX_NESTING}"
        );
        return Some((id, INVALID_REQUEST, message));
    }
    let params = &line[top.params?];
    let (code, got) = match params.first()? {
        b'{' | b'n' => return None,
        b'[' => (INVALID_PARAMS, "an array"),
        b'"' => (INVALID_REQUEST, "a string"),
        b't' | b'f' => (INVALID_REQUEST, "a boolean"),
        _ => (INVALID_REQUEST, "a number"),
    };
    Some((id, code, format!("`params` must be an object; got {got}")))
}

/// The id of the message whose text starts `head` (the whole line, or its first part): the
/// text of a top-level `id` that is an integer or a string.
fn message_id(head: &[u8]) -> Option<&str> {
    top_members(head)?.id
}

/// What the top level of a message says, as far as its text goes.
struct Top<'t> {
    /// The `id`'s text, when it is an integer or a string.
    id: Option<&'t str>,
    /// The span of the `method`'s value.
    method: Option<Range<usize>>,
    /// The span of the `params`' value.
    params: Option<Range<usize>>,
    /// Whether the object was read to its closing brace.
    complete: bool,
}

/// The top-level members of the object `text` starts with, read as far as `text` goes (a line
/// cut at the limit gives its first members); `None` when it does not start with an object.
fn top_members(text: &[u8]) -> Option<Top<'_>> {
    let mut top = Top { id: None, method: None, params: None, complete: false };
    let mut i = skip_ws(text, 0);
    if text.get(i) != Some(&b'{') {
        return None;
    }
    i = skip_ws(text, i + 1);
    if text.get(i) == Some(&b'}') {
        top.complete = true;
        return Some(top);
    }
    loop {
        let Some(key_end) = skip_string(text, i) else { return Some(top) };
        let key = &text[i..key_end];
        i = skip_ws(text, key_end);
        if text.get(i) != Some(&b':') {
            return Some(top);
        }
        let value_start = skip_ws(text, i + 1);
        let Some(value_end) = skip_value(text, value_start) else { return Some(top) };
        let value = value_start..value_end;
        match key_text(key).as_deref() {
            Some("id") => top.id = id_text(&text[value.clone()]),
            Some("method") => top.method = Some(value.clone()),
            Some("params") => top.params = Some(value.clone()),
            _ => {}
        }
        i = skip_ws(text, value_end);
        match text.get(i) {
            Some(b',') => i = skip_ws(text, i + 1),
            Some(b'}') => {
                top.complete = true;
                return Some(top);
            }
            _ => return Some(top),
        }
    }
}

/// A key's decoded text (escapes only decoded where there are any).
fn key_text(key: &[u8]) -> Option<std::borrow::Cow<'_, str>> {
    let inner = std::str::from_utf8(key.get(1..key.len().checked_sub(1)?)?).ok()?;
    if inner.contains('\\') {
        serde_json::from_slice::<String>(key).ok().map(std::borrow::Cow::Owned)
    } else {
        Some(std::borrow::Cow::Borrowed(inner))
    }
}

/// An id's text, when it is one rmcp reads: an integer or a string.
fn id_text(value: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(value).ok()?;
    let digits = text.strip_prefix('-').unwrap_or(text);
    let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    let string = text.starts_with('"') && serde_json::from_str::<String>(text).is_ok();
    (integer && text.parse::<i64>().is_ok() || string).then_some(text)
}

/// One past the JSON white space that starts at `i`.
pub(crate) fn skip_ws(text: &[u8], mut i: usize) -> usize {
    while matches!(text.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// One past the closing quote of the string that starts at `i`.
pub(crate) fn skip_string(text: &[u8], i: usize) -> Option<usize> {
    if text.get(i) != Some(&b'"') {
        return None;
    }
    let mut j = i + 1;
    loop {
        match text.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => j += 2,
            _ => j += 1,
        }
    }
}

/// One past the end of the value that starts at `i` (containers by counting brackets outside
/// strings; their insides are not checked here: the screen's dispatch checks a call's
/// arguments, and rmcp the rest of the message). Shared by this module and the screen.
pub(crate) fn skip_value(text: &[u8], i: usize) -> Option<usize> {
    match text.get(i)? {
        b'"' => skip_string(text, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match text.get(j)? {
                    b'"' => {
                        j = skip_string(text, j)?;
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
            let end = text[i..]
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .map_or(text.len(), |n| i + n);
            (end > i).then_some(end)
        }
    }
}

/// The deepest nesting of arrays and objects in `text` (strings skipped).
fn max_depth(text: &[u8]) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        match b {
            b'"' => match skip_string(text, i) {
                Some(end) => {
                    i = end;
                    continue;
                }
                None => break,
            },
            b'{' | b'[' => {
                depth += 1;
                max = max.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused_line(line: &str) -> Option<(String, i64, String)> {
        check_request(line.as_bytes()).map(|(id, code, m)| (id.to_owned(), code, m))
    }

    #[test]
    fn requests_rmcp_would_drop_are_refused_with_their_id() {
        let deep = format!("{}{}", "[".repeat(130), "]".repeat(130));
        let cases = [
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}"#.to_owned(),
                Some(("1".into(), -32602, "`params` must be an object; got an array".into())),
            ),
            (
                r#"{"params":"x","method":"tools/list","id":"a\"b","jsonrpc":"2.0"}"#.to_owned(),
                Some((
                    r#""a\"b""#.into(),
                    -32600,
                    "`params` must be an object; got a string".into(),
                )),
            ),
            (
                format!(
                    r#"{{"jsonrpc":"2.0","id":3,"method":"m","params":{{"_meta":{{"a":{deep}}}}}}}"#
                ),
                Some((
                    "3".into(),
                    -32600,
                    "the request nests 133 levels deep; a message may nest at most 127".into(),
                )),
            ),
            (r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#.to_owned(), None),
            (r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":null}"#.to_owned(), None),
            (r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_owned(), None),
            // A notification, an answer, an id rmcp cannot read: nobody to answer.
            (r#"{"jsonrpc":"2.0","method":"notifications/x","params":[1]}"#.to_owned(), None),
            (r#"{"jsonrpc":"2.0","id":1,"result":[1]}"#.to_owned(), None),
            (r#"{"jsonrpc":"2.0","id":1.5,"method":"m","params":[1]}"#.to_owned(), None),
            (r#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1]"#.to_owned(), None),
            ("not json".to_owned(), None),
        ];
        for (line, expected) in cases {
            assert_eq!(refused_line(&line), expected, "{line}");
        }
    }

    #[test]
    fn the_id_is_found_at_the_head_of_a_line_cut_short() {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":"x-1","method":"m","params":{{"pad":"{}"#,
            "y".repeat(100)
        );
        assert_eq!(message_id(line.as_bytes()), Some(r#""x-1""#));
        let late = format!(r#"{{"jsonrpc":"2.0","params":{{"pad":"{}"#, "y".repeat(100));
        assert_eq!(message_id(late.as_bytes()), None);
        assert_eq!(message_id(br#"{"\u0069d":7}"#), Some("7"));
    }

    #[cfg(feature = "server")]
    #[tokio::test]
    async fn a_line_past_the_limit_is_replaced_without_being_held() {
        use tokio::io::AsyncReadExt as _;
        let (mut w, r) = tokio::io::duplex(1 << 16);
        let writer = tokio::spawn(async move {
            use tokio::io::AsyncWriteExt as _;
            w.write_all(br#"{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{"pad":""#)
                .await
                .unwrap();
            let block = vec![b'x'; 1 << 20];
            for _ in 0..(MAX_LINE >> 20) + 1 {
                w.write_all(&block).await.unwrap();
            }
            w.write_all(b"\"}}\n{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"}\n")
                .await
                .unwrap();
        });
        let mut guard = LineGuard::server(r);
        let mut out = String::new();
        guard.read_to_string(&mut out).await.unwrap();
        writer.await.unwrap();
        let message = format!(
            "the message is larger than {MAX_LINE} bytes, the most one message may be; it was discarded unread"
        );
        let refusal = format!(
            r#"{{"jsonrpc":"2.0","id":9,"method":"{REFUSED_METHOD}","params":{{"code":-32600,"message":"{message}"}}}}"#
        );
        assert_eq!(
            out,
            format!("{refusal}\n{{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"}}\n")
        );
        assert!(guard.rewrite.line.capacity() <= 64 << 10, "{}", guard.rewrite.line.capacity());
    }
}
