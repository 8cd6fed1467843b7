//! What a user sees when something is off: usage and "did you mean" for verbs and options, every
//! problem of a spec file in one run, an import of the wrong format, stdin as a PATH or FILE,
//! and the project's own examples under `check`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_tooldef");

/// How long one run of the binary may take before the test fails.
const TIMEOUT: Duration = Duration::from_secs(60);

const USAGE: &str = "\
Usage:
  tooldef render --provider P [--model ID] [--strict] [--report] [--pretty] [--keep-going] [--map-names] [--plan] [--max-tools N] [--max-bytes N] PATH...
  tooldef plan   --provider P [--strict] [--max-tools N] [--max-bytes N] [--json] PATH...
  tooldef check  [--provider P]... [--model ID] [--strict] PATH...
  tooldef import --from mcp|openai|anthropic|gemini [--keep-going] FILE [--out DIR] [--force]
  tooldef serve  [--http ADDR] [--allow-origin ORIGIN]... DIR...
  tooldef help   [COMMAND]
  tooldef --help | --version";

fn fixture(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(rel).display().to_string()
}

fn examples(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples").join(rel).display().to_string()
}

/// Runs the binary with `input` on stdin, failing the test after [`TIMEOUT`].
fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tooldef");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_owned();
    // The binary may exit without reading stdin: a broken pipe here is fine.
    let writer = std::thread::spawn(move || drop(stdin.write_all(input.as_bytes())));
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
            panic!("tooldef {args:?} did not finish within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    writer.join().expect("stdin writer");
    Output { status, stdout: out.join().expect("stdout"), stderr: err.join().expect("stderr") }
}

