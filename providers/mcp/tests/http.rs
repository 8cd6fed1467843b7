//! Streamable HTTP on loopback: tooldef's server on 127.0.0.1 (port 0), tooldef's client and
//! rmcp's client talking to it.

mod support;

use rmcp::ServiceExt;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;
use support::{raw_http, toolbox, within};
use tooldef::{Executor, ToolCall};
use tooldef_mcp::client::{ClientOptions, McpClient};
use tooldef_mcp::server::McpServer;

async fn serve() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(McpServer::from_toolbox(toolbox(2)).serve_http(listener));
    format!("http://{addr}/mcp")
}

#[tokio::test]
async fn tooldefs_client_uses_tooldefs_server_over_http() {
    let url = serve().await;
    let client =
        within("connect", McpClient::connect_http(&url, ClientOptions::default())).await.unwrap();
    let imported = within("import", client.import()).await.unwrap();
    let names: Vec<_> = imported.tools.iter().map(|t| t.remote_name()).collect();
    assert_eq!(names, ["get_weather", "echo", "fail", "numbered_0", "numbered_1"]);
    let call = ToolCall::new("c1", "get_weather", json!({"city": "Rome"}));
    let result = within("call", imported.tools[0].execute(&call)).await;
    assert_eq!((result.is_error, result.structured), (false, Some(json!({"temp": 21.5}))));
    let call = ToolCall::new("c2", "get_weather", json!({"unit": "celsius"}));
    let bad = within("call", imported.tools[0].execute(&call)).await;
    assert_eq!(bad.text(), "invalid arguments for get_weather: /city is required");
    client.close();
}

#[tokio::test]
async fn rmcps_client_lists_over_http() {
    let url = serve().await;
    let transport = StreamableHttpClientTransport::from_uri(url);
    let client = within("connect", ().serve(transport)).await.unwrap();
    let tools = within("list", client.list_all_tools()).await.unwrap();
    assert_eq!(tools.len(), 5);
    assert_eq!(tools[0].title.as_deref(), Some("Weather"));
    within("close", client.cancel()).await.unwrap();
}

/// One raw HTTP/1.1 POST of `body` to `url` (with `session` as `Mcp-Session-Id`); the whole
/// response as text.
async fn post(url: &str, session: Option<&str>, body: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = url.trim_start_matches("http://").trim_end_matches("/mcp");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let session = session.map(|s| format!("Mcp-Session-Id: {s}\r\n")).unwrap_or_default();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n\
         {session}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    within("the response", stream.read_to_string(&mut response)).await.unwrap();
    response
}

#[tokio::test]
async fn a_key_given_twice_over_http_is_refused_with_its_pointer() {
    let url = serve().await;
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}});
    let hello = post(&url, None, &init.to_string()).await;
    let session = hello
        .lines()
        .find_map(|l| {
            l.strip_prefix("mcp-session-id: ").or_else(|| l.strip_prefix("Mcp-Session-Id: "))
        })
        .unwrap_or_else(|| panic!("no session id in {hello}"))
        .trim()
        .to_owned();
    post(&url, Some(&session), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"safe","text":"rm -rf /"}}}"#;
    let answer = post(&url, Some(&session), call).await;
    assert!(answer.contains(r#""isError":true"#), "{answer}");
    assert!(
        answer.contains(r#""text":"invalid arguments for echo: /text is given twice""#),
        "{answer}"
    );
    assert!(!answer.contains("rm -rf"), "{answer}");
}

#[tokio::test]
async fn a_client_cannot_choose_the_arguments_through_meta_over_http() {
    let url = serve().await;
    let addr = url.trim_start_matches("http://").trim_end_matches("/mcp").parse().unwrap();
    let session = raw_http::open_session(addr).await;
    for (n, (params, expected)) in (1..).zip(support::smuggling_cases()) {
        let call =
            format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"tools/call","params":{params}}}"#);
        let reply = raw_http::post(addr, Some(&session), &call).await;
        assert_eq!(
            reply.answer(n),
            json!({"jsonrpc": "2.0", "id": n, "result": expected}),
            "{params}"
        );
    }
}
