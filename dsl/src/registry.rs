//! The [`ToolRegistry`]: which tools exist right now, where each came from ([`Origin`]), and the
//! [`Overrides`] applied on top.
//!
//! Owns registration, shadowing, stripping and override application. It does not read files
//! (the workspace loader drives it through [`ToolRegistry::apply`] with a [`Batch`]) and does not
//! decode arguments (executors do).
//!
//! Rules, per tool name (the *registered* name, as the tool's executor reports it):
//! - `register` is last-write-wins. Core, plugin, skill and MCP registrations of one name stack
//!   by origin: the last written is active, and unregistering it reveals the one below.
//! - A workspace entry shadows them all: the stack is kept (stashed) and comes back when the
//!   workspace entry is unregistered.
//! - [`strip`](ToolRegistry::strip) (what a `.removed` file does) hides the non-workspace stack
//!   until [`unstrip`](ToolRegistry::unstrip). A strip is a standing rule for the name, not a
//!   one-time removal: stripping a name no tool has is a logged no-op for the listing (nothing
//!   disappears), and a tool registered under the name while it is stripped is hidden at once
//!   (a core tool is kept, stashed, and logged; an extension is skipped). So what a
//!   `.removed` file means never depends on whether the workspace or the application started
//!   first.
//! - Plugin, skill and MCP registrations of a workspace-owned or stripped name are warned
//!   (`tracing`) and skipped. Core registrations are kept (stashed) so an upgrade is not lost.
//! - A [`Batch`] is validated whole before any change: a name registered twice in the batch, a
//!   descriptor that breaks a rule, or a conflicting owner (a plugin, skill or MCP registration
//!   of a name whose active entry comes from a *different* one of those three origins) rejects
//!   the whole batch and leaves the registry unchanged. A single `register` is last-write-wins
//!   and never conflicts.
//! - Overrides stay applied: later registrations of a name get that name's overrides too, and
//!   an override of an absent tool waits for the tool (see [`ToolRegistry::apply_overrides`]).
//! - A rename by an override moves the tool: it is listed and called by its new name only, and
//!   a rename onto a name any other active tool is registered under (or renamed to) fails.
//!
//! Readers take a [`Snapshot`] (an `Arc`, cheap to clone) that never changes under them; each
//! write builds a new snapshot and swaps it in. Listing order is **sorted by name** (byte order of
//! the name the model sees), so it does not depend on registration or reconcile order.
//!
//! The registry is a prompt-assembly [`Contributor`]: registered with an
//! [`Assembler`](crate::assembly::Assembler), it contributes the current snapshot's tools, as the
//! model must see them (after overrides), to every assembly. Each snapshot hands out the same
//! `Arc` per tool on every assembly, so cached renderings keep hitting until the next write.
//!
//! ```
//! use std::sync::Arc;
//! use tooldef::{
//!     BoxFuture, Executor, Origin, Override, Overrides, ToolCall, ToolDescriptor, ToolRegistry,
//!     ToolResult,
//! };
//!
//! struct Search(ToolDescriptor);
//! impl Executor for Search {
//!     fn descriptor(&self) -> &ToolDescriptor { &self.0 }
//!     fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
//!         Box::pin(async move { ToolResult::success(call, "found".into()) })
//!     }
//! }
//!
//! let registry = ToolRegistry::new();
//! let core = ToolDescriptor::builder("search").description("Search the web.").build().unwrap();
//! registry.register(Arc::new(Search(core)), Origin::Core).unwrap();
//! let report = registry.apply_overrides(
//!     Overrides::new()
//!         .for_name("search", Override::set_namespace("web"))
//!         .for_name("not_installed", Override::title("Skipped, not an error")),
//! );
//! assert_eq!(report.applied, ["search"]);
//! assert_eq!(report.skipped, ["not_installed"]);
//!
//! let snapshot = registry.snapshot();
//! let names: Vec<_> = snapshot.entries().iter().map(|e| e.name().as_str()).collect();
//! assert_eq!(names, ["web__search"]);
//! assert_eq!(snapshot.get("web__search").unwrap().registered_name(), "search");
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock};

use indexmap::IndexMap;

