use serde_json::{Value, json};

use super::*;
use crate::json_schema::import_input;
use crate::render::{JsonWriter, LossPolicy, Rendered, write_input_schema};
use crate::schema::Schema;
use crate::tool::{Arguments, ToolCall};
use crate::{Param, ToolDescriptor};

fn tool(schema: Value) -> ToolDescriptor {
    let mut d = ToolDescriptor::new("t");
    import_input(&schema).unwrap().value.apply_to(&mut d);
    d
}

/// What a renderer over plain JSON Schema does with a model: prepare, then write.
fn render(model: ModelChoice, tool: &ToolDescriptor) -> Rendered {
    let mut ctx = RenderCtx::new(tool, LossPolicy::Allow);
    let tool = model.prepare(tool, &mut ctx, &JsonPointer::root(), false).unwrap();
    let opts = model.schema_options(SchemaOptions::JSON_SCHEMA);
    let mut out = JsonWriter::new();
    write_input_schema(&mut out, &tool, &opts, &mut ctx, &JsonPointer::root()).unwrap();
    ctx.finish(out)
}

fn report(r: &Rendered) -> Vec<String> {
    r.report().iter().map(ToString::to_string).collect()
}

fn family(id: &str) -> Option<&'static str> {
    ModelChoice::for_id(id).profile().map(ModelProfile::family)
}

#[test]
fn the_longest_prefix_of_the_ids_last_segment_chooses_the_profile() {
    let ids = [
        ("qwen-max", Some("qwen")),
        ("Qwen/Qwen2.5-72B-Instruct", Some("qwen")),
        ("qwen3-coder-480b", Some("qwen3-coder")),
        ("openrouter/qwen/qwen-3-coder", Some("qwen3-coder")),
        ("kimi-k2-0905-preview", Some("kimi")),
        ("moonshotai/Kimi-K2-Instruct", Some("kimi")),
        ("moonshot-v1-8k", Some("kimi")),
        ("deepseek-chat", Some("deepseek")),
        ("deepseek-reasoner", Some("deepseek-reasoner")),
        ("deepseek-ai/DeepSeek-R1-0528", Some("deepseek-reasoner")),
        ("glm-4.6", Some("glm")),
        ("MiniMax-M2", Some("minimax")),
        ("meta-llama/Llama-3.3-70B-Instruct", Some("llama")),
        ("llama3.1:8b", Some("llama")),
        ("models/gemini-2.0-flash", Some("gemini-2.0")),
        ("gemini-2.5-pro", Some("gemini-2.5")),
        ("gemini-3-pro-preview", Some("gemini-3")),
        ("gemini-exp-1206", Some("gemini")),
        ("gemma3:27b", Some("gemini")),
        ("o3-mini", Some("openai-reasoning")),
        ("openai/o4-mini", Some("openai-reasoning")),
        ("gpt-4.1", None),
        ("", None),
    ];
    let got: Vec<_> = ids.iter().map(|(id, _)| (*id, family(id))).collect();
    assert_eq!(got, ids);
    assert_eq!(ModelChoice::for_id("gpt-4.1"), ModelChoice::Unknown);
    assert_eq!(ModelChoice::default(), ModelChoice::WireApi);
}

#[test]
fn every_profile_says_what_it_changes_and_where_the_rule_comes_from() {
    for p in ModelProfile::ALL {
        assert!(!p.changes().is_empty() && !p.source().is_empty(), "{}", p.family());
        assert!(p.prefixes().iter().all(|x| *x == x.to_ascii_lowercase()), "{}", p.family());
        // Each family is chosen by its own name's prefix, so the table cannot hide a row.
        assert_eq!(family(p.prefixes()[0]), Some(p.family()));
    }
}

static ANY: Schema = Schema::any();
static KIMI_PARAMS: [Param; 2] = [
    Param::new("meta", Schema::map(&ANY)).optional(),
    Param::new("tags", Schema::map(&ANY).description("Labels.")).optional(),
];

