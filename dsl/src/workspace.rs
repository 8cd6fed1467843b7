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
//! - `NAME.removed` strips the core tool `NAME` (a no-op when there is none); the tool comes back
//!   when the sentinel goes.
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
//! new costs one directory read and one `stat` per file. Concurrent calls share one scan.
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
use crate::registry::{Batch, Origin, ToolRegistry};
use crate::spec::Spec;
use crate::tool::{Arguments, BoxFuture, Content, Executor, ToolCall, ToolResult};

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
    /// Strip the core tool of that name (a no-op when there is none).
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
pub struct ReconcileReport {
    /// Workspace tools registered or replaced by a new version.
    pub registered: Vec<ToolChange>,
    /// Workspace tools removed because their file went (a stashed core tool is back).
    pub removed: Vec<ToolChange>,
    /// Core tools stripped by a new `.removed` sentinel.
    pub stripped: Vec<ToolChange>,
    /// Core tools restored because their `.removed` sentinel went.
    pub restored: Vec<ToolChange>,
    /// Files not used, with the reason (sorted by path).
    pub skipped: Vec<Skipped>,
    /// Spec files read (and parsed) by this reconcile: the ones new or changed since the last.
    pub files_read: u64,
    /// `stat` calls made by this reconcile.
    pub stat_calls: u64,
}

impl ReconcileReport {
    /// Whether nothing in the registry changed.
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
        let input = match &call.arguments {
            Arguments::Json(v) => v.to_string().into_bytes(),
            Arguments::Text(t) => match serde_json::from_str::<serde::de::IgnoredAny>(t) {
                Ok(_) => t.clone().into_bytes(),
                Err(e) => {
                    return ToolResult::error(
                        call,
                        format!("the arguments for {name} are not valid JSON: {e}"),
                    );
                }
            },
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
}

/// What the workspace has applied for one name.
#[derive(Clone)]
enum Applied {
    Spec(Arc<Loaded>),
    Removed(PathBuf),
}

impl Applied {
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
    applied: BTreeMap<ToolName, Applied>,
}

type Outcome = Result<Arc<ReconcileReport>, WorkspaceError>;

#[derive(Default)]
struct Gate {
    running: bool,
    epoch: u64,
    last: Option<Outcome>,
}

/// A workspace tool directory and what has been applied from it.
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
    pub fn reconcile<T: WorkspaceTarget + ?Sized>(&self, target: &T) -> Outcome {
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
        let mut inner = lock(&self.inner);
        let mut report = ReconcileReport {
            skipped: listing.skipped,
            stat_calls: listing.stats,
            ..ReconcileReport::default()
        };

        // Group by name; within a group, precedence order.
        let mut groups: BTreeMap<ToolName, Group> = BTreeMap::new();
        for entry in listing.entries {
            let group = groups.entry(entry.name.clone()).or_default();
            match entry.kind {
                Kind::Spec => group.specs.push(entry),
                Kind::Removed => group.removed.push(entry),
            }
        }
        for (kind, failed) in listing.failed {
            let Some(name) = failed.name.clone() else { continue };
            let group = groups.entry(name).or_default();
            match kind {
                Kind::Spec => group.failed_specs.push(failed),
                Kind::Removed => group.failed_removed.push(failed),
            }
        }

        let mut desired: BTreeMap<ToolName, Applied> = BTreeMap::new();
        let mut seen_files: Vec<String> = Vec::new();
        for (name, mut group) in groups {
            for list in [&mut group.specs, &mut group.removed] {
                list.sort_by(|a, b| {
                    (!a.canonical_ext, &a.file_name).cmp(&(!b.canonical_ext, &b.file_name))
                });
                if let Some((winner, rest)) = list.split_first() {
                    for loser in rest {
                        let reason = SkipReason::Shadowed { by: winner.path.clone() };
                        skip(&mut report, loser.path.clone(), &loser.name, reason, false);
                    }
                }
            }
            let previous = match inner.applied.get(&name) {
                Some(Applied::Spec(prev)) => Some(Arc::clone(prev)),
                _ => None,
            };
            let has_spec = !group.specs.is_empty() || !group.failed_specs.is_empty();
            let has_sentinel = !group.removed.is_empty() || !group.failed_removed.is_empty();
            // Files that exist but cannot be used; a spec keeps its previous version alive
            // unless a sentinel tears the name down or another spec of the stem wins.
            let keep = previous.is_some() && !has_sentinel && group.specs.is_empty();
            for failed in group.failed_specs {
                skip(&mut report, failed.path, &name, failed.reason, keep);
            }
            for failed in group.failed_removed {
                skip(&mut report, failed.path, &name, failed.reason, false);
            }
            if has_spec && has_sentinel {
                for e in group.specs.iter().take(1).chain(group.removed.iter().take(1)) {
                    skip(&mut report, e.path.clone(), &name, SkipReason::SpecAndRemoved, false);
                }
                if let Some(spec) = group.specs.first() {
                    seen_files.push(spec.file_name.clone());
                }
                continue;
            }
            if let Some(sentinel) = group.removed.first() {
                desired.insert(name, Applied::Removed(sentinel.path.clone()));
            } else if let Some(spec) = group.specs.first() {
                seen_files.push(spec.file_name.clone());
                match self.load(&mut inner.cache, spec, previous.as_ref(), &mut report) {
                    Ok(loaded) => {
                        desired.insert(name, Applied::Spec(loaded));
                    }
                    Err(reason) => {
                        let kept = previous.is_some();
                        skip(&mut report, spec.path.clone(), &name, reason, kept);
                        if let Some(prev) = previous {
                            desired.insert(name, Applied::Spec(prev));
                        }
                    }
                }
            } else if keep && let Some(prev) = previous {
                desired.insert(name, Applied::Spec(prev));
            }
        }
        // Forget files that are gone (their shadowed siblings were never cached).
        if inner.cache.len() > seen_files.len() {
            let keep: std::collections::HashSet<&str> =
                seen_files.iter().map(String::as_str).collect();
            inner.cache.retain(|k, _| keep.contains(k.as_str()));
        }

        self.apply(&mut inner, desired, target, &mut report);
        report.skipped.sort_by(|a, b| a.path.cmp(&b.path));
        self.files_read.fetch_add(report.files_read, Ordering::Relaxed);
        self.stat_calls.fetch_add(report.stat_calls, Ordering::Relaxed);
        Ok(report)
    }

