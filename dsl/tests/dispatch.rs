//! Dispatch as the model sees it: every failure is an error result whose text says what to fix,
//! with the JSON pointer of the argument at fault.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tooldef::arg_checks::{self, ArgErrors};
use tooldef::dispatch::{
    ArgValidator, DispatchErrorKind, DynamicTool, Toolbox, TypedTool, apply_defaults, block_on,
};
use tooldef::{
    Additional, Arguments, BoxFuture, Definition, Executor, Param, Schema, Tool, ToolCall,
    ToolDescriptor, ToolError, ToolResult,
};

static WEATHER: ToolDescriptor =
    ToolDescriptor::new("get_weather").description("Get the current weather for a city.").params(
        const {
            &[
                Param::string("city").description("City name"),
                Param::enumeration("unit", &["celsius", "fahrenheit"]).default_str("celsius"),
                Param::integer("days").range(1, 10).default_int(3),
            ]
        },
    );

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct WeatherArgs {
    city: String,
    #[serde(default)]
    unit: Unit,
    #[serde(default = "three")]
    days: u8,
}

fn three() -> u8 {
    3
}

#[derive(Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Unit {
    #[default]
    Celsius,
    Fahrenheit,
}

#[derive(Debug, Serialize)]
struct Forecast {
    city: String,
    days: u8,
    fahrenheit: bool,
}

struct GetWeather;

impl Tool for GetWeather {
    const NAME: &'static str = "get_weather";
    type Args = WeatherArgs;
    type Output = Forecast;

    fn descriptor() -> &'static ToolDescriptor {
        &WEATHER
    }

    fn check(args: &WeatherArgs) -> Result<(), ArgErrors> {
        arg_checks::int_range(args.days, Some(1), Some(10), "/days").map_err(ArgErrors::from)
    }

    fn call(&self, args: WeatherArgs) -> BoxFuture<'_, Result<Forecast, ToolError>> {
        Box::pin(async move {
            match args.city.as_str() {
                "Atlantis" => Err(ToolError::new("Atlantis has no weather station")),
                "Boom" => panic!("the station exploded"),
                _ => Ok(Forecast {
                    city: args.city,
                    days: args.days,
                    fahrenheit: args.unit == Unit::Fahrenheit,
                }),
            }
        })
    }
}

fn toolbox() -> Toolbox {
    Toolbox::new().with(GetWeather)
}

fn call_json(args: Value) -> ToolResult {
    toolbox().call_blocking(&ToolCall::new("c1", "get_weather", args))
}

fn call_text(args: &str) -> ToolResult {
    let call = ToolCall {
        id: "c1".into(),
        name: "get_weather".into(),
        arguments: Arguments::Text(args.into()),
    };
    toolbox().call_blocking(&call)
}

fn error_text(result: ToolResult) -> String {
    assert!(result.is_error, "expected an error result, got {result:?}");
    assert_eq!(result.structured, None);
    result.text()
}

