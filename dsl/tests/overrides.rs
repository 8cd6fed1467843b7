//! `Override` combinators and `Overrides` sets: each combinator on its own, composition, the
//! call-time rewriting of the wrapped executor (renames, hidden parameters, narrowed
//! constraints), and tolerant application to absent tools.

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use serde_json::{Value, json};
use tooldef::dispatch::DynamicTool;
use tooldef::{
    Additional, Arguments, BoxFuture, Constraint, EnumValue, Executor, Literal, Override,
    OverrideCall, OverrideError, OverrideErrorKind, Overrides, Param, Rule, Schema, SchemaKind,
    SchemaRef, Tool, ToolCall, ToolDescriptor, ToolError, ToolName, ToolResult,
};
use tooldef::{DescriptorError, NameError};

/// Drives a future that never waits on I/O (every executor here answers at once).
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// Answers with what it received: the call name and the arguments.
struct Echo(ToolDescriptor);

impl Executor for Echo {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.0
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let args = match &call.arguments {
                Arguments::Json(v) => v.clone(),
                Arguments::Text(t) => Value::String(t.clone()),
            };
            ToolResult::success(call, json!({ "name": call.name, "args": args }))
        })
    }
}

fn echo(d: ToolDescriptor) -> Arc<dyn Executor> {
    Arc::new(Echo(d))
}

static CATEGORY_VALUES: &[EnumValue] = &[
    EnumValue::described("memory:health", "Health facts."),
    EnumValue::new("memory:identity"),
    EnumValue::new("memory:preferences"),
    EnumValue::new("memory:other"),
];

fn remember() -> ToolDescriptor {
    ToolDescriptor::builder("remember")
        .description("Store a fact about the user.")
        .param(Param::string("fact").with_description("The fact."))
        .param(Param::named("category", Schema::enumeration_described(CATEGORY_VALUES)))
        .param(Param::integer("importance").range(1, 10).with_default(5))
        .param(Param::string("user_id"))
        .build()
        .unwrap()
}

fn call(name: &str, args: Value) -> ToolCall {
    ToolCall::new("call_1", name, args)
}

fn run(exec: &dyn Executor, call: &ToolCall) -> ToolResult {
    block_on(exec.execute(call))
}

fn base() -> ToolDescriptor {
    ToolDescriptor::builder("t").description("base").build().unwrap()
}

#[test]
fn description_set_then_appended_twice() {
    let patch = Override::description("x")
        .then(Override::append_description("y"))
        .then(Override::append_description("z"));
    assert_eq!(patch.apply(&base()).unwrap().description, "xyz");

    // The same as three separate overrides of one tool, composed in registration order.
    let set = Overrides::new()
        .for_name("t", Override::description("x"))
        .for_name("t", Override::append_description("y"))
        .for_name("t", Override::append_description("z"));
    let (tools, report) = set.apply_to(vec![echo(base())]);
    assert_eq!(tools[0].descriptor().description, "xyz");
    assert_eq!(report.applied, ["t"]);
    assert!(report.skipped.is_empty() && report.failed.is_empty());
}

#[test]
fn patches_apply_to_a_clone() {
    let original = remember();
    let before = original.clone();
    let patched = Override::description("changed")
        .then(Override::constrain("category", Constraint::one_of(["memory:health"])))
        .apply(&original)
        .unwrap();
    assert_eq!(original, before);
    assert_ne!(patched, before);
}

#[test]
fn title_is_set_and_cleared() {
    let d = Override::title("Memory").apply(&remember()).unwrap();
    assert_eq!(d.title.as_deref(), Some("Memory"));
    assert_eq!(d.display_name(), "Memory");
    let d = Override::clear_title().apply(&d).unwrap();
    assert_eq!(d.title, None);
}

