//! Fake model servers on 127.0.0.1 speaking OpenAI Chat Completions' and Anthropic Messages'
//! shapes, for the agent-loop examples. Each follows a one-step script: when the request offers
//! the scripted tools and carries no tool result yet, it answers with a call of each (several
//! calls in one turn, as models do in parallel); once tool results are in the conversation, it
//! answers with text quoting them; when a tool is not offered, it says so in text. Every request
//! body is recorded for the example to inspect.

use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Value, json};

use crate::http::{Request, Response, Server};

/// The call the fake model makes.
#[derive(Clone, Debug)]
pub struct Script {
    /// The tool it calls.
    pub tool: String,
    /// The arguments it passes.
    pub arguments: Value,
}

/// A running fake model server.
#[derive(Debug)]
pub struct FakeModel {
    server: Server,
    requests: Arc<Mutex<Vec<Value>>>,
}

impl FakeModel {
    /// An OpenAI-compatible server answering `POST /v1/chat/completions`.
    ///
    /// # Errors
    ///
    /// The listener cannot be bound.
    pub fn openai_chat(script: Script) -> io::Result<Self> {
        Self::openai_chat_calls(vec![script])
    }

    /// [`openai_chat`](Self::openai_chat) calling every scripted tool in one turn.
    ///
    /// # Errors
    ///
    /// The listener cannot be bound.
    pub fn openai_chat_calls(scripts: Vec<Script>) -> io::Result<Self> {
        Self::start("/v1/chat/completions", move |body| openai_answer(&scripts, body))
    }

    /// An Anthropic-compatible server answering `POST /v1/messages`.
    ///
    /// # Errors
    ///
    /// The listener cannot be bound.
    pub fn anthropic(script: Script) -> io::Result<Self> {
        Self::anthropic_calls(vec![script])
    }

    /// [`anthropic`](Self::anthropic) calling every scripted tool in one turn.
    ///
    /// # Errors
    ///
    /// The listener cannot be bound.
    pub fn anthropic_calls(scripts: Vec<Script>) -> io::Result<Self> {
        Self::start("/v1/messages", move |body| anthropic_answer(&scripts, body))
    }

    fn start<F>(path: &'static str, answer: F) -> io::Result<Self>
    where
        F: Fn(&Value) -> Result<Value, String> + Send + 'static,
    {
        let requests = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&requests);
        let server = Server::start(move |req: &Request| {
            if req.method != "POST" || req.path != path {
                return Response::error(404, &format!("only POST {path} is served"));
            }
            let Ok(body) = req.json() else { return Response::error(400, "the body is not JSON") };
            log.lock().unwrap_or_else(PoisonError::into_inner).push(body.clone());
            match answer(&body) {
                Ok(v) => Response::json(&v),
                Err(message) => Response::error(400, &message),
            }
        })?;
        Ok(FakeModel { server, requests })
    }

    /// Where it listens.
    pub fn addr(&self) -> SocketAddr {
        self.server.addr()
    }

    /// The request bodies received so far, in order.
    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

fn tools_of(body: &Value) -> Result<&Vec<Value>, String> {
    body.get("tools")
        .and_then(Value::as_array)
        .ok_or_else(|| "the request has no `tools` array".to_owned())
}

fn openai_answer(scripts: &[Script], body: &Value) -> Result<Value, String> {
    let messages = body.get("messages").and_then(Value::as_array).ok_or("no `messages` array")?;
    let tools = tools_of(body)?;
    let missing =
        scripts.iter().find(|s| !tools.iter().any(|t| t["function"]["name"] == s.tool.as_str()));
    let last = messages.last().ok_or("`messages` is empty")?;
    let message = if last["role"] == "tool" {
        let first = messages.iter().rposition(|m| m["role"] != "tool").map_or(0, |i| i + 1);
        let texts: Vec<&str> =
            messages[first..].iter().map(|m| m["content"].as_str().unwrap_or_default()).collect();
        json!({ "role": "assistant", "content": format!("The tool answered: {}", texts.join(" | ")) })
    } else if let Some(script) = missing {
        json!({ "role": "assistant", "content": format!("I have no `{}` tool.", script.tool) })
    } else {
        let calls: Vec<Value> = scripts
            .iter()
            .enumerate()
            .map(|(i, script)| {
                json!({
                    "id": format!("call_{}_{i}", messages.len()),
                    "type": "function",
                    "function": { "name": script.tool, "arguments": script.arguments.to_string() }
                })
            })
            .collect();
        json!({ "role": "assistant", "content": null, "tool_calls": calls })
    };
    let finish = if message.get("tool_calls").is_some() { "tool_calls" } else { "stop" };
    Ok(json!({
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1_733_000_000,
        "model": body["model"],
        "choices": [{ "index": 0, "message": message, "finish_reason": finish }]
    }))
}

fn anthropic_answer(scripts: &[Script], body: &Value) -> Result<Value, String> {
    let messages = body.get("messages").and_then(Value::as_array).ok_or("no `messages` array")?;
    let tools = tools_of(body)?;
    let missing = scripts.iter().find(|s| !tools.iter().any(|t| t["name"] == s.tool.as_str()));
    let last = messages.last().ok_or("`messages` is empty")?;
    let results: Vec<&Value> = last["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|b| b["type"] == "tool_result")
        .collect();
    let (content, stop) = if !results.is_empty() {
        let texts: Vec<String> = results
            .iter()
            .map(|result| {
                let text: Vec<&str> = result["content"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|b| b["text"].as_str())
                    .collect();
                text.join(" ")
            })
            .collect();
        (
            json!([{ "type": "text", "text": format!("The tool answered: {}", texts.join(" | ")) }]),
            "end_turn",
        )
    } else if let Some(script) = missing {
        (
            json!([{ "type": "text", "text": format!("I have no `{}` tool.", script.tool) }]),
            "end_turn",
        )
    } else {
        let calls: Vec<Value> = scripts
            .iter()
            .enumerate()
            .map(|(i, script)| {
                json!({
                    "type": "tool_use",
                    "id": format!("toolu_{}_{i}", messages.len()),
                    "name": script.tool,
                    "input": script.arguments
                })
            })
            .collect();
        (Value::Array(calls), "tool_use")
    };
    Ok(json!({
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": body["model"],
        "content": content,
        "stop_reason": stop
    }))
}