#[test]
fn typed_tool_decodes_text_and_values_the_same_way() {
    let expected = json!({"city": "Paris", "days": 3, "fahrenheit": true});
    for result in [
        call_text(r#"{"city": "Paris", "unit": "fahrenheit"}"#),
        call_json(json!({"city": "Paris", "unit": "fahrenheit"})),
    ] {
        assert!(!result.is_error, "{result:?}");
        assert_eq!(result.call_id, "c1");
        assert_eq!(result.name, "get_weather");
        assert_eq!(result.structured.as_ref(), Some(&expected));
        assert_eq!(result.text(), expected.to_string());
    }
}

#[test]
fn a_wrong_enum_value_names_the_pointer_and_the_choices() {
    let want = r#"invalid arguments for get_weather: /unit must be one of "celsius", "fahrenheit"; got "kelvin""#;
    assert_eq!(error_text(call_text(r#"{"city": "Paris", "unit": "kelvin"}"#)), want);
    assert_eq!(error_text(call_json(json!({"city": "Paris", "unit": "kelvin"}))), want);
}

#[test]
fn every_problem_is_reported_at_once() {
    let text = error_text(call_text(r#"{"days": "three", "unit": "kelvin", "extra": 1}"#));
    assert_eq!(
        text,
        "invalid arguments for get_weather:\n\
         - /city is required\n\
         - /unit must be one of \"celsius\", \"fahrenheit\"; got \"kelvin\"\n\
         - /days must be an integer; got \"three\"\n\
         - /extra is not a parameter of get_weather; the parameters are city, unit, days"
    );
}

#[test]
fn null_is_not_absent() {
    // `city` is not nullable: null is a wrong value, not a missing key.
    assert_eq!(
        error_text(call_json(json!({"city": null}))),
        "invalid arguments for get_weather: /city must be a string; got null"
    );
    assert_eq!(
        error_text(call_json(json!({"city": "Paris", "days": null}))),
        "invalid arguments for get_weather: /days must be an integer; got null"
    );
}

#[test]
fn checks_of_the_typed_tool_run_after_decoding() {
    assert_eq!(
        error_text(call_json(json!({"city": "Paris", "days": 11}))),
        "invalid arguments for get_weather: /days must be at most 10; got 11"
    );
}

/// What a reporter that walks `source()` prints: each error's text, joined by `: `.
fn chain(err: &dyn std::error::Error) -> String {
    let mut out = err.to_string();
    let mut next = err.source();
    while let Some(e) = next {
        out.push_str(": ");
        out.push_str(&e.to_string());
        next = e.source();
    }
    out
}

#[test]
fn invalid_arguments_tell_the_model_the_pointer_and_leave_the_cause_to_source() {
    let call = ToolCall::new("c1", "get_weather", json!({"city": "Paris", "days": 11}));
    let err = toolbox().check(&call).unwrap_err();
    let want = "invalid arguments for get_weather: /days must be at most 10; got 11";
    // The model reads the pointer and the fix, whether the host answers with the error or
    // lets the toolbox answer.
    assert_eq!(err.model_text(), want);
    assert_eq!(err.to_result(&call).text(), want);
    assert_eq!(error_text(toolbox().call_blocking(&call)), want);
    // The problems are the source; the error's own text does not repeat them.
    assert_eq!(err.to_string(), "invalid arguments for get_weather");
    let source = std::error::Error::source(&err).expect("the argument errors are the source");
    let errors = source.downcast_ref::<ArgErrors>().expect("the source is ArgErrors");
    assert_eq!(errors.0.len(), 1);
    assert_eq!(errors.0[0].pointer, "/days");
    let report = chain(&err);
    assert_eq!(report.matches("/days must be at most 10").count(), 1, "{report}");
    assert_eq!(report, want);

    // An error with no cause of its own has no source, and the model reads its text.
    let call = ToolCall::new("c2", "get_wether", json!({}));
    let err = toolbox().check(&call).unwrap_err();
    assert_eq!(err.tool(), "get_wether");
    assert!(matches!(err.kind(), DispatchErrorKind::UnknownTool { .. }), "{err:?}");
    assert!(std::error::Error::source(&err).is_none());
    assert_eq!(err.model_text(), err.to_string());
}

#[test]
fn malformed_json_says_where() {
    assert_eq!(
        error_text(call_text(r#"{"city": "Paris""#)),
        "the arguments of get_weather are not valid JSON: EOF while parsing an object at line 1 column 16"
    );
    assert_eq!(
        error_text(call_text("{\n  \"city\": Paris\n}")),
        "the arguments of get_weather are not valid JSON: expected value at line 2 column 11"
    );
}

#[test]
fn arguments_that_are_not_an_object_are_rejected() {
    // serde would accept a sequence for a struct; tool arguments are always an object.
    let want = "invalid arguments for get_weather: the arguments must be an object; got an array";
    assert_eq!(error_text(call_json(json!(["Paris"]))), want);
    assert_eq!(error_text(call_text(r#" ["Paris"]"#)), want);
    assert_eq!(
        error_text(call_text("null")),
        "invalid arguments for get_weather: the arguments must be an object; got null"
    );
}

#[test]
fn unknown_tools_name_the_available_ones_and_a_close_match() {
    let tb = toolbox();
    let r = tb.call_blocking(&ToolCall::new("c2", "get_wether", json!({})));
    assert_eq!(r.call_id, "c2");
    assert_eq!(
        error_text(r),
        r#"there is no tool named "get_wether" (did you mean "get_weather"?); the available tools are get_weather"#
    );
    let r = tb.call_blocking(&ToolCall::new("c3", "rm_rf", json!({})));
    assert_eq!(
        error_text(r),
        r#"there is no tool named "rm_rf"; the available tools are get_weather"#
    );
    let r = Toolbox::new().call_blocking(&ToolCall::new("c4", "x", json!({})));
    assert_eq!(error_text(r), r#"there is no tool named "x"; no tools are available"#);
}

#[test]
fn a_failing_tool_returns_its_own_message() {
    assert_eq!(
        error_text(call_json(json!({"city": "Atlantis"}))),
        "Atlantis has no weather station"
    );
}

#[test]
fn a_panicking_tool_becomes_an_error_result() {
    assert_eq!(
        error_text(call_json(json!({"city": "Boom"}))),
        "get_weather failed unexpectedly; this is a bug in the tool, not in the arguments"
    );
}

/// An executor that panics before it even returns a future.
struct Eager(ToolDescriptor);

impl Executor for Eager {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.0
    }

    fn execute<'a>(&'a self, _call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        panic!("eager panic")
    }
}

#[test]
fn an_executor_that_panics_outside_its_future_is_contained_too() {
    let tb = Toolbox::new().with_executor(Arc::new(Eager(ToolDescriptor::new("eager"))));
    let r = tb.call_blocking(&ToolCall::new("c", "eager", json!({})));
    assert_eq!(
        error_text(r),
        "eager failed unexpectedly; this is a bug in the tool, not in the arguments"
    );
}

#[test]
fn toolbox_keeps_first_insertion_order_and_replaces_in_place() {
    let d = |name: &'static str| ToolDescriptor::new(name);
    let echo = |d: ToolDescriptor| -> Arc<dyn Executor> {
        DynamicTool::new_sync(d, |v| Ok(json!({"from": "dynamic", "args": v}))).into()
    };
    let mut tb = Toolbox::new();
    tb.insert(echo(d("zeta")));
    tb.add(GetWeather);
    tb.insert(echo(d("alpha")));
    let replaced = tb.insert(echo(d("zeta")));
    assert!(replaced.is_some());
    assert_eq!(tb.names().collect::<Vec<_>>(), ["zeta", "get_weather", "alpha"]);
    let names: Vec<_> = tb.descriptors().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["zeta", "get_weather", "alpha"]);
    assert!(tb.remove("get_weather").is_some());
    assert_eq!(tb.names().collect::<Vec<_>>(), ["zeta", "alpha"]);
    assert_eq!(tb.len(), 2);
}

#[test]
fn typed_tool_converts_to_a_shared_executor() {
    let e: Arc<dyn Executor> = TypedTool::new(GetWeather).into();
    assert_eq!(e.descriptor(), &WEATHER);
    let call = ToolCall::new("c", "get_weather", json!({"city": "Oslo", "days": 2}));
    let r = block_on(e.execute(&call));
    assert_eq!(r.structured, Some(json!({"city": "Oslo", "days": 2, "fahrenheit": false})));
}

#[test]
fn decode_alone_gives_the_typed_arguments() {
    let t = TypedTool::new(GetWeather);
    let args = t.decode(&Arguments::Text(r#"{"city":"Rome"}"#.into())).unwrap();
    assert_eq!(args, WeatherArgs { city: "Rome".into(), unit: Unit::Celsius, days: 3 });
    let err = t.decode(&Arguments::Json(json!({"city": 3}))).unwrap_err();
    let DispatchErrorKind::InvalidArguments { errors } = err.kind() else { panic!("{err:?}") };
    assert_eq!(err.tool(), "get_weather");
    assert_eq!(errors.0.len(), 1);
    assert_eq!(errors.0[0].pointer, "/city");
    assert_eq!(errors.0[0].message, "must be a string; got 3");
}

#[test]
fn a_key_given_twice_is_an_argument_error_on_the_typed_path() {
    // The decoder refuses the second `city` as serde does; the error names the key like every
    // other argument error, and the tool never sees either value.
    let t = TypedTool::new(GetWeather);
    let err = t.decode(&Arguments::Text(r#"{"city": "Rome", "city": "Oslo"}"#.into())).unwrap_err();
    assert_eq!(err.model_text(), "invalid arguments for get_weather: /city is given twice");
    let DispatchErrorKind::InvalidArguments { errors } = err.kind() else { panic!("{err:?}") };
    assert_eq!(errors.0[0].pointer, "/city");
}

/// A hand-written tool whose descriptor says less than its type: serde's message is used.
struct Loose;

static LOOSE: ToolDescriptor = ToolDescriptor::new("loose").open();

#[derive(Deserialize)]
struct NeedsX {
    #[allow(dead_code)]
    x: u8,
}

impl Tool for Loose {
    const NAME: &'static str = "loose";
    type Args = NeedsX;
    type Output = ();

    fn descriptor() -> &'static ToolDescriptor {
        &LOOSE
    }

    fn call(&self, _: NeedsX) -> BoxFuture<'_, Result<(), ToolError>> {
        Box::pin(async { Ok(()) })
    }
}

#[test]
fn serde_message_without_position_is_the_fallback() {
    let tb = Toolbox::new().with(Loose);
    let text = |arguments| {
        let call = ToolCall { id: String::new(), name: "loose".into(), arguments };
        error_text(tb.call_blocking(&call))
    };
    let want = "invalid arguments for loose: the arguments could not be decoded: missing field `x`";
    assert_eq!(text(Arguments::Text("{\"y\": 1}".into())), want);
    assert_eq!(text(Arguments::Json(json!({"y": 1}))), want);
}

#[test]
fn blank_text_means_no_arguments() {
    static PING: ToolDescriptor = ToolDescriptor::new("ping");
    let tb = Toolbox::new()
        .with_executor(DynamicTool::new_sync(PING.clone(), |_| Ok(json!("pong"))).into());
    let call =
        ToolCall { id: String::new(), name: "ping".into(), arguments: Arguments::Text(" ".into()) };
    let r = tb.call_blocking(&call);
    assert!(!r.is_error, "{r:?}");
    assert_eq!(r.text(), "pong");
}

fn search_descriptor() -> ToolDescriptor {
    ToolDescriptor::builder("search")
        .param(Param::string("query").with_description("What to look for"))
        .param(Param::integer("limit").range(1, 50).with_default(10_i64))
        .param(Param::float("min_score").range_f64(0.0, 1.0).nullable().optional())
        .param(Param::list("tags", &TAG).length(0, 3).unique().optional())
        .build()
        .unwrap()
}

static TAG: Schema = Schema::string();

#[test]
fn dynamic_tools_validate_and_fill_defaults_before_the_closure() {
    let tool = DynamicTool::new(search_descriptor(), |args: Value| {
        Box::pin(async move { Ok(json!({"received": args})) })
    });
    let tb = Toolbox::new().with_executor(tool.into());
    let r = tb.call_blocking(&ToolCall::new(
        "c",
        "search",
        json!({"query": "rust", "min_score": null}),
    ));
    // The default fills the absent key; the explicit null of a nullable key stays null.
    assert_eq!(
        r.structured,
        Some(json!({"received": {"query": "rust", "min_score": null, "limit": 10}}))
    );
    let r = tb.call_blocking(&ToolCall::new(
        "c",
        "search",
        json!({"query": "rust", "limit": 0, "tags": ["a", "b", "a"], "min_score": 2.5}),
    ));
    assert_eq!(
        error_text(r),
        "invalid arguments for search:\n\
         - /limit must be at least 1; got 0\n\
         - /min_score must be at most 1; got 2.5\n\
         - /tags must not contain duplicates; items 0 and 2 are equal"
    );
    let r = tb.call_blocking(&ToolCall {
        id: String::new(),
        name: "search".into(),
        arguments: Arguments::Text("{\"query\": tru}".into()),
    });
    assert_eq!(
        error_text(r),
        "the arguments of search are not valid JSON: expected ident at line 1 column 14"
    );
}

#[test]
fn a_dynamic_tool_error_or_panic_is_a_result() {
    let d = ToolDescriptor::builder("flaky").param(Param::boolean("panic")).build().unwrap();
    let tool = DynamicTool::new_sync(d, |args| {
        if args["panic"] == json!(true) { panic!("boom") } else { Err(ToolError::new("try later")) }
    });
    let tb = Toolbox::new().with_executor(tool.into());
    let r = tb.call_blocking(&ToolCall::new("c", "flaky", json!({"panic": false})));
    assert_eq!(error_text(r), "try later");
    let r = tb.call_blocking(&ToolCall::new("c", "flaky", json!({"panic": true})));
    assert_eq!(
        error_text(r),
        "flaky failed unexpectedly; this is a bug in the tool, not in the arguments"
    );
}

// ---- the value validator ----

static CODE: Schema = Schema::string();

fn rich_descriptor() -> ToolDescriptor {
    let node = Schema::object_of(vec![
        Param::string("label"),
        Param::named("children", Schema::list_of(Schema::reference_to("Node")))
            .with_required(false),
    ]);
    ToolDescriptor::builder("rich")
        .definition(Definition::named("Node", node))
        .param(Param::string("code").with_pattern("^[A-Z]{3}$").length(3, 3))
        .param(Param::integer("step").exclusive_range(Some(0), Some(100)).multiple_of(5).optional())
        .param(Param::float("ratio").optional())
        .param(Param::list("codes", &CODE).length(1, 2).optional())
        .param(
            Param::named(
                "filter",
                Schema::object_of(vec![Param::string("field"), Param::boolean("desc").optional()]),
            )
            .optional(),
        )
        .param(
            Param::named(
                "labels",
                Schema {
                    kind: tooldef::SchemaKind::Object(tooldef::ObjectSchema {
                        properties: Vec::new().into(),
                        additional: Additional::Typed(Schema::integer().into()),
                    }),
                    ..Schema::string()
                },
            )
            .optional(),
        )
        .param(
            Param::named(
                "target",
                Schema::any_of_owned(vec![
                    Schema::integer(),
                    Schema::object_of(vec![Param::string("path")]),
                ]),
            )
            .optional(),
        )
        .param(Param::named("tree", Schema::reference_to("Node")).optional())
        .param(Param::named("a/b~c", Schema::boolean()).optional())
        .build()
        .unwrap()
}

fn errors(args: Value) -> Vec<String> {
    match ArgValidator::new().check_args(&rich_descriptor(), &args) {
        Ok(()) => Vec::new(),
        Err(e) => e.0.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn validator_accepts_a_value_that_fits() {
    let ok = json!({
        "code": "EUR", "step": 95, "ratio": -1.5, "codes": ["a"],
        "filter": {"field": "date", "desc": true}, "labels": {"x": 1, "y": 2},
        "target": {"path": "/tmp"}, "tree": {"label": "r", "children": [{"label": "c"}]},
        "a/b~c": false
    });
    assert_eq!(errors(ok), Vec::<String>::new());
}

#[test]
fn validator_reports_each_constraint_with_its_pointer() {
    let cases = [
        (json!({"code": "eur"}), r#"/code must match the pattern ^[A-Z]{3}$; got "eur""#),
        (json!({"code": "EUR", "step": 0}), "/step must be greater than 0; got 0"),
        (json!({"code": "EUR", "step": 100}), "/step must be less than 100; got 100"),
        (json!({"code": "EUR", "step": 7}), "/step must be a multiple of 5; got 7"),
        (json!({"code": "EUR", "step": 7.5}), "/step must be an integer; got 7.5"),
        (json!({"code": "EUR", "ratio": "1"}), r#"/ratio must be a number; got "1""#),
        (
            json!({"code": "EUR", "codes": []}),
            "/codes must have at least 1 item; got an array of 0 items",
        ),
        (json!({"code": "EUR", "codes": [1]}), "/codes/0 must be a string; got 1"),
        (json!({"code": "EUR", "filter": {}}), "/filter/field is required"),
        (
            json!({"code": "EUR", "filter": {"field": "f", "asc": true}}),
            "/filter/asc is not a known property; the properties are field, desc",
        ),
        (
            json!({"code": "EUR", "labels": {"x": "one"}}),
            r#"/labels/x must be an integer; got "one""#,
        ),
        (json!({"code": "EUR", "target": {}}), "/target/path is required"),
        (
            json!({"code": "EUR", "target": "x"}),
            r#"/target must be an integer or an object; got "x""#,
        ),
        (
            json!({"code": "EUR", "tree": {"label": "r", "children": [{"label": 1}]}}),
            "/tree/children/0/label must be a string; got 1",
        ),
        (json!({"code": "EUR", "a/b~c": 1}), "/a~1b~0c must be a boolean; got 1"),
    ];
    for (args, want) in cases {
        assert_eq!(errors(args.clone()), [want.to_owned()], "for {args}");
    }
    // Two constraints of one value: both are reported.
    assert_eq!(
        errors(json!({"code": "EURO"})),
        [
            "/code must be at most 3 characters long; got a string of 4 characters",
            r#"/code must match the pattern ^[A-Z]{3}$; got "EURO""#
        ]
    );
}

#[test]
fn recursion_is_bounded() {
    let mut tree = json!({"label": "leaf"});
    for _ in 0..100 {
        tree = json!({"label": "n", "children": [tree]});
    }
    let errs = errors(json!({"code": "EUR", "tree": tree}));
    assert_eq!(errs.len(), 1);
    assert!(errs[0].ends_with("is nested too deeply to be checked"), "{errs:?}");
}

#[test]
fn defaults_fill_absent_keys_only() {
    let d = ToolDescriptor::builder("d")
        .param(Param::integer("n").with_default(3_i64))
        .param(Param::named("s", Schema::string().nullable()).with_default("x"))
        .param(Param::named(
            "inner",
            Schema::object_of(vec![Param::boolean("flag").with_default(true)]),
        ))
        .build()
        .unwrap();
    let mut v = json!({"s": null, "inner": {}});
    apply_defaults(&d, &mut v);
    assert_eq!(v, json!({"s": null, "inner": {"flag": true}, "n": 3}));
    let mut not_object = json!([1]);
    apply_defaults(&d, &mut not_object);
    assert_eq!(not_object, json!([1]));
}

/// A future that is pending once and wakes itself, as a real I/O future would.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = u8;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u8> {
        if self.0 {
            Poll::Ready(7)
        } else {
            self.0 = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

#[test]
fn block_on_drives_futures_that_wait() {
    assert_eq!(block_on(YieldOnce(false)), 7);
    let woken_from_elsewhere = async {
        let (tx, rx) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || tx.send(5_u8));
        waiter.join().ok();
        rx.recv().unwrap_or(0)
    };
    assert_eq!(block_on(woken_from_elsewhere), 5);
}

/// A descriptor whose only parameter `x` is checked against `#/$defs/A` of `defs`.
fn looping(defs: Value) -> ToolDescriptor {
    let schema = json!({
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/A"}},
        "required": ["x"],
        "$defs": defs,
    });
    let mut d = ToolDescriptor::new("looping");
    tooldef::import_input(&schema).unwrap().value.apply_to(&mut d);
    d
}

fn messages(result: Result<(), ArgErrors>) -> Vec<String> {
    match result {
        Ok(()) => Vec::new(),
        Err(errors) => errors.0.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn definitions_that_refer_back_through_any_of_are_checked_without_going_round_the_loop() {
    // Each level tries every variant again at the same value: the work used to double per
    // level up to the depth bound (a check of `true` ran for more than a minute).
    let d = looping(json!({
        "A": {"anyOf": [{"$ref": "#/$defs/B"}, {"$ref": "#/$defs/B"}, {"type": "integer"}]},
        "B": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/A"}, {"type": "string"}]},
    }));
    let v = ArgValidator::new();
    assert_eq!(messages(v.check_args(&d, &json!({"x": 3}))), Vec::<String>::new());
    assert_eq!(messages(v.check_args(&d, &json!({"x": "three"}))), Vec::<String>::new());
    assert_eq!(
        messages(v.check_args(&d, &json!({"x": true}))),
        ["/x must be an integer or a string; got true"]
    );
}

#[test]
fn a_schema_too_costly_for_a_value_is_an_error_not_a_hang() {
    // Thirty definitions, each two ways into the next: 2^30 paths to the one concrete type.
    let mut defs = serde_json::Map::new();
    for i in 0..30 {
        let name = if i == 0 { "A".to_owned() } else { format!("D{i}") };
        let next = json!({"$ref": format!("#/$defs/D{}", i + 1)});
        defs.insert(name, json!({"anyOf": [next.clone(), next]}));
    }
    defs.insert("D30".into(), json!({"type": "string"}));
    let d = looping(Value::Object(defs));
    let v = ArgValidator::new();
    assert_eq!(
        messages(v.check_args(&d, &json!({"x": true}))),
        [format!(
            "/x cannot be checked: the tool's schema takes more than {} steps for this value \
             (definitions that refer to each other through `anyOf` alone?)",
            tooldef::dispatch::MAX_STEPS
        )]
    );
    // A value it accepts is found on the first path, long before the bound.
    assert_eq!(messages(v.check_args(&d, &json!({"x": "ok"}))), Vec::<String>::new());
}

#[test]
fn kept_keywords_dispatch_enforces_and_an_overlapping_one_of_match_exactly_one() {
    let mut d = ToolDescriptor::new("kept");
    tooldef::import_input(&json!({
        "type": "object",
        "properties": {
            "start": {"type": "string"},
            "end": {"type": "string"},
            "v": {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]},
            "tags": {"type": "object", "minProperties": 1, "maxProperties": 2},
            "n": {"type": "integer", "not": {"const": 3}}
        },
        "dependentRequired": {"start": ["end"]},
        "extra": true
    }))
    .unwrap()
    .value
    .apply_to(&mut d);
    let v = ArgValidator::new();
    // Unstated `additionalProperties`: other keys are accepted, as in JSON Schema.
    assert_eq!(messages(v.check_args(&d, &json!({"other": 1, "v": "long"}))), Vec::<String>::new());
    assert_eq!(
        messages(v.check_args(&d, &json!({"start": "a", "v": "ab", "tags": {}}))),
        [
            "/tags must have at least 1 key; got an object with 0 keys",
            "/v must match exactly one of the `oneOf` variants; it matches variants 0 and 1",
            "the arguments must have `end` as well as `start`",
        ]
    );
    assert_eq!(
        messages(v.check_args(&d, &json!({"tags": {"a": 1, "b": 2, "c": 3}}))),
        ["/tags must have at most 2 keys; got an object with 3 keys"]
    );
    // `not` is kept for the provider; dispatch does not enforce it.
    assert_eq!(messages(v.check_args(&d, &json!({"n": 3}))), Vec::<String>::new());
}
