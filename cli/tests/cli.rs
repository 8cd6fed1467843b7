//! The `tooldef` binary, run on the fixture files: every provider's output validated against
//! the official wire schema, directory rules, error messages, exit codes, import round trips and
//! help texts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use tooldef_testkit::specs::{
    SpecResult, anthropic, bedrock, gemini, mcp, mcp::McpVersion, ollama, openai,
};

const PROVIDERS: [&str; 8] = [
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "gemini-openapi",
    "ollama",
    "mcp",
    "bedrock",
];

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(rel)
}

fn tooldef<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_tooldef")).args(args).output().expect("run tooldef")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 stderr")
}

/// Runs `render` and parses stdout, failing with stderr when the command fails.
fn render(provider: &str, extra: &[&str], paths: &[&Path]) -> Vec<Value> {
    let mut args: Vec<std::ffi::OsString> =
        vec!["render".into(), "--provider".into(), provider.into()];
    args.extend(extra.iter().map(Into::into));
    args.extend(paths.iter().map(|p| p.as_os_str().to_owned()));
    let o = tooldef(&args);
    assert!(o.status.success(), "render {provider} failed: {}", stderr(&o));
    match serde_json::from_slice(&o.stdout) {
        Ok(Value::Array(items)) => items,
        other => panic!("render {provider}: stdout is not a JSON array: {other:?}"),
    }
}

fn validator(provider: &str) -> fn(&Value) -> SpecResult {
    match provider {
        "openai-chat" => openai::validate_chat_completion_tool,
        "openai-responses" => openai::validate_function_tool,
        "anthropic" => anthropic::validate_tool,
        "gemini" | "gemini-openapi" => gemini::validate_function_declaration,
        "ollama" => ollama::validate_tool_definition,
        "mcp" => |v| mcp::validate_tool(McpVersion::V2026_07_28, v),
        "bedrock" => bedrock::validate_tool,
        other => panic!("no validator for {other}"),
    }
}

