//! MCP renderer: golden snapshots over the corpus, validation against the official schemas of
//! every version, `tools/list` results, the import back into the IR, and interop with the
//! official Rust SDK (`rmcp`).

use tooldef_testkit::{extras as corpus, harness};

use proptest::prelude::*;
use serde_json::{Value, json};
use tooldef::ToolDescriptor;
use tooldef::render::{ChangeKind, LossPolicy, Renderer};
use tooldef_mcp::{
    CacheScope, ListOptions, McpRenderer, McpVersion, import_tools, import_tools_text,
    list_tools_result,
};
use tooldef_testkit::corpus::{assert_snapshot, snapshot};
use tooldef_testkit::specs::{assert_conforms, mcp};
use tooldef_testkit::strategy::arb_descriptor;

const DIR: &str = env!("CARGO_MANIFEST_DIR");

const VERSIONS: [(McpVersion, mcp::McpVersion); 3] = [
    (McpVersion::V2025_06_18, mcp::McpVersion::V2025_06_18),
    (McpVersion::V2025_11_25, mcp::McpVersion::V2025_11_25),
    (McpVersion::V2026_07_28, mcp::McpVersion::V2026_07_28),
];

fn corpus_tool(name: &str) -> ToolDescriptor {
    corpus::corpus().into_iter().find(|t| t.name == name).unwrap()
}

/// One golden file per mode over the shared corpus (`tests/snapshots/<mode>.json`), compared
/// byte for byte; `TOOLDEF_BLESS=1` rewrites them.
#[test]
fn snapshots_match_golden_files() {
    for (mode, renderer) in [
        ("2026-07-28", McpRenderer::new()),
        ("2025-06-18", McpRenderer::version(McpVersion::V2025_06_18)),
    ] {
        let path =
            std::path::PathBuf::from(DIR).join("tests/snapshots").join(format!("{mode}.json"));
        assert_snapshot(&path, &snapshot(&renderer, LossPolicy::Allow));
    }
}

#[test]
fn every_rendering_conforms_to_its_version() {
    for (ours, theirs) in VERSIONS {
        let r = McpRenderer::version(ours);
        let tools = corpus::all();
        let rendered: Vec<_> = tools
            .iter()
            .map(|t| r.render(t, LossPolicy::Allow).expect("MCP renders every corpus tool"))
            .collect();
        for (tool, one) in tools.iter().zip(&rendered) {
            let v = one.to_value();
            assert_conforms(&format!("{ours:?} `{}`", one.name()), mcp::validate_tool(theirs, &v));
            assert_eq!(v["inputSchema"]["type"], "object");
            harness::nothing_dropped_silently(tool, one, &v["inputSchema"]);
        }
        let options = ListOptions {
            cache_scope: CacheScope::Public,
            ttl_ms: 60_000,
            next_cursor: Some("page-2".into()),
        };
        let list: Value =
            serde_json::from_str(&list_tools_result(&rendered, ours, &options)).unwrap();
        assert_conforms(&format!("{ours:?} list"), mcp::validate_list_tools_result(theirs, &list));
    }
}

#[test]
fn policies_and_determinism() {
    for tool in corpus::all() {
        for (v, _) in VERSIONS {
            harness::strict_agrees(&McpRenderer::version(v), &tool);
            harness::deterministic(&McpRenderer::version(v), &tool);
        }
    }
    assert_ne!(
        McpRenderer::version(McpVersion::V2025_06_18).cache_key(),
        McpRenderer::new().cache_key()
    );
}

