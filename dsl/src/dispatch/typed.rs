//! [`TypedTool`]: the adapter that makes any [`Tool`] an [`Executor`].

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::arg_checks::ArgErrors;
use crate::context::CallContext;
use crate::descriptor::ToolDescriptor;
use crate::dispatch::arg_validator::ArgValidator;
use crate::dispatch::error::{DispatchError, DispatchErrorKind, without_position};
use crate::dispatch::runtime::CatchUnwind;
use crate::json_text::ArgumentsText;
use crate::tool::{Arguments, BoxFuture, Executor, Tool, ToolCall, ToolResult};

/// Runs a typed [`Tool`] from a [`ToolCall`]: decodes the arguments straight into `T::Args`,
/// applies [`Tool::check`], calls the tool and serializes its output.
///
/// JSON text (`Arguments::Text`) is decoded with `serde_json::from_str` without an intermediate
/// `Value`; parsed JSON (`Arguments::Json`) is written out as compact text and decoded the same
/// way, so that a program holds one decoder per tool, not two. Only when
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

    /// Wraps `tool` as a shared, type-erased executor (what a [`Toolbox`](crate::Toolbox)
    /// holds; it runs calls exactly as a `TypedTool` does, with less code per tool).
    pub fn shared(tool: T) -> Arc<dyn Executor> {
        ErasedTool::shared(tool)
    }

    /// The wrapped tool.
    pub fn tool(&self) -> &T {
        &self.tool
    }

    /// Unwraps the tool.
    pub fn into_inner(self) -> T {
        self.tool
    }

    /// Decodes and checks the arguments, without calling the tool (the fast path for text: no
    /// `serde_json::Value` and no allocation beyond the decoded value's own; parsed arguments
    /// cost one more, their text).
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
        decode::<T>(&self.validator, arguments)
    }

    /// [`decode`](TypedTool::decode) of arguments as borrowed JSON text (OpenAI's
    /// `function.arguments`, a buffer the host owns): decoded straight into `T::Args`.
    ///
    /// # Errors
    ///
    /// As [`decode`](TypedTool::decode).
    pub fn decode_text(&self, text: &str) -> Result<T::Args, DispatchError> {
        let object = text_object(&self.validator, T::descriptor(), text)?;
        decode_object::<T>(&self.validator, object.text(), None)
    }

    /// [`decode`](TypedTool::decode) of arguments already parsed.
    ///
    /// The value is written out as JSON text and decoded as [`decode_text`](TypedTool::decode_text)
    /// decodes: one decoder per tool in the program rather than two (text and value), which
    /// takes as much code again per tool, for the cost of writing the text.
    ///
    /// # Errors
    ///
    /// As [`decode`](TypedTool::decode).
    pub fn decode_value(&self, value: &Value) -> Result<T::Args, DispatchError> {
        let object = value_object(&self.validator, T::descriptor(), value)?;
        decode_object::<T>(&self.validator, object.text(), Some(value))
    }
}

/// [`TypedTool::decode`], for any holder of a validator (inlined into its one caller per tool:
/// [`Start::start`] or [`TypedTool::decode`]).
#[inline]
fn decode<T: Tool>(
    validator: &ArgValidator,
    arguments: &Arguments,
) -> Result<T::Args, DispatchError> {
    let object = arguments_object(validator, T::descriptor(), arguments)?;
    decode_object::<T>(validator, object.text(), object.value)
}

/// The one place `T::Args` is decoded and checked: the text of an object, and the value it was
/// written from, if any. Arguments that do not decode are decoded once more with whole numbers
/// spelled as integers when the schema accepts it, else the error says what is wrong (one call
/// site of the decoder for both attempts).
fn decode_object<T: Tool>(
    validator: &ArgValidator,
    text: &str,
    value: Option<&Value>,
) -> Result<T::Args, DispatchError> {
    let mut rescue: Option<Rescue<'_>> = None;
    let args = loop {
        let attempt = rescue.as_ref().map_or(text, |r| r.retry.text.as_str());
        match serde_json::from_str::<T::Args>(attempt) {
            Ok(args) => break args,
            Err(e) => {
                let again = next_rescue(rescue, validator, T::descriptor(), text, value, e);
                rescue = Some(again.map_err(|e| *e)?);
            }
        }
    };
    T::check(&args).map_err(|errors| invalid(T::descriptor(), errors))?;
    Ok(args)
}

/// A decoding that failed once: the first error, and what to try next.
struct Rescue<'v> {
    first: serde_json::Error,
    retry: Retry<'v>,
}