use crate::assembly::{AssemblyContext, Contribution, Contributor};
use crate::descriptor::{ToolDescriptor, ToolName};
use crate::descriptor_rules::DescriptorError;
use crate::dispatch;
use crate::overrides::{
    OverriddenExecutor, OverrideError, OverrideErrorKind, OverrideReport, Overrides, Patched,
};
use crate::tool::{Executor, ToolCall, ToolResult};

/// Where a registered tool came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// Built into the application.
    Core,
    /// A file in the workspace `tools/` directory; shadows the others.
    Workspace,
    /// A plugin.
    Plugin,
    /// A skill.
    Skill,
    /// An MCP server.
    Mcp,
}

impl Origin {
    /// The lowercase name (`core`, `workspace`, `plugin`, `skill`, `mcp`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Origin::Core => "core",
            Origin::Workspace => "workspace",
            Origin::Plugin => "plugin",
            Origin::Skill => "skill",
            Origin::Mcp => "mcp",
        }
    }

    /// Plugin, skill or MCP: the origins that yield to workspace entries and stripped names.
    pub const fn is_extension(self) -> bool {
        matches!(self, Origin::Plugin | Origin::Skill | Origin::Mcp)
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What happened to one registration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Registered {
    /// The entry is now the active tool of its name.
    Active,
    /// The entry is kept but hidden (a core tool under a workspace entry or a strip).
    Stashed,
    /// The entry was skipped with a warning (an extension onto a workspace-owned or stripped
    /// name).
    Skipped,
}

/// Why a registration or batch was rejected. The registry is unchanged.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// The descriptor breaks a rule.
    #[error("cannot register tool: {0}")]
    Invalid(DescriptorError),
    /// The batch registers one name twice.
    #[error("the batch registers tool `{name}` twice")]
    DuplicateInBatch {
        /// The name.
        name: String,
    },
    /// The batch registers a name another extension origin owns.
    #[error("the batch registers tool `{name}` as {origin}, but it is owned by {owner}")]
    ConflictingOwner {
        /// The name.
        name: String,
        /// The origin the batch asked for.
        origin: Origin,
        /// The origin of the active entry.
        owner: Origin,
    },
}

/// One tool as readers see it: the descriptor the model is shown, the executor to call (already
/// wrapped when overrides apply), and where it came from.
#[derive(Clone)]
pub struct RegistryEntry {
    registered: ToolName,
    executor: Arc<dyn Executor>,
    origin: Origin,
    overridden: bool,
    shared: OnceLock<Arc<ToolDescriptor>>,
}

impl RegistryEntry {
    /// The name the model sees and calls (after overrides).
    pub fn name(&self) -> &ToolName {
        &self.descriptor().name
    }

    /// The name the tool was registered under (differs from [`name`](Self::name) after a rename).
    pub fn registered_name(&self) -> &ToolName {
        &self.registered
    }

    /// The descriptor (after overrides).
    pub fn descriptor(&self) -> &ToolDescriptor {
        self.executor.descriptor()
    }

    /// The descriptor (after overrides) as a shared `Arc`: the same one every time for this
    /// snapshot, so renderings cached by address are reused (what the registry contributes to
    /// an assembly).
    pub fn shared_descriptor(&self) -> Arc<ToolDescriptor> {
        Arc::clone(self.shared.get_or_init(|| Arc::new(self.descriptor().clone())))
    }

    /// The executor to call (honours overrides: renames, hidden parameters).
    pub fn executor(&self) -> &Arc<dyn Executor> {
        &self.executor
    }

    /// Where the tool came from.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// Whether overrides changed this tool.
    pub fn is_overridden(&self) -> bool {
        self.overridden
    }
}

impl fmt::Debug for RegistryEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegistryEntry")
            .field("name", self.name())
            .field("registered", &self.registered)
            .field("origin", &self.origin)
            .field("overridden", &self.overridden)
            .finish()
    }
}

/// A consistent, immutable view of the registry: entries sorted by name.
#[derive(Debug, Default)]
pub struct Snapshot {
    entries: Vec<RegistryEntry>,
    version: u64,
}

