//! The workspace tool directory (`tools/`), reconciled from disk into a registry without a
//! restart.
//!
//! [`Workspace::reconcile`] derives the desired state from the directory and applies only the
//! difference, as one batch, so readers of the registry never see half of it. Files:
//!
//! - The file stem is the tool name, verbatim: it must match `^[a-zA-Z0-9_-]{1,64}$`; any other
//!   stem is logged and skipped, never renamed. A `name` inside a spec is ignored.
//! - `NAME.json` is a spec. Alone it is declarative: calling it returns the error result
//!   "workspace tool NAME has no implementation". With a `"command"` (an argv array, no shell)
//!   it is executable: the arguments JSON goes to its stdin and its stdout is the result, within
//!   [`WorkspaceOptions::command_timeout`] and [`WorkspaceOptions::max_output`].
//! - `NAME.removed` strips the core tool `NAME`; the tool comes back when the sentinel goes. The
//!   sentinel is a standing rule, whatever starts first: with no tool of that name registered it
//!   is a logged no-op (nothing listed changes; it is reported in
//!   [`ReconcileReport::sentinels_without_tool`], not as stripped), and a tool registered under
//!   the name later, while the sentinel is there, stays hidden (see [`crate::registry`]).
//! - A spec named like a core tool replaces it; the core tool is restored when the file goes.
//! - A stem with both a spec and a `.removed` tears both down: the core tool (if any) stays live.
//! - Dot-files, directories, other non-regular files and other extensions are ignored.
//!   Symlinks are followed only to regular files inside the directory.
//! - **Precedence** when several files share a stem and a kind (`a.json` and `a.JSON`): the
//!   lowercase extension wins, then the byte-wise smaller file name; the others are warned and
//!   reported as [`SkipReason::Shadowed`].
//! - A file that cannot be used (too large, unparsable, rewritten while being read, ...) is
//!   skipped and reported; if an earlier version of it is live, that version stays live. One bad
//!   file never blocks the others.
//!
//! Unchanged files are not re-read: each spec is cached by its `stat` identity (size,
//! modification time and, on unix, inode and change time), so a reconcile that finds nothing
//! new costs one directory read and one `stat` per file, plus one look-up in the target per
//! file to confirm that what was applied is still in effect: a workspace tool unregistered (or
//! a name unstripped) behind the workspace's back is applied again. Concurrent calls share one
//! scan.
//!
//! Owns the directory scan, the spec cache and the command runner; the registry's rules
//! (stash, strip, batch validation) belong to [`crate::registry`], JSON import to
//! [`crate::spec`].

mod command;
mod load;
mod scan;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::fs::File;
use std::future::Future;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use serde_json::Value;

use crate::descriptor::{NameError, ToolDescriptor, ToolName};
use crate::dispatch::{Validator, prepare_arguments};
use crate::registry::{Batch, Origin, ToolRegistry};
use crate::spec::Spec;
use crate::tool::{BoxFuture, Content, Executor, ToolCall, ToolResult};

pub use command::CommandFailure;
use scan::{Entry, FileKey, Kind};

/// Limits and hooks of a [`Workspace`].
#[derive(Clone)]
pub struct WorkspaceOptions {
    max_file_size: u64,
    command_timeout: Duration,
    max_output: usize,
    scan_hook: Option<Arc<dyn Fn() + Send + Sync>>,
}

impl Default for WorkspaceOptions {
    fn default() -> Self {
        WorkspaceOptions {
            max_file_size: 1024 * 1024,
            command_timeout: Duration::from_secs(30),
            max_output: 1024 * 1024,
            scan_hook: None,
        }
    }
}

impl fmt::Debug for WorkspaceOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkspaceOptions")
            .field("max_file_size", &self.max_file_size)
            .field("command_timeout", &self.command_timeout)
            .field("max_output", &self.max_output)
            .field("scan_hook", &self.scan_hook.is_some())
            .finish()
    }
}

impl WorkspaceOptions {
    /// Largest spec file read, in bytes (default 1 MiB); larger files are refused.
    pub fn max_file_size(mut self, bytes: u64) -> Self {
        self.max_file_size = bytes;
        self
    }

    /// Deadline for one run of a `command` tool (default 30 s); past it the process is killed.
    pub fn command_timeout(mut self, timeout: Duration) -> Self {
        self.command_timeout = timeout;
        self
    }

    /// Most bytes a `command` tool may write to stdout (default 1 MiB); past it the process is
    /// killed.
    pub fn max_output(mut self, bytes: usize) -> Self {
        self.max_output = bytes;
        self
    }

    /// A function called at the start of every directory scan (instrumentation and tests).
    pub fn scan_hook(mut self, hook: impl Fn() + Send + Sync + 'static) -> Self {
        self.scan_hook = Some(Arc::new(hook));
        self
    }
}

/// One change a reconcile asks of the registry.
#[derive(Clone)]
#[non_exhaustive]
pub enum WorkspaceOp {
    /// Register (or replace) the workspace tool of the executor's descriptor name, shadowing a
    /// core tool of that name (stashed until [`WorkspaceOp::Unregister`]).
    Register(Arc<dyn Executor>),
    /// Remove the workspace tool and restore the stashed core tool, if any.
    Unregister(ToolName),
    /// Strip the core tool of that name, now or when one is registered later (a logged no-op
    /// for the listing while there is none).
    Strip(ToolName),
    /// Restore a stripped core tool.
    Unstrip(ToolName),
}