fn tooldef(args: &[&str]) -> Output {
    run(args, "")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("tooldef-usage-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn path(&self) -> String {
        self.0.display().to_string()
    }

    fn files(&self) -> usize {
        std::fs::read_dir(&self.0).unwrap().count()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ------------------------------------------------------------------------------------------------
// Usage

#[test]
fn a_bare_tooldef_prints_every_verb_and_exits_two() {
    let o = tooldef(&[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert_eq!(
        stderr(&o),
        format!(
            "error: no command given\n\n{USAGE}\n\nFor more information, try `tooldef --help`.\n"
        )
    );
}

#[test]
fn a_mistyped_verb_is_named_with_a_suggestion() {
    let o = tooldef(&["rendr", "--provider", "mcp", "x.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "error: no command `rendr`; did you mean `render`?\n\n{USAGE}\n\nFor more information, try `tooldef --help`.\n"
        )
    );
    let o = tooldef(&["convert"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with(
            "error: no command `convert`; expected one of render, plan, check, import, serve, help\n"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_mistyped_option_is_named_under_its_verbs_usage() {
    let o = tooldef(&["check", "--stirct", "x.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: unknown option `--stirct`; did you mean `--strict`?\n\n\
         Usage: tooldef check [--provider P]... [--model ID] [--strict] PATH...\n\n\
         For more information, try `tooldef check --help`.\n"
    );
    let o = tooldef(&["import", "--from", "antropic", "x.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("error: unknown format `antropic`; did you mean `anthropic`?\n"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn help_and_version_go_to_stdout_and_exit_zero() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let o = tooldef(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(o.stderr.is_empty(), "{args:?}");
        let out = stdout(&o);
        assert!(out.starts_with("tooldef: render, check and import LLM tool definitions\n\n"));
        assert!(out.contains(&format!("{USAGE}\n")), "{out}");
    }
    for (verb, usage) in [
        (
            "render",
            "Usage: tooldef render --provider P [--model ID] [--strict] [--report] [--pretty] [--keep-going] [--map-names] [--plan] [--max-tools N] [--max-bytes N] PATH...",
        ),
        ("check", "Usage: tooldef check [--provider P]... [--model ID] [--strict] PATH..."),
        (
            "import",
            "Usage: tooldef import --from mcp|openai|anthropic|gemini [--keep-going] FILE [--out DIR] [--force]",
        ),
        ("serve", "Usage: tooldef serve [--http ADDR] [--allow-origin ORIGIN]... DIR..."),
    ] {
        for args in [[verb, "--help"], [verb, "-h"], ["help", verb]] {
            let o = tooldef(&args);
            assert_eq!(o.status.code(), Some(0), "{args:?}");
            assert!(o.stderr.is_empty(), "{args:?}");
            assert_eq!(stdout(&o).lines().nth(2), Some(usage), "{args:?}");
        }
    }
    for flag in ["--version", "-V"] {
        let o = tooldef(&[flag]);
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(stdout(&o), format!("tooldef {}\n", env!("CARGO_PKG_VERSION")));
    }
}

// ------------------------------------------------------------------------------------------------
// Spec files

#[test]
fn every_problem_of_a_spec_file_is_reported_in_one_run() {
    let file = fixture("many_problems.json");
    let expected = format!(
        "error: {file}: #: unknown key `annotatons`; did you mean `annotations`?
error: {file}: #/description: expected a string, got the number 42
error: {file}: #/input_schema/properties/count/type: `integr` is not a JSON Schema type; did you mean `integer`?
error: {file}: #/annotations: unknown key `readOnlyHnt`; did you mean `readOnlyHint`?
error: {file}: #/annotations/destructiveHint: expected a boolean, got the string \"no\"
error: {file}: #/command: unknown key `timout_ms`; did you mean `timeout_ms`?
"
    );
    for args in [&["render", "--provider", "mcp", &file][..], &["check", &file]] {
        let o = tooldef(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert_eq!(stderr(&o), expected, "{args:?}");
    }
}

#[test]
fn every_property_of_an_input_schema_reports_its_own_problem() {
    // Three properties, three independent problems (the good `ok` between them and the
    // `required` list naming the bad ones add none).
    let file = fixture("three_bad_properties.json");
    let expected = format!(
        "error: {file}: #/input_schema/properties/city/type: `strng` is not a JSON Schema type; did you mean `string`?
error: {file}: #/input_schema/properties/days/minimum: `minimum` must be a number; got the string \"one\"
error: {file}: #/input_schema/properties/unit/enum: `enum` cannot be expressed by tooldef: no value is valid
"
    );
    let o = tooldef(&["check", &file]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert_eq!(stderr(&o), expected);
}

// ------------------------------------------------------------------------------------------------
// Import

#[test]
fn an_import_of_another_formats_list_says_which_format_it_is() {
    let out = TempDir::new("wrong-format");
    let file = fixture("import/openai_chat.json");
    let o = tooldef(&["import", "--from", "anthropic", &file, "--out", &out.path()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    assert_eq!(
        stderr(&o),
        format!(
            "error: {file}: no tools found as `--from anthropic`: this looks like an OpenAI Chat tools array; try `--from openai`\n"
        )
    );
    assert_eq!(out.files(), 0);

    // When the wrong format fails on the first tool, the error says what the list looks like too.
    let file = fixture("import/anthropic.json");
    let o = tooldef(&["import", "--from", "openai", &file, "--out", &out.path()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "error: {file}: #/0/type: expected the string \"function\"\n\
             error: {file}: this looks like an Anthropic tools array; try `--from anthropic`\n"
        )
    );
    let file = fixture("import/mcp.json");
    let o = tooldef(&["import", "--from", "gemini", &file, "--out", &out.path()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).ends_with(&format!(
            "error: {file}: this looks like an MCP `tools/list` result; try `--from mcp`\n"
        )),
        "{}",
        stderr(&o)
    );
    let file = fixture("import/gemini.json");
    let o = tooldef(&["import", "--from", "mcp", &file, "--out", &out.path()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).ends_with(&format!(
            "error: {file}: this looks like Gemini function declarations; try `--from gemini`\n"
        )),
        "{}",
        stderr(&o)
    );
    assert_eq!(out.files(), 0);
}

#[test]
fn an_import_that_skips_every_entry_fails_and_an_empty_list_does_not() {
    let out = TempDir::new("skipped");
    let server_only = r#"[{"type": "web_search_20250305", "name": "web_search"}]"#;
    let o = run(&["import", "--from", "anthropic", "-", "--out", &out.path()], server_only);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "warning: <stdin>: #/0: skipped: `web_search_20250305` is a server tool, not a custom tool\n\
         error: <stdin>: no tools found: its one entry was skipped (see the warning above)\n"
    );
    let o = run(&["import", "--from", "anthropic", "-", "--out", &out.path()], r#"{"tools": []}"#);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "warning: <stdin>: no tools found\n");
    assert_eq!(out.files(), 0);
}

// ------------------------------------------------------------------------------------------------
// stdin

const STDIN_SPEC: &str = r#"{"name": "from_stdin", "description": "Read from stdin.",
  "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}}}"#;

fn names(o: &Output, pointer: &str) -> Vec<String> {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    let tools: Vec<Value> = serde_json::from_slice(&o.stdout).expect("a JSON array");
    tools.iter().map(|t| t.pointer(pointer).and_then(Value::as_str).unwrap().to_owned()).collect()
}

#[test]
fn a_dash_reads_one_spec_from_stdin_in_its_place() {
    let o = run(&["render", "--provider", "anthropic", "-"], STDIN_SPEC);
    assert_eq!(names(&o, "/name"), ["from_stdin"]);
    let file = fixture("tools/set_alarm.json");
    let o = run(&["render", "--provider", "mcp", &file, "-", &fixture("dir")], STDIN_SPEC);
    assert_eq!(names(&o, "/name"), ["set_alarm", "from_stdin", "alpha", "mid-dle", "zeta"]);
    let o = run(&["check", "--provider", "openai-chat", "-"], STDIN_SPEC);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "openai-chat: 1 tools, 0 changes (0 lossy), 0 refused\n");
}

#[test]
fn a_spec_on_stdin_needs_its_own_name() {
    let o = run(&["render", "--provider", "mcp", "-"], r#"{"description": "nameless"}"#);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: <stdin>: the spec has no `name`; a spec read from stdin is named by its `name` key\n"
    );
    let o = run(&["check", "-"], r#"{"annotatons": {}}"#);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "error: <stdin>: #: unknown key `annotatons`; did you mean `annotations`?\n\
         error: <stdin>: the spec has no `name`; a spec read from stdin is named by its `name` key\n"
    );
    let o = run(
        &["render", "--provider", "mcp", "-", &fixture("tools/set_alarm.json")],
        r#"{"name": "set_alarm"}"#,
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "error: {}: tool `set_alarm` is already defined by <stdin>\n",
            fixture("tools/set_alarm.json")
        )
    );
}

#[test]
fn import_reads_a_tool_list_from_stdin() {
    let out = TempDir::new("stdin-import");
    let list = std::fs::read_to_string(fixture("import/openai_chat.json")).unwrap();
    let o = run(&["import", "--from", "openai", "-", "--out", &out.path()], &list);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let written: Vec<String> = ["search_docs", "ping"]
        .iter()
        .map(|n| out.0.join(format!("{n}.json")).display().to_string())
        .collect();
    assert_eq!(stdout(&o).lines().collect::<Vec<_>>(), written);
    assert_eq!(
        stderr(&o),
        "warning: <stdin>: #/0/function/strict: `strict` dropped: strict mode is chosen when rendering\n"
    );
}

// ------------------------------------------------------------------------------------------------
// The project's examples

#[test]
fn the_examples_pass_check_and_the_recursive_one_explains_its_refusals() {
    let o = tooldef(&["check", &examples("tools")]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    let o = tooldef(&[
        "render",
        "--provider",
        "openai-chat",
        "--report",
        "--pretty",
        &examples("tools"),
    ]);
    assert_eq!(names(&o, "/function/name"), ["create_issue", "get_weather", "search_docs"]);

    let o = tooldef(&["check", &examples("tools/recursive")]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: 1 of 8 providers would refuse a tool: gemini-openapi; check only the providers you target with `--provider`\n"
    );
    let text = stdout(&o);
    let refused: Vec<&str> =
        text.lines().filter(|l| l.starts_with("  refused  ")).map(str::trim_start).collect();
    let file = examples("tools/recursive/write_outline.json");
    assert_eq!(
        refused,
        [format!(
            "refused  {file}: gemini-openapi: tool `write_outline`, parameter `root.children[]` at /parameters/properties/root/properties/children/items: definition `Section` refers to itself, and this provider needs references inlined"
        )],
        "{text}"
    );
    // The providers that take it render it.
    let o = tooldef(&[
        "check",
        "--provider",
        "openai-chat",
        "--provider",
        "anthropic",
        &examples("tools/recursive"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
