//! The way back over the writer's own output: each value-changing pass rendered and read back,
//! at the root and nested (objects, lists, unions, definitions), every result compared whole.

use serde_json::{Value, json};

use super::*;
use crate::json_schema::import_input;
use crate::render::{JsonWriter, LossPolicy, RenderCtx, SchemaOptions, write_input_schema};

/// OpenAI strict's switch for this pass, on plain JSON Schema.
const STRICT: SchemaOptions =
    SchemaOptions::JSON_SCHEMA.with(Pass::NullForAbsent).with(Pass::CloseObjects);

fn tool(schema: Value) -> ToolDescriptor {
    let mut d = ToolDescriptor::new("t");
    import_input(&schema).unwrap().value.apply_to(&mut d);
    d
}

fn render(tool: &ToolDescriptor, opts: &SchemaOptions) -> Rendered {
    let mut ctx = RenderCtx::new(tool, LossPolicy::Allow);
    let mut out = JsonWriter::new();
    write_input_schema(&mut out, tool, opts, &mut ctx, &crate::JsonPointer::root()).unwrap();
    ctx.finish(out)
}

fn back(r: &Rendered, args: &str) -> Arguments {
    r.restore(ToolCall::from_text("1", "t", args)).arguments
}

#[test]
fn a_null_for_absent_is_removed_at_every_depth_where_null_was_not_a_value() {
    let d = tool(json!({
        "type": "object",
        "properties": {
            "days": {"type": "integer", "default": 3},
            "note": {"type": ["string", "null"]},
            "filter": {"type": "object", "properties": {
                "limit": {"type": "integer"},
                "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}}
            }},
            "pick": {"anyOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                {"type": "object", "properties": {"b": {"type": "string"}, "c": {"type": "integer"}}, "required": ["b"]}
            ]}
        },
        "$defs": {"Tag": {"type": "object", "properties": {"name": {"type": "string"}, "weight": {"type": "number"}}, "required": ["name"]}}
    }));
    let r = render(&d, &STRICT);
    assert_eq!(r.passes().value_changing(), Passes::NONE.with(Pass::NullForAbsent));
    assert_eq!(
        back(
            &r,
            r#"{"days":null,"note":null,"filter":{"limit":null,"tags":[{"name":"x","weight":null}]},"pick":{"b":"y","c":null}}"#
        ),
        Arguments::Json(json!({
            "note": null,
            "filter": {"tags": [{"name": "x"}]},
            "pick": {"b": "y"}
        }))
    );
    // Only the root's nulls: given back on the text, which dispatch decodes straight away.
    let restored = back(&r, r#"{ "days" : null, "note":null,"filter":null , "pick":null}"#);
    assert_eq!(restored, Arguments::Text(r#"{"note":null}"#.into()));
    // What dispatch then receives is valid for the descriptor, defaults applied.
    let Arguments::Text(text) = restored else { panic!("text") };
    let mut args: Value = serde_json::from_str(&text).unwrap();
    crate::dispatch::check_args(&d, &args).unwrap();
    crate::dispatch::apply_defaults(&d, &mut args);
    assert_eq!(args, json!({"days": 3, "note": null}));
}

#[test]
fn the_roots_nulls_are_given_back_on_the_text() {
    let d = tool(json!({
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": ["string", "null"]},
            "c": {"type": "object", "properties": {"x": {"type": ["integer", "null"]}}},
            "l": {"type": "array", "items": {"type": ["integer", "null"]}},
            "a\"q": {"type": "integer"}
        }
    }));
    let r = render(&d, &STRICT);
    let cases = [
        // Left out: every member whose null stands for absent, commas and blanks as they fall.
        (r#"{"a":null,"b":null,"c":null,"l":null}"#, Arguments::Text(r#"{"b":null}"#.into())),
        (r#"{"b":"x", "a" : null}"#, Arguments::Text(r#"{"b":"x"}"#.into())),
        (r#"{"a":null}"#, Arguments::Text("{}".into())),
        // Nulls that keep their meaning, deeper down, stay: the text is unchanged.
        (
            r#"{"b":null,"c":{"x":null},"l":[null]}"#,
            Arguments::Text(r#"{"b":null,"c":{"x":null},"l":[null]}"#.into()),
        ),
        // An escaped key is the walker's to read.
        (r#"{"a\"q":null,"a":null}"#, Arguments::Json(json!({}))),
    ];
    for (sent, expected) in cases {
        assert_eq!(back(&r, sent), expected, "{sent}");
    }
}

#[test]
fn arguments_with_nothing_to_give_back_stay_text() {
    let d = tool(json!({"type": "object", "properties": {"days": {"type": "integer"}}}));
    let r = render(&d, &STRICT);
    assert_eq!(back(&r, r#"{"days":2}"#), Arguments::Text(r#"{"days":2}"#.into()));
    // Text that is not JSON is dispatch's to explain.
    assert_eq!(back(&r, r#"{"days":null"#), Arguments::Text(r#"{"days":null"#.into()));
    // Another tool's call is not this tool's to change.
    let other = ToolCall::from_text("1", "other", r#"{"days":null}"#);
    assert_eq!(r.restore(other.clone()), other);
}

#[test]
fn a_rendering_without_a_value_changing_pass_keeps_no_inverse() {
    let d = tool(json!({"type": "object", "properties": {"days": {"type": "integer"}}}));
    let r = render(&d, &SchemaOptions::JSON_SCHEMA);
    assert!(r.inverse().is_none());
    assert_eq!(back(&r, r#"{"days":null}"#), Arguments::Text(r#"{"days":null}"#.into()));
    // A strict rendering whose optional properties all take null keeps none either.
    let d = tool(json!({"type": "object", "properties": {"note": {"type": ["string", "null"]}}}));
    let r = render(&d, &STRICT);
    assert!(r.inverse().is_none());
    assert_eq!(r.passes(), Passes::NONE.with(Pass::CloseObjects));
}

#[test]
fn a_union_is_read_by_the_first_variant_the_value_fits_once_given_back() {
    let d = tool(json!({
        "type": "object",
        "properties": {
            "v": {"anyOf": [
                {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": false},
                {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}
            ]}
        },
        "required": ["v"]
    }));
    let r = render(&d, &STRICT);
    assert_eq!(back(&r, r#"{"v":{"a":null}}"#), Arguments::Json(json!({"v": {}})));
    assert_eq!(
        back(&r, r#"{"v":{"a":"x","b":null}}"#),
        Arguments::Json(json!({"v": {"a": "x", "b": null}}))
    );
}

#[test]
fn a_deep_or_wide_union_is_walked_in_bounded_time() {
    // Unions of unions of objects, four levels: the walk gives up after its budget of tries
    // and leaves the rest as it came.
    let mut schema = json!({"type": "object", "properties": {"x": {"type": "integer"}}});
    for _ in 0..4 {
        schema = json!({"anyOf": [schema.clone(), schema.clone(), schema.clone(), schema]});
    }
    let d = tool(json!({"type": "object", "properties": {"v": schema}, "required": ["v"]}));
    let r = render(&d, &STRICT);
    assert_eq!(back(&r, r#"{"v":{"x":null}}"#), Arguments::Json(json!({"v": {}})));
}

#[test]
fn passes_are_named_and_say_which_change_values() {
    let names: Vec<&str> = Pass::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(
        names,
        [
            "null-for-absent",
            "string-enums",
            "map-names",
            "enums-in-text",
            "one-of-as-any-of",
            "inline-refs",
            "wrap-ref-siblings",
            "map-values-in-text",
            "keywords-in-text",
            "kept-in-text",
            "clamp-min-items",
            "close-objects",
            "open-any-maps",
            "drop-never-variants"
        ]
    );
    let changing: Passes = Pass::ALL.into_iter().filter(|p| p.changes_values()).collect();
    assert_eq!(format!("{changing:?}"), r#"{"null-for-absent", "string-enums", "map-names"}"#);
    assert_eq!(Passes::NONE.with(Pass::InlineRefs).without(Pass::InlineRefs), Passes::NONE);
}

#[test]
fn options_are_composed_of_passes_and_say_which_they_run() {
    assert_eq!(SchemaOptions::JSON_SCHEMA.passes(), Passes::NONE);
    for pass in Pass::ALL {
        let with = SchemaOptions::JSON_SCHEMA.with(pass);
        let runs = !matches!(
            pass,
            Pass::KeywordsInText | Pass::MapNames | Pass::OpenAnyMaps | Pass::DropNeverVariants
        );
        assert_eq!(with.passes().contains(pass), runs, "{pass}");
    }
    // String enums bring their fallback with them.
    assert_eq!(
        SchemaOptions::JSON_SCHEMA.with(Pass::StringEnums).passes,
        Passes::NONE.with(Pass::StringEnums).with(Pass::EnumsInText)
    );
    // OpenAI strict, as its renderer composes it.
    let strict = SchemaOptions::JSON_SCHEMA
        .with(Pass::CloseObjects)
        .with(Pass::OneOfAsAnyOf)
        .with(Pass::KeptInText)
        .with(Pass::WrapRefSiblings)
        .with(Pass::NullForAbsent);
    assert_eq!(
        strict,
        SchemaOptions {
            passes: [
                Pass::NullForAbsent,
                Pass::OneOfAsAnyOf,
                Pass::WrapRefSiblings,
                Pass::KeptInText,
                Pass::CloseObjects
            ]
            .into_iter()
            .collect(),
            ..SchemaOptions::JSON_SCHEMA
        }
    );
    assert_eq!(
        format!("{:?}", strict.passes()),
        r#"{"null-for-absent", "one-of-as-any-of", "wrap-ref-siblings", "kept-in-text", "close-objects"}"#
    );
    assert_eq!(SchemaOptions::JSON_SCHEMA.with_passes(strict.passes()), strict);
}
