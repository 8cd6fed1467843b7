//! The call-side contract shared by the macros, dispatch, the registry and provider crates:
//! [`Tool`] (a typed tool), [`Executor`] (a type-erased one), [`ToolCall`], [`ToolResult`],
//! [`ToolError`] and [`Arguments`], with a result's [`Content`] and [`Outcome`].
//!
//! Owns only these types. Decoding, validation and the `Toolbox` live in [`crate::dispatch`].

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::arg_checks::ArgErrors;
use crate::descriptor::ToolDescriptor;

mod content;

pub use content::{
    Carried, Content, ContentKind, ContentNote, ResourceContents, ResourceLink, ResultMessage,
};

/// A boxed, sendable future (what type-erased tools return).
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The arguments of a tool call, as the provider delivered them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Arguments {
    /// JSON already parsed (Anthropic, Gemini, Bedrock, MCP, Ollama).
    Json(Value),
    /// JSON text not yet parsed (OpenAI sends arguments as a string); decoded straight into the
    /// typed parameters without an intermediate `Value`.
    Text(String),
}

impl Default for Arguments {
    fn default() -> Self {
        Arguments::Json(Value::Object(serde_json::Map::new()))
    }
}

impl From<Value> for Arguments {
    fn from(v: Value) -> Self {
        Arguments::Json(v)
    }
}

/// A provider's tool-call message that does not have the expected shape: what each provider
/// crate returns when it maps a message to [`ToolCall`]s.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{pointer}: {message}")]
pub struct CallError {
    /// JSON pointer of the part at fault, within the value given.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

/// A provider-neutral tool call: which tool the model wants, with what arguments.
///
/// Provider crates build these from the model's message (`tooldef_openai::chat_tool_calls`,
/// `tooldef_anthropic::tool_calls`, ...); [`ToolCall::new`] builds one by hand.
///
/// ```
/// use tooldef::{Arguments, ToolCall};
///
/// let call = ToolCall::new("call_1", "get_weather", serde_json::json!({"city": "Paris"}));
/// assert_eq!(call.name, "get_weather");
/// assert!(matches!(call.arguments, Arguments::Json(_)));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id for this call (echoed back in the result); empty if it has none.
    #[serde(default)]
    pub id: String,
    /// The tool's name as the model sent it.
    pub name: String,
    /// The arguments.
    #[serde(default)]
    pub arguments: Arguments,
}

impl ToolCall {
    /// A call with parsed JSON arguments.
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Value) -> Self {
        ToolCall { id: id.into(), name: name.into(), arguments: Arguments::Json(arguments) }
    }

    /// A call with arguments as JSON text, as OpenAI sends them (`function.arguments` is a
    /// string): the text is kept, and dispatch decodes it straight into the typed parameters.
    /// Malformed text is not an error here; dispatch answers it with an error result.
    ///
    /// ```
    /// use tooldef::{Arguments, ToolCall};
    ///
    /// let call = ToolCall::from_text("call_1", "get_weather", r#"{"city": "Paris"}"#);
    /// assert_eq!(call.arguments, Arguments::Text(r#"{"city": "Paris"}"#.to_owned()));
    /// ```
    pub fn from_text(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> Self {
        ToolCall { id: id.into(), name: name.into(), arguments: Arguments::Text(arguments.into()) }
    }
}

