//! The structure-aware fuzz loop, run for a bounded number of cases on every test run:
//! generated spec files (hostile schemas, duplicate keys) go through import, every renderer
//! under both policies, the descriptor's serde round trip and dispatch with generated argument
//! values. Each must answer without a panic; what is accepted must be valid and read back
//! exactly. (The same generators seed the cargo-fuzz targets in `fuzz/`.)

use proptest::prelude::*;
use serde_json::Value;
use tooldef::dispatch::DynamicTool;
use tooldef::{Arguments, LossPolicy, Renderer, ToolDescriptor, parse_spec};
use tooldef_testkit::fuzz::{arb_arguments, arb_spec_text};

fn renderers() -> Vec<Box<dyn Renderer>> {
    vec![
        Box::new(tooldef_openai::OpenAiRenderer::chat()),
        Box::new(tooldef_openai::OpenAiRenderer::responses()),
        Box::new(tooldef_anthropic::AnthropicRenderer::new()),
        Box::new(tooldef_gemini::GeminiRenderer::new()),
        Box::new(tooldef_gemini::GeminiRenderer::openapi()),
        Box::new(tooldef_ollama::OllamaRenderer::new()),
        Box::new(tooldef_mcp::McpRenderer::new()),
        Box::new(tooldef_bedrock::BedrockRenderer::new()),
    ]
}

const CASES: u32 = 320;

#[test]
fn hostile_specs_and_arguments_get_an_answer() {
    let config =
        ProptestConfig { cases: CASES, max_shrink_iters: 256, ..ProptestConfig::default() };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let accepted = std::cell::Cell::new(0u32);
    let strategy = (arb_spec_text(), prop::collection::vec(arb_arguments(), 1..4));
    let result = runner.run(&strategy, |(text, args)| {
        let Ok(spec) = parse_spec("fuzzed.json", &text, None) else { return Ok(()) };
        accepted.set(accepted.get() + 1);
        let d = spec.descriptor;
        prop_assert!(d.validate().is_ok(), "accepted an invalid descriptor: {}", text);
        // The descriptor reads back exactly.
        let json = serde_json::to_string(&d).unwrap();
        let back: ToolDescriptor = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, &d);
        // Every renderer answers; a rendering is JSON of modest size.
        for r in renderers() {
            for policy in [LossPolicy::Allow, LossPolicy::Refuse] {
                if let Ok(rendered) = r.render(&d, policy) {
                    let bytes = rendered.json().len();
                    prop_assert!(serde_json::from_str::<Value>(rendered.json()).is_ok());
                    prop_assert!(bytes < 4 << 20, "{}: {} bytes", r.name(), bytes);
                }
            }
        }
        // Dispatch answers every argument value, parsed or as text, the same way.
        let tool = DynamicTool::new_sync(d, Ok);
        for a in args {
            let parsed = tool.prepare(&Arguments::Json(a.clone())).is_ok();
            let text = tool.prepare(&Arguments::Text(a.to_string())).is_ok();
            prop_assert_eq!(parsed, text, "the same arguments as text and parsed: {}", a);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    // The generator reaches past import often enough for the rest to be exercised.
    assert!(accepted.get() >= CASES / 20, "only {} of {CASES} specs imported", accepted.get());
}
