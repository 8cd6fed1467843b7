//! One pass over the workspace directory: classify each entry by name and type, refuse hostile
//! ones (bad names, symlinks leading out, non-regular files, oversized specs), and record the
//! identity of every file (size, modification time and, on unix, inode and change time) so that
//! unchanged files are recognised without being read.
//!
//! Reads the directory and `stat`s entries; never opens a file (that is [`super::read_file`]).

use std::fs::{self, Metadata};
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::descriptor::{NameError, ToolName};

use super::{SkipReason, Skipped, WorkspaceError};

/// What a file is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Kind {
    /// A `.json` spec.
    Spec,
    /// A `.removed` sentinel.
    Removed,
}

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

/// Whether `stem` is a valid tool name, without building one (the common case allocates
/// nothing).
fn valid_name(stem: &str) -> Result<(), NameError> {
    let ok = !stem.is_empty()
        && stem.len() <= ToolName::PORTABLE_MAX_LEN
        && stem.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok { Ok(()) } else { ToolName::parse(stem.to_owned()).map(drop) }
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
    let mut out = Listing::default();
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(WorkspaceError::read_dir(dir, &e)),
    };
    // Resolved lazily: only symlinks need it.
    let mut canonical_dir: Option<PathBuf> = None;
    for item in rd {
        let entry = match item {
            Ok(entry) => entry,
            Err(e) => return Err(WorkspaceError::read_dir(dir, &e)),
        };
        let os_name = entry.file_name();
        if os_name.as_encoded_bytes().first() == Some(&b'.') {
            continue; // dot-files: editors' swap files, `.git`, ...
        }
        let file_name = match os_name.into_string() {
            Ok(name) => name,
            Err(os_name) => {
                out.skip(dir.join(os_name), None, SkipReason::NonUtf8Name);
                continue;
            }
        };
        let Some((stem, ext)) = file_name.rsplit_once('.') else {
            continue; // no extension: not a tool file
        };
        let kind = if ext.eq_ignore_ascii_case("json") {
            Kind::Spec
        } else if ext.eq_ignore_ascii_case("removed") {
            Kind::Removed
        } else {
            continue; // other extensions (README.md, notes.txt): not tool files
        };
        let canonical_ext = ext == "json" || ext == "removed";
        if let Err(error) = valid_name(stem) {
            let reason = SkipReason::InvalidName { stem: stem.to_owned(), error };
            out.skip(dir.join(&file_name), None, reason);
            continue;
        }
        let stem_len = stem.len();
        let Ok(file_type) = entry.file_type() else {
            out.fail(kind, dir, &file_name, stem_len, SkipReason::Vanished);
            continue;
        };
        let (target, md) = if file_type.is_symlink() {
            out.stats += 2;
            let dir_c = match &canonical_dir {
                Some(c) => c.clone(),
                None => match fs::canonicalize(dir) {
                    Ok(c) => {
                        canonical_dir = Some(c.clone());
                        c
                    }
                    Err(e) => return Err(WorkspaceError::read_dir(dir, &e)),
                },
            };
            let target = match fs::canonicalize(dir.join(&file_name)) {
                Ok(t) => t,
                Err(e) => {
                    out.fail(kind, dir, &file_name, stem_len, SkipReason::io(&e));
                    continue;
                }
            };
            if !target.starts_with(&dir_c) {
                out.fail(kind, dir, &file_name, stem_len, SkipReason::SymlinkOutside { target });
                continue;
            }
            match fs::metadata(&target) {
                Ok(md) => (Some(target), md),
                Err(e) => {
                    out.fail(kind, dir, &file_name, stem_len, SkipReason::io(&e));
                    continue;
                }
            }
        } else {
            out.stats += 1;
            match entry.metadata() {
                Ok(md) => (None, md),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    out.fail(kind, dir, &file_name, stem_len, SkipReason::Vanished);
                    continue;
                }
                Err(e) => {
                    out.fail(kind, dir, &file_name, stem_len, SkipReason::io(&e));
                    continue;
                }
            }
        };
        if !md.is_file() {
            out.fail(kind, dir, &file_name, stem_len, SkipReason::NotRegular);
            continue;
        }
        if kind == Kind::Spec && md.len() > max_file_size {
            out.fail(
                kind,
                dir,
                &file_name,
                stem_len,
                SkipReason::TooLarge { size: md.len(), limit: max_file_size },
            );
            continue;
        }
        out.entries.push(Entry {
            file_name,
            stem_len,
            kind,
            canonical_ext,
            key: FileKey::of(&md),
            target,
        });
    }
    Ok(out)
}

impl Listing {
    fn fail(&mut self, kind: Kind, dir: &Path, file: &str, stem_len: usize, reason: SkipReason) {
        let name = ToolName::parse(file[..stem_len].to_owned()).ok();
        let skipped = Skipped { path: dir.join(file), name, reason, kept_previous: false };
        self.failed.push((kind, skipped));
    }

    fn skip(&mut self, path: PathBuf, name: Option<ToolName>, reason: SkipReason) {
        tracing::warn!(path = %path.display(), %reason, "workspace file skipped");
        self.skipped.push(Skipped { path, name, reason, kept_previous: false });
    }
}
