//! Gemini renderer: golden snapshots over the corpus, validation of every rendering against the
//! v1beta protobuf descriptor and the Vertex discovery document, the OpenAPI-subset rules, report
//! completeness, policies and determinism.

use tooldef_testkit::{extras as corpus, harness};

use serde_json::{Value, json};
use tooldef::json_schema::import_input;
use tooldef::render::{ChangeKind, LossPolicy, RenderCache, RenderRule, Renderer};
use tooldef::{Param, Schema, SchemaRef, ToolDescriptor};
use tooldef_gemini::{Form, GeminiRenderer, parameters_violations, tools_json};
use tooldef_testkit::corpus::{assert_snapshot, snapshot};
use tooldef_testkit::specs::{assert_conforms, gemini, vertex};

const DIR: &str = env!("CARGO_MANIFEST_DIR");

fn renderers() -> [(&'static str, GeminiRenderer); 2] {
    [("json_schema", GeminiRenderer::new()), ("openapi", GeminiRenderer::openapi())]
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
fn every_rendering_conforms_to_the_official_specs() {
    let mut rendered_any = [0usize; 2];
    for tool in corpus::all() {
        for (i, (label, r)) in renderers().into_iter().enumerate() {
            let Ok(rendered) = r.render(&tool, LossPolicy::Allow) else { continue };
            rendered_any[i] += 1;
            let what = format!("{label} `{}`", tool.name);
            let decl = rendered.to_value();
            assert_conforms(&what, gemini::validate_function_declaration(&decl));
            assert_conforms(&what, vertex::validate_function_declaration(&decl));
            let tools: Value = serde_json::from_str(&tools_json([&rendered])).unwrap();
            assert_conforms(&what, gemini::validate_tool(&tools[0]));
            assert_conforms(&what, vertex::validate_tool(&tools[0]));
            assert_conforms(
                &what,
                gemini::validate_generate_content_fragment(&json!({ "tools": tools })),
            );
            if r.form() == Form::OpenApi {
                for key in ["parameters", "response"] {
                    if let Some(schema) = decl.get(key) {
                        assert_conforms(&what, gemini::validate_schema(schema));
                        assert_conforms(&what, vertex::validate_schema(schema));
                        assert_eq!(parameters_violations(schema), Vec::<String>::new(), "{what}");
                    }
                }
                assert!(decl.get("parametersJsonSchema").is_none());
            } else {
                assert!(decl.get("parameters").is_none());
            }
        }
    }
    // Most of the corpus renders in both forms.
    assert!(rendered_any.iter().all(|n| *n >= 10), "{rendered_any:?}");
}

#[test]
fn nothing_is_dropped_without_a_report_entry() {
    for tool in corpus::all() {
        for (_, r) in renderers() {
            let Ok(rendered) = r.render(&tool, LossPolicy::Allow) else { continue };
            let decl = rendered.to_value();
            let key = if r.form() == Form::OpenApi { "parameters" } else { "parametersJsonSchema" };
            let schema = decl.get(key).cloned().unwrap_or(Value::Null);
            harness::nothing_dropped_silently(&tool, &rendered, &schema);
        }
    }
}

#[test]
fn strict_policy_refuses_exactly_the_lossy_renderings() {
    for tool in corpus::all() {
        for (_, r) in renderers() {
            harness::strict_agrees(&r, &tool);
        }
    }
}

#[test]
fn rendering_is_deterministic_and_cached() {
    let cache = RenderCache::new();
    for tool in corpus::all() {
        for (_, r) in renderers() {
            harness::deterministic(&r, &tool);
            if let Ok(first) = cache.get(&r, &tool, LossPolicy::Allow) {
                let second = cache.get(&r, &tool, LossPolicy::Allow).unwrap();
                assert_eq!(first.json(), second.json());
            }
        }
    }
    // Two forms, distinct cache keys.
    assert_ne!(GeminiRenderer::new().cache_key(), GeminiRenderer::openapi().cache_key());
}

fn corpus_tool(name: &str) -> ToolDescriptor {
    corpus::corpus().into_iter().find(|t| t.name == name).unwrap()
}

#[test]
fn openapi_form_follows_the_live_api_rules() {
    let r = GeminiRenderer::openapi();
    // Zero-argument tools omit `parameters`.
    let ping = r.render(&corpus_tool("ping"), LossPolicy::Refuse).unwrap().to_value();
    assert_eq!(ping, json!({"name": "ping", "description": "Check the service."}));

    // Definitions inlined, recursion refused.
    let tree = r.render(&corpus_tool("tree__insert"), LossPolicy::Allow).unwrap_err();
    assert_eq!(tree.rule, RenderRule::Recursion);
    let draw = r.render(&corpus_tool("draw"), LossPolicy::Refuse).unwrap().to_value();
    assert_eq!(draw.pointer("/parameters/properties/start/type"), Some(&json!("OBJECT")));
    assert_eq!(draw.pointer("/parameters/properties/end/nullable"), Some(&json!(true)));

    // A union of different types is an `anyOf` of single-type schemas, with no `type` of its
    // own (as google-genai sends it): nothing changed, nothing reported but the closed root.
    let lookup = r.render(&corpus_tool("lookup"), LossPolicy::Refuse).unwrap();
    let key = lookup.to_value().pointer("/parameters/properties/key").cloned();
    assert_eq!(key, Some(json!({"anyOf": [{"type": "STRING"}, {"type": "INTEGER"}]})));
    assert!(lookup.report().iter().all(|c| c.keyword == "additionalProperties"));
    // A union of one type gets that type.
    let schedule = r.render(&corpus_tool("schedule"), LossPolicy::Refuse).unwrap().to_value();
    let when = schedule.pointer("/parameters/properties/when").unwrap();
    assert_eq!(when["type"], "STRING");
    assert_eq!(when["nullable"], true);

    // Maps lose their value schema: lossy, so an error under the `Refuse` policy.
    let maps = corpus_tool("set_labels");
    let lenient = r.render(&maps, LossPolicy::Allow).unwrap();
    assert!(lenient.report().lossy().any(|c| c.keyword == "additionalProperties"));
    assert_eq!(r.render(&maps, LossPolicy::Refuse).unwrap_err().rule, RenderRule::Lossy);
    // The JSON Schema form keeps them.
    let json_form = GeminiRenderer::new().render(&maps, LossPolicy::Refuse).unwrap().to_value();
    assert_eq!(
        json_form.pointer("/parametersJsonSchema/properties/labels/additionalProperties"),
        Some(&json!({"type": "string"}))
    );
}

#[test]
fn unsupported_keywords_move_into_descriptions() {
    let numbers = corpus_tool("set_thermostat");
    let r = GeminiRenderer::openapi().render(&numbers, LossPolicy::Refuse).unwrap();
    let step = r.to_value()["parameters"]["properties"]["step"].clone();
    assert_eq!(
        step,
        json!({"type": "INTEGER", "description": "Greater than: 0. Less than: 10. Multiple of: 2."})
    );
    let keywords: Vec<&str> =
        r.report().iter().filter(|c| c.param == "step").map(|c| c.keyword.as_ref()).collect();
    assert_eq!(keywords, ["exclusiveMinimum", "exclusiveMaximum", "multipleOf"]);
    assert!(
        r.report().iter().all(|c| c.kind == ChangeKind::MovedToDescription || c.param.is_empty())
    );
}

#[test]
fn empty_description_and_title_are_reported() {
    let r = GeminiRenderer::new().render(&corpus_tool("list_files"), LossPolicy::Refuse).unwrap();
    assert_eq!(r.to_value()["description"], "");
    assert_eq!(r.report().len(), 1);
    assert_eq!(r.report().changes[0].keyword, "description");

    static TITLED: ToolDescriptor = ToolDescriptor::new("titled").title("Does things");
    let r = GeminiRenderer::new().render(&TITLED, LossPolicy::Refuse).unwrap();
    assert_eq!(r.to_value()["description"], "Does things");
    assert!(r.report().iter().all(|c| c.keyword != "title"));

    let weather =
        GeminiRenderer::new().render(&corpus_tool("get_weather"), LossPolicy::Refuse).unwrap();
    let omitted: Vec<&str> = weather
        .report()
        .iter()
        .filter(|c| c.kind == ChangeKind::Omitted)
        .map(|c| c.keyword.as_ref())
        .collect();
    assert_eq!(omitted, ["title", "annotations"]);
}

#[test]
fn names_follow_gemini_rules() {
    let bad =
        GeminiRenderer::new().render(&corpus_tool("http_get"), LossPolicy::Allow).unwrap_err();
    assert_eq!(bad.rule, RenderRule::Name);
    assert_eq!(bad.param, "x-request-id");

    static DIGIT: ToolDescriptor = ToolDescriptor::new("3d_render");
    let e = GeminiRenderer::new().render(&DIGIT, LossPolicy::Allow).unwrap_err();
    assert_eq!((e.rule, e.pointer.as_str()), (RenderRule::Name, "/name"));

    static NESTED: ToolDescriptor = ToolDescriptor::new("nested")
        .description("x")
        .params(const { &[Param::object("opts", const { &[Param::string("dry-run")] })] });
    let e = GeminiRenderer::openapi().render(&NESTED, LossPolicy::Allow).unwrap_err();
    assert_eq!(e.pointer, "/parameters/properties/opts/properties/dry-run");
    assert_eq!(e.param, "opts.dry-run");
    let e = GeminiRenderer::new().render(&NESTED, LossPolicy::Allow).unwrap_err();
    assert_eq!(e.pointer, "/parametersJsonSchema/properties/opts/properties/dry-run");
}

#[test]
fn tools_wrapper_of_a_set() {
    let tools: Vec<ToolDescriptor> = ["get_weather", "ping"].map(corpus_tool).to_vec();
    let refs: Vec<&ToolDescriptor> = tools.iter().collect();
    let rendered = GeminiRenderer::new().render_set(&refs, LossPolicy::Allow).unwrap();
    let wrapper: Value = serde_json::from_str(&tools_json(&rendered)).unwrap();
    assert_eq!(wrapper[0]["functionDeclarations"].as_array().unwrap().len(), 2);
    assert_conforms(
        "wrapper",
        gemini::validate_generate_content_fragment(&json!({"tools": wrapper})),
    );
    assert_eq!(tools_json([]), "[]");
}

/// A tool imported from an input schema, with an optional output schema.
fn imported(input: Value, output: Option<Schema>) -> ToolDescriptor {
    let mut tool = ToolDescriptor::new("imported").description("An imported tool.");
    import_input(&input).unwrap().value.apply_to(&mut tool);
    tool.output = output.map(SchemaRef::new);
    tool
}

/// The OpenAPI rendering of `tool` checked against both official specs and the `Schema` rules.
fn openapi_conforming(tool: &ToolDescriptor) -> Value {
    let decl = GeminiRenderer::openapi().render(tool, LossPolicy::Allow).unwrap().to_value();
    assert_conforms("FunctionDeclaration", gemini::validate_function_declaration(&decl));
    assert_conforms("FunctionDeclaration", vertex::validate_function_declaration(&decl));
    for key in ["parameters", "response"] {
        if let Some(schema) = decl.get(key) {
            assert_eq!(parameters_violations(schema), Vec::<String>::new(), "{key}");
        }
    }
    decl
}

#[test]
fn openapi_unions_are_any_of_single_type_schemas() {
    let tool = imported(
        json!({"type": "object", "properties": {
            "query": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
            "filter": {"anyOf": [
                {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]},
                {"type": "object", "properties": {"c": {"type": "boolean"}}},
            ]},
            "flag": {"type": ["boolean", "string"]},
        }, "required": ["query"]}),
        None,
    );
    let decl = openapi_conforming(&tool);
    let props = &decl["parameters"]["properties"];
    // The null variant is `nullable: true`; each variant keeps its one type.
    assert_eq!(
        props["query"],
        json!({"anyOf": [{"type": "STRING"}, {"type": "ARRAY", "items": {"type": "STRING"}}], "nullable": true})
    );
    // Objects of different shapes: each variant its own OBJECT, ordered.
    assert_eq!(
        props["filter"],
        json!({"anyOf": [
            {"type": "OBJECT", "properties": {"a": {"type": "STRING"}, "b": {"type": "INTEGER"}}, "required": ["a"], "propertyOrdering": ["a", "b"]},
            {"type": "OBJECT", "properties": {"c": {"type": "BOOLEAN"}}},
        ]})
    );
    assert_eq!(props["flag"], json!({"anyOf": [{"type": "BOOLEAN"}, {"type": "STRING"}]}));
    // Written as they are, so nothing to report, and the `Refuse` policy takes them.
    let r = GeminiRenderer::openapi().render(&tool, LossPolicy::Refuse).unwrap();
    assert!(r.report().is_empty(), "{:?}", r.report());
}

#[test]
fn openapi_refuses_an_input_that_accepts_any_value() {
    // An `anyOf` of every type would need an ARRAY whose `items` accept any value again, and
    // an OBJECT with no properties tells the model nothing: not the same contract.
    let tool = imported(json!({"type": "object", "properties": {"v": {}}}), None);
    let e = GeminiRenderer::openapi().render(&tool, LossPolicy::Allow).unwrap_err();
    assert_eq!((e.rule, e.pointer.as_str()), (RenderRule::Unsupported, "/parameters/properties/v"));
    let union = imported(
        json!({"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {}]}}}),
        None,
    );
    let e = GeminiRenderer::openapi().render(&union, LossPolicy::Allow).unwrap_err();
    assert_eq!(e.pointer, "/parameters/properties/v/anyOf/1");
    // The checker holds the same line: `type`, or `anyOf`, never neither.
    assert_ne!(parameters_violations(&json!({"description": "any"})), Vec::<String>::new());
    let union = json!({"anyOf": [{"type": "STRING"}, {"type": "INTEGER"}]});
    assert_eq!(parameters_violations(&union), Vec::<String>::new());
}

#[test]
fn an_output_schema_gemini_cannot_take_is_left_out_and_never_blocks_the_input() {
    let input =
        json!({"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]});
    let tool = imported(input.clone(), Some(Schema::any()));
    let r = GeminiRenderer::openapi();
    let lenient = r.render(&tool, LossPolicy::Allow).unwrap();
    let decl = openapi_conforming(&tool);
    assert_eq!(decl.get("response"), None);
    assert_eq!(decl["parameters"]["properties"]["q"], json!({"type": "STRING"}));
    let lossy: Vec<_> = lenient
        .report()
        .lossy()
        .map(|c| (c.pointer.as_str(), c.kind, c.keyword.as_ref()))
        .collect();
    assert_eq!(lossy, [("/response", ChangeKind::Dropped, "response")]);
    // The `Refuse` policy refuses it, naming the place.
    let e = r.render(&tool, LossPolicy::Refuse).unwrap_err();
    assert_eq!((e.rule, e.pointer.as_str()), (RenderRule::Lossy, "/response"));

    // A nested problem: the pointer is where it is, and nothing written half-way is reported.
    let nested = Schema::object_of(vec![
        Param::integer("ok").multiple_of(2),
        Param::new("data", Schema::any()),
    ]);
    let tool = imported(input, Some(nested));
    let lenient = r.render(&tool, LossPolicy::Allow).unwrap();
    assert_eq!(lenient.to_value().get("response"), None);
    let at: Vec<&str> = lenient
        .report()
        .iter()
        .filter(|c| c.pointer.as_str().starts_with("/response"))
        .map(|c| c.pointer.as_str())
        .collect();
    assert_eq!(at, ["/response/properties/data"]);
    // A response it can take is still sent.
    let fine = imported(json!({"type": "object"}), Some(Schema::string()));
    let fine = r.render(&fine, LossPolicy::Refuse).unwrap().to_value();
    assert_eq!(fine["response"], json!({"type": "STRING"}));
}

#[test]
fn identical_union_variants_are_found_among_twelve_thousand() {
    // Repeats are found through a hash of each variant; comparing every pair took 30 s at
    // this size in a release build.
    let variant = |i: usize| json!({"type": "object", "properties": {"k": {"const": format!("v{i}")}}, "required": ["k"]});
    let mut variants: Vec<Value> = (0..12_000).map(variant).collect();
    variants.push(variant(5));
    variants.push(variant(11_999));
    let tool = imported(
        json!({"type": "object", "properties": {"x": {"anyOf": variants}}, "required": ["x"]}),
        None,
    );
    let r = GeminiRenderer::openapi().render(&tool, LossPolicy::Refuse).unwrap();
    let decl = r.to_value();
    let written = decl["parameters"]["properties"]["x"]["anyOf"].as_array().unwrap();
    assert_eq!(written.len(), 12_000);
    let keys: Vec<&Value> = written.iter().map(|v| &v["properties"]["k"]["enum"][0]).collect();
    let expected: Vec<Value> = (0..12_000).map(|i| json!(format!("v{i}"))).collect();
    assert!(keys.iter().zip(&expected).all(|(a, b)| *a == b), "variants kept in order, once each");
    let details: Vec<String> = r.report().iter().map(|c| c.detail.to_string()).collect();
    assert_eq!(details, ["identical variants of the union written once"]);
}