/// After a failed decoding: the retry when it was the first, the final error when it was the
/// retry (explained with the first attempt's error).
#[cold]
#[inline(never)]
fn next_rescue<'v>(
    rescue: Option<Rescue<'v>>,
    validator: &ArgValidator,
    descriptor: &ToolDescriptor,
    text: &str,
    value: Option<&'v Value>,
    err: serde_json::Error,
) -> Result<Rescue<'v>, Box<DispatchError>> {
    match rescue {
        None => {
            let retry = rescue_plan(validator, descriptor, text, value, &err)?;
            Ok(Rescue { first: err, retry })
        }
        Some(r) => Err(Box::new(r.retry.explain(validator, descriptor, &r.first))),
    }
}

/// What to try once more when arguments did not decode: the arguments as a value (read from
/// the text when they came as text), and that value respelled as text.
struct Retry<'v> {
    value: std::borrow::Cow<'v, Value>,
    text: String,
}

impl Retry<'_> {
    fn explain(
        &self,
        validator: &ArgValidator,
        descriptor: &ToolDescriptor,
        err: &serde_json::Error,
    ) -> DispatchError {
        explain_value(validator, descriptor, &self.value, err)
    }
}

/// The error path, not generic over the tool: reads text that did not decode as a value
/// (malformed JSON and duplicate keys are refused here, with their pointer), then spells its
/// whole numbers as integers when the descriptor accepts that. `Err` is the final error
/// (boxed: the usual result is the retry).
#[cold]
#[inline(never)]
fn rescue_plan<'v>(
    validator: &ArgValidator,
    descriptor: &ToolDescriptor,
    text: &str,
    value: Option<&'v Value>,
    err: &serde_json::Error,
) -> Result<Retry<'v>, Box<DispatchError>> {
    let value = match value {
        Some(value) => std::borrow::Cow::Borrowed(value),
        None => match crate::json_text::parse_arguments(text.as_bytes()) {
            Ok(value) => std::borrow::Cow::Owned(value),
            Err(problem) => return Err(Box::new(unreadable(descriptor, problem))),
        },
    };
    match respelled(validator, descriptor, &value) {
        Some(respelled) => Ok(Retry { text: value_text(&respelled), value }),
        None => Err(Box::new(explain_value(validator, descriptor, &value, err))),
    }
}

/// The per-tool half of running a call, object-safe so that the other half (the panic guards,
/// the future that drives the tool, the mapping to a [`ToolResult`]) is compiled once for every
/// tool rather than once per tool. Implemented by every [`Tool`] itself, so that a tool in a
/// [`Toolbox`](crate::Toolbox) costs one small vtable (this one) and no other per-tool method.
trait Start: Send + Sync {
    /// Decodes and checks the arguments, then, when `run` gives the call's context, starts
    /// the tool: its future, whose output is already turned into JSON (`None` when `run` is
    /// `None`). One method for both uses, so that each tool holds one copy of the decoding
    /// call, not two.
    fn start<'a>(
        &'a self,
        validator: &ArgValidator,
        arguments: &Arguments,
        run: Option<&'a CallContext>,
    ) -> Result<Option<Running<'a>>, DispatchError>;
}

/// A started tool, its output turned into JSON.
type Running<'a> = BoxFuture<'a, Result<Value, DispatchError>>;

impl<T: Tool> Start for T {
    fn start<'a>(
        &'a self,
        validator: &ArgValidator,
        arguments: &Arguments,
        run: Option<&'a CallContext>,
    ) -> Result<Option<Running<'a>>, DispatchError> {
        let args = decode::<T>(validator, arguments)?;
        Ok(run.map(|ctx| encoded(T::descriptor(), self.call_with(args, ctx))))
    }
}

/// The tool's future with its output serialized: generic over the output type only, so tools
/// that return the same type share it.
fn encoded<'a, O: serde::Serialize + Send + 'a>(
    descriptor: &'static ToolDescriptor,
    future: BoxFuture<'a, Result<O, crate::tool::ToolError>>,
) -> Running<'a> {
    Box::pin(async move {
        match future.await {
            Ok(output) => serde_json::to_value(&output).map_err(|e| {
                DispatchError::new(
                    descriptor.name.to_string(),
                    DispatchErrorKind::Output { message: e.to_string() },
                )
            }),
            Err(e) => Err(DispatchError::new(
                descriptor.name.to_string(),
                DispatchErrorKind::Failed { message: e.message().to_owned() },
            )),
        }
    })
}

/// A typed tool as the dispatcher sees it: the tool behind its [`Start`] vtable, with its
/// descriptor and validator beside it. [`Executor`] is implemented once, for this type, rather
/// than once per tool; [`TypedTool::shared`] and the [`Toolbox`](crate::Toolbox) make these.
struct ErasedTool {
    descriptor: &'static ToolDescriptor,
    validator: ArgValidator,
    tool: Box<dyn Start>,
}