impl Snapshot {
    /// The tool the model calls `name`, if any.
    pub fn get(&self, name: &str) -> Option<&RegistryEntry> {
        self.entries
            .binary_search_by(|e| e.name().as_str().cmp(name))
            .ok()
            .map(|i| &self.entries[i])
    }

    /// Every entry, sorted by name.
    pub fn entries(&self) -> &[RegistryEntry] {
        &self.entries
    }

    /// Every descriptor, sorted by name.
    pub fn descriptors(&self) -> impl ExactSizeIterator<Item = &ToolDescriptor> + '_ {
        self.entries.iter().map(RegistryEntry::descriptor)
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no tools.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Counts writes: every change to the registry publishes a snapshot with a higher version.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Calls the tool `call.name` (the name the model sees); an unknown tool is an error result
    /// naming the known ones, with the same text as [`Toolbox::call`](crate::Toolbox::call).
    /// Arguments are repaired as [`Toolbox::call`](crate::Toolbox::call) repairs them (see
    /// [`Repair`](crate::dispatch::Repair)); the call runs in a `tooldef.dispatch` span (see
    /// [`call_with`](Self::call_with)).
    pub fn call<'a>(
        &'a self,
        call: &'a ToolCall,
    ) -> impl std::future::Future<Output = ToolResult> + Send + 'a {
        self.call_with(call, &crate::dispatch::PLAIN)
    }

    /// [`call`](Self::call) under `options`, exactly as
    /// [`Toolbox::call_with`](crate::Toolbox::call_with) runs it: a call that outlives the
    /// timeout or whose cancellation token fires is stopped and answered with an error result
    /// whose [`outcome`](ToolResult::outcome) is [`TimedOut`](crate::Outcome::TimedOut) or
    /// [`Cancelled`](crate::Outcome::Cancelled), in the same `tooldef.dispatch` span.
    pub fn call_with<'a>(
        &'a self,
        call: &'a ToolCall,
        options: &'a crate::dispatch::CallOptions,
    ) -> impl std::future::Future<Output = ToolResult> + Send + 'a {
        let executor = self.get(&call.name).map(RegistryEntry::executor).ok_or_else(|| {
            let known = self.entries.iter().map(|e| e.name().as_str());
            crate::dispatch::unknown_tool(&call.name, known)
        });
        crate::dispatch::dispatch(executor, call, options)
    }

    /// Calls every call of one model turn, at most
    /// [`CallOptions::concurrency`](crate::dispatch::CallOptions::concurrency) at a time, each
    /// under `options` as in [`call_with`](Self::call_with); the results come in the order of
    /// `calls`. As [`Toolbox::call_all`](crate::Toolbox::call_all): the calls share the polling
    /// task, so a tool that blocks its thread holds the others up.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use std::time::Duration;
    /// use tooldef::dispatch::{CallOptions, DynamicTool, block_on};
    /// use tooldef::{Origin, Outcome, ToolCall, ToolDescriptor, ToolRegistry};
    ///
    /// let registry = ToolRegistry::new();
    /// let echo = ToolDescriptor::builder("echo").build().unwrap();
    /// let stuck = ToolDescriptor::builder("stuck").build().unwrap();
    /// registry.register(Arc::new(DynamicTool::new_sync(echo, Ok)), Origin::Core).unwrap();
    /// let never = DynamicTool::new(stuck, |_| Box::pin(std::future::pending()));
    /// registry.register(Arc::new(never), Origin::Mcp).unwrap();
    ///
    /// let calls = [
    ///     ToolCall::new("1", "stuck", serde_json::json!({})),
    ///     ToolCall::new("2", "echo", serde_json::json!({})),
    /// ];
    /// let options = CallOptions::new().timeout(Duration::from_millis(20)).concurrency(2);
    /// let snapshot = registry.snapshot();
    /// let results = block_on(snapshot.call_all(&calls, &options));
    /// let outcomes: Vec<Outcome> = results.iter().map(|r| r.outcome).collect();
    /// assert_eq!(outcomes, [Outcome::TimedOut, Outcome::Success]);
    /// assert_eq!(results[0].text(), "stuck did not finish within 20ms and was stopped");
    /// ```
    pub fn call_all<'a>(
        &'a self,
        calls: &'a [ToolCall],
        options: &'a crate::dispatch::CallOptions,
    ) -> impl std::future::Future<Output = Vec<ToolResult>> + Send + 'a {
        crate::dispatch::BoundedJoin::new(
            calls.len(),
            options.concurrency_value(),
            move |i| -> crate::BoxFuture<'a, ToolResult> {
                Box::pin(self.call_with(&calls[i], options))
            },
        )
    }

    /// [`call`](Self::call), driven to completion on the current thread (for sync callers and
    /// tests; tools that need an async runtime's reactor must be called from that runtime).
    pub fn call_blocking(&self, call: &ToolCall) -> ToolResult {
        dispatch::block_on(self.call(call))
    }

    /// Every tool of the snapshot (sorted by name) rendered for `renderer` through `cache`
    /// ([`RenderCache::get_executor_set`](crate::RenderCache::get_executor_set)): rendered on
    /// the first call, one lookup afterwards for this snapshot and any later one that holds the
    /// same executors.
    ///
    /// # Errors
    ///
    /// The renderer's set-level error, or the first tool that cannot be rendered.
    pub fn rendered<R: crate::Renderer + ?Sized>(
        &self,
        renderer: &R,
        cache: &crate::RenderCache,
        policy: crate::LossPolicy,
    ) -> Result<crate::RenderedSet, crate::RenderError> {
        cache.get_executor_set(renderer, self.entries.iter().map(RegistryEntry::executor), policy)
    }

    /// Decodes and checks the arguments of `call` for the tool `call.name`, without running it
    /// (see [`Executor::check_arguments`]); the errors are those [`call`](Self::call) would
    /// answer with.
    ///
    /// # Errors
    ///
    /// A [`DispatchError`](crate::DispatchError) of kind
    /// [`UnknownTool`](crate::DispatchErrorKind::UnknownTool), or the tool's
    /// [`check_arguments`](Executor::check_arguments) error.
    pub fn check(&self, call: &ToolCall) -> Result<(), crate::DispatchError> {
        match self.get(&call.name) {
            Some(e) => dispatch::check_repaired(&e.executor, call),
            None => {
                let known = self.entries.iter().map(|e| e.name().as_str());
                Err(dispatch::unknown_tool(&call.name, known))
            }
        }
    }
}

