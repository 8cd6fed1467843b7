//! Ollama renderer: golden snapshots over the corpus, validation against Ollama's OpenAPI
//! document, the keys its server keeps, report completeness, policies and determinism.

use tooldef_testkit::{extras as corpus, harness};

use proptest::prelude::*;
use serde_json::json;
use tooldef::ToolDescriptor;
use tooldef::render::{ChangeKind, LossPolicy, RenderRule, Renderer};
use tooldef_ollama::{OllamaRenderer, dropped_keys};
use tooldef_testkit::corpus::{assert_snapshot, snapshot};
use tooldef_testkit::specs::{assert_conforms, ollama};
use tooldef_testkit::strategy::arb_descriptor;

const DIR: &str = env!("CARGO_MANIFEST_DIR");

fn corpus_tool(name: &str) -> ToolDescriptor {
    corpus::corpus().into_iter().find(|t| t.name == name).unwrap()
}

/// One golden file over the shared corpus (`tests/snapshots/ollama.json`), compared
/// byte for byte; `TOOLDEF_BLESS=1` rewrites them.
#[test]
fn snapshots_match_golden_files() {
    let path = std::path::PathBuf::from(DIR).join("tests/snapshots/ollama.json");
    assert_snapshot(&path, &snapshot(&OllamaRenderer::new(), LossPolicy::Allow));
}

#[test]
fn every_rendering_conforms_and_keeps_only_kept_keys() {
    let mut tools = Vec::new();
    for tool in corpus::all() {
        let Ok(r) = OllamaRenderer::new().render(&tool, LossPolicy::Allow) else { continue };
        let value = r.to_value();
        let what = format!("`{}`", tool.name);
        assert_conforms(&what, ollama::validate_tool_definition(&value));
        assert_eq!(dropped_keys(&value["function"]["parameters"]), Vec::<String>::new(), "{what}");
        harness::nothing_dropped_silently(&tool, &r, &value["function"]["parameters"]);
        tools.push(value);
    }
    assert!(tools.len() >= 13, "{} rendered", tools.len());
    assert_conforms(
        "chat",
        ollama::validate_chat_fragment(&json!({ "model": "llama3.2", "tools": tools })),
    );
}

#[test]
fn strict_policy_and_determinism() {
    for tool in corpus::all() {
        harness::strict_agrees(&OllamaRenderer::new(), &tool);
        harness::deterministic(&OllamaRenderer::new(), &tool);
    }
}

#[test]
fn constraints_move_into_descriptions() {
    let r = OllamaRenderer::new().render(&corpus_tool("create_user"), LossPolicy::Refuse).unwrap();
    let props = r.to_value()["function"]["parameters"]["properties"].clone();
    assert_eq!(props["email"], json!({"type": "string", "description": "Format: email."}));
    assert_eq!(
        props["handle"]["description"],
        "Pattern: ^[a-z][a-z0-9_]{2,15}$. Minimum length: 3. Maximum length: 16."
    );
    assert_eq!(props["nickname"], json!({"type": ["string", "null"]}));
    assert!(r.report().is_lossless());
    // The closed root cannot say so to Ollama: reported, not silently dropped.
    let dropped: Vec<&str> = r
        .report()
        .iter()
        .filter(|c| c.kind != ChangeKind::MovedToDescription)
        .map(|c| c.pointer.as_str())
        .collect();
    assert_eq!(dropped, ["/function/parameters/additionalProperties"]);

    // Definitions are inlined (recursion: see below).
    let draw =
        OllamaRenderer::new().render(&corpus_tool("draw"), LossPolicy::Refuse).unwrap().to_value();
    assert_eq!(draw["function"]["parameters"]["properties"]["start"]["type"], "object");

    // A map's value schema has no kept key: lossy.
    let maps = corpus_tool("set_labels");
    assert_eq!(
        OllamaRenderer::new().render(&maps, LossPolicy::Refuse).unwrap_err().rule,
        RenderRule::Lossy
    );

    // Zero-argument tools still send an object schema (`parameters` is required).
    let ping =
        OllamaRenderer::new().render(&corpus_tool("ping"), LossPolicy::Refuse).unwrap().to_value();
    assert_eq!(ping["function"]["parameters"], json!({"type": "object", "properties": {}}));
}

