//! [`DynamicTool`]: an [`Executor`] from a descriptor and a closure over `serde_json::Value`.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::arg_checks::ArgError;
use crate::descriptor::ToolDescriptor;
use crate::dispatch::arg_validator::{ArgValidator, apply_defaults};
use crate::dispatch::error::{DispatchError, DispatchErrorKind};
use crate::dispatch::runtime::CatchUnwind;
use crate::dispatch::typed::panicked;
use crate::pointer::JsonPointer;
use crate::tool::{Arguments, BoxFuture, Executor, ToolCall, ToolError, ToolResult};

type AsyncHandler = dyn Fn(Value) -> BoxFuture<'static, Result<Value, ToolError>> + Send + Sync;
type SyncHandler = dyn Fn(Value) -> Result<Value, ToolError> + Send + Sync;

enum Handler {
    Async(Box<AsyncHandler>),
    Sync(Box<SyncHandler>),
}

/// A tool whose parameters are known only at run time (spec files, imported MCP tools, tools
/// whose arguments an override rewrites): a [`ToolDescriptor`] plus a closure over the
/// arguments as a `serde_json::Value`.
///
/// Before the closure runs, the arguments are checked against the descriptor (every problem is
/// reported with its JSON pointer) and absent parameters receive their defaults. Arguments given
/// as text are read with [`crate::json_text::parse`] (a key given twice is an argument error at
/// its pointer, `/city is given twice`); text or a value built by the host that nests deeper
/// than [`crate::json_text::MAX_DEPTH`] is refused at the pointer where it does (a value before
/// it is copied).
///
/// ```
/// use serde_json::{Value, json};
/// use tooldef::dispatch::{DynamicTool, Toolbox};
/// use tooldef::{Param, ToolCall, ToolDescriptor};
///
/// let d = ToolDescriptor::builder("echo")
///     .param(Param::string("text"))
///     .param(Param::integer("times").with_default(1_i64))
///     .build()
///     .unwrap();
/// let echo = DynamicTool::new_sync(d, |args: Value| Ok(args));
/// let toolbox = Toolbox::new().with_executor(echo.into());
/// let result = toolbox.call_blocking(&ToolCall::new("1", "echo", json!({"text": "hi"})));
/// assert_eq!(result.structured, Some(json!({"text": "hi", "times": 1})));
/// ```
pub struct DynamicTool {
    descriptor: ToolDescriptor,
    validator: ArgValidator,
    handler: Handler,
}

impl DynamicTool {
    /// A tool whose closure returns a future.
    pub fn new<F>(descriptor: ToolDescriptor, handler: F) -> Self
    where
        F: Fn(Value) -> BoxFuture<'static, Result<Value, ToolError>> + Send + Sync + 'static,
    {
        DynamicTool {
            descriptor,
            validator: ArgValidator::new(),
            handler: Handler::Async(Box::new(handler)),
        }
    }

    /// A tool whose closure runs synchronously (on the task that polls the call).
    pub fn new_sync<F>(descriptor: ToolDescriptor, handler: F) -> Self
    where
        F: Fn(Value) -> Result<Value, ToolError> + Send + Sync + 'static,
    {
        DynamicTool {
            descriptor,
            validator: ArgValidator::new(),
            handler: Handler::Sync(Box::new(handler)),
        }
    }

    /// The arguments as the closure will receive them: parsed, checked, with defaults applied.
    ///
    /// # Errors
    ///
    /// A [`DispatchError`] of kind [`MalformedJson`](DispatchErrorKind::MalformedJson) or
    /// [`InvalidArguments`](DispatchErrorKind::InvalidArguments).
    pub fn prepare(&self, arguments: &Arguments) -> Result<Value, DispatchError> {
        prepare_arguments(&self.descriptor, &self.validator, arguments)
    }

    async fn run(&self, call: &ToolCall) -> Result<Value, DispatchError> {
        let args = self.prepare(&call.arguments)?;
        let out = match &self.handler {
            Handler::Async(f) => f(args).await,
            Handler::Sync(f) => f(args),
        };
        out.map_err(|e| {
            DispatchError::new(
                self.descriptor.name.to_string(),
                DispatchErrorKind::Failed { message: e.message().to_owned() },
            )
        })
    }
}

impl Executor for DynamicTool {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.descriptor
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let run = std::pin::pin!(self.run(call));
            match CatchUnwind::new(run).await {
                Ok(Ok(value)) => ToolResult::success(call, value),
                Ok(Err(err)) => err.to_result(call),
                Err(panic) => panicked(call, self.descriptor.name.as_str(), panic),
            }
        })
    }
}

impl From<DynamicTool> for Arc<dyn Executor> {
    fn from(tool: DynamicTool) -> Self {
        Arc::new(tool)
    }
}

impl fmt::Debug for DynamicTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamicTool").field("name", &self.descriptor.name).finish_non_exhaustive()
    }
}

/// The error for arguments nested deeper than [`crate::json_text::MAX_DEPTH`], at the pointer
/// of the array or object that crosses the limit: the one wording of every path that reads
/// arguments (values, text, streams).
pub(crate) fn too_deep(tool: String, pointer: JsonPointer) -> DispatchError {
    let message = format!(
        "is nested more than {} levels deep, past the limit for arguments; flatten it",
        crate::json_text::MAX_DEPTH
    );
    DispatchError::new(
        tool,
        DispatchErrorKind::InvalidArguments { errors: ArgError::new(pointer, message).into() },
    )
}

/// Parses `arguments`, checks them against `descriptor` and fills in defaults: what every tool
/// that works on a JSON value (rather than a typed struct) needs before it runs.
///
/// # Errors
///
/// A [`DispatchError`] of kind [`MalformedJson`](DispatchErrorKind::MalformedJson) or
/// [`InvalidArguments`](DispatchErrorKind::InvalidArguments), whose
/// [`model_text`](DispatchError::model_text) tells the model what to fix.
pub fn prepare_arguments(
    descriptor: &ToolDescriptor,
    validator: &ArgValidator,
    arguments: &Arguments,
) -> Result<Value, DispatchError> {
    let mut value = read_arguments(descriptor, arguments)?;
    validator.check_args(descriptor, &value).map_err(|errors| {
        DispatchError::new(
            descriptor.name.to_string(),
            DispatchErrorKind::InvalidArguments { errors },
        )
    })?;
    apply_defaults(descriptor, &mut value);
    Ok(value)
}

/// The arguments as a value, before any check against the parameters: text read with
/// duplicate keys refused at their pointer, a host-built value measured before it is copied
/// (one deeper than [`MAX_DEPTH`](crate::json_text::MAX_DEPTH) is refused), empty text read as
/// `{}`. Every path that works on a JSON value reads arguments here.
pub(crate) fn read_arguments(
    descriptor: &ToolDescriptor,
    arguments: &Arguments,
) -> Result<Value, DispatchError> {
    match arguments {
        Arguments::Json(v) => {
            // A host-built value has no depth limit: measure it before cloning it.
            if let Some(pointer) = crate::json_text::depth_exceeds(v, crate::json_text::MAX_DEPTH) {
                return Err(too_deep(descriptor.name.to_string(), pointer));
            }
            Ok(v.clone())
        }
        Arguments::Text(t) if t.trim().is_empty() => Ok(Value::Object(serde_json::Map::new())),
        Arguments::Text(t) => crate::json_text::parse_arguments(t.as_bytes())
            .map_err(|problem| super::typed::unreadable(descriptor, problem)),
    }
}
