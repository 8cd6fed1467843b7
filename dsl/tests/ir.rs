//! The IR, the `const` DSL and the run-time builder: every rule of `validate` is enforced at run
//! time with a message naming tool, parameter and rule (the compile-time side is pinned by
//! `ui-tests/`).

use std::borrow::Cow;

use tooldef::{
    Additional, BuildError, Definition, Literal, Param, Rule, Schema, SchemaKind, ToolDescriptor,
    ToolName,
};

static CITY: Schema = Schema::string().description("City name");

static WEATHER: ToolDescriptor =
    ToolDescriptor::new("get_weather").description("Get the current weather for a city.").params(
        const {
            &[
                Param::string("city").description("City name, e.g. \"Paris\"."),
                Param::enumeration("unit", &["celsius", "fahrenheit"]).default_str("celsius"),
                Param::integer("days").range(1, 10).default_int(3),
                Param::list("tags", &CITY).length(0, 5).optional(),
                Param::float("ratio").range_f64(0.0, 1.0).nullable().optional(),
            ]
        },
    );

static TREE: ToolDescriptor = ToolDescriptor::new("tree__insert")
    .definitions(
        const {
            &[Definition::new(
                "Node",
                Schema::object(
                    const {
                        &[
                            Param::string("label"),
                            Param::list("children", const { &Schema::reference("Node") })
                                .optional(),
                        ]
                    },
                ),
            )]
        },
    )
    .params(const { &[Param::new("root", Schema::reference("Node"))] });

#[test]
fn const_descriptor_keeps_the_three_facts_apart() {
    let unit = WEATHER.param("unit").unwrap();
    assert!(!unit.required);
    assert!(!unit.is_nullable());
    assert_eq!(unit.default_value(), Some(&Literal::str("celsius")));

    let ratio = WEATHER.param("ratio").unwrap();
    assert!(!ratio.required && ratio.is_nullable() && ratio.default_value().is_none());

    let city = WEATHER.param("city").unwrap();
    assert!(city.required && !city.is_nullable() && city.default_value().is_none());

    let names: Vec<_> = WEATHER.params.iter().map(|p| p.name()).collect();
    assert_eq!(names, ["city", "unit", "days", "tags", "ratio"]);
}

#[test]
fn recursive_types_are_expressed_by_definitions() {
    assert!(TREE.validate().is_ok());
    let node = TREE.definition("Node").unwrap();
    let SchemaKind::Object(obj) = &node.kind else { panic!("Node is an object") };
    let SchemaKind::List(children) = &obj.properties[1].schema.kind else { panic!("a list") };
    assert_eq!(children.items.kind, SchemaKind::Ref(tooldef::RefSchema { name: "Node".into() }));
}

#[test]
fn namespaces_follow_the_double_underscore_convention() {
    let n = ToolName::parse("a2a__weather__forecast").unwrap();
    assert_eq!(n.namespace(), Some("a2a"));
    assert_eq!(n.local_name(), "weather__forecast");
    let n = ToolName::new("get_weather");
    assert_eq!((n.namespace(), n.local_name()), (None, "get_weather"));
    let n = ToolName::parse("__orphan").unwrap();
    assert_eq!((n.namespace(), n.local_name()), (None, "orphan"));
    assert_eq!(TREE.namespace(), Some("tree"));
    let moved = n.with_namespace(Some("mcp")).unwrap();
    assert_eq!(moved, "mcp__orphan");
}

#[test]
fn tool_names_follow_the_common_rule() {
    assert!(ToolName::parse("get-weather_2").is_ok());
    assert!(ToolName::parse("a".repeat(64)).is_ok());
    let long = ToolName::parse("a".repeat(65)).unwrap_err();
    assert!(long.to_string().contains("65 characters"), "{long}");
    let dot = ToolName::parse("weather.get").unwrap_err();
    assert!(dot.to_string().contains("'.'"), "{dot}");
    assert!(matches!(ToolName::parse(""), Err(tooldef::NameError::Empty { .. })));
    assert!(ToolName::parse("wé").is_err());
}

