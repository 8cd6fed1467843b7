//! JSON Schema export (exact shape and key order) and import (every accepted spelling, every
//! note, every error with its JSON pointer).

use serde_json::{Value, json};
use tooldef::json_schema::{
    ImportErrorKind, KeyOrder, export_input, export_input_literal, export_schema, import_input,
    import_input_ordered, import_schema,
};
use tooldef::{
    Additional, Definition, EnumValue, Literal, Param, Schema, SchemaKind, ToolDescriptor,
};

static CITY: Schema = Schema::string().description("City name");

static WEATHER: ToolDescriptor = ToolDescriptor::new("get_weather").params(
    const {
        &[
            Param::string("city").description("City name").length(1, 80),
            Param::enumeration("unit", &["celsius", "fahrenheit"]).default_str("celsius"),
            Param::integer("days").range(1, 10).default_int(3),
            Param::list("tags", &CITY).length(0, 5).unique().optional(),
            Param::float("ratio").range_f64(0.0, 1.5).nullable().optional(),
        ]
    },
);

fn input(v: Value) -> tooldef::json_schema::Imported<tooldef::json_schema::InputSchema> {
    import_input(&v).unwrap_or_else(|e| panic!("{e}"))
}

/// Imports schema text, properties in the order written (as spec files are read).
fn input_text(text: &str) -> tooldef::json_schema::Imported<tooldef::json_schema::InputSchema> {
    let (v, order) = KeyOrder::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    import_input_ordered(&v, &order).unwrap_or_else(|e| panic!("{e}"))
}

fn schema(v: Value) -> Schema {
    import_schema(&v).unwrap_or_else(|e| panic!("{e}")).value.schema
}

/// The pointer and the message of an import error.
fn fails(v: Value) -> (String, String) {
    let e = import_schema(&v).expect_err("must fail");
    (e.pointer.to_string(), e.to_string())
}

fn fails_input(v: Value) -> (String, String) {
    let e = import_input(&v).expect_err("must fail");
    (e.pointer.to_string(), e.to_string())
}

#[test]
fn export_has_the_documented_shape_and_key_order() {
    let expected = r#"{"type":"object","properties":{"city":{"description":"City name","type":"string","minLength":1,"maxLength":80},"unit":{"type":"string","enum":["celsius","fahrenheit"],"default":"celsius"},"days":{"type":"integer","minimum":1,"maximum":10,"default":3},"tags":{"type":"array","items":{"description":"City name","type":"string"},"minItems":0,"maxItems":5,"uniqueItems":true},"ratio":{"type":["number","null"],"minimum":0.0,"maximum":1.5}},"required":["city"],"additionalProperties":false}"#;
    assert_eq!(serde_json::to_string(&export_input_literal(&WEATHER)).unwrap(), expected);
    // The `Value` form holds the same document (its key order is serde_json's `Map`'s).
    assert_eq!(export_input(&WEATHER), serde_json::from_str::<Value>(expected).unwrap());
}