    /// The spec behind `entry`, from the cache when its `stat` identity is unchanged.
    fn load(
        &self,
        cache: &mut HashMap<String, Cached>,
        entry: &Entry,
        previous: Option<&Arc<Loaded>>,
        report: &mut ReconcileReport,
    ) -> Result<Arc<Loaded>, SkipReason> {
        if let Some(cached) = cache.get(&entry.file_name)
            && cached.key == entry.key
        {
            return cached.outcome.clone();
        }
        report.files_read += 1;
        report.stat_calls += 1; // the fstat that checks the file is the one listed
        let outcome = read_file(entry, self.options.max_file_size).and_then(|bytes| {
            load::parse(&bytes, &entry.path, &entry.name).map_err(SkipReason::Invalid)
        });
        let outcome = outcome.map(|spec| match previous {
            // Touched but not changed: keep the live version, so nothing is re-registered.
            Some(prev) if prev.spec == spec && prev.tool.path == entry.path => Arc::clone(prev),
            _ => Arc::new(self.make_loaded(spec, entry)),
        });
        match &outcome {
            Err(reason) if reason.is_transient() => {
                cache.remove(&entry.file_name);
            }
            _ => {
                cache.insert(
                    entry.file_name.clone(),
                    Cached { key: entry.key, outcome: outcome.clone() },
                );
            }
        }
        outcome
    }

    fn make_loaded(&self, spec: Spec, entry: &Entry) -> Loaded {
        let command = spec.command.clone().map(|c| command::CommandSpec {
            argv: c.argv,
            cwd: self.dir.clone(),
            // The spec's own `timeout_ms` wins over the workspace default.
            timeout: c.timeout_ms.map_or(self.options.command_timeout, Duration::from_millis),
            max_output: self.options.max_output,
        });
        let tool = Arc::new(WorkspaceTool {
            descriptor: spec.descriptor.clone(),
            path: entry.path.clone(),
            command,
        });
        Loaded { spec, tool }
    }

