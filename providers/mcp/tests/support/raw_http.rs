//! HTTP/1.1 written and read by hand, for the requests a client library would not send: foreign
//! origins, half a head, a body shorter than its length, connections held open.

use std::net::SocketAddr;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::within;

/// One response: its status line, its headers (names in lower case; `date` left out, as it
/// changes) and its body (chunked transfer decoded).
#[derive(Debug, PartialEq)]
pub struct Reply {
    pub status: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Reply {
    /// The value of header `name`.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC messages of the body: the `data:` lines of an event stream, or the body
    /// itself when it is JSON.
    pub fn messages(&self) -> Vec<Value> {
        if self.header("content-type") == Some("application/json") {
            return vec![serde_json::from_str(&self.body).unwrap()];
        }
        self.body
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter(|d| !d.trim().is_empty())
            .map(|d| serde_json::from_str(d.trim()).unwrap())
            .collect()
    }

    /// The one message answering request `id`.
    pub fn answer(&self, id: u64) -> Value {
        let mut answers = self.messages().into_iter().filter(|m| m["id"] == json!(id));
        let answer = answers.next().unwrap_or_else(|| panic!("no answer to {id} in {self:?}"));
        assert!(answers.next().is_none(), "two answers to {id} in {self:?}");
        answer
    }
}

/// Reads one response from `raw` (the bytes up to the peer's close).
pub fn parse(raw: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(raw);
    let (head, rest) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no head in {text:?}"));
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().to_owned();
    let headers: Vec<(String, String)> = lines
        .map(|l| {
            let (n, v) = l.split_once(':').unwrap();
            (n.trim().to_ascii_lowercase(), v.trim().to_owned())
        })
        .filter(|(n, _)| n != "date")
        .collect();
    let chunked = headers.iter().any(|(n, v)| n == "transfer-encoding" && v == "chunked");
    let body = if chunked { unchunk(rest) } else { rest.to_owned() };
    Reply { status, headers, body }
}

fn unchunk(mut rest: &str) -> String {
    let mut body = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap();
        if size == 0 {
            break;
        }
        body.push_str(&after[..size]);
        rest = &after[size + 2..];
    }
    body
}

/// A request to `/mcp` with `Host: localhost`, the given extra header lines (each ending in
/// `\r\n`), `Connection: close` and `body`.
pub fn request(method: &str, headers: &str, body: &str) -> String {
    format!(
        "{method} /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{headers}Content-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Sends `request` on a new connection to `addr` and reads the response to the server's close.
pub async fn send(addr: SocketAddr, request: &str) -> Reply {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    parse(&to_close(&mut stream).await)
}

/// Everything `stream` delivers until the peer closes it.
pub async fn to_close(stream: &mut TcpStream) -> Vec<u8> {
    let mut raw = Vec::new();
    within("the server to close the connection", stream.read_to_end(&mut raw)).await.unwrap();
    raw
}

/// A POST of `body` on the session lifecycle (`MCP-Protocol-Version: 2025-06-18`), in session
/// `session` when given.
pub async fn post(addr: SocketAddr, session: Option<&str>, body: &str) -> Reply {
    let session = session.map(|s| format!("Mcp-Session-Id: {s}\r\n")).unwrap_or_default();
    let headers = format!("MCP-Protocol-Version: 2025-06-18\r\n{session}");
    send(addr, &request("POST", &headers, body)).await
}

/// The `initialize` body of a session client.
pub fn initialize_body() -> String {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}})
    .to_string()
}

/// A session opened by hand (`initialize`, then `notifications/initialized`); its id.
pub async fn open_session(addr: SocketAddr) -> String {
    let hello = post(addr, None, &initialize_body()).await;
    let session = hello
        .header("mcp-session-id")
        .unwrap_or_else(|| panic!("no session id in {hello:?}"))
        .to_owned();
    let notified =
        post(addr, Some(&session), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
    assert_eq!(notified.status, "HTTP/1.1 202 Accepted", "{notified:?}");
    session
}