#[test]
fn nullable_and_described_forms() {
    let described = Schema::enumeration_described(
        const { &[EnumValue::described("c", "Celsius"), EnumValue::new("f")] },
    );
    assert_eq!(
        export_schema(&described, &[]),
        json!({"type": "string", "anyOf": [{"const": "c", "description": "Celsius"}, {"const": "f"}]})
    );
    assert_eq!(
        export_schema(&described.clone().nullable(), &[]),
        json!({"type": ["string", "null"], "anyOf": [{"const": "c", "description": "Celsius"}, {"const": "f"}, {"type": "null"}]})
    );
    assert_eq!(
        export_schema(&Schema::enumeration(&["a"]).nullable(), &[]),
        json!({"type": ["string", "null"], "enum": ["a", null]})
    );
    let defs = [Definition::new("Node", Schema::string())];
    assert_eq!(
        export_schema(&Schema::reference("Node").nullable().description("d"), &defs),
        json!({"description": "d", "anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}], "$defs": {"Node": {"type": "string"}}})
    );
    let weird = [Definition::new("a/b~c d", Schema::boolean())];
    assert_eq!(
        export_schema(&Schema::reference("a/b~c d"), &weird)["$ref"],
        json!("#/$defs/a~1b~0c%20d")
    );
    // Only the definitions the schema reaches are written.
    let defs = [
        Definition::new("A", Schema::reference("B")),
        Definition::new("B", Schema::null()),
        Definition::new("C", Schema::null()),
    ];
    let out = export_schema(&Schema::reference("A"), &defs);
    assert_eq!(out["$defs"].as_object().unwrap().keys().collect::<Vec<_>>(), ["A", "B"]);
}

#[test]
fn import_reads_type_arrays_unions_and_consts() {
    let s = schema(json!({"type": ["integer", "null"], "minimum": 2}));
    assert!(s.nullable);
    assert!(matches!(s.kind, SchemaKind::Integer(ref n) if n.minimum == Some(2)));

    let s = schema(
        json!({"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}], "description": "d"}),
    );
    assert!(s.nullable && matches!(s.kind, SchemaKind::String(_)));
    assert_eq!(s.description.as_deref(), Some("d"));

    let s = schema(json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}));
    assert!(matches!(s.kind, SchemaKind::AnyOf(ref a) if a.variants.len() == 2));

    let s = schema(json!({"const": "only"}));
    assert_eq!(s, Schema::enumeration_of(["only"]));

    let s = schema(json!({"type": ["string", "integer"], "minLength": 1, "maximum": 5}));
    let SchemaKind::AnyOf(a) = &s.kind else { panic!("{s:?}") };
    assert!(matches!(a.variants[0].kind, SchemaKind::String(ref t) if t.min_length == Some(1)));
    assert!(matches!(a.variants[1].kind, SchemaKind::Integer(ref n) if n.maximum == Some(5)));

    // Integer vs number, whole-number bounds written as floats.
    let s = schema(json!({"type": "integer", "minimum": 1.0}));
    assert!(matches!(s.kind, SchemaKind::Integer(ref n) if n.minimum == Some(1)));
    let s = schema(json!({"type": "number", "minimum": 1}));
    assert!(matches!(s.kind, SchemaKind::Float(ref n) if n.minimum == Some(1.0)));

    // An enum whose `null` makes it nullable; values the type excludes are never valid.
    let s = schema(json!({"enum": ["a", null]}));
    assert!(s.nullable && matches!(s.kind, SchemaKind::Enum(_)));
    let s = schema(json!({"type": "string", "enum": ["a", 3, null]}));
    assert_eq!(s, Schema::enumeration_of(["a"]));

    // Tagged union: oneOf with a discriminating property reads as anyOf.
    let tagged = json!({"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
        {"type": "object", "properties": {"kind": {"const": "b"}, "x": {"type": "integer"}}, "required": ["kind"]}
    ]});
    assert!(matches!(schema(tagged).kind, SchemaKind::AnyOf(_)));
}

#[test]
fn import_objects_required_and_additional_properties() {
    let i = input_text(
        r#"{
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "nested": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"], "additionalProperties": false},
            "map": {"type": "object", "additionalProperties": {"type": "integer"}},
            "open": {"type": "object", "additionalProperties": true}
        },
        "required": ["nested"]
    }"#,
    );
    let v = i.value;
    assert_eq!(v.additional, Additional::Unstated, "absent additionalProperties is unstated");
    assert_eq!(
        v.params.iter().map(|p| (p.name.as_ref(), p.required)).collect::<Vec<_>>(),
        [("a", false), ("nested", true), ("map", false), ("open", false)]
    );
    let SchemaKind::Object(nested) = &v.params[1].schema.kind else { panic!() };
    assert_eq!(nested.additional, Additional::Closed);
    assert!(nested.properties[0].required);
    let SchemaKind::Object(map) = &v.params[2].schema.kind else { panic!() };
    assert!(
        matches!(map.additional, Additional::Typed(ref t) if matches!(t.kind, SchemaKind::Integer(_)))
    );
    let SchemaKind::Object(open) = &v.params[3].schema.kind else { panic!() };
    assert_eq!(open.additional, Additional::Open);
}

#[test]
fn import_merges_all_of_when_exact() {
    let s = schema(json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"properties": {"b": {"type": "integer", "minimum": 0}}, "required": ["b"]},
        {"description": "both"}
    ]}));
    let SchemaKind::Object(o) = &s.kind else { panic!("{s:?}") };
    assert_eq!(
        o.properties.iter().map(|p| (p.name.as_ref(), p.required)).collect::<Vec<_>>(),
        [("a", true), ("b", true)]
    );
    assert_eq!(s.description.as_deref(), Some("both"));

    // Bounds tighten; types intersect.
    let s = schema(
        json!({"type": "number", "allOf": [{"minimum": 1}, {"minimum": 3, "type": ["integer", "null"]}, {"maximum": 9}, {"maximum": 7}]}),
    );
    assert_eq!(
        s,
        Schema::of(SchemaKind::Integer(tooldef::NumberSchema {
            minimum: Some(3),
            maximum: Some(7),
            ..tooldef::NumberSchema::NONE_I64
        }))
    );

    // `allOf: [{$ref}]` with a description (pydantic's way to describe a reference).
    let i = input(
        json!({"type": "object", "properties": {"p": {"allOf": [{"$ref": "#/$defs/P"}], "description": "d"}}, "$defs": {"P": {"type": "string"}}}),
    );
    assert_eq!(i.value.params[0].schema, Schema::reference("P").description("d"));
}

#[test]
fn import_reads_draft_07_spellings_and_root_recursion() {
    let i = input_text(
        r##"{
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "node": {"$ref": "#/definitions/Node"},
            "again": {"$ref": "#"},
            "pct": {"type": "integer", "minimum": 0, "exclusiveMinimum": true, "maximum": 9, "exclusiveMaximum": false}
        },
        "definitions": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/definitions/Node"}}}}
    }"##,
    );
    let v = &i.value;
    assert_eq!(v.params[0].schema, Schema::reference("Node"));
    assert_eq!(v.params[1].schema, Schema::reference("Input"));
    assert!(
        matches!(v.params[2].schema.kind, SchemaKind::Integer(ref n) if n.exclusive_minimum == Some(0) && n.minimum.is_none() && n.maximum == Some(9))
    );
    assert_eq!(
        v.definitions.iter().map(|d| d.name.as_ref()).collect::<Vec<_>>(),
        ["Node", "Input"]
    );
    // The root copy is the input object itself.
    let SchemaKind::Object(root) = &v.definitions[1].schema.kind else { panic!() };
    assert_eq!(root.properties.to_vec(), v.params);
    assert!(i.notes.iter().any(|n| n.pointer == "/properties/again/$ref"), "{:?}", i.notes);
    assert!(i.notes.iter().any(|n| n.pointer == "/$schema"));

    // The root copy's name avoids an existing definition.
    let i = input(
        json!({"type": "object", "properties": {"r": {"$ref": "#"}}, "$defs": {"Input": {"type": "null"}}}),
    );
    assert_eq!(i.value.params[0].schema, Schema::reference("Input_2"));

    // A root that is a reference to an object definition.
    let i = input(
        json!({"$ref": "#/$defs/Args", "$defs": {"Args": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}}),
    );
    assert_eq!(i.value.params, [Param::string("q")]);
}

