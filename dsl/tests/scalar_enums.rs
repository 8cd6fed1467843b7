//! Enums of integers, numbers and booleans, alone or mixed with strings: built in Rust, read
//! from JSON Schema, written back, held in the IR's serde form, checked at dispatch and narrowed
//! by overrides.

use serde_json::{Value, json};
use tooldef::json_schema::{export_schema, import_input, import_schema};
use tooldef::{
    ArgValidator, EnumValue, Literal, Param, Scalar, ScalarRef, Schema, SchemaKind, ToolDescriptor,
};
use tooldef::{Constraint, JsonPointer, Override};

/// A `const` enum of integers with a described value, next to a plain string enum.
static LEVELS: ToolDescriptor = ToolDescriptor::new("set_level").params(
    const {
        &[
            Param::enumeration_described(
                "level",
                const {
                    &[
                        EnumValue::scalar(Scalar::Int(1)),
                        EnumValue::scalar(Scalar::Int(2)).with_description("Loud."),
                    ]
                },
            ),
            Param::enumeration("unit", &["c", "f"]).optional(),
        ]
    },
);

fn imported(v: Value) -> (Schema, Vec<String>) {
    let i = import_schema(&v).unwrap_or_else(|e| panic!("{e}"));
    (i.value.schema, i.notes.iter().map(ToString::to_string).collect())
}

fn refusal(v: Value) -> String {
    import_schema(&v).expect_err("must fail").to_string()
}

fn values(s: &Schema) -> Vec<Value> {
    let SchemaKind::Enum(e) = &s.kind else { panic!("not an enum: {s:?}") };
    e.values.iter().map(ScalarRef::to_json).collect()
}

#[test]
fn a_const_scalar_enum_validates_and_exports_its_values() {
    LEVELS.validate().unwrap();
    let level = &LEVELS.param("level").unwrap().schema;
    assert_eq!(
        export_schema(level, &[]),
        json!({"type": "integer", "anyOf": [{"const": 1}, {"const": 2, "description": "Loud."}]})
    );
    let unit = &LEVELS.param("unit").unwrap().schema;
    assert_eq!(export_schema(unit, &[]), json!({"type": "string", "enum": ["c", "f"]}));
}

#[test]
fn json_schema_equality_decides_duplicates_and_defaults() {
    // In `const` this is a compile error; at run time the same rule is a `Result`.
    let mut twice = ToolDescriptor::new("t");
    twice.params = vec![Param::named(
        "n",
        Schema::enumeration_of_scalars([Scalar::Int(1), Scalar::Float(1.0)]),
    )]
    .into();
    let e = twice.validate().unwrap_err().to_string();
    assert!(e.contains("enum value 1 is listed twice"), "{e}");

    let mut d = ToolDescriptor::new("t");
    d.params =
        vec![Param::named("n", Schema::enumeration_of_scalars([1_i64, 2])).with_default(2.0)]
            .into();
    d.validate().unwrap();
    d.params.to_mut()[0].schema.default = Some(Literal::Int(3));
    let e = d.validate().unwrap_err().to_string();
    assert!(e.contains("3 is not one of 1, 2"), "{e}");
}

