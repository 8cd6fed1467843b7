//! Executable workspace specs: stdin/stdout, and commands that hang, crash or flood.
#![cfg(unix)]

mod workspace_support;

use std::time::{Duration, Instant};

use serde_json::json;
use tooldef::{Arguments, ToolCall, ToolResult, Workspace, WorkspaceOptions};
use workspace_support::{Reg, TempDir, block_on};

/// Writes `NAME.json` with the given argv, reconciles, and calls the tool.
fn call_with(
    dir: &TempDir,
    opts: WorkspaceOptions,
    argv: &[&str],
    args: Arguments,
) -> (ToolResult, Duration) {
    // An open object: these tests are about the process, not the arguments' schema.
    let spec =
        json!({ "description": "runs", "input_schema": {"type": "object"}, "command": argv });
    dir.write("cmd.json", &spec.to_string());
    let reg = Reg::with_core(&[]);
    let ws = Workspace::with_options(dir.path(), opts);
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!(r.registered.len(), 1, "{r:?}");
    let tool = reg.get("cmd").unwrap();
    let call = ToolCall { id: "c1".into(), name: "cmd".into(), arguments: args };
    let t = Instant::now();
    let result = block_on(tool.execute(&call));
    (result, t.elapsed())
}

fn short() -> WorkspaceOptions {
    WorkspaceOptions::default().command_timeout(Duration::from_millis(500)).max_output(64 * 1024)
}

/// Whether a process still runs (a zombie awaiting its reaper does not).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start().chars().next();
            !matches!(state, Some('Z' | 'X'))
        }
        Err(_) => false,
    }
}