#[test]
fn annotation_keywords_are_kept_or_dropped_with_a_note() {
    let i = input(json!({
        "type": "object",
        "$id": "urn:x", "$comment": "c", "title": "Root title",
        "properties": {
            "a": {"type": "string", "title": "A", "examples": ["x"], "deprecated": true, "readOnly": true, "writeOnly": false, "x-vendor": 1, "frobnicate": 2},
            "b": {"type": "integer", "format": "uuid", "minLength": 3}
        }
    }));
    let a = &i.value.params[0].schema;
    assert_eq!(a.title.as_deref(), Some("A"));
    assert_eq!(a.examples.to_vec(), [Literal::from("x")]);
    let mut noted: Vec<(&str, &str)> =
        i.notes.iter().map(|n| (n.pointer.as_str(), n.keyword.as_str())).collect();
    noted.sort();
    assert_eq!(
        noted,
        [
            ("/$comment", "$comment"),
            ("/$id", "$id"),
            ("/properties/a/deprecated", "deprecated"),
            ("/properties/a/frobnicate", "frobnicate"),
            ("/properties/a/readOnly", "readOnly"),
            ("/properties/a/writeOnly", "writeOnly"),
            ("/properties/a/x-vendor", "x-vendor"),
            ("/properties/b/format", "format"),
            ("/properties/b/minLength", "minLength"),
            ("/title", "title"),
        ]
    );
    let note = i.notes.iter().find(|n| n.keyword == "deprecated").unwrap();
    assert_eq!(
        note.to_string(),
        "#/properties/a/deprecated: `deprecated` has no place in the IR and was dropped"
    );
}

#[test]
fn schemas_the_ir_cannot_hold_are_errors_naming_their_pointer() {
    let cases = [
        (
            json!({"allOf": [{"type": "string", "pattern": "a"}, {"pattern": "b"}]}),
            "/allOf/1/pattern",
        ),
        (json!({"allOf": [{"type": "string"}, {"type": "integer"}]}), "/allOf/1/type"),
        (
            json!({"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}, {"properties": {"b": {"type": "string"}}}]}),
            "/allOf/0/additionalProperties",
        ),
        (json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "minLength": 2}), "/minLength"),
        (
            json!({"$ref": "#/$defs/A", "maxLength": 3, "$defs": {"A": {"type": "string"}}}),
            "/maxLength",
        ),
        (json!({"$ref": "https://example.com/s.json"}), "/$ref"),
        (json!({"$ref": "#/properties/a"}), "/$ref"),
        (json!({"type": "object", "properties": {"a": false}}), "/properties/a"),
        (
            json!({"type": "object", "properties": {}, "required": ["ghost"], "additionalProperties": false}),
            "/required/0",
        ),
        (json!({"minimum": 1, "minLength": 1}), ""),
        (json!({"type": "string", "enum": ["a"], "maxLength": 3}), "/maxLength"),
    ];
    for (value, pointer) in cases {
        let (at, message) = fails(value.clone());
        assert_eq!(at, pointer, "{message}\nfor {value}");
        assert!(message.starts_with(&format!("#{pointer}: ")), "{message}");
    }
}

#[test]
fn wrong_keyword_types_are_errors() {
    let cases = [
        (
            json!({"type": "integer", "minimum": "3"}),
            "/minimum",
            "`minimum` must be a number; got the string \"3\"",
        ),
        (
            json!({"type": "integer", "multipleOf": -0.5}),
            "/multipleOf",
            "`multipleOf` must be a positive whole number, or a fraction of whole numbers, on an integer; got the number -0.5",
        ),
        (
            json!({"type": "string", "maxLength": -1}),
            "/maxLength",
            "`maxLength` must be a non-negative integer; got the number -1",
        ),
        (
            json!({"type": "strin"}),
            "/type",
            "`strin` is not a JSON Schema type; did you mean `string`?",
        ),
        (
            json!({"type": ["integer", "float"]}),
            "/type/1",
            "`float` is not a JSON Schema type; expected one of string, integer, number, boolean, null, array, object",
        ),
        (
            json!({"type": [1]}),
            "/type",
            "`type` must be a type name or an array of type names; got the number 1",
        ),
        (
            json!({"type": "object", "properties": []}),
            "/properties",
            "`properties` must be an object; got an array",
        ),
        (
            json!({"type": "object", "required": "a"}),
            "/required",
            "`required` must be an array of strings; got the string \"a\"",
        ),
        (
            json!({"type": "string", "pattern": 5}),
            "/pattern",
            "`pattern` must be a string; got the number 5",
        ),
        (
            json!({"type": "array", "items": {"type": "string"}, "uniqueItems": "yes"}),
            "/uniqueItems",
            "`uniqueItems` must be a boolean; got the string \"yes\"",
        ),
        (
            json!({"type": "object", "additionalProperties": 1}),
            "/additionalProperties",
            "`additionalProperties` must be a boolean or a schema; got the number 1",
        ),
        (json!({"anyOf": {}}), "/anyOf", "`anyOf` must be an array of schemas; got an object"),
        (json!({"$ref": 1}), "/$ref", "`$ref` must be a string; got the number 1"),
        (
            json!({"type": "string", "$defs": []}),
            "/$defs",
            "`$defs` must be an object; got an array",
        ),
        (json!("string"), "", "`schema` must be an object; got the string \"string\""),
    ];
    for (value, pointer, what) in cases {
        let (at, message) = fails(value);
        assert_eq!((at.as_str(), message), (pointer, format!("#{pointer}: {what}")));
    }
}

