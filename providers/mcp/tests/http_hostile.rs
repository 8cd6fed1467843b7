//! The streamable-HTTP server against hostile peers, on loopback with short limits: idle
//! connections, half a head and short bodies are closed; the connection and session caps
//! answer 503; foreign and malformed origins are refused with 403, before any tool runs.
//! Every wait is bounded by [`support::STEP`].

mod support;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::json;
use support::raw_http::{self, Reply, initialize_body, open_session, post, request, send};
use support::{toolbox, within};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tooldef::ToolDescriptor;
use tooldef::dispatch::DynamicTool;
use tooldef_mcp::http::HttpOptions;
use tooldef_mcp::server::McpServer;

/// A limit short enough for a test, long enough for a loaded machine to send a whole request.
const SHORT: Duration = Duration::from_millis(300);

async fn serve(server: McpServer, options: HttpOptions) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(server.serve_http_with(listener, options));
    addr
}

async fn serve_toolbox(options: HttpOptions) -> SocketAddr {
    serve(McpServer::from_toolbox(toolbox(0)), options).await
}

/// `options` with every time limit long, so that a test sees only the limit it sets.
fn patient() -> HttpOptions {
    let long = Duration::from_secs(600);
    HttpOptions::default()
        .idle_timeout(long)
        .header_read_timeout(long)
        .body_read_timeout(long)
        .unused_session_timeout(long)
}

fn reply(status: &str, body: &str) -> (String, String) {
    (status.to_owned(), body.to_owned())
}

fn status_and_body(r: &Reply) -> (String, String) {
    (r.status.clone(), r.body.clone())
}

#[tokio::test]
async fn the_defaults_are_documented() {
    let o = HttpOptions::default();
    assert_eq!(
        (
            o.max_connections,
            o.max_sessions,
            o.idle_timeout,
            o.header_read_timeout,
            o.body_read_timeout,
            o.unused_session_timeout,
            o.session_idle_timeout,
            o.accept_error_pause,
            o.allowed_origins.len(),
        ),
        (
            256,
            256,
            Duration::from_secs(60),
            Duration::from_secs(10),
            Duration::from_secs(30),
            Duration::from_secs(30),
            Duration::from_secs(300),
            Duration::from_millis(50),
            0
        )
    );
}

#[tokio::test]
async fn a_connection_that_sends_nothing_is_closed_after_the_idle_limit() {
    let addr = serve_toolbox(patient().idle_timeout(SHORT)).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    assert_eq!(raw_http::to_close(&mut stream).await, b"");
}

#[tokio::test]
async fn a_kept_alive_connection_is_closed_after_the_idle_limit() {
    let addr = serve_toolbox(patient().idle_timeout(SHORT)).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let keep_alive = request("POST", "MCP-Protocol-Version: 2025-06-18\r\n", &initialize_body())
        .replace("Connection: close\r\n", "");
    stream.write_all(keep_alive.as_bytes()).await.unwrap();
    let answered = raw_http::parse(&raw_http::to_close(&mut stream).await);
    assert_eq!(answered.status, "HTTP/1.1 200 OK");
}

#[tokio::test]
async fn half_a_head_is_closed_after_the_head_limit() {
    let addr = serve_toolbox(patient().header_read_timeout(SHORT)).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(b"POST /mcp HTTP/1.1\r\nHost: local").await.unwrap();
    assert_eq!(raw_http::to_close(&mut stream).await, b"");
}

#[tokio::test]
async fn a_body_shorter_than_its_length_is_answered_408_and_closed() {
    let addr = serve_toolbox(patient().body_read_timeout(SHORT)).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
                Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"";
    stream.write_all(head.as_bytes()).await.unwrap();
    let answer = raw_http::parse(&raw_http::to_close(&mut stream).await);
    assert_eq!(
        status_and_body(&answer),
        reply(
            "HTTP/1.1 408 Request Timeout",
            "Request Timeout: the body did not arrive within 300ms"
        )
    );
}

