//! The OpenAI renderer over the shared corpus: golden snapshots per API/mode/profile, the
//! official wire specs, the strict-mode rules, report completeness, policy, limits, caching and
//! interop with `async-openai`'s types.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{Value, json};
use tooldef::{
    ChangeKind, LossPolicy, Param, RenderCache, RenderRule, Renderer, Schema, ToolDescriptor,
};
use tooldef_openai::{OpenAiRenderer, Profile, strict_violations};
use tooldef_testkit::corpus::{self, assert_snapshot, corpus, snapshot};
use tooldef_testkit::specs::{assert_conforms, openai as spec};

fn modes() -> Vec<(&'static str, OpenAiRenderer)> {
    vec![
        ("chat", OpenAiRenderer::chat()),
        ("chat-strict", OpenAiRenderer::chat().strict(true)),
        ("responses", OpenAiRenderer::responses()),
        ("responses-strict", OpenAiRenderer::responses().strict(true)),
        ("mistral-strict", OpenAiRenderer::chat().profile(Profile::Mistral).strict(true)),
        ("deepseek-strict", OpenAiRenderer::chat().profile(Profile::DeepSeek).strict(true)),
        ("groq", OpenAiRenderer::chat().profile(Profile::Groq)),
        ("xai-responses", OpenAiRenderer::responses().profile(Profile::XAi)),
        ("cohere", OpenAiRenderer::chat().profile(Profile::Cohere)),
        ("cohere-strict", OpenAiRenderer::chat().profile(Profile::Cohere).strict(true)),
    ]
}

fn snapshot_path(mode: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(format!("{mode}.json"))
}

#[test]
fn snapshots_match_golden_files() {
    for (mode, renderer) in modes() {
        assert_snapshot(&snapshot_path(mode), &snapshot(&renderer, LossPolicy::Allow));
    }
}

#[test]
fn rendering_is_deterministic() {
    for (_, renderer) in modes() {
        for tool in corpus() {
            let a = renderer.render(&tool, LossPolicy::Allow);
            let b = renderer.render(&tool.clone(), LossPolicy::Allow);
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a.json(), b.json());
                    assert_eq!(a.report(), b.report());
                }
                (Err(a), Err(b)) => assert_eq!(a, b),
                _ => panic!("{}: one render failed and the other did not", tool.name),
            }
        }
    }
}

/// The official OpenAPI schemas accept every rendered tool, alone and in a request body.
#[test]
fn rendered_tools_conform_to_the_openai_spec() {
    for (mode, renderer) in modes() {
        let mut tools = Vec::new();
        for tool in corpus() {
            let Ok(r) = renderer.render(&tool, LossPolicy::Allow) else { continue };
            let wire = r.to_value();
            let what = format!("{mode}/{}", tool.name);
            if mode.contains("responses") {
                assert_conforms(&what, spec::validate_function_tool(&wire));
            } else {
                assert_conforms(&what, spec::validate_chat_completion_tool(&wire));
            }
            tools.push(wire);
        }
        if !mode.contains("responses") {
            let body = json!({ "tools": tools });
            assert_conforms(mode, spec::validate_chat_completion_fragment(&body));
        }
    }
}

/// OpenAI's strict rules hold for every strict rendering of the corpus.
#[test]
fn strict_renderings_follow_the_strict_rules() {
    for (mode, renderer) in modes() {
        if !renderer.is_strict() || renderer.provider() == Profile::Cohere {
            continue;
        }
        let mut rendered = 0;
        for tool in corpus() {
            let Ok(r) = renderer.render(&tool, LossPolicy::Allow) else { continue };
            rendered += 1;
            let wire = r.to_value();
            let params = wire.pointer("/function/parameters").or(wire.get("parameters")).unwrap();
            let problems = strict_violations(params);
            assert!(problems.is_empty(), "{mode}/{}: {problems:#?}", tool.name);
        }
        assert!(rendered >= 25, "{mode}: only {rendered} tools rendered");
    }
}

