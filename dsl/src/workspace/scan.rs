//! One pass over the workspace directory through the shared reader ([`crate::files`], whose
//! policy decides which entries are tool files and which are refused), recording the identity
//! of every file (size, modification time and, on unix, inode and change time) so that
//! unchanged files are recognised without being read.
//!
//! Reads the directory and `stat`s entries; never opens a file (that is [`super::read_file`]).

use std::fs::Metadata;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub(super) use crate::files::FileKind as Kind;
use crate::files::{self, FileProblem};

use super::{SkipReason, Skipped, WorkspaceError};

/// The identity of a file's content as `stat` reports it. Equal keys mean "not changed".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FileKey {
    len: u64,
    modified: Option<SystemTime>,
    #[cfg(unix)]
    dev: u64,
    #[cfg(unix)]
    ino: u64,
    #[cfg(unix)]
    ctime: (i64, i64),
}

impl FileKey {
    pub(super) fn of(md: &Metadata) -> Self {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        FileKey {
            len: md.len(),
            modified: md.modified().ok(),
            #[cfg(unix)]
            dev: md.dev(),
            #[cfg(unix)]
            ino: md.ino(),
            #[cfg(unix)]
            ctime: (md.ctime(), md.ctime_nsec()),
        }
    }

    pub(super) fn len(&self) -> u64 {
        self.len
    }
}

/// A live file of the workspace. Kept small: a no-op reconcile builds one per file.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    /// The file name (UTF-8, checked); its stem is a valid tool name.
    pub(super) file_name: String,
    /// The length of the stem in `file_name`.
    stem_len: usize,
    /// Spec or sentinel.
    pub(super) kind: Kind,
    /// Whether the extension is spelled in lowercase (wins over other spellings).
    pub(super) canonical_ext: bool,
    /// The content's identity.
    pub(super) key: FileKey,
    /// The resolved target of a symlink (inside the directory).
    target: Option<PathBuf>,
}

impl Entry {
    /// The tool name (the stem), already checked against the name rule.
    #[inline]
    pub(super) fn name(&self) -> &str {
        &self.file_name[..self.stem_len]
    }

    /// The path as listed.
    pub(super) fn path(&self, dir: &Path) -> PathBuf {
        dir.join(&self.file_name)
    }

    /// The path to open: the listed path, or the resolved target of a symlink.
    pub(super) fn open_path(&self, dir: &Path) -> PathBuf {
        self.target.clone().unwrap_or_else(|| self.path(dir))
    }
}

impl From<FileProblem> for SkipReason {
    fn from(problem: FileProblem) -> Self {
        match problem {
            FileProblem::InvalidName { stem, error } => SkipReason::InvalidName { stem, error },
            FileProblem::NonUtf8Name => SkipReason::NonUtf8Name,
            FileProblem::SymlinkOutside { target } => SkipReason::SymlinkOutside { target },
            FileProblem::NotRegular { what } => SkipReason::NotRegular { what },
            FileProblem::TooLarge { size, limit } => SkipReason::TooLarge { size, limit },
            FileProblem::NotFound => SkipReason::Vanished,
            other => SkipReason::Io(other.to_string()),
        }
    }
}

/// The result of one directory pass.
#[derive(Debug, Default)]
pub(super) struct Listing {
    pub(super) entries: Vec<Entry>,
    /// Files with no usable name.
    pub(super) skipped: Vec<Skipped>,
    /// Tool files (valid name, known kind) that cannot be used.
    pub(super) failed: Vec<(Kind, Skipped)>,
    /// How many `stat`-like calls the pass made.
    pub(super) stats: u64,
}

/// Lists `dir`. A missing directory is an empty workspace.
pub(super) fn list(dir: &Path, max_file_size: u64) -> Result<Listing, WorkspaceError> {
    let listing = match files::list_dir(dir, max_file_size) {
        Ok(listing) => listing,
        Err(e) if e.kind() == io::ErrorKind::NotFound && !dir.exists() => {
            return Ok(Listing::default());
        }
        Err(e) => return Err(WorkspaceError::read_dir(dir, &e)),
    };
    let mut out = Listing { stats: listing.stats, ..Listing::default() };
    out.entries = listing
        .entries
        .into_iter()
        .map(|l| Entry {
            key: FileKey::of(&l.metadata),
            file_name: l.file_name,
            stem_len: l.stem_len,
            kind: l.kind,
            canonical_ext: l.canonical_ext,
            target: l.target,
        })
        .collect();
    for refused in listing.refused {
        let reason = SkipReason::from(refused.problem);
        let path = refused.path;
        match refused.tool {
            Some((name, kind)) => {
                let skipped = Skipped { path, name: Some(name), reason, kept_previous: false };
                out.failed.push((kind, skipped));
            }
            None => {
                tracing::warn!(path = %path.display(), %reason, "workspace file skipped");
                out.skipped.push(Skipped { path, name: None, reason, kept_previous: false });
            }
        }
    }
    Ok(out)
}
