//! Hostile specs and arguments: each ends in bounded time with an error naming the file and the
//! JSON pointer (or the argument), or with the right result.

use serde_json::{Value, json};
use tooldef::dispatch::DynamicTool;
use tooldef::json_text::{MAX_DEPTH, dismantle};
use tooldef::{Arguments, Param, ToolDescriptor, parse_spec};

fn spec_error(spec: &Value) -> String {
    parse_spec("t.json", &spec.to_string(), None).unwrap_err().to_string()
}

fn with_property(schema: Value) -> Value {
    json!({"name": "t", "input_schema": {"type": "object", "properties": {"x": schema}}})
}

fn echo(d: ToolDescriptor) -> DynamicTool {
    DynamicTool::new_sync(d, Ok)
}

fn spec_tool(spec: &Value) -> DynamicTool {
    echo(parse_spec("t.json", &spec.to_string(), None).unwrap().descriptor)
}

// --- import stays linear -------------------------------------------------------------------

#[test]
fn a_hundred_thousand_enum_values_import() {
    let values: Vec<String> = (0..100_000).map(|i| format!("v{i}")).collect();
    let spec = with_property(json!({"type": "string", "enum": values}));
    let d = parse_spec("t.json", &spec.to_string(), None).unwrap().descriptor;
    let tooldef::SchemaKind::Enum(e) = &d.param("x").unwrap().schema.kind else { panic!() };
    assert_eq!(e.values.len(), 100_000);
    let tool = echo(d);
    assert!(tool.prepare(&Arguments::Json(json!({"x": "v99999"}))).is_ok());
    assert!(tool.prepare(&Arguments::Json(json!({"x": "w"}))).is_err());
}

#[test]
fn forty_thousand_required_properties_import() {
    let props: serde_json::Map<String, Value> =
        (0..40_000).map(|i| (format!("p{i}"), json!({"type": "string"}))).collect();
    let required: Vec<String> = (0..40_000).map(|i| format!("p{i}")).collect();
    let spec = json!({"name": "t", "input_schema": {
        "type": "object", "properties": props, "required": required}});
    let d = parse_spec("t.json", &spec.to_string(), None).unwrap().descriptor;
    assert_eq!(d.params.len(), 40_000);
    assert!(d.params.iter().all(|p| p.required));
}

