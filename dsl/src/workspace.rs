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
//!   [`WorkspaceOptions::command_timeout`] and [`WorkspaceOptions::max_output`], at most
//!   [`WorkspaceOptions::max_concurrent_commands`] at once (a call past it waits its turn), and
//!   killed with its process group when its call is given up ([`Workspace::kill_commands`]
//!   kills every running one). It runs with a
//!   minimal environment ([`BASE_ENV`], plus the variables its spec names in
//!   `"command": {"env": [...]}`), never the host's whole one. Write access to the directory is
//!   code execution as the host's user: only let people who may run code there write to it.
//! - `NAME.removed` strips the core tool `NAME`; the tool comes back when the sentinel goes. The
//!   sentinel is a standing rule, whatever starts first: with no tool of that name registered it
//!   is a logged no-op (nothing listed changes; it is reported in
//!   [`ReconcileReport::sentinels_without_tool`], not as stripped), and a tool registered under
//!   the name later, while the sentinel is there, stays hidden (see [`crate::registry`]).
//! - A spec named like a core tool replaces it; the core tool is restored when the file goes.
//! - A stem with both a spec and a `.removed` tears both down: the core tool (if any) stays live.
//! - Dot-files, directories, other non-regular files and other extensions are ignored.
//!   Symlinks are followed only to regular files inside the directory. These rules are the shared
//!   reader's ([`crate::files`]), the same as `tooldef render DIR` and [`crate::export`] use.
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
//! This module owns the reconcile itself: the gate that lets concurrent calls share one scan,
//! the spec cache, and the decision of what each stem of the directory asks for. Its parts:
//! `scan` lists the directory, `load` parses one file, `apply` turns the desired state into
//! registry operations, `target` is the seam to the registry, `report` what a reconcile says,
//! `tool` and `command` the executor of a spec and the process it runs, `pool` the slots that
//! bound how many run at once. The registry's rules
//! (stash, strip, batch validation) belong to [`crate::registry`], JSON import to
//! [`crate::spec`].

mod apply;
mod command;
mod load;
mod pool;
mod report;
mod scan;
mod target;
mod tool;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use crate::descriptor::ToolName;
use crate::files::{self, FileProblem};
use crate::spec::Spec;

pub use command::{BASE_ENV, CommandFailure};
pub use report::{
    ReconcileReport, SkipReason, Skipped, ToolChange, WorkspaceError, WorkspaceStats,
};
use scan::{Entry, FileKey, Kind};
pub use target::{WorkspaceOp, WorkspaceTarget};
pub use tool::WorkspaceTool;

/// How many `command` tool processes of one workspace run at once by default
/// ([`WorkspaceOptions::max_concurrent_commands`]).
pub const DEFAULT_MAX_CONCURRENT_COMMANDS: usize = 16;

/// Limits and hooks of a [`Workspace`].
#[derive(Clone)]
pub struct WorkspaceOptions {
    max_file_size: u64,
    command_timeout: Duration,
    max_output: usize,
    max_concurrent_commands: usize,
    scan_hook: Option<Arc<dyn Fn() + Send + Sync>>,
    /// Called between the listing and the reads (tests of races on the directory).
    #[cfg(test)]
    listed_hook: Option<Arc<dyn Fn() + Send + Sync>>,
}

impl Default for WorkspaceOptions {
    fn default() -> Self {
        WorkspaceOptions {
            max_file_size: crate::spec::MAX_SPEC_BYTES,
            command_timeout: Duration::from_secs(30),
            max_output: 1024 * 1024,
            max_concurrent_commands: DEFAULT_MAX_CONCURRENT_COMMANDS,
            scan_hook: None,
            #[cfg(test)]
            listed_hook: None,
        }
    }
}

impl fmt::Debug for WorkspaceOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkspaceOptions")
            .field("max_file_size", &self.max_file_size)
            .field("command_timeout", &self.command_timeout)
            .field("max_output", &self.max_output)
            .field("max_concurrent_commands", &self.max_concurrent_commands)
            .field("scan_hook", &self.scan_hook.is_some())
            .finish()
    }
}

impl WorkspaceOptions {
    /// Largest spec file read, in bytes (default [`MAX_SPEC_BYTES`](crate::spec::MAX_SPEC_BYTES),
    /// 1 MiB, the limit of `tooldef render` and [`crate::export`] too); larger files are
    /// refused.
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

    /// Most `command` tool processes of the workspace running at once (default
    /// [`DEFAULT_MAX_CONCURRENT_COMMANDS`], 16; at least 1). A call past it waits for a running
    /// command to end, first come first served, without a thread of its own, and its
    /// [`command_timeout`](Self::command_timeout) starts when its command does; a call given up
    /// while waiting leaves the line.
    pub fn max_concurrent_commands(mut self, n: usize) -> Self {
        self.max_concurrent_commands = n.max(1);
        self
    }

