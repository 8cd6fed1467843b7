//! [`OverriddenExecutor`]: the executor behind an override, rewriting each call for the
//! registered executor; [`OverrideCall`] is what an `on_call` hook sees.

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::arg_checks::{self, ArgErrors};
use crate::descriptor::ToolDescriptor;
use crate::dispatch::{
    ArgValidator, DispatchError, DispatchErrorKind, apply_defaults, read_arguments, too_deep,
};
use crate::json_text::{MAX_DEPTH, depth_exceeds};
use crate::schema::Additional;
use crate::tool::{Arguments, BoxFuture, Executor, ToolCall, ToolError, ToolResult};

use super::apply::Patched;
use super::error::OverrideError;
use super::patch::{Override, OverrideCall};

/// An executor behind an override: exposes the patched descriptor and rewrites each call (tool
/// name, renamed and hidden parameters, defaults, values the registered tool does not take)
/// before handing it to the registered executor, which is never changed.
#[derive(Clone)]
pub struct OverriddenExecutor {
    inner: Arc<dyn Executor>,
    patched: Patched,
    validator: Arc<ArgValidator>,
}

impl fmt::Debug for OverriddenExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OverriddenExecutor")
            .field("descriptor", &self.patched.descriptor)
            .field("calls", &self.patched.calls)
            .finish_non_exhaustive()
    }
}

/// A call rewritten for the registered executor.
pub(super) struct Prepared {
    forwarded: ToolCall,
    /// The model's arguments, checked and completed (kept only when hooks read them).
    arguments: Map<String, Value>,
    /// Values of keys the registered executor has no parameter for.
    extra: Map<String, Value>,
}

impl OverriddenExecutor {
    pub(crate) fn from_patched(inner: Arc<dyn Executor>, patched: Patched) -> Self {
        OverriddenExecutor { inner, patched, validator: Arc::new(ArgValidator::new()) }
    }

    /// The registered executor this one delegates to.
    pub fn inner(&self) -> &Arc<dyn Executor> {
        &self.inner
    }

    /// The registered (unpatched) descriptor.
    pub fn original(&self) -> &ToolDescriptor {
        self.inner.descriptor()
    }

    /// Rewrites a call into what the registered executor expects; `Err` is the error the
    /// model is answered with, worded as dispatch words it for any tool (and as
    /// [`check_arguments`](Executor::check_arguments) gives it).
    fn prepare(&self, call: &ToolCall) -> Result<Prepared, DispatchError> {
        self.prepare_arguments(&call.id, &call.arguments)
    }

    /// [`prepare`](Self::prepare) for the call `id` with `arguments`.
    fn prepare_arguments(
        &self,
        id: &str,
        arguments: &Arguments,
    ) -> Result<Prepared, DispatchError> {
        let calls = &self.patched.calls;
        let descriptor = &self.patched.descriptor;
        let mut prepared = Prepared {
            forwarded: ToolCall {
                id: id.to_owned(),
                name: calls.registered.to_string(),
                arguments: Arguments::Json(Value::Null),
            },
            arguments: Map::new(),
            extra: Map::new(),
        };
        if !self.patched.rewrites_arguments() {
            // Passed on as they came; a host-built value is measured before it is copied (a
            // copy recurses once per level).
            if let Arguments::Json(v) = arguments
                && let Some(pointer) = depth_exceeds(v, MAX_DEPTH)
            {
                return Err(too_deep(descriptor.name.to_string(), pointer));
            }
            prepared.forwarded.arguments = arguments.clone();
            return Ok(prepared);
        }
        let invalid = |errors: ArgErrors| {
            DispatchError::new(
                descriptor.name.to_string(),
                DispatchErrorKind::InvalidArguments { errors },
            )
        };
        // Read as every dynamic tool reads them: a key given twice or a value nested past the
        // limit is refused here, before anything is rewritten.
        let mut value = match arguments {
            Arguments::Json(Value::Null) => Value::Object(Map::new()),
            arguments => read_arguments(descriptor, arguments)?,
        };
        let not_object = |v: &Value| invalid(arg_checks::wrong_type("an object", v, "").into());
        let Value::Object(args) = &value else { return Err(not_object(&value)) };
        // A key the patch took away (hidden, or the old name of a renamed parameter) is refused
        // even where the tool takes other keys: it would reach the registered tool otherwise.
        let retired: Vec<_> = args
            .keys()
            .filter(|key| descriptor.param(key).is_none() && calls.retired.contains(key))
            .map(|key| {
                let names = descriptor.params.iter().map(|p| p.name());
                arg_checks::unknown_key(&pointer(key), Some(descriptor.name.as_str()), names)
            })
            .collect();
        if !retired.is_empty() {
            return Err(invalid(ArgErrors(retired)));
        }
        self.validator.check_args(descriptor, &value).map_err(invalid)?;
        apply_defaults(descriptor, &mut value);
        let Value::Object(args) = value else { return Err(not_object(&value)) };
        if !calls.hooks.is_empty() {
            prepared.arguments = args.clone();
        }
        let mut forwarded = Map::new();
        for (key, value) in args {
            let key = calls.renamed.get(&key).cloned().unwrap_or(key);
            self.route(key, value, &mut forwarded, &mut prepared.extra);
        }
        for (key, value) in &calls.hidden {
            self.route(key.clone(), value.clone(), &mut forwarded, &mut prepared.extra);
        }
        prepared.forwarded.arguments = Arguments::Json(Value::Object(forwarded));
        Ok(prepared)
    }