#[test]
fn rename_checks_the_name_rule() {
    let d = Override::rename("store_fact").apply(&remember()).unwrap();
    assert_eq!(d.name, "store_fact");
    let err = Override::rename("store fact").apply(&remember()).unwrap_err();
    assert!(
        err.tool() == "remember" && matches!(err.kind(), OverrideErrorKind::Name { .. }),
        "{err:?}"
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
fn a_bad_new_name_is_the_source_and_is_printed_once() {
    let err = Override::rename("store fact").apply(&remember()).unwrap_err();
    let cause = ToolName::parse("store fact").unwrap_err();
    let source = std::error::Error::source(&err).expect("the name error is the source");
    assert_eq!(source.downcast_ref::<NameError>(), Some(&cause));
    assert_eq!(err.to_string(), "override of tool `remember`: the new name breaks the name rule");
    let report = chain(&err);
    assert_eq!(report.matches(&cause.to_string()).count(), 1, "{report}");
    assert_eq!(
        report,
        format!("override of tool `remember`: the new name breaks the name rule: {cause}")
    );
}

#[test]
fn an_invalid_patched_descriptor_is_the_source_and_is_printed_once() {
    let err = Override::add_param(Param::string("fact")).apply(&remember()).unwrap_err();
    let source = std::error::Error::source(&err).expect("the descriptor error is the source");
    let cause = source.downcast_ref::<DescriptorError>().expect("a DescriptorError");
    assert_eq!(cause.rule, Rule::DuplicateParam);
    assert_eq!(err.to_string(), "override of tool `remember`: the patched descriptor is invalid");
    let report = chain(&err);
    assert_eq!(report.matches(&cause.message).count(), 1, "{report}");
    // Errors without a cause of their own have no source.
    let err = Override::constrain("nope", Constraint::Required).apply(&remember()).unwrap_err();
    assert!(std::error::Error::source(&err).is_none());
}

#[test]
fn namespace_is_replaced_not_stacked_and_can_be_cleared() {
    let d = Override::set_namespace("mem").apply(&remember()).unwrap();
    assert_eq!(d.name, "mem__remember");
    let d = Override::set_namespace("brain").apply(&d).unwrap();
    assert_eq!(d.name, "brain__remember");
    assert_eq!(d.namespace(), Some("brain"));
    let d = Override::clear_namespace().apply(&d).unwrap();
    assert_eq!(d.name, "remember");
    let err = Override::set_namespace("a.b").apply(&remember()).unwrap_err();
    assert!(matches!(err.kind(), OverrideErrorKind::Name { .. }), "{err:?}");
}

#[test]
fn namespace_only_patch_routes_like_a_rename() {
    let exec = Override::set_namespace("mem").wrap(echo(remember())).unwrap();
    assert_eq!(exec.descriptor().name, "mem__remember");
    let args = json!({"fact": "f", "category": "memory:health", "user_id": "u"});
    let r = run(&exec, &call("mem__remember", args.clone()));
    assert!(!r.is_error, "{}", r.text());
    // The registered executor sees its own name; the model sees the one it called.
    assert_eq!(r.structured.unwrap(), json!({"name": "remember", "args": args}));
    assert_eq!(r.name, "mem__remember");
    assert_eq!(r.call_id, "call_1");
}

#[test]
fn add_param_appends_and_duplicates_fail_validation() {
    let d = Override::add_param(Param::boolean("urgent").optional()).apply(&remember()).unwrap();
    assert_eq!(d.params.last().unwrap().name, "urgent");
    let err = Override::add_param(Param::string("fact")).apply(&remember()).unwrap_err();
    assert_eq!(err.tool(), "remember");
    match err.kind() {
        OverrideErrorKind::Invalid { source } => {
            assert_eq!(source.rule, Rule::DuplicateParam);
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn narrowing_an_enum_keeps_order_and_descriptions() {
    let d = Override::constrain(
        "category",
        Constraint::one_of(["memory:preferences", "memory:health"]),
    )
    .apply(&remember())
    .unwrap();
    let SchemaKind::Enum(e) = &d.param("category").unwrap().schema.kind else { panic!() };
    let values: Vec<_> = e.values.iter_described().map(|(v, d)| (v.as_str().unwrap(), d)).collect();
    assert_eq!(values, [("memory:health", Some("Health facts.")), ("memory:preferences", None)]);
}

#[test]
fn widening_an_enum_is_an_error_naming_the_new_values() {
    let err = Override::constrain(
        "category",
        Constraint::one_of(["memory:health", "memory:work", "memory:pets"]),
    )
    .apply(&remember())
    .unwrap_err();
    assert_eq!(
        err,
        OverrideError::new(
            "remember",
            OverrideErrorKind::WidensEnum {
                param: "category".into(),
                values: vec!["memory:work".into(), "memory:pets".into()]
            }
        )
    );
    assert_eq!(
        err.to_string(),
        "override of tool `remember`: parameter `category` does not accept `memory:work`, \
         `memory:pets`; an override may narrow an enum, never widen it"
    );
}

#[test]
fn one_of_turns_a_string_into_an_enum_and_fails_on_other_kinds() {
    let d = Override::constrain("fact", Constraint::one_of(["a", "b"])).apply(&remember()).unwrap();
    let fact = d.param("fact").unwrap();
    assert_eq!(fact.schema, Schema::enumeration_of(["a", "b"]).with_description("The fact."));

    let err = Override::constrain("importance", Constraint::one_of(["a"]))
        .apply(&remember())
        .unwrap_err();
    assert!(
        matches!(err.kind(), OverrideErrorKind::NotApplicable { param, kind: "integer", .. } if param == "importance"),
        "{err:?}"
    );
    // Narrowing to nothing breaks the enum rule.
    let err = Override::constrain("category", Constraint::one_of(Vec::<String>::new()))
        .apply(&remember())
        .unwrap_err();
    assert!(
        matches!(err.kind(), OverrideErrorKind::Invalid { source, .. } if source.rule == Rule::EmptyEnum)
    );
}

#[test]
fn unknown_parameter_is_an_error_naming_tool_and_parameter() {
    let err = Override::constrain("nope", Constraint::Required).apply(&remember()).unwrap_err();
    assert_eq!(err.to_string(), "override of tool `remember`: it has no parameter `nope`");
}

#[test]
fn ranges_replace_the_given_sides_and_are_revalidated() {
    let d = Override::constrain("importance", Constraint::range(2, 8)).apply(&remember()).unwrap();
    let SchemaKind::Integer(n) = &d.param("importance").unwrap().schema.kind else { panic!() };
    assert_eq!((n.minimum, n.maximum), (Some(2), Some(8)));

    let d = Override::constrain("importance", Constraint::Range { min: None, max: Some(7) })
        .apply(&remember())
        .unwrap();
    let SchemaKind::Integer(n) = &d.param("importance").unwrap().schema.kind else { panic!() };
    assert_eq!((n.minimum, n.maximum), (Some(1), Some(7)));

    // The default 5 is outside 6..=10: the patched descriptor fails validation.
    let err =
        Override::constrain("importance", Constraint::range(6, 10)).apply(&remember()).unwrap_err();
    assert!(
        matches!(err.kind(), OverrideErrorKind::Invalid { source, .. } if source.rule == Rule::OutOfRange)
    );

    let float = ToolDescriptor::builder("f").param(Param::float("ratio")).build().unwrap();
    let d = Override::constrain("ratio", Constraint::range_f64(0.0, 0.5)).apply(&float).unwrap();
    let SchemaKind::Float(n) = &d.param("ratio").unwrap().schema.kind else { panic!() };
    assert_eq!((n.minimum, n.maximum), (Some(0.0), Some(0.5)));
    let err = Override::constrain("importance", Constraint::range_f64(0.0, 0.5))
        .apply(&remember())
        .unwrap_err();
    assert!(matches!(err.kind(), OverrideErrorKind::NotApplicable { .. }), "{err:?}");
    let err = Override::constrain("fact", Constraint::range(0, 1)).apply(&remember()).unwrap_err();
    assert!(
        matches!(err.kind(), OverrideErrorKind::NotApplicable { kind: "string", .. }),
        "{err:?}"
    );
}

#[test]
fn required_optional_and_default_are_set() {
    // `importance` has a default, so the tool does not need the model to send it.
    let d = Override::constrain("importance", Constraint::Optional).apply(&remember()).unwrap();
    assert!(!d.param("importance").unwrap().required);
    // `fact` has none: optional only together with a value the patch supplies.
    let err = Override::constrain("fact", Constraint::Optional).apply(&remember()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "override of tool `remember`: the tool requires parameter `fact`, but the patched schema \
         lets the model leave it out; keep it required, give it a default or hide it with a value"
    );
    let d = Override::constrain("fact", Constraint::Optional)
        .then(Override::constrain("fact", Constraint::default("nothing")))
        .apply(&remember())
        .unwrap();
    assert!(!d.param("fact").unwrap().required);
    let d = Override::constrain("importance", Constraint::Required).apply(&remember()).unwrap();
    let p = d.param("importance").unwrap();
    assert!(p.required);
    assert_eq!(p.default_value(), Some(&Literal::Int(5)), "required leaves the default alone");

    let d =
        Override::constrain("importance", Constraint::default(7i64)).apply(&remember()).unwrap();
    let p = d.param("importance").unwrap();
    assert_eq!(p.default_value(), Some(&Literal::Int(7)));
    assert!(!p.required);

    let err = Override::constrain("importance", Constraint::default("high"))
        .apply(&remember())
        .unwrap_err();
    assert!(
        matches!(err.kind(), OverrideErrorKind::Invalid { source, .. } if source.rule == Rule::WrongType)
    );
}

#[test]
fn hidden_parameter_is_removed_and_injected_at_call_time() {
    let exec = Override::hide("user_id", "u-42").wrap(echo(remember())).unwrap();
    assert!(exec.descriptor().param("user_id").is_none());
    assert!(exec.original().param("user_id").is_some(), "the registered descriptor is unchanged");

    let r = run(&exec, &call("remember", json!({"fact": "f", "category": "memory:health"})));
    assert!(!r.is_error, "{}", r.text());
    // The registered default of `importance` is filled in too: the call is completed as the
    // patched schema promises before the registered executor sees it.
    assert_eq!(
        r.structured.unwrap()["args"],
        json!({"fact": "f", "category": "memory:health", "importance": 5, "user_id": "u-42"})
    );

    let r = run(
        &exec,
        &call("remember", json!({"fact": "f", "category": "memory:health", "user_id": "me"})),
    );
    assert!(r.is_error);
    assert_eq!(
        r.text(),
        "invalid arguments for remember: /user_id is not a parameter of remember; the parameters are fact, category, importance"
    );
}

#[test]
fn hidden_value_must_be_accepted_by_the_parameter() {
    let err = Override::hide("importance", 11).apply(&remember()).unwrap_err();
    assert!(
        matches!(err.kind(), OverrideErrorKind::HiddenValue { param, .. } if param == "importance"),
        "{err:?}"
    );
    let err = Override::hide("category", "memory:work").apply(&remember()).unwrap_err();
    assert!(matches!(err.kind(), OverrideErrorKind::HiddenValue { .. }), "{err:?}");
    let err = Override::hide("nope", 1).apply(&remember()).unwrap_err();
    assert!(matches!(err.kind(), OverrideErrorKind::UnknownParam { .. }), "{err:?}");
}

#[test]
fn renamed_parameter_maps_back_and_the_old_name_is_rejected() {
    let exec = Override::rename_param("fact", "text")
        .then(Override::rename_param("text", "content"))
        .wrap(echo(remember()))
        .unwrap();
    let names: Vec<_> = exec.descriptor().params.iter().map(|p| p.name.to_string()).collect();
    assert_eq!(names, ["content", "category", "importance", "user_id"]);

    let r = run(
        &exec,
        &call("remember", json!({"content": "f", "category": "memory:health", "user_id": "u"})),
    );
    assert_eq!(
        r.structured.unwrap()["args"],
        json!({"fact": "f", "category": "memory:health", "importance": 5, "user_id": "u"})
    );
    let r = run(
        &exec,
        &call("remember", json!({"fact": "f", "category": "memory:health", "user_id": "u"})),
    );
    assert!(r.is_error);
    assert_eq!(
        r.text(),
        "invalid arguments for remember: /fact is not a parameter of remember; the parameters are content, category, importance, user_id"
    );
    // Errors name the parameter as the model knows it, not as the executor does.
    let r = run(&exec, &call("remember", json!({"category": "memory:health", "user_id": "u"})));
    assert_eq!(r.text(), "invalid arguments for remember: /content is required");
}

#[test]
fn renamed_then_hidden_parameter_injects_under_the_registered_name() {
    let exec = Override::rename_param("user_id", "uid")
        .then(Override::hide("uid", "u-1"))
        .wrap(echo(remember()))
        .unwrap();
    let r = run(&exec, &call("remember", json!({"fact": "f", "category": "memory:health"})));
    assert_eq!(r.structured.unwrap()["args"]["user_id"], "u-1");
    // Neither the registered nor the intermediate name of the hidden parameter may be sent.
    for key in ["user_id", "uid"] {
        let args = json!({"fact": "f", "category": "memory:health", key: "me"});
        let r = run(&exec, &call("remember", args));
        assert!(r.is_error);
        assert_eq!(
            r.text(),
            format!(
                "invalid arguments for remember: /{key} is not a parameter of remember; the parameters are fact, category, importance"
            )
        );
    }
}

#[test]
fn text_arguments_are_parsed_and_malformed_ones_are_error_results() {
    let exec = Override::hide("user_id", "u").wrap(echo(remember())).unwrap();
    let text = ToolCall {
        id: "c".into(),
        name: "remember".into(),
        arguments: Arguments::Text(r#"{"fact":"f","category":"memory:identity"}"#.into()),
    };
    let r = run(&exec, &text);
    assert!(!r.is_error, "{}", r.text());
    assert_eq!(r.structured.unwrap()["args"]["user_id"], "u");

    let bad = ToolCall { arguments: Arguments::Text("{\"fact\": ".into()), ..text.clone() };
    let r = run(&exec, &bad);
    assert!(r.is_error);
    assert_eq!(
        r.text(),
        "the arguments of remember are not valid JSON: EOF while parsing a value at line 1 column 9"
    );

    // A key given twice is refused at its pointer, never forwarded as its last value.
    let twice = ToolCall {
        arguments: Arguments::Text(r#"{"fact": "a", "fact": "b"}"#.into()),
        ..text.clone()
    };
    let r = run(&exec, &twice);
    assert!(r.is_error);
    assert_eq!(r.text(), "invalid arguments for remember: /fact is given twice");

    let r = run(&exec, &call("remember", json!([1, 2])));
    assert!(r.is_error);
    assert_eq!(
        r.text(),
        "invalid arguments for remember: the arguments must be an object; got an array"
    );
}

#[test]
fn description_only_override_passes_arguments_through_untouched() {
    let exec = Override::description("d").wrap(echo(remember())).unwrap();
    let text = ToolCall {
        id: "c".into(),
        name: "remember".into(),
        arguments: Arguments::Text("{\"fact\": 1}".into()),
    };
    let r = run(&exec, &text);
    assert_eq!(r.structured.unwrap()["args"], "{\"fact\": 1}");
}

#[test]
fn remember_category_constrained_to_three_values() {
    let allowed = ["memory:health", "memory:identity", "memory:preferences"];
    let exec = Override::constrain("category", Constraint::one_of(allowed))
        .wrap(echo(remember()))
        .unwrap();

    // Descriptor level: exactly these values, in this order.
    let SchemaKind::Enum(e) = &exec.descriptor().param("category").unwrap().schema.kind else {
        panic!("category is not an enum")
    };
    assert_eq!(e.values.iter().collect::<Vec<_>>(), allowed);

    // Call level: a value the registered tool accepts but the override excludes.
    let r = run(
        &exec,
        &call("remember", json!({"fact": "f", "category": "memory:other", "user_id": "u"})),
    );
    assert!(r.is_error);
    assert_eq!(
        r.text(),
        r#"invalid arguments for remember: /category must be one of "memory:health", "memory:identity", "memory:preferences"; got "memory:other""#
    );
    let r = run(
        &exec,
        &call("remember", json!({"fact": "f", "category": "memory:identity", "user_id": "u"})),
    );
    assert!(!r.is_error, "{}", r.text());
}

#[test]
fn narrowed_range_and_new_requirement_are_checked_at_call_time() {
    let exec = Override::constrain("importance", Constraint::range(1, 3))
        .then(Override::constrain("importance", Constraint::default(2i64)))
        .then(Override::constrain("importance", Constraint::Required))
        .wrap(echo(remember()))
        .unwrap();
    let args = |importance: Value| json!({"fact": "f", "category": "memory:health", "user_id": "u", "importance": importance});
    let r = run(&exec, &call("remember", args(json!(4))));
    assert_eq!(r.text(), "invalid arguments for remember: /importance must be at most 3; got 4");
    let r = run(&exec, &call("remember", args(json!("high"))));
    assert_eq!(
        r.text(),
        "invalid arguments for remember: /importance must be an integer; got \"high\""
    );
    let r = run(
        &exec,
        &call("remember", json!({"fact": "f", "category": "memory:health", "user_id": "u"})),
    );
    assert_eq!(r.text(), "invalid arguments for remember: /importance is required");
    assert!(!run(&exec, &call("remember", args(json!(3)))).is_error);
}

static SUMMARY: Schema = Schema::object(const { &[Param::string("id")] });

#[test]
fn output_schema_is_set_or_augmented() {
    let added = Schema::object_of(vec![Param::string("stored_at").optional()])
        .with_description("What was stored.");
    let d = Override::augment_output(added.clone()).apply(&remember()).unwrap();
    assert_eq!(d.output.as_deref(), Some(&added));

    let with_output = ToolDescriptor::new("s").output(&SUMMARY);
    let d = Override::augment_output(added.clone())
        .then(Override::augment_output(Schema::object_of(vec![Param::integer("id")])))
        .apply(&with_output)
        .unwrap();
    let expected =
        Schema::object_of(vec![Param::integer("id"), Param::string("stored_at").optional()])
            .with_description("What was stored.");
    assert_eq!(d.output.as_deref(), Some(&expected));
    assert_eq!(with_output.output.as_deref(), Some(&SUMMARY), "the static schema is untouched");

    let scalar = ToolDescriptor::builder("s").output(Schema::string()).build().unwrap();
    let err = Override::augment_output(added).apply(&scalar).unwrap_err();
    assert!(
        matches!(err.kind(), OverrideErrorKind::NotApplicable { param, kind: "string", .. } if param == "output"),
        "{err:?}"
    );
}

#[test]
fn closures_edit_and_report_errors() {
    let d = Override::edit(|d| d.annotations.read_only = Some(true)).apply(&remember()).unwrap();
    assert_eq!(d.annotations.read_only, Some(true));

    let err = Override::try_edit(|_| Err("no thanks".into())).apply(&remember()).unwrap_err();
    assert_eq!(err.to_string(), "override of tool `remember`: no thanks");

    // A closure that breaks a rule is caught by re-validation.
    let err =
        Override::edit(|d| d.params.to_mut()[0].name = "".into()).apply(&remember()).unwrap_err();
    assert!(
        matches!(err.kind(), OverrideErrorKind::Invalid { source, .. } if source.rule == Rule::EmptyParamName)
    );

    // A rename made in a closure is honoured by dispatch.
    let exec =
        Override::edit(|d| d.name = "store".parse().unwrap()).wrap(echo(remember())).unwrap();
    let args = json!({"fact": "f", "category": "memory:health", "user_id": "u"});
    let r = run(&exec, &call("store", args));
    assert!(!r.is_error, "{}", r.text());
    assert_eq!(r.structured.unwrap()["name"], "remember");
    assert_eq!(r.name, "store");
}

#[test]
fn then_runs_steps_in_order() {
    let a = Override::description("a").then(Override::append_description("b"));
    let b = Override::append_description("c").then(Override::description("d"));
    assert_eq!(a.clone().then(b.clone()).apply(&base()).unwrap().description, "d");
    assert_eq!(b.then(a).apply(&base()).unwrap().description, "ab");
    assert!(Override::identity().is_identity());
    assert_eq!(Override::identity().apply(&base()).unwrap(), base());
}

#[test]
fn absent_tool_is_skipped_and_present_tool_applied() {
    let set = Overrides::new()
        .for_name("forget", Override::description("gone"))
        .for_name("remember", Override::description("kept"));
    let (tools, report) = set.apply_to(vec![echo(remember())]);
    assert_eq!(report.skipped, ["forget"]);
    assert_eq!(report.applied, ["remember"]);
    assert!(report.is_ok());
    assert_eq!(tools[0].descriptor().description, "kept");
}

#[test]
fn a_failing_patch_is_an_error_for_that_tool_only() {
    let sibling = ToolDescriptor::builder("recall").description("Recall.").build().unwrap();
    let set = Overrides::new()
        .for_name("remember", Override::description("ok"))
        .for_name("remember", Override::constrain("nope", Constraint::Required))
        .for_name("recall", Override::title("Recall"));
    let (tools, report) = set.apply_to(vec![echo(remember()), echo(sibling)]);
    assert_eq!(report.applied, ["recall"]);
    assert_eq!(report.failed.len(), 1);
    assert_eq!(report.failed[0].tool(), "remember");
    assert_eq!(*tools[0].descriptor(), remember(), "a failed tool stays as registered");
    assert_eq!(tools[1].descriptor().title.as_deref(), Some("Recall"));
}

/// A hand-written typed tool, to key overrides by type.
struct Remember;

static REMEMBER: std::sync::LazyLock<ToolDescriptor> = std::sync::LazyLock::new(remember);

impl Tool for Remember {
    const NAME: &'static str = "remember";
    type Args = Value;
    type Output = Value;

    fn descriptor() -> &'static ToolDescriptor {
        &REMEMBER
    }

    fn call(&self, args: Value) -> BoxFuture<'_, Result<Value, ToolError>> {
        Box::pin(async move { Ok(args) })
    }
}

#[test]
fn overrides_keyed_by_tool_type() {
    let set = Overrides::new().for_tool::<Remember>(Override::title("Memory"));
    assert_eq!(set.names(), ["remember"]);
    let (tools, report) = set.apply_to(vec![echo(Remember::descriptor().clone())]);
    assert_eq!(report.applied, ["remember"]);
    assert_eq!(tools[0].descriptor().title.as_deref(), Some("Memory"));
}

#[test]
fn renames_onto_a_listed_name_fail_in_apply_to() {
    let other = ToolDescriptor::builder("recall").build().unwrap();
    let set = Overrides::new()
        .for_name("remember", Override::rename("recall"))
        .for_name("recall", Override::rename("fetch_memory"));
    let (tools, report) = set.apply_to(vec![echo(remember()), echo(other)]);
    assert_eq!(
        report.failed,
        [OverrideError::new("remember", OverrideErrorKind::NameTaken { name: "recall".into() })]
    );
    assert_eq!(report.applied, ["recall"]);
    let names: Vec<_> = tools.iter().map(|t| t.descriptor().name.to_string()).collect();
    assert_eq!(names, ["remember", "fetch_memory"]);
}

#[test]
fn renaming_a_parameter_onto_another_fails_validation() {
    let err = Override::rename_param("fact", "user_id").apply(&remember()).unwrap_err();
    assert!(
        matches!(err.kind(), OverrideErrorKind::Invalid { source, .. } if source.rule == Rule::DuplicateParam)
    );
}

#[test]
fn every_argument_problem_is_reported_at_once() {
    let exec = Override::constrain("category", Constraint::one_of(["memory:health"]))
        .then(Override::constrain("importance", Constraint::range(1, 5)))
        .wrap(echo(remember()))
        .unwrap();
    let r = run(
        &exec,
        &call("remember", json!({"fact": 7, "category": "memory:other", "importance": 9})),
    );
    assert!(r.is_error);
    assert_eq!(
        r.text(),
        r#"invalid arguments for remember:
- /fact must be a string; got 7
- /category must be one of "memory:health"; got "memory:other"
- /importance must be at most 5; got 9
- /user_id is required"#
    );
}

#[test]
fn input_schema_is_replaced_from_raw_json_schema() {
    let raw = r#"{
        "type": "object",
        "properties": {
            "fact": {"type": "string", "description": "The fact.", "maxLength": 200},
            "tags": {"type": "array", "items": {"type": "string"}},
            "category": {"type": "string", "enum": ["memory:health"]},
            "user_id": {"type": "string"}
        },
        "required": ["fact", "category", "user_id"],
        "additionalProperties": false
    }"#;
    // From a `Value`, the same schema in `Map` order; from text, in the order written.
    let from_value = Override::input_schema(serde_json::from_str(raw).unwrap());
    let sorted = from_value.apply(&remember()).unwrap();
    let mut names: Vec<_> = sorted.params.iter().map(|p| p.name.to_string()).collect();
    names.sort();
    assert_eq!(names, ["category", "fact", "tags", "user_id"]);
    let exec = Override::input_schema_text(raw).unwrap().wrap(echo(remember())).unwrap();
    let d = exec.descriptor();
    let names: Vec<_> = d.params.iter().map(|p| p.name.to_string()).collect();
    assert_eq!(names, ["fact", "tags", "category", "user_id"]);
    assert!(d.param("fact").unwrap().required);
    assert!(!d.param("tags").unwrap().required);
    assert_eq!(d.additional, tooldef::Additional::Closed);
    assert_eq!(d.description, "Store a fact about the user.", "only the input schema changes");

    // Calls are checked against the new schema; `tags`, which the tool does not take, is kept
    // back from its closed input.
    let args = json!({"category": "memory:health", "user_id": "u", "tags": []});
    let r = run(&exec, &call("remember", args));
    assert_eq!(r.text(), "invalid arguments for remember: /fact is required");
    let args = json!({"fact": "f", "category": "memory:health", "user_id": "u", "tags": ["a"]});
    let r = run(&exec, &call("remember", args));
    assert!(!r.is_error, "{}", r.text());
    assert_eq!(
        r.structured.unwrap()["args"],
        json!({"fact": "f", "category": "memory:health", "user_id": "u"})
    );

    // A replacement that leaves out a parameter the tool requires is refused.
    let err = Override::input_schema(json!({
        "type": "object",
        "properties": {"fact": {"type": "string"}},
        "required": ["fact"]
    }))
    .apply(&remember())
    .unwrap_err();
    assert_eq!(
        err,
        OverrideError::new(
            "remember",
            OverrideErrorKind::DropsRequired { param: "category".into() }
        )
    );
}

#[test]
fn invalid_replacement_input_schema_is_an_error_naming_the_pointer() {
    let err = Override::input_schema(json!({
        "type": "object",
        "properties": {"fact": {"type": "integr"}}
    }))
    .apply(&remember())
    .unwrap_err();
    assert_eq!(err.tool(), "remember");
    match err.kind() {
        OverrideErrorKind::InputSchema { message } => {
            assert_eq!(
                message,
                "#/properties/fact/type: `integr` is not a JSON Schema type; did you mean `integer`?"
            );
        }
        other => panic!("unexpected {other:?}"),
    }

    let err = Override::input_schema(json!("not a schema")).apply(&remember()).unwrap_err();
    assert!(matches!(err.kind(), OverrideErrorKind::InputSchema { .. }), "{err:?}");

    // Imported, but breaks a rule of the IR: re-validation catches it.
    let err = Override::input_schema(json!({
        "type": "object",
        "properties": {"days": {"type": "integer", "minimum": 5, "maximum": 1}}
    }))
    .apply(&remember())
    .unwrap_err();
    assert!(
        matches!(err.kind(), OverrideErrorKind::Invalid { source, .. } if source.rule == Rule::MinAboveMax),
        "{err:?}"
    );
}

/// A tool that checks its arguments strictly (closed input, required keys) and answers with
/// what it received: the executor an override must never change.
fn strict(d: ToolDescriptor) -> Arc<dyn Executor> {
    Arc::new(DynamicTool::new_sync(d, Ok))
}

fn review() -> ToolDescriptor {
    ToolDescriptor::builder("review")
        .description("Rate a book.")
        .param(Param::string("book"))
        .param(Param::integer("stars").range(1, 5))
        .param(Param::integer("weight").range(1, 10).with_default(5))
        .build()
        .unwrap()
}

#[test]
fn a_default_set_by_an_override_is_applied_before_the_executor_runs() {
    let exec = Override::constrain("stars", Constraint::default(3i64))
        .then(Override::constrain("weight", Constraint::default(8i64)))
        .wrap(strict(review()))
        .unwrap();
    let stars = exec.descriptor().param("stars").unwrap();
    assert!(!stars.required);
    assert_eq!(stars.default_value(), Some(&Literal::Int(3)));

    // The model leaves out what it was told is optional: the executor gets the patched
    // defaults, not its own (`weight` is 5 as registered).
    let r = run(&exec, &call("review", json!({"book": "Dune"})));
    assert!(!r.is_error, "{}", r.text());
    assert_eq!(r.structured.unwrap(), json!({"book": "Dune", "stars": 3, "weight": 8}));
    // What the model sends wins over the defaults.
    let r = run(&exec, &call("review", json!({"book": "Dune", "stars": 5, "weight": 1})));
    assert_eq!(r.structured.unwrap(), json!({"book": "Dune", "stars": 5, "weight": 1}));
    // The registered executor is untouched.
    assert_eq!(*exec.original(), review());
    let r = run(&**exec.inner(), &call("review", json!({"book": "Dune"})));
    assert_eq!(r.text(), "invalid arguments for review: /stars is required");
}

#[test]
fn an_added_parameter_is_accepted_kept_back_from_a_closed_executor_and_seen_by_hooks() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let exec = Override::add_param(Param::string("tag").with_description("A label.").optional())
        .then(Override::add_param(Param::string("source").with_default("chat")))
        .then(Override::on_call(move |c: &OverrideCall<'_>| {
            log.lock().unwrap().push((
                c.call().name.clone(),
                Value::Object(c.arguments().clone()),
                Value::Object(c.extra().clone()),
                c.forwarded().arguments.clone(),
            ));
            Ok(())
        }))
        .wrap(strict(review()))
        .unwrap();
    let names: Vec<_> = exec.descriptor().params.iter().map(|p| p.name.to_string()).collect();
    assert_eq!(names, ["book", "stars", "weight", "tag", "source"]);

    let r = run(&exec, &call("review", json!({"book": "Dune", "stars": 4, "tag": "sf"})));
    assert!(!r.is_error, "{}", r.text());
    // The closed executor gets only what it takes.
    assert_eq!(r.structured.unwrap(), json!({"book": "Dune", "stars": 4, "weight": 5}));
    let seen = seen.lock().unwrap();
    let (name, arguments, extra, forwarded) = &seen[0];
    assert_eq!(name, "review");
    assert_eq!(
        *arguments,
        json!({"book": "Dune", "stars": 4, "tag": "sf", "weight": 5, "source": "chat"})
    );
    assert_eq!(*extra, json!({"tag": "sf", "source": "chat"}));
    assert_eq!(*forwarded, Arguments::Json(json!({"book": "Dune", "stars": 4, "weight": 5})));

    // The added parameter is checked like any other.
    let r = run(&exec, &call("review", json!({"book": "Dune", "stars": 4, "tag": 7})));
    assert_eq!(r.text(), "invalid arguments for review: /tag must be a string; got 7");
}

#[test]
fn an_open_executor_is_handed_the_added_parameters() {
    let open = ToolDescriptor::builder("review")
        .param(Param::string("book"))
        .additional(Additional::Open)
        .build()
        .unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&seen);
    let exec = Override::add_param(Param::string("tag"))
        .then(Override::on_call(move |c: &OverrideCall<'_>| {
            log.lock().unwrap().push(Value::Object(c.extra().clone()));
            Ok(())
        }))
        .wrap(strict(open))
        .unwrap();
    let r = run(&exec, &call("review", json!({"book": "Dune", "tag": "sf"})));
    assert!(!r.is_error, "{}", r.text());
    assert_eq!(r.structured.unwrap(), json!({"book": "Dune", "tag": "sf"}));
    // Hooks read it in the same place whether or not the tool was handed it.
    assert_eq!(*seen.lock().unwrap(), [json!({"tag": "sf"})]);

    // A map is handed the values its value schema takes, and only those.
    let map = ToolDescriptor::builder("review")
        .param(Param::string("book"))
        .additional(Additional::Typed(SchemaRef::new(Schema::integer())))
        .build()
        .unwrap();
    let exec = Override::add_param(Param::integer("year").optional())
        .then(Override::add_param(Param::string("tag").optional()))
        .wrap(strict(map))
        .unwrap();
    let r = run(&exec, &call("review", json!({"book": "Dune", "year": 1965, "tag": "sf"})));
    assert!(!r.is_error, "{}", r.text());
    assert_eq!(r.structured.unwrap(), json!({"book": "Dune", "year": 1965}));
}

