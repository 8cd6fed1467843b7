//! `tooldef serve` and `tooldef import --from mcp-server`, as processes: the pair as a round
//! trip (the same specs back, less their commands), and `serve` driven by the official Rust
//! SDK's client (calls through dispatch, list_changed when a file appears, a server that dies
//! mid-call).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rmcp::model::{CallToolRequestParams, ClientConfig, ProtocolVersion};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::sync::Notify;
use tooldef::load_spec_dir;

/// How long one step may take before the test fails.
const STEP: Duration = Duration::from_secs(30);

async fn within<F: std::future::Future>(what: &str, f: F) -> F::Output {
    tokio::time::timeout(STEP, f).await.unwrap_or_else(|_| panic!("{what}: no end within {STEP:?}"))
}

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(rel)
}

const TOOLDEF: &str = env!("CARGO_BIN_EXE_tooldef");

/// A directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        static N: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
        let name = format!(
            "tooldef-cli-mcp-{}-{}-{nanos}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        std::fs::create_dir(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `tooldef` with a deadline (the child is killed past it).
fn run_bounded(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let mut child = Command::new(TOOLDEF)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run tooldef");
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > STEP {
            let _ = child.kill();
            panic!("tooldef {args:?} did not end within {STEP:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn import_from_a_served_directory_gives_back_the_same_specs_less_their_commands() {
    let out = TempDir::new();
    let src = fixture("serve");
    let o = run_bounded(&[
        "import".as_ref(),
        "--from".as_ref(),
        "mcp-server".as_ref(),
        "--out".as_ref(),
        out.0.as_os_str(),
        "--".as_ref(),
        TOOLDEF.as_ref(),
        "serve".as_ref(),
        src.as_os_str(),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "import failed: {stderr}");
    let listed: Vec<String> =
        String::from_utf8(o.stdout).unwrap().lines().map(str::to_owned).collect();
    let expected: Vec<String> = ["create_issue", "get_weather", "set_alarm", "shout"]
        .iter()
        .map(|n| out.0.join(format!("{n}.json")).display().to_string())
        .collect();
    assert_eq!(listed, expected);

    // The tools cross rmcp's client as `Value`s, whose key order is the `Map`'s (sorted unless
    // serde_json's `preserve_order` is on): the specs come back equal up to property order.
    let before = load_spec_dir(&src).unwrap();
    let after = load_spec_dir(&out.0).unwrap();
    let sorted = |d: &tooldef::ToolDescriptor| {
        let mut d = d.clone();
        d.params.to_mut().sort_by(|a, b| a.name.cmp(&b.name));
        if let Some(out) = d.output.as_mut()
            && let tooldef::SchemaKind::Object(o) = &mut out.make_mut().kind
        {
            o.properties.to_mut().sort_by(|a, b| a.name.cmp(&b.name));
        }
        d
    };
    let normalized = |specs: &tooldef::export::Specs| -> Vec<tooldef::ToolDescriptor> {
        specs.descriptors().into_iter().map(sorted).collect()
    };
    assert_eq!(normalized(&after), normalized(&before));
    // The server sends each schema as its spec file has it and the import writes it as it came:
    // each written spec is the served one, named, without its command.
    let read = |path: PathBuf| -> Value {
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    for loaded in &before.loaded {
        let name = loaded.spec.descriptor.name.as_str();
        let written = read(out.0.join(format!("{name}.json")));
        let mut expected = read(src.join(format!("{name}.json")));
        let fields = expected.as_object_mut().unwrap();
        fields.insert("name".into(), name.into());
        fields.remove("command");
        assert_eq!(written, expected, "{name}");
    }
}

/// `tooldef import --from mcp-server [FLAGS] --out OUT -- python3 one_bad_tool_server.py`.
fn import_from_one_bad_tool_server(out: &Path, flags: &[&str]) -> std::process::Output {
    let server = fixture("one_bad_tool_server.py");
    let mut args: Vec<&std::ffi::OsStr> =
        vec!["import".as_ref(), "--from".as_ref(), "mcp-server".as_ref()];
    args.extend(flags.iter().map(std::ffi::OsStr::new));
    args.extend(["--out".as_ref(), out.as_os_str(), "--".as_ref(), "python3".as_ref()]);
    args.push(server.as_os_str());
    run_bounded(&args)
}

#[test]
fn one_bad_tool_of_a_server_is_named_and_keep_going_writes_the_others() {
    let out = TempDir::new();
    let o = import_from_one_bad_tool_server(&out.0, &[]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("tool `bad`"), "{stderr}");
    assert!(!out.0.join("good.json").exists(), "nothing is written without --keep-going");

    let o = import_from_one_bad_tool_server(&out.0, &["--keep-going"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "some tools were left out: {stderr}");
    assert!(stderr.contains("tool `bad`"), "{stderr}");
    let written = out.0.join("good.json");
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), written.display().to_string());
    let spec: Value = serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
    assert_eq!(spec["name"], "good");
    assert!(!out.0.join("bad.json").exists());
}

#[cfg(unix)]
#[test]
fn import_from_a_server_never_writes_through_a_link_in_its_out_dir() {
    let out = TempDir::new();
    let elsewhere = TempDir::new();
    let target = elsewhere.0.join("outside.json");
    std::os::unix::fs::symlink(&target, out.0.join("good.json")).unwrap();
    for flags in [&["--keep-going"][..], &["--keep-going", "--force"]] {
        let o = import_from_one_bad_tool_server(&out.0, flags);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("good.json"), "the link is named: {stderr}");
        assert!(!target.exists(), "{flags:?} wrote through the link");
    }
}

#[test]
fn serve_refuses_a_file_and_import_needs_a_command() {
    let o = run_bounded(&["serve".as_ref(), fixture("serve/shout.json").as_os_str()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        format!(
            "error: {}: not a directory; serve takes workspace directories\n",
            fixture("serve/shout.json").display()
        )
    );
    let o = run_bounded(&["import".as_ref(), "--from".as_ref(), "mcp-server".as_ref()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .starts_with("error: no server command given after `--`\n")
    );
}

/// A 2025-11-25 session client that counts `tools/list_changed`.
#[derive(Clone, Default)]
struct Counting(Arc<Notify>);

impl ClientHandler for Counting {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::default().with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.0.notify_one();
    }
}

async fn serve(dir: &Path, handler: Counting) -> RunningService<RoleClient, Counting> {
    let mut command = tokio::process::Command::new(TOOLDEF);
    command.arg("serve").arg(dir);
    let transport = TokioChildProcess::new(command).expect("start tooldef serve");
    within("the client start", handler.serve(transport)).await.expect("serve starts")
}

fn text(r: &rmcp::model::CallToolResult) -> String {
    r.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.as_str()).collect()
}

fn copy_fixtures(into: &Path) {
    for entry in std::fs::read_dir(fixture("serve")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, into.join(path.file_name().unwrap())).unwrap();
    }
}

#[tokio::test]
async fn serve_answers_calls_through_dispatch_and_says_when_the_set_changes() {
    let dir = TempDir::new();
    copy_fixtures(&dir.0);
    let handler = Counting::default();
    let changed = Arc::clone(&handler.0);
    let client = serve(&dir.0, handler).await;

    let tools = within("list", client.list_all_tools()).await.unwrap();
    let names: Vec<_> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["create_issue", "get_weather", "set_alarm", "shout"]);

    let args = json!({"text": "hello"}).as_object().cloned().unwrap();
    let shout =
        within("shout", client.call_tool(CallToolRequestParams::new("shout").with_arguments(args)))
            .await
            .unwrap();
    assert_eq!((shout.is_error, text(&shout)), (Some(false), r#"{"TEXT":"HELLO"}"#.to_owned()));

    let args = json!({"text": 5}).as_object().cloned().unwrap();
    let bad =
        within("shout", client.call_tool(CallToolRequestParams::new("shout").with_arguments(args)))
            .await
            .unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(text(&bad), "invalid arguments for shout: /text must be a string; got 5");

    let args = json!({"city": "Paris"}).as_object().cloned().unwrap();
    let declarative = within(
        "get_weather",
        client.call_tool(CallToolRequestParams::new("get_weather").with_arguments(args)),
    )
    .await
    .unwrap();
    assert_eq!(declarative.is_error, Some(true));
    assert_eq!(text(&declarative), "workspace tool get_weather has no implementation");

    std::fs::write(dir.0.join("later.json"), r#"{"description": "Came later."}"#).unwrap();
    within("list_changed", changed.notified()).await;
    let tools = within("list", client.list_all_tools()).await.unwrap();
    assert!(tools.iter().any(|t| t.name == "later"), "{tools:?}");
    within("close", client.cancel()).await.unwrap();
}

#[tokio::test]
async fn a_served_tool_that_kills_its_server_is_an_error_for_the_client() {
    let dir = TempDir::new();
    std::fs::write(
        dir.0.join("die.json"),
        r#"{"description": "Ends the server.", "command": ["sh", "-c", "kill -9 $PPID"]}"#,
    )
    .unwrap();
    let mut command = tokio::process::Command::new(TOOLDEF);
    command.arg("serve").arg(&dir.0);
    let client =
        within("spawn", tooldef_mcp::client::McpClient::spawn(command, Default::default()))
            .await
            .unwrap();
    let imported = within("import", client.import()).await.unwrap();
    let call = tooldef::ToolCall::new("c1", "die", json!({}));
    let result = within("die", tooldef::Executor::execute(&*imported.tools[0], &call)).await;
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        format!(
            "MCP server `{TOOLDEF} serve {}`: tool die: the server is gone (its connection closed)",
            dir.0.display()
        )
    );
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

/// Waits (at most [`STEP`]) until `done` holds; whether it did.
fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + STEP;
    while !done() {
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

#[cfg(target_os = "linux")]
#[test]
fn serve_kills_a_running_command_before_it_exits_when_its_client_goes() {
    use std::io::Write as _;
    let dir = TempDir::new();
    let pids = dir.0.join("pids");
    let script = format!("sleep 60 & echo $! >> '{}'; wait", pids.display());
    let spec = json!({"description": "Sleeps.", "command": {"argv": ["sh", "-c", script],
                      "timeout_ms": 120_000}});
    std::fs::write(dir.0.join("nap.json"), spec.to_string()).unwrap();
    let mut serve = Command::new(TOOLDEF)
        .arg("serve")
        .arg(&dir.0)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = serve.stdin.take().unwrap();
    let lines = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "nap", "arguments": {}}}),
    ];
    for line in &lines {
        writeln!(stdin, "{line}").unwrap();
    }
    stdin.flush().unwrap();
    let mut pid = None;
    let started = eventually(|| {
        pid = std::fs::read_to_string(&pids).ok().and_then(|t| t.trim().parse::<u32>().ok());
        pid.is_some()
    });
    if !started {
        let _ = serve.kill();
        panic!("the command never started");
    }
    let pid = pid.unwrap();
    // The client goes: serve sees the end of its input, and exits.
    drop(stdin);
    let exited = eventually(|| serve.try_wait().unwrap().is_some());
    if !exited {
        let _ = serve.kill();
        panic!("serve did not exit after its client went");
    }
    let gone = eventually(|| !running(pid));
    if !gone {
        // Do not leave it behind either way.
        let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
    }
    assert!(gone, "the command's sleeper {pid} outlived `tooldef serve`");
}

/// `tooldef import --from mcp-server [FLAGS] --out OUT -- python3 hostile_server.py MODE`.
fn import_from_hostile_server(out: &Path, mode: &str, flags: &[&str]) -> std::process::Output {
    let server = fixture("hostile_server.py");
    let mut args: Vec<&std::ffi::OsStr> =
        vec!["import".as_ref(), "--from".as_ref(), "mcp-server".as_ref()];
    args.extend(flags.iter().map(std::ffi::OsStr::new));
    args.extend(["--out".as_ref(), out.as_os_str(), "--".as_ref(), "python3".as_ref()]);
    args.extend([server.as_os_str(), mode.as_ref()]);
    run_bounded(&args)
}

/// How the hostile server is named in messages.
fn hostile_label(mode: &str) -> String {
    format!("python3 {} {mode}", fixture("hostile_server.py").display())
}

fn written(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_name_a_server_lists_twice_is_refused_before_anything_is_written() {
    let label = hostile_label("duplicate");
    for flags in [&[][..], &["--force"]] {
        let out = TempDir::new();
        let o = import_from_hostile_server(&out.0, "duplicate", flags);
        assert_eq!(o.status.code(), Some(2), "{flags:?}");
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            format!("error: {label}: #/tools/2: tool `dup` is already listed at #/tools/0\n"),
            "{flags:?}"
        );
        assert_eq!(written(&out.0), Vec::<String>::new(), "{flags:?}");
    }
    // With --keep-going the first of the name is written, never the second over it.
    let out = TempDir::new();
    let o = import_from_hostile_server(&out.0, "duplicate", &["--keep-going", "--force"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(written(&out.0), ["dup.json", "ok.json"]);
    let dup: Value =
        serde_json::from_str(&std::fs::read_to_string(out.0.join("dup.json")).unwrap()).unwrap();
    assert_eq!(dup["description"], "First.");
}

#[test]
fn names_that_would_not_read_back_as_files_are_refused_naming_the_rule() {
    let out = TempDir::new();
    let o = import_from_hostile_server(&out.0, "names", &[]);
    assert_eq!(o.status.code(), Some(2));
    let label = hostile_label("names");
    let why = "would be a dot-file, which a tool directory ignores (a spec file's name must not \
               start with `.`)";
    let expected: Vec<String> = [(0, "."), (1, ".."), (2, ".hidden")]
        .iter()
        .map(|(i, name)| {
            format!(
                "error: {label}: #/tools/{i}: tool `{name}` cannot be written as a spec file: \
                 `{name}.json` {why}"
            )
        })
        .collect();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(stderr.lines().collect::<Vec<_>>(), expected);
    assert_eq!(written(&out.0), Vec::<String>::new());
    // With --keep-going the others are written.
    let o = import_from_hostile_server(&out.0, "names", &["--keep-going"]);
    assert_eq!(o.status.code(), Some(2));
    let long = format!("{}.json", "x".repeat(100));
    assert_eq!(written(&out.0), ["ok.json".to_owned(), long]);
}

#[test]
fn a_server_s_names_and_error_text_reach_the_terminal_escaped() {
    let out = TempDir::new();
    let o = import_from_hostile_server(&out.0, "escapes", &[]);
    assert_eq!(o.status.code(), Some(2));
    let label = hostile_label("escapes");
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert!(!stderr.contains(['\u{1b}', '\0']), "{stderr:?}");
    assert_eq!(
        stderr.lines().collect::<Vec<_>>(),
        [
            format!(
                "error: {label}: tool `red\\u{{1b}}[31m\\0`: /tools/0: MCP tool `red\\u{{1b}}[31m\\0`: \
                 #/name: tool name `red\\u{{1b}}[31m\\0` has the character '\\u{{1b}}' at byte 3; \
                 only a-z, A-Z, 0-9, `_`, `-` and `.` are allowed"
            ),
            format!(
                "error: {label}: tool `ok`: /tools/1: MCP tool `ok`: #/input_schema/properties/x/type: \
                 `strin\\u{{1b}}[2J` is not a JSON Schema type; expected one of string, integer, \
                 number, boolean, null, array, object"
            ),
        ]
    );
    let o = import_from_hostile_server(&out.0, "error", &[]);
    assert_eq!(o.status.code(), Some(2));
    let label = hostile_label("error");
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        format!(
            "error: MCP server `{label}`: tools/list failed: the server answered with error \
             -32000: boom\\u{{1b}}[2J\\0\\nforged line\n"
        )
    );
}

/// One HTTP/1.1 POST of an `initialize` to the server at `port`, with `host` and `origin`: the
/// status line of the answer.
fn post_initialize(port: u16, host: &str, origin: Option<&str>) -> String {
    use std::io::{BufRead, BufReader, Write};
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\n{origin}Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).unwrap();
    line.trim_end().to_owned()
}

#[test]
fn serve_http_prints_its_url_and_checks_host_and_origin() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(TOOLDEF)
        .args(["serve", "--http", "0", "--allow-origin", "https://app.example:443"])
        .arg(fixture("serve"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut url).unwrap();
    let url = url.trim_end();
    let port: u16 = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("not a loopback endpoint URL: {url}"));
    let local = format!("127.0.0.1:{port}");
    let answers = [
        post_initialize(port, &local, None),
        post_initialize(port, &local, Some("https://app.example:443")),
        post_initialize(port, "evil.example.com", None),
        post_initialize(port, &local, Some("https://evil.example.com")),
    ];
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        answers,
        ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "HTTP/1.1 403 Forbidden", "HTTP/1.1 403 Forbidden"]
    );
}

#[test]
fn allow_origin_needs_http() {
    let out = Command::new(TOOLDEF)
        .args(["serve", "--allow-origin", "https://app.example:443"])
        .arg(fixture("serve"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("error: --allow-origin is for --http"), "{stderr}");
}