#[test]
fn names_read_from_outside_follow_the_wide_rule() {
    let dotted = ToolName::parse_wide("weather.get").unwrap();
    assert!(!dotted.is_portable());
    assert!(ToolName::new("get_weather").is_portable());
    assert!(ToolName::parse_wide("a".repeat(128)).is_ok());
    assert_eq!(
        ToolName::parse_wide("a".repeat(129)).unwrap_err().to_string(),
        format!("tool name `{}` is 129 characters long; at most 128 are allowed", "a".repeat(129))
    );
    assert_eq!(
        ToolName::parse_wide("get weather").unwrap_err().to_string(),
        "tool name `get weather` has the character ' ' at byte 3; only a-z, A-Z, 0-9, `_`, `-` and `.` are allowed"
    );
    assert_eq!(
        ToolName::parse_wide("").unwrap_err().to_string(),
        "tool name is empty; it must match ^[a-zA-Z0-9_.-]{1,128}$"
    );
    // A serialized descriptor may carry a wide name; it reads back as it was.
    let d = ToolDescriptor::builder("x").build().unwrap();
    let mut json = serde_json::to_value(&d).unwrap();
    json["name"] = "github.create_issue".into();
    let back: ToolDescriptor = serde_json::from_value(json).unwrap();
    assert_eq!(back.name, "github.create_issue");
    // A namespace keeps the rule the name keeps to.
    assert_eq!(dotted.with_namespace(Some("mcp")).unwrap(), "mcp__weather.get");
    assert!(ToolName::new("get").with_namespace(Some("a.b")).is_err());
}

#[test]
fn serde_round_trip_of_the_ir() {
    for d in [&WEATHER, &TREE] {
        let json = serde_json::to_string(d).unwrap();
        let back: ToolDescriptor = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, d);
        assert_eq!(serde_json::to_string(&back).unwrap(), json, "byte-identical re-serialisation");
    }
    let bad = r#"{"name":"bad name"}"#;
    let err = serde_json::from_str::<ToolDescriptor>(bad).unwrap_err();
    assert!(err.to_string().contains("bad name"), "{err}");
}

fn build(params: Vec<Param>) -> Result<ToolDescriptor, BuildError> {
    ToolDescriptor::builder(String::from("dyn_tool")).params(params).build()
}

fn rule_of(params: Vec<Param>) -> (Rule, String, String) {
    match build(params) {
        Err(BuildError::Invalid(e)) => (e.rule, e.param, e.message),
        other => panic!("expected a rule violation, got {other:?}"),
    }
}

#[test]
fn runtime_builder_accepts_valid_owned_data() {
    let name = format!("{}_{}", "search", "docs");
    let d = ToolDescriptor::builder(name)
        .description(String::from("Search the docs."))
        .param(Param::named(String::from("query"), Schema::string()).with_description("terms"))
        .param(Param::named("limit", Schema::integer()).with_default(10_i64))
        .build()
        .unwrap();
    assert_eq!(d.name, "search_docs");
    assert_eq!(d.params.len(), 2);
    assert!(matches!(d.params, Cow::Owned(_)));
}

#[test]
fn runtime_builder_rejects_a_bad_name() {
    let err = ToolDescriptor::builder("has space").build().unwrap_err();
    assert!(matches!(err, BuildError::Name(_)));
    assert!(err.to_string().contains("has space"));
}

#[test]
fn duplicate_parameter_names_are_rejected() {
    let (rule, param, msg) = rule_of(vec![Param::string("city"), Param::integer("city")]);
    assert_eq!(rule, Rule::DuplicateParam);
    assert_eq!(param, "city");
    assert_eq!(msg, "tool `dyn_tool`: parameter `city`: duplicate parameter name `city`");
}

#[test]
fn duplicates_inside_nested_objects_name_the_path() {
    let inner = Schema::object_of(vec![Param::string("a"), Param::string("a")]);
    let (rule, param, _) = rule_of(vec![Param::named("filter", inner)]);
    assert_eq!((rule, param.as_str()), (Rule::DuplicateParam, "filter.a"));
}

#[test]
fn empty_parameter_names_are_rejected() {
    assert_eq!(rule_of(vec![Param::named("", Schema::string())]).0, Rule::EmptyParamName);
}

#[test]
fn empty_and_duplicate_enums_are_rejected() {
    let empty = Schema::enumeration_of(Vec::<String>::new());
    assert_eq!(rule_of(vec![Param::named("u", empty)]).0, Rule::EmptyEnum);
    let dup = Schema::enumeration_of(["a", "b", "a"]);
    let (rule, _, msg) = rule_of(vec![Param::named("u", dup)]);
    assert_eq!(rule, Rule::DuplicateEnumValue);
    assert!(msg.ends_with("enum value \"a\" is listed twice"), "{msg}");
}