#[test]
fn kimi_gets_no_empty_schema_for_map_values_and_no_variant_that_accepts_nothing() {
    // zod's optional field, as `zod-to-json-schema` writes it in a union.
    let d = tool(json!({"type": "object", "properties": {
        "q": {"anyOf": [{"not": {}}, {"type": "string"}], "description": "Query."},
        "n": {"anyOf": [{"not": {}}, {"type": "integer"}, {"type": "string"}]}
    }, "required": ["q"]}));
    let kimi = ModelChoice::for_id("kimi-k2");
    let r = render(kimi, &d);
    assert_eq!(
        r.json(),
        r#"{"type":"object","properties":{"n":{"anyOf":[{"type":"integer"},{"type":"string"}]},"q":{"type":"string","description":"Query."}},"required":["q"]}"#
    );
    assert_eq!(
        report(&r),
        [
            "tool `t`, parameter `n` at /properties/n: 1 `anyOf` variant(s) that accept no value (`{\"not\": {}}`) left out: the model refuses them",
            "tool `t`, parameter `q` at /properties/q: 1 `anyOf` variant(s) that accept no value (`{\"not\": {}}`) left out: the model refuses them",
        ]
    );
    assert_eq!(r.passes(), Passes::NONE.with(Pass::DropNeverVariants));
    assert!(r.report().is_lossless());

    let maps = ToolDescriptor::new("t").params(&KIMI_PARAMS);
    let plain = render(ModelChoice::WireApi, &maps);
    assert_eq!(
        plain.json(),
        r#"{"type":"object","properties":{"meta":{"type":"object","properties":{},"additionalProperties":{}},"tags":{"type":"object","description":"Labels.","properties":{},"additionalProperties":{}}},"additionalProperties":false}"#
    );
    let r = render(kimi, &maps);
    assert_eq!(
        r.json(),
        r#"{"type":"object","properties":{"meta":{"type":"object","properties":{},"additionalProperties":true},"tags":{"type":"object","description":"Labels.","properties":{},"additionalProperties":true}},"additionalProperties":false}"#
    );
    assert_eq!(
        report(&r),
        [
            "tool `t`, parameter `meta` at /properties/meta/additionalProperties: a map of any value written as `additionalProperties: true`: the model refuses `{}` there",
            "tool `t`, parameter `tags` at /properties/tags/additionalProperties: a map of any value written as `additionalProperties: true`: the model refuses `{}` there",
        ]
    );
}

#[test]
fn kimi_refuses_a_tool_name_starting_with_a_digit_and_strict_mode() {
    let d = ToolDescriptor::new("21st_magic");
    let mut ctx = RenderCtx::new(&d, LossPolicy::Allow);
    let kimi = ModelChoice::for_id("kimi-k2");
    let err = kimi.prepare(&d, &mut ctx, &JsonPointer::root(), false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "tool `21st_magic` at /name: the name starts with '2', which ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$ does not allow"
    );
    let d = ToolDescriptor::new("magic");
    let mut ctx = RenderCtx::new(&d, LossPolicy::Refuse);
    let err = kimi.prepare(&d, &mut ctx, &JsonPointer::root(), true).unwrap_err();
    assert_eq!(
        err.to_string(),
        "tool `magic`: strict mode off: the kimi models take no strict tool definitions; this loses meaning and the policy is strict"
    );
}

#[test]
fn an_unknown_model_keeps_the_wire_apis_defaults_and_says_so() {
    let d =
        tool(json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}}));
    let r = render(ModelChoice::for_id("my-model"), &d);
    assert_eq!(r.json(), render(ModelChoice::WireApi, &d).json());
    assert_eq!(
        report(&r),
        ["tool `t`: no model profile matches the model id: the wire API's defaults apply"]
    );
}