    /// Applies the difference between what is applied and `desired`: one batch, or, when the
    /// target refuses it, one batch per tool so that one refusal does not block the others.
    fn apply<T: WorkspaceTarget + ?Sized>(
        &self,
        inner: &mut Inner,
        desired: BTreeMap<ToolName, Applied>,
        target: &T,
        report: &mut ReconcileReport,
    ) {
        struct Step {
            name: ToolName,
            ops: Vec<WorkspaceOp>,
            after: Option<Applied>,
            changes: Vec<(Bucket, ToolChange)>,
        }
        #[derive(Clone, Copy)]
        enum Bucket {
            Registered,
            Removed,
            Stripped,
            Restored,
        }
        let change = |name: &ToolName, path: &Path, notes: &[String]| ToolChange {
            name: name.clone(),
            path: path.to_owned(),
            notes: notes.to_vec(),
        };

        let mut steps = Vec::new();
        let names: std::collections::BTreeSet<&ToolName> =
            inner.applied.keys().chain(desired.keys()).collect();
        for name in names {
            let before = inner.applied.get(name);
            let after = desired.get(name);
            if let (Some(b), Some(a)) = (before, after)
                && b.same(a)
            {
                continue;
            }
            let mut step = Step {
                name: name.clone(),
                ops: Vec::new(),
                after: after.cloned(),
                changes: Vec::new(),
            };
            match before {
                Some(Applied::Spec(old)) if !matches!(after, Some(Applied::Spec(_))) => {
                    step.ops.push(WorkspaceOp::Unregister(name.clone()));
                    step.changes.push((Bucket::Removed, change(name, &old.tool.path, &[])));
                }
                Some(Applied::Removed(path)) => {
                    step.ops.push(WorkspaceOp::Unstrip(name.clone()));
                    step.changes.push((Bucket::Restored, change(name, path, &[])));
                }
                _ => {}
            }
            match after {
                Some(Applied::Spec(new)) => {
                    step.ops.push(WorkspaceOp::Register(new.tool.clone()));
                    step.changes.push((
                        Bucket::Registered,
                        change(name, &new.tool.path, &notes(&new.spec)),
                    ));
                }
                Some(Applied::Removed(path)) => {
                    step.ops.push(WorkspaceOp::Strip(name.clone()));
                    step.changes.push((Bucket::Stripped, change(name, path, &[])));
                }
                None => {}
            }
            steps.push(step);
        }
        if steps.is_empty() {
            return;
        }

        let all: Vec<WorkspaceOp> = steps.iter().flat_map(|s| s.ops.iter().cloned()).collect();
        let accepted: Vec<bool> = match target.apply_workspace(&all) {
            Ok(()) => vec![true; steps.len()],
            Err(batch_error) => {
                tracing::warn!(dir = %self.dir.display(), error = %batch_error,
                    "workspace batch refused; applying tool by tool");
                steps
                    .iter()
                    .map(|step| match target.apply_workspace(&step.ops) {
                        Ok(()) => true,
                        Err(e) => {
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
                                kept_previous: inner.applied.contains_key(&step.name),
                            });
                            false
                        }
                    })
                    .collect()
            }
        };
        for (step, ok) in steps.into_iter().zip(accepted) {
            if !ok {
                continue;
            }
            match step.after {
                Some(a) => inner.applied.insert(step.name, a),
                None => inner.applied.remove(&step.name),
            };
            for (bucket, c) in step.changes {
                match bucket {
                    Bucket::Registered => report.registered.push(c),
                    Bucket::Removed => report.removed.push(c),
                    Bucket::Stripped => report.stripped.push(c),
                    Bucket::Restored => report.restored.push(c),
                }
            }
        }
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
    name: &ToolName,
    reason: SkipReason,
    kept_previous: bool,
) {
    tracing::warn!(path = %path.display(), %reason, kept_previous, "workspace file skipped");
    report.skipped.push(Skipped { path, name: Some(name.clone()), reason, kept_previous });
}

/// The files of one stem.
#[derive(Default)]
struct Group {
    specs: Vec<Entry>,
    removed: Vec<Entry>,
    failed_specs: Vec<Skipped>,
    failed_removed: Vec<Skipped>,
}

/// Reads a listed spec, refusing it when it is no longer the file that was listed.
fn read_file(entry: &Entry, limit: u64) -> Result<Vec<u8>, SkipReason> {
    let file = match File::open(&entry.open_path) {
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
        assert_eq!(read_file(entry("a.json"), 1024), Err(SkipReason::ChangedWhileReading));
        assert_eq!(read_file(entry("b.json"), 1024), Err(SkipReason::Vanished));
        // Replaced by another file of the same size: a different inode, still refused.
        std::fs::write(dir.join("c.json"), "[]").unwrap();
        let listing = scan::list(&dir, 1024).unwrap();
        let c = listing.entries.iter().find(|e| e.file_name == "c.json").unwrap().clone();
        std::fs::write(dir.join("tmp"), "{}").unwrap();
        std::fs::rename(dir.join("tmp"), dir.join("c.json")).unwrap();
        assert_eq!(read_file(&c, 1024), Err(SkipReason::ChangedWhileReading));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn transient_failures_are_not_cached() {
        assert!(SkipReason::Vanished.is_transient());
        assert!(SkipReason::ChangedWhileReading.is_transient());
        assert!(!SkipReason::Invalid(String::new()).is_transient());
    }
}
