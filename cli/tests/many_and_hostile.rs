//! Many tools at once and hostile files, through the binary: every bad file and tool is named
//! while the good ones go through with `--keep-going`; a FIFO as a spec path is refused at once;
//! a schema far past the node limit is refused while it is read, within bounded memory;
//! `import --out` never writes through a symbolic link.

#![cfg(unix)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_tooldef");

/// How long one run may take before the test fails (a blocked read would never end).
const TIMEOUT: Duration = Duration::from_secs(10);

/// Runs the binary with stdin closed, failing the test after [`TIMEOUT`].
fn tooldef(args: &[&str]) -> Output {
    let mut command = Command::new(BIN);
    command.args(args);
    run(command, args)
}

/// Runs `command` (the binary, `args` for messages) with stdin closed, failing the test after
/// [`TIMEOUT`].
fn run(mut command: Command, args: &[&str]) -> Output {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tooldef");
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = r.read_to_end(&mut bytes);
            bytes
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout")));
    let err = drain(Box::new(child.stderr.take().expect("stderr")));
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tooldef {args:?} did not finish within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Output { status, stdout: out.join().expect("stdout"), stderr: err.join().expect("stderr") }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8")
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("tooldef-many-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn join(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }

    fn write(&self, rel: &str, content: &str) -> String {
        let path = self.join(rel);
        std::fs::write(&path, content).unwrap();
        path.display().to_string()
    }

    fn fifo(&self, rel: &str) -> String {
        let path = self.join(rel);
        rustix::fs::mkfifoat(rustix::fs::CWD, &path, rustix::fs::Mode::from_raw_mode(0o600))
            .unwrap();
        path.display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

// ------------------------------------------------------------------------------------------------
// FIFOs

#[test]
fn a_fifo_as_a_spec_path_is_refused_naming_it() {
    let dir = TempDir::new("fifo");
    let fifo = dir.fifo("pipe.json");
    let expected =
        format!("error: {fifo}: cannot read the spec file: a FIFO, not a regular file\n");
    for args in [&["render", "--provider", "mcp", &fifo][..], &["check", &fifo]] {
        let o = tooldef(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&o.stderr), expected, "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let o = tooldef(&[
        "import",
        "--from",
        "mcp",
        &fifo,
        "--out",
        &dir.join("out").display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr), format!("error: {fifo}: a FIFO, not a regular file\n"));
    assert!(!dir.join("out").exists());
}

#[test]
fn a_fifo_in_a_directory_is_named_and_the_other_specs_render_with_keep_going() {
    let dir = TempDir::new("fifo-dir");
    dir.write("a.json", r#"{"description": "A."}"#);
    let fifo = dir.fifo("b.json");
    let d = dir.0.display().to_string();
    let o = tooldef(&["render", "--provider", "mcp", &d]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr), format!("error: {fifo}: a FIFO, not a regular file\n"));
    assert!(o.stdout.is_empty());
    let o = tooldef(&["render", "--provider", "mcp", "--keep-going", &d]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr), format!("error: {fifo}: a FIFO, not a regular file\n"));
    let rendered: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> =
        rendered.as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["a"]);
}

// ------------------------------------------------------------------------------------------------
// Many tools at once

