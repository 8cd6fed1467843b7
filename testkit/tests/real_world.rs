//! The real-world corpus (`testkit/corpus/real/`, sources and licences in its README): every
//! tool imported with the importer of its source, rendered for each of the twelve targets of
//! `tooldef render`, and held to the official wire specs, the providers' rules, the strict
//! policy's agreement with the report, and "nothing dropped without a report entry". Every
//! refusal must be listed and judged in `refusals.json`, and every listed refusal must still
//! happen.
//!
//! After a change that moves refusals, rewrite the file from a run (keeping every judgement)
//! with `TOOLDEF_REAL_REFUSALS=write cargo test -p tooldef-testkit --test real_world`, then
//! judge the entries left `unjudged`.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use tooldef_testkit::real::{self, FailureKind, Refusals, Run, Target};

/// The corpus run, shared by the tests of this file (it takes seconds, not milliseconds).
fn corpus_run() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| real::run(&real::load()))
}

/// Drops the renderers write nowhere and do not report, known and left to their owners: none
/// now. An entry names the target and the drop as the check words it.
///
/// The test fails once one stops happening, so this list cannot go stale.
const KNOWN_SILENT_DROPS: &[(Target, &str)] = &[];

fn is_known(f: &real::Failure) -> bool {
    f.kind == FailureKind::SilentDrop
        && KNOWN_SILENT_DROPS.iter().any(|(t, tail)| f.target == *t && f.detail.ends_with(tail))
}

#[test]
fn the_corpus_holds_a_thousand_tools_from_four_independent_sources() {
    let tools = real::load();
    let sources: BTreeSet<&str> = tools.iter().filter_map(|t| t.file.split('/').next()).collect();
    assert!(tools.len() >= 1000, "only {} tools", tools.len());
    assert_eq!(sources, BTreeSet::from(["bfcl", "langchain", "mcp-npm", "mcp-pypi"]));
    let servers: BTreeSet<&str> =
        tools.iter().filter(|t| t.file.starts_with("mcp-")).map(|t| t.file.as_str()).collect();
    assert!(servers.len() >= 20, "only {} MCP servers", servers.len());
    // Exact duplicates are dropped when the corpus is built.
    let mut seen = BTreeSet::new();
    for t in &tools {
        assert!(seen.insert((t.file.as_str(), t.raw.to_string())), "{} is repeated", t.id());
    }
}

#[test]
fn every_rendering_conforms_to_the_official_spec_and_the_provider_rules() {
    let spec: Vec<String> = corpus_run()
        .failures
        .iter()
        .filter(|f| f.kind == FailureKind::Spec)
        .map(ToString::to_string)
        .collect();
    assert_eq!(spec, Vec::<String>::new());
}

#[test]
fn the_strict_policy_refuses_exactly_the_lossy_renderings() {
    let policy: Vec<String> = corpus_run()
        .failures
        .iter()
        .filter(|f| f.kind == FailureKind::LossPolicy)
        .map(ToString::to_string)
        .collect();
    assert_eq!(policy, Vec::<String>::new());
}

#[test]
fn no_rendering_loses_a_keyword_without_a_report_entry() {
    let run = corpus_run();
    let silent: Vec<String> = run
        .failures
        .iter()
        .filter(|f| f.kind == FailureKind::SilentDrop && !is_known(f))
        .map(ToString::to_string)
        .collect();
    assert_eq!(silent, Vec::<String>::new());
    for (target, tail) in KNOWN_SILENT_DROPS {
        assert!(
            run.failures
                .iter()
                .any(|f| is_known(f) && f.target == *target && f.detail.ends_with(tail)),
            "the known drop `{tail}` for {target} no longer happens: remove it from the list"
        );
    }
}

#[test]
fn every_refusal_is_listed_and_judged_and_every_listed_refusal_still_happens() {
    let run = corpus_run();
    let path = real::refusals_path();
    let file = Refusals::load(&path);
    if std::env::var("TOOLDEF_REAL_REFUSALS").as_deref() == Ok("write") {
        std::fs::write(&path, file.rewritten(run).to_json()).expect("refusals.json is writable");
        return;
    }
    assert_eq!(file.differences(run), Vec::<String>::new());
    // The file is exactly what a rewrite from this run gives: counts and order are current.
    assert_eq!(file.rewritten(run).to_json(), std::fs::read_to_string(&path).unwrap());
}

#[test]
fn every_mcp_tool_comes_back_from_import_and_render_as_its_server_listed_it() {
    let run = corpus_run();
    let misses: Vec<String> = run
        .mcp_round_trip_misses
        .iter()
        .flat_map(|(tool, misses)| misses.iter().map(move |m| format!("{tool}: {m}")))
        .collect();
    assert_eq!(misses, Vec::<String>::new());
    let mcp_tools = real::load().iter().filter(|t| t.form == real::Form::Mcp).count();
    assert!(mcp_tools >= 500, "only {mcp_tools} MCP tools");
    assert_eq!(run.mcp_round_trip, (mcp_tools, mcp_tools));
}

#[test]
fn the_mcp_round_trip_names_each_field_that_differs() {
    let given = serde_json::json!({
        "name": "t",
        "inputSchema": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"},
        "outputSchema": {"type": "object", "properties": {"n": {"type": "number", "enum": [1]}}},
        "annotations": {"readOnlyHint": true},
        "icons": [{"src": "https://example.com/i.png"}]
    });
    let rendered = serde_json::json!({
        "name": "t",
        "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object", "properties": {"n": {"type": "integer", "enum": [1]}}},
        "annotations": {"readOnlyHint": true},
        "title": "T"
    });
    assert_eq!(
        real::mcp_round_trip_misses(&given, &rendered),
        [
            r#"`icons`: [{"src":"https://example.com/i.png"}] came back as absent"#,
            r#"`outputSchema`: {"properties":{"n":{"enum":[1],"type":"number"}},"type":"object"} came back as {"properties":{"n":{"enum":[1],"type":"integer"}},"type":"object"}"#,
            r#"`title`: absent came back as "T""#,
        ]
    );
    assert_eq!(real::mcp_round_trip_misses(&given, &given), Vec::<String>::new());
}

#[test]
fn every_target_renders_what_it_does_not_refuse() {
    let run = corpus_run();
    for target in Target::ALL {
        let refused = run.refusals.iter().filter(|r| r.target == Some(target)).count();
        let (rendered, lossless) = run.rendered[&target];
        assert_eq!(rendered + refused, run.imported, "{target}");
        assert!(lossless <= rendered, "{target}");
    }
}