/// A provider-neutral tool result.
///
/// What a [`Toolbox`](crate::Toolbox) returns for a call; provider crates turn it into their
/// tool-result message (`tooldef_openai::chat_tool_message`, ...).
///
/// ```
/// use tooldef::{ToolCall, ToolResult};
///
/// let call = ToolCall::new("call_1", "add", serde_json::json!({"a": 2, "b": 3}));
/// let ok = ToolResult::success(&call, serde_json::json!(5));
/// assert_eq!((ok.call_id.as_str(), ok.text().as_str(), ok.is_error), ("call_1", "5", false));
/// assert_eq!(ok.structured, Some(serde_json::json!(5)));
///
/// let failed = ToolResult::error(&call, "`b` must not be zero");
/// assert!(failed.is_error);
/// assert_eq!(failed.text(), "`b` must not be zero");
/// assert_eq!(failed.outcome, tooldef::Outcome::ToolError);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    /// The id of the call this answers.
    pub call_id: String,
    /// The tool's name.
    pub name: String,
    /// What the model reads.
    pub content: Vec<Content>,
    /// The structured result (the tool's output value), when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured: Option<Value>,
    /// Whether the call failed; the content then says what to fix. Always
    /// [`outcome.is_error()`](Outcome::is_error) for results dispatch builds.
    #[serde(default)]
    pub is_error: bool,
    /// How the call ended, for a host to match on: a timeout or a cancellation is told apart
    /// from the tool's own failure and from arguments the model got wrong.
    #[serde(default, skip_serializing_if = "Outcome::is_success")]
    pub outcome: Outcome,
    /// The arguments dispatch read differently from how they arrived (an object or array sent
    /// as a JSON string where the schema expects one; see
    /// [`dispatch::Repair`](crate::dispatch::Repair)), in document order; empty for most calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repairs: Vec<crate::dispatch::Repair>,
}

impl ToolResult {
    /// A successful result carrying a value: the value as [`structured`](Self::structured),
    /// and as text content a string's own text (not its JSON, so `"hi"` reads `hi`, without
    /// quotes) or any other value's JSON text.
    ///
    /// ```
    /// use serde_json::json;
    /// use tooldef::{ToolCall, ToolResult};
    ///
    /// let call = ToolCall::new("1", "echo", json!({}));
    /// assert_eq!(ToolResult::success(&call, json!("hi")).text(), "hi");
    /// assert_eq!(ToolResult::success(&call, json!({"n": 1})).text(), r#"{"n":1}"#);
    /// ```
    pub fn success(call: &ToolCall, value: Value) -> Self {
        let text = match &value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        ToolResult {
            call_id: call.id.clone(),
            name: call.name.clone(),
            content: vec![Content::Text { text }],
            structured: Some(value),
            is_error: false,
            outcome: Outcome::Success,
            repairs: Vec::new(),
        }
    }

    /// An error result whose text tells the model what went wrong, with the outcome
    /// [`Outcome::ToolError`] (what a tool's own failure is; dispatch gives its own failures
    /// their outcomes through [`DispatchError::to_result`](crate::DispatchError::to_result)).
    pub fn error(call: &ToolCall, message: impl Into<String>) -> Self {
        Self::error_with(call, Outcome::ToolError, message)
    }

    /// An error result with the outcome `outcome` (which should be an error outcome; a
    /// [`Success`](Outcome::Success) is read as [`ToolError`](Outcome::ToolError)).
    pub fn error_with(call: &ToolCall, outcome: Outcome, message: impl Into<String>) -> Self {
        let outcome = if outcome.is_success() { Outcome::ToolError } else { outcome };
        ToolResult {
            call_id: call.id.clone(),
            name: call.name.clone(),
            content: vec![Content::Text { text: message.into() }],
            structured: None,
            is_error: true,
            outcome,
            repairs: Vec::new(),
        }
    }

    /// All text content joined by newlines.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for c in &self.content {
            if let Content::Text { text } = c {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(text);
            }
        }
        out
    }
}

