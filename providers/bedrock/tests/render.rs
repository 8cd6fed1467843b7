//! Bedrock renderer: golden snapshots over the corpus, validation against botocore's service
//! model, the strict rules, report completeness, policies and determinism.

use tooldef_testkit::{extras as corpus, harness};

use serde_json::{Value, json};
use tooldef::ToolDescriptor;
use tooldef::render::{ChangeKind, LossPolicy, RenderRule, Renderer};
use tooldef_bedrock::{BedrockRenderer, strict_violations, tool_config};
use tooldef_testkit::corpus::{assert_snapshot, snapshot};
use tooldef_testkit::specs::{assert_conforms, bedrock};

const DIR: &str = env!("CARGO_MANIFEST_DIR");

fn renderers() -> [(&'static str, BedrockRenderer); 2] {
    [("plain", BedrockRenderer::new()), ("strict", BedrockRenderer::strict())]
}

fn corpus_tool(name: &str) -> ToolDescriptor {
    corpus::corpus().into_iter().find(|t| t.name == name).unwrap()
}

/// One golden file per mode over the shared corpus (`tests/snapshots/<mode>.json`), compared
/// byte for byte; `TOOLDEF_BLESS=1` rewrites them.
#[test]
fn snapshots_match_golden_files() {
    for (mode, renderer) in renderers() {
        let path =
            std::path::PathBuf::from(DIR).join("tests/snapshots").join(format!("{mode}.json"));
        assert_snapshot(&path, &snapshot(&renderer, LossPolicy::Allow));
    }
}

#[test]
fn every_rendering_conforms_to_the_service_model() {
    for (label, r) in renderers() {
        let corpus = corpus::all();
        let mut rendered = Vec::new();
        for tool in &corpus {
            let one = match r.render(tool, LossPolicy::Allow) {
                Ok(one) => one,
                // Only strict mode refuses, and only recursive schemas.
                Err(e) if r.is_strict() && e.rule == RenderRule::Recursion => continue,
                Err(e) => panic!("{label} `{}`: {e}", tool.name),
            };
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
        assert!(rendered.len() * 4 >= corpus.len() * 3, "{label}: {} rendered", rendered.len());
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
    for tool in corpus::all() {
        for (_, r) in renderers() {
            let Ok(rendered) = r.render(&tool, LossPolicy::Allow) else { continue };
            let schema = rendered.to_value()["toolSpec"]["inputSchema"]["json"].clone();
            harness::nothing_dropped_silently(&tool, &rendered, &schema);
        }
    }
}

#[test]
fn strict_policy_refuses_exactly_the_lossy_renderings() {
    for tool in corpus::all() {
        for (_, r) in renderers() {
            harness::strict_agrees(&r, &tool);
            harness::deterministic(&r, &tool);
        }
    }
}

#[test]
fn strict_mode_moves_bounds_and_clamps_min_items() {
    let r = BedrockRenderer::strict().render(&corpus_tool("pick"), LossPolicy::Refuse).unwrap();
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
        BedrockRenderer::strict().render(&corpus_tool("create_user"), LossPolicy::Refuse).unwrap();
    let props = &user.to_value()["toolSpec"]["inputSchema"]["json"]["properties"];
    assert!(props["password"].get("pattern").is_none());
    assert_eq!(props["password"]["description"], "Pattern: ^(?=.*\\d).{8,}$.");
    assert_eq!(props["handle"]["pattern"], "^[a-z][a-z0-9_]{2,15}$");

    // Open objects must be closed: lossy. Recursion is refused.
    let open = corpus_tool("log_event");
    assert_eq!(
        BedrockRenderer::strict().render(&open, LossPolicy::Refuse).unwrap_err().rule,
        RenderRule::Lossy
    );
    assert!(BedrockRenderer::new().render(&open, LossPolicy::Refuse).is_ok());
    let tree = BedrockRenderer::strict().render(&corpus_tool("tree__insert"), LossPolicy::Allow);
    assert_eq!(tree.unwrap_err().rule, RenderRule::Recursion);
    assert!(
        BedrockRenderer::new().render(&corpus_tool("tree__insert"), LossPolicy::Refuse).is_ok()
    );
}

#[test]
fn plain_mode_keeps_everything_and_reports_tool_level_omissions() {
    let r = BedrockRenderer::new().render(&corpus_tool("search_docs"), LossPolicy::Refuse).unwrap();
    let keywords: Vec<&str> = r.report().iter().map(|c| c.keyword.as_ref()).collect();
    assert_eq!(keywords, ["annotations", "outputSchema"]);
    assert!(r.report().iter().all(|c| c.kind == ChangeKind::Omitted && !c.lossy));
    let limit = &r.to_value()["toolSpec"]["inputSchema"]["json"]["properties"]["limit"];
    assert_eq!(limit, &json!({"type": "integer", "minimum": 1, "maximum": 50, "default": 10}));

    // An empty description is left out, not sent empty.
    let files =
        BedrockRenderer::new().render(&corpus_tool("list_files"), LossPolicy::Refuse).unwrap();
    assert!(files.to_value()["toolSpec"].get("description").is_none());
}

#[test]
fn tool_config_needs_a_tool() {
    let e = tool_config([]).unwrap_err();
    assert_eq!(e.rule, RenderRule::SetLimit);
    assert_eq!(
        BedrockRenderer::new().render_set(&[], LossPolicy::Allow).unwrap_err().rule,
        RenderRule::SetLimit
    );
}