#[test]
fn dangling_references_and_bad_roots_are_errors() {
    let (at, msg) =
        fails_input(json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}));
    assert_eq!(
        (at.as_str(), msg.as_str()),
        (
            "/properties/a/$ref",
            "#/properties/a/$ref: `$ref` `#/$defs/Missing` points at nothing in the document"
        )
    );
    // A `$defs` name is not found through `#/definitions/`.
    let (at, _) = fails_input(
        json!({"type": "object", "properties": {"a": {"$ref": "#/definitions/A"}}, "$defs": {"A": {"type": "null"}}}),
    );
    assert_eq!(at, "/properties/a/$ref");

    for (root, pointer) in [
        (json!([]), ""),
        (json!(true), ""),
        (json!({"type": "string"}), "/type"),
        (json!({"type": ["object", "null"]}), "/type"),
        (json!({"anyOf": [{"type": "object"}, {"type": "null"}]}), "/anyOf"),
    ] {
        let e = import_input(&root).expect_err("bad root");
        assert_eq!(e.pointer, pointer, "{e}");
        assert!(matches!(e.kind, ImportErrorKind::NotAnObject { .. }), "{e}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let mut v = json!({"type": "string"});
    for _ in 0..200 {
        v = json!({"type": "array", "items": v});
    }
    let e = import_schema(&v).expect_err("too deep");
    assert!(matches!(e.kind, ImportErrorKind::TooDeep), "{e}");
    assert!(e.pointer.as_str().starts_with("/items/items/"));
    // 60 levels are fine.
    let mut v = json!({"type": "string"});
    for _ in 0..60 {
        v = json!({"type": "array", "items": v});
    }
    assert!(import_schema(&v).is_ok());
}

#[test]
fn hand_written_descriptors_round_trip() {
    let tree = ToolDescriptor::builder("tree__insert")
        .definition(Definition::named(
            "Node",
            Schema::object_of(vec![
                Param::string("label"),
                Param::named("children", Schema::list_of(Schema::reference("Node")))
                    .with_required(false),
            ]),
        ))
        .definition(Definition::named(
            "a/b~c d",
            Schema::enumeration_described(const { &[EnumValue::described("x", "the x")] })
                .nullable(),
        ))
        .param(Param::named("root", Schema::reference("Node")))
        .param(
            Param::named("odd", Schema::reference("a/b~c d").nullable())
                .with_default(Literal::Null),
        )
        .param(Param::named(
            "either",
            Schema::any_of_owned(vec![Schema::string(), Schema::integer()]).nullable(),
        ))
        .additional(Additional::Typed(Schema::boolean().into()))
        .output(Schema::reference("Node"))
        .build()
        .unwrap();
    for d in [&WEATHER, &tree] {
        let text = serde_json::to_string(&export_input_literal(d)).unwrap();
        let back = input_text(&text);
        assert!(back.notes.is_empty(), "{:?}", back.notes);
        let mut rebuilt = d.clone();
        back.value.apply_to(&mut rebuilt);
        assert_eq!(&rebuilt, d);
    }
}

#[test]
fn schemas_that_accept_any_value_import_as_any() {
    use tooldef::SchemaKind;
    let imported = tooldef::json_schema::import_input(&json!({
        "type": "object",
        "properties": {"a": {}, "b": true, "c": {"type": "array"}, "d": {"description": "free"}},
        "required": ["a"]
    }))
    .unwrap();
    let params = &imported.value.params;
    assert_eq!(params[0].schema.kind, SchemaKind::Any);
    assert_eq!(params[1].schema.kind, SchemaKind::Any);
    let SchemaKind::List(list) = &params[2].schema.kind else { panic!("an array") };
    assert_eq!(list.items.kind, SchemaKind::Any);
    assert_eq!(params[3].schema.kind, SchemaKind::Any);
    assert_eq!(params[3].schema.description.as_deref(), Some("free"));
    assert!(imported.notes.is_empty(), "nothing was dropped: {:?}", imported.notes);
    // And back: `{}` plus annotations, `items: {}`.
    let mut d = tooldef::ToolDescriptor::builder("any_tool").build().unwrap();
    imported.value.apply_to(&mut d);
    let out = tooldef::json_schema::export_input(&d);
    assert_eq!(out["properties"]["a"], json!({}));
    assert_eq!(out["properties"]["c"], json!({"type": "array", "items": {}}));
    assert_eq!(out["properties"]["d"], json!({"description": "free"}));
}

#[test]
fn keywords_the_ir_cannot_type_are_kept_verbatim_and_exported_as_they_were() {
    let cases = [
        json!({"type": "object", "properties": {"a": {"type": "string", "not": {"const": "x"}}}}),
        json!({"type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]}}),
        json!({"type": "object", "patternProperties": {"^x": {"type": "string"}}}),
        json!({"type": "object", "dependentRequired": {"a": ["b"]}}),
        json!({"type": "object", "propertyNames": {"maxLength": 8}, "minProperties": 1}),
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}}),
        json!({"type": "array", "items": [{"type": "string"}]}),
        json!({"type": "array", "items": {"type": "string"}, "contains": {"const": "x"}}),
        json!({"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}),
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "not": {"$ref": "#/$defs/B"}, "$defs": {"A": {"type": "string"}, "B": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}}}),
    ];
    for value in cases {
        let imported = import_schema(&value).unwrap_or_else(|e| panic!("{e}\nfor {value}"));
        let back = tooldef::export_schema(&imported.value.schema, &imported.value.definitions);
        assert_eq!(back, value);
        assert!(
            imported
                .notes
                .iter()
                .any(|n| n.message.starts_with("was kept verbatim") || n.keyword == "oneOf"),
            "{:?}",
            imported.notes
        );
    }
}

