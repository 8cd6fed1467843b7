//! Name mapping end to end: a tool OpenAI refuses by name renders under a safe name, and the
//! model's call under that name reaches the tool under the original one.

use serde_json::json;
use tooldef::render::{LossPolicy, RenderRule, Renderer, render_mapped};
use tooldef::spec::parse_spec;
use tooldef_openai::{OpenAiRenderer, chat_tool_calls, chat_tool_message, responses_tool_calls};
use tooldef_testkit::names::{
    assert_dispatched_under_original_names, dotted_tool, original_arguments,
};

#[test]
fn a_refused_tool_name_is_an_error_naming_the_tool_and_the_rule() {
    let err = OpenAiRenderer::chat().render(&dotted_tool(), LossPolicy::Allow).unwrap_err();
    assert_eq!(err.rule, RenderRule::Name);
    assert_eq!(
        err.message,
        "tool `weather.get` at /name: the name has the character '.' at byte 7, which ^[a-zA-Z0-9_-]{1,64}$ does not allow"
    );
}

#[test]
fn chat_calls_under_the_safe_name_reach_the_tool_under_the_original() {
    let tool = dotted_tool();
    let set = render_mapped(&OpenAiRenderer::chat(), &[&tool], LossPolicy::Refuse).unwrap();
    let wire = set.rendered()[0].to_value();
    assert_eq!(wire["function"]["name"], "weather_get");
    // Property names are OpenAI's to take as they are.
    assert!(wire["function"]["parameters"]["properties"]["Content-Type"].is_object());
    let report = set.rendered()[0].report();
    assert_eq!(
        report.changes[0].to_string(),
        "tool `weather.get` at /name: tool name `weather.get` sent as `weather_get`: the name has the character '.' at byte 7, which ^[a-zA-Z0-9_-]{1,64}$ does not allow; the name map gives the model's calls back under `weather.get`"
    );
    assert!(report.is_lossless());

    let message = json!({
        "role": "assistant",
        "tool_calls": [{
            "id": "call_1",
            "type": "function",
            "function": { "name": "weather_get", "arguments": original_arguments().to_string() }
        }]
    });
    let calls = set.names().restore_all(chat_tool_calls(&message).unwrap());
    assert_dispatched_under_original_names(&calls[0]);
    let result = tooldef_testkit::names::echo_toolbox().call_blocking(&calls[0]);
    assert_eq!(chat_tool_message(&set.names().to_wire(result)).message["tool_call_id"], "call_1");
}

#[test]
fn responses_calls_come_back_too() {
    let tool = dotted_tool();
    let renderer = OpenAiRenderer::responses().strict(true);
    let set = render_mapped(&renderer, &[&tool], LossPolicy::Refuse).unwrap();
    assert_eq!(set.rendered()[0].to_value()["name"], "weather_get");
    let output = json!({ "output": [{
        "type": "function_call",
        "call_id": "fc_1",
        "name": "weather_get",
        "arguments": original_arguments().to_string()
    }]});
    let calls = set.names().restore_all(responses_tool_calls(&output).unwrap());
    assert_dispatched_under_original_names(&calls[0]);
}

#[test]
fn a_safe_name_never_takes_the_name_of_another_tool() {
    let dotted = dotted_tool();
    let plain = parse_spec("w.json", r#"{"name": "weather_get"}"#, None).unwrap().descriptor;
    let set =
        render_mapped(&OpenAiRenderer::chat(), &[&dotted, &plain], LossPolicy::Allow).unwrap();
    let names: Vec<String> = set
        .rendered()
        .iter()
        .map(|r| r.to_value()["function"]["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names[1], "weather_get");
    assert!(names[0].starts_with("weather_get_") && names[0].len() == "weather_get_".len() + 8);
    assert_eq!(set.names().original_name(&names[0]), "weather.get");
    assert_eq!(set.names().original_name("weather_get"), "weather_get");
    // The same tools always get the same names.
    let again = render_mapped(&OpenAiRenderer::chat(), &[&dotted, &plain], LossPolicy::Allow);
    assert_eq!(again.unwrap().json(), set.json());
}

#[test]
fn tools_the_provider_accepts_render_exactly_as_without_mapping() {
    let tool = parse_spec("t.json", r#"{"name": "ping", "description": "Ping."}"#, None)
        .unwrap()
        .descriptor;
    let renderer = OpenAiRenderer::chat().strict(true);
    let set = render_mapped(&renderer, &[&tool], LossPolicy::Refuse).unwrap();
    assert_eq!(set.rendered()[0], renderer.render(&tool, LossPolicy::Refuse).unwrap());
    assert!(set.names().is_empty());
}
