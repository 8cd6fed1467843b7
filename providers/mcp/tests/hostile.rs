//! Hostile peers, each bounded by deadlines: servers that never answer, exit mid-call, write a
//! 100 MB line or invalid JSON (the client makes each an error result for that call and keeps
//! working; the line over the limit at once), list without end or repeat a cursor (the listing
//! stops at its bounds), child processes that crash or stay silent at start, and clients that
//! send garbage, lines past the limit, requests rmcp cannot read, or disconnect or cancel
//! mid-call (the server answers every request with its id, and lets go of the call).

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use serde_json::{Value, json};
use support::{STEP, toolbox, within};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::Notify;
use tooldef::dispatch::DynamicTool;
use tooldef::{Executor, ToolCall, ToolDescriptor, Toolbox};
use tooldef_mcp::client::{ClientError, ClientOptions, McpClient, McpTool};
use tooldef_mcp::server::McpServer;

/// What the fake server does with a `tools/call`.
#[derive(Clone, Copy, Debug)]
enum Misbehaviour {
    /// Reads the call and never answers.
    NeverAnswers,
    /// Closes its end of the stream, as a process that exits does.
    Exits,
    /// Answers with one line of 100 MB, then answers the next call properly.
    HugeLine,
    /// Answers with lines that are not JSON-RPC, then answers the next call properly.
    Garbage,
}

fn answer(id: &Value, result: Value) -> Vec<u8> {
    let mut line =
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "result": result})).unwrap();
    line.push(b'\n');
    line
}

