//! Fuzzes the MCP server's request handling: the input is JSON-RPC lines, sent after a proper
//! `initialize` to `McpServer::serve_io` over an in-memory pipe, so that every line goes through
//! the argument screen, rmcp's reader and the server's handlers (`tools/list`, `tools/call`
//! into dispatch), with no network. A final `ping` follows the input.
//!
//! Checks what callers rely on: no panic in the server (a panicking task is re-raised here), no
//! stack overflow, no hang (libFuzzer's `-timeout`), and a server that outlives its input: the
//! `ping` is answered unless the server ended the session, and then it ended without error.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tooldef::dispatch::DynamicTool;
use tooldef::{Param, Schema, ToolDescriptor, Toolbox};
use tooldef_mcp::server::{McpServer, ServerOptions};

/// The id of the closing `ping`.
const LAST: &str = "fuzz-last-ping";

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
    })
}

/// Tools whose arguments exercise dispatch: text, bounded numbers, an enum, a nested object,
/// an array, and one that fails.
fn toolbox() -> Toolbox {
    const INNER: &[Param] = &[Param::boolean("flag")];
    static ITEM: Schema = Schema::string();
    let echo = ToolDescriptor::builder("echo")
        .description("Echo the arguments.")
        .param(Param::string("text").max_length(64))
        .param(Param::integer("n").range(0, 100).optional())
        .param(Param::enumeration("mode", &["a", "b"]).default_str("a"))
        .param(Param::object("inner", INNER).optional())
        .param(Param::list("items", &ITEM).optional())
        .output(Schema::object_of(vec![Param::string("text")]))
        .build()
        .expect("a valid tool");
    let fail = ToolDescriptor::builder("fail").description("Always fails.").build().expect("valid");
    Toolbox::new().with_executor(DynamicTool::new_sync(echo, Ok).into()).with_executor(
        DynamicTool::new_sync(fail, |_| Err(tooldef::ToolError::new("failed"))).into(),
    )
}

fuzz_target!(|data: &[u8]| {
    runtime().block_on(session(data));
});

async fn session(data: &[u8]) {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    let server =
        McpServer::from_toolbox(toolbox()).with_options(ServerOptions::default().page_size(1));
    let serving = tokio::spawn(server.serve_io(read, write));
    let (read, mut write) = tokio::io::split(ours);
    let mut input = Vec::with_capacity(data.len() + 512);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "fuzz", "version": "0"}}});
    input.extend_from_slice(format!("{init}\n").as_bytes());
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    input.extend_from_slice(data);
    input.extend_from_slice(
        format!("\n{}\n", json!({"jsonrpc": "2.0", "id": LAST, "method": "ping"})).as_bytes(),
    );
    // Written while the answers are read, so that neither side waits on a full pipe.
    let writer = tokio::spawn(async move {
        let _ = write.write_all(&input).await;
        write
    });
    let mut lines = BufReader::new(read).lines();
    let mut answered = false;
    while let Ok(Some(line)) = lines.next_line().await {
        let Ok(message) = serde_json::from_str::<Value>(&line) else {
            panic!("the server wrote a line that is not JSON: {line}");
        };
        if message["id"] == LAST {
            answered = true;
            break;
        }
    }
    drop(lines);
    drop(writer.await.expect("the writer does not panic"));
    match serving.await {
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(e) => panic!("the server task failed: {e}"),
        Ok(served) => {
            if !answered {
                // The server ended the session on its own: it must have ended cleanly.
                assert!(served.is_ok(), "the session ended with an error: {served:?}");
            }
        }
    }
}