/// Whatever the strict lowering moves is both in the description and in the report.
#[test]
fn strict_lowering_reports_every_moved_default() {
    let renderer = OpenAiRenderer::chat().strict(true);
    for tool in corpus() {
        let Ok(r) = renderer.render(&tool, LossPolicy::Allow) else { continue };
        let wire = r.to_value();
        assert!(!r.json().contains("\"default\":"), "{}: a default survived", tool.name);
        for p in tool.params.iter() {
            let pointer = format!("/function/parameters/properties/{}", p.name);
            let rendered = wire.pointer(&pointer).unwrap();
            if let Some(d) = p.default_value() {
                let text = rendered["description"].as_str().unwrap_or_default();
                let note = format!("Default: {}.", tooldef::render::literal_text(d));
                assert!(text.contains(&note), "{}/{}: {text:?} lacks {note:?}", tool.name, p.name);
                assert!(
                    r.report().iter().any(|c| c.pointer == pointer
                        && c.keyword == "default"
                        && c.kind == ChangeKind::MovedToDescription),
                    "{}/{}: no report entry for the default",
                    tool.name,
                    p.name
                );
            }
            if !p.required {
                assert!(
                    r.report()
                        .iter()
                        .any(|c| c.pointer == pointer && c.kind == ChangeKind::MadeRequired),
                    "{}/{}: optional made required without a report entry",
                    tool.name,
                    p.name
                );
                let ty = &rendered["type"];
                let nullable = ty.as_array().is_some_and(|t| t.contains(&json!("null")))
                    || rendered["anyOf"]
                        .as_array()
                        .is_some_and(|v| v.iter().any(|s| s["type"] == "null"));
                assert!(
                    nullable,
                    "{}/{}: optional but not nullable: {rendered}",
                    tool.name, p.name
                );
            }
        }
    }
}

/// Under the `Refuse` policy a rendering fails exactly when the lenient one reports a lossy change.
#[test]
fn strict_policy_fails_on_lossy_changes_only() {
    for (mode, renderer) in modes() {
        for tool in corpus() {
            let lenient = renderer.render(&tool, LossPolicy::Allow);
            let strict = renderer.render(&tool, LossPolicy::Refuse);
            match lenient {
                Ok(r) if r.report().is_lossless() => {
                    assert_eq!(strict.unwrap().json(), r.json(), "{mode}/{}", tool.name)
                }
                Ok(r) => {
                    let err = strict.unwrap_err();
                    assert_eq!(err.rule, RenderRule::Lossy, "{mode}/{}", tool.name);
                    let first = r.report().lossy().next().unwrap();
                    assert_eq!(err.pointer, first.pointer, "{mode}/{}", tool.name);
                }
                Err(e) => assert_eq!(strict.unwrap_err(), e),
            }
        }
    }
}

#[test]
fn maps_are_lossy_in_strict_mode_and_kept_otherwise() {
    let maps = corpus::get("maps").unwrap();
    let plain = OpenAiRenderer::chat().render(&maps, LossPolicy::Refuse).unwrap();
    assert_eq!(
        plain.to_value().pointer("/function/parameters/properties/scores/additionalProperties"),
        Some(&json!({"type": "number"}))
    );
    let err = OpenAiRenderer::chat().strict(true).render(&maps, LossPolicy::Refuse).unwrap_err();
    assert_eq!(err.rule, RenderRule::Lossy);
    assert_eq!(err.tool, "maps");
    assert_eq!(err.param, "scores");
    assert_eq!(err.pointer, "/function/parameters/properties/scores/additionalProperties");
}

#[test]
fn responses_always_say_strict() {
    for strict in [false, true] {
        let r = OpenAiRenderer::responses().strict(strict);
        for tool in corpus() {
            let Ok(out) = r.render(&tool, LossPolicy::Allow) else { continue };
            assert_eq!(out.to_value()["strict"], json!(strict), "{}", tool.name);
        }
    }
    let chat = OpenAiRenderer::chat().render(&corpus::PING, LossPolicy::Refuse).unwrap();
    assert_eq!(chat.to_value()["function"].get("strict"), None);
}

#[test]
fn zero_argument_tools_follow_the_documented_shape() {
    let strict =
        OpenAiRenderer::chat().strict(true).render(&corpus::PING, LossPolicy::Refuse).unwrap();
    assert_eq!(
        strict.to_value()["function"]["parameters"],
        json!({"type":"object","properties":{},"required":[],"additionalProperties":false})
    );
    let plain = OpenAiRenderer::chat().render(&corpus::PING, LossPolicy::Refuse).unwrap();
    assert_eq!(
        plain.to_value()["function"]["parameters"],
        json!({"type":"object","properties":{},"additionalProperties":false})
    );
}