#[test]
fn everything_is_kept_and_versions_differ_on_output_schemas() {
    let weather =
        McpRenderer::new().render(&corpus_tool("get_weather"), LossPolicy::Refuse).unwrap();
    let v = weather.to_value();
    assert_eq!(v["title"], "Weather");
    assert_eq!(
        v["annotations"],
        json!({"readOnlyHint": true, "idempotentHint": true, "openWorldHint": true})
    );
    assert_eq!(
        v["inputSchema"]["properties"]["days"],
        json!({"type": "integer", "description": "Number of days", "minimum": 1, "maximum": 10, "default": 3})
    );
    // Only enum value descriptions, which JSON Schema has no keyword for, move.
    let kinds: Vec<_> = weather.report().iter().map(|c| (c.kind, c.keyword.as_ref())).collect();
    assert_eq!(kinds, [(ChangeKind::MovedToDescription, "enum")]);

    let tree = McpRenderer::new().render(&corpus_tool("tree__insert"), LossPolicy::Refuse).unwrap();
    assert_eq!(tree.to_value()["inputSchema"]["$defs"]["Node"]["type"], "object");

    let scalar = corpus_tool("count_words");
    let latest = McpRenderer::new().render(&scalar, LossPolicy::Refuse).unwrap().to_value();
    assert_eq!(latest["outputSchema"], json!({"type": "integer"}));
    let old =
        McpRenderer::version(McpVersion::V2025_06_18).render(&scalar, LossPolicy::Refuse).unwrap();
    assert!(old.to_value().get("outputSchema").is_none());
    assert_eq!(old.report().changes[0].kind, ChangeKind::Omitted);
}

