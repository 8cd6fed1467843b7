//! The call-side contract shared by the macros, dispatch, the registry and provider crates:
//! [`Tool`] (a typed tool), [`Executor`] (a type-erased one), [`ToolCall`], [`ToolResult`],
//! [`ToolError`] and [`Arguments`].
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

/// One piece of a tool result's content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Content {
    /// Text for the model.
    Text {
        /// The text.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// Base64 data.
        data: String,
        /// The MIME type, e.g. `image/png`.
        mime_type: String,
    },
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
    /// Whether the call failed; the content then says what to fix.
    #[serde(default)]
    pub is_error: bool,
    /// The arguments dispatch read differently from how they arrived (an object or array sent
    /// as a JSON string where the schema expects one; see
    /// [`dispatch::Repair`](crate::dispatch::Repair)), in document order; empty for most calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repairs: Vec<crate::dispatch::Repair>,
}

impl ToolResult {
    /// A successful result carrying a value: its JSON text as content, the value as structured.
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
            repairs: Vec::new(),
        }
    }

    /// An error result whose text tells the model what went wrong.
    pub fn error(call: &ToolCall, message: impl Into<String>) -> Self {
        ToolResult {
            call_id: call.id.clone(),
            name: call.name.clone(),
            content: vec![Content::Text { text: message.into() }],
            structured: None,
            is_error: true,
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
}

/// A type-erased tool: a descriptor and a way to run a [`ToolCall`]. What the registry and the
/// `Toolbox` hold; never panics, never fails outside the returned [`ToolResult`].
pub trait Executor: Send + Sync {
    /// The descriptor the executor was registered with.
    fn descriptor(&self) -> &ToolDescriptor;

    /// Decodes, validates and runs `call`; every failure is an error result.
    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult>;

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
