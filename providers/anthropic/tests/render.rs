//! The Anthropic renderer over the shared corpus: golden snapshots, the tool shape, the strict
//! rules, report completeness, policy, recursion and the per-request limits.

use std::path::PathBuf;

use serde_json::json;
use tooldef::{ChangeKind, LossPolicy, Param, RenderRule, Renderer, Schema, ToolDescriptor};
use tooldef_anthropic::{AnthropicRenderer, strict_violations};
use tooldef_testkit::corpus::{self, assert_snapshot, corpus, snapshot};
use tooldef_testkit::specs::{anthropic as spec, assert_conforms};

fn modes() -> [(&'static str, AnthropicRenderer); 2] {
    [("plain", AnthropicRenderer::new()), ("strict", AnthropicRenderer::new().strict(true))]
}

#[test]
fn snapshots_match_golden_files() {
    for (mode, r) in modes() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/snapshots")
            .join(format!("{mode}.json"));
        assert_snapshot(&path, &snapshot(&r, LossPolicy::Allow));
    }
}

#[test]
fn rendering_is_deterministic_and_conforms_to_the_tool_shape() {
    for (mode, r) in modes() {
        for tool in corpus() {
            let Ok(a) = r.render(&tool, LossPolicy::Allow) else { continue };
            let b = r.render(&tool.clone(), LossPolicy::Allow).unwrap();
            assert_eq!(a.json(), b.json());
            assert_conforms(&format!("{mode}/{}", tool.name), spec::validate_tool(&a.to_value()));
        }
    }
}

#[test]
fn strict_renderings_follow_the_strict_rules() {
    let r = AnthropicRenderer::new().strict(true);
    let mut rendered = 0;
    for tool in corpus() {
        let Ok(out) = r.render(&tool, LossPolicy::Allow) else { continue };
        rendered += 1;
        let wire = out.to_value();
        assert_eq!(wire["strict"], true);
        let problems = strict_violations(&wire["input_schema"]);
        assert!(problems.is_empty(), "{}: {problems:#?}", tool.name);
    }
    assert!(rendered >= 25, "only {rendered} rendered");
}

#[test]
fn plain_nullable_is_any_of_never_a_type_array() {
    let r = AnthropicRenderer::new();
    for tool in corpus() {
        let out = r.render(&tool, LossPolicy::Allow).unwrap();
        assert!(!out.json().contains("\"type\":["), "{}: {}", tool.name, out.json());
    }
    let w = r.render(&corpus::OPTIONALITY, LossPolicy::Refuse).unwrap().to_value();
    assert_eq!(
        w["input_schema"]["properties"]["opt_null"],
        json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
    );
    assert_eq!(
        w["input_schema"]["required"],
        json!(["req", "req_null", "req_def", "req_null_def"])
    );
}

/// Bounds and defaults moved by strict lowering are in the description and in the report.
#[test]
fn strict_moves_bounds_into_the_description_with_report_entries() {
    let r = AnthropicRenderer::new().strict(true);
    let out = r.render(&corpus::GET_WEATHER, LossPolicy::Refuse).unwrap();
    let w = out.to_value();
    let days = &w["input_schema"]["properties"]["days"];
    assert_eq!(
        days,
        &json!({"type": "integer", "description": "Number of days. Default: 3. Minimum: 1. Maximum: 10."})
    );
    let moved: Vec<&str> = out
        .report()
        .iter()
        .filter(|c| c.pointer == "/input_schema/properties/days")
        .map(|c| {
            assert_eq!(c.kind, ChangeKind::MovedToDescription);
            c.keyword.as_ref()
        })
        .collect();
    assert_eq!(moved, ["default", "minimum", "maximum"]);
    // minItems above 1 is clamped, and the real bound is noted.
    let lists = r.render(&corpus::LISTS, LossPolicy::Refuse).unwrap().to_value();
    let points = &lists["input_schema"]["properties"]["points"];
    assert_eq!(points["minItems"], 1);
    assert!(points["description"].as_str().unwrap().contains("Minimum items: 2."));
}

#[test]
fn strict_rejects_recursion_naming_the_definition() {
    let r = AnthropicRenderer::new().strict(true);
    for name in ["tree__insert", "linked_list"] {
        let tool = corpus::get(name).unwrap();
        let err = r.render(&tool, LossPolicy::Allow).unwrap_err();
        assert_eq!(err.rule, RenderRule::Recursion, "{name}");
        assert_eq!(err.tool, name);
        assert!(err.pointer.as_str().starts_with("/input_schema"), "{}", err.pointer);
        assert!(AnthropicRenderer::new().render(&tool, LossPolicy::Refuse).is_ok());
    }
    // A shared definition that is not recursive is fine.
    assert!(r.render(&corpus::SHARED_DEFS, LossPolicy::Refuse).is_ok());
}

