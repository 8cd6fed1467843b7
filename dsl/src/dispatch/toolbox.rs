//! [`Toolbox`]: executors by name, and the entry points that turn [`ToolCall`]s into
//! [`ToolResult`]s whatever happens: one call, one call with a timeout and cancellation, or a
//! model turn's calls concurrently with a bound, each in a `tracing` span.

use std::future::{Future, poll_fn};
use std::sync::Arc;
use std::task::Poll;
use std::time::Instant;

use indexmap::IndexMap;
use tracing::Instrument;

use crate::descriptor::ToolDescriptor;
use crate::dispatch::error::{DispatchError, DispatchErrorKind, closest};
use crate::dispatch::options::{BoundedJoin, CallOptions};
use crate::dispatch::repair::repair;
use crate::dispatch::runtime::{CatchUnwind, block_on, catch_unwind};
use crate::dispatch::typed::{TypedTool, panicked};
use crate::render::{LossPolicy, RenderCache, RenderError, RenderedSet, Renderer};
use crate::tool::{BoxFuture, Executor, Tool, ToolCall, ToolResult};

/// The options of [`Toolbox::call`]: no timeout, no cancellation.
pub(crate) static PLAIN: CallOptions = CallOptions::new();

/// Tools by name, called from [`ToolCall`]s.
///
/// Tools keep the order in which they were first added ([`descriptors`](Toolbox::descriptors)
/// and [`names`](Toolbox::names) follow it); adding a tool under a name already present
/// replaces that tool in place. The name is the one in the executor's descriptor.
///
/// [`call`](Toolbox::call) never panics and never fails outside its result: an unknown tool,
/// malformed or invalid arguments, a tool that returns an error and a tool that panics all
/// become an error [`ToolResult`] whose text tells the model what to fix.
///
#[cfg_attr(feature = "macros", doc = "```")]
#[cfg_attr(not(feature = "macros"), doc = "```text")]
/// use tooldef::{ToolCall, Toolbox, tool};
///
/// /// Divide `a` by `b`.
/// #[tool]
/// fn divide(a: f64, #[param(min = 1)] b: i64) -> f64 {
///     a / b as f64
/// }
///
/// let toolbox = Toolbox::new().with(Divide);
/// assert_eq!(toolbox.names().collect::<Vec<_>>(), ["divide"]);
///
/// let ok = toolbox.call_blocking(&ToolCall::new("1", "divide", serde_json::json!({"a": 3, "b": 2})));
/// assert_eq!(ok.text(), "1.5");
/// let bad = toolbox.call_blocking(&ToolCall::new("2", "divide", serde_json::json!({"a": 3, "b": 0})));
/// assert_eq!(bad.text(), "invalid arguments for divide: /b must be at least 1; got 0");
/// let unknown = toolbox.call_blocking(&ToolCall::new("3", "multiply", serde_json::json!({})));
/// assert!(unknown.is_error);
/// ```
#[derive(Clone, Default)]
pub struct Toolbox {
    tools: IndexMap<String, Arc<dyn Executor>>,
}

impl Toolbox {
    /// An empty toolbox.
    pub fn new() -> Self {
        Toolbox::default()
    }

    /// Adds a typed tool (through [`TypedTool`]), replacing any tool of the same name.
    pub fn add<T: Tool>(&mut self, tool: T) -> &mut Self {
        self.insert_shared(TypedTool::shared(tool));
        self
    }

    /// [`insert`](Toolbox::insert) kept out of line, so that each tool's [`add`](Toolbox::add)
    /// holds only the wrapping of its tool, not a copy of the map's insertion.
    #[inline(never)]
    fn insert_shared(&mut self, executor: Arc<dyn Executor>) {
        self.insert(executor);
    }

    /// Adds any executor; returns the one it replaces, if a tool of that name was present.
    pub fn insert(&mut self, executor: Arc<dyn Executor>) -> Option<Arc<dyn Executor>> {
        let name = executor.descriptor().name.to_string();
        self.tools.insert(name, executor)
    }

    /// [`add`](Toolbox::add), by value, for chaining.
    #[must_use]
    pub fn with<T: Tool>(mut self, tool: T) -> Self {
        self.add(tool);
        self
    }

