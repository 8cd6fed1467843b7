//! Name mapping end to end: Gemini refuses dotted function names and property names with `-`
//! or `.`; mapped, they render under safe names (valid against the official descriptor), and
//! the model's call under those names reaches the tool under the original ones.

use serde_json::json;
use tooldef::render::{LossPolicy, RenderRule, Renderer, render_mapped};
use tooldef::{ToolCall, ToolResult};
use tooldef_gemini::{GeminiRenderer, function_calls, function_response, parameters_violations};
use tooldef_testkit::names::{
    assert_dispatched_under_original_names, dotted_tool, echo_toolbox, gemini_arguments,
};
use tooldef_testkit::specs::{assert_conforms, gemini};

#[test]
fn a_refused_property_name_is_an_error_naming_the_property_and_the_rule() {
    let mut tool = dotted_tool();
    tool.name = "weather_get".parse().unwrap();
    let err = GeminiRenderer::new().render(&tool, LossPolicy::Allow).unwrap_err();
    assert_eq!(err.rule, RenderRule::Name);
    assert_eq!(
        err.message,
        "tool `weather_get`, parameter `Content-Type` at /parametersJsonSchema/properties/Content-Type: property name `Content-Type` is not accepted: the name has the character '-' at byte 7, which ^[A-Za-z_][A-Za-z0-9_]{0,63}$ does not allow"
    );
}

#[test]
fn both_forms_send_safe_names_and_give_the_call_back_under_the_original_ones() {
    let tool = dotted_tool();
    for renderer in [GeminiRenderer::new(), GeminiRenderer::openapi()] {
        let set = render_mapped(&renderer, &[&tool], LossPolicy::Refuse).unwrap();
        let rendered = &set.rendered()[0];
        let wire = rendered.to_value();
        assert_conforms("FunctionDeclaration", gemini::validate_function_declaration(&wire));
        assert_eq!(wire["name"], "weather_get");
        let key = match renderer.form() {
            tooldef_gemini::Form::JsonSchema => "parametersJsonSchema",
            tooldef_gemini::Form::OpenApi => "parameters",
        };
        let params = &wire[key];
        let props: Vec<&str> =
            params["properties"].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(props, ["Content_Type", "filter", "stops"]);
        assert!(params["properties"]["filter"]["properties"]["max_results"].is_object());
        assert!(params["properties"]["stops"]["items"]["properties"]["city_name"].is_object());
        assert_eq!(params["required"], json!(["Content_Type", "filter", "stops"]));
        if key == "parameters" {
            assert_eq!(parameters_violations(params), Vec::<String>::new());
        }
        // Every rename is reported, lossless, under the original tool name.
        let renames: Vec<&str> = rendered
            .report()
            .iter()
            .filter(|c| c.keyword == "name")
            .map(|c| c.param.as_str())
            .collect();
        assert_eq!(renames, ["", "Content-Type", "filter.max-results", "stops[].city.name"]);
        assert!(rendered.report().iter().all(|c| c.tool == "weather.get"));
        assert!(rendered.report().is_lossless());

        let turn = json!({"role": "model", "parts": [
            {"functionCall": {"name": "weather_get", "args": gemini_arguments()}}
        ]});
        let calls = set.names().restore_all(function_calls(&turn).unwrap());
        assert_dispatched_under_original_names(&calls[0]);
        // The response names the function as the model knows it.
        let result = set.names().to_wire(echo_toolbox().call_blocking(&calls[0]));
        assert_eq!(function_response(&result).message["functionResponse"]["name"], "weather_get");
    }
}

#[test]
fn keys_outside_the_schema_and_calls_to_other_tools_pass_through() {
    let tool = dotted_tool();
    let set = render_mapped(&GeminiRenderer::new(), &[&tool], LossPolicy::Allow).unwrap();
    let stray = ToolCall::new("", "weather_get", json!({"Content_Type": "a", "extra-key": 1}));
    assert_eq!(
        set.names().restore(stray).arguments,
        tooldef::Arguments::Json(json!({"Content-Type": "a", "extra-key": 1}))
    );
    let other = ToolCall::new("", "elsewhere", json!({"Content_Type": "a"}));
    assert_eq!(set.names().restore(other.clone()), other);
    let foreign = ToolResult { name: "elsewhere".into(), ..ToolResult::default() };
    assert_eq!(set.names().to_wire(foreign.clone()), foreign);
}