/// A server written by hand, so that it can misbehave: a proper start and `tools/list`, then
/// `how` on the first `tools/call`.
async fn fake_server(stream: DuplexStream, how: Misbehaviour, written: Arc<AtomicBool>) {
    let (read, mut write) = tokio::io::split(stream);
    let mut lines = BufReader::new(read).lines();
    let mut calls = 0;
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(msg) = serde_json::from_str::<Value>(&line) else { continue };
        let id = msg["id"].clone();
        let reply = match msg["method"].as_str() {
            Some("initialize") => answer(
                &id,
                json!({"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                       "serverInfo": {"name": "hostile", "version": "0"}}),
            ),
            Some("tools/list") => {
                answer(&id, json!({"tools": [{"name": "work", "inputSchema": {"type": "object"}}]}))
            }
            Some("tools/call") => {
                calls += 1;
                let ok = answer(&id, json!({"content": [{"type": "text", "text": "done"}]}));
                match (how, calls) {
                    (_, 2..) => ok,
                    (Misbehaviour::NeverAnswers, _) => continue,
                    (Misbehaviour::Exits, _) => return,
                    (Misbehaviour::HugeLine, _) => {
                        let text = "x".repeat(100 << 20);
                        answer(&id, json!({"content": [{"type": "text", "text": text}]}))
                    }
                    (Misbehaviour::Garbage, _) => {
                        b"this is not json\n{\"jsonrpc\": \"2.0\", \"id\":\n[1, 2, 3]\n".to_vec()
                    }
                }
            }
            _ => continue,
        };
        if write.write_all(&reply).await.is_err() {
            return;
        }
        if calls == 1 {
            written.store(true, Ordering::SeqCst);
        }
    }
}

const CALL_TIMEOUT: Duration = Duration::from_millis(500);

/// A client of a [`fake_server`], its one tool, and whether the answer to the first call has
/// been written out.
async fn hostile(how: Misbehaviour) -> (McpClient, Arc<McpTool>, Arc<AtomicBool>) {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let written = Arc::new(AtomicBool::new(false));
    tokio::spawn(fake_server(theirs, how, Arc::clone(&written)));
    // Reading the first 16 MiB of a huge answer takes a while on a loaded machine (a debug
    // build scans each byte; with eight builds sharing two cores it took over 10 s): that one
    // call's deadline is far off, so that only the size can end it.
    let timeout = match how {
        Misbehaviour::HugeLine => STEP * 3,
        _ => CALL_TIMEOUT,
    };
    let options = ClientOptions::default().call_timeout(timeout);
    let (read, write) = tokio::io::split(ours);
    let client =
        within("connect", McpClient::connect_io("hostile", read, write, options)).await.unwrap();
    let mut imported = within("import", client.import()).await.unwrap();
    (client, imported.tools.remove(0), written)
}

/// Waits until the fake server has written its whole answer to the first call.
async fn flushed(written: &AtomicBool) {
    within("the first answer to be written", async {
        while !written.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
}

async fn call(tool: &McpTool, id: &str) -> tooldef::ToolResult {
    within("a call to a hostile server", tool.execute(&ToolCall::new(id, "work", json!({})))).await
}

const NO_ANSWER: &str = "MCP server `hostile`: tool work: no answer within 500 ms";

#[tokio::test]
async fn a_server_that_never_answers_is_an_error_for_that_call() {
    let (_client, tool, _) = hostile(Misbehaviour::NeverAnswers).await;
    let result = call(&tool, "1").await;
    assert_eq!((result.is_error, result.text()), (true, NO_ANSWER.to_owned()));
    assert_eq!(call(&tool, "2").await.text(), "done", "the next call still works");
}

#[tokio::test]
async fn a_server_that_exits_mid_call_is_an_error_for_that_call() {
    let (_client, tool, _) = hostile(Misbehaviour::Exits).await;
    let result = call(&tool, "1").await;
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "MCP server `hostile`: tool work: the server is gone (its connection closed)"
    );
    let again = call(&tool, "2").await;
    assert_eq!(again.text(), result.text(), "later calls fail the same way, at once");
}

/// What a request whose answer was over the line limit fails with.
const TOO_LARGE: &str = "the answer is larger than 16777216 bytes, the most one message may be; it was discarded unread";

#[tokio::test]
async fn a_100_mb_answer_is_discarded_and_fails_its_call_at_once() {
    let (_client, tool, written) = hostile(Misbehaviour::HugeLine).await;
    // This one call may take longer than `call` waits: its deadline is far off (see `hostile`).
    let first = ToolCall::new("1", "work", json!({}));
    let result = tokio::time::timeout(STEP * 4, tool.execute(&first)).await.expect("the call ends");
    let expected = format!("MCP server `hostile`: tool work: {TOO_LARGE}");
    assert_eq!((result.is_error, result.text()), (true, expected));
    // The line may still be on its way (100 MB through a 64 KiB pipe): let it arrive first, so
    // that the next call's deadline measures the recovery, not the transfer.
    flushed(&written).await;
    assert_eq!(call(&tool, "2").await.text(), "done", "the stream recovers after the line");
}

#[tokio::test]
async fn invalid_json_is_discarded_and_the_call_times_out() {
    let (_client, tool, written) = hostile(Misbehaviour::Garbage).await;
    let result = call(&tool, "1").await;
    assert_eq!((result.is_error, result.text()), (true, NO_ANSWER.to_owned()));
    flushed(&written).await;
    assert_eq!(call(&tool, "2").await.text(), "done");
}

fn sh(script: &str) -> tokio::process::Command {
    let mut c = tokio::process::Command::new("sh");
    c.arg("-c").arg(script).stderr(std::process::Stdio::null());
    c
}

#[tokio::test]
async fn a_child_that_exits_at_once_does_not_start() {
    let options = ClientOptions::default().start_timeout(STEP);
    let err = within("spawn", McpClient::spawn(sh("exit 3"), options)).await.unwrap_err();
    assert!(matches!(&err, ClientError::Start { server, .. } if server == "sh -c exit 3"), "{err}");
}

#[tokio::test]
async fn a_silent_child_does_not_start_within_the_deadline() {
    let options = ClientOptions::default().start_timeout(Duration::from_millis(300));
    let err = within("spawn", McpClient::spawn(sh("cat > /dev/null"), options)).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "MCP server `sh -c cat > /dev/null` did not start: no answer within 300 ms"
    );
}

#[tokio::test]
async fn a_missing_command_is_named() {
    let command = tokio::process::Command::new("/nonexistent/mcp-server");
    let err =
        within("spawn", McpClient::spawn(command, ClientOptions::default())).await.unwrap_err();
    let ClientError::Spawn { command, .. } = &err else { panic!("expected a spawn error: {err}") };
    assert_eq!(command, "/nonexistent/mcp-server");
}

/// Reads lines until the JSON-RPC response with `id`.
async fn response(
    lines: &mut tokio::io::Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
    id: u64,
) -> Value {
    loop {
        let line = lines.next_line().await.unwrap().expect("the server closed the stream");
        let msg: Value = serde_json::from_str(&line).unwrap();
        if msg["id"] == json!(id) {
            return msg;
        }
    }
}

#[tokio::test]
async fn a_client_that_sends_garbage_and_a_100_mb_line_gets_answers_and_the_line_is_refused() {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    tokio::spawn(McpServer::from_toolbox(toolbox(0)).serve_io(read, write));
    let (read, mut write) = tokio::io::split(ours);
    let mut lines = BufReader::new(read).lines();
    within("the exchange", async {
        let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}});
        write.write_all(format!("{init}\n").as_bytes()).await.unwrap();
        assert_eq!(response(&mut lines, 1).await["result"]["serverInfo"]["name"], "tooldef");
        write
            .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
            .await
            .unwrap();
        write.write_all(b"not json at all\n").await.unwrap();
        let huge = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{{\"pad\":\"{}\"}}}}\n",
            "x".repeat(100 << 20)
        );
        write.write_all(huge.as_bytes()).await.unwrap();
        let refused = response(&mut lines, 2).await;
        let message = "the message is larger than 16777216 bytes, the most one message may be; \
                       it was discarded unread";
        assert_eq!(
            refused,
            json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32600, "message": message}})
        );
        let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"});
        write.write_all(format!("{list}\n").as_bytes()).await.unwrap();
        let listed = response(&mut lines, 3).await;
        assert_eq!(listed["result"]["tools"].as_array().map(Vec::len), Some(3));
    })
    .await;
}