impl Contributor for Snapshot {
    /// Contributes every tool of the snapshot, as the model must see it (after overrides).
    fn contribute(&self, _cx: &AssemblyContext, out: &mut Contribution) {
        out.tools(self.entries.iter().map(RegistryEntry::shared_descriptor));
    }
}

impl Contributor for ToolRegistry {
    /// Contributes the tools of the current snapshot (see [`Snapshot`]'s contribution).
    fn contribute(&self, cx: &AssemblyContext, out: &mut Contribution) {
        self.snapshot().contribute(cx, out);
    }
}

/// Changes applied together by [`ToolRegistry::apply`], validated whole first.
#[derive(Default)]
#[must_use = "a batch does nothing until applied"]
pub struct Batch {
    ops: Vec<Op>,
}

enum Op {
    Register(Arc<dyn Executor>, Origin),
    Unregister(String, Origin),
    Strip(String),
    Unstrip(String),
}

impl fmt::Debug for Batch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_list();
        for op in &self.ops {
            match op {
                Op::Register(e, o) => list.entry(&("register", e.descriptor().name.as_str(), o)),
                Op::Unregister(n, o) => list.entry(&("unregister", n.as_str(), o)),
                Op::Strip(n) => list.entry(&("strip", n.as_str())),
                Op::Unstrip(n) => list.entry(&("unstrip", n.as_str())),
            };
        }
        list.finish()
    }
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Self {
        Batch::default()
    }

    /// Registers `executor` under its descriptor's name.
    pub fn register(mut self, executor: Arc<dyn Executor>, origin: Origin) -> Self {
        self.ops.push(Op::Register(executor, origin));
        self
    }

    /// Removes the entry of `origin` registered as `name`.
    pub fn unregister(mut self, name: impl Into<String>, origin: Origin) -> Self {
        self.ops.push(Op::Unregister(name.into(), origin));
        self
    }

    /// Strips `name` (see [`ToolRegistry::strip`]).
    pub fn strip(mut self, name: impl Into<String>) -> Self {
        self.ops.push(Op::Strip(name.into()));
        self
    }

    /// Un-strips `name`.
    pub fn unstrip(mut self, name: impl Into<String>) -> Self {
        self.ops.push(Op::Unstrip(name.into()));
        self
    }

    /// The number of operations.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether the batch is empty.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