impl ErasedTool {
    /// The executor of `tool`: kept small and out of line from the per-tool code, which holds
    /// only the boxing of the tool (no allocation for a tool without state).
    fn shared<T: Tool>(tool: T) -> Arc<dyn Executor> {
        ErasedTool::erase(T::descriptor(), Box::new(tool))
    }

    #[inline(never)]
    fn erase(descriptor: &'static ToolDescriptor, tool: Box<dyn Start>) -> Arc<dyn Executor> {
        Arc::new(ErasedTool { descriptor, validator: ArgValidator::new(), tool })
    }
}

impl Executor for ErasedTool {
    fn descriptor(&self) -> &ToolDescriptor {
        self.descriptor
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        execute_started(
            &*self.tool,
            &self.validator,
            self.descriptor,
            call,
            CallContext::detached(),
        )
    }

    fn execute_with<'a>(
        &'a self,
        call: &'a ToolCall,
        ctx: &'a CallContext,
    ) -> BoxFuture<'a, ToolResult> {
        execute_started(&*self.tool, &self.validator, self.descriptor, call, ctx)
    }

    fn check_arguments(&self, arguments: &Arguments) -> Result<(), DispatchError> {
        check_started(&*self.tool, &self.validator, self.descriptor, arguments)
    }
}

/// [`Executor::execute`] of every typed tool: decoding and the tool itself run under the panic
/// guards, on the first poll.
fn execute_started<'a>(
    tool: &'a dyn Start,
    validator: &'a ArgValidator,
    descriptor: &'a ToolDescriptor,
    call: &'a ToolCall,
    ctx: &'a CallContext,
) -> BoxFuture<'a, ToolResult> {
    Box::pin(async move {
        let name = descriptor.name.as_str();
        let started = crate::dispatch::runtime::catch_unwind(|| {
            tool.start(validator, &call.arguments, Some(ctx))
        });
        let running = match started {
            Ok(Ok(Some(running))) => running,
            // `start` returns a future whenever `run` is true.
            Ok(Ok(None)) => return not_started(call, name),
            Ok(Err(err)) => return err.to_result(call),
            Err(panic) => return panicked(call, name, panic),
        };
        match CatchUnwind::new(running).await {
            Ok(Ok(value)) => ToolResult::success(call, value),
            Ok(Err(err)) => err.to_result(call),
            Err(panic) => panicked(call, name, panic),
        }
    })
}

/// [`Executor::check_arguments`] of every typed tool.
fn check_started(
    tool: &dyn Start,
    validator: &ArgValidator,
    descriptor: &ToolDescriptor,
    arguments: &Arguments,
) -> Result<(), DispatchError> {
    // A `Deserialize` written by hand may panic: the guard that `execute` has.
    match crate::dispatch::runtime::catch_unwind(|| tool.start(validator, arguments, None)) {
        Ok(result) => result.map(drop),
        Err(message) => {
            let tool = descriptor.name.to_string();
            tracing::error!(tool = %tool, panic = %message, "argument decoding panicked");
            Err(DispatchError::new(tool, DispatchErrorKind::Panicked { message }))
        }
    }
}

impl<T: Tool> Executor for TypedTool<T> {
    fn descriptor(&self) -> &ToolDescriptor {
        T::descriptor()
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        execute_started(&self.tool, &self.validator, T::descriptor(), call, CallContext::detached())
    }

    fn execute_with<'a>(
        &'a self,
        call: &'a ToolCall,
        ctx: &'a CallContext,
    ) -> BoxFuture<'a, ToolResult> {
        execute_started(&self.tool, &self.validator, T::descriptor(), call, ctx)
    }

    fn check_arguments(&self, arguments: &Arguments) -> Result<(), DispatchError> {
        check_started(&self.tool, &self.validator, T::descriptor(), arguments)
    }
}

// What the model is told about arguments that do not decode. Not generic over the tool, so it
// is compiled once, not once per tool.

/// Arguments ready for the decoder: the text of an object, and the value it was written from
/// when they came parsed.
struct Object<'a> {
    text: std::borrow::Cow<'a, str>,
    value: Option<&'a Value>,
}

impl Object<'_> {
    fn text(&self) -> &str {
        &self.text
    }
}

/// Arguments ready for the decoder, as text or parsed: out of line and not generic, so that
/// each tool's `decode` holds only its decoder and its checks.
#[inline(never)]
fn arguments_object<'a>(
    validator: &ArgValidator,
    descriptor: &ToolDescriptor,
    arguments: &'a Arguments,
) -> Result<Object<'a>, DispatchError> {
    match arguments {
        Arguments::Text(text) => text_object(validator, descriptor, text),
        Arguments::Json(value) => value_object(validator, descriptor, value),
    }
}