#[test]
fn strict_policy_fails_on_lossy_changes_only() {
    for (mode, r) in modes() {
        for tool in corpus() {
            match r.render(&tool, LossPolicy::Allow) {
                Ok(out) if out.report().is_lossless() => {
                    assert_eq!(r.render(&tool, LossPolicy::Refuse).unwrap().json(), out.json())
                }
                Ok(_) => assert_eq!(
                    r.render(&tool, LossPolicy::Refuse).unwrap_err().rule,
                    RenderRule::Lossy,
                    "{mode}/{}",
                    tool.name
                ),
                Err(e) => assert_eq!(r.render(&tool, LossPolicy::Refuse).unwrap_err(), e),
            }
        }
    }
}

fn tool_with(name: &str, params: Vec<Param>) -> ToolDescriptor {
    ToolDescriptor::builder(name.to_owned()).params(params).build().unwrap()
}

#[test]
fn strict_set_limits_are_checked_over_the_request() {
    let r = AnthropicRenderer::new().strict(true);
    let one = tool_with("one", vec![Param::named("a", Schema::string())]);
    let tools: Vec<&ToolDescriptor> = std::iter::repeat_n(&one, 21).collect();
    let err = r.render_set(&tools, LossPolicy::Allow).unwrap_err();
    assert_eq!(err.rule, RenderRule::SetLimit);
    assert!(err.message.contains("at most 20 strict tools"), "{err}");
    assert_eq!(r.render_set(&tools[..20], LossPolicy::Allow).unwrap().len(), 20);
    // The plain renderer has no such limits.
    assert_eq!(AnthropicRenderer::new().render_set(&tools, LossPolicy::Allow).unwrap().len(), 21);

    let optional = |n: &str| {
        tool_with(
            n,
            (0..5)
                .map(|i| Param::named(format!("o{i}"), Schema::string()).with_required(false))
                .collect(),
        )
    };
    let opts: Vec<ToolDescriptor> = (0..5).map(|i| optional(&format!("t{i}"))).collect();
    let refs: Vec<&ToolDescriptor> = opts.iter().collect();
    let err = r.render_set(&refs, LossPolicy::Allow).unwrap_err();
    assert!(err.message.contains("24 optional parameters"), "{err}");
    assert_eq!(err.tool, "t4");
    assert!(r.check_set(&refs[..4], LossPolicy::Allow).is_ok());

    let unions = |n: &str| {
        tool_with(
            n,
            (0..6).map(|i| Param::named(format!("u{i}"), Schema::string().nullable())).collect(),
        )
    };
    let us: Vec<ToolDescriptor> = (0..3).map(|i| unions(&format!("u{i}"))).collect();
    let refs: Vec<&ToolDescriptor> = us.iter().collect();
    let err = r.check_set(&refs, LossPolicy::Allow).unwrap_err();
    assert!(err.message.contains("16 union-typed parameters"), "{err}");
}

#[test]
fn omitted_tool_information_is_reported() {
    let out = AnthropicRenderer::new().render(&corpus::ANNOTATED, LossPolicy::Refuse).unwrap();
    let kinds: Vec<(&str, ChangeKind)> =
        out.report().iter().map(|c| (c.keyword.as_ref(), c.kind)).collect();
    assert_eq!(kinds, [("title", ChangeKind::Omitted), ("annotations", ChangeKind::Omitted)]);
}

#[test]
fn strict_violations_escape_property_and_definition_names_in_their_pointers() {
    let schema = json!({
        "type": "object",
        "properties": {
            "a/b": {"type": "string", "format": "ipv5"},
            "c~d": {"type": "array", "items": {"type": "string", "format": "ipv5"}},
        },
        "additionalProperties": false,
        "$defs": {"node": {"type": "array", "items": {"$ref": "#/$defs/node"}, "minItems": 2}},
    });
    assert_eq!(
        strict_violations(&schema),
        [
            "/$defs/node: minItems 2; only 0 or 1 is supported",
            "/properties/a~1b: format `ipv5` is not supported",
            "/properties/c~0d/items: format `ipv5` is not supported",
            "/$defs/node: recursive definition",
        ]
    );
}

#[test]
fn recursive_definitions_are_found_through_escaped_and_percent_encoded_refs() {
    let list = |target: &str| json!({"type": "array", "items": {"$ref": target}});
    let schema = json!({
        "type": "object",
        "properties": {},
        "additionalProperties": false,
        "$defs": {
            // Reaches `a/b`, which reaches itself, but never comes back to `a`.
            "a": list("#/$defs/a~1b"),
            "a/b": list("#/$defs/a~1b"),
            "p~q": list("#/$defs/p~0q"),
            "x y": list("#/$defs/x%20y"),
            "z": list("#/$defs/z%2"),
        },
    });
    assert_eq!(
        strict_violations(&schema),
        [
            "/$defs/a~1b: recursive definition",
            "/$defs/p~0q: recursive definition",
            "/$defs/x y: recursive definition",
        ]
    );
}