    /// [`insert`](Toolbox::insert), by value, for chaining.
    #[must_use]
    pub fn with_executor(mut self, executor: Arc<dyn Executor>) -> Self {
        self.insert(executor);
        self
    }

    /// Removes the tool named `name` (later tools keep their relative order).
    pub fn remove(&mut self, name: &str) -> Option<Arc<dyn Executor>> {
        self.tools.shift_remove(name)
    }

    /// The tool named `name`.
    pub fn get(&self, name: &str) -> Option<&Arc<dyn Executor>> {
        self.tools.get(name)
    }

    /// Whether a tool is named `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.tools.contains_key(name)
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether there are no tools.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The tools' names, in order.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.tools.keys().map(String::as_str)
    }

    /// The tools' descriptors, in order (what to hand a renderer).
    pub fn descriptors(&self) -> impl ExactSizeIterator<Item = &ToolDescriptor> + '_ {
        self.tools.values().map(|e| e.descriptor())
    }

    /// The executors, in order.
    pub fn executors(&self) -> impl ExactSizeIterator<Item = &Arc<dyn Executor>> + '_ {
        self.tools.values()
    }

    /// Every tool rendered for `renderer`, in order, through `cache`
    /// ([`RenderCache::get_executor_set`]): rendered on the first call, one lookup afterwards
    /// while the toolbox holds the same tools.
    ///
    #[cfg_attr(feature = "macros", doc = "```")]
    #[cfg_attr(not(feature = "macros"), doc = "```text")]
    /// # use tooldef::{LossPolicy, RenderCache, Toolbox, tool};
    /// # struct Names;
    /// # impl tooldef::Renderer for Names {
    /// #     fn name(&self) -> &str { "names" }
    /// #     fn render(&self, t: &tooldef::ToolDescriptor, p: LossPolicy)
    /// #         -> Result<tooldef::Rendered, tooldef::RenderError> {
    /// #         let mut ctx = tooldef::RenderCtx::new(t, p);
    /// #         let mut out = tooldef::JsonWriter::new();
    /// #         out.string(t.name.as_str());
    /// #         Ok(ctx.finish(out))
    /// #     }
    /// # }
    /// /// Add two numbers.
    /// #[tool]
    /// fn add(a: i64, b: i64) -> i64 {
    ///     a + b
    /// }
    ///
    /// let toolbox = Toolbox::new().with(Add);
    /// let cache = RenderCache::new();
    /// let set = toolbox.rendered(&Names, &cache, LossPolicy::Allow).unwrap();
    /// assert_eq!(set.json(), r#"["add"]"#);
    /// assert_eq!(cache.set_count(), 1);
    /// ```
    ///
    /// # Errors
    ///
    /// The renderer's set-level error, or the first tool that cannot be rendered.
    pub fn rendered<R: Renderer + ?Sized>(
        &self,
        renderer: &R,
        cache: &RenderCache,
        policy: LossPolicy,
    ) -> Result<RenderedSet, RenderError> {
        cache.get_executor_set(renderer, self.tools.values(), policy)
    }

    /// Calls the tool the model asked for. Resolves to an error result (never a panic) when the
    /// tool is unknown, the arguments are malformed or invalid, or the tool fails or panics.
    ///
    /// Runs in a `tooldef.dispatch` span (see [`call_with`](Toolbox::call_with)).
    pub fn call<'a>(&'a self, call: &'a ToolCall) -> impl Future<Output = ToolResult> + Send + 'a {
        self.call_with(call, &PLAIN)
    }

    /// [`call`](Toolbox::call) under `options`: a call that outlives the timeout, or whose
    /// cancellation token fires, has its future dropped and is answered with an error result
    /// saying so, whose [`outcome`](ToolResult::outcome) is
    /// [`TimedOut`](crate::Outcome::TimedOut) or [`Cancelled`](crate::Outcome::Cancelled).
    ///
    /// Each call runs in an `info` span `tooldef.dispatch` with the fields `tool`, `call_id`,
    /// `outcome` (the result's [`Outcome`](crate::Outcome) by its
    /// [`name`](crate::Outcome::name): `success`, `tool_error`, `invalid_arguments`,
    /// `timed_out`, `cancelled`, ...), `repairs` (the [`Repair`](crate::dispatch::Repair)s made,
    /// when there are any, as [`ToolResult::repairs`] also holds them) and `duration_ms`.
    pub fn call_with<'a>(
        &'a self,
        call: &'a ToolCall,
        options: &'a CallOptions,
    ) -> impl Future<Output = ToolResult> + Send + 'a {
        let executor = self.tools.get(call.name.as_str()).ok_or_else(|| self.unknown(&call.name));
        dispatch(executor, call, options)
    }

    /// Calls every call of one model turn, at most [`CallOptions::concurrency`] at a time,
    /// each under `options` as in [`call_with`](Toolbox::call_with); the results come in the
    /// order of `calls`, whatever order the tools finish in.
    ///
    /// The calls share the polling task (as `join` does): tools that `.await` overlap, a tool
    /// that blocks its thread holds the others up until it returns. Spawn such tools on a
    /// blocking pool inside the tool.
    pub fn call_all<'a>(
        &'a self,
        calls: &'a [ToolCall],
        options: &'a CallOptions,
    ) -> impl Future<Output = Vec<ToolResult>> + Send + 'a {
        BoundedJoin::new(calls.len(), options.concurrency, move |i| -> BoxFuture<'a, ToolResult> {
            Box::pin(self.call_with(&calls[i], options))
        })
    }

    /// [`call`](Toolbox::call), driven to completion on the current thread (for sync callers
    /// and tests; tools that need an async runtime's reactor must be called from that runtime).
    pub fn call_blocking(&self, call: &ToolCall) -> ToolResult {
        block_on(self.call(call))
    }

    /// Decodes and checks the arguments of `call` for the tool `call.name`, without running it:
    /// a typed tool decodes them into its parameter type and runs [`Tool::check`], others are
    /// checked against their descriptor (see [`Executor::check_arguments`]). The error's
    /// [`model_text`](DispatchError::model_text) is what [`call`](Toolbox::call) would answer.
    ///
    #[cfg_attr(feature = "macros", doc = "```")]
    #[cfg_attr(not(feature = "macros"), doc = "```text")]
    /// use tooldef::{ToolCall, Toolbox, tool};
    ///
    /// /// Divide `a` by `b`.
    /// #[tool]
    /// fn divide(a: f64, #[param(min = 1)] b: i64) -> f64 {
    ///     a / b as f64
    /// }
    ///
    /// let toolbox = Toolbox::new().with(Divide);
    /// assert!(toolbox.check(&ToolCall::from_text("1", "divide", r#"{"a": 3, "b": 2}"#)).is_ok());
    /// let err = toolbox.check(&ToolCall::from_text("2", "divide", r#"{"a": 3, "b": 0}"#));
    /// assert_eq!(err.unwrap_err().model_text(), "invalid arguments for divide: /b must be at least 1; got 0");
    /// ```
    ///
    /// # Errors
    ///
    /// A [`DispatchError`] of kind [`UnknownTool`](DispatchErrorKind::UnknownTool),
    /// [`MalformedJson`](DispatchErrorKind::MalformedJson),
    /// [`InvalidArguments`](DispatchErrorKind::InvalidArguments), or
    /// [`Panicked`](DispatchErrorKind::Panicked) when decoding panics.
    pub fn check(&self, call: &ToolCall) -> Result<(), DispatchError> {
        match self.tools.get(call.name.as_str()) {
            Some(executor) => check_repaired(executor, call),
            None => Err(self.unknown(&call.name)),
        }
    }

    fn unknown(&self, name: &str) -> DispatchError {
        unknown_tool(name, self.tools.keys().map(String::as_str))
    }
}