/// Text arguments for the decoder: `text` when it starts with an object (one scan of the
/// leading whitespace), `{}` for empty or blank text (which some providers send for tools
/// without parameters), the error for anything else. Tool arguments are always an object;
/// serde alone would also take a sequence for a struct, so anything else goes straight to the
/// validator for its message.
fn text_object<'a>(
    validator: &ArgValidator,
    descriptor: &ToolDescriptor,
    text: &'a str,
) -> Result<Object<'a>, DispatchError> {
    let text = match text.bytes().find(|b| !b.is_ascii_whitespace()) {
        Some(b'{') => text,
        _ if text.trim().is_empty() => "{}",
        _ => return Err(rescue(validator, descriptor, text, None)),
    };
    Ok(Object { text: std::borrow::Cow::Borrowed(text), value: None })
}

/// Parsed arguments for the decoder, written out as text, after the depth check (a host-built
/// value has no depth limit, and serde would recurse through it); the error for a value that
/// is not an object.
fn value_object<'a>(
    validator: &ArgValidator,
    descriptor: &ToolDescriptor,
    value: &'a Value,
) -> Result<Object<'a>, DispatchError> {
    if let Some(pointer) = crate::json_text::depth_exceeds(value, crate::json_text::MAX_DEPTH) {
        return Err(crate::dispatch::dynamic::too_deep(descriptor.name.to_string(), pointer));
    }
    if !value.is_object() {
        return Err(rescue(validator, descriptor, "", Some(value)));
    }
    Ok(Object { text: std::borrow::Cow::Owned(value_text(value)), value: Some(value) })
}

/// `value` as compact JSON text. Writing a `Value` cannot fail (its keys are strings, its
/// numbers finite); were it to, the empty text fails to decode and the validator explains.
fn value_text(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The error of arguments that are not an object (as text, or as the value given).
#[cold]
#[inline(never)]
fn rescue(
    validator: &ArgValidator,
    descriptor: &ToolDescriptor,
    text: &str,
    value: Option<&Value>,
) -> DispatchError {
    let err = serde::de::Error::custom("the arguments must be an object");
    match rescue_plan(validator, descriptor, text, value, &err) {
        Ok(retry) => retry.explain(validator, descriptor, &err),
        Err(plan) => *plan,
    }
}

#[cold]
#[inline(never)]
fn invalid(descriptor: &ToolDescriptor, errors: ArgErrors) -> DispatchError {
    DispatchError::new(descriptor.name.to_string(), DispatchErrorKind::InvalidArguments { errors })
}

/// The error for arguments given as text that could not be read: text that is not JSON, or a
/// key given twice or nesting past the limit (an argument error at that pointer, so the model
/// reads it like the others).
#[cold]
#[inline(never)]
pub(crate) fn unreadable(descriptor: &ToolDescriptor, problem: ArgumentsText) -> DispatchError {
    match problem {
        ArgumentsText::Malformed(syntax) => DispatchError::new(
            descriptor.name.to_string(),
            DispatchErrorKind::MalformedJson { message: syntax.to_string() },
        ),
        ArgumentsText::DuplicateKey(pointer) => {
            invalid(descriptor, ArgErrors(vec![crate::arg_checks::given_twice(pointer)]))
        }
        ArgumentsText::TooDeep(pointer) => {
            crate::dispatch::dynamic::too_deep(descriptor.name.to_string(), pointer)
        }
    }
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
        // An integer the schema accepts that no 64-bit type holds: at its pointer.
        Ok(()) if let Err(errors) = validator.out_of_64_bits(descriptor, value) => {
            invalid(descriptor, errors)
        }
        // The descriptor accepts what serde refuses (a hand-written `Tool` whose descriptor
        // says less than its type): serde's message is all there is.
        Ok(()) => {
            let message = format!("could not be decoded: {}", without_position(err));
            invalid(
                descriptor,
                crate::arg_checks::ArgError::new(crate::JsonPointer::root(), message).into(),
            )
        }
    }
}

/// The error result for a tool that did not start although asked to (cannot happen with the
/// typed tools of this module, whose `start` returns a future whenever `run` is true).
#[cold]
#[inline(never)]
fn not_started(call: &ToolCall, tool: &str) -> ToolResult {
    let message = "the tool did not start".to_owned();
    DispatchError::new(tool.to_owned(), DispatchErrorKind::Failed { message }).to_result(call)
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