#[test]
fn twenty_thousand_definitions_each_referenced_once_import_and_dispatch() {
    // Definitions are looked up by name through an index once there are many: each reference
    // still finds its own definition, and the first of a name wins as in a scan.
    let n = 20_000;
    let props: serde_json::Map<String, Value> =
        (0..n).map(|i| (format!("p{i}"), json!({"$ref": format!("#/$defs/d{i}")}))).collect();
    let defs: serde_json::Map<String, Value> = (0..n)
        .map(|i| {
            let schema =
                if i % 2 == 0 { json!({"type": "string"}) } else { json!({"type": "integer"}) };
            (format!("d{i}"), schema)
        })
        .collect();
    let spec = json!({"name": "t", "input_schema": {
        "type": "object", "properties": props, "$defs": defs, "additionalProperties": false}});
    let tool = spec_tool(&spec);
    let mut args: serde_json::Map<String, Value> =
        (0..n).map(|i| (format!("p{i}"), if i % 2 == 0 { json!("x") } else { json!(i) })).collect();
    assert!(tool.prepare(&Arguments::Json(Value::Object(args.clone()))).is_ok());
    args.insert("p19999".into(), json!("not a number"));
    args.insert("extra".into(), json!(1));
    let err = tool.prepare(&Arguments::Json(Value::Object(args))).unwrap_err().model_text();
    assert!(err.contains(r#"/p19999 must be an integer; got "not a number""#), "{err}");
    assert!(err.contains("/extra is not a parameter of t"), "{err}");
}

#[test]
fn twelve_thousand_definitions_behind_one_ofs_and_a_chain_that_fails_import() {
    // Each `oneOf` is checked for overlap through the definitions its variants refer to, and a
    // chain of definitions referring to one that cannot be read is dropped link by link: both
    // look definitions up by name, so this stays fast in a debug build. (Some 61,000 schema
    // nodes, within the import's limit of 65,536.)
    let n: usize = 12_000;
    let chain = 300;
    let props: serde_json::Map<String, Value> =
        (0..n).map(|i| (format!("p{i}"), json!({"$ref": format!("#/$defs/d{i}")}))).collect();
    let mut defs = serde_json::Map::new();
    for i in 0..n {
        // Every thousandth `oneOf` has two variants a short string matches.
        let other = if i.is_multiple_of(1000) {
            json!({"type": "string"})
        } else {
            json!({"type": "integer"})
        };
        defs.insert(format!("d{i}"), json!({"oneOf": [{"$ref": format!("#/$defs/s{i}")}, other]}));
    }
    for i in 0..n {
        defs.insert(format!("s{i}"), json!({"type": "string", "maxLength": 8}));
    }
    defs.insert("f0".into(), json!({"type": "strnig"}));
    for i in 1..chain {
        let items = json!({"$ref": format!("#/$defs/f{}", i - 1)});
        defs.insert(format!("f{i}"), json!({"type": "array", "items": items}));
    }
    let imported =
        tooldef::import_input(&json!({"type": "object", "properties": props, "$defs": defs}))
            .unwrap();

    // Without `preserve_order`, serde_json's map (and so the document order) is sorted by key.
    let names: Vec<&str> = imported.value.definitions.iter().map(|d| &*d.name).collect();
    let mut expected: Vec<String> =
        (0..n).map(|i| format!("d{i}")).chain((0..n).map(|i| format!("s{i}"))).collect();
    expected.sort();
    assert!(
        names == expected,
        "the oneOfs and their strings survive, the chain does not: {} kept, first difference {:?}",
        names.len(),
        names.iter().zip(&expected).find(|(a, b)| a != b)
    );
    for d in imported.value.definitions.iter().filter(|d| d.name.starts_with('d')) {
        let i: usize = d.name[1..].parse().unwrap();
        let tooldef::SchemaKind::AnyOf(a) = &d.schema.kind else { panic!("d{i} is not a oneOf") };
        let combine = a.combine;
        let expected = if i.is_multiple_of(1000) {
            tooldef::Combine::OneOf
        } else {
            tooldef::Combine::OneOfDisjoint
        };
        assert_eq!(combine, expected, "d{i}");
    }

    let overlapping: Vec<&str> = imported
        .notes
        .iter()
        .filter(|n| n.keyword == "oneOf")
        .map(|n| n.pointer.as_str())
        .collect();
    let mut expected: Vec<String> =
        (0..n).step_by(1000).map(|i| format!("/$defs/d{i}/oneOf")).collect();
    expected.sort();
    assert_eq!(overlapping, expected);

    let dropped: Vec<String> =
        imported.notes.iter().filter(|n| n.keyword == "$defs").map(ToString::to_string).collect();
    assert_eq!(dropped.len(), chain);
    assert_eq!(
        dropped[0],
        "#/$defs/f0/type: `$defs` definition `f0` is not referred to and could not be read (`strnig` is not a JSON Schema type; did you mean `string`?); it was dropped"
    );
    for (i, note) in dropped.iter().enumerate().skip(1) {
        assert_eq!(
            *note,
            format!(
                "#: `$defs` definition `f{i}` is not referred to and refers to a dropped definition; it was dropped"
            )
        );
    }
}

/// An import's `oneOf` of `variants`, and the messages of its notes on `oneOf`.
fn one_of(variants: Vec<Value>) -> (tooldef::Combine, Vec<String>) {
    let imported = tooldef::import_input(&json!({"type": "object",
        "properties": {"x": {"oneOf": variants}}}))
    .unwrap();
    let tooldef::SchemaKind::AnyOf(a) = &imported.value.params[0].schema.kind else {
        panic!("not a oneOf: {:?}", imported.value.params[0].schema)
    };
    let notes = imported.notes.iter().filter(|n| n.keyword == "oneOf");
    (a.combine, notes.map(|n| n.message.clone()).collect())
}

const OVERLAP: &str = "has variants that may overlap (a value matching two is invalid); it is kept as `oneOf` for providers that take it, and renderers that write `anyOf` report the loss";

#[test]
fn a_one_of_of_twenty_thousand_variants_is_told_apart_in_one_pass() {
    // Variants that differ by kind, by enum values or by a discriminating property are told
    // apart with a hash set; comparing the 200 million pairs took minutes.
    let n = 20_000;
    let tagged = |tag: usize| {
        json!({"type": "object", "required": ["kind", "n"], "properties": {
            "n": {"type": "integer"}, "kind": {"const": format!("k{tag}")}}})
    };
    let mut variants: Vec<Value> = (0..n).map(tagged).collect();
    variants.push(json!({"type": "string"}));
    variants.push(json!({"type": "array"}));
    assert_eq!(one_of(variants.clone()), (tooldef::Combine::OneOfDisjoint, vec![]));
    // Two of the tags equal: the pairs are compared (another property could still tell them
    // apart), within the import's budget of steps. An early pair is found to overlap...
    let mut early = variants.clone();
    early.push(tagged(7));
    assert_eq!(one_of(early), (tooldef::Combine::OneOf, vec![OVERLAP.to_owned()]));
    // ...and a late one is not reached: the `oneOf` is taken as one that may overlap. (The
    // description keeps it from being the same schema listed twice, which is found at once.)
    let mut late = tagged(n - 1);
    late["description"] = json!("the last tag again");
    variants.push(late);
    let (combine, notes) = one_of(variants);
    assert_eq!(combine, tooldef::Combine::OneOf);
    assert_eq!(
        notes,
        [
            "could not be shown to have disjoint variants within the import's 2097152 steps; it is kept as `oneOf` for providers that take it, and renderers that write `anyOf` report the loss"
        ]
    );

    let scalars = |repeat: bool| {
        let mut vs: Vec<Value> = (0..n).map(|i| json!({"enum": [format!("a{i}"), i]})).collect();
        vs.push(json!({"enum": [if repeat { "a5" } else { "b" }]}));
        vs
    };
    // Mixed enums have no single kind: pairs again, out of steps.
    assert_eq!(one_of(scalars(false)).0, tooldef::Combine::OneOf);
    let strings = |repeat: bool| {
        let mut vs: Vec<Value> =
            (0..n).map(|i| json!({"enum": [format!("a{i}"), format!("b{i}")]})).collect();
        vs.push(json!({"enum": [if repeat { "a5" } else { "c" }]}));
        vs
    };
    assert_eq!(one_of(strings(false)), (tooldef::Combine::OneOfDisjoint, vec![]));
    assert_eq!(one_of(strings(true)), (tooldef::Combine::OneOf, vec![OVERLAP.to_owned()]));
}

#[test]
fn listing_a_variant_twice_is_found_among_twenty_thousand() {
    // Three schema nodes a variant: some 60,000, within the import's limit of 65,536.
    let mut variants: Vec<Value> =
        (0..20_000).map(|i| json!({"type": "object", "properties": {"v": {"const": i}}})).collect();
    assert_eq!(one_of(variants.clone()).0, tooldef::Combine::OneOf, "no discriminator: pairs");
    variants.push(json!({"properties": {"v": {"const": 17}}, "type": "object"}));
    assert_eq!(one_of(variants), (tooldef::Combine::OneOf, vec![OVERLAP.to_owned()]));
    // `const`s only: an enum, found in one pass to hold 40,000 different values.
    let consts: Vec<Value> = (0..40_000).map(|i| json!({"const": i})).collect();
    let imported = tooldef::import_input(&json!({"type": "object",
        "properties": {"x": {"oneOf": consts}}}))
    .unwrap();
    let tooldef::SchemaKind::Enum(e) = &imported.value.params[0].schema.kind else { panic!() };
    assert_eq!(e.values.len(), 40_000);
}

#[test]
fn the_defaults_of_one_import_are_checked_within_one_budget() {
    // 3,000 defaults, each checked against an `anyOf` of 2,000 references and matching only
    // the last: six million steps, where the import takes two million. Those checked in time
    // are kept; the others are reported and not applied, never kept unchecked.
    let (k, n) = (2_000, 3_000);
    let mut defs: serde_json::Map<String, Value> =
        (0..k).map(|i| (format!("x{i}"), json!({"const": i}))).collect();
    let refs: Vec<Value> = (0..k).map(|i| json!({"$ref": format!("#/$defs/x{i}")})).collect();
    defs.insert("d".into(), json!({"anyOf": refs}));
    let props: serde_json::Map<String, Value> = (0..n)
        .map(|i| (format!("p{i:04}"), json!({"$ref": "#/$defs/d", "default": k - 1})))
        .collect();
    let imported = tooldef::import_input(&json!({"type": "object", "properties": props,
        "$defs": defs}))
    .unwrap();
    let kept = imported.value.params.iter().filter(|p| p.schema.default.is_some()).count();
    assert!(kept > 100 && kept < n, "{kept} of {n} defaults kept");
    // The first ones, in document order.
    assert!(imported.value.params[..kept].iter().all(|p| p.schema.default.is_some()));
    let notes: Vec<&tooldef::ImportNote> =
        imported.notes.iter().filter(|n| n.keyword == "default").collect();
    assert_eq!(notes.len(), n - kept);
    assert_eq!(notes[0].pointer, format!("/properties/p{kept:04}/default"));
    for note in notes {
        assert_eq!(
            note.message,
            "was not checked against its schema: the defaults and examples of this schema take more than the import's 2097152 steps to check; it is kept to be shown as written and never applied"
        );
    }
}

#[test]
fn a_default_behind_more_references_than_can_be_followed_is_reported_unchecked() {
    // 200 definitions, each a reference to the next with a default, ending in an integer: a
    // default near the end is checked, the others cannot be followed to the end. They are not
    // called wrong; they are reported unchecked and not applied.
    let n = 200;
    let defs: serde_json::Map<String, Value> = (0..n)
        .map(|i| {
            let s = if i + 1 < n {
                json!({"$ref": format!("#/$defs/d{:03}", i + 1), "default": 1})
            } else {
                json!({"type": "integer"})
            };
            (format!("d{i:03}"), s)
        })
        .collect();
    let imported = tooldef::import_input(&json!({"type": "object",
        "properties": {"p": {"$ref": "#/$defs/d000"}}, "$defs": defs}))
    .unwrap();
    let kept: Vec<&str> = imported
        .value
        .definitions
        .iter()
        .filter(|d| d.schema.default.is_some())
        .map(|d| &*d.name)
        .collect();
    assert_eq!(kept.first(), Some(&"d135"), "{kept:?}");
    assert_eq!(kept.len(), 64, "the 64 levels schemas may nest");
    let notes: Vec<&tooldef::ImportNote> =
        imported.notes.iter().filter(|n| n.keyword == "default").collect();
    assert_eq!(notes.len(), 135);
    assert_eq!(notes[0].pointer, "/$defs/d000/default");
    assert_eq!(
        notes[0].message,
        "was not checked against its schema (nests deeper than the schema can be followed); it is kept to be shown as written and never applied"
    );
}

#[test]
fn a_definition_that_refers_to_the_root_survives_when_an_unused_one_is_dropped() {
    // The root's own copy (`Input`, the target of `$ref: "#"`) joins the definitions after the
    // ones that cannot be read are dropped: a reference to it is not one to a dropped definition.
    let schema = json!({
        "type": "object",
        "properties": {"node": {"$ref": "#/$defs/node"}},
        "$defs": {
            "node": {"type": "object", "properties": {"up": {"$ref": "#"}}},
            "broken": {"type": "strnig"}
        }
    });
    let imported = tooldef::import_input(&schema).unwrap();
    let names: Vec<&str> = imported.value.definitions.iter().map(|d| &*d.name).collect();
    assert_eq!(names, ["node", "Input"]);
    let dropped: Vec<String> =
        imported.notes.iter().filter(|n| n.keyword == "$defs").map(ToString::to_string).collect();
    assert_eq!(
        dropped,
        [
            "#/$defs/broken/type: `$defs` definition `broken` is not referred to and could not be read (`strnig` is not a JSON Schema type; did you mean `string`?); it was dropped"
        ]
    );
    let same = tooldef::import_schema(&schema).unwrap();
    let names: Vec<&str> = same.value.definitions.iter().map(|d| &*d.name).collect();
    assert_eq!(names, ["node", "Root"]);
}

#[test]
fn duplicates_in_large_lists_are_still_found() {
    let mut values: Vec<String> = (0..50_000).map(|i| format!("v{i}")).collect();
    values.push("v7".into());
    // Import reads an enum as a set; a builder can still list a value twice.
    let refs: Vec<&'static str> = values.into_iter().map(|v| &*v.leak()).collect();
    let d = ToolDescriptor::builder("t").param(Param::enumeration("x", refs.leak())).build();
    assert_eq!(
        d.unwrap_err().to_string(),
        "tool `t`: parameter `x`: enum value \"v7\" is listed twice"
    );
}

// --- a tool's schemas hold at most MAX_IMPORT_NODES nodes ---------------------------------

/// `{"anyOf": [{}, {}, ...]}` of `n` variants: `n + 1` schema nodes of three bytes each.
fn any_of_empty(n: usize) -> Value {
    json!({"anyOf": vec![json!({}); n]})
}

const TOO_MANY: &str = "schemas hold more than 65536 nodes (the tool's input and output schemas and their definitions together)";

#[test]
fn a_tool_one_node_past_the_limit_is_refused_where_the_count_crossed_it() {
    assert_eq!(tooldef::MAX_IMPORT_NODES, 65_536);
    // The property and its variants: one node more than the limit. The last variant crosses it.
    let over = with_property(any_of_empty(tooldef::MAX_IMPORT_NODES));
    assert_eq!(
        spec_error(&over),
        format!("t.json: #/input_schema/properties/x/anyOf/65535: {TOO_MANY}")
    );
    // At the limit, the tool imports.
    let at = with_property(any_of_empty(tooldef::MAX_IMPORT_NODES - 1));
    let d = parse_spec("t.json", &at.to_string(), None).unwrap().descriptor;
    let tooldef::SchemaKind::AnyOf(a) = &d.param("x").unwrap().schema.kind else { panic!() };
    assert_eq!(a.variants.len(), tooldef::MAX_IMPORT_NODES - 1);
}

#[test]
fn a_schema_imported_on_its_own_has_the_limit_to_itself() {
    let e = tooldef::import_schema(&any_of_empty(tooldef::MAX_IMPORT_NODES)).unwrap_err();
    assert_eq!(e.to_string(), format!("#/anyOf/65535: {TOO_MANY}"));
    assert!(tooldef::import_schema(&any_of_empty(tooldef::MAX_IMPORT_NODES - 1)).is_ok());
}

#[test]
fn the_input_and_output_schemas_share_one_limit() {
    // 40,001 nodes in the input, then the output's root and variants: the variant at index
    // 25,534 is node 65,537.
    let mut spec = with_property(any_of_empty(40_000));
    spec["output_schema"] = any_of_empty(30_000);
    assert_eq!(spec_error(&spec), format!("t.json: #/output_schema/anyOf/25534: {TOO_MANY}"));
    assert!(parse_spec("t.json", &with_property(any_of_empty(40_000)).to_string(), None).is_ok());
}

#[test]
fn a_definition_nothing_refers_to_counts_toward_the_limit() {
    // It is not dropped as one that cannot be read:
    // the property is node 1, the definition 2, its variant at index 65,534 node 65,537.
    let mut spec = with_property(json!({"type": "string"}));
    spec["input_schema"]["$defs"] = json!({"big": any_of_empty(65_535)});
    assert_eq!(
        spec_error(&spec),
        format!("t.json: #/input_schema/$defs/big/anyOf/65534: {TOO_MANY}")
    );
}

#[test]
fn the_copy_of_a_root_that_refers_to_itself_counts_toward_the_limit() {
    // The copy that a `$ref` to `#` refers to is as many nodes again as the root.
    let mut spec = with_property(any_of_empty(40_000));
    spec["input_schema"]["properties"]["self"] = json!({"$ref": "#"});
    assert_eq!(spec_error(&spec), format!("t.json: #/input_schema: {TOO_MANY}"));
    let mut spec = with_property(any_of_empty(30_000));
    spec["input_schema"]["properties"]["self"] = json!({"$ref": "#"});
    assert!(parse_spec("t.json", &spec.to_string(), None).is_ok());
}

#[test]
fn places_refs_point_at_are_read_once_each_and_count_toward_the_limit() {
    // A chain of 60 nested objects with 1,200 variants at the bottom, and a `$ref` to every
    // link: each place is lifted and read once more, its nodes counted again, so the sum of
    // what lies below each link (about 60 x 1,200 nodes) crosses the limit, in linear time.
    let mut deep = any_of_empty(1_200);
    for _ in 0..60 {
        deep = json!({"type": "object", "properties": {"c": deep}});
    }
    let mut spec = with_property(deep);
    let mut at = String::from("#/properties/x");
    for i in 0..60 {
        spec["input_schema"]["properties"][format!("r{i}")] = json!({"$ref": at.clone()});
        at.push_str("/properties/c");
    }
    // The property and the references are 1,321 nodes; the places are lifted in the order
    // their references are read (`r0`, `r1`, `r10`...), and the place 56 links down crosses at its 154th node.
    let bottom = format!("#/input_schema/properties/x{}/anyOf/148", "/properties/c".repeat(60));
    assert_eq!(spec_error(&spec), format!("t.json: {bottom}: {TOO_MANY}"));
    // Twenty thousand places whose names read alike (one CJK character each, `_` in a name)
    // are named in one pass, each taking the next free suffix.
    let n = 20_000;
    let mut props = serde_json::Map::new();
    for i in 0..n {
        let name = char::from_u32(0x4e00 + i).unwrap().to_string();
        props.insert(format!("r{i}"), json!({"$ref": format!("#/properties/{name}")}));
        props.insert(name, json!({"type": "string"}));
    }
    let spec = json!({"name": "t", "input_schema": {"type": "object", "properties": props}});
    let d = parse_spec("t.json", &spec.to_string(), None).unwrap().descriptor;
    assert_eq!(d.definitions.len(), n as usize);
    assert_eq!(d.definitions[0].name, "Input__");
    assert_eq!(d.definitions[n as usize - 1].name, format!("Input___{n}"));
    // A thousand references to one place lift it once.
    let mut spec = with_property(any_of_empty(700));
    for i in 0..1_000 {
        spec["input_schema"]["properties"][format!("r{i}")] = json!({"$ref": "#/properties/x"});
    }
    let d = parse_spec("t.json", &spec.to_string(), None).unwrap().descriptor;
    assert_eq!(d.definitions.len(), 1);
    assert_eq!(d.definitions[0].name, "Input_x");
}

#[test]
fn each_required_key_properties_does_not_list_counts_a_copy_of_additional_properties() {
    // Each such key becomes a property holding a copy of `additionalProperties`: here 1,000
    // nodes (the schema and its variants), so 65 copies cross the limit, at the 65th key.
    // Uncounted, 2,000 keys of a 21 KB spec built 4 million nodes (900 MB).
    let spec = |keys: usize| {
        let required: Vec<String> = (0..keys).map(|i| format!("k{i}")).collect();
        json!({"name": "t", "input_schema": {"type": "object",
            "additionalProperties": any_of_empty(999), "required": required}})
    };
    assert_eq!(spec_error(&spec(2_000)), format!("t.json: #/input_schema/required/64: {TOO_MANY}"));
    let d = parse_spec("t.json", &spec(64).to_string(), None).unwrap().descriptor;
    assert_eq!(d.params.len(), 64);
}

// --- patterns mean what ECMA-262 says, or are refused -------------------------------------

#[test]
fn patterns_that_cannot_be_enforced_are_refused_at_import() {
    let cases = [
        (
            "([",
            "t.json: #/input_schema/properties/x/pattern: `pattern` cannot be expressed by tooldef: ",
        ),
        (
            "(?<=a)b",
            "t.json: #/input_schema/properties/x/pattern: `pattern` cannot be expressed by tooldef: lookbehind is not supported",
        ),
        (
            "a{1000}{1000}{1000}",
            "t.json: #/input_schema/properties/x/pattern: `pattern` cannot be expressed by tooldef: a quantifier cannot follow a quantifier (nothing to repeat)",
        ),
        (
            "(?=x)",
            "t.json: #/input_schema/properties/x/pattern: `pattern` cannot be expressed by tooldef: lookahead is supported only at the start of a pattern anchored with `^`, without a top-level `|`",
        ),
        (
            r"(a)\1",
            "t.json: #/input_schema/properties/x/pattern: `pattern` cannot be expressed by tooldef: backreferences are not supported",
        ),
        (
            r"^\p{L}+$",
            "t.json: #/input_schema/properties/x/pattern: `pattern` cannot be expressed by tooldef: Unicode property escapes are not supported",
        ),
        (
            "(?i)abc",
            "t.json: #/input_schema/properties/x/pattern: `pattern` cannot be expressed by tooldef: only `(?:` and `(?<name>` groups are ECMA-262 groups",
        ),
    ];
    for (pattern, message) in cases {
        let got = spec_error(&with_property(json!({"type": "string", "pattern": pattern})));
        assert!(got.starts_with(message), "{pattern}: {got}");
        if !message.ends_with(": ") {
            assert_eq!(got, message);
        }
    }
}

#[test]
fn a_huge_repetition_is_refused_by_size() {
    let got = spec_error(&with_property(json!({"type": "string", "pattern": "(a{1000}){1000}"})));
    assert!(
        got.starts_with("t.json: #/input_schema/properties/x/pattern: `pattern` cannot be expressed by tooldef: "),
        "{got}"
    );
}

#[test]
fn enforceable_patterns_are_enforced() {
    let tool = spec_tool(&with_property(
        json!({"type": "string", "pattern": "^(?:[a-z]{2,3})(?<rest>-[0-9]+)*?$"}),
    ));
    assert!(tool.prepare(&Arguments::Json(json!({"x": "ab-1-22"}))).is_ok());
    // The password rule real schemas carry: a leading lookahead, enforced exactly.
    let password =
        spec_tool(&with_property(json!({"type": "string", "pattern": "^(?=.*\\d).{8,}$"})));
    assert!(password.prepare(&Arguments::Json(json!({"x": "abcdefg1"}))).is_ok());
    assert!(password.prepare(&Arguments::Json(json!({"x": "abcdefgh"}))).is_err());
    let err = tool.prepare(&Arguments::Json(json!({"x": "cb!"}))).unwrap_err();
    assert_eq!(
        err.model_text(),
        "invalid arguments for t: /x must match the pattern ^(?:[a-z]{2,3})(?<rest>-[0-9]+)*?$; got \"cb!\""
    );
}

#[test]
fn the_builder_refuses_what_import_refuses_and_dispatch_never_skips_a_pattern() {
    let err = ToolDescriptor::builder("t")
        .param(Param::string("x").with_pattern("(?<=a)b"))
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "tool `t`: parameter `x`: pattern \"(?<=a)b\" cannot be enforced: lookbehind is not supported"
    );
    let tooldef::BuildError::Invalid(invalid) = err else { panic!("not a rule: {err}") };
    assert_eq!(invalid.rule, tooldef::Rule::BadPattern);
    // A `const` descriptor is never validated at run time: its calls are refused, not waved by.
    static LOOKBEHIND: ToolDescriptor =
        ToolDescriptor::new("lb").params(const { &[Param::string("x").pattern("(?<=a)b")] });
    let err = echo(LOOKBEHIND.clone()).prepare(&Arguments::Json(json!({"x": "cb"}))).unwrap_err();
    assert_eq!(
        err.model_text(),
        "invalid arguments for lb: /x cannot be checked: the tool's pattern \"(?<=a)b\" cannot be enforced: lookbehind is not supported"
    );
}

// --- reference cycles need a base case ----------------------------------------------------

#[test]
fn a_cycle_without_a_base_case_is_refused_with_its_pointer() {
    let spec = json!({"name": "t", "input_schema": {
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/a"}},
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}}
    }});
    assert_eq!(
        spec_error(&spec),
        "t.json: #/input_schema/$defs/a: `$ref` cannot be expressed by tooldef: `a` refers to `b` in a cycle with no base case (no concrete type, optional property, null or empty list on the way round): no finite value matches it"
    );
    let own = json!({"name": "t", "input_schema": {
        "type": "object",
        "properties": {"x": {"$ref": "#/definitions/n"}},
        "definitions": {"n": {"type": "object", "properties": {"next": {"$ref": "#/definitions/n"}}, "required": ["next"]}}
    }});
    assert_eq!(
        spec_error(&own),
        "t.json: #/input_schema/definitions/n: `$ref` cannot be expressed by tooldef: `n` refers to itself with no base case: no finite value matches it"
    );
}

