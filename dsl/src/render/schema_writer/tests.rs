//! Unit tests of the writer: exact output and reports under a few dialects.

use super::plan::float_text;
use super::*;
use crate::descriptor::{Param, ToolDescriptor};
use crate::render::report::ChangeKind;
use crate::render::schema_options::{Keyword, Keywords, NullStyle};
use crate::render::{LossPolicy, Pass, Passes, Rendered};

#[test]
fn floats_are_written_as_serde_json_writes_them() {
    for f in [1.0, 0.5, -3.25, 1e20, 1.5e-7, f64::MAX] {
        assert_eq!(float_text(f), serde_json::to_string(&f).unwrap());
    }
    assert_eq!(float_text(f64::NAN), "null");
}

#[test]
fn reference_targets_are_escaped() {
    assert_eq!(ref_target("#/$defs/", "Node"), "#/$defs/Node");
    assert_eq!(ref_target("#/$defs/", "a/b~c d"), "#/$defs/a~1b~0c%20d");
    assert_eq!(ref_target("#/$defs/", "é"), "#/$defs/%C3%A9");
}

#[test]
fn lookaround_is_detected() {
    assert!(has_lookaround("^(?=.*\\d).+$"));
    assert!(has_lookaround("(?<!x)y"));
    assert!(has_lookaround("(a)\\1"));
    assert!(!has_lookaround("^[a-z]+(?:-[a-z]+)*$"));
    assert!(!has_lookaround("\\d{3}"));
}

static WEATHER: ToolDescriptor =
    ToolDescriptor::new("get_weather").description("Get the weather.").params(
        const {
            &[
                Param::string("city"),
                Param::integer("days").description("Number of days").range(1, 10).default_int(3),
                Param::enumeration("unit", &["c", "f"]).nullable().optional(),
            ]
        },
    );

fn render(tool: &ToolDescriptor, opts: &SchemaOptions, policy: LossPolicy) -> Rendered {
    let mut ctx = RenderCtx::new(tool, policy);
    let mut out = JsonWriter::new();
    write_input_schema(&mut out, tool, opts, &mut ctx, &JsonPointer::root()).unwrap();
    ctx.finish(out)
}

#[test]
fn plain_json_schema_keeps_everything() {
    let r = render(&WEATHER, &SchemaOptions::JSON_SCHEMA, LossPolicy::Refuse);
    assert_eq!(
        r.json(),
        r#"{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","description":"Number of days","minimum":1,"maximum":10,"default":3},"unit":{"type":["string","null"],"enum":["c","f",null]}},"required":["city"],"additionalProperties":false}"#
    );
    assert!(r.report().is_empty());
}

#[test]
fn strict_lowering_moves_defaults_and_bounds_and_reports_them() {
    let opts = SchemaOptions {
        keywords: Keywords::ALL
            .without(Keyword::Default)
            .without(Keyword::Minimum)
            .without(Keyword::Maximum),
        null_style: NullStyle::AnyOf,
        ..SchemaOptions::JSON_SCHEMA
    }
    .with(Pass::NullForAbsent)
    .with(Pass::CloseObjects);
    let r = render(&WEATHER, &opts, LossPolicy::Refuse);
    assert_eq!(
        r.json(),
        r#"{"type":"object","properties":{"city":{"type":"string"},"days":{"anyOf":[{"type":"integer"},{"type":"null"}],"description":"Number of days. Default: 3. Minimum: 1. Maximum: 10."},"unit":{"anyOf":[{"type":"string","enum":["c","f"]},{"type":"null"}]}},"required":["city","days","unit"],"additionalProperties":false}"#
    );
    let kinds: Vec<_> = r.report().iter().map(|c| (c.param.as_str(), c.keyword.as_ref())).collect();
    assert_eq!(
        kinds,
        [
            ("days", "required"),
            ("days", "default"),
            ("days", "minimum"),
            ("days", "maximum"),
            ("unit", "required")
        ]
    );
    assert_eq!(r.report().changes[1].pointer, "/properties/days");
    assert!(r.report().is_lossless());
}