/// How a call ended: what a host matches on to tell a timeout or a cancellation from the tool's
/// own failure (each is an error result the model reads, with [`ToolResult::is_error`] set).
///
/// Dispatch sets it ([`Toolbox`](crate::Toolbox), a registry [`Snapshot`](crate::Snapshot));
/// [`ToolResult::error`] gives [`ToolError`](Outcome::ToolError). The names
/// ([`name`](Outcome::name)) are the `outcome` field of the `tooldef.dispatch` span.
///
/// ```
/// use std::time::Duration;
/// use tooldef::dispatch::{CallOptions, DynamicTool};
/// use tooldef::{Outcome, ToolCall, ToolDescriptor, Toolbox};
///
/// let slow = ToolDescriptor::builder("slow").build().unwrap();
/// let never = DynamicTool::new(slow, |_| Box::pin(std::future::pending()));
/// let toolbox = Toolbox::new().with_executor(never.into());
/// let options = CallOptions::new().timeout(Duration::from_millis(20));
/// let call = ToolCall::new("1", "slow", serde_json::json!({}));
/// let result = tooldef::dispatch::block_on(toolbox.call_with(&call, &options));
/// match result.outcome {
///     Outcome::TimedOut => {} // retry later, or tell the user
///     other => panic!("expected a timeout, got {other:?}"),
/// }
/// assert!(result.is_error);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Outcome {
    /// The tool ran and succeeded.
    #[default]
    Success,
    /// The tool ran and returned an error (or a result marked as one).
    ToolError,
    /// No tool has the name the model sent.
    UnknownTool,
    /// The arguments are not JSON.
    MalformedJson,
    /// The arguments do not fit the tool's parameters.
    InvalidArguments,
    /// The tool panicked.
    Panicked,
    /// The tool's result could not be turned into JSON.
    InvalidOutput,
    /// The call outlived its timeout and was stopped.
    TimedOut,
    /// The call was cancelled before it finished.
    Cancelled,
}

impl Outcome {
    /// A short stable name: `success`, `tool_error`, `unknown_tool`, `malformed_json`,
    /// `invalid_arguments`, `panicked`, `invalid_output`, `timed_out`, `cancelled`.
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::ToolError => "tool_error",
            Outcome::UnknownTool => "unknown_tool",
            Outcome::MalformedJson => "malformed_json",
            Outcome::InvalidArguments => "invalid_arguments",
            Outcome::Panicked => "panicked",
            Outcome::InvalidOutput => "invalid_output",
            Outcome::TimedOut => "timed_out",
            Outcome::Cancelled => "cancelled",
        }
    }

    /// Whether the call succeeded.
    pub const fn is_success(&self) -> bool {
        matches!(self, Outcome::Success)
    }

    /// Whether the call failed (every outcome but [`Success`](Outcome::Success)).
    pub const fn is_error(&self) -> bool {
        !self.is_success()
    }

    /// Whether the call was stopped from outside before the tool finished (timed out or
    /// cancelled): the tool may not have done its work, or may have done part of it.
    pub const fn is_interrupted(&self) -> bool {
        matches!(self, Outcome::TimedOut | Outcome::Cancelled)
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The error a tool returns; its message is shown to the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ToolError {
    message: Cow<'static, str>,
}

impl ToolError {
    /// An error with the given message for the model.
    pub fn new(message: impl Into<Cow<'static, str>>) -> Self {
        ToolError { message: message.into() }
    }

    /// Wraps any displayable error (what `#[tool]` does with a function's `Err`).
    pub fn from_display(err: impl std::fmt::Display) -> Self {
        ToolError { message: Cow::Owned(err.to_string()) }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

/// A tool with typed arguments: what `#[tool]`, `#[tools]` and `#[derive(Tool)]` implement.
///
/// Usually generated (see the [guide](crate::guide)); implementing it by hand gives a tool with
/// a `const` descriptor and typed arguments, dispatched like a generated one.
///
/// ```
/// use tooldef::{BoxFuture, Param, Tool, ToolCall, ToolDescriptor, ToolError, Toolbox};
///
/// struct Shout;
///
/// #[derive(serde::Deserialize)]
/// struct ShoutArgs { text: String }
///
/// static SHOUT: ToolDescriptor = ToolDescriptor::new("shout")
///     .description("Upper-case the text.")
///     .params(const { &[Param::string("text").length(1, 100)] });
///
/// impl Tool for Shout {
///     const NAME: &'static str = "shout";
///     type Args = ShoutArgs;
///     type Output = String;
///     fn descriptor() -> &'static ToolDescriptor { &SHOUT }
///     fn call(&self, args: ShoutArgs) -> BoxFuture<'_, Result<String, ToolError>> {
///         Box::pin(async move { Ok(args.text.to_uppercase()) })
///     }
/// }
///
/// let toolbox = Toolbox::new().with(Shout);
/// let call = ToolCall::new("1", "shout", serde_json::json!({"text": "hi"}));
/// assert_eq!(toolbox.call_blocking(&call).text(), "HI");
/// ```
pub trait Tool: Send + Sync + 'static {
    /// The tool's name.
    const NAME: &'static str;
    /// The decoded arguments.
    type Args: DeserializeOwned + Send + 'static;
    /// The successful result.
    type Output: Serialize + Send + 'static;

    /// The descriptor, built once.
    fn descriptor() -> &'static ToolDescriptor
    where
        Self: Sized;

    /// Checks the constraints serde does not enforce (ranges, lengths, patterns, `one_of`) on
    /// decoded arguments. The message names the JSON pointer (`/days must be at most 10; got 11`).
    fn check(args: &Self::Args) -> Result<(), ArgErrors>
    where
        Self: Sized,
    {
        let _ = args;
        Ok(())
    }

    /// Runs the tool.
    fn call(&self, args: Self::Args) -> BoxFuture<'_, Result<Self::Output, ToolError>>;

    /// Runs the tool with the call's [`CallContext`](crate::context::CallContext): progress,
    /// logs, cancellation and requests back to the client. The default ignores the context and
    /// runs [`call`](Tool::call); `#[tool]` overrides it for a function that takes a
    /// `&CallContext` parameter.
    fn call_with<'a>(
        &'a self,
        args: Self::Args,
        ctx: &'a crate::context::CallContext,
    ) -> BoxFuture<'a, Result<Self::Output, ToolError>> {
        let _ = ctx;
        self.call(args)
    }
}