#[test]
fn check_reports_every_bad_file_and_still_checks_the_good_ones() {
    let dir = TempDir::new("check");
    dir.write("good.json", r#"{"description": "Good."}"#);
    let typo = dir.write("typo.json", r#"{"descripton": "x", "annotatons": {}}"#);
    let broken = dir.write("broken.json", "[");
    let d = dir.0.display().to_string();
    let o = tooldef(&["check", "--provider", "mcp", &d]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        format!(
            "error: {broken}:1:1: malformed JSON: EOF while parsing a list
error: {typo}: #: unknown key `descripton`; did you mean `description`?
error: {typo}: #: unknown key `annotatons`; did you mean `annotations`?
"
        )
    );
    assert_eq!(text(&o.stdout), "mcp: 1 tools, 0 changes (0 lossy), 0 refused\n");
}

#[test]
fn render_names_every_refused_tool_and_keep_going_writes_the_rest() {
    let dir = TempDir::new("refused");
    dir.write("fine.json", r#"{"description": "Fine."}"#);
    // An open map loses meaning under a strict mode that must close every object.
    let open =
        r#"{"input_schema": {"type": "object", "additionalProperties": {"type": "string"}}}"#;
    dir.write("map_one.json", open);
    dir.write("map_two.json", open);
    let d = dir.0.display().to_string();
    let o = tooldef(&["render", "--provider", "openai-chat", "--strict", &d]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let err = text(&o.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    for (line, file) in lines.iter().zip(["map_one.json", "map_two.json"]) {
        let prefix = format!("error: {}: openai-chat: ", dir.join(file).display());
        assert!(line.starts_with(&prefix), "{err}");
    }
    let o = tooldef(&["render", "--provider", "openai-chat", "--strict", "--keep-going", &d]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stderr), err);
    let rendered: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> = rendered
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["fine"]);
}

/// A spec of a few kilobytes whose definitions each refer to the one below ten times: inlined,
/// twelve levels would write 10^12 schema nodes.
fn fan_out_spec() -> String {
    let mut defs = vec![r#""d0": {"type": "string"}"#.to_owned()];
    for level in 1..=12 {
        let props: Vec<String> =
            (0..10).map(|i| format!(r##""p{i}": {{"$ref": "#/$defs/d{}"}}"##, level - 1)).collect();
        defs.push(format!(
            r#""d{level}": {{"type": "object", "properties": {{{}}}}}"#,
            props.join(", ")
        ));
    }
    format!(
        r##"{{"input_schema": {{"type": "object", "properties": {{"x": {{"$ref": "#/$defs/d12"}}}}, "$defs": {{{}}}}}}}"##,
        defs.join(", ")
    )
}

#[test]
fn references_past_the_expansion_budget_are_bad_input_naming_file_and_definition() {
    let dir = TempDir::new("fan");
    let fan = dir.write("fan.json", &fan_out_spec());
    let fine = dir.write("fine.json", r#"{"description": "Fine."}"#);
    // Ollama inlines references: the budget refuses the expansion, and that is bad input.
    let o = tooldef(&["render", "--provider", "ollama", &fan]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    let prefix = format!("error: {fan}: ollama: tool `fan`, parameter `x.p0.");
    assert!(err.starts_with(&prefix), "{err}");
    assert!(err.contains(" at /function/parameters/properties/x/properties/p0/"), "{err}");
    assert!(err.contains("inlining definition `/$defs/d12`"), "{err}");
    assert!(o.stdout.is_empty());
    // Anthropic keeps `$defs`: the same file renders there.
    let o = tooldef(&["render", "--provider", "anthropic", &fan]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    // `check` names it too and exits 2, having checked the good file beside it.
    let o = tooldef(&["check", "--provider", "anthropic", "--provider", "ollama", &fan, &fine]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("anthropic: 2 tools, 0 changes (0 lossy), 0 refused"), "{out}");
    assert!(out.contains(&format!("  refused  {fan}: ollama: tool `fan`, parameter `x.")), "{out}");
    assert_eq!(
        text(&o.stderr),
        "error: 1 of 2 providers would refuse a tool: ollama; check only the providers you \
         target with `--provider`\n"
    );
}

const THREE_TOOLS: &str = r#"{"tools": [
    {"name": "one", "inputSchema": {"type": "object"}},
    {"name": "two", "inputSchema": {"type": "object", "properties": {"n": {"type": "integr"}}}},
    {"name": "three", "inputSchema": {"type": "object"}},
    {"name": "one", "inputSchema": {"type": "object"}}
]}"#;

#[test]
fn import_names_every_bad_tool_and_writes_nothing_without_keep_going() {
    let dir = TempDir::new("import");
    let list = dir.write("list.json", THREE_TOOLS);
    let out = dir.join("out");
    let out_s = out.display().to_string();
    let o = tooldef(&["import", "--from", "mcp", &list, "--out", &out_s]);
    assert_eq!(o.status.code(), Some(2));
    let expected = format!(
        "error: {list}: #/tools/1/inputSchema/properties/n/type: `integr` is not a JSON Schema type; did you mean `integer`?
error: {list}: #/tools/3: tool `one` is already defined at #/tools/0
"
    );
    assert_eq!(text(&o.stderr), expected);
    assert!(o.stdout.is_empty());
    assert!(!out.exists());

    let o = tooldef(&["import", "--from", "mcp", "--keep-going", &list, "--out", &out_s]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr), expected);
    assert_eq!(
        text(&o.stdout),
        format!("{}\n{}\n", out.join("one.json").display(), out.join("three.json").display())
    );
    assert_eq!(entries(&out), ["one.json", "three.json"]);
}

/// A tool list of about 20 MB: `wide`, whose input lists 700,000 properties, then `ok`.
fn wide_list() -> String {
    let props: Vec<String> =
        (0..700_000).map(|i| format!(r#""p{i}":{{"type":"string"}}"#)).collect();
    format!(
        r#"{{"tools":[{{"name":"wide","inputSchema":{{"type":"object","properties":{{{}}}}}}},{{"name":"ok","inputSchema":{{"type":"object"}}}}]}}"#,
        props.join(",")
    )
}

#[cfg(target_os = "linux")]
#[test]
fn a_schema_far_past_the_node_limit_is_refused_while_read_within_bounded_memory() {
    let dir = TempDir::new("wide");
    let list = dir.write("wide.json", &wide_list());
    let out = dir.join("out").display().to_string();
    // At most 1 GiB of address space: building those properties took some 1.4 GB before they
    // were counted; counted while read, the import stays far below.
    let args = ["import", "--from", "mcp", "--keep-going", &list, "--out", &out];
    let mut command = Command::new("sh");
    command.arg("-c").arg("ulimit -v 1048576 && exec \"$0\" \"$@\"").arg(BIN).args(args);
    let o = run(command, &args);
    assert_eq!(
        text(&o.stderr),
        format!(
            "error: {list}: #/tools/0/inputSchema/properties/p65536: schemas hold more than 65536 \
             nodes (the tool's input and output schemas and their definitions together)\n"
        )
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(entries(&dir.join("out")), ["ok.json"], "the other tool is still written");
}

// ------------------------------------------------------------------------------------------------
// import --out DIR

#[test]
fn import_never_writes_through_a_symlink_in_the_out_dir() {
    let dir = TempDir::new("links");
    let list = dir
        .write("list.json", r#"{"tools": [{"name": "one", "inputSchema": {"type": "object"}}]}"#);
    let out = dir.join("out");
    std::fs::create_dir(&out).unwrap();
    let outside = dir.join("outside.json");
    let link = out.join("one.json");
    // Dangling: following it would create `outside.json`.
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    let out_s = out.display().to_string();
    let refused = format!(
        "error: {}: is a symbolic link; refusing to write through it (remove it or choose another `--out`)\n",
        link.display()
    );
    for force in [false, true] {
        let mut args = vec!["import", "--from", "mcp", &list, "--out", &out_s];
        if force {
            args.push("--force");
            // With `--force`, a link to an existing file outside is not overwritten either.
            std::fs::write(&outside, "kept").unwrap();
        }
        let o = tooldef(&args);
        assert_eq!(o.status.code(), Some(2), "force: {force}");
        assert_eq!(text(&o.stderr), refused, "force: {force}");
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        if force {
            assert_eq!(std::fs::read_to_string(&outside).unwrap(), "kept");
        } else {
            assert!(!outside.exists());
        }
    }
    // `--force` replaces a regular file, leaving no temporary file behind.
    std::fs::remove_file(&link).unwrap();
    std::fs::write(&link, "old").unwrap();
    let o = tooldef(&["import", "--from", "mcp", &list, "--out", &out_s, "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(std::fs::read_to_string(&link).unwrap().contains("\"name\": \"one\""));
    assert_eq!(entries(&out), ["one.json"]);
}