impl WorkspaceOp {
    /// The tool the change is about.
    pub fn name(&self) -> &ToolName {
        match self {
            WorkspaceOp::Register(e) => &e.descriptor().name,
            WorkspaceOp::Unregister(n) | WorkspaceOp::Strip(n) | WorkspaceOp::Unstrip(n) => n,
        }
    }
}

impl fmt::Debug for WorkspaceOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorkspaceOp::Register(e) => {
                f.debug_tuple("Register").field(&e.descriptor().name).finish()
            }
            WorkspaceOp::Unregister(n) => f.debug_tuple("Unregister").field(n).finish(),
            WorkspaceOp::Strip(n) => f.debug_tuple("Strip").field(n).finish(),
            WorkspaceOp::Unstrip(n) => f.debug_tuple("Unstrip").field(n).finish(),
        }
    }
}

/// What a reconcile applies its changes to: the registry.
pub trait WorkspaceTarget {
    /// Applies `ops` as one batch: all of them, or (on error) none, and readers see either the
    /// state before or the state after.
    ///
    /// # Errors
    ///
    /// A message saying why the batch was refused.
    fn apply_workspace(&self, ops: &[WorkspaceOp]) -> Result<(), String>;

    /// Whether `op`, applied by an earlier reconcile, is still in effect (the workspace tool is
    /// still the one registered, the name still stripped). A reconcile applies again what is
    /// not, even when its file is unchanged. The default trusts the target: always `true`.
    fn in_effect(&self, op: &WorkspaceOp) -> bool {
        let _ = op;
        true
    }

    /// Whether a tool other than a workspace one is registered as `name` (active or hidden):
    /// whether a `.removed` sentinel for it strips something. The default says `true`.
    fn has_tool(&self, name: &ToolName) -> bool {
        let _ = name;
        true
    }
}

impl WorkspaceTarget for ToolRegistry {
    fn apply_workspace(&self, ops: &[WorkspaceOp]) -> Result<(), String> {
        let mut batch = Batch::new();
        for op in ops {
            batch = match op {
                WorkspaceOp::Register(e) => batch.register(Arc::clone(e), Origin::Workspace),
                WorkspaceOp::Unregister(n) => batch.unregister(n.as_str(), Origin::Workspace),
                WorkspaceOp::Strip(n) => batch.strip(n.as_str()),
                WorkspaceOp::Unstrip(n) => batch.unstrip(n.as_str()),
            };
        }
        self.apply(batch).map(drop).map_err(|e| e.to_string())
    }

    fn in_effect(&self, op: &WorkspaceOp) -> bool {
        match op {
            WorkspaceOp::Register(e) => self
                .workspace_entry(e.descriptor().name.as_str())
                .is_some_and(|w| Arc::ptr_eq(&w, e)),
            WorkspaceOp::Unregister(n) => self.workspace_entry(n.as_str()).is_none(),
            WorkspaceOp::Strip(n) => self.is_stripped(n.as_str()),
            WorkspaceOp::Unstrip(n) => !self.is_stripped(n.as_str()),
        }
    }

    fn has_tool(&self, name: &ToolName) -> bool {
        self.origins(name.as_str()).iter().any(|o| *o != Origin::Workspace)
    }
}

/// Why a file was not used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SkipReason {
    /// The stem is not a valid tool name (files are never renamed).
    #[error("the file stem `{stem}` is not a valid tool name: {error}")]
    InvalidName {
        /// The stem.
        stem: String,
        /// Which part of the rule it breaks.
        error: NameError,
    },
    /// The file name is not UTF-8.
    #[error("the file name is not UTF-8")]
    NonUtf8Name,
    /// A symlink that resolves outside the workspace directory.
    #[error("symlink leads outside the workspace directory, to {}", target.display())]
    SymlinkOutside {
        /// Where it leads.
        target: PathBuf,
    },
    /// Not a regular file (a directory, a fifo, a device, a symlink to one).
    #[error("not a regular file")]
    NotRegular,
    /// Larger than [`WorkspaceOptions::max_file_size`].
    #[error("{size} bytes is over the limit of {limit} bytes")]
    TooLarge {
        /// The file's size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// Deleted between the listing and the read.
    #[error("deleted while being read")]
    Vanished,
    /// Rewritten between the listing and the read; the next reconcile sees the new content.
    #[error("changed while being read")]
    ChangedWhileReading,
    /// Could not be read.
    #[error("cannot read: {0}")]
    Io(String),
    /// The spec does not parse or import; the message names the file and the JSON pointer.
    #[error("{0}")]
    Invalid(String),
    /// Another file of the same stem and kind takes precedence.
    #[error("shadowed by {}", by.display())]
    Shadowed {
        /// The file that wins.
        by: PathBuf,
    },
    /// The stem has both a spec and a `.removed` sentinel: both are torn down.
    #[error("both a spec and a .removed sentinel exist for this name; both are ignored")]
    SpecAndRemoved,
    /// The registry refused the change.
    #[error("the registry refused the change: {0}")]
    Refused(String),
}

impl SkipReason {
    fn io(e: &io::Error) -> Self {
        SkipReason::Io(e.to_string())
    }

    /// Whether the failure may vanish on its own, so its outcome must not be cached.
    fn is_transient(&self) -> bool {
        matches!(self, SkipReason::Vanished | SkipReason::ChangedWhileReading | SkipReason::Io(_))
    }
}

/// A file that was not used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// The tool name, when the stem is a valid one.
    pub name: Option<ToolName>,
    /// Why.
    pub reason: SkipReason,
    /// Whether an earlier version of this tool stays live.
    pub kept_previous: bool,
}

