//! The MCP side of a tool's [`CallContext`](tooldef::context::CallContext): what
//! [`McpServer`](crate::server::McpServer) gives each `tools/call`.
//!
//! - progress: `notifications/progress` with the request's `progressToken` (none without one);
//! - logs: `notifications/message`, at or above the level the client set with
//!   `logging/setLevel` (every level until it sets one);
//! - cancellation: `notifications/cancelled` cancels the context's token (and drops the call);
//! - sampling and elicitation: `sampling/createMessage` and `elicitation/create` sent to the
//!   client while the call runs, when the client declared the capability; on a 2026-07-28
//!   session, which has no requests from server to client, the call is answered with an
//!   `InputRequiredResult` holding the requests instead, and the client's retry brings the
//!   answers (`inputResponses`), which the same requests of the re-run tool then return.
//!
//! Owns the mapping between tooldef's context types and rmcp's model; the call itself is
//! `crate::server`'s.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    ClientResult, InputRequest, InputRequiredResult, ProgressToken, ServerNotification,
    ServerRequest,
};
use rmcp::{Peer, RoleServer};
use serde_json::{Value, json};
use tooldef::context::{
    CallPeer, ContextError, Elicitation, ElicitationRequest, LogLevel, LogMessage, Progress, Role,
    Sampled, SamplingRequest,
};
use tooldef::{BoxFuture, Content};

use crate::render::McpVersion;

/// The lowest level a session's client asked for (`logging/setLevel`), as [`level_code`];
/// 0 until it asks, and every message is sent.
pub(crate) type LevelCell = Arc<AtomicU8>;

/// The [`LevelCell`] value of `level`.
pub(crate) fn level_code(level: LogLevel) -> u8 {
    level as u8 + 1
}

/// The MCP peer of one `tools/call`.
pub(crate) struct McpCallPeer {
    peer: Peer<RoleServer>,
    progress_token: Option<ProgressToken>,
    protocol: McpVersion,
    level: LevelCell,
    /// 2026-07-28: the client's answers to the requests of an earlier round, by key.
    responses: BTreeMap<String, Value>,
    /// 2026-07-28: the requests this round made that have no answer yet.
    pending: Mutex<BTreeMap<String, InputRequest>>,
    /// How many requests this round has made (each one's key is its number).
    asked: AtomicUsize,
}

impl McpCallPeer {
    pub(crate) fn new(
        peer: Peer<RoleServer>,
        progress_token: Option<ProgressToken>,
        protocol: McpVersion,
        level: LevelCell,
        responses: BTreeMap<String, Value>,
    ) -> Self {
        McpCallPeer {
            peer,
            progress_token,
            protocol,
            level,
            responses,
            pending: Mutex::new(BTreeMap::new()),
            asked: AtomicUsize::new(0),
        }
    }

    /// The answers of every earlier round of a 2026-07-28 call: those the client's retry
    /// carries (`inputResponses`, this round's) over those of the rounds before, which the
    /// server handed the client to echo back (`requestState`). The state is the client's own
    /// answers, so a client that rewrites it only changes what it answered.
    pub(crate) fn answers(
        request_state: Option<&str>,
        responses: Option<BTreeMap<String, Value>>,
    ) -> BTreeMap<String, Value> {
        let mut answers: BTreeMap<String, Value> =
            request_state.and_then(|s| serde_json::from_str(s).ok()).unwrap_or_default();
        answers.extend(responses.unwrap_or_default());
        answers
    }

    /// The requests the call made that the client must answer first (2026-07-28), if any,
    /// with the state that carries the answers so far to the next round.
    pub(crate) fn input_required(&self) -> Option<InputRequiredResult> {
        let pending =
            std::mem::take(&mut *self.pending.lock().unwrap_or_else(PoisonError::into_inner));
        if pending.is_empty() {
            return None;
        }
        let state = (!self.responses.is_empty())
            .then(|| serde_json::to_string(&self.responses).ok())
            .flatten();
        Some(InputRequiredResult::new(Some(pending), state))
    }

    fn stateless(&self) -> bool {
        self.protocol == McpVersion::V2026_07_28
    }

    /// Whether the client declared `capability` (`sampling`, `elicitation`) at `initialize`.
    /// A 2026-07-28 client says so on each request; rmcp checks it when it sends.
    fn client_can(&self, capability: &str) -> bool {
        if self.stateless() {
            return true;
        }
        let Some(info) = self.peer.peer_info() else { return false };
        serde_json::to_value(&info.capabilities)
            .ok()
            .and_then(|caps| caps.get(capability).cloned())
            .is_some_and(|c| !c.is_null())
    }

    /// Sends `method` with `params` to the client and returns its result as JSON; on a
    /// 2026-07-28 session, returns the answer the client gave on its retry, or records the
    /// request and answers [`ContextError::InputRequired`].
    async fn ask(&self, method: &str, params: Value) -> Result<Value, ContextError> {
        let message = json!({ "method": method, "params": params });
        if self.stateless() {
            let key = (self.asked.fetch_add(1, Ordering::Relaxed) + 1).to_string();
            if let Some(answer) = self.responses.get(&key) {
                return Ok(answer.clone());
            }
            let request: InputRequest = serde_json::from_value(message)
                .map_err(|e| ContextError::Peer(format!("{method} request not built: {e}")))?;
            self.pending.lock().unwrap_or_else(PoisonError::into_inner).insert(key, request);
            return Err(ContextError::InputRequired);
        }
        let request: ServerRequest = serde_json::from_value(message)
            .map_err(|e| ContextError::Peer(format!("{method} request not built: {e}")))?;
        let result: ClientResult = self.peer.send_request(request).await.map_err(|e| match e {
            rmcp::ServiceError::McpError(e) => ContextError::Refused(e.message.into_owned()),
            other => ContextError::Peer(other.to_string()),
        })?;
        serde_json::to_value(&result).map_err(|e| ContextError::Peer(e.to_string()))
    }