#[tokio::test]
async fn a_client_that_disconnects_mid_call_lets_the_call_go() {
    let started = Arc::new(Notify::new());
    let dropped = Arc::new(AtomicBool::new(false));
    let (s, d) = (Arc::clone(&started), Arc::clone(&dropped));
    struct Flag(Arc<AtomicBool>);
    impl Drop for Flag {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let slow = DynamicTool::new(
        ToolDescriptor::builder("slow").description("Takes forever.").build().unwrap(),
        move |_| {
            let (s, flag) = (Arc::clone(&s), Flag(Arc::clone(&d)));
            Box::pin(async move {
                let _flag = flag;
                s.notify_one();
                tokio::time::sleep(STEP * 10).await;
                Ok(json!(null))
            })
        },
    );
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    let server = McpServer::from_toolbox(Toolbox::new().with_executor(slow.into()));
    let serving = tokio::spawn(server.serve_io(read, write));
    let client = within("connect", ().serve(ours)).await.unwrap();
    let peer = client.peer().clone();
    let pending =
        tokio::spawn(async move { peer.call_tool(CallToolRequestParams::new("slow")).await });
    within("tool start", started.notified()).await;
    within("disconnect", client.cancel()).await.unwrap();
    let served = within("the server to end", serving).await.unwrap();
    assert!(served.is_ok(), "{served:?}");
    within("the tool's future to drop", async {
        while !dropped.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(within("the client's call", pending).await.unwrap().is_err());
}

/// A raw client of `serve_io` over an in-memory pipe, past `initialize`.
async fn raw_stdio_client() -> (
    tokio::io::WriteHalf<DuplexStream>,
    tokio::io::Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
) {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    tokio::spawn(McpServer::from_toolbox(toolbox(0)).serve_io(read, write));
    let (read, mut write) = tokio::io::split(ours);
    let mut lines = BufReader::new(read).lines();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}});
    write.write_all(format!("{init}\n").as_bytes()).await.unwrap();
    within("initialize", response(&mut lines, 0)).await;
    write
        .write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .await
        .unwrap();
    (write, lines)
}

#[tokio::test]
async fn a_client_cannot_choose_the_arguments_through_meta_over_stdio() {
    let (mut write, mut lines) = raw_stdio_client().await;
    for (n, (params, expected)) in (1..).zip(support::smuggling_cases()) {
        let line =
            format!(r#"{{"jsonrpc":"2.0","id":{n},"method":"tools/call","params":{params}}}"#);
        write.write_all(format!("{line}\n").as_bytes()).await.unwrap();
        let answer = within("the call", response(&mut lines, n)).await;
        assert_eq!(answer, json!({"jsonrpc": "2.0", "id": n, "result": expected}), "{params}");
    }
}

/// Whether a process still runs (a zombie awaiting its reaper does not).
#[cfg(target_os = "linux")]
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !matches!(
            stat.rsplit(')').next().unwrap_or("").trim_start().chars().next(),
            Some('Z' | 'X')
        ),
        Err(_) => false,
    }
}

/// A raw client of a server over `stream`: writes lines and reads answers by id.
struct Raw {
    write: tokio::io::WriteHalf<DuplexStream>,
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
}