fn tool_name(provider: &str, tool: &Value) -> String {
    let name = match provider {
        "openai-chat" | "ollama" => &tool["function"]["name"],
        "bedrock" => &tool["toolSpec"]["name"],
        _ => &tool["name"],
    };
    name.as_str().unwrap_or_else(|| panic!("{provider}: no name in {tool}")).to_owned()
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("tooldef-cli-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const TOOLS: [&str; 4] = ["create_issue", "get_weather", "search_docs", "set_alarm"];

#[test]
fn render_gives_each_providers_valid_wire_objects_in_order() {
    for provider in PROVIDERS {
        for strict in [false, true] {
            let flags: &[&str] = if strict { &["--strict"] } else { &[] };
            // Lenient only under --strict: the strict *policy* may refuse lossy changes.
            let o = tooldef(
                ["render", "--provider", provider]
                    .iter()
                    .copied()
                    .chain(flags.iter().copied())
                    .map(str::to_owned)
                    .chain([fixture("tools").display().to_string()]),
            );
            if strict && o.status.code() == Some(1) {
                // A refusal names the file and the tool.
                assert!(stderr(&o).contains(".json: "), "{provider}: {}", stderr(&o));
                continue;
            }
            assert!(o.status.success(), "{provider} strict={strict}: {}", stderr(&o));
            let tools: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
            let names: Vec<String> = tools.iter().map(|t| tool_name(provider, t)).collect();
            assert_eq!(names, TOOLS, "{provider}");
            for tool in &tools {
                if let Err(v) = validator(provider)(tool) {
                    panic!("{provider} strict={strict}: {tool} breaks the spec: {v:?}");
                }
            }
        }
    }
}

#[test]
fn strict_turns_on_strict_mode_where_the_provider_has_one() {
    let file = fixture("tools/search_docs.json");
    let chat = render("openai-chat", &["--strict"], &[&file]);
    assert_eq!(chat[0]["function"]["strict"], Value::Bool(true));
    let responses = render("openai-responses", &[], &[&file]);
    assert_eq!(responses[0]["strict"], Value::Bool(false));
    let anthropic = render("anthropic", &["--strict"], &[&file]);
    assert_eq!(anthropic[0]["strict"], Value::Bool(true));
}

#[test]
fn model_renders_a_family_profile_on_top_of_the_wire_api_and_reports_it() {
    let file = fixture("models/send.json");
    let o = tooldef([
        "render".as_ref(),
        "--provider".as_ref(),
        "openai-chat".as_ref(),
        "--model".as_ref(),
        "Qwen/Qwen2.5-72B-Instruct".as_ref(),
        "--report".as_ref(),
        file.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8(o.stdout.clone()).unwrap(),
        r#"[{"type":"function","function":{"name":"send","parameters":{"type":"object","properties":{"to":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},"note":{"type":"string","maxLength":20}},"required":["to"]}}}]
"#
    );
    assert_eq!(
        stderr(&o),
        "openai-chat: tool `send`, parameter `to` at /function/parameters/properties/to: reference to `Addr` replaced by its definition\n"
    );
    let o = tooldef([
        "render".as_ref(),
        "--provider".as_ref(),
        "openai-chat".as_ref(),
        "--model".as_ref(),
        "mystery-1".as_ref(),
        "--report".as_ref(),
        file.as_os_str(),
    ]);
    assert_eq!(
        stderr(&o),
        "openai-chat: tool `send`: no model profile matches the model id: the wire API's defaults apply\n"
    );
    let o = tooldef([
        "render".as_ref(),
        "--provider".as_ref(),
        "anthropic".as_ref(),
        "--model".as_ref(),
        "qwen-plus".as_ref(),
        file.as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).lines().next(),
        Some(
            "error: `--model` applies to the wire APIs other model families are served over; `anthropic` renders for no model"
        )
    );
}

#[test]
fn render_of_the_examples_directory_works() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/tools");
    let tools = render("openai-chat", &["--pretty"], &[&examples]);
    let names: Vec<String> = tools.iter().map(|t| tool_name("openai-chat", t)).collect();
    assert_eq!(names, ["create_issue", "get_weather", "search_docs"]);
}

/// `json` without the whitespace outside its strings.
fn without_layout(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            out.push(c);
            (in_string, escaped) = match (c, escaped) {
                (_, true) => (true, false),
                ('\\', false) => (true, true),
                ('"', false) => (false, false),
                _ => (true, false),
            };
        } else if !c.is_ascii_whitespace() {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

#[test]
fn pretty_only_adds_whitespace_to_the_compact_output() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/tools");
    for dir in [examples, fixture("tools")] {
        for provider in PROVIDERS {
            for strict in [&[][..], &["--strict", "--keep-going"][..]] {
                let run = |pretty: &[&str]| {
                    let mut args: Vec<std::ffi::OsString> =
                        vec!["render".into(), "--provider".into(), provider.into()];
                    args.extend(strict.iter().chain(pretty).map(Into::into));
                    args.push(dir.clone().into_os_string());
                    stdout(&tooldef(&args))
                };
                let (compact, pretty) = (run(&[]), run(&["--pretty"]));
                let at = format!("{provider} {strict:?} {}", dir.display());
                assert_eq!(compact.lines().count(), 1, "{at}");
                assert!(pretty.lines().count() > 10, "{at}: {pretty}");
                assert!(pretty.ends_with("]\n"), "{at}");
                // Byte for byte the compact text, key order included.
                assert_eq!(without_layout(&pretty), compact.trim_end(), "{at}");
            }
        }
    }
}

#[test]
fn a_directory_is_sorted_by_name_with_the_workspace_rules() {
    let o = tooldef(
        ["render", "--provider", "anthropic"]
            .map(String::from)
            .into_iter()
            .chain([fixture("dir").display().to_string()]),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let tools: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<String> = tools.iter().map(|t| tool_name("anthropic", t)).collect();
    // The stem names the tool (`alpha`, not the `name` inside); `.hidden.json` and README.md
    // are ignored; `bad name.json` is skipped with a warning.
    assert_eq!(names, ["alpha", "mid-dle", "zeta"]);
    let err = stderr(&o);
    assert!(err.contains("warning: ") && err.contains("bad name.json: skipped"), "{err}");
    assert!(!err.contains(".hidden"), "{err}");
}

#[test]
fn paths_keep_input_order_across_files_and_directories() {
    let tools = render(
        "mcp",
        &[],
        &[&fixture("tools/set_alarm.json"), &fixture("dir"), &fixture("tools/create_issue.json")],
    );
    let names: Vec<String> = tools.iter().map(|t| tool_name("mcp", t)).collect();
    assert_eq!(names, ["set_alarm", "alpha", "mid-dle", "zeta", "create_issue"]);
}

#[test]
fn report_goes_to_stderr_and_stdout_stays_json() {
    let o = tooldef(
        ["render", "--provider", "openai-chat", "--report"]
            .map(String::from)
            .into_iter()
            .chain([fixture("tools/get_weather.json").display().to_string()]),
    );
    assert!(o.status.success());
    let _: Value = serde_json::from_slice(&o.stdout).expect("stdout is JSON only");
    let err = stderr(&o);
    assert!(
        err.lines().any(
            |l| l.starts_with("openai-chat: tool `get_weather`") && l.contains("output schema")
        ),
        "{err}"
    );
}

#[test]
fn bad_json_names_the_file_line_and_column() {
    let file = fixture("bad_json.json");
    let o = tooldef(
        ["render", "--provider", "openai-chat"]
            .map(String::from)
            .into_iter()
            .chain([file.display().to_string()]),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let expected = format!("error: {}:4:1: malformed JSON", file.display());
    assert!(stderr(&o).starts_with(&expected), "{}", stderr(&o));
}

#[test]
fn bad_schema_names_the_file_and_the_json_pointer() {
    let file = fixture("bad_schema.json");
    let o = tooldef(["check".to_owned(), file.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    let expected = format!(
        "error: {}: #/input_schema/properties/city/type: `strin` is not a JSON Schema type; did you mean `string`?",
        file.display()
    );
    assert!(stderr(&o).starts_with(&expected), "{}", stderr(&o));
}

#[test]
fn unknown_provider_is_a_usage_error() {
    let o = tooldef(["render", "--provider", "openai", "x.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = stderr(&o);
    assert!(
        err.starts_with("error: unknown provider `openai`; expected one of openai-chat, openai-responses, anthropic, gemini, gemini-openapi, ollama, mcp, bedrock\n"),
        "{err}"
    );
    assert!(err.contains("Usage: tooldef render --provider P"), "{err}");
}

#[test]
fn missing_file_is_an_input_error() {
    let o = tooldef(["render", "--provider", "mcp", "no/such/file.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: no/such/file.json: "), "{}", stderr(&o));
}

#[test]
fn check_exits_zero_when_nothing_is_refused() {
    let o = tooldef(["check".to_owned(), fixture("tools").display().to_string()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    for provider in PROVIDERS {
        assert!(out.lines().any(|l| l.starts_with(&format!("{provider}: 4 tools, "))), "{out}");
    }
}

#[test]
fn check_exits_one_when_a_provider_refuses() {
    let file = fixture("recursive.json");
    let o = tooldef(
        ["check", "--provider", "gemini-openapi", "--provider", "mcp"]
            .map(String::from)
            .into_iter()
            .chain([file.display().to_string()]),
    );
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("gemini-openapi: 1 tools, ") && lines[0].ends_with(", 1 refused"),
        "{out}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with(&format!(
            "  refused  {}: gemini-openapi: tool `insert_node`",
            file.display()
        ))),
        "{out}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("mcp: 1 tools, ") && l.ends_with(", 0 refused")),
        "{out}"
    );
    // Only the providers asked for.
    assert_eq!(lines.iter().filter(|l| !l.starts_with(' ')).count(), 2, "{out}");
}

#[test]
fn render_refusal_exits_one_and_prints_nothing() {
    let file = fixture("recursive.json");
    let o = tooldef(
        ["render", "--provider", "gemini-openapi"]
            .map(String::from)
            .into_iter()
            .chain([file.display().to_string()]),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let expected = format!("error: {}: gemini-openapi: tool `insert_node`", file.display());
    assert!(stderr(&o).starts_with(&expected), "{}", stderr(&o));
}

/// Renders the fixtures with `provider`, imports that with `--from format`, renders the specs
/// written and expects the same tools.
fn round_trip(provider: &str, format: &str) {
    let dir = TempDir::new(&format!("rt-{provider}"));
    let first = render(provider, &[], &[&fixture("tools")]);
    let wire = dir.0.join("wire.json");
    // The rendered text itself: a `Value` would write its keys in `Map` order.
    let o = tooldef(
        ["render", "--provider", provider]
            .map(String::from)
            .into_iter()
            .chain([fixture("tools").display().to_string()]),
    );
    std::fs::write(&wire, &o.stdout).unwrap();
    let out = dir.0.join("specs");
    let o = tooldef([
        "import".to_owned(),
        "--from".into(),
        format.into(),
        wire.display().to_string(),
        "--out".into(),
        out.display().to_string(),
    ]);
    assert!(o.status.success(), "import {format}: {}", stderr(&o));
    let written: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    let expected: Vec<String> =
        TOOLS.iter().map(|t| out.join(format!("{t}.json")).display().to_string()).collect();
    assert_eq!(written, expected, "{provider}");
    let second = render(provider, &[], &[&out]);
    assert_eq!(second, first, "{provider} -> import {format} -> {provider}");
}

#[test]
fn import_round_trips_mcp() {
    round_trip("mcp", "mcp");
}

#[test]
fn import_round_trips_openai_chat_and_responses() {
    round_trip("openai-chat", "openai");
    round_trip("openai-responses", "openai");
}

#[test]
fn import_round_trips_anthropic() {
    round_trip("anthropic", "anthropic");
}

#[test]
fn import_round_trips_gemini_both_schema_dialects() {
    round_trip("gemini", "gemini");
    round_trip("gemini-openapi", "gemini");
}

#[test]
fn import_then_render_for_mcp_keeps_dotted_names_and_the_fields_tooldef_does_not_model() {
    let dir = TempDir::new("mcp-fields");
    let o = import("mcp", "import/mcp_fields.json", &dir.0);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let spec = dir.0.join("github.create_issue.json");
    assert_eq!(stdout(&o), format!("{}\n", spec.display()));
    let listed: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("import/mcp_fields.json")).unwrap())
            .unwrap();
    assert_eq!(render("mcp", &[], &[&spec]), listed["tools"].as_array().unwrap().clone());
    // OpenAI refuses the name, naming the file, the tool and the rule.
    let o = tooldef(["render", "--provider", "openai-chat", &spec.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!(
            "error: {}: openai-chat: tool `github.create_issue` at /name: the name has the character '.' at byte 6, which ^[a-zA-Z0-9_-]{{1,64}}$ does not allow\n",
            spec.display()
        )
    );
    // With `--map-names` it goes out under a safe name, and the rename is reported.
    let o = tooldef([
        "render",
        "--provider",
        "openai-chat",
        "--map-names",
        "--report",
        &spec.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let tools: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(tools[0]["function"]["name"], "github_create_issue");
    tooldef_testkit::specs::assert_conforms("openai-chat", validator("openai-chat")(&tools[0]));
    assert!(
        stderr(&o).starts_with("openai-chat: tool `github.create_issue` at /name: tool name `github.create_issue` sent as `github_create_issue`: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn import_then_render_for_mcp_gives_back_each_schema_as_the_server_wrote_it() {
    // Spellings the IR normalises (a whole-number enum under `number`, `null` first in a type
    // array, `const`, draft-07 `definitions`, `$schema`) come back as written, in the order
    // written: the spec file keeps each schema as it was read, and the renderer writes it.
    let dir = TempDir::new("mcp-spellings");
    let o = import("mcp", "import/mcp_spellings.json", &dir.0);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(fixture("import/mcp_spellings.json")).unwrap();
    let (listed, order) = tooldef::KeyOrder::parse(text.as_bytes()).unwrap();
    let o = tooldef(["render", "--provider", "mcp", &dir.0.display().to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("[{}]\n", order.to_text("/tools/0", &listed["tools"][0])));
}

fn import(format: &str, file: &str, out: &Path) -> Output {
    tooldef([
        "import".to_owned(),
        "--from".into(),
        format.into(),
        fixture(file).display().to_string(),
        "--out".into(),
        out.display().to_string(),
    ])
}

#[test]
fn import_reads_each_providers_real_shapes() {
    let dir = TempDir::new("shapes");
    for (format, file, names) in [
        ("mcp", "import/mcp.json", &["get_weather", "create_issue"][..]),
        ("openai", "import/openai_chat.json", &["search_docs", "ping"][..]),
        ("openai", "import/openai_responses.json", &["search_docs"][..]),
        ("anthropic", "import/anthropic.json", &["get_stock_price"][..]),
        ("gemini", "import/gemini.json", &["set_light", "find_places"][..]),
    ] {
        let out = dir.0.join(file.replace(['/', '.'], "_"));
        let o = import(format, file, &out);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        let written: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
        let expected: Vec<String> =
            names.iter().map(|n| out.join(format!("{n}.json")).display().to_string()).collect();
        assert_eq!(written, expected, "{file}");
        // The specs written render for every provider family.
        let tools = render("mcp", &[], &[&out]);
        assert_eq!(tools.len(), names.len());
    }
    // MCP: title, output schema, annotations and `_meta` are kept.
    let spec: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.0.join("import_mcp_json/get_weather.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(spec["title"], "Weather");
    assert_eq!(spec["annotations"]["readOnlyHint"], true);
    assert_eq!(spec["output_schema"]["required"][0], "temperature");
    assert_eq!(spec["extensions"], json!({"mcp": {"_meta": {"vendor": "example"}}}));
    // Gemini's OpenAPI subset: lower-case types, `nullable` folded into the type.
    let light: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.0.join("import_gemini_json/set_light.json")).unwrap(),
    )
    .unwrap();
    let color = &light["input_schema"]["properties"]["color"];
    assert_eq!(light["input_schema"]["properties"]["brightness"]["type"], "integer");
    assert!(color.to_string().contains("null"), "{color}");
}

#[test]
fn import_warns_about_what_it_skips_or_drops() {
    let dir = TempDir::new("warn");
    let o = import("anthropic", "import/anthropic.json", &dir.0);
    let file = fixture("import/anthropic.json");
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "warning: {}: #/1: skipped: `web_search_20250305` is a server tool",
            file.display()
        )),
        "{err}"
    );
    let o = import("mcp", "import/mcp.json", &dir.0);
    // `_meta` is carried in the spec, so nothing is said about it.
    assert!(!stderr(&o).contains("_meta"), "{}", stderr(&o));
}

#[test]
fn import_errors_name_the_file_and_the_input_pointer() {
    let dir = TempDir::new("bad");
    let o = import("mcp", "import/bad_mcp.json", &dir.0);
    assert_eq!(o.status.code(), Some(2));
    let expected = format!(
        "error: {}: #/tools/1/inputSchema/properties/x/type: ",
        fixture("import/bad_mcp.json").display()
    );
    assert!(stderr(&o).starts_with(&expected), "{}", stderr(&o));
    // Nothing is written when one tool is bad.
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 0);
}

#[test]
fn import_does_not_overwrite_without_force() {
    let dir = TempDir::new("force");
    assert!(import("anthropic", "import/anthropic.json", &dir.0).status.success());
    let o = import("anthropic", "import/anthropic.json", &dir.0);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("already exists; pass `--force` to overwrite"), "{}", stderr(&o));
    let o = tooldef([
        "import".to_owned(),
        "--force".into(),
        "--from=anthropic".into(),
        fixture("import/anthropic.json").display().to_string(),
        format!("--out={}", dir.0.display()),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn help_is_printed_for_every_command() {
    for (args, first, usage) in [
        (
            &["--help"][..],
            "tooldef: render, check and import LLM tool definitions",
            "  tooldef render --provider P [--model ID] [--strict] [--report] [--pretty] [--keep-going] [--map-names] [--plan] [--max-tools N] [--max-bytes N] PATH...",
        ),
        (
            &["render", "--help"][..],
            "Print the provider's wire JSON",
            "Usage: tooldef render --provider P [--model ID] [--strict] [--report] [--pretty] [--keep-going] [--map-names] [--plan] [--max-tools N] [--max-bytes N] PATH...",
        ),
        (
            &["plan", "--help"][..],
            "Decide, per tool, how one request",
            "Usage: tooldef plan --provider P [--strict] [--max-tools N] [--max-bytes N] [--json] PATH...",
        ),
        (
            &["check", "-h"][..],
            "Show, per provider,",
            "Usage: tooldef check [--provider P]... [--model ID] [--strict] PATH...",
        ),
        (
            &["help", "import"][..],
            "Turn a provider's tool list into spec files",
            "Usage: tooldef import --from mcp|openai|anthropic|gemini [--keep-going] FILE [--out DIR] [--force]",
        ),
    ] {
        let o = tooldef(args);
        assert!(o.status.success(), "{args:?}");
        let out = stdout(&o);
        assert!(out.starts_with(first), "{args:?}: {out}");
        assert!(out.lines().any(|l| l == usage), "{args:?}: {out}");
        assert!(o.stderr.is_empty());
    }
    let o = tooldef(["render"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error: `--provider` is required"));
}
