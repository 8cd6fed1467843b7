//! An agent loop against a fake Anthropic-compatible server that this example starts on
//! 127.0.0.1: assemble the prompt, render the tools for Anthropic Messages, receive a tool call,
//! dispatch it with typed checking, send the result, and print the final answer.
//!
//! Run: `cargo run -p tooldef-examples --example agent_loop_anthropic`
#![allow(clippy::print_stdout)] // an example prints what it does

use serde_json::{Value, json};
use tooldef::assembly::{Assembler, Bundle, SectionSource};
use tooldef::{DynamicTool, Param, ToolDescriptor, ToolError, Toolbox};
use tooldef_examples::agent::{Transcript, run_anthropic};
use tooldef_examples::fake_model::{FakeModel, Script};

static GET_WEATHER: ToolDescriptor =
    ToolDescriptor::new("get_weather").description("Get the current weather for a city.").params(
        const {
            &[
                Param::string("city").description("City name, e.g. \"Paris\"."),
                Param::enumeration("unit", &["celsius", "fahrenheit"]).default_str("celsius"),
            ]
        },
    );

fn weather(args: Value) -> Result<Value, ToolError> {
    // Defaults are applied before the handler runs: `unit` is always there.
    let city = args["city"].as_str().unwrap_or_default();
    let celsius = 21.0;
    let temperature =
        if args["unit"] == "fahrenheit" { celsius * 9.0 / 5.0 + 32.0 } else { celsius };
    Ok(
        json!({ "city": city, "temperature": temperature, "unit": args["unit"], "conditions": "sunny" }),
    )
}

fn run() -> Result<(Transcript, Vec<Value>), Box<dyn std::error::Error>> {
    let toolbox =
        Toolbox::new().with_executor(DynamicTool::new_sync(GET_WEATHER.clone(), weather).into());
    let assembler = Assembler::new();
    assembler.add_contributor(
        Bundle::new()
            .section(SectionSource::fixed("persona", 0, "You are a concise weather assistant."))
            .tools(toolbox.descriptors().cloned()),
    );
    let model = FakeModel::anthropic(Script {
        tool: "get_weather".into(),
        arguments: json!({ "city": "Paris" }),
    })?;
    let transcript = run_anthropic(
        model.addr(),
        &assembler,
        &|call| toolbox.call_blocking(call),
        "Weather in Paris?",
    )?;
    Ok((transcript, model.requests()))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (transcript, requests) = run()?;
    println!("tools sent: {}", serde_json::to_string_pretty(&requests[0]["tools"])?);
    for result in &transcript.results {
        println!("tool `{}` returned: {}", result.name, result.text());
    }
    println!("answer after {} requests: {}", transcript.turns, transcript.answer);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tooldef::{LossPolicy, Renderer};
    use tooldef_anthropic::AnthropicRenderer;

    #[test]
    fn the_loop_calls_the_tool_and_ends_with_its_answer() {
        let (transcript, requests) = run().unwrap();
        assert_eq!(transcript.turns, 2);
        assert_eq!(transcript.results.len(), 1);
        let result = &transcript.results[0];
        assert!(!result.is_error, "{}", result.text());
        assert_eq!(
            result.structured,
            Some(
                json!({ "city": "Paris", "temperature": 21.0, "unit": "celsius", "conditions": "sunny" })
            )
        );
        assert_eq!(transcript.answer, format!("The tool answered: {}", result.text()));
        // The request carried exactly the renderer's wire JSON, and the second one the call and
        // its result.
        let wire =
            AnthropicRenderer::new().render(&GET_WEATHER, LossPolicy::Allow).unwrap().to_value();
        assert_eq!(requests[0]["tools"], json!([wire]));
        let messages = requests[1]["messages"].as_array().unwrap();
        let roles: Vec<&str> = messages.iter().map(|m| m["role"].as_str().unwrap()).collect();
        assert_eq!(roles, ["user", "assistant", "user"]);
        assert_eq!(requests[1]["system"], "You are a concise weather assistant.");
        assert_eq!(messages[2]["content"][0]["type"], "tool_result");
        assert_eq!(messages[2]["content"][0]["tool_use_id"], messages[1]["content"][0]["id"]);
    }
}