/// A tool a reconcile changed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolChange {
    /// The tool.
    pub name: ToolName,
    /// The file behind the change (for a removal: the file that went).
    pub path: PathBuf,
    /// What the spec import reported (keywords dropped, ...).
    pub notes: Vec<String>,
}

/// What one reconcile did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReconcileReport {
    /// Workspace tools registered or replaced by a new version.
    pub registered: Vec<ToolChange>,
    /// Workspace tools removed because their file went (a stashed core tool is back).
    pub removed: Vec<ToolChange>,
    /// Core tools stripped by a new `.removed` sentinel.
    pub stripped: Vec<ToolChange>,
    /// Core tools restored because their `.removed` sentinel went.
    pub restored: Vec<ToolChange>,
    /// `.removed` sentinels that appeared or went while no tool of their name is registered:
    /// logged no-ops that change nothing listed (a tool registered later under the name, while
    /// the sentinel is there, is stripped then).
    pub sentinels_without_tool: Vec<ToolChange>,
    /// Files not used, with the reason (sorted by path).
    pub skipped: Vec<Skipped>,
    /// Spec files read (and parsed) by this reconcile: the ones new or changed since the last.
    pub files_read: u64,
    /// `stat` calls made by this reconcile.
    pub stat_calls: u64,
}

impl ReconcileReport {
    /// Whether nothing listed in the registry changed (sentinels without a tool change nothing
    /// listed).
    pub fn is_unchanged(&self) -> bool {
        self.registered.is_empty()
            && self.removed.is_empty()
            && self.stripped.is_empty()
            && self.restored.is_empty()
    }
}

/// Why a reconcile could not run at all (a single bad file never causes this).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WorkspaceError {
    /// The directory could not be listed.
    #[error("cannot read the workspace directory {}: {message}", path.display())]
    ReadDir {
        /// The directory.
        path: PathBuf,
        /// The operating system's message.
        message: String,
    },
    /// The reconcile this call was waiting for stopped without a result.
    #[error("the reconcile of {} this call shared stopped without a result", path.display())]
    Abandoned {
        /// The directory.
        path: PathBuf,
    },
}

impl WorkspaceError {
    fn read_dir(path: &Path, e: &io::Error) -> Self {
        WorkspaceError::ReadDir { path: path.to_owned(), message: e.to_string() }
    }
}

/// Counters accumulated over a workspace's life.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct WorkspaceStats {
    /// Directory scans run (calls that shared a scan count once).
    pub scans: u64,
    /// Spec files read.
    pub files_read: u64,
    /// `stat` calls made.
    pub stat_calls: u64,
}

/// A tool defined by a workspace spec file: declarative, or backed by a `command`.
pub struct WorkspaceTool {
    descriptor: ToolDescriptor,
    path: PathBuf,
    command: Option<command::CommandSpec>,
}

impl fmt::Debug for WorkspaceTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkspaceTool")
            .field("name", &self.descriptor.name)
            .field("path", &self.path)
            .field("command", &self.command())
            .finish()
    }
}

impl WorkspaceTool {
    /// The spec file it came from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The argv it runs, if it is executable.
    pub fn command(&self) -> Option<&[String]> {
        self.command.as_ref().map(|c| c.argv.as_slice())
    }

    /// Runs the call on this thread, blocking until the command ends (or is killed).
    pub fn call_blocking(&self, call: &ToolCall) -> ToolResult {
        let name = &self.descriptor.name;
        let Some(cmd) = &self.command else {
            return ToolResult::error(call, format!("workspace tool {name} has no implementation"));
        };
        // The command gets the arguments as the schema promises them: checked, defaults filled.
        let input = match prepare_arguments(&self.descriptor, &Validator::new(), &call.arguments) {
            Ok(value) => value.to_string().into_bytes(),
            Err(err) => return err.to_result(call),
        };
        match cmd.run(&input) {
            Ok(stdout) => {
                let text = stdout.strip_suffix('\n').unwrap_or(&stdout).to_owned();
                let structured = serde_json::from_str::<Value>(&text).ok();
                ToolResult {
                    call_id: call.id.clone(),
                    name: call.name.clone(),
                    content: vec![Content::Text { text }],
                    structured,
                    is_error: false,
                }
            }
            Err(failure) => ToolResult::error(call, format!("workspace tool {name} {failure}")),
        }
    }
}

impl Executor for WorkspaceTool {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.descriptor
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        if self.command.is_none() {
            let result = self.call_blocking(call);
            return Box::pin(std::future::ready(result));
        }
        // The command blocks: run it on its own thread and wake the caller when it is done.
        let shared = Arc::new(Mutex::new(Slot { value: None, waker: None }));
        let tool = WorkspaceTool {
            descriptor: self.descriptor.clone(),
            path: self.path.clone(),
            command: self.command.clone(),
        };
        let call_owned = call.clone();
        let writer = Arc::clone(&shared);
        let spawned =
            std::thread::Builder::new().name("tooldef-workspace-tool".into()).spawn(move || {
                let result = tool.call_blocking(&call_owned);
                let waker = {
                    let mut slot = lock(&writer);
                    slot.value = Some(result);
                    slot.waker.take()
                };
                if let Some(w) = waker {
                    w.wake();
                }
            });
        if let Err(e) = spawned {
            let result = ToolResult::error(
                call,
                format!("workspace tool {} could not start: {e}", self.descriptor.name),
            );
            return Box::pin(std::future::ready(result));
        }
        Box::pin(ThreadResult { shared })
    }
}