#[test]
fn deepseek_strict_moves_formats_openai_accepts() {
    let tool = corpus::get("string_formats").unwrap();
    let openai = OpenAiRenderer::chat().strict(true).render(&tool, LossPolicy::Refuse).unwrap();
    let deepseek = OpenAiRenderer::chat()
        .profile(Profile::DeepSeek)
        .strict(true)
        .render(&tool, LossPolicy::Refuse)
        .unwrap();
    let when = "/function/parameters/properties/when";
    assert_eq!(openai.to_value().pointer(when).unwrap()["format"], "date-time");
    assert_eq!(deepseek.to_value().pointer(when).unwrap().get("format"), None);
    assert!(
        deepseek.to_value().pointer(when).unwrap()["description"]
            .as_str()
            .unwrap()
            .contains("Format: date-time.")
    );
    // Both move a pattern with lookaround and formats outside the list.
    for r in [&openai, &deepseek] {
        let v = r.to_value();
        assert_eq!(v.pointer("/function/parameters/properties/password/pattern"), None);
        assert_eq!(v.pointer("/function/parameters/properties/phone/format"), None);
    }
}

#[test]
fn cohere_strict_needs_a_required_parameter_and_counts_fields() {
    let cohere = OpenAiRenderer::chat().profile(Profile::Cohere).strict(true);
    let err = cohere.render(&corpus::PING, LossPolicy::Allow).unwrap_err();
    assert_eq!((err.rule, err.tool.as_str()), (RenderRule::Unsupported, "ping"));
    let wide = ToolDescriptor::builder("wide")
        .params((0..150).map(|i| Param::named(format!("p{i}"), Schema::string())))
        .build()
        .unwrap();
    let err = cohere.render_set(&[&wide, &wide.clone()], LossPolicy::Allow).unwrap_err();
    assert_eq!(err.rule, RenderRule::SetLimit);
    assert!(err.message.contains("200"), "{err}");
    assert!(cohere.render_set(&[&wide], LossPolicy::Allow).is_ok());
    // Cohere carries no per-tool strict flag and keeps optional parameters optional.
    let w = cohere.render(&corpus::GET_WEATHER, LossPolicy::Allow).unwrap().to_value();
    assert_eq!(w["function"].get("strict"), None);
    assert_eq!(w["function"]["parameters"]["required"], json!(["city"]));
}

#[test]
fn strict_limits_are_errors_naming_the_limit() {
    let strict = OpenAiRenderer::chat().strict(true);
    let deep = strict.render(&corpus::TOO_DEEP, LossPolicy::Allow).unwrap_err();
    assert_eq!(deep.rule, RenderRule::Limit);
    assert!(deep.message.contains("10 levels"), "{deep}");
    assert!(OpenAiRenderer::chat().render(&corpus::TOO_DEEP, LossPolicy::Refuse).is_ok());

    let many = ToolDescriptor::builder("many")
        .params((0..5001).map(|i| Param::named(format!("p{i}"), Schema::boolean())))
        .build()
        .unwrap();
    let err = strict.render(&many, LossPolicy::Allow).unwrap_err();
    assert!(err.message.contains("5000 object properties"), "{err}");

    let values: Vec<String> = (0..1001).map(|i| format!("v{i}")).collect();
    let big_enum = ToolDescriptor::builder("big_enum")
        .param(Param::named("e", Schema::enumeration_of(values)))
        .build()
        .unwrap();
    let err = strict.render(&big_enum, LossPolicy::Allow).unwrap_err();
    assert!(err.message.contains("1000 enum values"), "{err}");

    let long: Vec<String> = (0..900).map(|i| format!("{i:0>150}")).collect();
    let long_enum = ToolDescriptor::builder("long_enum")
        .param(Param::named("e", Schema::enumeration_of(long)))
        .build()
        .unwrap();
    let err = strict.render(&long_enum, LossPolicy::Allow).unwrap_err();
    assert!(err.message.contains("120000 characters"), "{err}");

    let wide: Vec<String> = (0..300).map(|i| format!("{i:0>60}")).collect();
    let wide_enum = ToolDescriptor::builder("wide_enum")
        .param(Param::named("e", Schema::enumeration_of(wide)))
        .build()
        .unwrap();
    let err = strict.render(&wide_enum, LossPolicy::Allow).unwrap_err();
    assert!(err.message.contains("15000 characters"), "{err}");
}

