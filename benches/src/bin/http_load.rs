//! A load run of tooldef's streamable-HTTP MCP server (`McpServer::serve_http`, default
//! limits): hundreds of sessions, thousands of `tools/call`s, over keep-alive connections on
//! loopback, bounded in count and in time. Reports throughput, the p50 and p99 latency of a
//! call and of an `initialize`, and the server's resident memory (idle, at the end with every
//! session still open, and its peak).
//!
//! The server runs in a child process (this binary with `--serve`), so that its memory is its
//! own; the client is a small HTTP/1.1 client written here, one connection per worker, each
//! worker taking sessions from a shared count: `initialize`, `notifications/initialized`, then
//! its calls (`echo`, checked to succeed). Sessions are left open, so the last figure holds
//! them all.
//!
//! `cargo run --release -p tooldef-benches --features http-load --bin http_load -- [SESSIONS]
//! [CALLS_PER_SESSION] [CONNECTIONS]` (default 200 x 25 over 32 connections).
//!
//! With `--flood N [CONNECTIONS]`, a flood instead: `N` `initialize`s never used, reporting how
//! many were answered `200` and how many `503`, and the server's memory after them.

// A measuring binary: printing its result is its job.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tooldef::dispatch::DynamicTool;
use tooldef::{Param, ToolDescriptor, Toolbox};
use tooldef_mcp::server::McpServer;

/// The whole run's bound: past it, the run stops with an error.
const RUN_LIMIT: Duration = Duration::from_secs(300);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--serve") {
        serve();
        return;
    }
    let number =
        |i: usize, default: usize| args.get(i).map_or(default, |a| a.parse().expect("a count"));
    let flood = args.first().map(String::as_str) == Some("--flood");
    let (sessions, calls, connections) = if flood {
        (number(1, 5000), 0, number(2, 32))
    } else {
        (number(0, 200), number(1, 25), number(2, 32))
    };
    let exe = std::env::current_exe().expect("this binary");
    let mut child = Command::new(exe)
        .arg("--serve")
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server process");
    let mut addr = String::new();
    BufReader::new(child.stdout.take().expect("its stdout"))
        .read_line(&mut addr)
        .expect("its address");
    let addr = addr.trim().to_owned();
    let pid = child.id();
    std::thread::sleep(Duration::from_millis(200));
    let idle = rss(pid);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let report = runtime.block_on(async {
        tokio::time::timeout(RUN_LIMIT, load(&addr, sessions, calls, connections, flood))
            .await
            .expect("the run finished within its bound")
    });
    let (end, peak) = (rss(pid), peak_rss(pid));
    let _ = child.kill();
    let _ = child.wait();
    let total = sessions * calls;
    if flood {
        println!(
            "{sessions} initializes over {connections} connections in {:.2} s: {} answered 200, {} answered 503",
            report.wall.as_secs_f64(),
            report.inits.len(),
            report.refused
        );
        println!(
            "server RSS: idle {:.1} MB, end {:.1} MB, peak {:.1} MB",
            idle as f64 / 1024.0,
            end as f64 / 1024.0,
            peak as f64 / 1024.0
        );
        return;
    }
    println!(
        "{sessions} sessions x {calls} calls = {total} calls over {connections} connections, in {:.2} s",
        report.wall.as_secs_f64()
    );
    println!("calls/s: {:.0}", total as f64 / report.wall.as_secs_f64());
    let (mut calls_ms, mut inits_ms) = (report.calls, report.inits);
    println!(
        "tools/call latency: p50 {:.2} ms, p99 {:.2} ms",
        percentile(&mut calls_ms, 50.0),
        percentile(&mut calls_ms, 99.0)
    );
    println!(
        "initialize latency: p50 {:.2} ms, p99 {:.2} ms",
        percentile(&mut inits_ms, 50.0),
        percentile(&mut inits_ms, 99.0)
    );
    println!(
        "server RSS: idle {:.1} MB, end (all sessions open) {:.1} MB, peak {:.1} MB",
        idle as f64 / 1024.0,
        end as f64 / 1024.0,
        peak as f64 / 1024.0
    );
}

/// The server side: a small toolbox on 127.0.0.1, its address on stdout.
fn serve() {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let echo = ToolDescriptor::builder("echo")
            .description("Echo the text.")
            .param(Param::string("text").max_length(1000))
            .build()
            .expect("a valid tool");
        let toolbox = Toolbox::new().with_executor(
            DynamicTool::new_sync(echo, |args: Value| Ok(args["text"].clone())).into(),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
        println!("{}", listener.local_addr().expect("its address"));
        McpServer::from_toolbox(toolbox).serve_http(listener).await.expect("serving");
    });
}

struct Report {
    wall: Duration,
    calls: Vec<f64>,
    inits: Vec<f64>,
    /// `initialize`s answered `503` (a flood past the session cap).
    refused: usize,
}

