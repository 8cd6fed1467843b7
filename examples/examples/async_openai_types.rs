//! A tool loop written with `async-openai`'s own request and response types, against a fake
//! OpenAI-compatible server that this example starts on 127.0.0.1: tooldef fills
//! `CreateChatCompletionRequest::tools`, reads the typed reply's tool calls, dispatches them
//! (concurrently, with a timeout) and answers with typed tool messages.
//!
//! Only `async-openai`'s types are used; the loopback client of the examples stands in for its
//! HTTP client, which is where `client.chat().create(request)` would go in a real program.
//!
//! Run: `cargo run -p tooldef-examples --example async_openai_types`
#![allow(clippy::print_stdout)] // an example prints what it does

use std::time::Duration;

use async_openai::types::chat::{
    ChatCompletionRequestAssistantMessageArgs, ChatCompletionRequestMessage,
    ChatCompletionRequestSystemMessageArgs, ChatCompletionRequestUserMessageArgs,
    CreateChatCompletionRequest, CreateChatCompletionRequestArgs, CreateChatCompletionResponse,
};
use serde_json::{Value, json};
use tooldef::dispatch::{CallOptions, block_on};
use tooldef::{DynamicTool, LossPolicy, Param, ToolDescriptor, ToolError, ToolResult, Toolbox};
use tooldef_examples::fake_model::{FakeModel, Script};
use tooldef_examples::http::post_json;
use tooldef_openai::{OpenAiRenderer, typed};

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
    let city = args["city"].as_str().unwrap_or_default();
    Ok(json!({ "city": city, "temperature": 21, "unit": args["unit"], "conditions": "sunny" }))
}

/// What one run did: the typed requests sent, the tool results, the final answer.
struct Run {
    requests: Vec<CreateChatCompletionRequest>,
    results: Vec<ToolResult>,
    answer: String,
}

fn run() -> Result<Run, Box<dyn std::error::Error>> {
    let toolbox =
        Toolbox::new().with_executor(DynamicTool::new_sync(GET_WEATHER.clone(), weather).into());
    let model = FakeModel::openai_chat(Script {
        tool: "get_weather".into(),
        arguments: json!({ "city": "Paris" }),
    })?;
    let renderer = OpenAiRenderer::chat().strict(true);
    let descriptors: Vec<&ToolDescriptor> = toolbox.descriptors().collect();
    let tools = typed::chat_tools(&renderer, &descriptors, LossPolicy::Allow)?;
    let options = CallOptions::new().timeout(Duration::from_secs(10)).concurrency(4);

    let mut messages: Vec<ChatCompletionRequestMessage> = vec![
        ChatCompletionRequestSystemMessageArgs::default()
            .content("You are a concise weather assistant.")
            .build()?
            .into(),
        ChatCompletionRequestUserMessageArgs::default()
            .content("Weather in Paris?")
            .build()?
            .into(),
    ];
    let mut run = Run { requests: Vec::new(), results: Vec::new(), answer: String::new() };
    for _turn in 0..4 {
        let request = CreateChatCompletionRequestArgs::default()
            .model("fake-gpt")
            .messages(messages.clone())
            .tools(tools.clone())
            .build()?;
        // A real program: `client.chat().create(request.clone()).await?`.
        let reply =
            post_json(model.addr(), "/v1/chat/completions", &[], &serde_json::to_value(&request)?)?;
        run.requests.push(request);
        let reply: CreateChatCompletionResponse = serde_json::from_value(reply)?;
        let message = &reply.choices.first().ok_or("a reply without choices")?.message;
        let calls = typed::tool_calls(message);
        if calls.is_empty() {
            run.answer = message.content.clone().unwrap_or_default();
            return Ok(run);
        }
        messages.push(
            ChatCompletionRequestAssistantMessageArgs::default()
                .tool_calls(message.tool_calls.clone().unwrap_or_default())
                .build()?
                .into(),
        );
        let results = block_on(toolbox.call_all(&calls, &options));
        messages.extend(results.iter().map(|r| typed::tool_message(r).into_message().into()));
        run.results.extend(results);
    }
    Err("the model kept calling tools".into())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let run = run()?;
    println!("tools sent: {}", serde_json::to_string_pretty(&run.requests[0].tools)?);
    for result in &run.results {
        println!("tool `{}` returned: {}", result.name, result.text());
    }
    println!("answer after {} requests: {}", run.requests.len(), run.answer);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tooldef::Renderer;

    #[test]
    fn the_typed_loop_calls_the_tool_and_ends_with_its_answer() {
        let run = run().unwrap();
        assert_eq!(run.requests.len(), 2);
        // The typed tools say exactly what the renderer wrote.
        let rendered =
            OpenAiRenderer::chat().strict(true).render(&GET_WEATHER, LossPolicy::Allow).unwrap();
        let sent = serde_json::to_value(&run.requests[0].tools).unwrap();
        assert_eq!(sent, json!([rendered.to_value()]));
        assert_eq!(run.results.len(), 1);
        let result = &run.results[0];
        assert!(!result.is_error, "{}", result.text());
        assert_eq!(
            result.structured,
            Some(
                json!({"city": "Paris", "temperature": 21, "unit": "celsius", "conditions": "sunny"})
            )
        );
        // The second request carries the assistant's call and the typed tool message.
        let second = serde_json::to_value(&run.requests[1]).unwrap();
        let messages = second["messages"].as_array().unwrap();
        assert_eq!(messages[2]["tool_calls"][0]["function"]["name"], "get_weather");
        assert_eq!(
            messages[3],
            json!({
                "role": "tool",
                "tool_call_id": result.call_id,
                "content": result.text(),
            })
        );
        assert_eq!(run.answer, format!("The tool answered: {}", result.text()));
    }
}
