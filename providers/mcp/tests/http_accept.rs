//! The streamable-HTTP server survives running out of file descriptors: with the process at
//! its descriptor limit, `accept` fails (`EMFILE`); the server logs it, pauses and accepts
//! again once descriptors are free, where it used to return and leave the port refusing.
//!
//! The limit must be the server's process's alone, so this test runs its server in a child:
//! the test binary itself, started again under `sh -c 'ulimit -n 48; exec ...'` with
//! `TOOLDEF_ACCEPT_CHILD` set (no test harness: `main` picks the side). The parent opens more
//! connections than the child has descriptors for, lets the child confirm it is out of them,
//! closes its connections and expects an answer on a new one. Every wait is bounded.

// Without a harness, the test reports on stdout itself; the child talks to the parent there.
#![allow(clippy::print_stdout)]

mod support;

use std::process::Stdio;
use std::time::Duration;

use support::raw_http::{self, initialize_body};
use support::{toolbox, within};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tooldef_mcp::server::McpServer;

const CHILD: &str = "TOOLDEF_ACCEPT_CHILD";

/// The child's descriptor limit, and how many connections the parent opens (well past it).
const CHILD_FDS: u32 = 48;
const CONNECTIONS: usize = 150;

const NAME: &str = "an_accept_error_does_not_stop_the_server";

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    if std::env::var_os(CHILD).is_some() {
        runtime.block_on(child());
        return;
    }
    // The arguments of a test harness that matter here: `--list`, and name filters.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        println!("{NAME}: test");
        return;
    }
    let exact = args.iter().any(|a| a == "--exact");
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    let chosen = filters.is_empty()
        || filters.iter().any(|f| if exact { *f == NAME } else { NAME.contains(f.as_str()) });
    if !chosen {
        println!(
            "\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out\n"
        );
        return;
    }
    println!("\nrunning 1 test");
    runtime.block_on(an_accept_error_does_not_stop_the_server());
    println!("test an_accept_error_does_not_stop_the_server ... ok");
    println!("\ntest result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n");
}

/// The server's side: serve, say where, then say when descriptors ran out; exit when the
/// parent closes stdin.
async fn child() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    println!("{}", listener.local_addr().unwrap());
    tokio::spawn(McpServer::from_toolbox(toolbox(0)).serve_http(listener));
    let mut stdin = BufReader::new(tokio::io::stdin()).lines();
    assert_eq!(stdin.next_line().await.unwrap().as_deref(), Some("opened"));
    within("the descriptors to run out", async {
        // A socket of our own fails to open once the accepted connections hold every
        // descriptor; by then `accept` has failed too, as connections wait in the backlog.
        while std::net::UdpSocket::bind("127.0.0.1:0").is_ok() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    // Give the accept loop a turn to meet the error before the parent lets go.
    tokio::time::sleep(Duration::from_millis(200)).await;
    println!("exhausted");
    while stdin.next_line().await.ok().flatten().is_some() {}
}

async fn an_accept_error_does_not_stop_the_server() {
    let exe = std::env::current_exe().unwrap();
    let mut child = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -n {CHILD_FDS} && exec \"$0\""))
        .arg(exe)
        .env(CHILD, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut to_child = child.stdin.take().unwrap();
    let mut from_child = BufReader::new(child.stdout.take().unwrap()).lines();
    let addr: std::net::SocketAddr = within("the child's address", from_child.next_line())
        .await
        .unwrap()
        .unwrap()
        .parse()
        .unwrap();
    let mut held = Vec::with_capacity(CONNECTIONS);
    for _ in 0..CONNECTIONS {
        held.push(within("a connection", TcpStream::connect(addr)).await.unwrap());
    }
    to_child.write_all(b"opened\n").await.unwrap();
    let said = within("the child to run out", from_child.next_line()).await.unwrap();
    assert_eq!(said.as_deref(), Some("exhausted"));
    drop(held);
    // The server accepts again: a new connection is answered (the backlog of closed ones is
    // served first, so it may take a few tries).
    let answered = within("an answer after the descriptors came back", async {
        loop {
            if let Ok(mut stream) = TcpStream::connect(addr).await {
                let hello = raw_http::request(
                    "POST",
                    "MCP-Protocol-Version: 2025-06-18\r\n",
                    &initialize_body(),
                );
                if stream.write_all(hello.as_bytes()).await.is_ok() {
                    let raw = raw_http::to_close(&mut stream).await;
                    if !raw.is_empty() {
                        return raw_http::parse(&raw);
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    assert_eq!(answered.answer(0)["result"]["serverInfo"]["name"], "tooldef");
    drop(to_child);
    let status = within("the child to exit", child.wait()).await.unwrap();
    assert!(status.success(), "{status}");
}