#[test]
fn dropped_keys_names_what_the_server_discards() {
    let schema = json!({"type": "object", "additionalProperties": false, "properties": {
        "a": {"type": "integer", "minimum": 1, "anyOf": [{"type": "string", "format": "date"}]},
    }});
    // A `Value` built by `json!` iterates in `Map` order, which depends on serde_json's
    // features: compare as a set.
    let mut dropped = dropped_keys(&schema);
    dropped.sort();
    assert_eq!(
        dropped,
        ["/additionalProperties", "/properties/a/anyOf/0/format", "/properties/a/minimum"]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn generated_descriptors_render_to_kept_keys(d in arb_descriptor()) {
        match OllamaRenderer::new().render(&d, LossPolicy::Allow) {
            Ok(r) => {
                let v = r.to_value();
                prop_assert!(ollama::validate_tool_definition(&v).is_ok());
                prop_assert_eq!(dropped_keys(&v["function"]["parameters"]), Vec::<String>::new());
            }
            Err(e) => prop_assert_eq!(e.rule, RenderRule::Recursion, "{}", e),
        }
    }
}

/// The Ollama server keeps no `description` on the parameters object: a root keyword lowered
/// into text (`dependentRequired`, kept verbatim by import) goes into the tool's description,
/// and nothing lowered lands in a key the server drops.
#[test]
fn what_the_root_lowers_into_text_goes_into_the_tools_description() {
    let spec = tooldef::spec::parse_spec(
        "ship.json",
        r#"{"name": "ship", "description": "Ship a parcel", "input_schema": {"type": "object",
            "properties": {"card": {"type": "string"}, "cvv": {"type": "string", "not": {"pattern": "^0+$"}}},
            "dependentRequired": {"card": ["cvv"]}}}"#,
        None,
    )
    .unwrap();
    let tool = &spec.descriptor;
    let r = OllamaRenderer::new().render(tool, LossPolicy::Allow).unwrap();
    assert_eq!(
        r.json(),
        r#"{"type":"function","function":{"name":"ship","description":"Ship a parcel. dependentRequired: {\"card\":[\"cvv\"]}.","parameters":{"type":"object","properties":{"card":{"type":"string"},"cvv":{"type":"string","description":"not: {\"pattern\":\"^0+$\"}."}}}}}"#
    );
    let report: Vec<String> = r.report().iter().map(ToString::to_string).collect();
    assert_eq!(
        report,
        [
            "tool `ship` at /function/description: `dependentRequired` moved into the description: the provider does not take it and the IR cannot lower it (lossy)",
            "tool `ship`, parameter `cvv` at /function/parameters/properties/cvv: `not` moved into the description: the provider does not take it and the IR cannot lower it (lossy)",
        ]
    );
    let value = r.to_value();
    assert_eq!(dropped_keys(&value["function"]["parameters"]), Vec::<String>::new());
    assert_conforms("ship", ollama::validate_tool_definition(&value));
    assert_eq!(
        OllamaRenderer::new().render(tool, LossPolicy::Refuse).unwrap_err().message,
        "tool `ship` at /function/description: `dependentRequired` moved into the description: the provider does not take it and the IR cannot lower it; this loses meaning and the policy is strict"
    );
}

/// The Ollama server keeps a root `$defs` and `items` as any JSON, and drops a property's `$ref`:
/// a recursive definition is inlined where it is used and referred to from `items`; recursion
/// through a property (a linked list) has no place to go and is refused, saying why.
#[test]
fn recursive_definitions_refer_to_defs_from_items() {
    let tree =
        OllamaRenderer::new().render(&corpus_tool("tree__insert"), LossPolicy::Refuse).unwrap();
    let node = r##"{"type":"object","description":"A tree node","properties":{"label":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}},"required":["label"]}"##;
    assert_eq!(
        tree.json(),
        format!(
            r#"{{"type":"function","function":{{"name":"tree__insert","description":"Insert a subtree.","parameters":{{"type":"object","properties":{{"root":{node}}},"required":["root"],"$defs":{{"Node":{node}}}}}}}}}"#
        )
    );
    let value = tree.to_value();
    assert_eq!(dropped_keys(&value["function"]["parameters"]), Vec::<String>::new());
    assert_conforms("tree__insert", ollama::validate_tool_definition(&value));
    let report: Vec<String> = tree.report().iter().map(ToString::to_string).collect();
    let closed = "`additionalProperties: false` not written: the provider does not accept additionalProperties; a call with another key is still refused when it is checked";
    assert_eq!(
        report,
        [
            "tool `tree__insert`, parameter `root` at /function/parameters/properties/root: reference to `Node` replaced by its definition".to_owned(),
            format!("tool `tree__insert`, parameter `root` at /function/parameters/properties/root/additionalProperties: {closed}"),
            format!("tool `tree__insert` at /function/parameters/additionalProperties: {closed}"),
            format!("tool `tree__insert`, parameter `$defs.Node` at /function/parameters/$defs/Node/additionalProperties: {closed}"),
        ]
    );

    let list = tooldef_testkit::corpus::get("linked_list").unwrap();
    assert_eq!(
        OllamaRenderer::new().render(&list, LossPolicy::Allow).unwrap_err().message,
        "tool `linked_list`, parameter `head.next` at /function/parameters/properties/head/properties/next: definition `Cell` refers to itself outside `items`, and this provider keeps a reference only inside `items` and `$defs` (it drops one in a property or an `anyOf` variant)"
    );
}
