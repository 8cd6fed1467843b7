//! The agent loop the examples share, for OpenAI Chat Completions and Anthropic Messages:
//! assemble the prompt, render its tools for the provider, send the request, dispatch every
//! tool call the model makes, send the results back, until the model answers in text.

use std::net::SocketAddr;

use serde_json::{Value, json};
use tooldef::assembly::{Assembler, AssemblyContext};
use tooldef::{LossPolicy, ToolCall, ToolResult, WayBack};
use tooldef_anthropic::AnthropicRenderer;
use tooldef_openai::OpenAiRenderer;

use crate::http::post_json;

/// At most this many model turns per question, so that a confused model cannot loop forever.
pub const MAX_TURNS: usize = 8;

/// What a loop did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Transcript {
    /// The tool results, in call order.
    pub results: Vec<ToolResult>,
    /// The model's final text.
    pub answer: String,
    /// How many requests were sent.
    pub turns: usize,
}

/// Why a loop stopped without an answer.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// Assembling the prompt failed.
    #[error("assembly: {0}")]
    Assembly(#[from] tooldef::assembly::AssemblyError),
    /// A tool cannot be rendered for the provider.
    #[error("render: {0}")]
    Render(#[from] tooldef::RenderError),
    /// The HTTP exchange failed.
    #[error("http: {0}")]
    Http(#[from] crate::http::HttpError),
    /// The model's message cannot be read.
    #[error("model reply at {pointer}: {message}")]
    Reply {
        /// JSON pointer in the reply.
        pointer: String,
        /// What is wrong.
        message: String,
    },
    /// The model kept calling tools.
    #[error("no answer after {MAX_TURNS} turns")]
    TooManyTurns,
}

fn tools_json(rendered: &[tooldef::Rendered]) -> Value {
    Value::Array(rendered.iter().map(tooldef::Rendered::to_value).collect())
}

/// Runs the loop against an OpenAI-compatible server; `dispatch` runs one tool call (e.g.
/// `|c| toolbox.call_blocking(c)`). The assembly is re-evaluated on every
/// turn, so tools that change between turns (a reconciled workspace) are seen at once.
///
/// # Errors
///
/// See [`AgentError`].
pub fn run_openai_chat(
    addr: SocketAddr,
    assembler: &Assembler,
    dispatch: &dyn Fn(&ToolCall) -> ToolResult,
    question: &str,
) -> Result<Transcript, AgentError> {
    let renderer = OpenAiRenderer::chat();
    let mut transcript = Transcript::default();
    let mut messages = vec![json!({ "role": "user", "content": question })];
    while transcript.turns < MAX_TURNS {
        let assembly = assembler.assemble(&AssemblyContext::new())?;
        let tools = assembly.render_tools(&renderer, LossPolicy::Allow)?;
        let mut all = vec![json!({ "role": "system", "content": assembly.system_text() })];
        all.extend(messages.iter().cloned());
        let body = json!({ "model": "fake-gpt", "messages": all, "tools": tools_json(&tools) });
        let reply =
            post_json(addr, "/v1/chat/completions", &[("Authorization", "Bearer sk-fake")], &body)?;
        transcript.turns += 1;
        let message = reply.pointer("/choices/0/message").cloned().ok_or_else(|| {
            AgentError::Reply { pointer: "/choices/0/message".into(), message: "missing".into() }
        })?;
        let calls = tooldef_openai::chat_tool_calls(&message).map_err(|e| AgentError::Reply {
            pointer: format!("/choices/0/message{}", e.pointer),
            message: e.message.clone(),
        })?;
        // Each call as the descriptors rendered for this request read it (the way back).
        let calls = tools.restore_all(calls);
        if calls.is_empty() {
            transcript.answer = message["content"].as_str().unwrap_or_default().to_owned();
            return Ok(transcript);
        }
        messages.push(message);
        for call in &calls {
            let result = dispatch(call);
            messages.push(tooldef_openai::chat_tool_message(&result).into_message());
            transcript.results.push(result);
        }
    }
    Err(AgentError::TooManyTurns)
}

/// Runs the loop against an Anthropic-compatible server (system text in `system`, tool results
/// as `tool_result` blocks of a user message).
///
/// # Errors
///
/// See [`AgentError`].
pub fn run_anthropic(
    addr: SocketAddr,
    assembler: &Assembler,
    dispatch: &dyn Fn(&ToolCall) -> ToolResult,
    question: &str,
) -> Result<Transcript, AgentError> {
    let renderer = AnthropicRenderer::new();
    let mut transcript = Transcript::default();
    let mut messages = vec![json!({ "role": "user", "content": question })];
    while transcript.turns < MAX_TURNS {
        let assembly = assembler.assemble(&AssemblyContext::new())?;
        let tools = assembly.render_tools(&renderer, LossPolicy::Allow)?;
        let body = json!({
            "model": "fake-claude",
            "max_tokens": 1024,
            "system": assembly.system_text(),
            "messages": messages,
            "tools": tools_json(&tools),
        });
        let headers = [("x-api-key", "fake"), ("anthropic-version", "2023-06-01")];
        let reply = post_json(addr, "/v1/messages", &headers, &body)?;
        transcript.turns += 1;
        let calls = tooldef_anthropic::tool_calls(&reply).map_err(|e| AgentError::Reply {
            pointer: e.pointer.clone(),
            message: e.message.clone(),
        })?;
        let calls = tools.restore_all(calls);
        if calls.is_empty() {
            let text: Vec<&str> = reply["content"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|b| b["text"].as_str())
                .collect();
            transcript.answer = text.join("");
            return Ok(transcript);
        }
        messages.push(json!({ "role": "assistant", "content": reply["content"] }));
        let results: Vec<ToolResult> = calls.iter().map(dispatch).collect();
        // Content Anthropic cannot carry is noted in the message and logged; this loop sends
        // what it can.
        messages.push(tooldef_anthropic::tool_result_message(&results).into_message());
        transcript.results.extend(results);
    }
    Err(AgentError::TooManyTurns)
}