/// One call under `options`, in its `tooldef.dispatch` span: the path a [`Toolbox`] and a
/// registry [`Snapshot`](crate::Snapshot) share. `executor` is the tool the call names, or the
/// unknown-tool error to answer with.
pub(crate) fn dispatch<'a>(
    executor: Result<&'a Arc<dyn Executor>, DispatchError>,
    call: &'a ToolCall,
    options: &'a CallOptions,
) -> impl Future<Output = ToolResult> + Send + 'a {
    let span = tracing::info_span!(
        "tooldef.dispatch",
        tool = %call.name,
        call_id = %call.id,
        outcome = tracing::field::Empty,
        repairs = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
    );
    let record = span.clone();
    async move {
        let start = Instant::now();
        let result = match executor {
            Ok(executor) => run(executor, call, options).await,
            Err(unknown) => unknown.to_result(call),
        };
        if !result.repairs.is_empty() {
            record.record("repairs", tracing::field::display(Repairs(&result.repairs)));
        }
        record.record("outcome", result.outcome.name());
        record.record("duration_ms", start.elapsed().as_secs_f64() * 1000.0);
        result
    }
    .instrument(span)
}

async fn run(executor: &Arc<dyn Executor>, call: &ToolCall, options: &CallOptions) -> ToolResult {
    let repaired = options.repair.then(|| repair(executor.descriptor(), call)).flatten();
    let Some((repaired, repairs)) = repaired else {
        return run_on(executor, call, options).await;
    };
    let mut result = run_on(executor, &repaired, options).await;
    result.repairs = repairs;
    result
}

