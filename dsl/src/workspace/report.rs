//! What a reconcile tells its caller: the tools it changed, the files it skipped and why, and
//! the errors that stop a reconcile as a whole.
//!
//! Plain data; the reconcile that fills it is in [`super::Workspace`].

use std::io;
use std::path::{Path, PathBuf};

use crate::descriptor::{NameError, ToolName};

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
    /// Not a regular file (a directory, a FIFO, a device, a symlink to one).
    #[error("{what}, not a regular file")]
    NotRegular {
        /// What it is instead (`a FIFO`, `a directory`, ...).
        what: &'static str,
    },
    /// Larger than [`WorkspaceOptions::max_file_size`](super::WorkspaceOptions::max_file_size).
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
    /// Whether the failure may vanish on its own, so its outcome must not be cached.
    pub(super) fn is_transient(&self) -> bool {
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
    pub(super) fn read_dir(path: &Path, e: &io::Error) -> Self {
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