#[test]
fn other_profiles_have_no_responses_api() {
    let r = OpenAiRenderer::responses().profile(Profile::Mistral);
    let err = r.render(&corpus::PING, LossPolicy::Allow).unwrap_err();
    assert_eq!(err.rule, RenderRule::Unsupported);
}

#[test]
fn the_cache_renders_once_per_descriptor_renderer_and_policy() {
    let cache = RenderCache::new();
    let chat = OpenAiRenderer::chat();
    let strict = OpenAiRenderer::chat().strict(true);
    let a = cache.get_static(&chat, &corpus::GET_WEATHER, LossPolicy::Allow).unwrap();
    let b = cache.get_static(&chat, &corpus::GET_WEATHER, LossPolicy::Allow).unwrap();
    assert!(std::ptr::eq(a.json(), b.json()), "a cached render shares its text");
    let c = cache.get_static(&strict, &corpus::GET_WEATHER, LossPolicy::Allow).unwrap();
    assert_ne!(a.json(), c.json());
    assert_eq!(cache.len(), 2);

    let owned = corpus::dynamic();
    let d = cache.get(&chat, &owned, LossPolicy::Allow).unwrap();
    let e = cache.get(&chat, &owned.clone(), LossPolicy::Allow).unwrap();
    assert!(std::ptr::eq(d.json(), e.json()));
    let mut changed = owned.clone();
    changed.description = "Something else.".into();
    let f = cache.get(&chat, &changed, LossPolicy::Allow).unwrap();
    assert!(f.json().contains("Something else."));

    let shared = Arc::new(corpus::many_params());
    let g = cache.get_shared(&chat, &shared, LossPolicy::Allow).unwrap();
    let h = cache.get_shared(&chat, &shared, LossPolicy::Allow).unwrap();
    assert!(std::ptr::eq(g.json(), h.json()));
    assert_eq!(g.json(), chat.render(&shared, LossPolicy::Allow).unwrap().json());

    // Errors are not cached.
    let err = cache.get_static(&strict, &corpus::TOO_DEEP, LossPolicy::Allow);
    assert!(err.is_err());
    assert_eq!(cache.len(), 5);
}

/// `async-openai`'s own types read every rendered tool back with nothing lost.
#[test]
fn async_openai_reads_rendered_tools() {
    use async_openai::types::chat::ChatCompletionTools;
    use async_openai::types::responses::FunctionTool;
    for (mode, renderer) in modes() {
        for tool in corpus() {
            let Ok(r) = renderer.render(&tool, LossPolicy::Allow) else { continue };
            let wire = r.to_value();
            if mode.contains("responses") {
                let t: FunctionTool = serde_json::from_str(r.json())
                    .unwrap_or_else(|e| panic!("{mode}/{}: {e}", tool.name));
                assert_eq!(t.name, tool.name.as_str());
                assert_eq!(t.parameters.as_ref(), wire.get("parameters"));
                assert_eq!(t.output_schema.as_ref(), wire.get("output_schema"));
            } else {
                let t: ChatCompletionTools = serde_json::from_str(r.json())
                    .unwrap_or_else(|e| panic!("{mode}/{}: {e}", tool.name));
                let ChatCompletionTools::Function(f) = t else { panic!("not a function tool") };
                assert_eq!(f.function.name, tool.name.as_str());
                assert_eq!(f.function.parameters.as_ref(), wire["function"].get("parameters"));
                assert_eq!(f.function.strict, wire["function"]["strict"].as_bool());
            }
        }
    }
}

#[test]
fn a_set_is_rendered_in_order_and_joined_as_an_array() {
    let tools: Vec<&ToolDescriptor> = corpus::STATICS.iter().take(5).copied().collect();
    let set = OpenAiRenderer::chat().render_set(&tools, LossPolicy::Allow).unwrap();
    let array: Value = serde_json::from_str(&tooldef::render::json_array(&set)).unwrap();
    let names: Vec<&str> =
        array.as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    let expected: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, expected);
}

