use super::*;
use crate::descriptor::Param;
use crate::schema::Schema;

fn tools() -> Vec<ToolDescriptor> {
    vec![
        ToolDescriptor::builder("get_weather")
            .param(Param::string("city"))
            .param(Param::enumeration("unit", &["celsius", "fahrenheit"]).optional())
            .param(Param::integer("days").range(1, 10).optional())
            .param(
                Param::named(
                    "hours",
                    Schema::list_of(Schema::object_of(vec![Param::integer("at").range(0, 23)])),
                )
                .optional(),
            )
            .build()
            .unwrap(),
        ToolDescriptor::builder("search").param(Param::string("query")).build().unwrap(),
    ]
}

/// The messages of the `Invalid` events, in order.
fn invalid(events: &[StreamEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Invalid(i) => Some(i.error.model_text()),
            StreamEvent::Call(_) => None,
        })
        .collect()
}

/// Feeds `text` to call 0 one character at a time; the messages of what was reported, each
/// with the byte count at which it was.
fn feed(text: &str) -> Vec<(usize, String)> {
    let tools = tools();
    let mut calls = CallAssembler::with_tools(&tools);
    let mut out = Vec::new();
    calls.start(0, "c", "get_weather", &mut out).unwrap();
    let mut seen = Vec::new();
    let mut sent = 0;
    for c in text.chars() {
        calls.append(0, c.encode_utf8(&mut [0; 4]), &mut out).unwrap();
        sent += c.len_utf8();
        seen.extend(invalid(&out).into_iter().map(|m| (sent, m)));
        out.clear();
    }
    seen
}

