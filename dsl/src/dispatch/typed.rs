//! [`TypedTool`]: the adapter that makes any [`Tool`] an [`Executor`].

use std::fmt;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use crate::arg_checks::ArgErrors;
use crate::descriptor::ToolDescriptor;
use crate::dispatch::arg_validator::ArgValidator;
use crate::dispatch::error::{DispatchError, DispatchErrorKind, without_position};
use crate::dispatch::runtime::CatchUnwind;
use crate::tool::{Arguments, BoxFuture, Executor, Tool, ToolCall, ToolResult};

/// Runs a typed [`Tool`] from a [`ToolCall`]: decodes the arguments straight into `T::Args`,
/// applies [`Tool::check`], calls the tool and serializes its output.
///
/// JSON text (`Arguments::Text`) is decoded with `serde_json::from_str` without an intermediate
/// `Value`; parsed JSON (`Arguments::Json`) is decoded from the value in place. Only when
/// decoding fails are the arguments checked against [`Tool::descriptor`] by the
/// [`ArgValidator`], so that the model is told every problem with its JSON pointer rather than
/// serde's first complaint.
///
/// ```
/// # use std::sync::Arc;
/// # use tooldef::{Executor, dispatch::TypedTool};
/// # fn demo<T: tooldef::Tool>(tool: T) {
/// let executor: Arc<dyn Executor> = TypedTool::new(tool).into();
/// # }
/// ```
pub struct TypedTool<T> {
    tool: T,
    validator: ArgValidator,
}

impl<T: Tool> TypedTool<T> {
    /// Wraps `tool`.
    pub fn new(tool: T) -> Self {
        TypedTool { tool, validator: ArgValidator::new() }
    }

    /// Wraps `tool` as a shared, type-erased executor.
    pub fn shared(tool: T) -> Arc<dyn Executor> {
        Arc::new(TypedTool::new(tool))
    }

    /// The wrapped tool.
    pub fn tool(&self) -> &T {
        &self.tool
    }

    /// Unwraps the tool.
    pub fn into_inner(self) -> T {
        self.tool
    }

    /// Decodes and checks the arguments, without calling the tool (the fast path: no
    /// `serde_json::Value` and no allocation beyond the decoded value's own).
    ///
    /// Empty or blank text counts as `{}`, which some providers send for tools without
    /// parameters.
    ///
    /// # Errors
    ///
    /// A [`DispatchError`] of kind [`MalformedJson`](DispatchErrorKind::MalformedJson) for text
    /// that is not JSON (with line and column), of kind
    /// [`InvalidArguments`](DispatchErrorKind::InvalidArguments) for arguments that do not fit
    /// the parameters.
    pub fn decode(&self, arguments: &Arguments) -> Result<T::Args, DispatchError> {
        match arguments {
            Arguments::Text(text) => self.decode_text(text),
            Arguments::Json(value) => self.decode_value(value),
        }
    }

    /// [`decode`](TypedTool::decode) of arguments as borrowed JSON text (OpenAI's
    /// `function.arguments`, a buffer the host owns): decoded straight into `T::Args`.
    ///
    /// # Errors
    ///
    /// As [`decode`](TypedTool::decode).
    pub fn decode_text(&self, text: &str) -> Result<T::Args, DispatchError> {
        // Tool arguments are always an object; serde alone would also take a sequence for a
        // struct, so anything else goes straight to the validator for its message.
        // One scan of the leading whitespace in the usual case (an object); the full `trim`
        // only when the text does not start with `{`.
        let (text, decoded) = match text.bytes().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{') => (text, serde_json::from_str::<T::Args>(text)),
            _ if text.trim().is_empty() => ("{}", serde_json::from_str::<T::Args>("{}")),
            _ => (text, Err(serde::de::Error::custom("the arguments must be an object"))),
        };
        let args = match decoded {
            Ok(args) => args,
            Err(e) => self.rescue_text(text, &e)?,
        };
        T::check(&args).map_err(|errors| invalid(T::descriptor(), errors))?;
        Ok(args)
    }

    /// [`decode`](TypedTool::decode) of arguments already parsed, decoded from the value in
    /// place.
    ///
    /// # Errors
    ///
    /// As [`decode`](TypedTool::decode).
    pub fn decode_value(&self, value: &Value) -> Result<T::Args, DispatchError> {
        // A host-built value has no depth limit; serde would recurse through it.
        if let Some(pointer) = crate::json_text::depth_exceeds(value, crate::json_text::MAX_DEPTH) {
            return Err(crate::dispatch::dynamic::too_deep(
                T::descriptor().name.to_string(),
                pointer,
            ));
        }
        let decoded = match value {
            Value::Object(_) => T::Args::deserialize(value),
            _ => Err(serde::de::Error::custom("the arguments must be an object")),
        };
        let args = match decoded {
            Ok(args) => args,
            Err(e) => self.rescue_value(value, &e)?,
        };
        T::check(&args).map_err(|errors| invalid(T::descriptor(), errors))?;
        Ok(args)
    }

