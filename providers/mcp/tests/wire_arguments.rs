//! What a client writes in `tools/call` arguments is what dispatch judges: the server is driven
//! here with raw JSON-RPC lines (no SDK client, which could not write a key twice), and every
//! call gets an answer, in the order dispatch would give it for the same text from any provider.

mod support;

use serde_json::{Value, json};
use support::{toolbox, within};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};
use tooldef_mcp::server::McpServer;

/// A raw JSON-RPC line peer of a served toolbox, past the 2025-06-18 handshake.
struct Peer {
    write: WriteHalf<DuplexStream>,
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
}

impl Peer {
    async fn start() -> Self {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(theirs);
        tokio::spawn(McpServer::from_toolbox(toolbox(0)).serve_io(read, write));
        let (read, write) = tokio::io::split(ours);
        let mut peer = Peer { write, lines: BufReader::new(read).lines() };
        peer.send(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}})
            .to_string(),
        )
        .await;
        let hello = peer.reply().await;
        assert_eq!(hello["id"], 0, "{hello}");
        peer.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
        peer
    }

    async fn send(&mut self, line: &str) {
        self.write.write_all(line.as_bytes()).await.unwrap();
        self.write.write_all(b"\n").await.unwrap();
    }

    async fn reply(&mut self) -> Value {
        let line = within("a reply", self.lines.next_line()).await.unwrap().expect("a line");
        serde_json::from_str(&line).unwrap()
    }

    /// Calls `echo` with `arguments` written exactly as given; the result's `isError` and text.
    async fn call_echo(&mut self, id: u64, arguments: &str) -> (bool, String) {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{arguments}}}}}"#
        );
        self.send(&line).await;
        let reply = self.reply().await;
        assert_eq!(reply["id"], id, "{reply}");
        let result = &reply["result"];
        let text = result["content"][0]["text"].as_str().unwrap_or_default().to_owned();
        (result["isError"] == true, text)
    }
}

#[tokio::test]
async fn a_key_given_twice_is_refused_with_its_pointer() {
    let mut peer = Peer::start().await;
    let (is_error, text) = peer.call_echo(1, r#"{"text": "safe", "text": "rm -rf /"}"#).await;
    assert!(is_error, "a duplicate key must not run the tool: {text}");
    assert_eq!(text, "invalid arguments for echo: /text is given twice");
}

#[tokio::test]
async fn arguments_too_deep_for_the_sdk_still_get_an_answer() {
    let mut peer = Peer::start().await;
    // 126 levels of arguments: within dispatch's limit, but the whole message nests 128+ deep,
    // past what rmcp's reader takes (it would drop the message without an answer).
    let deep = format!(r#"{{"text": {}1{}}}"#, "[".repeat(125), "]".repeat(125));
    let (is_error, text) = peer.call_echo(1, &deep).await;
    assert!(is_error, "{text}");
    assert_eq!(text, "invalid arguments for echo: /text must be a string; got an array");

    let deeper = format!(r#"{{"text": {}1{}}}"#, "[".repeat(5_000), "]".repeat(5_000));
    let (is_error, text) = peer.call_echo(2, &deeper).await;
    assert!(is_error, "{text}");
    // Refused at the array that crosses dispatch's limit, named by its pointer.
    let max = tooldef::json_text::MAX_DEPTH;
    let pointer = format!("/text{}", "/0".repeat(max - 1));
    assert_eq!(
        text,
        format!(
            "invalid arguments for echo: {pointer} is nested more than {max} levels deep, past the limit for arguments; flatten it"
        )
    );
}

#[tokio::test]
async fn ordinary_calls_and_other_requests_are_untouched() {
    let mut peer = Peer::start().await;
    assert_eq!(peer.call_echo(1, r#"{"text": "hi"}"#).await, (false, "hi".to_owned()));
    let (is_error, text) = peer.call_echo(2, r#""not an object""#).await;
    assert!(is_error, "{text}");
    peer.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#).await;
    let list = peer.reply().await;
    assert_eq!(list["id"], 3);
    assert!(list["result"]["tools"].as_array().is_some_and(|t| !t.is_empty()), "{list}");
}