/// The empty string is an enum value like any other (JSON Schema takes it, and no provider
/// documents a refusal): the `const` builder (a compile error before), the run-time builder and
/// import all accept it, and it is written as it is.
#[test]
fn the_empty_string_is_an_enum_value_like_any_other() {
    static BLANK: ToolDescriptor =
        ToolDescriptor::new("pick").params(const { &[Param::enumeration("u", &["", "a"])] });
    assert_eq!(BLANK.validate(), Ok(()));
    let built = ToolDescriptor::builder("pick")
        .param(Param::named("u", Schema::enumeration_of(["", "a"])))
        .build()
        .unwrap();
    assert_eq!(built, BLANK);
    let spec = tooldef::parse_spec(
        "pick.json",
        r#"{"name": "pick", "input_schema": {"type": "object", "properties":
            {"u": {"type": "string", "enum": ["", "a"]}}, "required": ["u"]}}"#,
        None,
    )
    .unwrap();
    assert_eq!(spec.notes, []);
    assert_eq!(
        tooldef::export_schema(&spec.descriptor.input_schema(), &[]),
        serde_json::json!({"type": "object", "properties":
            {"u": {"type": "string", "enum": ["", "a"]}}, "required": ["u"]})
    );
}

#[test]
fn min_above_max_is_rejected_for_every_bound() {
    let (rule, _, msg) = rule_of(vec![Param::integer("n").range(5, 1)]);
    assert_eq!(rule, Rule::MinAboveMax);
    assert!(msg.ends_with("minimum 5 is above maximum 1"), "{msg}");
    let (_, _, msg) = rule_of(vec![Param::float("f").range_f64(0.75, 0.5)]);
    assert!(msg.ends_with("minimum 0.75 is above maximum 0.5"), "{msg}");
    assert_eq!(rule_of(vec![Param::string("s").length(3, 2)]).0, Rule::MinAboveMax);
    assert_eq!(rule_of(vec![Param::list("l", &CITY).length(3, 2)]).0, Rule::MinAboveMax);
    let excl = Param::integer("e").exclusive_range(Some(4), Some(2));
    assert_eq!(rule_of(vec![excl]).0, Rule::MinAboveMax);
    // Exclusive bounds admit the values past them: these leave none, though read as inclusive
    // they would.
    let (rule, _, msg) = rule_of(vec![Param::integer("e").exclusive_range(Some(0), Some(1))]);
    assert_eq!(rule, Rule::MinAboveMax);
    assert_eq!(
        msg,
        "tool `dyn_tool`: parameter `e`: the bounds exclusive minimum 0, exclusive maximum 1 leave no integer"
    );
    let (rule, _, msg) = rule_of(vec![Param::integer("e").min(1).exclusive_range(None, Some(1))]);
    assert_eq!(rule, Rule::MinAboveMax);
    assert_eq!(
        msg,
        "tool `dyn_tool`: parameter `e`: the bounds minimum 1, exclusive maximum 1 leave no integer"
    );
    let (rule, _, msg) = rule_of(vec![Param::float("f").exclusive_range(Some(1), Some(1))]);
    assert_eq!(rule, Rule::MinAboveMax);
    assert_eq!(
        msg,
        "tool `dyn_tool`: parameter `f`: the bounds meet at 1 and one of them is exclusive, which leaves no number"
    );
    assert!(build(vec![Param::integer("e").exclusive_range(Some(0), Some(2))]).is_ok());
    assert!(build(vec![Param::float("f").exclusive_range(Some(0), Some(1))]).is_ok());
    assert!(build(vec![Param::float("f").range(1, 1)]).is_ok());
    assert_eq!(rule_of(vec![Param::integer("m").multiple_of(0)]).0, Rule::BadMultipleOf);
}

#[test]
fn defaults_must_fit_type_range_and_enum() {
    let (rule, _, msg) = rule_of(vec![Param::integer("days").range(1, 10).default_int(11)]);
    assert_eq!(rule, Rule::OutOfRange);
    assert!(msg.ends_with("default 11 is above the maximum 10"), "{msg}");

    let (rule, _, msg) = rule_of(vec![Param::integer("days").default_str("three")]);
    assert_eq!(rule, Rule::WrongType);
    assert!(
        msg.ends_with("default \"three\" is a string, but the parameter is an integer"),
        "{msg}"
    );

    let unit = Param::enumeration("unit", &["celsius", "fahrenheit"]).default_str("kelvin");
    let (rule, param, msg) = rule_of(vec![unit]);
    assert_eq!((rule, param.as_str()), (Rule::NotInEnum, "unit"));
    assert!(msg.ends_with("default \"kelvin\" is not one of \"celsius\", \"fahrenheit\""), "{msg}");

    let (rule, _, _) = rule_of(vec![Param::string("s").length(2, 4).default_str("toolong")]);
    assert_eq!(rule, Rule::OutOfRange);

    let (rule, _, _) = rule_of(vec![Param::string("s").default(Literal::Null)]);
    assert_eq!(rule, Rule::WrongType);
    assert!(build(vec![Param::string("s").nullable().default(Literal::Null)]).is_ok());

    let (rule, _, _) = rule_of(vec![Param::integer("i").multiple_of(5).default_int(7)]);
    assert_eq!(rule, Rule::OutOfRange);
    assert!(build(vec![Param::float("f").default_int(2)]).is_ok(), "an integer is a number");
}

