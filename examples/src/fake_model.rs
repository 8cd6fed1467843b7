//! Fake model servers on 127.0.0.1 speaking OpenAI Chat Completions' and Anthropic Messages'
//! shapes, for the agent-loop examples. Each follows a one-step script: when the request offers
//! the scripted tool and carries no tool result yet, it answers with a call of that tool; once a
//! tool result is in the conversation, it answers with text quoting it; when the tool is not
//! offered, it says so in text. Every request body is recorded for the example to inspect.

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
        Self::start("/v1/chat/completions", move |body| openai_answer(&script, body))
    }

    /// An Anthropic-compatible server answering `POST /v1/messages`.
    ///
    /// # Errors
    ///
    /// The listener cannot be bound.
    pub fn anthropic(script: Script) -> io::Result<Self> {
        Self::start("/v1/messages", move |body| anthropic_answer(&script, body))
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

fn openai_answer(script: &Script, body: &Value) -> Result<Value, String> {
    let messages = body.get("messages").and_then(Value::as_array).ok_or("no `messages` array")?;
    let offered = tools_of(body)?.iter().any(|t| t["function"]["name"] == script.tool.as_str());
    let last = messages.last().ok_or("`messages` is empty")?;
    let message = if last["role"] == "tool" {
        let text = last["content"].as_str().unwrap_or_default();
        json!({ "role": "assistant", "content": format!("The tool answered: {text}") })
    } else if offered {
        json!({
            "role": "assistant",
            "content": null,
            "tool_calls": [{
                "id": format!("call_{}", messages.len()),
                "type": "function",
                "function": { "name": script.tool, "arguments": script.arguments.to_string() }
            }]
        })
    } else {
        json!({ "role": "assistant", "content": format!("I have no `{}` tool.", script.tool) })
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

fn anthropic_answer(script: &Script, body: &Value) -> Result<Value, String> {
    let messages = body.get("messages").and_then(Value::as_array).ok_or("no `messages` array")?;
    let offered = tools_of(body)?.iter().any(|t| t["name"] == script.tool.as_str());
    let last = messages.last().ok_or("`messages` is empty")?;
    let result = last["content"]
        .as_array()
        .and_then(|blocks| blocks.iter().find(|b| b["type"] == "tool_result"));
    let (content, stop) = if let Some(result) = result {
        let text: Vec<&str> = result["content"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|b| b["text"].as_str())
            .collect();
        (
            json!([{ "type": "text", "text": format!("The tool answered: {}", text.join(" ")) }]),
            "end_turn",
        )
    } else if offered {
        (
            json!([{
                "type": "tool_use",
                "id": format!("toolu_{}", messages.len()),
                "name": script.tool,
                "input": script.arguments
            }]),
            "tool_use",
        )
    } else {
        (
            json!([{ "type": "text", "text": format!("I have no `{}` tool.", script.tool) }]),
            "end_turn",
        )
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