#[test]
fn import_reports_what_it_did_instead_of_refusing() {
    let imported = input_text(
        r#"{
        "type": "object",
        "properties": {
            "name": {"type": "string", "default": null},
            "flag": {"type": "boolean", "default": "false"},
            "unit": {"type": "string", "enum": ["c", "f"], "default": "k"},
            "big": {"type": "integer", "default": 18446744073709551615}
        },
        "required": ["ghost"],
        "$defs": {"Unused": {"oneOf": [{"type": "string"}, {"type": "string"}], "not": 3, "type": "nul"}}
    }"#,
    );
    let notes: Vec<String> = imported.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "#/properties/big/default: `default` cannot be held (`default` cannot be expressed by tooldef: integer 18446744073709551615 is outside the range of a 64-bit signed integer) and was dropped",
            "#/required/0: `required` names `ghost`, which `properties` does not list; it became a property that takes what other keys take",
            "#/properties/name/default: `default` is not a value its own schema accepts (null is a null, but the parameter is a string); it is kept to be shown as written and never applied",
            "#/properties/flag/default: `default` is not a value its own schema accepts (\"false\" is a string, but the parameter is a boolean); it is kept to be shown as written and never applied",
            "#/properties/unit/default: `default` is not a value its own schema accepts (\"k\" is not one of \"c\", \"f\"); it is kept to be shown as written and never applied",
            "#/$defs/Unused/type: `$defs` definition `Unused` is not referred to and could not be read (`nul` is not a JSON Schema type; did you mean `null`?); it was dropped",
        ]
    );
    let v = imported.value;
    assert!(v.params.iter().all(|p| p.schema.default.is_none()));
    // What the schema rejects is still the author's word to the model: kept, never applied.
    let kept: Vec<Vec<tooldef::Kept>> =
        v.params[..3].iter().map(|p| p.schema.kept.clone()).collect();
    assert_eq!(
        kept,
        [
            vec![tooldef::Kept::new("default", Value::Null)],
            vec![tooldef::Kept::new("default", json!("false"))],
            vec![tooldef::Kept::new("default", json!("k"))],
        ]
    );
    assert_eq!(v.params[4].name, "ghost");
    assert!(v.params[4].required);
    assert!(v.definitions.is_empty());
}

#[test]
fn a_definition_that_cannot_be_read_blocks_the_import_when_it_is_used() {
    let (at, message) = fails_input(json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/Bad"}},
        "$defs": {"Bad": {"type": "nul"}}
    }));
    assert_eq!(at, "/$defs/Bad/type");
    assert_eq!(message, "#/$defs/Bad/type: `nul` is not a JSON Schema type; did you mean `null`?");
}

/// JSON Schema lets an integer's bounds be any number: a fractional one is read as the integer
/// bound that admits exactly the same integers, and a step every integer is a multiple of is
/// dropped, each with a note saying so; a step that is neither stays an error.
#[test]
fn fractional_bounds_on_an_integer_admit_the_same_integers() {
    let v = json!({"type": "integer", "minimum": 0.1, "maximum": 9.5,
                   "exclusiveMinimum": -0.5, "exclusiveMaximum": 9.25, "multipleOf": 0.5});
    let imported = import_schema(&v).unwrap_or_else(|e| panic!("{e}"));
    let SchemaKind::Integer(n) = &imported.value.schema.kind else {
        panic!("{:?}", imported.value.schema)
    };
    assert_eq!(
        (n.minimum, n.maximum, n.exclusive_minimum, n.exclusive_maximum, n.multiple_of),
        (Some(1), Some(9), Some(-1), Some(10), None)
    );
    let notes: Vec<String> = imported.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "#/minimum: `minimum` 0.1 on an integer is read as 1",
            "#/maximum: `maximum` 9.5 on an integer is read as 9",
            "#/exclusiveMinimum: `exclusiveMinimum` -0.5 on an integer is read as -1",
            "#/exclusiveMaximum: `exclusiveMaximum` 9.25 on an integer is read as 10",
            "#/multipleOf: `multipleOf` 0.5: every integer is a multiple of it; dropped",
        ]
    );

    let (pointer, message) = fails(json!({"type": "integer", "multipleOf": 5e-324}));
    assert_eq!(pointer, "/multipleOf");
    assert_eq!(
        message,
        "#/multipleOf: `multipleOf` must be a positive whole number, or a fraction of whole \
         numbers, on an integer; got the number 5e-324"
    );
}

