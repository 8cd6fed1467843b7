//! Grammar tools end to end: a Rust type says what the input text is, OpenAI gets a custom tool
//! with its grammar (checked against OpenAI's published spec), a recorded-shape custom tool call
//! comes back, is decoded into the type and dispatched; every other provider gets a function
//! tool with one string parameter and reports it.

use std::sync::LazyLock;

use serde_json::{Value, json};
use tooldef::grammar::{GrammarInput, ToolGrammar};
use tooldef::render::{Change, ChangeKind};
use tooldef::{
    BoxFuture, LossPolicy, Renderer, Tool, ToolCall, ToolDescriptor, ToolError, Toolbox,
};
use tooldef_openai::{OpenAiRenderer, Profile, chat_tool_calls, responses_tool_calls};
use tooldef_testkit::specs::{assert_conforms, openai};

const RESPONSES: &str = include_str!("fixtures/grammar/responses_custom_tool_call.json");
const CHAT: &str = include_str!("fixtures/grammar/chat_custom_tool_call.json");

/// The display unit: each variant is a literal of the grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, tooldef::ToolGrammar)]
enum Unit {
    Celsius,
    Fahrenheit,
}

/// A stock-keeping unit, three letters, a dash and four digits.
#[derive(Debug, PartialEq, tooldef::ToolGrammar)]
#[grammar(regex = "[A-Z]{3}-[0-9]{4}")]
struct Sku(String);

/// A tiny arithmetic language, written as a Lark grammar.
#[derive(Debug, PartialEq, tooldef::ToolGrammar)]
#[grammar(lark = r#"start: NUMBER ("+" NUMBER)*
NUMBER: /[0-9]+/"#)]
struct Sum(String);

struct SetUnit;

impl Tool for SetUnit {
    const NAME: &'static str = "set_unit";
    type Args = GrammarInput<Unit>;
    type Output = String;

    fn descriptor() -> &'static ToolDescriptor {
        static D: LazyLock<ToolDescriptor> = LazyLock::new(|| {
            ToolDescriptor::grammar_tool::<Unit>("set_unit", "Set the temperature unit.")
                .expect("a valid grammar tool")
        });
        &D
    }

    fn call(&self, args: Self::Args) -> BoxFuture<'_, Result<String, ToolError>> {
        let unit: Unit = args.into_inner();
        Box::pin(async move { Ok(format!("unit set to {unit:?}")) })
    }
}