async fn load(
    addr: &str,
    sessions: usize,
    calls: usize,
    connections: usize,
    flood: bool,
) -> Report {
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..connections {
        let (next, addr) = (Arc::clone(&next), addr.to_owned());
        workers.push(tokio::spawn(async move {
            let mut conn = Conn::open(&addr).await;
            let (mut call_ms, mut init_ms, mut refused) = (Vec::new(), Vec::new(), 0);
            while next.fetch_add(1, Ordering::Relaxed) < sessions {
                let began = Instant::now();
                let hello = conn.post(None, &initialize()).await;
                if flood {
                    match hello.status {
                        200 => init_ms.push(began.elapsed().as_secs_f64() * 1e3),
                        503 => refused += 1,
                        other => panic!("initialize answered {other}"),
                    }
                    continue;
                }
                init_ms.push(began.elapsed().as_secs_f64() * 1e3);
                let session = hello.session.expect("a session id");
                let done = conn
                    .post(
                        Some(&session),
                        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                    )
                    .await;
                assert_eq!(done.status, 202);
                for i in 0..calls {
                    let call = json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
                        "params": {"name": "echo", "arguments": {"text": "hello, load"}}});
                    let began = Instant::now();
                    let answer = conn.post(Some(&session), &call.to_string()).await;
                    call_ms.push(began.elapsed().as_secs_f64() * 1e3);
                    let message = answer.message();
                    assert_eq!(message["result"]["content"][0]["text"], "hello, load", "{message}");
                }
            }
            (call_ms, init_ms, refused)
        }));
    }
    let (mut calls_ms, mut inits_ms, mut refused) = (Vec::new(), Vec::new(), 0);
    for worker in workers {
        let (c, i, r) = worker.await.expect("a worker");
        calls_ms.extend(c);
        inits_ms.extend(i);
        refused += r;
    }
    Report { wall: start.elapsed(), calls: calls_ms, inits: inits_ms, refused }
}

fn initialize() -> String {
    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "load", "version": "0"}}})
    .to_string()
}

/// One keep-alive HTTP/1.1 connection, one request at a time.
struct Conn {
    stream: TcpStream,
    host: String,
    buf: Vec<u8>,
}

struct Answer {
    status: u16,
    session: Option<String>,
    body: Vec<u8>,
}

impl Answer {
    /// The JSON-RPC message of the body (an event stream's `data:` line, or JSON).
    fn message(&self) -> Value {
        let text = String::from_utf8_lossy(&self.body);
        let data = text
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(str::trim)
            .find(|d| !d.is_empty())
            .unwrap_or(&text);
        serde_json::from_str(data).unwrap_or_else(|e| panic!("{e}: {text}"))
    }
}

impl Conn {
    async fn open(addr: &str) -> Self {
        let stream = TcpStream::connect(addr).await.expect("a connection");
        stream.set_nodelay(true).expect("nodelay");
        Conn { stream, host: addr.to_owned(), buf: Vec::with_capacity(8192) }
    }

    async fn post(&mut self, session: Option<&str>, body: &str) -> Answer {
        let session = session.map(|s| format!("Mcp-Session-Id: {s}\r\n")).unwrap_or_default();
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n\
             {session}Content-Length: {}\r\n\r\n{body}",
            self.host.replace("127.0.0.1", "localhost"),
            body.len()
        );
        self.stream.write_all(request.as_bytes()).await.expect("a write");
        let head_end = loop {
            if let Some(i) = find(&self.buf, b"\r\n\r\n") {
                break i;
            }
            self.fill().await;
        };
        let head = String::from_utf8_lossy(&self.buf[..head_end]).into_owned();
        self.buf.drain(..head_end + 4);
        let mut lines = head.split("\r\n");
        let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok());
        let (mut length, mut chunked, mut session) = (None, false, None);
        for line in lines {
            let Some((name, value)) = line.split_once(':') else { continue };
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().ok(),
                "transfer-encoding" => chunked = value.trim() == "chunked",
                "mcp-session-id" => session = Some(value.trim().to_owned()),
                _ => {}
            }
        }
        let body =
            if chunked { self.chunked().await } else { self.exactly(length.unwrap_or(0)).await };
        Answer { status: status.expect("a status"), session, body }
    }

    async fn fill(&mut self) {
        let mut chunk = [0u8; 8192];
        let n = self.stream.read(&mut chunk).await.expect("a read");
        assert!(n > 0, "the server closed the connection");
        self.buf.extend_from_slice(&chunk[..n]);
    }

    async fn exactly(&mut self, n: usize) -> Vec<u8> {
        while self.buf.len() < n {
            self.fill().await;
        }
        self.buf.drain(..n).collect()
    }

    async fn chunked(&mut self) -> Vec<u8> {
        let mut body = Vec::new();
        loop {
            let line_end = loop {
                if let Some(i) = find(&self.buf, b"\r\n") {
                    break i;
                }
                self.fill().await;
            };
            let size_text = String::from_utf8_lossy(&self.buf[..line_end]).into_owned();
            let size = usize::from_str_radix(size_text.trim(), 16).expect("a chunk size");
            self.buf.drain(..line_end + 2);
            let chunk = self.exactly(size + 2).await;
            if size == 0 {
                return body;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn percentile(values: &mut [f64], p: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * (values.len() as f64 - 1.0)).round() as usize;
    values[rank.min(values.len() - 1)]
}

/// A field of `/proc/PID/status` in KB (0 where there is no `/proc`).
fn status_kb(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix(field)?.trim().strip_suffix("kB")?.trim().parse().ok())
        })
        .unwrap_or(0)
}

fn rss(pid: u32) -> u64 {
    status_kb(pid, "VmRSS:")
}

fn peak_rss(pid: u32) -> u64 {
    status_kb(pid, "VmHWM:")
}