/// A fractional step on an integer means the fraction its author wrote: an integer is a
/// multiple of 0.3 (3/10) exactly when it is a multiple of 3, and of 1.5 (3/2) likewise. The
/// import keeps that whole step, and the decoder then holds calls to it.
#[test]
fn a_fractional_step_on_an_integer_is_read_as_its_whole_step() {
    for (step, whole) in [(0.3, 3), (1.5, 3), (0.25, 1), (2.4, 12)] {
        let imported = import_schema(&json!({"type": "integer", "multipleOf": step}))
            .unwrap_or_else(|e| panic!("{step}: {e}"));
        let SchemaKind::Integer(n) = &imported.value.schema.kind else {
            panic!("{:?}", imported.value.schema)
        };
        assert_eq!(n.multiple_of, (whole > 1).then_some(whole), "{step}");
        assert_eq!(imported.notes.len(), 1, "{step}: {:?}", imported.notes);
    }
    let imported = import_schema(&json!({"type": "integer", "multipleOf": 0.3})).unwrap();
    assert_eq!(
        imported.notes[0].to_string(),
        "#/multipleOf: `multipleOf` 0.3 on an integer is read as 3: an integer is a multiple of 3/10 exactly when it is a multiple of 3"
    );

    let mut tool = ToolDescriptor::new("take");
    input(json!({"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 0.3}},
                 "required": ["n"]}))
    .value
    .apply_to(&mut tool);
    let validator = tooldef::ArgValidator::new();
    for (n, valid) in [(0, true), (3, true), (-9, true), (4, false), (10, false)] {
        let args = json!({ "n": n });
        assert_eq!(validator.check_args(&tool, &args).is_ok(), valid, "{args}");
    }
}

/// Fractional bounds with no integer between them are refused at the bound, as written: the
/// rounded range (`minimum 1 is above maximum 0`) named neither the pointer nor the numbers the
/// author wrote. Bounds that leave integers, or an empty range written as whole inclusive
/// bounds (`minimum: 2, maximum: 1`, the descriptor check's), are not this check's business.
#[test]
fn fractional_bounds_that_leave_no_integer_are_refused_where_written() {
    let (pointer, message) = fails(json!({"type": "integer", "minimum": 0.5, "maximum": 0.7}));
    assert_eq!(pointer, "/minimum");
    assert_eq!(
        message,
        "#/minimum: `minimum` cannot be expressed by tooldef: 0.5 with `maximum` 0.7 leaves no \
         integer to accept (read as 1 and 0)"
    );
    let (pointer, message) =
        fails(json!({"type": "integer", "exclusiveMinimum": 3, "maximum": 2.9}));
    assert_eq!(pointer, "/exclusiveMinimum");
    assert_eq!(
        message,
        "#/exclusiveMinimum: `exclusiveMinimum` cannot be expressed by tooldef: 3 with `maximum` \
         2.9 leaves no integer to accept (read as 3 and 2)"
    );
    // One integer between: kept.
    let imported =
        import_schema(&json!({"type": "integer", "minimum": 0.5, "maximum": 1.5})).unwrap();
    let SchemaKind::Integer(n) = &imported.value.schema.kind else { panic!() };
    assert_eq!((n.minimum, n.maximum), (Some(1), Some(1)));
}

/// Exclusive bounds admit the integers past them: two that leave none between (though numbers
/// lie between) are refused at the lower bound, as written, like fractional ones. Each form:
/// both exclusive, inclusive against exclusive either way round, draft-04's booleans (whose
/// numbers are the plain keys'), and fractional exclusive bounds (named with what they were
/// read as).
#[test]
fn integer_bounds_that_leave_no_integer_are_refused_where_written() {
    let cases = [
        (
            json!({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 1}),
            "/exclusiveMinimum",
            "#/exclusiveMinimum: `exclusiveMinimum` cannot be expressed by tooldef: 0 with \
             `exclusiveMaximum` 1 leaves no integer to accept",
        ),
        (
            json!({"type": "integer", "minimum": 1, "exclusiveMaximum": 1}),
            "/minimum",
            "#/minimum: `minimum` cannot be expressed by tooldef: 1 with `exclusiveMaximum` 1 \
             leaves no integer to accept",
        ),
        (
            json!({"type": "integer", "exclusiveMinimum": 1, "maximum": 1}),
            "/exclusiveMinimum",
            "#/exclusiveMinimum: `exclusiveMinimum` cannot be expressed by tooldef: 1 with \
             `maximum` 1 leaves no integer to accept",
        ),
        (
            json!({"type": "integer", "minimum": 0, "maximum": 1,
                   "exclusiveMinimum": true, "exclusiveMaximum": true}),
            "/exclusiveMinimum",
            "#/exclusiveMinimum: `exclusiveMinimum` cannot be expressed by tooldef: 0 with \
             `exclusiveMaximum` 1 leaves no integer to accept",
        ),
        (
            json!({"type": "integer", "exclusiveMinimum": 0.2, "exclusiveMaximum": 0.9}),
            "/exclusiveMinimum",
            "#/exclusiveMinimum: `exclusiveMinimum` cannot be expressed by tooldef: 0.2 with \
             `exclusiveMaximum` 0.9 leaves no integer to accept (read as 0 and 1)",
        ),
    ];
    for (schema, pointer, message) in cases {
        assert_eq!(fails(schema.clone()), (pointer.to_owned(), message.to_owned()), "{schema}");
    }
}