/// A type-erased tool: a descriptor and a way to run a [`ToolCall`]. What the registry and the
/// `Toolbox` hold; never panics, never fails outside the returned [`ToolResult`].
pub trait Executor: Send + Sync {
    /// The descriptor the executor was registered with.
    fn descriptor(&self) -> &ToolDescriptor;

    /// Decodes, validates and runs `call`; every failure is an error result.
    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult>;

    /// [`execute`](Executor::execute) with the call's [`CallContext`](crate::context::CallContext),
    /// which a host that carries progress, logs, cancellation and requests back to its client
    /// passes (`tooldef-mcp`'s server does). The default ignores the context; typed tools and
    /// override wrappers pass it on to the tool.
    fn execute_with<'a>(
        &'a self,
        call: &'a ToolCall,
        ctx: &'a crate::context::CallContext,
    ) -> BoxFuture<'a, ToolResult> {
        let _ = ctx;
        self.execute(call)
    }

    /// Decodes and checks `arguments` as [`execute`](Executor::execute) would before running the
    /// tool, without running it (a host that wants to vet a call first, or to queue it).
    ///
    /// The default checks them against [`descriptor`](Executor::descriptor) (every problem with
    /// its JSON pointer); a typed tool ([`TypedTool`](crate::TypedTool)) decodes them into its
    /// parameter type and runs [`Tool::check`], exactly as a call does.
    ///
    /// # Errors
    ///
    /// A [`DispatchError`](crate::DispatchError) of kind
    /// [`MalformedJson`](crate::DispatchErrorKind::MalformedJson) or
    /// [`InvalidArguments`](crate::DispatchErrorKind::InvalidArguments), whose
    /// [`model_text`](crate::DispatchError::model_text) is what the model would have been told.
    fn check_arguments(&self, arguments: &Arguments) -> Result<(), crate::DispatchError> {
        let validator = crate::ArgValidator::new();
        crate::dispatch::prepare_arguments(self.descriptor(), &validator, arguments).map(drop)
    }
}