/// A `#[tool]` function as the patched executor (needs the `macros` feature).
#[cfg(feature = "macros")]
mod typed_executor {
    use super::*;
    use tooldef::dispatch::TypedTool;

    /// Look a word up.
    #[tooldef::tool]
    async fn define(
        /// The word.
        word: String,
        /// How many senses.
        #[param(range = 1..=5)]
        senses: u8,
    ) -> Result<String, String> {
        Ok(format!("{word}: {senses} senses"))
    }

    #[test]
    fn a_typed_executor_never_fails_on_what_an_override_adds_or_defaults() {
        let typed = TypedTool::shared(Define);
        let exec = Override::add_param(Param::boolean("verbose").optional())
            .then(Override::constrain("senses", Constraint::default(2i64)))
            .then(Override::constrain("senses", Constraint::range(1, 3)))
            .wrap(typed)
            .unwrap();
        let r = run(&exec, &call("define", json!({"word": "tool", "verbose": true})));
        assert!(!r.is_error, "{}", r.text());
        assert_eq!(r.structured.unwrap(), json!("tool: 2 senses"));
        let r = run(&exec, &call("define", json!({"word": "tool", "senses": 4})));
        assert_eq!(r.text(), "invalid arguments for define: /senses must be at most 3; got 4");
    }
}