/// A number's exclusive bound at the other bound leaves no number: refused the same way.
#[test]
fn number_bounds_that_leave_no_number_because_one_is_exclusive_are_refused_where_written() {
    let (pointer, message) =
        fails(json!({"type": "number", "exclusiveMinimum": 1.5, "exclusiveMaximum": 1.5}));
    assert_eq!(pointer, "/exclusiveMinimum");
    assert_eq!(
        message,
        "#/exclusiveMinimum: `exclusiveMinimum` cannot be expressed by tooldef: 1.5 with \
         `exclusiveMaximum` 1.5 leaves no number to accept"
    );
    let (pointer, message) = fails(json!({"type": "number", "minimum": 2, "exclusiveMaximum": 1}));
    assert_eq!(pointer, "/minimum");
    assert_eq!(
        message,
        "#/minimum: `minimum` cannot be expressed by tooldef: 2 with `exclusiveMaximum` 1 leaves \
         no number to accept"
    );
    // A number between, or one number both inclusive bounds admit: kept.
    for v in [
        json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1e-9}),
        json!({"type": "number", "minimum": 1, "maximum": 1, "exclusiveMinimum": 0.5}),
    ] {
        import_schema(&v).unwrap_or_else(|e| panic!("{v}: {e}"));
    }
}

#[test]
fn exclusive_bounds_with_one_integer_between_are_kept() {
    let imported =
        import_schema(&json!({"type": "integer", "exclusiveMinimum": 0, "exclusiveMaximum": 2}))
            .unwrap();
    let SchemaKind::Integer(n) = &imported.value.schema.kind else { panic!() };
    assert_eq!((n.exclusive_minimum, n.exclusive_maximum), (Some(0), Some(2)));
    let imported =
        import_schema(&json!({"type": "integer", "minimum": 1, "exclusiveMaximum": 2})).unwrap();
    let SchemaKind::Integer(n) = &imported.value.schema.kind else { panic!() };
    assert_eq!((n.minimum, n.exclusive_maximum), (Some(1), Some(2)));
}

// --- `$ref` to any place of the document -----------------------------------------------------

/// The input imported from text, exported again, with its notes.
fn through(text: &str) -> (Value, Vec<String>) {
    let imported = input_text(text);
    let notes = imported.notes.iter().map(ToString::to_string).collect();
    let mut d = ToolDescriptor::new("t");
    imported.value.apply_to(&mut d);
    d.validate().unwrap_or_else(|e| panic!("{e}"));
    (export_input(&d), notes)
}

#[test]
fn a_ref_to_another_property_s_items_imports_as_a_lifted_definition() {
    // The shape published MCP servers list: one property's items reused by another.
    let (exported, notes) = through(
        r##"{"type": "object", "properties": {
            "contents": {"type": "array", "items": {"type": "object", "properties": {"role": {"type": "string"}, "text": {"type": "string"}}, "required": ["text"]}},
            "system": {"$ref": "#/properties/contents/items"}}, "required": ["contents"]}"##,
    );
    let item = json!({"type": "object", "properties": {"role": {"type": "string"}, "text": {"type": "string"}}, "required": ["text"]});
    assert_eq!(
        exported,
        json!({
            "type": "object",
            "properties": {
                "contents": {"type": "array", "items": item},
                "system": {"$ref": "#/$defs/Input_contents_items"}
            },
            "required": ["contents"],
            "$defs": {"Input_contents_items": item}
        })
    );
    assert_eq!(
        notes,
        [
            "#/properties/system/$ref: `$ref` `#/properties/contents/items` became a reference to `Input_contents_items`, a definition that holds what it points at"
        ]
    );
}

#[test]
fn a_recursive_ref_to_a_property_imports_once_with_one_note() {
    let (exported, notes) = through(
        r##"{"type": "object", "properties": {
            "tree": {"type": "object", "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/properties/tree"}}}, "required": ["name"]}}}"##,
    );
    let tree = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Input_tree"}}
        },
        "required": ["name"]
    });
    assert_eq!(
        exported,
        json!({"type": "object", "properties": {"tree": tree}, "$defs": {"Input_tree": tree}})
    );
    // The place is read where it stands and again as the definition: noted once.
    assert_eq!(
        notes,
        [
            "#/properties/tree/properties/children/items/$ref: `$ref` `#/properties/tree` became a reference to `Input_tree`, a definition that holds what it points at"
        ]
    );
}

