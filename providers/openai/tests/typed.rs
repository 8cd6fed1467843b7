//! The typed bridge to `async-openai` (feature `async-openai`), both ways: tooldef values into
//! its types say exactly what the JSON path says, and its values come back as tooldef's.
#![cfg(feature = "async-openai")]

use async_openai::types::chat::{
    ChatCompletionResponseMessage, CreateChatCompletionStreamResponse,
};
use async_openai::types::responses::{OutputItem, ResponseStreamEvent};
use serde_json::{Value, json};
use tooldef::{Content, LossPolicy, Renderer, ToolCall, ToolDescriptor, ToolResult};
use tooldef_openai::typed::{self, TypedError};
use tooldef_openai::{
    ChatStream, OpenAiRenderer, ResponsesStream, chat_tool_calls, chat_tool_message,
    responses_function_call_output, responses_tool_calls,
};
use tooldef_testkit::corpus::corpus;

fn renderable(renderer: &OpenAiRenderer) -> Vec<ToolDescriptor> {
    corpus().into_iter().filter(|t| renderer.render(t, LossPolicy::Allow).is_ok()).collect()
}

#[test]
fn chat_tools_serialize_back_to_the_rendered_json() {
    for renderer in [OpenAiRenderer::chat(), OpenAiRenderer::chat().strict(true)] {
        let tools = renderable(&renderer);
        let refs: Vec<&ToolDescriptor> = tools.iter().collect();
        let typed = typed::chat_tools(&renderer, &refs, LossPolicy::Allow).unwrap();
        let rendered = renderer.render_set(&refs, LossPolicy::Allow).unwrap();
        assert_eq!(typed.len(), rendered.len());
        for (t, r) in typed.iter().zip(&rendered) {
            assert_eq!(serde_json::to_value(t).unwrap(), r.to_value(), "{}", r.name());
        }
    }
}

#[test]
fn responses_tools_serialize_back_to_the_rendered_json() {
    for renderer in [OpenAiRenderer::responses(), OpenAiRenderer::responses().strict(true)] {
        let tools = renderable(&renderer);
        let refs: Vec<&ToolDescriptor> = tools.iter().collect();
        let typed = typed::responses_tools(&renderer, &refs, LossPolicy::Allow).unwrap();
        for (t, d) in typed.iter().zip(&tools) {
            let r = renderer.render(d, LossPolicy::Allow).unwrap();
            assert_eq!(serde_json::to_value(t).unwrap(), r.to_value(), "{}", d.name);
        }
    }
}

#[test]
fn the_wrong_api_is_named() {
    let err = typed::chat_tools(&OpenAiRenderer::responses(), &[], LossPolicy::Allow).unwrap_err();
    assert_eq!(
        err.to_string(),
        "chat_tools needs a renderer for the Chat Completions API; this one renders for Responses"
    );
    let one = &corpus()[0];
    let rendered = OpenAiRenderer::responses().render(one, LossPolicy::Allow).unwrap();
    assert!(matches!(typed::chat_tool(&rendered), Err(TypedError::Shape { .. })));
}

#[test]
fn assistant_tool_calls_read_like_the_json_path() {
    // OpenAI writes a custom tool call's name and input under `custom`; async-openai's type reads
    // them from `custom_tool`. Each path reads its own shape into the same call.
    let message = |custom_key: &str| {
        json!({
            "role": "assistant",
            "content": null,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
                {"id": "call_2", "type": "custom", custom_key: {"name": "grammar", "input": "free text"}},
                {"id": "call_3", "type": "function", "function": {"name": "ping", "arguments": "{}"}}
            ]
        })
    };
    let typed: ChatCompletionResponseMessage =
        serde_json::from_value(message("custom_tool")).unwrap();
    let calls = typed::tool_calls(&typed);
    assert_eq!(calls, chat_tool_calls(&message("custom")).unwrap());
    assert_eq!(
        calls.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        ["call_1", "call_2", "call_3"]
    );
    assert_eq!(calls[1].arguments, tooldef::Arguments::Json(json!({"input": "free text"})));
}

#[test]
fn responses_output_calls_read_like_the_json_path() {
    let output = json!([
        {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
         "content": [{"type": "output_text", "text": "Checking.", "annotations": []}]},
        {"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "get_weather",
         "arguments": "{\"city\":\"Paris\"}", "status": "completed"}
    ]);
    let typed: Vec<OutputItem> = serde_json::from_value(output.clone()).unwrap();
    let calls = typed::output_tool_calls(&typed);
    assert_eq!(calls, responses_tool_calls(&output).unwrap());
    assert_eq!(calls.len(), 1);
}