    /// A function called at the start of every directory scan (instrumentation and tests).
    pub fn scan_hook(mut self, hook: impl Fn() + Send + Sync + 'static) -> Self {
        self.scan_hook = Some(Arc::new(hook));
        self
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
    /// The slots of the workspace's commands, shared by its tools.
    commands: Arc<pool::CommandPool>,
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
        let commands = Arc::new(pool::CommandPool::new(options.max_concurrent_commands));
        Workspace {
            dir: dir.into(),
            options,
            gate: Mutex::new(Gate::default()),
            gate_cv: Condvar::new(),
            inner: Mutex::new(Inner::default()),
            commands,
            scans: AtomicU64::new(0),
            files_read: AtomicU64::new(0),
            stat_calls: AtomicU64::new(0),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Kills every `command` tool process of this workspace running now (each whole process
    /// group) and returns how many there were; their calls end with
    /// [`CommandFailure::Killed`]. What a host calls before it exits, so that no command
    /// outlives it (`tooldef serve` does). Calls waiting for a slot are not affected.
    pub fn kill_commands(&self) -> usize {
        self.commands.kill_all()
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
        #[cfg(test)]
        if let Some(hook) = &self.options.listed_hook {
            hook();
        }
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
            // Touched but not changed: keep the live version, so nothing is re-registered. A
            // schema respelled with the same IR is a change (the MCP renderer writes the text).
            Some(prev)
                if prev.spec == spec
                    && prev.spec.descriptor.source == spec.descriptor.source
                    && prev.tool.path == path =>
            {
                prev
            }
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
            env: c.env,
            pool: Arc::clone(&self.commands),
        });
        let tool = Arc::new(WorkspaceTool { descriptor: spec.descriptor.clone(), path, command });
        Loaded { spec, tool }
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

/// Reads a listed spec through the shared reader (opened without blocking, checked by its
/// handle, read bounded), refusing it when it is no longer the file that was listed: a file
/// swapped for a FIFO, another file or a larger one between the listing and the read.
fn read_file(entry: &Entry, dir: &Path, limit: u64) -> Result<Vec<u8>, SkipReason> {
    let (file, md) = match files::open_regular(&entry.open_path(dir)) {
        Ok(opened) => opened,
        // Listed as a regular file: it was replaced since.
        Err(FileProblem::NotRegular { .. }) => return Err(SkipReason::ChangedWhileReading),
        Err(problem) => return Err(problem.into()),
    };
    if FileKey::of(&md) != entry.key {
        return Err(SkipReason::ChangedWhileReading);
    }
    let bytes = files::read_open(file, &md, limit).map_err(SkipReason::from)?;
    if bytes.len() as u64 != entry.key.len() {
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

    #[cfg(unix)]
    #[test]
    fn a_file_swapped_for_a_fifo_after_listing_blocks_neither_this_reconcile_nor_the_next() {
        use std::sync::atomic::AtomicBool;
        let dir = temp_dir("fifo");
        std::fs::write(dir.join("a.json"), "{}").unwrap();
        std::fs::write(dir.join("b.json"), r#"{"description": "first"}"#).unwrap();
        // Once armed, `b.json` is swapped for a FIFO with no writer after the listing.
        let armed = Arc::new(AtomicBool::new(false));
        let (swap_dir, swap_armed) = (dir.clone(), Arc::clone(&armed));
        let options = WorkspaceOptions {
            listed_hook: Some(Arc::new(move || {
                if swap_armed.swap(false, Ordering::SeqCst) {
                    let b = swap_dir.join("b.json");
                    std::fs::remove_file(&b).unwrap();
                    let mode = rustix::fs::Mode::from_raw_mode(0o600);
                    rustix::fs::mkfifoat(rustix::fs::CWD, &b, mode).unwrap();
                }
            })),
            ..WorkspaceOptions::default()
        };
        let ws = Workspace { options, ..Workspace::new(&dir) };
        let (tx, rx) = std::sync::mpsc::channel();
        let worker = std::thread::spawn(move || {
            let registry = crate::ToolRegistry::new();
            let description = |r: &crate::ToolRegistry| {
                r.get("b").map(|t| t.descriptor().description.to_string())
            };
            let reasons = |r: &ReconcileReport| -> Vec<SkipReason> {
                r.skipped.iter().map(|s| s.reason.clone()).collect()
            };
            let mut seen = Vec::new();
            ws.reconcile(&registry).unwrap();
            // Rewritten, then swapped for the FIFO between the listing and the read.
            std::fs::write(ws.dir().join("b.json"), r#"{"description": "second"}"#).unwrap();
            armed.store(true, Ordering::SeqCst);
            for _ in 0..2 {
                let report = ws.reconcile(&registry).unwrap();
                seen.push((reasons(&report), registry.get("a").is_some(), description(&registry)));
            }
            let _ = tx.send(seen);
        });
        let seen =
            rx.recv_timeout(Duration::from_secs(10)).expect("a reconcile blocked on the FIFO");
        worker.join().unwrap();
        let kept = Some("first".to_owned());
        assert_eq!(
            seen,
            [
                (vec![SkipReason::ChangedWhileReading], true, kept.clone()),
                (vec![SkipReason::NotRegular { what: "a FIFO" }], true, kept),
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn transient_failures_are_not_cached() {
        assert!(SkipReason::Vanished.is_transient());
        assert!(SkipReason::ChangedWhileReading.is_transient());
        assert!(!SkipReason::Invalid(String::new()).is_transient());
    }
}