fn imported(schema: serde_json::Value) -> ToolDescriptor {
    let mut d = ToolDescriptor::new("imported");
    crate::json_schema::import_input(&schema).unwrap().value.apply_to(&mut d);
    d
}

fn try_render(
    tool: &ToolDescriptor,
    opts: &SchemaOptions,
    policy: LossPolicy,
) -> Result<Rendered, RenderError> {
    let mut ctx = RenderCtx::new(tool, policy);
    let mut out = JsonWriter::new();
    write_input_schema(&mut out, tool, opts, &mut ctx, &JsonPointer::root())?;
    Ok(ctx.finish(out))
}

const STRICT: SchemaOptions = SchemaOptions::JSON_SCHEMA
    .with(Pass::CloseObjects)
    .with(Pass::OneOfAsAnyOf)
    .with(Pass::KeptInText);

#[test]
fn strict_closes_an_unstated_object_without_loss_and_refuses_to_close_a_stated_open_one() {
    let unstated = imported(serde_json::json!({
        "type": "object",
        "properties": {"tags": {"type": "object", "properties": {"a": {"type": "string"}}}}
    }));
    let plain = render(&unstated, &SchemaOptions::JSON_SCHEMA, LossPolicy::Refuse);
    assert_eq!(
        plain.json(),
        r#"{"type":"object","properties":{"tags":{"type":"object","properties":{"a":{"type":"string"}}}}}"#
    );
    let strict = render(&unstated, &STRICT, LossPolicy::Refuse);
    assert_eq!(
        strict.json(),
        r#"{"type":"object","properties":{"tags":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}},"additionalProperties":false}"#
    );
    let changes: Vec<_> =
        strict.report().iter().map(|c| (c.pointer.as_str(), c.kind, c.lossy)).collect();
    assert_eq!(
        changes,
        [
            ("/properties/tags/additionalProperties", ChangeKind::Closed, false),
            ("/additionalProperties", ChangeKind::Closed, false),
        ]
    );
    let open = imported(serde_json::json!({"type": "object", "additionalProperties": true}));
    let e = try_render(&open, &STRICT, LossPolicy::Refuse).unwrap_err();
    assert_eq!(e.pointer, "/additionalProperties");
    assert!(try_render(&open, &STRICT, LossPolicy::Allow).unwrap().report().changes[0].lossy);
}

#[test]
fn a_closed_object_is_reported_where_additional_properties_cannot_be_written() {
    let closed = imported(serde_json::json!({
        "type": "object",
        "properties": {"tags": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}},
        "additionalProperties": false
    }));
    let opts = SchemaOptions::JSON_SCHEMA.with(Pass::MapValuesInText);
    let r = render(&closed, &opts, LossPolicy::Refuse);
    assert_eq!(
        r.json(),
        r#"{"type":"object","properties":{"tags":{"type":"object","properties":{"a":{"type":"string"}}}}}"#
    );
    let changes: Vec<_> = r
        .report()
        .iter()
        .map(|c| (c.pointer.as_str(), c.param.as_str(), c.kind, c.keyword.as_ref(), c.lossy))
        .collect();
    assert_eq!(
        changes,
        [
            (
                "/properties/tags/additionalProperties",
                "tags",
                ChangeKind::Dropped,
                "additionalProperties",
                false
            ),
            ("/additionalProperties", "", ChangeKind::Dropped, "additionalProperties", false),
        ]
    );
    // An object that states nothing loses nothing.
    let unstated = imported(serde_json::json!({"type": "object", "properties": {"a": {}}}));
    assert!(render(&unstated, &opts, LossPolicy::Refuse).report().is_empty());
}