#[test]
fn structured_defaults_are_checked_deeply() {
    let point = Schema::object_of(vec![Param::integer("x").range(0, 9), Param::integer("y")]);
    let ok = Literal::from_json(&serde_json::json!({"x": 1, "y": 2})).unwrap();
    assert!(build(vec![Param::named("p", point.clone()).with_default(ok)]).is_ok());
    let out = Literal::from_json(&serde_json::json!({"x": 10, "y": 2})).unwrap();
    let (rule, param, _) = rule_of(vec![Param::named("p", point.clone()).with_default(out)]);
    assert_eq!((rule, param.as_str()), (Rule::OutOfRange, "p.x"));
    let extra = Literal::from_json(&serde_json::json!({"x": 1, "y": 2, "z": 3})).unwrap();
    assert_eq!(
        rule_of(vec![Param::named("p", point.clone()).with_default(extra)]).0,
        Rule::WrongType
    );
    let missing = Literal::from_json(&serde_json::json!({"x": 1})).unwrap();
    assert_eq!(rule_of(vec![Param::named("p", point).with_default(missing)]).0, Rule::WrongType);
}

#[test]
fn examples_are_checked_like_defaults() {
    let p = Param::integer("n").range(0, 3).examples(&[Literal::Int(2), Literal::Int(4)]);
    let (rule, _, msg) = rule_of(vec![p]);
    assert_eq!(rule, Rule::OutOfRange);
    assert!(msg.contains("example 4"), "{msg}");
}

#[test]
fn builder_misuse_is_reported() {
    let (rule, _, msg) = rule_of(vec![Param::string("s").range(1, 2)]);
    assert_eq!(rule, Rule::Misuse);
    assert!(msg.contains("applies only to integer and number parameters, not to string"), "{msg}");
    assert_eq!(rule_of(vec![Param::integer("i").pattern("x")]).0, Rule::Misuse);
    assert_eq!(rule_of(vec![Param::boolean("b").unique()]).0, Rule::Misuse);
}

#[test]
fn references_must_name_a_definition() {
    let (rule, _, msg) = rule_of(vec![Param::named("r", Schema::reference("Missing"))]);
    assert_eq!(rule, Rule::UnknownRef);
    assert!(msg.contains("`Missing`"), "{msg}");
    let err = ToolDescriptor::builder("defs")
        .definition(Definition::new("A", Schema::string()))
        .definition(Definition::new("A", Schema::integer()))
        .build()
        .unwrap_err();
    assert!(matches!(err, BuildError::Invalid(e) if e.rule == Rule::DuplicateDefinition));
}

#[test]
fn open_and_typed_additional_properties() {
    let map = Schema::map(&CITY);
    let SchemaKind::Object(o) = &map.kind else { panic!() };
    assert!(matches!(o.additional, Additional::Typed(_)));
    assert_eq!(ToolDescriptor::new("x").open().additional, Additional::Open);
}

#[test]
fn annotations_and_display_name() {
    const T: ToolDescriptor = ToolDescriptor::new("wipe").destructive(true).idempotent();
    assert_eq!(T.annotations.destructive, Some(true));
    assert_eq!(T.display_name(), "wipe");
    assert_eq!(T.clone().title("Wipe").display_name(), "Wipe");
}

#[test]
fn non_finite_numbers_are_rejected() {
    let (rule, _, msg) = rule_of(vec![Param::float("f").range_f64(f64::NEG_INFINITY, 1.0)]);
    assert_eq!(rule, Rule::NotFinite);
    assert!(msg.ends_with("a bound or step is -infinity; JSON numbers must be finite"), "{msg}");
    let (rule, _, msg) = rule_of(vec![Param::float("f").default_float(f64::NAN)]);
    assert_eq!(rule, Rule::NotFinite);
    assert!(msg.ends_with("default NaN is not a finite number; JSON cannot carry it"), "{msg}");
}

#[test]
fn range_misuse_names_range() {
    let (_, _, msg) = rule_of(vec![Param::string("s").range(1, 2)]);
    assert!(msg.contains("`range` applies only to integer and number parameters"), "{msg}");
}
