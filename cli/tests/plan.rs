//! `tooldef plan` and `tooldef render --plan` on a small directory (`fixtures/plan/`: a tool
//! strict takes, one whose open object strict would close, one without parameters): the whole
//! table, the whole JSON, and the planned tools array held to the provider's official spec.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use tooldef_testkit::specs;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/plan")
}

fn tooldef(args: &[&str]) -> Output {
    let dir = dir();
    Command::new(env!("CARGO_BIN_EXE_tooldef")).args(args).arg(&dir).output().expect("run tooldef")
}

fn stdout(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).expect("utf-8")
}

#[test]
fn plan_prints_each_decision_with_its_reason_and_the_totals() {
    let out =
        stdout(&tooldef(&["plan", "--provider", "anthropic", "--strict", "--max-tools", "2"]));
    assert_eq!(
        out,
        "\
TOOL      DECISION    BYTES  REASON
ping      strict        129  lossless under strict, within the budgets
search    deferred      159  over the host's limit on tools loaded up front (2)
store     deferred      165  over the host's limit on tools loaded up front (2)
(search)  loaded         74  the search tool for the deferred tools
anthropic: 3 tools: 1 strict, 0 plain, 2 deferred, 0 left out; 203 bytes loaded up front (about 51 tokens)
"
    );
}

#[test]
fn plan_json_is_one_array_of_name_decision_reason_and_bytes() {
    let out = stdout(&tooldef(&["plan", "--provider", "openai-responses", "--strict", "--json"]));
    let rows: Value = serde_json::from_str(&out).expect("JSON");
    let detail = "strict would lose meaning: tool `store`, parameter `data` at \
                  /parameters/properties/data/additionalProperties: open object closed: the \
                  provider requires additionalProperties: false; this loses meaning and the \
                  policy is strict";
    assert_eq!(
        rows,
        json!([
            {"name": "ping", "decision": "strict", "reason": "strict_lossless", "detail": "lossless under strict, within the budgets", "bytes": 159},
            {"name": "search", "decision": "strict", "reason": "strict_lossless", "detail": "lossless under strict, within the budgets", "bytes": 231},
            {"name": "store", "decision": "plain", "reason": "strict_lossy", "detail": detail, "bytes": 196}
        ])
    );
}

#[test]
fn render_plan_prints_the_planned_tools_array_in_the_providers_form() {
    let out = stdout(&tooldef(&[
        "render",
        "--plan",
        "--provider",
        "openai-responses",
        "--strict",
        "--max-tools",
        "2",
    ]));
    let tools: Value = serde_json::from_str(&out).expect("JSON");
    let kinds: Vec<(&str, Option<&str>, Option<bool>)> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["type"].as_str().unwrap(), t["name"].as_str(), t["defer_loading"].as_bool()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("function", Some("ping"), None),
            ("tool_search", None, None),
            ("function", Some("search"), Some(true)),
            ("function", Some("store"), Some(true)),
        ]
    );
    let body = json!({"model": "gpt-5.4", "input": "hi", "tools": tools});
    specs::assert_conforms("CreateResponse", specs::openai::validate_create_response(&body));

    let out =
        stdout(&tooldef(&["render", "--plan", "--provider", "anthropic", "--max-tools", "2"]));
    let tools: Value = serde_json::from_str(&out).expect("JSON");
    for tool in tools.as_array().unwrap() {
        specs::assert_conforms(
            "Anthropic tools entry",
            specs::anthropic::validate_tools_entry(tool),
        );
    }
    assert_eq!(tools[1]["type"], "tool_search_tool_regex_20251119");
    assert_eq!(tools[1]["cache_control"], json!({"type": "ephemeral"}));
}

#[test]
fn the_host_limits_need_plan_in_render() {
    let o = tooldef(&["render", "--provider", "anthropic", "--max-tools", "2"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().next(), Some("error: `--max-tools` and `--max-bytes` need `--plan`"));
}