    /// The error path of text that did not decode: read it as a value (duplicate keys refused
    /// with their pointer) and go on as [`Self::rescue_value`].
    fn rescue_text(&self, text: &str, err: &serde_json::Error) -> Result<T::Args, DispatchError> {
        match crate::json_text::parse(text.as_bytes()) {
            Ok(value) => self.rescue_value(&value, err),
            Err(syntax) => Err(DispatchError::new(
                T::descriptor().name.to_string(),
                DispatchErrorKind::MalformedJson { message: syntax.to_string() },
            )),
        }
    }

    /// The error path of a value that did not decode: decode it once more with whole numbers
    /// spelled as integers when the schema accepts it, else say what is wrong.
    fn rescue_value(
        &self,
        value: &Value,
        err: &serde_json::Error,
    ) -> Result<T::Args, DispatchError> {
        if let Some(respelled) = respelled(&self.validator, T::descriptor(), value)
            && let Ok(args) = T::Args::deserialize(&respelled)
        {
            return Ok(args);
        }
        Err(explain_value(&self.validator, T::descriptor(), value, err))
    }

    async fn run(&self, call: &ToolCall) -> Result<Value, DispatchError> {
        let args = self.decode(&call.arguments)?;
        let output = self.tool.call(args).await.map_err(|e| {
            DispatchError::new(
                T::descriptor().name.to_string(),
                DispatchErrorKind::Failed { message: e.message().to_owned() },
            )
        })?;
        serde_json::to_value(&output).map_err(|e| {
            DispatchError::new(
                T::descriptor().name.to_string(),
                DispatchErrorKind::Output { message: e.to_string() },
            )
        })
    }
}

impl<T: Tool> Executor for TypedTool<T> {
    fn descriptor(&self) -> &ToolDescriptor {
        T::descriptor()
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let run = std::pin::pin!(self.run(call));
            match CatchUnwind::new(run).await {
                Ok(Ok(value)) => ToolResult::success(call, value),
                Ok(Err(err)) => err.to_result(call),
                Err(panic) => panicked(call, T::descriptor().name.as_ref(), panic),
            }
        })
    }

    fn check_arguments(&self, arguments: &Arguments) -> Result<(), DispatchError> {
        // A `Deserialize` written by hand may panic: the guard that `execute` has.
        match crate::dispatch::runtime::catch_unwind(|| self.decode(arguments).map(drop)) {
            Ok(result) => result,
            Err(message) => {
                let tool = T::descriptor().name.to_string();
                tracing::error!(tool = %tool, panic = %message, "argument decoding panicked");
                Err(DispatchError::new(tool, DispatchErrorKind::Panicked { message }))
            }
        }
    }
}

// What the model is told about arguments that do not decode. Not generic over the tool, so it
// is compiled once, not once per tool.

fn invalid(descriptor: &ToolDescriptor, errors: ArgErrors) -> DispatchError {
    DispatchError::new(descriptor.name.to_string(), DispatchErrorKind::InvalidArguments { errors })
}

/// `value` with every number that has a zero fractional part (`1.0`, `1e0`, `-0`) written as
/// an integer, when it has such a number and the descriptor accepts it; `None` otherwise.
fn respelled(
    validator: &ArgValidator,
    descriptor: &ToolDescriptor,
    value: &Value,
) -> Option<Value> {
    fn whole(n: &serde_json::Number) -> Option<serde_json::Number> {
        let f = n.as_f64().filter(|_| n.is_f64())?;
        if f.fract() != 0.0 || f.abs() >= 9.2e18 {
            return None;
        }
        Some(serde_json::Number::from(f as i64))
    }
    let mut stack = vec![value];
    let mut any = false;
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if whole(n).is_some() => {
                any = true;
                break;
            }
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    if !any || validator.check_args(descriptor, value).is_err() {
        return None;
    }
    let mut out = value.clone();
    let mut stack = vec![&mut out];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) => {
                if let Some(w) = whole(n) {
                    *n = w;
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            _ => {}
        }
    }
    Some(out)
}

fn explain_value(
    validator: &ArgValidator,
    descriptor: &ToolDescriptor,
    value: &Value,
    err: &serde_json::Error,
) -> DispatchError {
    match validator.check_args(descriptor, value) {
        Err(errors) => invalid(descriptor, errors),
        // The descriptor accepts what serde refuses (a hand-written `Tool` whose descriptor
        // says less than its type): serde's message is all there is.
        Ok(()) => {
            let message = format!("could not be decoded: {}", without_position(err));
            invalid(descriptor, crate::arg_checks::ArgError::new("", message).into())
        }
    }
}

/// The error result for a tool that panicked; the panic message goes to `tracing`, not to
/// the model.
pub(crate) fn panicked(call: &ToolCall, tool: &str, message: String) -> ToolResult {
    tracing::error!(tool, panic = %message, "tool panicked");
    DispatchError::new(tool.to_owned(), DispatchErrorKind::Panicked { message }).to_result(call)
}

impl<T: Tool> From<TypedTool<T>> for Arc<dyn Executor> {
    fn from(tool: TypedTool<T>) -> Self {
        Arc::new(tool)
    }
}

impl<T: Tool> fmt::Debug for TypedTool<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedTool").field("name", &T::NAME).finish_non_exhaustive()
    }
}