#[test]
fn cycles_with_a_base_case_keep_working() {
    let tree = json!({"name": "t", "input_schema": {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/node"}, "list": {"$ref": "#/$defs/list"}},
        "$defs": {
            "node": {"type": "object", "properties": {
                "value": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "minItems": 0}
            }, "required": ["value", "children"]},
            "list": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {
                "next": {"$ref": "#/$defs/list"}}, "required": ["next"]}]}
        }
    }});
    let tool = spec_tool(&tree);
    let args = json!({"root": {"value": 1, "children": [{"value": 2, "children": []}]},
                      "list": {"next": {"next": null}}});
    assert_eq!(tool.prepare(&Arguments::Json(args.clone())).unwrap(), args);
    // An unreferenced broken definition never blocks the input side.
    let unused = json!({"name": "t", "input_schema": {"type": "object",
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}}});
    assert!(parse_spec("t.json", &unused.to_string(), None).is_ok());
}

#[test]
fn a_default_under_a_definition_that_refers_to_itself_twice_is_checked_in_bounded_time() {
    // Found by the spec fuzz target: every level of `d` offers two ways back to `d`, so the
    // default's check tried 2^64 paths before giving up on depth.
    let text = r##"{"name": "t", "input_schema": {"type": "object", "$defs": {"d": {"anyOf": [
        {"$ref": "#/$defs/d"}, {"$ref": "#/$defs/d", "default": 0.1}]}}}}"##;
    let spec = parse_spec("t.json", text, None).unwrap();
    let note = spec.notes.iter().find(|n| n.pointer == "/input_schema/$defs/d/anyOf/1/default");
    let note = note.expect("the default is left out with a note").to_string();
    assert!(note.contains("0.1 matches none of the anyOf variants"), "{note}");
}