#[tokio::test]
async fn connections_past_the_cap_are_answered_503() {
    let addr = serve_toolbox(patient().max_connections(2)).await;
    let held = [TcpStream::connect(addr).await.unwrap(), TcpStream::connect(addr).await.unwrap()];
    let refused = post(addr, None, &initialize_body()).await;
    assert_eq!(
        status_and_body(&refused),
        reply(
            "HTTP/1.1 503 Service Unavailable",
            "Service Unavailable: the server holds its limit of 2 connections; try again later"
        )
    );
    // A connection that goes frees its place.
    drop(held);
    within("a place to free", async {
        loop {
            let again = post(addr, None, &initialize_body()).await;
            if again.status != "HTTP/1.1 503 Service Unavailable" {
                assert_eq!(again.status, "HTTP/1.1 200 OK", "{again:?}");
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
}

const SESSIONS_FULL: &str = "Service Unavailable: the server holds its limit of sessions; close \
                             one or try again later";

#[tokio::test]
async fn sessions_past_the_cap_are_answered_503() {
    let addr = serve_toolbox(patient().max_sessions(2)).await;
    let first = open_session(addr).await;
    open_session(addr).await;
    let refused = post(addr, None, &initialize_body()).await;
    assert_eq!(status_and_body(&refused), reply("HTTP/1.1 503 Service Unavailable", SESSIONS_FULL));
    // Stateless requests need no session: still served.
    let list = stateless_call(addr, None, "tools/list", None).await;
    assert_eq!(list.status, "HTTP/1.1 200 OK", "{list:?}");
    // A session that ends frees its place.
    let headers = format!("Mcp-Session-Id: {first}\r\nMCP-Protocol-Version: 2025-06-18\r\n");
    let deleted = send(addr, &request("DELETE", &headers, "")).await;
    assert_eq!(deleted.status, "HTTP/1.1 202 Accepted", "{deleted:?}");
    let again = post(addr, None, &initialize_body()).await;
    assert_eq!(again.status, "HTTP/1.1 200 OK", "{again:?}");
}

#[tokio::test]
async fn a_session_that_makes_no_request_is_closed_after_the_unused_limit() {
    let addr = serve_toolbox(patient().max_sessions(1).unused_session_timeout(SHORT)).await;
    let unused = open_session(addr).await;
    // Its place frees by itself.
    within("the unused session to close", async {
        loop {
            let hello = post(addr, None, &initialize_body()).await;
            if hello.status == "HTTP/1.1 200 OK" {
                return;
            }
            assert_eq!(
                status_and_body(&hello),
                reply("HTTP/1.1 503 Service Unavailable", SESSIONS_FULL)
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let gone = post(addr, Some(&unused), list).await;
    assert_eq!(
        status_and_body(&gone),
        reply("HTTP/1.1 404 Not Found", "Not Found: Session not found")
    );
}

#[tokio::test]
async fn a_session_that_made_a_request_outlives_the_unused_limit() {
    let addr = serve_toolbox(patient().unused_session_timeout(SHORT)).await;
    let session = open_session(addr).await;
    let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    assert_eq!(post(addr, Some(&session), list).await.status, "HTTP/1.1 200 OK");
    tokio::time::sleep(SHORT * 3).await;
    let again = post(addr, Some(&session), list).await;
    assert_eq!(again.answer(1)["result"]["tools"].as_array().map(Vec::len), Some(3));
}

/// A POST with `Origin: origin` (none when `None`).
async fn post_from(addr: SocketAddr, origin: Option<&str>, body: &str) -> Reply {
    let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
    let headers = format!("MCP-Protocol-Version: 2025-06-18\r\n{origin}");
    send(addr, &request("POST", &headers, body)).await
}

#[tokio::test]
async fn foreign_null_and_malformed_origins_are_refused_403() {
    let addr = serve_toolbox(patient()).await;
    for (origin, message) in [
        ("https://evil.example", "Forbidden: Origin header is not allowed"),
        ("http://localhost.evil.example", "Forbidden: Origin header is not allowed"),
        ("http://127.0.0.2:8080", "Forbidden: Origin header is not allowed"),
        ("null", "Forbidden: Origin header is not allowed"),
        ("::::", "Forbidden: Invalid Origin header"),
    ] {
        let refused = post_from(addr, Some(origin), &initialize_body()).await;
        assert_eq!(status_and_body(&refused), reply("HTTP/1.1 403 Forbidden", message), "{origin}");
    }
}

#[tokio::test]
async fn loopback_origins_and_no_origin_are_served() {
    let addr = serve_toolbox(patient()).await;
    for origin in [
        None,
        Some("http://localhost:5173"),
        Some("https://localhost"),
        Some("http://127.0.0.1:8080"),
        Some("http://[::1]:3000"),
    ] {
        let hello = post_from(addr, origin, &initialize_body()).await;
        assert_eq!(hello.answer(0)["result"]["serverInfo"]["name"], "tooldef", "{origin:?}");
    }
}

#[tokio::test]
async fn an_allowed_origin_is_served() {
    let addr = serve_toolbox(patient().allow_origin("https://app.example:443")).await;
    let hello = post_from(addr, Some("https://app.example"), &initialize_body()).await;
    assert_eq!(hello.answer(0)["result"]["serverInfo"]["name"], "tooldef");
    let other = post_from(addr, Some("https://app.example:8443"), &initialize_body()).await;
    assert_eq!(
        status_and_body(&other),
        reply("HTTP/1.1 403 Forbidden", "Forbidden: Origin header is not allowed")
    );
}

/// A stateless 2026-07-28 request (no session, the protocol version in the request), from
/// `origin`.
async fn stateless_call(
    addr: SocketAddr,
    origin: Option<&str>,
    method: &str,
    tool: Option<&str>,
) -> Reply {
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {}});
    let params = match tool {
        Some(name) => json!({"name": name, "arguments": {}, "_meta": meta}),
        None => json!({"_meta": meta}),
    };
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
    let name = tool.map(|n| format!("Mcp-Name: {n}\r\n")).unwrap_or_default();
    let headers =
        format!("MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n{name}{origin}");
    send(addr, &request("POST", &headers, &body.to_string())).await
}

#[tokio::test]
async fn a_stateless_call_from_a_foreign_origin_runs_no_tool() {
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&runs);
    let mark = DynamicTool::new_sync(
        ToolDescriptor::builder("mark").description("Counts its runs.").build().unwrap(),
        move |_| Ok(json!(counted.fetch_add(1, Ordering::SeqCst) + 1)),
    );
    let server = McpServer::from_toolbox(tooldef::Toolbox::new().with_executor(mark.into()));
    let addr = serve(server, patient()).await;
    let refused =
        stateless_call(addr, Some("https://evil.example"), "tools/call", Some("mark")).await;
    assert_eq!(
        status_and_body(&refused),
        reply("HTTP/1.1 403 Forbidden", "Forbidden: Origin header is not allowed")
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0, "the tool ran");
    // The same request from a loopback page runs it: the refusal was the origin's.
    let served =
        stateless_call(addr, Some("http://localhost:5173"), "tools/call", Some("mark")).await;
    assert_eq!(
        served.answer(1)["result"]["content"],
        json!([{"type": "text", "text": "1"}]),
        "{served:?}"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_post_whose_params_rmcp_cannot_read_gets_the_json_rpc_error_stdio_gives() {
    let addr = serve_toolbox(HttpOptions::default()).await;
    let session = open_session(addr).await;
    let array = post(
        addr,
        Some(&session),
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":[1]}"#,
    )
    .await;
    let text = post(
        addr,
        Some(&session),
        r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":"x"}"#,
    )
    .await;
    let codes: Vec<(serde_json::Value, serde_json::Value)> = [array.answer(7), text.answer(8)]
        .into_iter()
        .map(|a| (a["id"].clone(), a["error"]["code"].clone()))
        .collect();
    assert_eq!(codes, [(json!(7), json!(-32602)), (json!(8), json!(-32600))]);
}