impl Raw {
    /// Serves `server` on a duplex pipe and completes the opening exchange.
    async fn start(server: McpServer) -> Raw {
        let (ours, theirs) = tokio::io::duplex(1 << 16);
        let (read, write) = tokio::io::split(theirs);
        tokio::spawn(server.serve_io(read, write));
        let (read, write) = tokio::io::split(ours);
        let mut raw = Raw { write, lines: BufReader::new(read).lines() };
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}});
        raw.send(&init.to_string()).await;
        assert_eq!(raw.answer(0).await["result"]["serverInfo"]["name"], "tooldef");
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
        raw
    }

    async fn send(&mut self, line: &str) {
        within("a write", async {
            self.write.write_all(line.as_bytes()).await.unwrap();
            self.write.write_all(b"\n").await.unwrap();
        })
        .await;
    }

    async fn answer(&mut self, id: u64) -> Value {
        within("an answer", response(&mut self.lines, id)).await
    }
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_cancelled_call_kills_its_command_group() {
    let dir = support::TempDir::new();
    let pids = dir.path().join("pids");
    let script = format!("sleep 60 & echo $! >> '{}'; wait", pids.display());
    let spec = json!({"description": "Sleeps.", "command": ["sh", "-c", script]});
    dir.write("nap.json", &spec.to_string());
    let registry = Arc::new(tooldef::ToolRegistry::new());
    let options = tooldef::WorkspaceOptions::default().command_timeout(Duration::from_secs(120));
    let workspace = Arc::new(tooldef::Workspace::with_options(dir.path(), options));
    let mut raw = Raw::start(McpServer::from_workspaces(registry, [workspace])).await;
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#).await;
    raw.answer(1).await;
    raw.send(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"nap","arguments":{}}}"#,
    )
    .await;
    let pid: u32 = within("the command to start", async {
        loop {
            if let Some(pid) =
                std::fs::read_to_string(&pids).ok().and_then(|t| t.trim().parse().ok())
            {
                return pid;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    raw.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#)
        .await;
    within("the command to be killed", async {
        while running(pid) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
}

#[tokio::test]
async fn requests_rmcp_cannot_read_are_answered_with_their_id() {
    let mut raw = Raw::start(McpServer::from_toolbox(toolbox(0))).await;
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let cases = [
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]}"#.to_owned(),
            json!({"code": -32602, "message": "`params` must be an object; got an array"}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":"x"}"#.to_owned(),
            json!({"code": -32600, "message": "`params` must be an object; got a string"}),
        ),
        (
            // `_meta` 126 levels deep: 128 with the message and `params` around it.
            format!(
                r#"{{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{{"_meta":{{"a":{}}}}}}}"#,
                deep(125)
            ),
            json!({"code": -32600,
                   "message": "the request nests 128 levels deep; a message may nest at most 127"}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{}}}"#
                .to_owned(),
            json!({"code": -32602,
                   "message": "tools/call needs `params.name`, the name of the tool to call"}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":7}}"#.to_owned(),
            json!({"code": -32602,
                   "message": "`params.name` must be a string, the name of a tool; got a number"}),
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"method":"tools/call"}"#.to_owned(),
            json!({"code": -32602,
                   "message": "tools/call needs `params` with the `name` of the tool to call"}),
        ),
    ];
    for (id, (line, error)) in (1..).zip(cases) {
        raw.send(&line).await;
        assert_eq!(
            raw.answer(id).await,
            json!({"jsonrpc": "2.0", "id": id, "error": error}),
            "{line}"
        );
    }
    // One level less is read and answered as usual.
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{{"_meta":{{"a":{}}}}}}}"#,
        deep(124)
    );
    raw.send(&line).await;
    assert_eq!(raw.answer(7).await["result"]["tools"].as_array().map(Vec::len), Some(3));
}

#[tokio::test]
async fn a_cursor_past_the_end_is_called_so_not_stale() {
    let server = McpServer::from_toolbox(toolbox(0))
        .with_options(tooldef_mcp::server::ServerOptions::default().page_size(2));
    let mut raw = Raw::start(server).await;
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"0:99"}}"#).await;
    let message =
        "cursor `0:99` points past the end of the list (3 tools); list again without a cursor";
    assert_eq!(
        raw.answer(1).await,
        json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": message}})
    );
}

/// A server written by hand that lists tools as `page` says: given the cursor asked for (none
/// for the first page), the `tools/list` result (or the error) to answer with.
async fn listing_server(stream: DuplexStream, page: impl Fn(Option<&str>) -> Value) {
    let (read, mut write) = tokio::io::split(stream);
    let mut lines = BufReader::new(read).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(msg) = serde_json::from_str::<Value>(&line) else { continue };
        let id = msg["id"].clone();
        let reply = match msg["method"].as_str() {
            Some("initialize") => answer(
                &id,
                json!({"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {"tools": {}},
                       "serverInfo": {"name": "lister", "version": "0"}}),
            ),
            Some("tools/list") => {
                let result = page(msg["params"]["cursor"].as_str());
                let key = if result.get("code").is_some() { "error" } else { "result" };
                let mut line =
                    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, key: result})).unwrap();
                line.push(b'\n');
                line
            }
            _ => continue,
        };
        if write.write_all(&reply).await.is_err() {
            return;
        }
    }
}