#[test]
fn a_default_that_matches_only_round_a_loop_is_refused_without_trying_every_path() {
    // Found by the spec fuzz target (a timeout): the third variant gives each level a third way
    // to try, so counting steps alone spent the whole budget at every default. A path that
    // follows more references than there are definitions at one value went round a loop.
    let text = r##"{"name": "t", "input_schema": {"type": "object", "$defs": {
        "o": {"type": "object", "properties": {"r": {"type": "number"}}, "required": ["r"]},
        "d": {"anyOf": [{"$ref": "#/$defs/d"}, {"$ref": "#/$defs/d", "default": 0.1},
                        {"$ref": "#/$defs/o"}]}}}}"##;
    let spec = parse_spec("t.json", text, None).unwrap();
    let note = spec.notes.iter().find(|n| n.pointer == "/input_schema/$defs/d/anyOf/1/default");
    let note = note.expect("the default is left out with a note").to_string();
    assert!(note.contains("0.1 matches none of the anyOf variants"), "{note}");
    // A default that does match through the definitions is kept.
    let text = r##"{"name": "t", "input_schema": {"type": "object", "$defs": {
        "o": {"type": "object", "properties": {"r": {"type": "number"}}, "required": ["r"]},
        "d": {"anyOf": [{"$ref": "#/$defs/d"}, {"$ref": "#/$defs/d", "default": {"r": 1}},
                        {"$ref": "#/$defs/o"}]}}}}"##;
    let spec = parse_spec("t.json", text, None).unwrap();
    assert!(
        spec.notes.iter().all(|n| !n.pointer.as_str().ends_with("/default")),
        "{:?}",
        spec.notes
    );
}