#[test]
fn the_arguments_go_to_stdin_and_stdout_is_the_result() {
    let dir = TempDir::new();
    let (r, _) = call_with(&dir, short(), &["cat"], Arguments::Json(json!({"city": "Paris"})));
    assert!(!r.is_error, "{r:?}");
    assert_eq!(r.text(), r#"{"city":"Paris"}"#);
    assert_eq!(r.structured, Some(json!({"city": "Paris"})));
    assert_eq!(r.call_id, "c1");
}

#[test]
fn text_arguments_arrive_as_compact_json_and_plain_stdout_is_text() {
    let dir = TempDir::new();
    let argv = ["sh", "-c", "read line; echo \"got $line\""];
    let (r, _) = call_with(&dir, short(), &argv, Arguments::Text("{\"a\": 1}".into()));
    assert_eq!((r.is_error, r.text().as_str()), (false, "got {\"a\":1}"));
    assert_eq!(r.structured, None);
    let (r, _) = call_with(&dir, short(), &argv, Arguments::Text("{not json".into()));
    assert!(r.is_error);
    assert!(r.text().starts_with("the arguments of cmd are not valid JSON"), "{}", r.text());
}

#[test]
fn a_command_that_hangs_is_killed_with_its_children_and_reaped() {
    let dir = TempDir::new();
    let pidfile = dir.path().join("sleeper.pid");
    let script = format!("sleep 30 & echo $! > '{}'; wait", pidfile.display());
    let (r, elapsed) = call_with(&dir, short(), &["sh", "-c", &script], Arguments::default());
    assert!(r.is_error);
    assert_eq!(r.text(), "workspace tool cmd timed out after 500 ms and was killed");
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
    let pid: u32 = std::fs::read_to_string(&pidfile).unwrap().trim().parse().unwrap();
    std::thread::sleep(Duration::from_millis(100));
    assert!(!running(pid), "the grandchild {pid} survived");

    let (r, elapsed) = call_with(&dir, short(), &["sh", "-c", "sleep 30"], Arguments::default());
    assert!(r.is_error && r.text().contains("timed out"), "{r:?}");
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

#[test]
fn a_command_that_crashes_is_an_error_result_with_its_stderr() {
    let dir = TempDir::new();
    let argv = ["sh", "-c", "echo 'no such city' >&2; exit 3"];
    let (r, _) = call_with(&dir, short(), &argv, Arguments::default());
    assert!(r.is_error);
    assert_eq!(r.text(), "workspace tool cmd exited with status 3; stderr: no such city");
    let (r, _) = call_with(&dir, short(), &["sh", "-c", "kill -9 $$"], Arguments::default());
    assert_eq!(r.text(), "workspace tool cmd was killed by signal 9");
    let (r, _) = call_with(&dir, short(), &["/nonexistent/program"], Arguments::default());
    assert!(r.is_error);
    assert!(r.text().starts_with("workspace tool cmd could not start `/nonexistent/program`"));
}

#[test]
fn a_command_that_floods_stdout_is_killed_at_the_cap() {
    let dir = TempDir::new();
    let (r, elapsed) = call_with(&dir, short(), &["yes"], Arguments::default());
    assert!(r.is_error);
    assert_eq!(r.text(), "workspace tool cmd wrote more than 65536 bytes to stdout and was killed");
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
}

#[test]
fn a_command_that_never_reads_stdin_still_completes() {
    let dir = TempDir::new();
    let big = json!({ "blob": "x".repeat(1 << 20) });
    let (r, _) = call_with(&dir, short(), &["echo", "done"], Arguments::Json(big));
    assert_eq!((r.is_error, r.text().as_str()), (false, "done"));
}

#[test]
fn an_invalid_command_member_is_reported_with_its_pointer() {
    let dir = TempDir::new();
    dir.write("a.json", r#"{"command": []}"#);
    dir.write("b.json", r#"{"command": "ls -l"}"#);
    dir.write("c.json", r#"{"command": ["ls", 3]}"#);
    let reg = Reg::with_core(&[]);
    let r = Workspace::new(dir.path()).reconcile(&reg).unwrap();
    let msgs: Vec<String> = r.skipped.iter().map(|s| s.reason.to_string()).collect();
    assert_eq!(msgs.len(), 3, "{msgs:?}");
    assert!(msgs[0].contains("/command"), "{}", msgs[0]);
    assert!(msgs[1].contains("/command"), "{}", msgs[1]);
    assert!(msgs[2].contains("/command/1"), "{}", msgs[2]);
}

#[test]
fn a_spec_may_set_its_own_timeout() {
    let dir = TempDir::new();
    dir.write("slow.json", r#"{"command": {"argv": ["sh", "-c", "sleep 30"], "timeout_ms": 200}}"#);
    let reg = Reg::with_core(&[]);
    let opts = WorkspaceOptions::default().command_timeout(Duration::from_secs(60));
    Workspace::with_options(dir.path(), opts).reconcile(&reg).unwrap();
    let t = Instant::now();
    let r = block_on(reg.get("slow").unwrap().execute(&ToolCall::new("c", "slow", json!({}))));
    assert_eq!(r.text(), "workspace tool slow timed out after 200 ms and was killed");
    assert!(t.elapsed() < Duration::from_secs(5));
}

#[test]
fn arguments_are_checked_and_completed_before_the_command_runs() {
    let dir = TempDir::new();
    let spec = json!({
        "description": "echoes",
        "input_schema": {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3}
            },
            "required": ["city"],
            "additionalProperties": false
        },
        "command": ["cat"]
    });
    dir.write("echo.json", &spec.to_string());
    let reg = Reg::with_core(&[]);
    Workspace::with_options(dir.path(), short()).reconcile(&reg).unwrap();
    let tool = reg.get("echo").unwrap();
    let call =
        |args| ToolCall { id: "c".into(), name: "echo".into(), arguments: Arguments::Json(args) };

    let ok = block_on(tool.execute(&call(json!({"city": "Paris"}))));
    assert!(!ok.is_error, "{ok:?}");
    assert_eq!(ok.structured, Some(json!({"city": "Paris", "days": 3})), "default filled in");

    let bad = block_on(tool.execute(&call(json!({"city": "Paris", "days": 11}))));
    assert!(bad.is_error);
    assert!(bad.text().contains("/days must be at most 10; got 11"), "{}", bad.text());
}

/// The names of the variables a command sees, run with `command` as its spec's command.
fn env_seen(dir: &TempDir, command: serde_json::Value) -> Vec<String> {
    let spec = json!({ "input_schema": {"type": "object"}, "command": command });
    dir.write("env.json", &spec.to_string());
    let reg = Reg::with_core(&[]);
    let ws = Workspace::with_options(dir.path(), short());
    ws.reconcile(&reg).unwrap();
    let call = ToolCall { id: "e".into(), name: "env".into(), arguments: Arguments::default() };
    let r = block_on(reg.get("env").unwrap().execute(&call));
    assert!(!r.is_error, "{r:?}");
    let mut names: Vec<String> =
        r.text().lines().filter_map(|l| l.split_once('=')).map(|(n, _)| n.to_owned()).collect();
    names.sort();
    names
}

#[test]
fn a_command_gets_a_minimal_environment_and_the_variables_its_spec_names() {
    let dir = TempDir::new();
    // Cargo sets this for every test run; a command must not see it unless its spec asks.
    assert!(std::env::var_os("CARGO_PKG_NAME").is_some());
    let base: Vec<String> = {
        let mut v: Vec<String> = tooldef::workspace::BASE_ENV
            .iter()
            .filter(|n| std::env::var_os(n).is_some())
            .map(|n| (*n).to_owned())
            .collect();
        v.sort();
        v
    };
    assert!(base.contains(&"PATH".to_owned()));
    assert_eq!(env_seen(&dir, json!(["env"])), base);
    let mut named = base.clone();
    named.push("CARGO_PKG_NAME".to_owned());
    named.sort();
    let command = json!({"argv": ["env"], "env": ["CARGO_PKG_NAME", "TOOLDEF_SURELY_UNSET"]});
    assert_eq!(env_seen(&dir, command), named);
}

#[test]
fn stderr_reaches_the_error_text_escaped_and_bounded() {
    let dir = TempDir::new();
    let script = r#"printf 'bad\000input\033[2J\nsecond line' >&2; head -c 5000 /dev/zero | tr '\0' x >&2; exit 3"#;
    let (r, _) = call_with(&dir, short(), &["sh", "-c", script], Arguments::default());
    assert!(r.is_error);
    let expected = format!(
        "workspace tool cmd exited with status 3; stderr: bad\\0input\\u{{1b}}[2J\\nsecond line{} [truncated]",
        "x".repeat(2048 - "bad\0input\x1b[2J\nsecond line".len())
    );
    assert_eq!(r.text(), expected);
}

#[cfg(target_os = "linux")]
#[test]
fn a_descendant_that_left_the_process_group_is_killed_through_the_pipes_it_holds() {
    let dir = TempDir::new();
    let pidfile = dir.path().join("escaped.pid");
    // A new session, so a new process group: the group kill does not reach it.
    let script = format!("setsid sleep 30 & echo $! > '{}'; wait", pidfile.display());
    let (r, elapsed) = call_with(&dir, short(), &["sh", "-c", &script], Arguments::default());
    assert_eq!(r.text(), "workspace tool cmd timed out after 500 ms and was killed");
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
    let pid: u32 = std::fs::read_to_string(&pidfile).unwrap().trim().parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while running(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!running(pid), "the escaped descendant {pid} survived");
}

// --- concurrency and cancellation ----------------------------------------------------------

/// Polls `fut` once (starting what it starts) without waiting for it.
fn poll_once<F: std::future::Future + Unpin>(fut: &mut F) -> Option<F::Output> {
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match std::pin::Pin::new(fut).poll(&mut cx) {
        std::task::Poll::Ready(v) => Some(v),
        std::task::Poll::Pending => None,
    }
}

/// Waits (at most 20 s, for a loaded machine) until `done` holds; whether it did.
fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done() {
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

/// The pids a command wrote to `file` (one a line), once the file holds `n` lines.
fn pids_in(file: &std::path::Path, n: usize) -> Vec<u32> {
    let mut pids = Vec::new();
    let complete = eventually(|| {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        pids = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
        pids.len() >= n
    });
    assert!(complete, "{} never held {n} pids: {pids:?}", file.display());
    pids
}

/// A workspace whose tool `cmd` runs `sh -c script`, reconciled into a fresh registry.
fn workspace_with(dir: &TempDir, opts: WorkspaceOptions, script: &str) -> (Workspace, Reg) {
    let spec = json!({ "input_schema": {"type": "object"}, "command": ["sh", "-c", script] });
    dir.write("cmd.json", &spec.to_string());
    let reg = Reg::with_core(&[]);
    let ws = Workspace::with_options(dir.path(), opts);
    ws.reconcile(&reg).unwrap();
    (ws, reg)
}

/// A script that starts `sleep 30` in its process group, appends the sleeper's pid to
/// `pids`, and waits for it.
fn sleeper(pids: &std::path::Path) -> String {
    format!("sleep 30 & echo $! >> '{}'; wait", pids.display())
}

#[test]
fn calls_past_the_cap_wait_for_a_slot_and_never_run_more_commands_at_once() {
    let dir = TempDir::new();
    let live = dir.path().join("live");
    std::fs::create_dir(&live).unwrap();
    let counts = dir.path().join("counts");
    // Each command marks itself live, counts the live ones, lingers, and unmarks itself.
    let script = format!(
        "touch '{live}/'$$; ls '{live}' | wc -l >> '{counts}'; sleep 0.2; rm '{live}/'$$; echo ok",
        live = live.display(),
        counts = counts.display()
    );
    let opts = WorkspaceOptions::default().max_concurrent_commands(3);
    let (_ws, reg) = workspace_with(&dir, opts, &script);
    let tool = reg.get("cmd").unwrap();
    let results: Vec<String> = std::thread::scope(|s| {
        let calls: Vec<_> = (0..12)
            .map(|i| {
                let tool = std::sync::Arc::clone(&tool);
                s.spawn(move || {
                    let call = ToolCall::new(format!("c{i}"), "cmd", json!({}));
                    block_on(tool.execute(&call)).text()
                })
            })
            .collect();
        calls.into_iter().map(|c| c.join().unwrap()).collect()
    });
    assert_eq!(results, vec!["ok"; 12]);
    let mut seen: Vec<usize> = std::fs::read_to_string(&counts)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    seen.sort_unstable();
    assert_eq!(seen.len(), 12);
    assert!(seen.iter().all(|&n| (1..=3).contains(&n)), "live commands at each start: {seen:?}");
}

#[test]
fn a_call_dropped_while_its_command_runs_kills_the_command_group() {
    let dir = TempDir::new();
    let pids = dir.path().join("pids");
    // A deadline far off: only the drop may stop the command.
    let opts = short().command_timeout(Duration::from_secs(60));
    let (_ws, reg) = workspace_with(&dir, opts, &sleeper(&pids));
    let tool = reg.get("cmd").unwrap();
    let call = ToolCall::new("c1", "cmd", json!({}));
    let mut pending = tool.execute(&call);
    assert!(poll_once(&mut pending).is_none());
    let pid = pids_in(&pids, 1)[0];
    assert!(running(pid));
    drop(pending);
    assert!(eventually(|| !running(pid)), "the sleeper {pid} outlived its dropped call");
}

#[test]
fn a_call_dropped_while_waiting_for_a_slot_never_starts_and_passes_its_turn_on() {
    let dir = TempDir::new();
    let pids = dir.path().join("pids");
    let opts = short().max_concurrent_commands(1).command_timeout(Duration::from_secs(60));
    let (_ws, reg) = workspace_with(&dir, opts, &sleeper(&pids));
    let tool = reg.get("cmd").unwrap();
    let calls: Vec<ToolCall> =
        (0..3).map(|i| ToolCall::new(format!("c{i}"), "cmd", json!({}))).collect();
    let mut first = tool.execute(&calls[0]);
    let mut second = tool.execute(&calls[1]);
    let mut third = tool.execute(&calls[2]);
    assert!(poll_once(&mut first).is_none());
    let first_pid = pids_in(&pids, 1)[0];
    assert!(poll_once(&mut second).is_none());
    assert!(poll_once(&mut third).is_none());
    drop(second);
    drop(first);
    assert!(eventually(|| !running(first_pid)));
    // The slot goes to the third call, which starts its command once polled.
    let third_pid = {
        let mut started = Vec::new();
        assert!(eventually(|| {
            let _ = poll_once(&mut third);
            started = std::fs::read_to_string(&pids)
                .unwrap_or_default()
                .lines()
                .map(str::to_owned)
                .collect();
            started.len() >= 2
        }));
        assert_eq!(started.len(), 2, "the dropped second call started a command: {started:?}");
        started[1].trim().parse::<u32>().unwrap()
    };
    drop(third);
    assert!(eventually(|| !running(third_pid)));
}

#[test]
fn kill_commands_stops_every_running_command_and_their_calls_say_so() {
    let dir = TempDir::new();
    let pids = dir.path().join("pids");
    let opts = short().command_timeout(Duration::from_secs(60));
    let (ws, reg) = workspace_with(&dir, opts, &sleeper(&pids));
    let tool = reg.get("cmd").unwrap();
    let (a, b) = (ToolCall::new("a", "cmd", json!({})), ToolCall::new("b", "cmd", json!({})));
    let mut first = tool.execute(&a);
    let mut second = tool.execute(&b);
    assert!(poll_once(&mut first).is_none() && poll_once(&mut second).is_none());
    let started = pids_in(&pids, 2);
    assert_eq!(ws.kill_commands(), 2);
    let stopped = "workspace tool cmd was stopped before it finished and was killed";
    assert_eq!((block_on(first).text(), block_on(second).text()), (stopped.into(), stopped.into()));
    for pid in started {
        assert!(eventually(|| !running(pid)), "{pid} survived kill_commands");
    }
    assert_eq!(ws.kill_commands(), 0);
}