#[test]
fn a_hook_may_refuse_a_call_and_the_executor_is_not_called() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    let inner: Arc<dyn Executor> = Arc::new(DynamicTool::new_sync(review(), move |args| {
        counted.fetch_add(1, Ordering::SeqCst);
        Ok(args)
    }));
    let exec = Override::on_call(|c: &OverrideCall<'_>| match c.argument("book") {
        Some(Value::String(b)) if b.is_empty() => Err(ToolError::new("name the book")),
        _ => Ok(()),
    })
    .wrap(inner)
    .unwrap();
    let r = run(&exec, &call("review", json!({"book": "", "stars": 1})));
    assert!(r.is_error);
    assert_eq!(r.text(), "name the book");
    assert_eq!(calls.load(Ordering::SeqCst), 0);
    let r = run(&exec, &call("review", json!({"book": "Dune", "stars": 1})));
    assert!(!r.is_error, "{}", r.text());
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[test]
fn ranges_only_narrow() {
    let err = Override::constrain("stars", Constraint::range(0, 5)).apply(&review()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "override of tool `review`: parameter `stars` must be at least 1; an override may narrow \
         a range, never widen it"
    );
    let err = Override::constrain("stars", Constraint::Range { min: None, max: Some(6) })
        .apply(&review())
        .unwrap_err();
    assert_eq!(
        err,
        OverrideError::new(
            "review",
            OverrideErrorKind::WidensRange { param: "stars".into(), limit: "at most 5".into() }
        )
    );
    let exclusive = ToolDescriptor::builder("t")
        .param(Param::float("share").exclusive_range(Some(0), Some(1)))
        .build()
        .unwrap();
    let err = Override::constrain("share", Constraint::range_f64(0.0, 0.5))
        .apply(&exclusive)
        .unwrap_err();
    assert!(
        matches!(err.kind(), OverrideErrorKind::WidensRange { limit, .. } if limit == "greater than 0"),
        "{err:?}"
    );
    let d = Override::constrain("share", Constraint::range_f64(0.25, 0.75)).apply(&exclusive);
    assert!(d.is_ok(), "{d:?}");
}

#[test]
fn one_of_on_a_string_refuses_values_the_string_refuses() {
    let code = ToolDescriptor::builder("t")
        .param(Param::string("code").with_pattern("^[A-Z]{3}$"))
        .build()
        .unwrap();
    let err = Override::constrain("code", Constraint::one_of(["EUR", "usd", "GBP"]))
        .apply(&code)
        .unwrap_err();
    assert_eq!(
        err,
        OverrideError::new(
            "t",
            OverrideErrorKind::WidensEnum { param: "code".into(), values: vec!["usd".into()] }
        )
    );
    let exec =
        Override::constrain("code", Constraint::one_of(["EUR", "GBP"])).wrap(strict(code)).unwrap();
    assert!(!run(&exec, &call("t", json!({"code": "EUR"}))).is_error);
}