async fn run_on(
    executor: &Arc<dyn Executor>,
    call: &ToolCall,
    options: &CallOptions,
) -> ToolResult {
    let cancelled =
        || DispatchError::new(call.name.clone(), DispatchErrorKind::Cancelled).to_result(call);
    if options.cancel.as_ref().is_some_and(|t| t.is_cancelled()) {
        return cancelled();
    }
    // An executor may panic before it returns its future, or while it is polled.
    let future = match catch_unwind(|| executor.execute(call)) {
        Ok(future) => future,
        Err(panic) => return panicked(call, &call.name, panic),
    };
    let mut future = CatchUnwind::new(future);
    let mut sleep = options.timeout.map(|d| options.sleep(d));
    let mut cancel = options.cancel.as_ref().map(|t| t.cancelled());
    poll_fn(|cx| {
        if let Some(c) = cancel.as_mut()
            && std::pin::Pin::new(c).poll(cx).is_ready()
        {
            return Poll::Ready(cancelled());
        }
        if let Poll::Ready(out) = std::pin::Pin::new(&mut future).poll(cx) {
            return Poll::Ready(match out {
                Ok(result) => result,
                Err(panic) => panicked(call, &call.name, panic),
            });
        }
        if let (Some(s), Some(after)) = (sleep.as_mut(), options.timeout)
            && s.as_mut().poll(cx).is_ready()
        {
            let error =
                DispatchError::new(call.name.clone(), DispatchErrorKind::TimedOut { after });
            return Poll::Ready(error.to_result(call));
        }
        Poll::Pending
    })
    .await
}

/// [`Executor::check_arguments`] of the call as [`Toolbox::call`] runs it (repaired).
pub(crate) fn check_repaired(
    executor: &Arc<dyn Executor>,
    call: &ToolCall,
) -> Result<(), DispatchError> {
    match repair(executor.descriptor(), call) {
        Some((repaired, _)) => executor.check_arguments(&repaired.arguments),
        None => executor.check_arguments(&call.arguments),
    }
}

/// The repairs of one call, as the span shows them (`/filter: a JSON string read as ...`).
struct Repairs<'a>(&'a [crate::dispatch::Repair]);

impl std::fmt::Display for Repairs<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, r) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

/// The error for a call to a tool that is not there, naming the ones that are (in the order
/// given) and a close match: one message for the `Toolbox` and the registry.
pub(crate) fn unknown_tool<'a>(
    name: &str,
    available: impl Iterator<Item = &'a str> + Clone,
) -> DispatchError {
    DispatchError::new(
        name.to_owned(),
        DispatchErrorKind::UnknownTool {
            available: available.clone().map(str::to_owned).collect(),
            suggestion: closest(name, available).map(str::to_owned),
        },
    )
}

impl std::fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolbox").field("tools", &self.tools.keys()).finish()
    }
}

impl FromIterator<Arc<dyn Executor>> for Toolbox {
    fn from_iter<I: IntoIterator<Item = Arc<dyn Executor>>>(iter: I) -> Self {
        let mut toolbox = Toolbox::new();
        toolbox.extend(iter);
        toolbox
    }
}

impl Extend<Arc<dyn Executor>> for Toolbox {
    fn extend<I: IntoIterator<Item = Arc<dyn Executor>>>(&mut self, iter: I) {
        for executor in iter {
            self.insert(executor);
        }
    }
}