#[test]
fn interleaved_calls_come_out_whole() {
    let tools = tools();
    let mut calls = CallAssembler::with_tools(&tools);
    let mut out = Vec::new();
    calls.start(3, "a", "get_weather", &mut out).unwrap();
    calls.start(5, "b", "search", &mut out).unwrap();
    for (index, delta) in
        [(3, r#"{"ci"#), (5, r#"{"query""#), (3, r#"ty": "Paris"}"#), (5, r#": "rust"}"#)]
    {
        calls.append(index, delta, &mut out).unwrap();
    }
    assert_eq!(out, vec![]);
    let b = calls.finish(5).unwrap();
    let a = calls.finish(3).unwrap();
    assert_eq!(
        b,
        ToolCall {
            id: "b".into(),
            name: "search".into(),
            arguments: Arguments::Text(r#"{"query": "rust"}"#.into())
        }
    );
    assert_eq!(a.arguments, Arguments::Text(r#"{"city": "Paris"}"#.into()));
    assert!(calls.is_idle());
    assert_eq!(calls.end(), Ok(()));
}

#[test]
fn a_number_is_reported_once_it_is_complete_not_before() {
    let text = r#"{"days": 12, "city": "Paris"}"#;
    // `12` might still be `1` followed by more digits until the comma arrives (byte 12).
    assert_eq!(
        feed(text),
        vec![(
            12,
            "invalid arguments for get_weather: /days must be at most 10; got 12".to_owned()
        )]
    );
}

#[test]
fn an_enum_value_is_reported_when_its_string_closes() {
    let text = r#"{"unit": "kelvin", "city": "Paris"}"#;
    assert_eq!(feed(text), vec![(
        17,
        r#"invalid arguments for get_weather: /unit must be one of "celsius", "fahrenheit"; got "kelvin""#
            .to_owned()
    )]);
}

#[test]
fn a_nested_scalar_is_reported_before_its_containers_close_and_only_once() {
    let text = r#"{"hours": [{"at": 30}, {"at": 2}], "city": "x"}"#;
    assert_eq!(
        feed(text),
        vec![(
            21,
            "invalid arguments for get_weather: /hours/0/at must be at most 23; got 30".to_owned()
        )]
    );
}

#[test]
fn an_unknown_key_is_reported_with_the_parameters() {
    // As soon as the key's closing quote arrives (byte 7), not once its value is in.
    let text = r#"{"town": "Paris"}"#;
    assert_eq!(feed(text), vec![(
        7,
        "invalid arguments for get_weather: /town is not a parameter of get_weather; the parameters are city, unit, days, hours"
            .to_owned()
    )]);
}

#[test]
fn an_unknown_key_deeper_down_is_reported_at_its_closing_quote() {
    // `{"hours": [{"minute"` is 20 bytes: the key is known to be wrong there, a whole value
    // before the item completes. The item's own problem (`at` missing) follows when the list
    // is complete, and the unknown key is not reported twice.
    let text = r#"{"hours": [{"minute": [1, 2, 3]}], "city": "x"}"#;
    assert_eq!(
        feed(text),
        vec![
            (
                20,
                "invalid arguments for get_weather: /hours/0/minute is not a known property; the properties are at"
                    .to_owned()
            ),
            (33, "invalid arguments for get_weather: /hours/0/at is required".to_owned()),
        ]
    );
    // A key the object takes, at any depth, is not an error; nor is any key of an open object.
    assert_eq!(feed(r#"{"hours": [{"at": 1}], "city": "x"}"#), vec![]);
}

#[test]
fn text_that_is_not_json_is_reported_at_the_byte() {
    assert_eq!(
        feed(r#"{"city" "Paris"}"#),
        vec![(
            9,
            "the arguments of get_weather are not valid JSON: expected `:` after a key at byte 8"
                .to_owned()
        )]
    );
    assert_eq!(
        feed(r#"{"days": tru, "city": "x"}"#),
        vec![(
            13,
            "the arguments of get_weather are not valid JSON: `tru` at /days is not a JSON value"
                .to_owned()
        )]
    );
}

#[test]
fn nesting_past_the_limit_is_reported_at_its_bracket_with_its_pointer() {
    let max = crate::json_text::MAX_DEPTH;
    // `{"hours": ` then brackets: the root object and `max - 1` arrays fit, the next one is
    // refused as soon as it arrives (byte 10 + max - 1), as dispatch would refuse it.
    let text = format!(r#"{{"hours": {}"#, "[".repeat(max + 3));
    let pointer = format!("/hours{}", "/0".repeat(max - 1));
    assert_eq!(
        feed(&text),
        vec![(
            10 + max,
            format!(
                "invalid arguments for get_weather: {pointer} is nested more than {max} levels deep, past the limit for arguments; flatten it"
            )
        )]
    );
    // A whole call says the same, as text and as a value.
    let tools = tools();
    let calls = CallAssembler::with_tools(&tools);
    let whole = format!(r#"{{"hours": {}{}}}"#, "[".repeat(max), "]".repeat(max));
    let mut out = Vec::new();
    let as_text = ToolCall {
        arguments: Arguments::Text(whole),
        ..ToolCall::new("g", "get_weather", serde_json::Value::Null)
    };
    calls.check_whole(0, &as_text, &mut out);
    let value: serde_json::Value = serde_json::from_str(&format!(
        r#"{{"hours": {}{}}}"#,
        "[".repeat(max - 1),
        "]".repeat(max - 1)
    ))
    .unwrap();
    let mut deeper = value;
    deeper["hours"] = serde_json::Value::Array(vec![std::mem::take(&mut deeper["hours"])]);
    calls.check_whole(0, &ToolCall::new("g", "get_weather", deeper), &mut out);
    let want = format!(
        "invalid arguments for get_weather: {pointer} is nested more than {max} levels deep, past the limit for arguments; flatten it"
    );
    assert_eq!(invalid(&out), vec![want.clone(), want]);
    // And a key given twice, as dispatch says it.
    out.clear();
    let twice =
        ToolCall { arguments: Arguments::Text(r#"{"city": "a", "city": "b"}"#.into()), ..as_text };
    calls.check_whole(0, &twice, &mut out);
    assert_eq!(invalid(&out), vec!["invalid arguments for get_weather: /city is given twice"]);
}

#[test]
fn an_unknown_tool_is_reported_at_the_start() {
    let tools = tools();
    let mut calls = CallAssembler::with_tools(&tools);
    let mut out = Vec::new();
    calls.start(0, "c1", "get_wether", &mut out).unwrap();
    assert_eq!(
        invalid(&out),
        vec![
            r#"there is no tool named "get_wether" (did you mean "get_weather"?); the available tools are get_weather, search"#
        ]
    );
    let StreamEvent::Invalid(i) = &out[0] else { unreachable!() };
    assert_eq!(i.to_result().call_id, "c1");
    assert!(i.to_result().is_error);
}

#[test]
fn a_whole_call_is_checked_like_a_streamed_one() {
    let tools = tools();
    let calls = CallAssembler::with_tools(&tools);
    let mut out = Vec::new();
    let call = ToolCall::new("g", "get_weather", serde_json::json!({"city": "x", "days": 0}));
    calls.check_whole(0, &call, &mut out);
    assert_eq!(
        invalid(&out),
        vec!["invalid arguments for get_weather: /days must be at least 1; got 0"]
    );
}

#[test]
fn protocol_breaks_are_errors_naming_the_call() {
    let mut calls = CallAssembler::new();
    let mut out = Vec::new();
    assert_eq!(calls.append(7, "{", &mut out), Err(StreamError::NotStarted { index: 7 }));
    calls.start(7, "x", "t", &mut out).unwrap();
    assert_eq!(calls.start(7, "x", "t", &mut out), Err(StreamError::AlreadyStarted { index: 7 }));
    calls.start(8, "y", "u", &mut out).unwrap();
    assert_eq!(
        calls.end().unwrap_err().to_string(),
        "the stream ended before these tool calls were finished: 7 (t), 8 (u)"
    );
    calls.finish(7).unwrap();
    assert_eq!(
        calls.append(7, "}", &mut out).unwrap_err().to_string(),
        "arguments arrived for the tool call at index 7 after it finished"
    );
    assert_eq!(calls.finish_all().len(), 1);
    assert_eq!(out, vec![]);
}

#[test]
fn hostile_sizes_are_refused_without_growing() {
    let limits = StreamLimits::DEFAULT.max_calls(2).max_argument_bytes(64).max_stream_bytes(100);
    let mut calls = CallAssembler::new().limits(limits);
    let mut out = Vec::new();
    calls.start(0, "a", "t", &mut out).unwrap();
    calls.start(1, "b", "t", &mut out).unwrap();
    assert_eq!(calls.start(2, "c", "t", &mut out), Err(StreamError::TooManyCalls { limit: 2 }));
    let huge = "x".repeat(1 << 20);
    assert_eq!(
        calls.append(0, &huge, &mut out).unwrap_err().to_string(),
        "the arguments of the tool call at index 0 exceeds 64 bytes"
    );
    // Text that is not an object is an event, not a broken stream.
    calls.append(0, &"1".repeat(60), &mut out).unwrap();
    assert_eq!(
        invalid(&out),
        vec![
            "the arguments of t are not valid JSON: the arguments must be a JSON object at byte 0"
        ]
    );
    calls.append(1, &" ".repeat(30), &mut out).unwrap();
    assert_eq!(
        calls.append(1, &" ".repeat(20), &mut out).unwrap_err(),
        StreamError::TooLarge { index: 1, what: "stream's arguments", limit: 100 }
    );
    let long = "n".repeat(600);
    let mut fresh = CallAssembler::new();
    assert_eq!(
        fresh.start(0, "a", &long, &mut out),
        Err(StreamError::TooLarge { index: 0, what: "name", limit: 512 })
    );
}

#[test]
fn blank_arguments_become_an_empty_object() {
    let mut calls = CallAssembler::new();
    let mut out = Vec::new();
    calls.start(0, "a", "ping", &mut out).unwrap();
    calls.append(0, "  ", &mut out).unwrap();
    assert_eq!(calls.finish(0).unwrap().arguments, Arguments::Text("{}".into()));
}

#[test]
fn a_replacement_that_continues_the_text_scans_only_the_rest() {
    let tools = tools();
    let mut calls = CallAssembler::with_tools(&tools);
    let mut out = Vec::new();
    calls.start(0, "a", "get_weather", &mut out).unwrap();
    calls.append(0, r#"{"days": 11,"#, &mut out).unwrap();
    calls.replace(0, r#"{"days": 11, "city": "x"}"#, &mut out).unwrap();
    assert_eq!(invalid(&out).len(), 1, "{out:?}");
    calls.replace(0, r#"{"city": "y"}"#, &mut out).unwrap();
    assert_eq!(calls.finish(0).unwrap().arguments, Arguments::Text(r#"{"city": "y"}"#.into()));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// However the text is cut, the same problems are reported and the same text comes out.
    #[test]
    fn chunking_does_not_change_the_outcome(cuts in proptest::collection::vec(0usize..80, 0..12)) {
        let text = r#"{"city": "Pa\"ris\u00e9", "days": 40, "hours": [{"at": 1}, {"at": -1}], "x": [1, {"y": "z"}]}"#;
        let tools = tools();
        let run = |pieces: &[&str]| {
            let mut calls = CallAssembler::with_tools(&tools);
            let mut out = Vec::new();
            calls.start(0, "c", "get_weather", &mut out).unwrap();
            for p in pieces {
                calls.append(0, p, &mut out).unwrap();
            }
            let problems: Vec<String> = out
                .iter()
                .flat_map(|e| match e {
                    StreamEvent::Invalid(Invalid { error, .. }) => match error.kind() {
                        DispatchErrorKind::InvalidArguments { errors } => {
                            errors.0.iter().map(ToString::to_string).collect()
                        }
                        _ => vec![format!("{error:?}")],
                    },
                    other => vec![format!("{other:?}")],
                })
                .collect();
            (problems, calls.finish(0).unwrap())
        };
        let mut cuts: Vec<usize> = cuts.into_iter().filter(|c| *c < text.len()).collect();
        cuts.sort_unstable();
        cuts.dedup();
        let mut pieces = Vec::new();
        let mut from = 0;
        for c in cuts {
            pieces.push(&text[from..c]);
            from = c;
        }
        pieces.push(&text[from..]);
        proptest::prop_assert_eq!(run(&pieces), run(&[text]));
    }
}

/// What dispatch reads as the object or array a string holds is no early error; a string
/// that holds something the schema refuses still is.
#[test]
fn a_string_dispatch_repairs_is_no_early_error() {
    let tools = vec![
        ToolDescriptor::builder("plan")
            .param(Param::named(
                "hours",
                Schema::list_of(Schema::object_of(vec![Param::integer("at").range(0, 23)])),
            ))
            .build()
            .unwrap(),
    ];
    let run = |text: &str| {
        let mut calls = CallAssembler::with_tools(&tools);
        let mut out = Vec::new();
        calls.start(0, "c", "plan", &mut out).unwrap();
        calls.append(0, text, &mut out).unwrap();
        invalid(&out)
    };
    assert_eq!(run(r#"{"hours": "[{\"at\": 5}]"}"#), Vec::<String>::new());
    assert_eq!(
        run(r#"{"hours": "[{\"at\": 25}]"}"#),
        [r#"invalid arguments for plan: /hours must be an array; got "[{\"at\": 25}]""#]
    );
}

/// With repairs off (as dispatch will run the call), a string holding the array its place
/// expects is the early error dispatch will give; on (the default), it is none.
#[test]
fn with_repairs_off_a_string_dispatch_would_repair_is_an_early_error() {
    let tools = tools();
    let text = r#"{"city": "Paris", "hours": "[{\"at\": 5}]"}"#;
    let run = |repair: bool| {
        let mut calls = CallAssembler::with_tools(&tools).repair(repair);
        let mut out = Vec::new();
        calls.start(0, "c", "get_weather", &mut out).unwrap();
        calls.append(0, text, &mut out).unwrap();
        let call = calls.finish(0).unwrap();
        calls.check_whole(0, &call, &mut out);
        invalid(&out)
    };
    assert_eq!(run(true), Vec::<String>::new());
    let refused =
        r#"invalid arguments for get_weather: /hours must be an array; got "[{\"at\": 5}]""#;
    // Once while streaming, once checking the call whole.
    assert_eq!(run(false), [refused, refused]);
}

/// Tool and property names a provider refuses, mapped by `render_mapped`.
struct Dotted;

impl crate::render::Renderer for Dotted {
    fn name(&self) -> &str {
        "dotted"
    }
    fn name_rules(&self) -> crate::render::NameRules {
        crate::render::NameRules::tools(crate::render::NameRule::COMMON_64)
            .with_properties(crate::render::NameRule::COMMON_64)
    }
    fn render(
        &self,
        tool: &ToolDescriptor,
        policy: crate::render::LossPolicy,
    ) -> Result<crate::render::Rendered, crate::render::RenderError> {
        let opts = crate::render::SchemaOptions::JSON_SCHEMA
            .with(crate::render::Pass::NullForAbsent)
            .with(crate::render::Pass::CloseObjects);
        let mut ctx = crate::render::RenderCtx::new(tool, policy);
        let mut out = crate::render::JsonWriter::new();
        crate::render::write_input_schema(
            &mut out,
            tool,
            &opts,
            &mut ctx,
            &crate::JsonPointer::root(),
        )?;
        Ok(ctx.finish(out))
    }
}

/// A tool whose name and a property's name were mapped is found by its original name, its
/// streamed arguments read under the names the model was sent (a strict `null` for a
/// parameter left out no error), and the call given back under the original names.
#[test]
fn a_mapped_tool_is_found_by_its_original_name_and_read_under_the_wire_names() {
    // As an MCP server may name them; the builder keeps to portable names.
    let mut weather = ToolDescriptor::new("w");
    weather.name = crate::descriptor::ToolName::parse_wide("weather.get").unwrap();
    weather.params =
        vec![Param::string("city.name"), Param::integer("days").range(1, 10).optional()].into();
    let tools = vec![weather];
    let refs: Vec<&ToolDescriptor> = tools.iter().collect();
    let set =
        crate::render::render_mapped(&Dotted, &refs, crate::render::LossPolicy::Allow).unwrap();
    assert_eq!(set.names().renamed_tools(), [("weather_get", "weather.get")]);
    let run = |text: &str| {
        let mut calls = CallAssembler::with_tools(&tools).way_back(&set);
        let mut out = Vec::new();
        calls.start(0, "c", "weather_get", &mut out).unwrap();
        calls.append(0, text, &mut out).unwrap();
        let call = calls.finish(0).unwrap();
        calls.check_whole(0, &call, &mut out);
        (invalid(&out), call)
    };
    let (errors, call) = run(r#"{"city_name": "Paris", "days": null}"#);
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(call, ToolCall::new("c", "weather.get", serde_json::json!({"city.name": "Paris"})));
    // An error names the pointer the model saw.
    let (errors, _) = run(r#"{"city_name": "Paris", "days": 11}"#);
    assert_eq!(
        errors,
        [
            "invalid arguments for weather_get: /days must be at most 10; got 11",
            "invalid arguments for weather.get: /days must be at most 10; got 11"
        ]
    );
}