#[test]
fn refs_to_refs_into_any_of_and_through_escapes_resolve() {
    let (exported, notes) = through(
        r##"{"type": "object", "properties": {
            "a": {"$ref": "#/properties/b"},
            "b": {"$ref": "#/$defs/C"},
            "v": {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "integer"}]},
            "w": {"$ref": "#/properties/v/anyOf/0"},
            "x/y": {"type": "boolean"},
            "z": {"$ref": "#/properties/x~1y"},
            "q": {"$ref": "#/properties/%78~1y"}},
          "$defs": {"C": {"type": "string"}, "Input_b": {"type": "null"}}}"##,
    );
    assert_eq!(
        exported,
        json!({
            "type": "object",
            "properties": {
                "a": {"$ref": "#/$defs/Input_b_2"},
                "b": {"$ref": "#/$defs/C"},
                "v": {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "integer"}]},
                "w": {"$ref": "#/$defs/Input_v_anyOf_0"},
                "x/y": {"type": "boolean"},
                "z": {"$ref": "#/$defs/Input_x_y"},
                "q": {"$ref": "#/$defs/Input_x_y"}
            },
            "$defs": {
                "C": {"type": "string"},
                "Input_b": {"type": "null"},
                "Input_b_2": {"$ref": "#/$defs/C"},
                "Input_v_anyOf_0": {"type": "string", "maxLength": 3},
                "Input_x_y": {"type": "boolean"}
            }
        })
    );
    let became = |at: &str, target: &str, name: &str| {
        format!(
            "#{at}/$ref: `$ref` `{target}` became a reference to `{name}`, a definition that holds what it points at"
        )
    };
    assert_eq!(
        notes,
        [
            became("/properties/a", "#/properties/b", "Input_b_2"),
            became("/properties/w", "#/properties/v/anyOf/0", "Input_v_anyOf_0"),
            became("/properties/z", "#/properties/x~1y", "Input_x_y"),
            became("/properties/q", "#/properties/%78~1y", "Input_x_y"),
        ]
    );
    // A root that refers into a definition is read as the object it points at.
    let i = input(
        json!({"$ref": "#/$defs/W/properties/args", "$defs": {"W": {"type": "object", "properties": {"args": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}}}}),
    );
    assert_eq!(i.value.params, [Param::string("q")]);
    assert_eq!(
        i.notes.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["#/$ref: `$ref` at the root was followed; the schema it points at is the input object"]
    );
}

#[test]
fn lifted_definitions_are_named_alike_whatever_reads_alike_and_never_collide() {
    // Three places whose pointers read alike once made a name, beside a definition of the
    // document that already has that name, and the root's own copy.
    let i = input(json!({
        "type": "object",
        "properties": {
            "a.b": {"type": "string"}, "a b": {"type": "integer"}, "a_b": {"type": "boolean"},
            "p": {"$ref": "#/properties/a.b"}, "q": {"$ref": "#/properties/a b"},
            "r": {"$ref": "#/properties/a_b"}, "s": {"$ref": "#/properties/a.b"},
            "t": {"$ref": "#"}
        },
        "$defs": {"Input_a_b": {"type": "null"}}
    }));
    let refs: Vec<String> = i.value.params[3..]
        .iter()
        .map(|p| match &p.schema.kind {
            SchemaKind::Ref(r) => r.name.to_string(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(refs, ["Input_a_b_2", "Input_a_b_3", "Input_a_b_4", "Input_a_b_2", "Input"]);
    let names: Vec<&str> = i.value.definitions.iter().map(|d| d.name.as_ref()).collect();
    assert_eq!(names, ["Input_a_b", "Input_a_b_2", "Input_a_b_3", "Input_a_b_4", "Input"]);
}

#[test]
fn a_ref_to_no_place_or_round_a_cycle_is_refused_naming_it() {
    let cases = [
        (
            json!({"type": "object", "properties": {"a": {"$ref": "#/properties/nope/items"}}}),
            "#/properties/a/$ref: `$ref` `#/properties/nope/items` points at nothing in the document",
        ),
        (
            json!({"type": "object", "properties": {"a": {"type": "array", "items": [{}]}, "b": {"$ref": "#/properties/a/items/01"}}}),
            "#/properties/b/$ref: `$ref` `#/properties/a/items/01` points at nothing in the document",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "#/properties/a"}}}),
            "#/properties/a: `$ref` cannot be expressed by tooldef: `Input_a` refers to itself with no base case: no finite value matches it",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "#/properties/b"}, "b": {"$ref": "#/properties/a"}}}),
            "#/properties/b: `$ref` cannot be expressed by tooldef: `Input_b` refers to `Input_a` in a cycle with no base case (no concrete type, optional property, null or empty list on the way round): no finite value matches it",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "#properties/b"}}}),
            "#/properties/a/$ref: `$ref` cannot be expressed by tooldef: `#properties/b` is neither `#` nor a JSON pointer (`#/...`)",
        ),
    ];
    for (schema, want) in cases {
        assert_eq!(fails_input(schema.clone()).1, want, "{schema}");
    }
}

/// `format: "int32"` / `"int64"` on an integer means the bounds of a signed integer of that
/// width: import keeps it (any other format on an integer is still dropped with a note), and
/// export writes it back.
#[test]
fn an_integer_keeps_a_format_that_means_bounds() {
    let i = input_text(
        r#"{"type": "object", "properties": {
            "n": {"type": "integer", "format": "int32", "minimum": 0},
            "big": {"type": ["integer", "null"], "format": "int64"},
            "id": {"type": "integer", "format": "uuid"}
        }, "required": ["n"]}"#,
    );
    let notes: Vec<String> = i.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        ["#/properties/id/format: `format` does not apply to this type and was dropped"]
    );
    let SchemaKind::Integer(n) = &i.value.params[0].schema.kind else { panic!("integer") };
    assert_eq!((n.format.as_deref(), n.minimum, n.maximum), (Some("int32"), Some(0), None));
    let d = tooldef::ToolDescriptor::builder("t").params(i.value.params.clone()).build().unwrap();
    assert_eq!(
        tooldef::export_schema(&d.input_schema(), &[]),
        json!({"type": "object", "properties": {
            "n": {"type": "integer", "format": "int32", "minimum": 0},
            "big": {"type": ["integer", "null"], "format": "int64"},
            "id": {"type": "integer"}
        }, "required": ["n"], "additionalProperties": false})
    );
}