    async fn notify(&self, method: &str, params: Value) -> Result<(), ContextError> {
        let note: ServerNotification =
            serde_json::from_value(json!({ "method": method, "params": params }))
                .map_err(|e| ContextError::Peer(format!("{method} notification not built: {e}")))?;
        self.peer.send_notification(note).await.map_err(|e| ContextError::Peer(e.to_string()))
    }
}

impl CallPeer for McpCallPeer {
    fn progress<'a>(&'a self, progress: &'a Progress) -> BoxFuture<'a, Result<(), ContextError>> {
        Box::pin(async move {
            let Some(token) = &self.progress_token else { return Ok(()) };
            let mut params = json!({ "progressToken": token, "progress": progress.progress });
            if let Some(total) = progress.total {
                params["total"] = json!(total);
            }
            if let Some(message) = &progress.message {
                params["message"] = json!(message);
            }
            self.notify("notifications/progress", params).await
        })
    }

    fn log<'a>(&'a self, message: &'a LogMessage) -> BoxFuture<'a, Result<(), ContextError>> {
        Box::pin(async move {
            if level_code(message.level) < self.level.load(Ordering::Relaxed) {
                return Ok(());
            }
            let params =
                serde_json::to_value(message).map_err(|e| ContextError::Peer(e.to_string()))?;
            self.notify("notifications/message", params).await
        })
    }

    fn sample<'a>(
        &'a self,
        request: &'a SamplingRequest,
    ) -> BoxFuture<'a, Result<Sampled, ContextError>> {
        Box::pin(async move {
            if !self.client_can("sampling") {
                return Err(ContextError::Unsupported { what: "sampling" });
            }
            let mut params = json!({
                "messages": request.messages.iter().map(|m| Ok(json!({
                    "role": m.role,
                    "content": content_json(&m.content)?,
                }))).collect::<Result<Vec<_>, ContextError>>()?,
                "maxTokens": request.max_tokens,
            });
            if let Some(system) = &request.system_prompt {
                params["systemPrompt"] = json!(system);
            }
            if let Some(t) = request.temperature {
                params["temperature"] = json!(t);
            }
            if !request.stop_sequences.is_empty() {
                params["stopSequences"] = json!(request.stop_sequences);
            }
            let answer = self.ask("sampling/createMessage", params).await?;
            read_sampled(&answer)
        })
    }

    fn elicit<'a>(
        &'a self,
        request: &'a ElicitationRequest,
    ) -> BoxFuture<'a, Result<Elicitation, ContextError>> {
        Box::pin(async move {
            if !self.client_can("elicitation") {
                return Err(ContextError::Unsupported { what: "elicitation" });
            }
            let params = json!({
                "mode": "form",
                "message": request.message,
                "requestedSchema": request.schema,
            });
            let answer = self.ask("elicitation/create", params).await?;
            read_elicitation(&answer)
        })
    }
}

/// A `CreateMessageResult` as a [`Sampled`]: its first content block (text or image).
fn read_sampled(answer: &Value) -> Result<Sampled, ContextError> {
    let bad = |what: &str| ContextError::Peer(format!("the client's sampling result {what}"));
    let role = match answer.get("role").and_then(Value::as_str) {
        Some("user") => Role::User,
        _ => Role::Assistant,
    };
    let content = match answer.get("content") {
        Some(Value::Array(items)) => items.first().cloned(),
        Some(one) => Some(one.clone()),
        None => None,
    }
    .ok_or_else(|| bad("has no content"))?;
    let content =
        read_content(&content).ok_or_else(|| bad("has content that is not text or an image"))?;
    let model = answer.get("model").and_then(Value::as_str).unwrap_or_default().to_owned();
    let stop_reason = answer.get("stopReason").and_then(Value::as_str).map(str::to_owned);
    Ok(Sampled { role, content, model, stop_reason })
}

/// An `ElicitResult` as an [`Elicitation`].
fn read_elicitation(answer: &Value) -> Result<Elicitation, ContextError> {
    match answer.get("action").and_then(Value::as_str) {
        Some("accept") => match answer.get("content") {
            Some(Value::Object(values)) => Ok(Elicitation::Accept(values.clone())),
            None | Some(Value::Null) => Ok(Elicitation::Accept(serde_json::Map::new())),
            Some(_) => Err(ContextError::Peer(
                "the client's elicitation result has content that is not an object".into(),
            )),
        },
        Some("decline") => Ok(Elicitation::Decline),
        Some("cancel") => Ok(Elicitation::Cancel),
        other => Err(ContextError::Peer(format!(
            "the client's elicitation result has no known action: {other:?}"
        ))),
    }
}

/// MCP's JSON of a sampling message's content.
fn content_json(content: &Content) -> Result<Value, ContextError> {
    match content {
        Content::Text { text } => Ok(json!({ "type": "text", "text": text })),
        Content::Image { data, mime_type } => {
            Ok(json!({ "type": "image", "data": data, "mimeType": mime_type }))
        }
        #[allow(unreachable_patterns)]
        _ => {
            Err(ContextError::Peer("a sampling message's content must be text or an image".into()))
        }
    }
}

/// A sampling result's content block, when it is text or an image.
fn read_content(block: &Value) -> Option<Content> {
    let text = |key: &str| block.get(key).and_then(Value::as_str).map(str::to_owned);
    match block.get("type").and_then(Value::as_str)? {
        "text" => Some(Content::Text { text: text("text")? }),
        "image" => Some(Content::Image { data: text("data")?, mime_type: text("mimeType")? }),
        _ => None,
    }
}