struct Slot {
    value: Option<ToolResult>,
    waker: Option<Waker>,
}

/// The result of a call running on another thread.
struct ThreadResult {
    shared: Arc<Mutex<Slot>>,
}

impl Future for ThreadResult {
    type Output = ToolResult;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolResult> {
        let mut slot = lock(&self.shared);
        match slot.value.take() {
            Some(v) => Poll::Ready(v),
            None => {
                slot.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere must not wedge the workspace; the data stays usable.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A loaded spec with its executor, shared between the cache and the applied state.
struct Loaded {
    spec: Spec,
    tool: Arc<WorkspaceTool>,
}

struct Cached {
    key: FileKey,
    outcome: Result<Arc<Loaded>, SkipReason>,
    /// The scan that last saw the file (entries not seen are dropped).
    seen: u64,
    /// Whether `outcome` is exactly what is applied under the file's name.
    applied: bool,
}

/// A live `.removed` sentinel.
struct Sentinel {
    name: ToolName,
    path: PathBuf,
}

/// What the workspace has applied for one name.
#[derive(Clone)]
enum Applied {
    Spec(Arc<Loaded>),
    Removed(Arc<Sentinel>),
}

impl Applied {
    fn name(&self) -> &ToolName {
        match self {
            Applied::Spec(l) => &l.tool.descriptor.name,
            Applied::Removed(s) => &s.name,
        }
    }

    /// The operation that put this in place.
    fn op(&self) -> WorkspaceOp {
        match self {
            Applied::Spec(l) => WorkspaceOp::Register(l.tool.clone()),
            Applied::Removed(s) => WorkspaceOp::Strip(s.name.clone()),
        }
    }

    fn same(&self, other: &Applied) -> bool {
        match (self, other) {
            (Applied::Spec(a), Applied::Spec(b)) => Arc::ptr_eq(a, b),
            (Applied::Removed(_), Applied::Removed(_)) => true,
            _ => false,
        }
    }
}

#[derive(Default)]
struct Inner {
    /// By file name.
    cache: HashMap<String, Cached>,
    /// Sorted by name, one per name.
    applied: Vec<Applied>,
    /// Scans run so far (marks cache entries as seen).
    scan: u64,
}

impl Inner {
    fn applied(&self, name: &str) -> Option<&Applied> {
        let i = self.applied.binary_search_by(|a| a.name().as_str().cmp(name)).ok()?;
        self.applied.get(i)
    }
}

/// What a reconcile returns (shared with the calls that waited for it).
type Outcome = Result<Arc<ReconcileReport>, WorkspaceError>;

#[derive(Default)]
struct Gate {
    running: bool,
    epoch: u64,
    last: Option<Outcome>,
}

/// A workspace tool directory and what has been applied from it.
///
/// ```
/// use tooldef::{ToolRegistry, Workspace};
///
/// let dir = std::env::temp_dir().join(format!("tooldef-doc-workspace-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(
///     dir.join("lookup.json"),
///     r#"{"description": "Look a word up.", "input_schema": {"type": "object",
///         "properties": {"word": {"type": "string"}}, "required": ["word"]}}"#,
/// )
/// .unwrap();
///
/// let registry = ToolRegistry::new();
/// let workspace = Workspace::new(&dir);
/// let report = workspace.reconcile(&registry).unwrap();
/// assert_eq!(report.registered.len(), 1);
/// assert!(registry.get("lookup").is_some());
///
/// // The file goes, and so does the tool, at the next reconcile.
/// std::fs::remove_file(dir.join("lookup.json")).unwrap();
/// workspace.reconcile(&registry).unwrap();
/// assert!(registry.get("lookup").is_none());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub struct Workspace {
    dir: PathBuf,
    options: WorkspaceOptions,
    gate: Mutex<Gate>,
    gate_cv: Condvar,
    inner: Mutex<Inner>,
    scans: AtomicU64,
    files_read: AtomicU64,
    stat_calls: AtomicU64,
}

impl fmt::Debug for Workspace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Workspace")
            .field("dir", &self.dir)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Workspace {
    /// A workspace over `dir`, with default options. Nothing is read until
    /// [`reconcile`](Self::reconcile).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Workspace::with_options(dir, WorkspaceOptions::default())
    }

    /// A workspace over `dir` with the given limits.
    pub fn with_options(dir: impl Into<PathBuf>, options: WorkspaceOptions) -> Self {
        Workspace {
            dir: dir.into(),
            options,
            gate: Mutex::new(Gate::default()),
            gate_cv: Condvar::new(),
            inner: Mutex::new(Inner::default()),
            scans: AtomicU64::new(0),
            files_read: AtomicU64::new(0),
            stat_calls: AtomicU64::new(0),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Counters over the workspace's life.
    pub fn stats(&self) -> WorkspaceStats {
        WorkspaceStats {
            scans: self.scans.load(Ordering::Relaxed),
            files_read: self.files_read.load(Ordering::Relaxed),
            stat_calls: self.stat_calls.load(Ordering::Relaxed),
        }
    }

    /// Brings `target` in line with the directory: derives the desired state from disk and
    /// applies only the difference, as one batch.
    ///
    /// A call made while another is scanning waits for it and returns the same report (the
    /// same `Arc`); that scan's changes were applied to the first caller's target, so a
    /// workspace should feed one registry.
    ///
    /// # Errors
    ///
    /// [`WorkspaceError::ReadDir`] when the directory cannot be listed (a missing directory is
    /// an empty workspace). Problems with single files are reported in
    /// [`ReconcileReport::skipped`], never as an error.
    pub fn reconcile<T: WorkspaceTarget + ?Sized>(
        &self,
        target: &T,
    ) -> Result<Arc<ReconcileReport>, WorkspaceError> {
        let _span = tracing::info_span!("tooldef.reconcile", dir = %self.dir.display()).entered();
        let mut gate = lock(&self.gate);
        if gate.running {
            let epoch = gate.epoch;
            while gate.running && gate.epoch == epoch {
                gate = self.gate_cv.wait(gate).unwrap_or_else(PoisonError::into_inner);
            }
            return match &gate.last {
                Some(outcome) if gate.epoch != epoch => outcome.clone(),
                _ => Err(WorkspaceError::Abandoned { path: self.dir.clone() }),
            };
        }
        gate.running = true;
        drop(gate);

        // Publishes the outcome and wakes the waiters even if the scan panics.
        struct Publish<'a> {
            ws: &'a Workspace,
            outcome: Option<Outcome>,
        }
        impl Drop for Publish<'_> {
            fn drop(&mut self) {
                let mut gate = lock(&self.ws.gate);
                gate.running = false;
                gate.epoch += 1;
                gate.last = Some(self.outcome.take().unwrap_or_else(|| {
                    Err(WorkspaceError::Abandoned { path: self.ws.dir.clone() })
                }));
                self.ws.gate_cv.notify_all();
            }
        }
        let mut publish = Publish { ws: self, outcome: None };
        let outcome = self.run(target).map(Arc::new);
        publish.outcome = Some(outcome.clone());
        drop(publish);
        outcome
    }

    /// One scan and apply; only the caller holding the gate runs it.
    fn run<T: WorkspaceTarget + ?Sized>(
        &self,
        target: &T,
    ) -> Result<ReconcileReport, WorkspaceError> {
        if let Some(hook) = &self.options.scan_hook {
            hook();
        }
        self.scans.fetch_add(1, Ordering::Relaxed);
        let listing = scan::list(&self.dir, self.options.max_file_size)?;
        let mut guard = lock(&self.inner);
        let inner = &mut *guard;
        inner.scan += 1;
        let mut report = ReconcileReport {
            skipped: listing.skipped,
            stat_calls: listing.stats,
            ..ReconcileReport::default()
        };

        if listing.failed.is_empty() && self.unchanged(inner, &listing.entries, target) {
            report.skipped.sort_by(|a, b| a.path.cmp(&b.path));
            self.stat_calls.fetch_add(report.stat_calls, Ordering::Relaxed);
            return Ok(report);
        }

        // Runs of one stem; within a run specs first, each kind in precedence order.
        let mut entries = listing.entries;
        entries.sort_unstable_by(|a, b| {
            (a.name(), a.kind, !a.canonical_ext, &a.file_name).cmp(&(
                b.name(),
                b.kind,
                !b.canonical_ext,
                &b.file_name,
            ))
        });
        let mut failed: BTreeMap<String, Failed> = BTreeMap::new();
        for (kind, skipped) in listing.failed {
            let Some(name) = &skipped.name else { continue };
            let f = failed.entry(name.to_string()).or_default();
            match kind {
                Kind::Spec => f.specs.push(skipped),
                Kind::Removed => f.removed.push(skipped),
            }
        }

        let mut desired: Vec<Applied> = Vec::with_capacity(entries.len());
        let mut cached_seen = 0usize;
        let mut rest = entries.as_slice();
        while let Some(first) = rest.first() {
            let name = first.name();
            let len = rest.iter().position(|e| e.name() != name).unwrap_or(rest.len());
            let (run, tail) = rest.split_at(len);
            rest = tail;
            let split = run.iter().position(|e| e.kind == Kind::Removed).unwrap_or(run.len());
            let (specs, removed) = run.split_at(split);
            let failed_here = failed.remove(name).unwrap_or_default();
            let group = Group { name, specs, removed, failed: failed_here };
            cached_seen += self.decide(inner, group, &mut desired, &mut report);
        }
        if !failed.is_empty() {
            for (name, failed_here) in std::mem::take(&mut failed) {
                let group = Group { name: &name, specs: &[], removed: &[], failed: failed_here };
                cached_seen += self.decide(inner, group, &mut desired, &mut report);
            }
            desired.sort_by(|a, b| a.name().cmp(b.name()));
        }
        // Forget files that are gone.
        if inner.cache.len() > cached_seen {
            let scan = inner.scan;
            inner.cache.retain(|_, c| c.seen == scan);
        }

        self.apply(inner, desired, target, &mut report);
        for (file, cached) in &mut inner.cache {
            let stem = file.rsplit_once('.').map_or(file.as_str(), |(stem, _)| stem);
            cached.applied = match (
                &cached.outcome,
                inner.applied.binary_search_by(|a| a.name().as_str().cmp(stem)),
            ) {
                (Ok(loaded), Ok(i)) => {
                    matches!(&inner.applied[i], Applied::Spec(live) if Arc::ptr_eq(live, loaded))
                }
                _ => false,
            };
        }
        report.skipped.sort_by(|a, b| a.path.cmp(&b.path));
        self.files_read.fetch_add(report.files_read, Ordering::Relaxed);
        self.stat_calls.fetch_add(report.stat_calls, Ordering::Relaxed);
        Ok(report)
    }

    /// The fast path of a reconcile that finds nothing new: whether every listed file is an
    /// unchanged spec whose cached version is the applied one, or a sentinel already applied,
    /// nothing applied has gone, and the target still holds what was applied. Touches only the
    /// cache and the target (no sort).
    fn unchanged<T: WorkspaceTarget + ?Sized>(
        &self,
        inner: &mut Inner,
        entries: &[Entry],
        target: &T,
    ) -> bool {
        if entries.len() != inner.applied.len() {
            return false;
        }
        let scan = inner.scan;
        for entry in entries {
            if !entry.canonical_ext {
                return false; // several spellings may share a stem: take the full path
            }
            match entry.kind {
                Kind::Spec => match inner.cache.get_mut(&entry.file_name) {
                    Some(c) if c.applied && c.key == entry.key => c.seen = scan,
                    _ => return false,
                },
                Kind::Removed => {
                    if !matches!(inner.applied(entry.name()), Some(Applied::Removed(_))) {
                        return false;
                    }
                }
            }
        }
        // A flagged spec is the applied entry of its name, and a name has one lowercase spec
        // and one lowercase sentinel at most (never both flagged): so the listed files match
        // the applied names one to one. Left: whether the target still holds them.
        inner.applied.iter().all(|a| target.in_effect(&a.op()))
    }

    /// The desired state of one stem, pushed onto `desired`; returns how many cache entries it
    /// marked as seen.
    fn decide(
        &self,
        inner: &mut Inner,
        group: Group<'_>,
        desired: &mut Vec<Applied>,
        report: &mut ReconcileReport,
    ) -> usize {
        let dir = &self.dir;
        let Group { name, specs, removed, failed } = group;
        for list in [specs, removed] {
            if let Some((winner, rest)) = list.split_first() {
                for loser in rest {
                    let reason = SkipReason::Shadowed { by: winner.path(dir) };
                    skip(report, loser.path(dir), name, reason, false);
                }
            }
        }
        // Looked up only where needed: the common case (an unchanged spec) never does.
        let previous = |inner: &Inner| match inner.applied(name) {
            Some(Applied::Spec(prev)) => Some(Arc::clone(prev)),
            _ => None,
        };
        let has_spec = !specs.is_empty() || !failed.specs.is_empty();
        let has_sentinel = !removed.is_empty() || !failed.removed.is_empty();
        // Files that exist but cannot be used; a spec keeps its previous version alive unless a
        // sentinel tears the name down or another spec of the stem wins.
        let keep = (!failed.specs.is_empty() && !has_sentinel && specs.is_empty())
            .then(|| previous(inner))
            .flatten();
        for f in failed.specs {
            skip(report, f.path, name, f.reason, keep.is_some());
        }
        for f in failed.removed {
            skip(report, f.path, name, f.reason, false);
        }
        if has_spec && has_sentinel {
            for e in specs.iter().take(1).chain(removed.iter().take(1)) {
                skip(report, e.path(dir), name, SkipReason::SpecAndRemoved, false);
            }
            // Still on disk: keep its cache entry for when the sentinel goes.
            if let Some(c) = specs.first().and_then(|e| inner.cache.get_mut(&e.file_name)) {
                c.seen = inner.scan;
                return 1;
            }
            return 0;
        }
        if let Some(sentinel) = removed.first() {
            let applied = match inner.applied(name) {
                Some(a @ Applied::Removed(_)) => a.clone(),
                _ => match ToolName::parse(name.to_owned()) {
                    Ok(tool) => Applied::Removed(Arc::new(Sentinel {
                        name: tool,
                        path: sentinel.path(dir),
                    })),
                    Err(_) => return 0, // cannot happen: the scan checked the stem
                },
            };
            desired.push(applied);
            return 0;
        }
        if let Some(spec) = specs.first() {
            match self.load(inner, spec, previous, report) {
                Ok(loaded) => desired.push(Applied::Spec(loaded)),
                Err(reason) => {
                    let prev = previous(inner);
                    skip(report, spec.path(dir), name, reason, prev.is_some());
                    if let Some(prev) = prev {
                        desired.push(Applied::Spec(prev));
                    }
                }
            }
            return usize::from(inner.cache.contains_key(&spec.file_name));
        }
        if let Some(prev) = keep {
            desired.push(Applied::Spec(prev));
        }
        0
    }

    /// The spec behind `entry`, from the cache when its `stat` identity is unchanged.
    fn load(
        &self,
        inner: &mut Inner,
        entry: &Entry,
        previous: impl FnOnce(&Inner) -> Option<Arc<Loaded>>,
        report: &mut ReconcileReport,
    ) -> Result<Arc<Loaded>, SkipReason> {
        let scan = inner.scan;
        if let Some(cached) = inner.cache.get_mut(&entry.file_name)
            && cached.key == entry.key
        {
            cached.seen = scan;
            return cached.outcome.clone();
        }
        report.files_read += 1;
        report.stat_calls += 1; // the fstat that checks the file is the one listed
        let path = entry.path(&self.dir);
        let outcome = read_file(entry, &self.dir, self.options.max_file_size).and_then(|bytes| {
            let tool = ToolName::parse(entry.name().to_owned())
                .map_err(|e| SkipReason::Invalid(e.to_string()))?;
            load::parse(&bytes, &path, &tool).map_err(SkipReason::Invalid)
        });
        let outcome = outcome.map(|spec| match previous(inner) {
            // Touched but not changed: keep the live version, so nothing is re-registered.
            Some(prev) if prev.spec == spec && prev.tool.path == path => prev,
            _ => Arc::new(self.make_loaded(spec, path)),
        });
        match &outcome {
            Err(reason) if reason.is_transient() => {
                inner.cache.remove(&entry.file_name);
            }
            _ => {
                let cached =
                    Cached { key: entry.key, outcome: outcome.clone(), seen: scan, applied: false };
                inner.cache.insert(entry.file_name.clone(), cached);
            }
        }
        outcome
    }

    fn make_loaded(&self, spec: Spec, path: PathBuf) -> Loaded {
        let command = spec.command.clone().map(|c| command::CommandSpec {
            argv: c.argv,
            cwd: self.dir.clone(),
            // The spec's own `timeout_ms` wins over the workspace default.
            timeout: c.timeout_ms.map_or(self.options.command_timeout, Duration::from_millis),
            max_output: self.options.max_output,
        });
        let tool = Arc::new(WorkspaceTool { descriptor: spec.descriptor.clone(), path, command });
        Loaded { spec, tool }
    }

    /// Applies the difference between what is applied and `desired` (both sorted by name):
    /// one batch, or, when the target refuses it, one batch per tool so that one refusal does
    /// not block the others.
    fn apply<T: WorkspaceTarget + ?Sized>(
        &self,
        inner: &mut Inner,
        desired: Vec<Applied>,
        target: &T,
        report: &mut ReconcileReport,
    ) {
        let mut steps = Vec::new();
        let (old, new) = (&inner.applied, &desired);
        let (mut a, mut d) = (0, 0);
        loop {
            let (before, after) = match (old.get(a), new.get(d)) {
                (None, None) => break,
                (Some(o), Some(n)) if o.name() == n.name() => {
                    a += 1;
                    d += 1;
                    if o.same(n) {
                        if target.in_effect(&o.op()) {
                            continue;
                        }
                        // Undone behind the workspace's back (unregistered, unstripped):
                        // apply it again.
                        tracing::info!(tool = %n.name(), "workspace change no longer in effect; applying it again");
                        (None, Some(n))
                    } else {
                        (Some(o), Some(n))
                    }
                }
                (Some(o), Some(n)) if o.name() < n.name() => {
                    a += 1;
                    (Some(o), None)
                }
                (Some(o), None) => {
                    a += 1;
                    (Some(o), None)
                }
                (_, n) => {
                    d += 1;
                    (None, n)
                }
            };
            steps.push(Step::between(before, after));
        }
        if steps.is_empty() {
            return; // nothing changed: the applied state stays as it is
        }

        let all: Vec<WorkspaceOp> = steps.iter().flat_map(|s| s.ops.iter().cloned()).collect();
        let mut refused: BTreeMap<ToolName, ()> = BTreeMap::new();
        if let Err(batch_error) = target.apply_workspace(&all) {
            tracing::warn!(dir = %self.dir.display(), error = %batch_error,
                "workspace batch refused; applying tool by tool");
            for step in &steps {
                if let Err(e) = target.apply_workspace(&step.ops) {
                    let path = step
                        .changes
                        .last()
                        .map(|(_, c)| c.path.clone())
                        .unwrap_or_else(|| self.dir.clone());
                    tracing::warn!(tool = %step.name, error = %e, "workspace change refused");
                    report.skipped.push(Skipped {
                        path,
                        name: Some(step.name.clone()),
                        reason: SkipReason::Refused(e),
                        kept_previous: inner.applied(step.name.as_str()).is_some(),
                    });
                    refused.insert(step.name.clone(), ());
                }
            }
        }
        for step in steps {
            if refused.contains_key(&step.name) {
                continue;
            }
            for (bucket, c) in step.changes {
                match bucket {
                    Bucket::Registered => report.registered.push(c),
                    Bucket::Removed => report.removed.push(c),
                    Bucket::Stripped | Bucket::Restored if !target.has_tool(&c.name) => {
                        tracing::info!(tool = %c.name, path = %c.path.display(),
                            "`.removed` sentinel with no tool of that name: nothing listed changes");
                        report.sentinels_without_tool.push(c);
                    }
                    Bucket::Stripped => report.stripped.push(c),
                    Bucket::Restored => report.restored.push(c),
                }
            }
        }
        if refused.is_empty() {
            inner.applied = desired;
        } else {
            // Refused names keep what they had.
            let mut next: Vec<Applied> =
                desired.into_iter().filter(|a| !refused.contains_key(a.name())).collect();
            next.extend(inner.applied.iter().filter(|a| refused.contains_key(a.name())).cloned());
            next.sort_by(|a, b| a.name().cmp(b.name()));
            inner.applied = next;
        }
    }
}

/// The files of one stem, as [`Workspace::decide`] sees them.
struct Group<'a> {
    name: &'a str,
    specs: &'a [Entry],
    removed: &'a [Entry],
    failed: Failed,
}

/// Files of one stem that the scan refused.
#[derive(Default)]
struct Failed {
    specs: Vec<Skipped>,
    removed: Vec<Skipped>,
}

#[derive(Clone, Copy)]
enum Bucket {
    Registered,
    Removed,
    Stripped,
    Restored,
}

/// The registry operations that take one name from its applied state to its desired one.
struct Step {
    name: ToolName,
    ops: Vec<WorkspaceOp>,
    changes: Vec<(Bucket, ToolChange)>,
}

impl Step {
    fn between(before: Option<&Applied>, after: Option<&Applied>) -> Step {
        let name = match (before, after) {
            (Some(a), _) | (None, Some(a)) => a.name().clone(),
            (None, None) => ToolName::new("unreachable"),
        };
        let change = |path: &Path, notes: Vec<String>| ToolChange {
            name: name.clone(),
            path: path.to_owned(),
            notes,
        };
        let mut ops = Vec::new();
        let mut changes = Vec::new();
        match before {
            Some(Applied::Spec(old)) if !matches!(after, Some(Applied::Spec(_))) => {
                ops.push(WorkspaceOp::Unregister(name.clone()));
                changes.push((Bucket::Removed, change(&old.tool.path, Vec::new())));
            }
            Some(Applied::Removed(s)) => {
                ops.push(WorkspaceOp::Unstrip(name.clone()));
                changes.push((Bucket::Restored, change(&s.path, Vec::new())));
            }
            _ => {}
        }
        match after {
            Some(Applied::Spec(new)) => {
                ops.push(WorkspaceOp::Register(new.tool.clone()));
                changes.push((Bucket::Registered, change(&new.tool.path, notes(&new.spec))));
            }
            Some(Applied::Removed(s)) => {
                ops.push(WorkspaceOp::Strip(name.clone()));
                changes.push((Bucket::Stripped, change(&s.path, Vec::new())));
            }
            None => {}
        }
        Step { name, ops, changes }
    }
}

/// Parses the content of one spec file the way [`Workspace::reconcile`] does: the tool is named
/// by the file stem of `path` (a `name` inside is ignored).
///
/// # Errors
///
/// [`SkipReason::InvalidName`] for a bad stem, [`SkipReason::TooLarge`] past the default size
/// limit, [`SkipReason::Invalid`] (naming the file and the JSON pointer) for a bad spec.
pub fn parse_spec_file(path: &Path, bytes: &[u8]) -> Result<Spec, SkipReason> {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let name = ToolName::parse(stem.to_owned())
        .map_err(|error| SkipReason::InvalidName { stem: stem.to_owned(), error })?;
    let limit = WorkspaceOptions::default().max_file_size;
    if bytes.len() as u64 > limit {
        return Err(SkipReason::TooLarge { size: bytes.len() as u64, limit });
    }
    load::parse(bytes, path, &name).map_err(SkipReason::Invalid)
}

fn notes(spec: &Spec) -> Vec<String> {
    spec.notes.iter().map(ToString::to_string).collect()
}

fn skip(
    report: &mut ReconcileReport,
    path: PathBuf,
    name: &str,
    reason: SkipReason,
    kept_previous: bool,
) {
    tracing::warn!(path = %path.display(), %reason, kept_previous, "workspace file skipped");
    let name = ToolName::parse(name.to_owned()).ok();
    report.skipped.push(Skipped { path, name, reason, kept_previous });
}

/// Reads a listed spec, refusing it when it is no longer the file that was listed.
fn read_file(entry: &Entry, dir: &Path, limit: u64) -> Result<Vec<u8>, SkipReason> {
    let file = match File::open(entry.open_path(dir)) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(SkipReason::Vanished),
        Err(e) => return Err(SkipReason::io(&e)),
    };
    let md = file.metadata().map_err(|e| SkipReason::io(&e))?;
    if FileKey::of(&md) != entry.key {
        return Err(SkipReason::ChangedWhileReading);
    }
    if !md.is_file() {
        return Err(SkipReason::NotRegular);
    }
    let expected = entry.key.len();
    let mut bytes = Vec::with_capacity(usize::try_from(expected.min(limit)).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| SkipReason::io(&e))?;
    if bytes.len() as u64 > limit {
        return Err(SkipReason::TooLarge { size: bytes.len() as u64, limit });
    }
    if bytes.len() as u64 != expected {
        return Err(SkipReason::ChangedWhileReading);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir()
            .join(format!("tooldef-ws-unit-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_rewritten_or_deleted_after_listing_is_skipped_not_misread() {
        let dir = temp_dir("race");
        std::fs::write(dir.join("a.json"), "{}").unwrap();
        std::fs::write(dir.join("b.json"), "{}").unwrap();
        let listing = scan::list(&dir, 1024).unwrap();
        let entry = |n: &str| listing.entries.iter().find(|e| e.file_name == n).unwrap();
        std::fs::write(dir.join("a.json"), r#"{"description": "new"}"#).unwrap();
        std::fs::remove_file(dir.join("b.json")).unwrap();
        assert_eq!(read_file(entry("a.json"), &dir, 1024), Err(SkipReason::ChangedWhileReading));
        assert_eq!(read_file(entry("b.json"), &dir, 1024), Err(SkipReason::Vanished));
        // Replaced by another file of the same size: a different inode, still refused.
        std::fs::write(dir.join("c.json"), "[]").unwrap();
        let listing = scan::list(&dir, 1024).unwrap();
        let c = listing.entries.iter().find(|e| e.file_name == "c.json").unwrap().clone();
        std::fs::write(dir.join("tmp"), "{}").unwrap();
        std::fs::rename(dir.join("tmp"), dir.join("c.json")).unwrap();
        assert_eq!(read_file(&c, &dir, 1024), Err(SkipReason::ChangedWhileReading));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn transient_failures_are_not_cached() {
        assert!(SkipReason::Vanished.is_transient());
        assert!(SkipReason::ChangedWhileReading.is_transient());
        assert!(!SkipReason::Invalid(String::new()).is_transient());
    }
}
