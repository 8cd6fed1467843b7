//! What a running tool can reach beyond its arguments: the [`CallContext`] of a call.
//!
//! A tool takes the context by naming a parameter of type `&CallContext` (the macros recognise
//! it; it is not an argument the model sends, and it is not in the schema). Through it the tool
//! reports progress, writes log messages, learns that the call was cancelled, and asks the
//! client things back: a model completion ([`sample`](CallContext::sample)) or an answer from
//! the user ([`elicit`](CallContext::elicit)). Tools that do not name it are unchanged: no tool
//! has to be async or know which protocol called it.
//!
//! The context is provider-neutral. A host that can carry these messages implements
//! [`CallPeer`] and passes [`CallContext::new`] to
//! [`Executor::execute_with`](crate::Executor::execute_with) (`tooldef-mcp`'s server does, for
//! MCP's progress and log notifications, `sampling/createMessage`, `elicitation/create` and
//! 2026-07-28's `InputRequiredResult`). Everywhere else a tool gets [`CallContext::detached`]:
//! notifications go nowhere and requests fail with [`ContextError::Unsupported`], which the tool
//! can answer however it likes.
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::context::{CallContext, LogLevel, Progress};
//! use tooldef::{ToolCall, Toolbox, tool};
//!
//! /// Count to `n`, reporting each step.
//! #[tool]
//! async fn count(n: u32, ctx: &CallContext) -> Result<u32, tooldef::ToolError> {
//!     for i in 0..n {
//!         ctx.progress(Progress::new(f64::from(i)).total(f64::from(n))).await?;
//!     }
//!     ctx.log(LogLevel::Info, "counted").await?;
//!     Ok(n)
//! }
//!
//! // No host listening: the notifications go nowhere and the tool runs as it would anyway.
//! let toolbox = Toolbox::new().with(Count);
//! let result = toolbox.call_blocking(&ToolCall::new("1", "count", serde_json::json!({"n": 3})));
//! assert_eq!(result.text(), "3");
//! // The context is no parameter of the model's.
//! let params: Vec<&str> = toolbox.descriptors().flat_map(|d| d.params.iter().map(|p| p.name())).collect();
//! assert_eq!(params, ["n"]);
//! ```

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::dispatch::CancelToken;
use crate::tool::{BoxFuture, Content, ToolError};

/// The context of one tool call; see the [module docs](self).
///
/// Cheap to clone (one reference count); [`detached`](CallContext::detached) is a `static`.
#[derive(Clone)]
pub struct CallContext {
    peer: Option<Arc<dyn CallPeer>>,
    cancel: Option<CancelToken>,
}

static DETACHED: CallContext = CallContext { peer: None, cancel: None };

impl CallContext {
    /// The context of a call whose host carries messages through `peer`, cancelled through
    /// `cancel`.
    pub fn new(peer: Arc<dyn CallPeer>, cancel: CancelToken) -> Self {
        CallContext { peer: Some(peer), cancel: Some(cancel) }
    }

    /// The context of a call with nobody to talk to (what [`Executor::execute`](crate::Executor::execute)
    /// gives): notifications are dropped, requests answer [`ContextError::Unsupported`], and the
    /// call is never cancelled through it.
    pub fn detached() -> &'static CallContext {
        &DETACHED
    }

    /// Whether a host listens (false for [`detached`](CallContext::detached)).
    pub fn is_attached(&self) -> bool {
        self.peer.is_some()
    }

    /// Reports how far the call has come. A host whose client did not ask for progress (MCP:
    /// no `progressToken`) drops it.
    ///
    /// # Errors
    ///
    /// [`ContextError::Peer`] when the host could not send it.
    pub async fn progress(&self, progress: Progress) -> Result<(), ContextError> {
        match &self.peer {
            Some(peer) => peer.progress(&progress).await,
            None => Ok(()),
        }
    }

    /// Writes a log message for the client (`data` is usually text; any JSON value is taken).
    /// A host drops messages below the level its client asked for.
    ///
    /// # Errors
    ///
    /// [`ContextError::Peer`] when the host could not send it.
    pub async fn log(&self, level: LogLevel, data: impl Into<Value>) -> Result<(), ContextError> {
        let message = LogMessage { level, logger: None, data: data.into() };
        self.log_message(&message).await
    }

    /// Writes a log message with every field set.
    ///
    /// # Errors
    ///
    /// [`ContextError::Peer`] when the host could not send it.
    pub async fn log_message(&self, message: &LogMessage) -> Result<(), ContextError> {
        match &self.peer {
            Some(peer) => peer.log(message).await,
            None => Ok(()),
        }
    }

    /// Asks the client's model for a completion.
    ///
    /// # Errors
    ///
    /// [`ContextError::Unsupported`] when the host or its client cannot sample,
    /// [`ContextError::InputRequired`] when the host answers the call with a request for input
    /// first (return the error: the call is run again with the answer),
    /// [`ContextError::Refused`] or [`ContextError::Peer`] when the request failed.
    pub async fn sample(&self, request: &SamplingRequest) -> Result<Sampled, ContextError> {
        match &self.peer {
            Some(peer) => peer.sample(request).await,
            None => Err(ContextError::Unsupported { what: "sampling" }),
        }
    }

    /// Asks the user, through the client, for values that fit `request.schema`.
    ///
    /// # Errors
    ///
    /// As [`sample`](CallContext::sample), for elicitation.
    pub async fn elicit(&self, request: &ElicitationRequest) -> Result<Elicitation, ContextError> {
        match &self.peer {
            Some(peer) => peer.elicit(request).await,
            None => Err(ContextError::Unsupported { what: "elicitation" }),
        }
    }

    /// Whether the client cancelled the call. A cancelled call's future is dropped at its next
    /// `.await`; this is for work a tool does between them (a loop over blocking steps).
    pub fn is_cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(CancelToken::is_cancelled)
    }

    /// A future that completes when the client cancels the call (never, when detached).
    pub async fn cancelled(&self) {
        match &self.cancel {
            Some(token) => token.cancelled().await,
            None => std::future::pending().await,
        }
    }
}