#[test]
fn kept_keywords_are_verbatim_for_json_schema_and_a_lossy_description_elsewhere() {
    let tool = imported(serde_json::json!({
        "type": "object",
        "properties": {"n": {"type": "integer", "not": {"const": 3}}},
        "additionalProperties": false
    }));
    let plain = render(&tool, &SchemaOptions::JSON_SCHEMA, LossPolicy::Refuse);
    assert_eq!(
        plain.json(),
        r#"{"type":"object","properties":{"n":{"type":"integer","not":{"const":3}}},"additionalProperties":false}"#
    );
    assert!(plain.report().is_empty());
    let lowered = render(&tool, &STRICT, LossPolicy::Allow);
    assert_eq!(
        lowered.json(),
        r#"{"type":"object","properties":{"n":{"type":"integer","description":"not: {\"const\":3}."}},"additionalProperties":false}"#
    );
    let e = try_render(&tool, &STRICT, LossPolicy::Refuse).unwrap_err();
    assert_eq!((e.pointer.as_str(), e.param.as_str()), ("/properties/n", "n"));
}

#[test]
fn an_overlapping_one_of_is_kept_and_lowered_to_any_of_with_a_lossy_report() {
    let tool = imported(serde_json::json!({
        "type": "object",
        "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}},
        "additionalProperties": false
    }));
    let plain = render(&tool, &SchemaOptions::JSON_SCHEMA, LossPolicy::Refuse);
    assert_eq!(
        plain.json(),
        r#"{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"string","maxLength":3}]}},"additionalProperties":false}"#
    );
    let lowered = render(&tool, &STRICT, LossPolicy::Allow);
    assert!(lowered.json().contains(r#""anyOf":[{"type":"string"}"#), "{}", lowered.json());
    assert!(!lowered.report().is_lossless());
    // Disjoint variants mean the same as `anyOf`: no report.
    let disjoint = imported(serde_json::json!({
        "type": "object",
        "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
        "additionalProperties": false
    }));
    assert!(render(&disjoint, &STRICT, LossPolicy::Refuse).report().is_empty());
}

fn scalar_enums() -> ToolDescriptor {
    imported(serde_json::json!({"type": "object", "properties": {
        "i": {"type": "integer", "enum": [1, 2]},
        "m": {"type": ["string", "integer", "null"], "enum": ["a", 1, null]},
        "s": {"type": "string", "enum": ["x"]}
    }}))
}

#[test]
fn scalar_enums_are_written_verbatim_where_the_dialect_takes_them() {
    let r = render(&scalar_enums(), &SchemaOptions::JSON_SCHEMA, LossPolicy::Refuse);
    assert_eq!(
        r.json(),
        r#"{"type":"object","properties":{"i":{"type":"integer","enum":[1,2]},"m":{"type":["string","integer","null"],"enum":["a",1,null]},"s":{"type":"string","enum":["x"]}}}"#
    );
    assert!(r.report().is_empty());
    // Without type arrays a mixed enum has no `type`; null is a variant of its own.
    let opts = SchemaOptions { null_style: NullStyle::AnyOf, ..SchemaOptions::JSON_SCHEMA };
    let r = render(&scalar_enums(), &opts, LossPolicy::Refuse);
    assert!(
        r.json().contains(r#""m":{"anyOf":[{"enum":["a",1]},{"type":"null"}]}"#),
        "{}",
        r.json()
    );
    let changes: Vec<_> =
        r.report().iter().map(|c| (c.param.as_str(), c.keyword.as_ref(), c.lossy)).collect();
    assert_eq!(changes, [("m", "type", false)]);
}

#[test]
fn string_only_dialects_are_sent_the_values_as_strings_and_get_them_back_typed() {
    let opts = SchemaOptions { null_style: NullStyle::OpenApi, ..SchemaOptions::JSON_SCHEMA }
        .with(Pass::StringEnums);
    let tool = scalar_enums();
    let r = render(&tool, &opts, LossPolicy::Refuse);
    assert_eq!(
        r.json(),
        r#"{"type":"object","properties":{"i":{"type":"string","enum":["1","2"]},"m":{"type":"string","nullable":true,"enum":["a","1"]},"s":{"type":"string","enum":["x"]}}}"#
    );
    let changes: Vec<String> = r.report().iter().map(ToString::to_string).collect();
    let said = "values sent as strings: the provider takes enums of strings only; the way back gives each string back as the value it stands for";
    assert_eq!(
        changes,
        [
            format!("tool `imported`, parameter `i` at /properties/i: {said}"),
            format!("tool `imported`, parameter `m` at /properties/m: {said}")
        ]
    );
    assert_eq!(r.passes(), Passes::NONE.with(Pass::StringEnums));
    let call =
        crate::ToolCall::new("1", "imported", serde_json::json!({"i": "2", "m": "1", "s": "x"}));
    assert_eq!(
        r.restore(call).arguments,
        crate::Arguments::Json(serde_json::json!({"i": 2, "m": 1, "s": "x"}))
    );
    // A string the enum takes as it is stays a string.
    let call = crate::ToolCall::new("1", "imported", serde_json::json!({"m": "a"}));
    assert_eq!(r.restore(call).arguments, crate::Arguments::Json(serde_json::json!({"m": "a"})));
}

#[test]
fn an_enum_whose_strings_would_collide_gets_its_values_in_the_description_as_a_lossy_change() {
    let opts = SchemaOptions { null_style: NullStyle::OpenApi, ..SchemaOptions::JSON_SCHEMA }
        .with(Pass::StringEnums);
    let tool = imported(serde_json::json!({"type": "object", "properties": {
        "c": {"enum": ["1", 1]}
    }}));
    let r = render(&tool, &opts, LossPolicy::Allow);
    assert_eq!(
        r.json(),
        r#"{"type":"object","properties":{"c":{"type":"string","description":"Values: 1; 1."}}}"#
    );
    let lossy: Vec<_> = r
        .report()
        .iter()
        .filter(|c| c.lossy)
        .map(|c| (c.param.as_str(), c.keyword.as_ref()))
        .collect();
    assert_eq!(lossy, [("c", "enum")]);
    assert_eq!(r.passes(), Passes::NONE.with(Pass::EnumsInText));
    assert!(r.inverse().is_none());
    let e = try_render(&tool, &opts, LossPolicy::Refuse).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tool `imported`, parameter `c` at /properties/c: values written into the description: the provider takes enums of strings only; this loses meaning and the policy is strict"
    );
}

/// Definitions at scale: each must be found by name and checked for recursion once, not once
/// per reference (20,000 definitions used to cost seconds).
mod many_definitions {
    use super::*;
    use crate::schema::Definition;

    const N: usize = 20_000;

    /// `d0 -> d1 -> ... -> d{N-1}`, each an object whose `next` refers to the following one;
    /// the last one refers to `d{back}` when given, and is a string otherwise.
    fn chain(back: Option<usize>) -> ToolDescriptor {
        let next = |target: usize| {
            Schema::object_of(vec![Param::named(
                "next",
                Schema::reference_to(format!("d{target}")),
            )])
        };
        let mut definitions: Vec<Definition> =
            (0..N - 1).map(|i| Definition::named(format!("d{i}"), next(i + 1))).collect();
        let last = back.map_or_else(Schema::string, next);
        definitions.push(Definition::named(format!("d{}", N - 1), last));
        let mut tool = ToolDescriptor::new("chain");
        tool.definitions = definitions.into();
        tool.params = vec![Param::named("head", Schema::reference_to("d0"))].into();
        tool
    }

    const NO_RECURSION: SchemaOptions =
        SchemaOptions { recursion: false, ..SchemaOptions::JSON_SCHEMA };

    /// The rendered schema, parsed, with its `$defs` checked to hold `d0` to `d{N-1}`, each once.
    fn parsed_with_every_definition(r: &Rendered) -> serde_json::Value {
        let v: serde_json::Value = serde_json::from_str(r.json()).unwrap();
        let mut names: Vec<&str> =
            v["$defs"].as_object().unwrap().keys().map(String::as_str).collect();
        let want: Vec<String> = (0..N).map(|i| format!("d{i}")).collect();
        let mut want: Vec<&str> = want.iter().map(String::as_str).collect();
        names.sort_unstable();
        want.sort_unstable();
        assert_eq!(names, want);
        assert_eq!(v["properties"]["head"], serde_json::json!({"$ref": "#/$defs/d0"}));
        v
    }

    #[test]
    fn a_chain_of_twenty_thousand_definitions_is_written_once_each_and_every_ref_resolves() {
        let tool = chain(None);
        let r = render(&tool, &SchemaOptions::JSON_SCHEMA, LossPolicy::Refuse);
        let v = parsed_with_every_definition(&r);
        for i in 0..N - 1 {
            let want = format!("#/$defs/d{}", i + 1);
            assert_eq!(v["$defs"][format!("d{i}")]["properties"]["next"]["$ref"], *want);
        }
        assert_eq!(v["$defs"][format!("d{}", N - 1)], serde_json::json!({"type": "string"}));
        assert!(r.report().is_empty());
        // Nothing in a chain refers to itself: a provider without recursion takes it as it is.
        assert_eq!(render(&tool, &NO_RECURSION, LossPolicy::Refuse).json(), r.json());
        // Inlined, the chain nests deeper than any provider takes.
        let inline = SchemaOptions { refs: RefStyle::Inline, ..NO_RECURSION };
        let e = try_render(&tool, &inline, LossPolicy::Allow).unwrap_err();
        // Each level is a reference and an object: the guard of 128 stops at level 64.
        let deepest = format!("head{}", ".next".repeat(64));
        assert_eq!((e.rule, e.param.as_str()), (RenderRule::Limit, deepest.as_str()));
        assert!(e.message.ends_with(": schemas nest too deeply to render"), "{e}");
    }

    #[test]
    fn a_cycle_through_twenty_thousand_definitions_is_written_where_recursion_is_allowed() {
        let tool = chain(Some(0));
        let r = render(&tool, &SchemaOptions::JSON_SCHEMA, LossPolicy::Refuse);
        let v = parsed_with_every_definition(&r);
        assert_eq!(v["$defs"][format!("d{}", N - 1)]["properties"]["next"]["$ref"], "#/$defs/d0");
        assert!(r.report().is_empty());
        // Refused at the first reference into the cycle: the parameter's own.
        let e = try_render(&tool, &NO_RECURSION, LossPolicy::Allow).unwrap_err();
        assert_eq!(
            (e.rule, e.pointer.as_str(), e.param.as_str(), e.message.as_str()),
            (
                RenderRule::Recursion,
                "/properties/head",
                "head",
                "tool `chain`, parameter `head` at /properties/head: definition `d0` refers to \
                 itself, and this provider does not accept recursive schemas"
            )
        );
    }

    #[test]
    fn only_the_definitions_on_a_cycle_are_recursive_not_the_chain_that_leads_into_it() {
        // d0 -> ... -> d{N-10} -> ... -> d{N-1} -> d{N-10}: the last ten form the cycle.
        let tool = chain(Some(N - 10));
        let e = try_render(&tool, &NO_RECURSION, LossPolicy::Allow).unwrap_err();
        // Every definition before the cycle is written; the reference into it is refused.
        let writing = format!("d{}", N - 11);
        assert_eq!(
            (e.rule, e.pointer.to_string(), e.param, e.message),
            (
                RenderRule::Recursion,
                format!("/$defs/{writing}/properties/next"),
                format!("$defs.{writing}.next"),
                format!(
                    "tool `chain`, parameter `$defs.{writing}.next` at \
                     /$defs/{writing}/properties/next: definition `d{}` refers to itself, and \
                     this provider does not accept recursive schemas",
                    N - 10
                )
            )
        );
    }
}