/// `n` tools named `t{from}`, `t{from + 1}`...
fn tools(from: usize, n: usize) -> Vec<Value> {
    (from..from + n)
        .map(|i| json!({"name": format!("t{i}"), "inputSchema": {"type": "object"}}))
        .collect()
}

/// A client of a [`listing_server`].
async fn lister(
    options: ClientOptions,
    page: impl Fn(Option<&str>) -> Value + Send + 'static,
) -> McpClient {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    tokio::spawn(listing_server(theirs, page));
    let (read, write) = tokio::io::split(ours);
    within("connect", McpClient::connect_io("lister", read, write, options)).await.unwrap()
}

#[tokio::test]
async fn a_server_that_repeats_a_cursor_is_refused_at_once() {
    let client = lister(
        ClientOptions::default(),
        |_| json!({"tools": tools(0, 2), "nextCursor": "same\u{1b}[2J"}),
    )
    .await;
    let err = within("the listing", client.list_tools()).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "MCP server `lister`: tools/list failed: page 2 gives the cursor `same\\u{1b}[2J` again; \
         the list would never end"
    );
}

#[tokio::test]
async fn a_listing_stops_at_its_bounds_on_tools_and_bytes_whatever_the_paging() {
    // Pages of 500 tools whose cursors never end, each new.
    let endless = |cursor: Option<&str>| {
        let page: usize = cursor.map_or(0, |c| c.parse().unwrap());
        json!({"tools": tools(page * 500, 500), "nextCursor": (page + 1).to_string()})
    };
    let client = lister(ClientOptions::default().max_tools(1200), endless).await;
    let err = within("the listing", client.list_tools()).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "MCP server `lister`: tools/list failed: the server lists more than 1200 tools (page 3); \
         giving up (ClientOptions::max_tools)"
    );
    let client = lister(ClientOptions::default().max_list_bytes(100_000), endless).await;
    let err = within("the listing", client.list_tools()).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "MCP server `lister`: tools/list failed: the server's tools take more than 100000 bytes \
         (page 5); giving up (ClientOptions::max_list_bytes)"
    );
    // The defaults stop it too, long before the page limit.
    let client = lister(ClientOptions::default(), endless).await;
    let err = within("the listing", client.list_tools()).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "MCP server `lister`: tools/list failed: the server lists more than 10000 tools (page 21); \
         giving up (ClientOptions::max_tools)"
    );
}

#[tokio::test]
async fn a_tool_list_over_the_line_limit_fails_at_once_as_too_large() {
    let client = lister(ClientOptions::default(), |_| {
        let pad = "x".repeat(17 << 20);
        json!({"tools": [{"name": "big", "description": pad, "inputSchema": {"type": "object"}}]})
    })
    .await;
    let err = within("the listing", client.list_tools()).await.unwrap_err();
    assert_eq!(err.to_string(), format!("MCP server `lister`: tools/list failed: {TOO_LARGE}"));
}

#[tokio::test]
async fn a_server_s_error_text_is_escaped_in_the_client_s_message() {
    let client = lister(
        ClientOptions::default(),
        |_| json!({"code": -32000, "message": "bad\u{1b}[31m\u{0}\nnews\u{202e}"}),
    )
    .await;
    let err = within("the listing", client.list_tools()).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "MCP server `lister`: tools/list failed: the server answered with error -32000: \
         bad\\u{1b}[31m\\0\\nnews\\u{202e}"
    );
}

#[tokio::test]
async fn each_tool_left_out_is_named_by_its_own_index() {
    let client = lister(ClientOptions::default(), |_| {
        json!({"tools": [
            {"name": "good", "inputSchema": {"type": "object"}},
            {"name": "bad", "inputSchema": {"type": "object", "properties": {"x": {"type": "strin"}}}},
            {"name": "worse", "inputSchema": {"type": "object", "properties": {"y": {"type": 5}}}}
        ]})
    })
    .await;
    let imported = within("the import", client.import()).await.unwrap();
    let pointers: Vec<String> =
        imported.skipped.iter().map(|(name, e)| format!("{name} {}", e.pointer)).collect();
    assert_eq!(pointers, ["bad /tools/1", "worse /tools/2"]);
}