#[test]
fn old_list_results_have_no_caching_fields() {
    let ping = McpRenderer::new().render(&corpus_tool("ping"), LossPolicy::Refuse).unwrap();
    let list = list_tools_result([&ping], McpVersion::V2025_06_18, &ListOptions::default());
    assert_eq!(list, format!(r#"{{"tools":[{}]}}"#, ping.json()));
    // And a 2025-style list fails the 2026-07-28 schema, so the version matters.
    let value: Value = serde_json::from_str(&list).unwrap();
    assert!(mcp::validate_list_tools_result(mcp::McpVersion::V2026_07_28, &value).is_err());
}

/// Every rendered tool imports back into a descriptor; from there the round trip is a fixed
/// point (compared as values: the order of definitions may change, their meaning does not).
/// The first trip may normalise a second spelling (an any-of with a null variant comes back
/// nullable), so plain tools are checked for equality and all tools for the fixed point.
#[test]
fn rendered_tools_import_back() {
    let r = McpRenderer::new();
    let corpus = corpus::all();
    let rendered: Vec<_> =
        corpus.iter().map(|t| r.render(t, LossPolicy::Refuse).unwrap()).collect();
    let list = list_tools_result(&rendered, McpVersion::V2026_07_28, &ListOptions::default());
    let imported = import_tools_text(&list).unwrap();
    assert_eq!(imported.tools.len(), corpus.len());
    for back in &imported.tools {
        let again = r.render(back, LossPolicy::Refuse).unwrap();
        let twice = import_tools_text(&format!("[{}]", again.json())).unwrap();
        let third = r.render(&twice.tools[0], LossPolicy::Refuse).unwrap();
        assert_eq!(third.to_value(), again.to_value(), "`{}`", again.name());
    }
    let exact = imported.tools.iter().zip(&rendered).filter(|(back, one)| {
        r.render(back, LossPolicy::Refuse).unwrap().to_value() == one.to_value()
    });
    assert!(exact.count() * 10 >= corpus.len() * 9, "most tools come back exactly");
    // A plain tool comes back equal.
    let ping = &imported.tools[corpus.iter().position(|t| t.name == "ping").unwrap()];
    assert_eq!(ping, &tooldef_testkit::corpus::PING);
}

#[test]
fn import_errors_and_notes_name_the_place() {
    let list = json!({"tools": [
        {"name": "ok", "inputSchema": {"type": "object"}, "icons": []},
        {"name": "fs/read", "inputSchema": {"type": "object"}},
    ]});
    let e = import_tools(&list).unwrap_err();
    assert_eq!(e.pointer, "/tools/1");
    assert!(e.message.contains("tool name `fs/read` has the character '/'"), "{e}");
    let first = json!({"result": {"tools": [list["tools"][0].clone()]}});
    let imported = import_tools(&first).unwrap();
    assert_eq!(imported.tools[0].name, "ok");
    // `icons` is kept for the MCP renderer, so nothing is said about it.
    assert_eq!(imported.tools[0].extensions.get("mcp", "icons"), Some(&json!([])));
    assert!(
        imported.notes.iter().all(|n| !n.pointer.as_str().ends_with("/icons")),
        "{:?}",
        imported.notes
    );
    let bad = json!([{"name": "x", "inputSchema": {"type": "object", "properties": {"a": {"type": "strin"}}}}]);
    let e = import_tools(&bad).unwrap_err();
    assert_eq!(e.pointer, "/0");
    assert!(e.message.contains("/properties/a/type"), "{e}");
}

#[test]
fn rendered_tools_deserialize_into_rmcp_and_rmcp_lists_import_back() {
    let r = McpRenderer::new();
    let mut sdk_tools = Vec::new();
    for tool in corpus::all() {
        let one = r.render(&tool, LossPolicy::Allow).unwrap();
        let sdk: rmcp::model::Tool = serde_json::from_str(one.json())
            .unwrap_or_else(|e| panic!("`{}` is not an rmcp Tool: {e}", tool.name));
        assert_eq!(sdk.name, tool.name.as_str());
        assert_eq!(serde_json::to_value(&sdk).unwrap(), one.to_value(), "`{}`", tool.name);
        sdk_tools.push(sdk);
    }
    // A list as the SDK writes it imports back into the same descriptors as our own list.
    let sdk_list = json!({"tools": serde_json::to_value(&sdk_tools).unwrap()});
    let from_sdk = import_tools(&sdk_list).unwrap();
    let ours: Vec<_> =
        corpus::all().iter().map(|t| r.render(t, LossPolicy::Allow).unwrap()).collect();
    let own: Value = serde_json::from_str(&list_tools_result(
        &ours,
        McpVersion::V2026_07_28,
        &ListOptions::default(),
    ))
    .unwrap();
    assert_eq!(from_sdk.tools, import_tools(&own).unwrap().tools);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn generated_descriptors_conform_and_round_trip(d in arb_descriptor()) {
        for (ours, theirs) in VERSIONS {
            let one = McpRenderer::version(ours).render(&d, LossPolicy::Allow).unwrap();
            let v = one.to_value();
            prop_assert!(mcp::validate_tool(theirs, &v).is_ok(), "{:?}", mcp::validate_tool(theirs, &v));
            prop_assert!(serde_json::from_value::<rmcp::model::Tool>(v.clone()).is_ok());
        }
        let one = McpRenderer::new().render(&d, LossPolicy::Allow).unwrap();
        let back = import_tools_text(&format!("[{}]", one.json())).unwrap();
        let again = McpRenderer::new().render(&back.tools[0], LossPolicy::Allow).unwrap();
        prop_assert_eq!(again.to_value(), one.to_value());
    }
}

/// A published server lists `inputSchema: {"$schema": ...}` with no `type`: import reads it as
/// an object, and the render writes that object from the IR (reported), not the kept text,
/// which the MCP schema of every version refuses. An output schema without `type` is written
/// as it was where the version takes any output schema, and from the IR where it must be an
/// object.
#[test]
fn a_kept_schema_mcp_would_refuse_is_written_from_the_ir() {
    let list = r#"{"tools": [{"name": "echo", "description": "Echo.",
        "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"},
        "outputSchema": {"properties": {"n": {"type": "integer"}}, "required": ["n"]}}]}"#;
    let tool = &import_tools_text(list).unwrap().tools[0];
    let input = "tool `echo` at /inputSchema: the imported schema is written from the IR, as the object it was read as: its text has no `\"type\": \"object\"` at the root, which every version of MCP requires";
    for (ours, theirs) in VERSIONS {
        let r = McpRenderer::version(ours).render(tool, LossPolicy::Refuse).unwrap();
        let report: Vec<String> = r.report().iter().map(ToString::to_string).collect();
        if ours == McpVersion::V2026_07_28 {
            assert_eq!(
                r.json(),
                r#"{"name":"echo","description":"Echo.","inputSchema":{"type":"object"},"outputSchema":{"properties":{"n":{"type":"integer"}},"required":["n"]}}"#
            );
            assert_eq!(report, [input]);
        } else {
            assert_eq!(
                r.json(),
                r#"{"name":"echo","description":"Echo.","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}"#,
                "{ours:?}"
            );
            let output = format!(
                "tool `echo` at /outputSchema: the imported schema is written from the IR, as the object it was read as: its text has no `\"type\": \"object\"` at the root, which MCP {} requires",
                ours.as_str()
            );
            assert_eq!(report, [input.to_owned(), output], "{ours:?}");
        }
        assert_conforms(&format!("{ours:?}"), mcp::validate_tool(theirs, &r.to_value()));
    }
}
