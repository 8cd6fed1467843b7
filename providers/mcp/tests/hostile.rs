//! Hostile peers, each bounded by deadlines: servers that never answer, exit mid-call, write a
//! 100 MB line or invalid JSON (the client makes each an error result for that call and keeps
//! working), child processes that crash or stay silent at start, and clients that send garbage
//! or disconnect mid-call (the server survives the first and lets go of the second).

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
    let options = ClientOptions::default().call_timeout(CALL_TIMEOUT);
    let client = within("connect", McpClient::connect("hostile", ours, options)).await.unwrap();
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

#[tokio::test]
async fn a_100_mb_line_is_discarded_and_the_call_times_out() {
    let (_client, tool, written) = hostile(Misbehaviour::HugeLine).await;
    let result = call(&tool, "1").await;
    assert_eq!((result.is_error, result.text()), (true, NO_ANSWER.to_owned()));
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
async fn a_client_that_sends_garbage_and_a_100_mb_line_still_gets_answers() {
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