/// The registrations of one name.
#[derive(Default, Clone)]
struct Slot {
    /// Non-workspace entries by origin, in write order (the last one is on top).
    stack: IndexMap<Origin, Arc<dyn Executor>>,
    workspace: Option<Arc<dyn Executor>>,
    stripped: bool,
}

impl Slot {
    fn active(&self) -> Option<(Origin, &Arc<dyn Executor>)> {
        if let Some(w) = &self.workspace {
            return Some((Origin::Workspace, w));
        }
        if self.stripped {
            return None;
        }
        self.stack.last().map(|(o, e)| (*o, e))
    }

    fn is_empty(&self) -> bool {
        self.stack.is_empty() && self.workspace.is_none() && !self.stripped
    }
}

#[derive(Default, Clone)]
struct State {
    slots: BTreeMap<String, Slot>,
    overrides: Overrides,
    version: u64,
}

impl State {
    fn register(&mut self, executor: Arc<dyn Executor>, origin: Origin) -> Registered {
        let name = executor.descriptor().name.to_string();
        let slot = self.slots.entry(name.clone()).or_default();
        if origin.is_extension() && (slot.workspace.is_some() || slot.stripped) {
            let why = if slot.workspace.is_some() { "workspace-owned" } else { "stripped" };
            tracing::warn!(tool = %name, %origin, "registration of a {why} tool skipped");
            return Registered::Skipped;
        }
        if origin == Origin::Workspace {
            slot.workspace = Some(executor);
            return Registered::Active;
        }
        slot.stack.shift_remove(&origin);
        slot.stack.insert(origin, executor);
        if slot.workspace.is_some() {
            Registered::Stashed
        } else if slot.stripped {
            tracing::info!(tool = %name, %origin, "registered under a stripped name; hidden until unstripped");
            Registered::Stashed
        } else {
            Registered::Active
        }
    }

    fn unregister(&mut self, name: &str, origin: Origin) -> bool {
        let Some(slot) = self.slots.get_mut(name) else { return false };
        let removed = if origin == Origin::Workspace {
            slot.workspace.take().is_some()
        } else {
            slot.stack.shift_remove(&origin).is_some()
        };
        if slot.is_empty() {
            self.slots.remove(name);
        }
        removed
    }

    fn set_stripped(&mut self, name: &str, stripped: bool) -> bool {
        let slot = self.slots.entry(name.to_owned()).or_default();
        let changed = slot.stripped != stripped;
        if changed && slot.stack.is_empty() {
            let what = if stripped { "stripped" } else { "unstripped" };
            tracing::info!(tool = %name, "{what} a name no tool has: nothing listed changes");
        }
        slot.stripped = stripped;
        if slot.is_empty() {
            self.slots.remove(name);
        }
        changed
    }

    /// Builds the readers' view; failures of stored overrides are returned by registered name.
    fn build(&self) -> (Snapshot, BTreeMap<String, OverrideError>) {
        let mut failures = BTreeMap::new();
        let active: Vec<(&String, Origin, &Arc<dyn Executor>)> =
            self.slots.iter().filter_map(|(n, s)| s.active().map(|(o, e)| (n, o, e))).collect();
        let mut taken: BTreeSet<String> = active.iter().map(|(n, ..)| (*n).clone()).collect();
        let mut entries = Vec::with_capacity(active.len());
        for (name, origin, executor) in active {
            let registered = executor.descriptor().name.clone();
            let mut entry = RegistryEntry {
                registered,
                executor: executor.clone(),
                origin,
                overridden: false,
                shared: OnceLock::new(),
            };
            if self.overrides.patches_for(name).next().is_some() {
                let patched =
                    self.overrides.patch(name, Patched::new(executor.descriptor())).and_then(|p| {
                        let new = p.descriptor.name.as_str();
                        if new != name.as_str() && !taken.insert(new.to_owned()) {
                            return Err(OverrideError::new(
                                name.clone(),
                                OverrideErrorKind::NameTaken { name: new.to_owned() },
                            ));
                        }
                        Ok(p)
                    });
                match patched {
                    Ok(p) => {
                        entry.executor =
                            Arc::new(OverriddenExecutor::from_patched(executor.clone(), p));
                        entry.overridden = true;
                    }
                    Err(e) => {
                        failures.insert(name.clone(), e);
                    }
                }
            }
            entries.push(entry);
        }
        entries.sort_by(|a, b| a.name().cmp(b.name()));
        (Snapshot { entries, version: self.version }, failures)
    }
}