#[test]
fn the_derive_writes_each_grammar_and_parses_its_text() {
    assert_eq!(
        (Unit::GRAMMAR.syntax.as_str(), &*Unit::GRAMMAR.definition),
        ("lark", r#"start: "celsius" | "fahrenheit""#)
    );
    assert_eq!(
        (Sku::GRAMMAR.syntax.as_str(), &*Sku::GRAMMAR.definition),
        ("regex", "[A-Z]{3}-[0-9]{4}")
    );
    assert_eq!(Sku::parse("ABC-1234"), Ok(Sku("ABC-1234".to_owned())));
    assert_eq!(
        Sku::parse("ABC-12").unwrap_err().to_string(),
        r#"expected text matching the regular expression [A-Z]{3}-[0-9]{4} at byte 0; got "ABC-12""#
    );
    assert_eq!(Sum::GRAMMAR.definition, "start: NUMBER (\"+\" NUMBER)*\nNUMBER: /[0-9]+/");
    assert_eq!(Sum::parse("1+2"), Ok(Sum("1+2".to_owned())));
}

#[test]
fn openai_gets_a_custom_tool_that_its_spec_accepts() {
    let tool = SetUnit::descriptor();
    let responses = OpenAiRenderer::responses().render(tool, LossPolicy::Refuse).unwrap();
    let expected = json!({
        "type": "custom",
        "name": "set_unit",
        "description": "Set the temperature unit.",
        "format": {
            "type": "grammar",
            "syntax": "lark",
            "definition": "start: \"celsius\" | \"fahrenheit\""
        }
    });
    assert_eq!(responses.to_value(), expected);
    assert!(responses.report().is_empty(), "{:?}", responses.report());
    assert_conforms("CustomToolParam", openai::validate_component("CustomToolParam", &expected));
    assert_conforms(
        "a Responses request with the tool",
        openai::validate_create_response(
            &json!({"model": "gpt-5", "input": "hi", "tools": [expected]}),
        ),
    );

    let chat = OpenAiRenderer::chat().render(tool, LossPolicy::Refuse).unwrap();
    let expected = json!({
        "type": "custom",
        "custom": {
            "name": "set_unit",
            "description": "Set the temperature unit.",
            "format": {
                "type": "grammar",
                "grammar": {"syntax": "lark", "definition": "start: \"celsius\" | \"fahrenheit\""}
            }
        }
    });
    assert_eq!(chat.to_value(), expected);
    assert!(chat.report().is_empty(), "{:?}", chat.report());
    assert_conforms(
        "a Chat request with the tool",
        openai::validate_chat_completion_fragment(&json!({"tools": [expected]})),
    );

    let sku = ToolDescriptor::grammar_tool::<Sku>("find_sku", "Look up a product.").unwrap();
    let rendered = OpenAiRenderer::responses().render(&sku, LossPolicy::Refuse).unwrap();
    assert_eq!(
        rendered.to_value()["format"],
        json!({"type": "grammar", "syntax": "regex", "definition": "[A-Z]{3}-[0-9]{4}"})
    );
    assert_conforms(
        "CustomToolParam",
        openai::validate_component("CustomToolParam", &rendered.to_value()),
    );
    let two_params = ToolDescriptor {
        params: vec![tooldef::Param::string("input"), tooldef::Param::string("other")].into(),
        ..sku
    };
    assert_eq!(
        OpenAiRenderer::responses().render(&two_params, LossPolicy::Allow).unwrap_err().to_string(),
        "tool `find_sku`: a grammar tool takes exactly one parameter, the required string `input` (make it with `ToolDescriptor::grammar_tool`)"
    );
}

#[test]
fn a_recorded_custom_tool_call_is_decoded_and_dispatched() {
    let response: Value = serde_json::from_str(RESPONSES).unwrap();
    for item in response["output"].as_array().unwrap().iter().skip(1) {
        assert_conforms("CustomToolCall", openai::validate_component("CustomToolCall", item));
    }
    let calls = responses_tool_calls(&response).unwrap();
    assert_eq!(
        calls,
        vec![
            ToolCall::new(
                "call_aGiFQkRWSWAIsMQ19fKqxUgb",
                "set_unit",
                json!({"input": "fahrenheit"})
            ),
            ToolCall::new("call_Xq2vLm8TnR4pKs7Jd1Wc9BfE", "set_unit", json!({"input": "kelvin"})),
        ]
    );
    let toolbox = Toolbox::new().with(SetUnit);
    let ok = toolbox.call_blocking(&calls[0]);
    assert_eq!((ok.is_error, ok.text()), (false, "unit set to Fahrenheit".to_owned()));
    let bad = toolbox.call_blocking(&calls[1]);
    assert_eq!(
        (bad.is_error, bad.text()),
        (
            true,
            r#"invalid arguments for set_unit: the arguments could not be decoded: /input: expected one of "celsius", "fahrenheit" at byte 0; got "kelvin""#
                .to_owned()
        )
    );

    let message: Value = serde_json::from_str(CHAT).unwrap();
    assert_conforms(
        "ChatCompletionMessageCustomToolCall",
        openai::validate_component(
            "ChatCompletionMessageCustomToolCall",
            &message["tool_calls"][0],
        ),
    );
    let calls = chat_tool_calls(&message).unwrap();
    assert_eq!(
        calls,
        vec![ToolCall::new(
            "call_9yH3kLp2QwErTy6UiOp1AsDf",
            "set_unit",
            json!({"input": "celsius"})
        )]
    );
    let ok = toolbox.call_blocking(&calls[0]);
    assert_eq!((ok.is_error, ok.text()), (false, "unit set to Celsius".to_owned()));
}

#[test]
fn other_providers_get_one_string_parameter_and_a_reported_change() {
    let tool = SetUnit::descriptor();
    let renderers: Vec<(&str, Box<dyn Renderer>)> = vec![
        ("mistral", Box::new(OpenAiRenderer::chat().profile(Profile::Mistral))),
        ("anthropic", Box::new(tooldef_anthropic::AnthropicRenderer::new())),
        ("gemini", Box::new(tooldef_gemini::GeminiRenderer::new())),
        ("gemini-openapi", Box::new(tooldef_gemini::GeminiRenderer::openapi())),
        ("ollama", Box::new(tooldef_ollama::OllamaRenderer::new())),
        ("mcp", Box::new(tooldef_mcp::McpRenderer::new())),
        ("bedrock", Box::new(tooldef_bedrock::BedrockRenderer::new())),
    ];
    let description =
        "Text in this Lark grammar (start rule `start`):\nstart: \"celsius\" | \"fahrenheit\"";
    let change = Change::lossy(ChangeKind::MovedToDescription, "format").param("input").detail(
        "a grammar tool (Lark) sent as a function tool with one string parameter `input`, the \
         grammar in its description; the provider does not hold the model to it",
    );
    for (label, renderer) in renderers {
        let rendered = renderer.render(tool, LossPolicy::Allow).unwrap();
        let changes: Vec<Change> = rendered.report().iter().cloned().collect();
        // The grammar's change, then what the provider reports for the same tool without one.
        let mut expected = change.clone();
        expected.tool = "set_unit".to_owned();
        let mut expected = vec![expected];
        let plain = ToolDescriptor { grammar: None, ..tool.clone() };
        let plain = renderer.render(&plain, LossPolicy::Allow).unwrap();
        expected.extend(plain.report().iter().cloned());
        assert_eq!(changes, expected, "{label}");
        assert_eq!(rendered.json(), plain.json(), "{label}: the same function tool");
        let mut descriptions = Vec::new();
        find_descriptions(&rendered.to_value(), &mut descriptions);
        assert!(descriptions.contains(&description.to_owned()), "{label}: {}", rendered.json());
        let err = renderer.render(tool, LossPolicy::Refuse).unwrap_err();
        assert_eq!(err.rule, tooldef::render::RenderRule::Lossy, "{label}");
    }
    // The function tool's call carries the same arguments a custom tool call gives.
    let message = json!({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_01", "name": "set_unit", "input": {"input": "celsius"}}]});
    let calls = tooldef_anthropic::tool_calls(&message).unwrap();
    let result = Toolbox::new().with(SetUnit).call_blocking(&calls[0]);
    assert_eq!((result.is_error, result.text()), (false, "unit set to Celsius".to_owned()));
}

/// Every `description` string anywhere in `v`.
fn find_descriptions(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::String(d)) = map.get("description") {
                out.push(d.clone());
            }
            map.values().for_each(|x| find_descriptions(x, out));
        }
        Value::Array(items) => items.iter().for_each(|x| find_descriptions(x, out)),
        _ => {}
    }
}