fn results() -> Vec<ToolResult> {
    let call = ToolCall::new("call_1", "get_weather", json!({}));
    let mut with_image = ToolResult::success(&call, json!({"temp": 21}));
    with_image
        .content
        .push(Content::Image { data: "iVBORw0".into(), mime_type: "image/png".into() });
    vec![
        ToolResult::success(&call, json!({"temp": 21})),
        ToolResult::error(&call, "city must not be empty"),
        with_image,
        tooldef_testkit::content::every_kind(),
    ]
}

#[test]
fn tool_results_become_the_same_messages_as_the_json_path() {
    for result in results() {
        let typed_message = typed::tool_message(&result);
        let json_message = chat_tool_message(&result);
        assert_eq!(typed_message.notes, json_message.notes);
        let mut tool_message = serde_json::to_value(typed_message.message).unwrap();
        tool_message["role"] = json!("tool");
        assert_eq!(tool_message, json_message.message);

        let typed_output = typed::function_call_output(&result);
        let json_output = responses_function_call_output(&result);
        assert_eq!(typed_output.notes, json_output.notes);
        let mut output = serde_json::to_value(typed_output.message).unwrap();
        output["type"] = json!("function_call_output");
        // The one difference the module docs state: async-openai writes an image part's
        // `detail` always, as the API's default `auto`; nothing else differs.
        let mut expected = json_output.message;
        for part in expected["output"].as_array_mut().into_iter().flatten() {
            if part["type"] == "input_image" {
                part["detail"] = json!("auto");
            }
        }
        assert_eq!(output, expected);
    }
}

fn sse(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter(|d| *d != "[DONE]")
        .map(|d| serde_json::from_str(d).unwrap())
        .collect()
}

#[test]
fn typed_stream_chunks_give_the_same_events_as_json_ones() {
    let chunks = sse(include_str!("fixtures/stream/chat_parallel.sse"));
    let (mut by_json, mut by_type) = (ChatStream::new(), ChatStream::new());
    for c in &chunks {
        let typed: CreateChatCompletionStreamResponse = serde_json::from_value(c.clone()).unwrap();
        assert_eq!(by_type.push_chunk(&typed).unwrap(), by_json.push(c).unwrap());
    }
    let events = sse(include_str!("fixtures/stream/responses_parallel.sse"));
    let (mut by_json, mut by_type) = (ResponsesStream::new(), ResponsesStream::new());
    let mut calls = 0;
    for e in events.iter().skip(1) {
        let typed: ResponseStreamEvent = serde_json::from_value(e.clone()).unwrap();
        let out = by_type.push_event(&typed).unwrap();
        calls += out.len();
        assert_eq!(out, by_json.push(e).unwrap());
    }
    assert_eq!(calls, 2);
}

/// The way back through the typed bridge: the renderings kept, the calls read from
/// `async-openai`'s message given back through them.
#[test]
fn typed_calls_come_back_through_the_kept_renderings() {
    use tooldef::{Param, Toolbox, WayBack, dispatch::DynamicTool};
    static FORECAST: ToolDescriptor = ToolDescriptor::new("forecast").params(
        const { &[Param::string("city"), Param::integer("days").range(1, 10).default_int(3)] },
    );
    let renderer = OpenAiRenderer::chat().strict(true);
    let rendered = renderer.render_set(&[&FORECAST], LossPolicy::Refuse).unwrap();
    let tools: Vec<_> = rendered.iter().map(|r| typed::chat_tool(r).unwrap()).collect();
    assert_eq!(tools.len(), 1);
    let message: ChatCompletionResponseMessage = serde_json::from_value(json!({
        "role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
            "function": {"name": "forecast", "arguments": "{\"city\":\"Paris\",\"days\":null}"}}]
    }))
    .unwrap();
    let calls = rendered.restore_all(typed::tool_calls(&message));
    let toolbox = Toolbox::new().with_executor(DynamicTool::new_sync(FORECAST.clone(), Ok).into());
    assert_eq!(toolbox.call_blocking(&calls[0]).text(), r#"{"city":"Paris","days":3}"#);
}