/// The set of tools an application offers right now. See the module docs for the rules.
///
/// Cheap to share (`Arc<ToolRegistry>`); writers are serialized, readers never block on them
/// beyond an `Arc` clone.
pub struct ToolRegistry {
    state: Mutex<State>,
    published: RwLock<Arc<Snapshot>>,
}

impl Default for ToolRegistry {
    fn default() -> Self {
        ToolRegistry::new()
    }
}

impl fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolRegistry").field("tools", &self.snapshot().entries).finish()
    }
}

impl ToolRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        ToolRegistry { state: Mutex::new(State::default()), published: RwLock::default() }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A writer never panics while holding the lock, so poisoning cannot leave a half-written
        // state; recover the guard rather than propagating a panic.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn publish(&self, state: &mut State) -> BTreeMap<String, OverrideError> {
        state.version += 1;
        let (snapshot, failures) = state.build();
        *self.published.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(snapshot);
        failures
    }

    fn publish_warn(&self, state: &mut State) {
        for (tool, error) in self.publish(state) {
            tracing::warn!(%tool, %error, "override failed; tool served as registered");
        }
    }

    /// The current view; it never changes, later writes publish a new one.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.published.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The tool the model calls `name`, from the current snapshot.
    pub fn get(&self, name: &str) -> Option<RegistryEntry> {
        self.snapshot().get(name).cloned()
    }

    /// Every tool of the current snapshot, sorted by name.
    pub fn entries(&self) -> Vec<RegistryEntry> {
        self.snapshot().entries.clone()
    }

    /// Registers `executor` under its descriptor's name (last write wins; see the module docs).
    ///
    /// # Errors
    ///
    /// [`RegistryError::Invalid`] when the descriptor breaks a rule; nothing changes.
    pub fn register(
        &self,
        executor: Arc<dyn Executor>,
        origin: Origin,
    ) -> Result<Registered, RegistryError> {
        executor.descriptor().validate().map_err(RegistryError::Invalid)?;
        let mut state = self.lock();
        let outcome = state.register(executor, origin);
        if outcome != Registered::Skipped {
            self.publish_warn(&mut state);
        }
        Ok(outcome)
    }

    /// Removes the entry of `origin` registered as `name`; whether there was one. Removing a
    /// workspace entry restores the stashed one; removing the top of the stack reveals the one
    /// below.
    pub fn unregister(&self, name: &str, origin: Origin) -> bool {
        let mut state = self.lock();
        let removed = state.unregister(name, origin);
        if removed {
            self.publish_warn(&mut state);
        }
        removed
    }

    /// Hides the non-workspace entries of `name` (a `.removed` file) until
    /// [`unstrip`](Self::unstrip), including those registered later: a core tool registered
    /// while the name is stripped is stashed, an extension skipped. Stripping a name no tool has
    /// is a logged no-op for the listing, but the rule stands. Returns whether the name's strip
    /// state changed.
    pub fn strip(&self, name: &str) -> bool {
        self.set_stripped(name, true)
    }

    /// Undoes [`strip`](Self::strip); whether anything changed.
    pub fn unstrip(&self, name: &str) -> bool {
        self.set_stripped(name, false)
    }

    fn set_stripped(&self, name: &str, stripped: bool) -> bool {
        let mut state = self.lock();
        let changed = state.set_stripped(name, stripped);
        if changed {
            self.publish_warn(&mut state);
        }
        changed
    }

    /// Whether `name` is stripped.
    pub fn is_stripped(&self, name: &str) -> bool {
        self.lock().slots.get(name).is_some_and(|s| s.stripped)
    }

    /// The workspace entry registered as `name`, stashed or not (what a reconcile checks its
    /// applied state against).
    pub(crate) fn workspace_entry(&self, name: &str) -> Option<Arc<dyn Executor>> {
        self.lock().slots.get(name).and_then(|s| s.workspace.clone())
    }

    /// The origins registered under `name`, active first, then the stashed ones from the most
    /// recently written down.
    pub fn origins(&self, name: &str) -> Vec<Origin> {
        let state = self.lock();
        let Some(slot) = state.slots.get(name) else { return Vec::new() };
        let mut out = Vec::new();
        if slot.workspace.is_some() {
            out.push(Origin::Workspace);
        }
        out.extend(slot.stack.keys().rev().copied());
        out
    }

    /// Applies a batch: validated whole, then applied in order and published once.
    ///
    /// # Errors
    ///
    /// A duplicate registration in the batch, an invalid descriptor or a conflicting owner (see
    /// the module docs); the registry is then unchanged.
    pub fn apply(&self, batch: Batch) -> Result<Vec<(ToolName, Registered)>, RegistryError> {
        let mut state = self.lock();
        let mut seen = BTreeSet::new();
        for op in &batch.ops {
            let Op::Register(executor, origin) = op else { continue };
            let d = executor.descriptor();
            d.validate().map_err(RegistryError::Invalid)?;
            let name = d.name.as_str();
            if !seen.insert(name) {
                return Err(RegistryError::DuplicateInBatch { name: name.to_owned() });
            }
            if origin.is_extension()
                && let Some((owner, _)) = state.slots.get(name).and_then(Slot::active)
                && owner.is_extension()
                && owner != *origin
            {
                return Err(RegistryError::ConflictingOwner {
                    name: name.to_owned(),
                    origin: *origin,
                    owner,
                });
            }
        }
        let mut outcomes = Vec::new();
        let mut changed = false;
        for op in batch.ops {
            match op {
                Op::Register(executor, origin) => {
                    let name = executor.descriptor().name.clone();
                    let outcome = state.register(executor, origin);
                    changed |= outcome != Registered::Skipped;
                    outcomes.push((name, outcome));
                }
                Op::Unregister(name, origin) => changed |= state.unregister(&name, origin),
                Op::Strip(name) => changed |= state.set_stripped(&name, true),
                Op::Unstrip(name) => changed |= state.set_stripped(&name, false),
            }
        }
        if changed {
            self.publish_warn(&mut state);
        }
        Ok(outcomes)
    }

    /// Adds `overrides` after the ones already applied, and reports per tool.
    ///
    /// Keys are registered names. A key with no active tool is warned, reported as skipped and
    /// kept: it applies when the tool is registered. A tool whose patches fail (any of them, or
    /// a rename onto a taken name) is reported as failed and the new entries for it are
    /// dropped, so it keeps its earlier overrides. Other tools are untouched.
    pub fn apply_overrides(&self, overrides: Overrides) -> OverrideReport {
        let mut state = self.lock();
        let mut report = OverrideReport::default();
        let mut trial = state.clone();
        trial.overrides.extend(overrides.clone());
        let (_, failures) = trial.build();
        let mut kept = Overrides::new();
        for name in overrides.names() {
            let active = state.slots.get(name).is_some_and(|s| s.active().is_some());
            if let Some(error) = failures.get(name) {
                tracing::warn!(tool = %name, %error, "override failed; tool left as it was");
                report.failed.push(error.clone());
                continue;
            }
            for patch in overrides.patches_for(name) {
                kept.push(name, patch.clone());
            }
            if active {
                report.applied.push(name.to_owned());
            } else {
                tracing::warn!(tool = %name, "override of an absent tool skipped");
                report.skipped.push(name.to_owned());
            }
        }
        state.overrides.extend(kept);
        self.publish_warn(&mut state);
        report
    }

    /// Removes every override; tools are served as registered again.
    pub fn clear_overrides(&self) {
        let mut state = self.lock();
        state.overrides = Overrides::new();
        self.publish_warn(&mut state);
    }
}