// --- the descriptor's serde round trip is exact -------------------------------------------

#[test]
fn descriptors_read_back_exactly() {
    // The number as a tool author writes it (serde_json alone reads it as a float that it
    // then writes differently).
    let text = r#"{"name": "t", "input_schema": {"type": "object", "properties": {
        "a": {"type": ["string", "null"], "default": null},
        "b": {"type": "number", "default": -92233720368547710000, "examples": [1e300, 0.1]}
    }}}"#;
    let d = parse_spec("t.json", text, None).unwrap().descriptor;
    assert_eq!(d.param("a").unwrap().schema.default, Some(tooldef::Literal::Null));
    let back: ToolDescriptor = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(back, d);
}

#[test]
fn edge_numbers_survive_both_round_trips() {
    // Defaults, examples, bounds and multiples at the edges of f64: the largest finite
    // magnitude, the smallest subnormal, negative zero, a sum that is not its decimal, and the
    // magnitude the fuzzer first found drifting.
    let text = r#"{"name": "t", "input_schema": {"type": "object", "properties": {
        "a": {"type": "number", "default": -92233720368547710000, "minimum": -92233720368547710000,
              "maximum": 1e308, "examples": [5e-324, -0.0, 0.30000000000000004, -1.7976931348623157e308]},
        "b": {"type": "number", "exclusiveMinimum": 5e-324, "exclusiveMaximum": 0.30000000000000004,
              "multipleOf": 5e-324, "default": 0.1},
        "c": {"type": "number", "default": -0.0, "maximum": -0.0},
        "d": {"type": "array", "items": {"type": "number"}, "default": [1e308, -92233720368547710000, -0.0]}
    }}}"#;
    let d = parse_spec("t.json", text, None).unwrap().descriptor;
    let back: ToolDescriptor = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(back, d);
    // Spec text, descriptor, spec text, descriptor: the same descriptor and the same text.
    let spec_text = tooldef::spec_to_json(&d, None).to_string();
    let again = parse_spec("t.json", &spec_text, None).unwrap().descriptor;
    assert_eq!(again, d);
    assert_eq!(tooldef::spec_to_json(&again, None).to_string(), spec_text);
    let a = d.param("a").unwrap();
    let tooldef::SchemaKind::Float(bounds) = &a.schema.kind else { panic!("{a:?}") };
    assert_eq!(bounds.minimum, Some(-92233720368547710000.0));
    assert_eq!(bounds.maximum, Some(1e308));
    let c = d.param("c").unwrap();
    let tooldef::SchemaKind::Float(bounds) = &c.schema.kind else { panic!("{c:?}") };
    assert!(bounds.maximum.is_some_and(|m| m == 0.0 && m.is_sign_negative()));
}

