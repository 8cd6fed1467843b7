//! Bedrock renderer: golden snapshots over the corpus, validation against botocore's service
//! model, the strict rules, report completeness, policies and determinism.

#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/harness.rs"]
mod harness;

use serde_json::{Value, json};
use tooldef::ToolDescriptor;
use tooldef::render::{ChangeKind, Policy, RenderRule, Renderer};
use tooldef_bedrock::{BedrockRenderer, strict_violations, tool_config};
use tooldef_testkit::specs::{assert_conforms, bedrock};

const DIR: &str = env!("CARGO_MANIFEST_DIR");

fn renderers() -> [(&'static str, BedrockRenderer); 2] {
    [("plain", BedrockRenderer::new()), ("strict", BedrockRenderer::strict())]
}

fn corpus_tool(name: &str) -> ToolDescriptor {
    corpus::corpus().into_iter().find(|t| t.name == name).unwrap()
}

#[test]
fn snapshots_of_the_corpus() {
    let corpus = corpus::corpus();
    for tool in &corpus {
        let mut snap = serde_json::Map::new();
        for (label, r) in renderers() {
            snap.insert(label.to_owned(), harness::both_policies(&r, tool));
        }
        harness::snapshot(DIR, tool.name.as_str(), &Value::Object(snap));
    }
    let mut names: Vec<String> = corpus.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(harness::snapshot_names(DIR), names);
}

#[test]
fn every_rendering_conforms_to_the_service_model() {
    for (label, r) in renderers() {
        let corpus = corpus::corpus();
        let mut rendered = Vec::new();
        for tool in &corpus {
            let Ok(one) = r.render(tool, Policy::Lenient) else { continue };
            let what = format!("{label} `{}`", tool.name);
            let value = one.to_value();
            assert_conforms(&what, bedrock::validate_tool(&value));
            let schema = &value["toolSpec"]["inputSchema"]["json"];
            assert_eq!(schema["type"], "object", "{what}");
            if r.is_strict() {
                assert_eq!(strict_violations(schema), Vec::<String>::new(), "{what}");
                assert_eq!(value["toolSpec"]["strict"], true);
            } else {
                assert!(value["toolSpec"].get("strict").is_none());
            }
            rendered.push(one);
        }
        assert!(rendered.len() >= corpus.len() - 1, "{label}: {} rendered", rendered.len());
        let config: Value = serde_json::from_str(&tool_config(&rendered).unwrap()).unwrap();
        assert_conforms(label, bedrock::validate_tool_configuration(&config));
        assert_conforms(
            label,
            bedrock::validate_converse_request(&json!({
                "modelId": "anthropic.claude",
                "messages": [{"role": "user", "content": [{"text": "hi"}]}],
                "toolConfig": config,
            })),
        );
    }
}

#[test]
fn nothing_is_dropped_without_a_report_entry() {
    for tool in corpus::corpus() {
        for (_, r) in renderers() {
            let Ok(rendered) = r.render(&tool, Policy::Lenient) else { continue };
            let schema = rendered.to_value()["toolSpec"]["inputSchema"]["json"].clone();
            harness::nothing_dropped_silently(&tool, &rendered, &schema);
        }
    }
}

#[test]
fn strict_policy_refuses_exactly_the_lossy_renderings() {
    for tool in corpus::corpus() {
        for (_, r) in renderers() {
            harness::strict_agrees(&r, &tool);
            harness::deterministic(&r, &tool);
        }
    }
}

#[test]
fn strict_mode_moves_bounds_and_clamps_min_items() {
    let r = BedrockRenderer::strict().render(&corpus_tool("pick"), Policy::Strict).unwrap();
    let items = r.to_value()["toolSpec"]["inputSchema"]["json"]["properties"]["items"].clone();
    assert_eq!(
        items,
        json!({"type": "array", "description": "Minimum items: 2. Maximum items: 4.", "items": {"type": "string"}, "minItems": 1})
    );
    let kinds: Vec<(ChangeKind, &str)> =
        r.report().iter().map(|c| (c.kind, c.keyword.as_ref())).collect();
    assert_eq!(
        kinds,
        [(ChangeKind::Rewritten, "minItems"), (ChangeKind::MovedToDescription, "maxItems")]
    );

    // Lookaround patterns go to the description; plain ones stay.
    let user =
        BedrockRenderer::strict().render(&corpus_tool("create_user"), Policy::Strict).unwrap();
    let props = &user.to_value()["toolSpec"]["inputSchema"]["json"]["properties"];
    assert!(props["password"].get("pattern").is_none());
    assert_eq!(props["password"]["description"], "Pattern: ^(?=.*\\d).{8,}$.");
    assert_eq!(props["handle"]["pattern"], "^[a-z][a-z0-9_]{2,15}$");

    // Open objects must be closed: lossy. Recursion is refused.
    let open = corpus_tool("log_event");
    assert_eq!(
        BedrockRenderer::strict().render(&open, Policy::Strict).unwrap_err().rule,
        RenderRule::Lossy
    );
    assert!(BedrockRenderer::new().render(&open, Policy::Strict).is_ok());
    let tree = BedrockRenderer::strict().render(&corpus_tool("tree__insert"), Policy::Lenient);
    assert_eq!(tree.unwrap_err().rule, RenderRule::Recursion);
    assert!(BedrockRenderer::new().render(&corpus_tool("tree__insert"), Policy::Strict).is_ok());
}

#[test]
fn plain_mode_keeps_everything_and_reports_tool_level_omissions() {
    let r = BedrockRenderer::new().render(&corpus_tool("search_docs"), Policy::Strict).unwrap();
    let keywords: Vec<&str> = r.report().iter().map(|c| c.keyword.as_ref()).collect();
    assert_eq!(keywords, ["annotations", "outputSchema"]);
    assert!(r.report().iter().all(|c| c.kind == ChangeKind::Omitted && !c.lossy));
    let limit = &r.to_value()["toolSpec"]["inputSchema"]["json"]["properties"]["limit"];
    assert_eq!(limit, &json!({"type": "integer", "minimum": 1, "maximum": 50, "default": 10}));

    // An empty description is left out, not sent empty.
    let files = BedrockRenderer::new().render(&corpus_tool("list_files"), Policy::Strict).unwrap();
    assert!(files.to_value()["toolSpec"].get("description").is_none());
}

#[test]
fn tool_config_needs_a_tool() {
    let e = tool_config([]).unwrap_err();
    assert_eq!(e.rule, RenderRule::SetLimit);
    assert_eq!(
        BedrockRenderer::new().render_set(&[], Policy::Lenient).unwrap_err().rule,
        RenderRule::SetLimit
    );
}