impl fmt::Debug for CallContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallContext")
            .field("attached", &self.is_attached())
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

/// What a host implements to carry a [`CallContext`]'s messages. Every method has a default:
/// notifications are dropped, requests are [`ContextError::Unsupported`].
pub trait CallPeer: Send + Sync {
    /// Sends a progress notification.
    fn progress<'a>(&'a self, progress: &'a Progress) -> BoxFuture<'a, Result<(), ContextError>> {
        let _ = progress;
        Box::pin(async { Ok(()) })
    }

    /// Sends a log message.
    fn log<'a>(&'a self, message: &'a LogMessage) -> BoxFuture<'a, Result<(), ContextError>> {
        let _ = message;
        Box::pin(async { Ok(()) })
    }

    /// Asks the client's model for a completion.
    fn sample<'a>(
        &'a self,
        request: &'a SamplingRequest,
    ) -> BoxFuture<'a, Result<Sampled, ContextError>> {
        let _ = request;
        Box::pin(async { Err(ContextError::Unsupported { what: "sampling" }) })
    }

    /// Asks the user for input.
    fn elicit<'a>(
        &'a self,
        request: &'a ElicitationRequest,
    ) -> BoxFuture<'a, Result<Elicitation, ContextError>> {
        let _ = request;
        Box::pin(async { Err(ContextError::Unsupported { what: "elicitation" }) })
    }
}

/// Why a [`CallContext`] request (or, rarely, a notification) did not get its answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ContextError {
    /// The host, or its client, cannot do this (`what`: `sampling`, `elicitation`).
    #[error("the client does not support {what}")]
    Unsupported {
        /// What was asked.
        what: &'static str,
    },
    /// The host answers the call with a request for input first (MCP 2026-07-28's
    /// `InputRequiredResult`): return this error from the tool; the client answers and calls
    /// again, and the same request then returns the answer. A tool that asks must therefore
    /// do nothing it cannot do twice before it has its answers.
    #[error("the call needs input from the client first; it will be called again with the answer")]
    InputRequired,
    /// The client answered the request with an error.
    #[error("the client refused the request: {0}")]
    Refused(String),
    /// The message could not be sent or its answer read.
    #[error("the request to the client failed: {0}")]
    Peer(String),
}

impl From<ContextError> for ToolError {
    fn from(e: ContextError) -> Self {
        ToolError::from_display(e)
    }
}

/// A progress notification.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// How far the call has come; increases with every notification.
    pub progress: f64,
    /// The value `progress` reaches at the end, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    /// What is happening, for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl Progress {
    /// Progress `progress`, total unknown.
    pub fn new(progress: f64) -> Self {
        Progress { progress, total: None, message: None }
    }

    /// With the total.
    #[must_use]
    pub fn total(mut self, total: f64) -> Self {
        self.total = Some(total);
        self
    }

    /// With a message.
    #[must_use]
    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }
}

/// The severity of a log message (syslog's levels, as MCP uses them), least severe first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

/// A log message for the client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogMessage {
    /// Its severity.
    pub level: LogLevel,
    /// The logger's name, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// The message: text, or any JSON value.
    pub data: Value,
}

/// Who speaks in a sampling message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user.
    User,
    /// The model.
    Assistant,
}

/// One message of a [`SamplingRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SamplingMessage {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: Content,
}

impl SamplingMessage {
    /// A user's text.
    pub fn user(text: impl Into<String>) -> Self {
        SamplingMessage { role: Role::User, content: Content::Text { text: text.into() } }
    }
}

/// A request for a completion by the client's model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SamplingRequest {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens the completion may take.
    pub max_tokens: u32,
    /// A system prompt, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// The sampling temperature, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Sequences that end the completion.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stop_sequences: Vec<String>,
}

impl SamplingRequest {
    /// One user message, at most `max_tokens` tokens back.
    pub fn new(prompt: impl Into<String>, max_tokens: u32) -> Self {
        SamplingRequest {
            messages: vec![SamplingMessage::user(prompt)],
            max_tokens,
            system_prompt: None,
            temperature: None,
            stop_sequences: Vec::new(),
        }
    }
}

/// The client's completion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sampled {
    /// Who speaks (the model).
    pub role: Role,
    /// What it said.
    pub content: Content,
    /// The model the client used.
    pub model: String,
    /// Why it stopped, if the client says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
}

impl Sampled {
    /// The completion's text (empty when it is not text).
    pub fn text(&self) -> &str {
        match &self.content {
            Content::Text { text } => text,
            _ => "",
        }
    }
}

/// A request for values from the user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElicitationRequest {
    /// What to tell the user.
    pub message: String,
    /// The JSON Schema of the answer: an object of flat properties (strings, numbers,
    /// integers, booleans, enums), as MCP elicitation takes.
    pub schema: Value,
}

impl ElicitationRequest {
    /// A request with its message and schema.
    pub fn new(message: impl Into<String>, schema: Value) -> Self {
        ElicitationRequest { message: message.into(), schema }
    }
}

/// The user's answer to an [`ElicitationRequest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", content = "content", rename_all = "lowercase")]
pub enum Elicitation {
    /// The user gave these values.
    Accept(Map<String, Value>),
    /// The user said no.
    Decline,
    /// The user dismissed the request.
    Cancel,
}