// --- deep values --------------------------------------------------------------------------

fn nested(levels: usize) -> Value {
    let mut v = json!(1);
    for _ in 0..levels {
        // Not `json!`: it would serialize `v` again, recursively.
        let mut map = serde_json::Map::new();
        map.insert("x".into(), v);
        v = Value::Object(map);
    }
    v
}

#[test]
fn a_host_built_value_deeper_than_the_limit_is_refused_not_a_stack_overflow() {
    let tool = echo(
        ToolDescriptor::builder("t")
            .param(Param::named("x", tooldef::Schema::any()))
            .build()
            .unwrap(),
    );
    let args = Arguments::Json(nested(100_000));
    let err = tool.prepare(&args).unwrap_err();
    let Arguments::Json(v) = args else { unreachable!() };
    dismantle(v);
    let message = err.model_text();
    let pointer = "/x".repeat(MAX_DEPTH);
    assert_eq!(
        message,
        format!(
            "invalid arguments for t: {pointer} is nested more than {MAX_DEPTH} levels deep, past the limit for arguments; flatten it"
        )
    );
    // Exactly at the limit is fine.
    let ok = nested(MAX_DEPTH);
    let out = tool.prepare(&Arguments::Json(ok.clone())).unwrap();
    assert_eq!(out, ok);
}