#[test]
fn the_serde_form_round_trips_every_scalar_type() {
    let s = Schema::enumeration_of_scalars([
        Scalar::Int(3),
        Scalar::Float(2.5),
        Scalar::Float(4.0),
        Scalar::Bool(false),
        Scalar::str("x"),
    ])
    .nullable();
    let text = serde_json::to_string(&s).unwrap();
    assert!(
        text.contains(r#"{"value":3},{"value":2.5},{"value":4.0},{"value":false},{"value":"x"}"#),
        "{text}"
    );
    let back: Schema = serde_json::from_str(&text).unwrap();
    assert_eq!(back, s);
}

#[test]
fn import_takes_integer_number_boolean_and_mixed_enums_and_scalar_consts() {
    let (s, notes) = imported(json!({"type": "integer", "enum": [1, 2, 3]}));
    assert_eq!(values(&s), [json!(1), json!(2), json!(3)]);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(export_schema(&s, &[]), json!({"type": "integer", "enum": [1, 2, 3]}));

    let (s, _) = imported(json!({"type": "number", "enum": [0.5, 2]}));
    assert_eq!(export_schema(&s, &[]), json!({"type": "number", "enum": [0.5, 2]}));

    let (s, _) = imported(json!({"type": "boolean", "enum": [true]}));
    assert_eq!(export_schema(&s, &[]), json!({"type": "boolean", "enum": [true]}));

    let (s, _) = imported(json!({"enum": ["a", 1, null]}));
    assert!(s.nullable);
    assert_eq!(values(&s), [json!("a"), json!(1)]);
    assert_eq!(
        export_schema(&s, &[]),
        json!({"type": ["string", "integer", "null"], "enum": ["a", 1, null]})
    );

    let (s, _) = imported(json!({"type": ["integer", "null"], "enum": [7, null]}));
    assert!(s.nullable);
    assert_eq!(export_schema(&s, &[]), json!({"type": ["integer", "null"], "enum": [7, null]}));

    let (s, _) = imported(json!({"const": 5}));
    assert_eq!(values(&s), [json!(5)]);
    // `1.0` is an integer to JSON Schema, and held as one under `type: integer`.
    let (s, _) = imported(json!({"type": "integer", "const": 1.0}));
    assert_eq!(values(&s), [json!(1)]);

    // A union of described consts of several types.
    let (s, _) = imported(json!({"anyOf": [{"const": 1, "description": "one"}, {"const": "two"}]}));
    let SchemaKind::Enum(e) = &s.kind else { panic!("{s:?}") };
    assert_eq!(e.values.description_at(0), Some("one"));
    assert_eq!(values(&s), [json!(1), json!("two")]);
}

#[test]
fn a_type_that_disagrees_keeps_the_values_of_that_type_with_a_note() {
    let (s, notes) = imported(json!({"type": "string", "enum": ["a", 1]}));
    assert_eq!(values(&s), [json!("a")]);
    assert_eq!(
        notes,
        ["#/enum/1: `enum` the number 1 is excluded by `type` `string` and was dropped"]
    );

    let (s, notes) = imported(json!({"type": "integer", "enum": [1, "dontcare"]}));
    assert_eq!(values(&s), [json!(1)]);
    assert_eq!(notes.len(), 1, "{notes:?}");

    // Only when no value is left is it refused.
    let e = refusal(json!({"type": "boolean", "enum": ["True", "False"]}));
    assert!(e.ends_with("no value is valid"), "{e}");
    let e = refusal(json!({"enum": [[1], 2]}));
    assert!(e.contains("is not a scalar"), "{e}");
    let e = refusal(json!({"type": "integer", "enum": [1, 2], "maximum": 0}));
    assert!(e.ends_with("no value is valid"), "{e}");
}

#[test]
fn number_constraints_beside_an_enum_keep_the_values_that_meet_them() {
    // JSON Schema asks a value to satisfy both: the constraints pick values out of the enum,
    // and then say nothing more. Values of other types are not numbers to bound.
    let schema = json!({"enum": [1, 2, 2.5, 7, "seven", 10], "minimum": 2,
        "exclusiveMaximum": 10, "multipleOf": 0.5});
    let i = import_schema(&schema).unwrap();
    assert_eq!(values(&i.value.schema), [json!(2), json!(2.5), json!(7), json!("seven")]);
    let notes: Vec<(&str, &str, &str)> = i
        .notes
        .iter()
        .map(|n| (n.pointer.as_str(), n.keyword.as_str(), n.message.as_str()))
        .collect();
    assert_eq!(
        notes,
        [
            (
                "/enum/0",
                "enum",
                "the number 1 is excluded by the number constraints beside it (it must be at least 2) and was dropped"
            ),
            (
                "/enum/5",
                "enum",
                "the number 10 is excluded by the number constraints beside it (it must be less than 10) and was dropped"
            ),
            (
                "/exclusiveMaximum",
                "exclusiveMaximum",
                "was applied to the values of `enum`, which all meet it now; dropped"
            ),
            (
                "/minimum",
                "minimum",
                "was applied to the values of `enum`, which all meet it now; dropped"
            ),
            (
                "/multipleOf",
                "multipleOf",
                "was applied to the values of `enum`, which all meet it now; dropped"
            ),
        ]
    );
    // A const and a draft-04 exclusive bound.
    let i = import_schema(&json!({"const": 3, "maximum": 3, "exclusiveMaximum": true}));
    assert!(i.unwrap_err().to_string().ends_with("no value is valid"));
    let i = import_schema(&json!({"const": 3, "maximum": 3})).unwrap();
    assert_eq!(values(&i.value.schema), [json!(3)]);
    // A constraint that is not a number is not JSON Schema.
    let e = refusal(json!({"enum": [1], "minimum": "1"}));
    assert!(e.contains("minimum"), "{e}");
}

#[test]
fn an_mcp_input_schema_round_trips_its_enums() {
    let input = json!({"type": "object", "properties": {
        "n": {"type": "integer", "enum": [1, 2, 3]},
        "x": {"type": "number", "enum": [0.25, 1.5]},
        "m": {"type": ["string", "integer", "null"], "enum": ["a", 1, null]},
        "b": {"type": "boolean", "enum": [false]}
    }});
    let i = import_input(&input).unwrap();
    let mut d = ToolDescriptor::new("t");
    i.value.apply_to(&mut d);
    d.validate().unwrap();
    let out = tooldef::json_schema::export_input(&d);
    for key in ["n", "x", "m", "b"] {
        assert_eq!(out["properties"][key]["enum"], input["properties"][key]["enum"], "{key}");
        assert_eq!(out["properties"][key]["type"], input["properties"][key]["type"], "{key}");
    }
}

#[test]
fn dispatch_accepts_exactly_the_json_equal_values_and_lists_them_as_json() {
    let v = ArgValidator::new();
    let unit = &JsonPointer::from_segments(["unit"]);
    let s = Schema::enumeration_of_scalars([1_i64, 2]);
    for ok in [json!(1), json!(2), json!(1.0), json!(2.0)] {
        assert!(v.check_value(&s, &[], &ok, unit).is_ok(), "{ok}");
    }
    let e = v.check_value(&s, &[], &json!(3), unit).unwrap_err().to_string();
    assert_eq!(e, "/unit must be one of 1, 2; got 3");
    let e = v.check_value(&s, &[], &json!("1"), unit).unwrap_err().to_string();
    assert_eq!(e, r#"/unit must be one of 1, 2; got "1""#);
    let mixed = Schema::enumeration_of_scalars([Scalar::str("a"), Scalar::Bool(true)]);
    assert!(v.check_value(&mixed, &[], &json!(true), &JsonPointer::root()).is_ok());
    let e = v
        .check_value(&mixed, &[], &json!(false), &JsonPointer::from_segments(["m"]))
        .unwrap_err()
        .to_string();
    assert_eq!(e, r#"/m must be one of "a", true; got false"#);
    // A string enum's message is what it was.
    let strings = Schema::enumeration(&["celsius", "fahrenheit"]);
    let e = v.check_value(&strings, &[], &json!("kelvin"), unit).unwrap_err().to_string();
    assert_eq!(e, r#"/unit must be one of "celsius", "fahrenheit"; got "kelvin""#);
}

#[test]
fn overrides_narrow_scalar_enums_by_json_values() {
    let mut d = ToolDescriptor::new("t");
    d.params = vec![Param::named("n", Schema::enumeration_of_scalars([1_i64, 2, 3]))].into();
    let narrowed =
        Override::constrain("n", Constraint::one_of_values([3_i64, 1])).apply(&d).unwrap();
    let SchemaKind::Enum(e) = &narrowed.param("n").unwrap().schema.kind else { panic!() };
    assert_eq!(e.values.iter().map(ScalarRef::to_json).collect::<Vec<_>>(), [json!(1), json!(3)]);
    let err = Override::constrain("n", Constraint::one_of_values([4_i64])).apply(&d).unwrap_err();
    assert!(err.to_string().contains("`4`"), "{err}");
}