#[test]
fn strict_violations_escape_property_names_in_their_pointers() {
    let params = json!({
        "type": "object",
        "properties": {
            "a/b": {"type": "string", "format": "ipv5"},
            "c~d": {"type": "array", "items": {"type": "string", "format": "ipv5"}},
        },
        "required": ["c~d"],
        "additionalProperties": false,
        "$defs": {"x/y": {"type": "string", "format": "ipv5"}},
    });
    assert_eq!(
        strict_violations(&params),
        [
            "/properties/a~1b: not listed in `required`",
            "/properties/a~1b: format `ipv5` is not supported",
            "/properties/c~0d/items: format `ipv5` is not supported",
            "/$defs/x~1y: format `ipv5` is not supported",
        ]
    );
}

/// An array without `items` (a DeepSeek Harness tool) has items of any value, `{}`, which strict
/// mode refuses ("schema must have a 'type' key"): every strict mode writes a typed union and
/// reports the loss, and the `Refuse` policy refuses it.
#[test]
fn an_array_without_items_gets_typed_items_in_strict_mode() {
    let spec = tooldef::spec::parse_spec(
        "harness.json",
        r#"{"name": "run", "input_schema": {"type": "object",
            "properties": {"argv": {"type": "array"}}, "required": ["argv"],
            "additionalProperties": false}}"#,
        None,
    )
    .unwrap();
    let tool = &spec.descriptor;
    for (mode, renderer) in modes() {
        if !renderer.is_strict() {
            continue;
        }
        let r = renderer.render(tool, LossPolicy::Allow).unwrap();
        let wire = r.to_value();
        let (base, params) = match wire.get("function") {
            Some(f) => ("/function/parameters", &f["parameters"]),
            None => ("/parameters", &wire["parameters"]),
        };
        assert_eq!(
            params["properties"]["argv"],
            json!({"type": "array", "items": {"anyOf": [
                {"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}
            ]}}),
            "{mode}"
        );
        if renderer.provider() != Profile::Cohere {
            assert_eq!(strict_violations(params), Vec::<String>::new(), "{mode}");
        }
        let detail = "a schema of any value written as a string, number, boolean or null: the \
                      provider needs a `type` on every schema, so an array or an object is no \
                      longer accepted here";
        let report: Vec<String> = r.report().iter().map(ToString::to_string).collect();
        assert_eq!(
            report,
            [format!(
                "tool `run`, parameter `argv[]` at {base}/properties/argv/items: {detail} (lossy)"
            )],
            "{mode}"
        );
        let err = renderer.render(tool, LossPolicy::Refuse).unwrap_err();
        assert_eq!(
            err.message,
            format!(
                "tool `run`, parameter `argv[]` at {base}/properties/argv/items: {detail}; this \
                 loses meaning and the policy is strict"
            ),
            "{mode}"
        );
    }
}

/// A zod 4 record says `propertyNames: {"type": "string"}`, which constrains nothing (every
/// property name is a string): import drops it with a note, and strict mode refuses the record
/// for what it is, an open map.
#[test]
fn a_zod_record_is_refused_in_strict_mode_as_the_map_it_is() {
    let spec = tooldef::spec::parse_spec(
        "tag.json",
        r#"{"name": "tag", "input_schema": {"type": "object", "properties": {"labels": {
            "type": "object", "propertyNames": {"type": "string"},
            "additionalProperties": {"type": "string"}}},
            "required": ["labels"], "additionalProperties": false}}"#,
        None,
    )
    .unwrap();
    let notes: Vec<String> = spec.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "#/input_schema/properties/labels/propertyNames: `propertyNames` says nothing (every property name is a string) and was dropped"
        ]
    );
    let err = OpenAiRenderer::chat().strict(true).render(&spec.descriptor, LossPolicy::Refuse);
    assert_eq!(
        err.unwrap_err().message,
        "tool `tag`, parameter `labels` at /function/parameters/properties/labels/additionalProperties: map closed to an empty object: the provider requires additionalProperties: false; this loses meaning and the policy is strict"
    );
    // Where JSON Schema passes through, the map is written without the keyword.
    let plain = OpenAiRenderer::chat().render(&spec.descriptor, LossPolicy::Refuse).unwrap();
    assert_eq!(
        plain.to_value()["function"]["parameters"]["properties"]["labels"],
        json!({"type": "object", "properties": {}, "additionalProperties": {"type": "string"}})
    );
}