    /// Puts one argument (by its registered name) where it belongs: with the extras when the
    /// registered tool has no such parameter, and in the forwarded call when the tool takes it
    /// (a parameter, or a key its open input or map accepts).
    fn route(
        &self,
        key: String,
        value: Value,
        forwarded: &mut Map<String, Value>,
        extra: &mut Map<String, Value>,
    ) {
        let original = self.inner.descriptor();
        if original.param(&key).is_some() {
            forwarded.insert(key, value);
            return;
        }
        let takes = match &original.additional {
            Additional::Open | Additional::Unstated => true,
            Additional::Typed(schema) => self
                .validator
                .check_value(schema, &original.definitions, &value, &crate::JsonPointer::root())
                .is_ok(),
            Additional::Closed => false,
        };
        if takes {
            extra.insert(key.clone(), value.clone());
            forwarded.insert(key, value);
        } else {
            extra.insert(key, value);
        }
    }

    /// Runs the hooks; the first refusal is the message of the error result.
    fn run_hooks(&self, call: &ToolCall, prepared: &Prepared) -> Result<(), ToolError> {
        let seen = OverrideCall {
            call,
            arguments: &prepared.arguments,
            extra: &prepared.extra,
            forwarded: &prepared.forwarded,
        };
        self.patched.calls.hooks.iter().try_for_each(|hook| (hook.0)(&seen))
    }
}

impl Executor for OverriddenExecutor {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.patched.descriptor
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        self.execute_with(call, crate::context::CallContext::detached())
    }

    fn execute_with<'a>(
        &'a self,
        call: &'a ToolCall,
        ctx: &'a crate::context::CallContext,
    ) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let mut result = match self.prepare(call) {
                Ok(prepared) => match self.run_hooks(call, &prepared) {
                    Ok(()) => {
                        let result = self.inner.execute_with(&prepared.forwarded, ctx).await;
                        if result.is_error && self.renames_only() {
                            // Arguments passed on as they came were refused by the registered
                            // tool, in its own name: answer in the name the model called.
                            match self.check_forwarded(&call.arguments) {
                                Err(err) => err.to_result(call),
                                Ok(()) => result,
                            }
                        } else {
                            result
                        }
                    }
                    Err(refused) => ToolResult::error(call, refused.message()),
                },
                Err(err) => err.to_result(call),
            };
            result.name = call.name.clone();
            result.call_id = call.id.clone();
            result
        })
    }

    /// The checks of [`execute`](Executor::execute) without running the tool: the arguments
    /// rewritten and checked against the patched descriptor, or, when the patch leaves them as
    /// they are, the registered tool's own checks; either way the error a call would answer
    /// with, in the name the model calls. `on_call` hooks are not run.
    fn check_arguments(&self, arguments: &Arguments) -> Result<(), DispatchError> {
        if self.patched.rewrites_arguments() {
            self.prepare_arguments("", arguments).map(drop)
        } else {
            self.check_forwarded(arguments)
        }
    }
}

impl OverriddenExecutor {
    /// Whether the patch passes arguments on as they came and the registered tool answers
    /// under another name than the one the model calls.
    fn renames_only(&self) -> bool {
        !self.patched.rewrites_arguments()
            && self.patched.calls.registered != self.patched.descriptor.name
    }

    /// The registered tool's check of arguments passed on as they came, its error in the name
    /// the model calls.
    fn check_forwarded(&self, arguments: &Arguments) -> Result<(), DispatchError> {
        self.inner.check_arguments(arguments).map_err(|err| {
            DispatchError::new(self.patched.descriptor.name.to_string(), err.into_kind())
        })
    }
}

/// The JSON pointer of a top-level argument.
pub(super) fn pointer(key: &str) -> String {
    crate::JsonPointer::from_segments([key]).into_string()
}

/// Wrapping an executor lives beside the executor it builds.
impl Override {
    /// Wraps an executor so that it exposes the patched descriptor and rewrites calls.
    ///
    /// # Errors
    ///
    /// As [`Override::apply`].
    pub fn wrap(&self, executor: Arc<dyn Executor>) -> Result<OverriddenExecutor, OverrideError> {
        let patched = self.apply_patched(Patched::new(executor.descriptor()))?;
        Ok(OverriddenExecutor::from_patched(executor, patched))
    }
}