/// `t(x)`, its `x` any value, decoded by serde straight from the text.
struct DeepTyped;

#[derive(Debug, serde::Deserialize)]
struct AnyX {
    #[allow(dead_code)]
    x: Value,
}

impl tooldef::Tool for DeepTyped {
    const NAME: &'static str = "t";
    type Args = AnyX;
    type Output = ();

    fn descriptor() -> &'static ToolDescriptor {
        static D: std::sync::OnceLock<ToolDescriptor> = std::sync::OnceLock::new();
        D.get_or_init(|| {
            ToolDescriptor::builder("t")
                .param(Param::named("x", tooldef::Schema::any()))
                .build()
                .unwrap()
        })
    }

    fn call(&self, _: AnyX) -> tooldef::BoxFuture<'_, Result<(), tooldef::ToolError>> {
        Box::pin(async { Ok(()) })
    }
}

#[test]
fn arguments_past_the_depth_limit_are_refused_alike_as_text_as_a_value_and_by_every_tool() {
    let dynamic = echo(<DeepTyped as tooldef::Tool>::descriptor().clone());
    let typed = tooldef::TypedTool::new(DeepTyped);
    let pointer = "/x".repeat(MAX_DEPTH);
    let want = format!(
        "invalid arguments for t: {pointer} is nested more than {MAX_DEPTH} levels deep, past the limit for arguments; flatten it"
    );
    // One level past the limit (the arguments object is the first), as text and as a value.
    let deep = nested(MAX_DEPTH + 1);
    let text = serde_json::to_string(&deep).unwrap();
    for args in [Arguments::Text(text), Arguments::Json(deep)] {
        assert_eq!(dynamic.prepare(&args).unwrap_err().model_text(), want);
        assert_eq!(typed.decode(&args).unwrap_err().model_text(), want);
    }
    // Exactly at the limit, every path takes it.
    let ok = nested(MAX_DEPTH);
    let text = serde_json::to_string(&ok).unwrap();
    for args in [Arguments::Text(text), Arguments::Json(ok)] {
        assert!(dynamic.prepare(&args).is_ok());
        assert!(typed.decode(&args).is_ok());
    }
    // Far past it, text is refused at the same place, in bounded stack.
    let text = "{\"x\": ".repeat(100_000) + "1" + &"}".repeat(100_000);
    let args = Arguments::Text(text);
    assert_eq!(dynamic.prepare(&args).unwrap_err().model_text(), want);
    assert_eq!(typed.decode(&args).unwrap_err().model_text(), want);
}