#[test]
fn google_and_llama_constraints_go_into_descriptions_and_dispatch_still_checks_them() {
    let d = tool(json!({"type": "object", "properties": {
        "code": {"type": "string", "pattern": "^[A-Z]{3}$", "description": "Airport."},
        "n": {"type": "integer", "minimum": 1},
        "ids": {"type": "array", "items": {"type": "string"}, "maxItems": 3}
    }, "required": ["code"]}));
    let gemini = render(ModelChoice::for_id("gemini-2.5-flash"), &d);
    assert_eq!(
        gemini.json(),
        r#"{"type":"object","properties":{"code":{"type":"string","description":"Airport. Pattern: ^[A-Z]{3}$."},"ids":{"type":"array","items":{"type":"string"},"maxItems":3},"n":{"type":"integer","description":"Minimum: 1."}},"required":["code"]}"#
    );
    assert!(gemini.report().is_lossless());
    assert_eq!(gemini.passes(), Passes::NONE.with(Pass::KeywordsInText));
    let llama = render(ModelChoice::for_id("llama3.3"), &d);
    assert_eq!(
        llama.json(),
        r#"{"type":"object","properties":{"code":{"type":"string","description":"Airport. Pattern: ^[A-Z]{3}$."},"ids":{"type":"array","description":"Maximum items: 3.","items":{"type":"string"}},"n":{"type":"integer","description":"Minimum: 1."}},"required":["code"]}"#
    );
}

#[test]
fn openai_reasoning_models_send_null_for_absent_and_get_it_back_as_absent() {
    let d = tool(json!({"type": "object", "properties": {
        "city": {"type": "string"},
        "days": {"type": "integer", "default": 3}
    }, "required": ["city"]}));
    let r = render(ModelChoice::for_id("o3"), &d);
    assert_eq!(
        r.json(),
        r#"{"type":"object","properties":{"city":{"type":"string"},"days":{"type":["integer","null"],"default":3}},"required":["city","days"]}"#
    );
    let call = ToolCall::from_text("1", "t", r#"{"city":"Paris","days":null}"#);
    assert_eq!(r.restore(call).arguments, Arguments::Text(r#"{"city":"Paris"}"#.to_owned()));
}

#[test]
fn qwen_inlines_definitions_and_the_way_back_is_the_same_value() {
    let d = tool(json!({"type": "object", "properties": {"to": {"$ref": "#/$defs/Addr"}},
        "required": ["to"],
        "$defs": {"Addr": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}));
    let r = render(ModelChoice::for_id("qwen-plus"), &d);
    assert_eq!(
        r.json(),
        r#"{"type":"object","properties":{"to":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}},"required":["to"]}"#
    );
    assert_eq!(r.passes(), Passes::NONE.with(Pass::InlineRefs));
    let call = ToolCall::from_text("1", "t", r#"{"to":{"city":"Oslo"}}"#);
    assert_eq!(r.restore(call.clone()), call);
}

/// The profile table of the guide (`guide/models.md`), one row per profile.
fn table() -> String {
    let mut out = String::from(
        "| family | model ids starting with | what changes | strict tool definitions | source |\n| --- | --- | --- | --- | --- |\n",
    );
    for p in ModelProfile::ALL {
        let ids: Vec<String> = p.prefixes().iter().map(|x| format!("`{x}`")).collect();
        let strict = if p.strict_tools() { "as the wire API" } else { "no (turned off, reported)" };
        let passes: Vec<String> = p.passes().iter().map(|x| format!("`{x}`")).collect();
        let passes = if passes.is_empty() {
            String::new()
        } else {
            format!(" (passes: {})", passes.join(", "))
        };
        out.push_str(&format!(
            "| {} | {} | {}{passes} | {strict} | {} |\n",
            p.family(),
            ids.join(", "),
            p.changes().replace('|', "\\|"),
            p.source().replace('|', "\\|"),
        ));
    }
    out
}

#[test]
fn the_guides_table_is_the_profile_table() {
    const MD: &str = include_str!("../../guide/models.md");
    let (head, rest) = MD.split_once("<!-- table -->\n").expect("the table's start marker");
    let (_, tail) = rest.split_once("<!-- /table -->").expect("the table's end marker");
    let expected = format!("{head}<!-- table -->\n{}<!-- /table -->{tail}", table());
    if std::env::var_os("TOOLDEF_WRITE_MODELS_TABLE").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/guide/models.md");
        std::fs::write(path, &expected).expect("the guide's models.md is writable");
        return;
    }
    assert_eq!(
        MD, expected,
        "rewrite with TOOLDEF_WRITE_MODELS_TABLE=1 cargo test -p tooldef --lib render::models"
    );
}
