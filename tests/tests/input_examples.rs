//! Tool-level input examples across providers: Anthropic's `input_examples` field, folded into
//! the description (and reported) elsewhere, omitted (and reported) for MCP; checked against the
//! parameters by the builder and spec files; dispatch unaffected.

use serde_json::json;
use tooldef::render::{LossPolicy, Renderer};
use tooldef::spec::spec_from_value;
use tooldef::{Literal, Param, ToolDescriptor};
use tooldef_anthropic::AnthropicRenderer;
use tooldef_bedrock::BedrockRenderer;
use tooldef_gemini::GeminiRenderer;
use tooldef_mcp::McpRenderer;
use tooldef_ollama::OllamaRenderer;
use tooldef_openai::OpenAiRenderer;

static PARIS: [(std::borrow::Cow<'static, str>, Literal); 2] = [
    (std::borrow::Cow::Borrowed("city"), Literal::str("Paris")),
    (std::borrow::Cow::Borrowed("days"), Literal::Int(3)),
];
static EXAMPLES: [Literal; 1] = [Literal::Object(std::borrow::Cow::Borrowed(&PARIS))];
static FORECAST: ToolDescriptor = ToolDescriptor::new("forecast")
    .description("Forecast the weather.")
    .input_examples(&EXAMPLES)
    .params(const { &[Param::string("city"), Param::integer("days").range(1, 10).optional()] });

fn report(r: &dyn Renderer) -> Vec<String> {
    let rendered = r.render(&FORECAST, LossPolicy::Refuse).unwrap();
    rendered.report().iter().map(ToString::to_string).collect()
}

#[test]
fn anthropic_takes_them_natively_and_the_others_read_them_in_the_description() {
    FORECAST.validate().unwrap();
    let anthropic = AnthropicRenderer::new().render(&FORECAST, LossPolicy::Refuse).unwrap();
    assert_eq!(anthropic.to_value()["input_examples"], json!([{"city": "Paris", "days": 3}]));
    assert!(anthropic.report().is_empty());

    let folded = "Forecast the weather. Example input: {\"city\":\"Paris\",\"days\":3}.";
    let chat = OpenAiRenderer::chat().render(&FORECAST, LossPolicy::Refuse).unwrap();
    assert_eq!(chat.to_value()["function"]["description"], folded);
    assert_eq!(
        report(&OpenAiRenderer::chat()),
        [
            "tool `forecast` at /function/description: the tool's input examples written into its description: the provider has no field for them"
        ]
    );
    let gemini = GeminiRenderer::new().render(&FORECAST, LossPolicy::Refuse).unwrap();
    assert_eq!(gemini.to_value()["description"], folded);
    let ollama = OllamaRenderer::new().render(&FORECAST, LossPolicy::Refuse).unwrap();
    assert_eq!(ollama.to_value()["function"]["description"], folded);
    let bedrock = BedrockRenderer::new().render(&FORECAST, LossPolicy::Refuse).unwrap();
    assert_eq!(bedrock.to_value()["toolSpec"]["description"], folded);

    let mcp = McpRenderer::new().render(&FORECAST, LossPolicy::Refuse).unwrap();
    assert_eq!(mcp.to_value()["description"], "Forecast the weather.");
    assert_eq!(
        report(&McpRenderer::new()),
        ["tool `forecast`: the tool's input examples omitted: MCP's Tool has no field for them"]
    );
}

#[test]
fn an_example_the_parameters_refuse_is_an_error_naming_it() {
    let err = ToolDescriptor::builder("forecast")
        .param(Param::string("city"))
        .input_example(Literal::from_json(&json!({"town": "Paris"})).unwrap())
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "tool `forecast`: input example 0 is not an input the tool takes: lacks the required key `city`"
    );
    let spec = json!({"name": "forecast", "input_schema": {"type": "object",
        "properties": {"days": {"type": "integer", "maximum": 10}}}, "input_examples": [{"days": 30}]});
    let err = spec_from_value("forecast.json", &spec, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "forecast.json: tool `forecast`: input example 0 is not an input the tool takes: parameter `days`: 30 is above the maximum 10"
    );
    let spec = json!({"name": "forecast", "input_schema": {"type": "object",
        "properties": {"days": {"type": "integer"}}}, "input_examples": [{"days": 3}]});
    let parsed = spec_from_value("forecast.json", &spec, None).unwrap();
    assert_eq!(parsed.descriptor.input_examples.len(), 1);
    assert_eq!(
        tooldef::spec::spec_to_json(&parsed.descriptor, None)["input_examples"],
        json!([{"days": 3}])
    );
}