#[test]
fn an_overridden_tool_refuses_a_deep_value_and_a_repeated_key_as_the_tool_itself_does() {
    use std::sync::Arc;
    use tooldef::{Executor, Override, ToolCall, dispatch::block_on};

    let d = ToolDescriptor::builder("t")
        .param(Param::named("x", tooldef::Schema::any()))
        .param(Param::string("user"))
        .build()
        .unwrap();
    let pointer = "/x".repeat(MAX_DEPTH);
    let too_deep = format!(
        "invalid arguments for t: {pointer} is nested more than {MAX_DEPTH} levels deep, past the limit for arguments; flatten it"
    );
    // Hiding a parameter makes the override rewrite every call's arguments; a new description
    // passes them on as they came. Neither copies a value past the limit.
    let rewriting = Override::hide("user", "u").wrap(Arc::new(echo(d.clone()))).unwrap();
    let passing = Override::description("Echo.").wrap(Arc::new(echo(d))).unwrap();
    let mut call = ToolCall::new("c", "t", nested(100_000));
    for exec in [&rewriting, &passing] {
        let result = block_on(exec.execute(&call));
        assert!(result.is_error);
        assert_eq!(result.text(), too_deep);
    }
    let Arguments::Json(v) = std::mem::replace(&mut call.arguments, Arguments::Json(Value::Null))
    else {
        unreachable!()
    };
    dismantle(v);
    let exec = rewriting;

    let twice = ToolCall { arguments: Arguments::Text(r#"{"x": 1, "x": 2}"#.into()), ..call };
    let result = block_on(exec.execute(&twice));
    assert!(result.is_error);
    assert_eq!(result.text(), "invalid arguments for t: /x is given twice");
}

// --- duplicate keys -----------------------------------------------------------------------

#[test]
fn duplicate_keys_in_spec_files_are_refused_with_their_pointer() {
    let text = r#"{"name": "t", "input_schema": {"type": "object", "properties": {
        "a": {"type": "string"}, "a": {"type": "integer"}}}}"#;
    let err = parse_spec("t.json", text, None).unwrap_err().to_string();
    assert_eq!(
        err,
        "t.json:2:36: malformed JSON: duplicate key: #/input_schema/properties/a is given twice"
    );
}

#[test]
fn duplicate_keys_in_arguments_are_refused_with_their_pointer() {
    let tool = spec_tool(&with_property(json!({"type": "object"})));
    let err = tool.prepare(&Arguments::Text(r#"{"x": {"k": 1, "k": 2}}"#.into())).unwrap_err();
    assert_eq!(err.model_text(), "invalid arguments for t: /x/k is given twice");
    // A key given twice at the top level, and text that is not JSON, which stays a syntax error.
    let err = tool.prepare(&Arguments::Text(r#"{"x": {}, "x": 1}"#.into())).unwrap_err();
    assert_eq!(err.model_text(), "invalid arguments for t: /x is given twice");
    let err = tool.prepare(&Arguments::Text(r#"{"x": }"#.into())).unwrap_err();
    assert_eq!(
        err.model_text(),
        "the arguments of t are not valid JSON: expected value at line 1 column 7"
    );
}

// --- integers as JSON Schema reads them ---------------------------------------------------

#[test]
fn integers_are_read_as_json_schema_reads_them() {
    let text = r#"{"name": "t", "input_schema": {"type": "object", "properties": {
        "n": {"type": "integer", "maximum": 18446744073709551615, "minimum": -0, "default": -0},
        "m": {"type": "integer", "multipleOf": 2.0, "examples": [4.0]}
    }}}"#;
    let spec = parse_spec("t.json", text, None).unwrap();
    let n = spec.descriptor.param("n").unwrap();
    assert_eq!(n.schema.default, Some(tooldef::Literal::Int(0)));
    let tooldef::SchemaKind::Integer(bounds) = &n.schema.kind else { panic!() };
    assert_eq!((bounds.minimum, bounds.maximum), (Some(0), None));
    assert!(spec.notes.iter().any(|note| note.pointer == "/input_schema/properties/n/maximum"));
    let tool = echo(spec.descriptor);
    for x in ["1.0", "1e0", "-0", "2.5e1", "18446744073709551615"] {
        let args = Arguments::Text(format!(r#"{{"n": {x}}}"#));
        assert!(tool.prepare(&args).is_ok(), "{x}");
    }
    let err = tool.prepare(&Arguments::Text(r#"{"n": 1.5, "m": 3.0}"#.into())).unwrap_err();
    assert_eq!(
        err.model_text(),
        "invalid arguments for t:\n- /n must be an integer; got 1.5\n- /m must be a multiple of 2; got 3"
    );
    let err = tool.prepare(&Arguments::Text(r#"{"n": -1.0}"#.into())).unwrap_err();
    assert_eq!(err.model_text(), "invalid arguments for t: /n must be at least 0; got -1");
}

#[test]
fn a_bound_no_64_bit_integer_satisfies_is_refused() {
    let got = spec_error(&with_property(json!({"type": "integer", "minimum": 1e19})));
    assert_eq!(
        got,
        "t.json: #/input_schema/properties/x/minimum: `minimum` cannot be expressed by tooldef: is beyond the 64-bit range of integer bounds, and no 64-bit integer satisfies it"
    );
}

#[test]
fn exclusive_bounds_that_leave_no_integer_are_refused_in_a_spec() {
    let got = spec_error(&with_property(json!({"type": "integer",
        "exclusiveMinimum": 0, "exclusiveMaximum": 1})));
    assert_eq!(
        got,
        "t.json: #/input_schema/properties/x/exclusiveMinimum: `exclusiveMinimum` cannot be expressed by tooldef: 0 with `exclusiveMaximum` 1 leaves no integer to accept"
    );
}

#[test]
fn exclusive_bounds_around_one_integer_accept_it_alone() {
    let tool = spec_tool(&with_property(json!({"type": "integer",
        "exclusiveMinimum": 0, "exclusiveMaximum": 2})));
    assert!(tool.prepare(&Arguments::Text(r#"{"x": 1}"#.into())).is_ok());
    let refused = |x: i64| {
        tool.prepare(&Arguments::Text(format!(r#"{{"x": {x}}}"#))).unwrap_err().model_text()
    };
    assert_eq!(refused(0), "invalid arguments for t: /x must be greater than 0; got 0");
    assert_eq!(refused(2), "invalid arguments for t: /x must be less than 2; got 2");
}
