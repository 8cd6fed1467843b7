//! Spec files on disk: the one reader behind the `tooldef` command, [`crate::export`] and the
//! workspace, so that a directory means the same thing to all three.
//!
//! # Opening a file
//!
//! Every spec file is opened without blocking (`O_NONBLOCK` on unix, so that a FIFO with no
//! writer cannot hang the reader) and checked by its handle (`fstat`, never a second lookup of
//! the path): anything but a regular file (a FIFO, a socket, a device, a directory) is refused
//! with [`FileProblem::NotRegular`], naming what it is. The size is checked on the same handle,
//! and the read stops at the limit plus one byte, so a file that grows while being read is
//! refused rather than read without bound.
//!
//! # Listing a directory
//!
//! Only the directory itself is read, never its subdirectories. For each entry:
//!
//! - a name starting with `.` is ignored (editors' swap files, `.git`);
//! - a name that is not UTF-8 is reported ([`FileProblem::NonUtf8Name`]);
//! - a name without the extension `.json` (a spec) or `.removed` (a sentinel), in any case
//!   (`.JSON` too), is ignored; the lowercase spelling wins over the others where both exist;
//! - a stem that is not a tool name (`^[a-zA-Z0-9_-]{1,64}$`) is reported, never renamed;
//! - a symlink is followed only to a regular file inside the directory (both resolved); one
//!   that leads outside is reported ([`FileProblem::SymlinkOutside`]);
//! - anything but a regular file is reported ([`FileProblem::NotRegular`]);
//! - a spec larger than the limit is reported ([`FileProblem::TooLarge`]) without being read.
//!
//! The limit is [`MAX_SPEC_BYTES`](crate::spec::MAX_SPEC_BYTES) for one-shot loads; a workspace may lower it
//! ([`crate::WorkspaceOptions::max_file_size`]) and uses the same value by default.
//!
//! Owns file and directory access only: parsing is [`crate::spec`]'s, what a listing means for a
//! registry is the workspace's, and what a one-shot load keeps is [`crate::export`]'s.

use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::descriptor::{NameError, ToolName};

/// What a file of a tool directory is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum FileKind {
    /// A `.json` spec.
    Spec,
    /// A `.removed` sentinel.
    Removed,
}

/// Why a file cannot be read, or an entry of a directory cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FileProblem {
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
    /// A symlink that resolves outside the directory.
    #[error("symlink leads outside the directory, to {}", target.display())]
    SymlinkOutside {
        /// Where it leads.
        target: PathBuf,
    },
    /// Not a regular file.
    #[error("{what}, not a regular file")]
    NotRegular {
        /// What it is instead (`a FIFO`, `a directory`, ...).
        what: &'static str,
    },
    /// Larger than the limit.
    #[error("{size} bytes is over the limit of {limit} bytes")]
    TooLarge {
        /// The file's size (at least this much).
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The file does not exist (or went between the listing and the read).
    #[error("no such file")]
    NotFound,
    /// Any other failure of the operating system.
    #[error("cannot read: {0}")]
    Io(String),
}

impl FileProblem {
    fn io(e: &io::Error) -> Self {
        if e.kind() == io::ErrorKind::NotFound {
            FileProblem::NotFound
        } else {
            FileProblem::Io(e.to_string())
        }
    }
}

/// What a file type is, for messages.
fn describe(md: &Metadata) -> &'static str {
    let ft = md.file_type();
    if ft.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_socket() {
            return "a socket";
        }
        if ft.is_block_device() || ft.is_char_device() {
            return "a device";
        }
    }
    "not a file"
}

/// Opens `path` for reading without blocking and checks, by the handle, that it is a regular
/// file.
///
/// # Errors
///
/// [`FileProblem::NotRegular`] for a FIFO, socket, device or directory; [`FileProblem::NotFound`];
/// [`FileProblem::Io`] for any other failure.
pub fn open_regular(path: &Path) -> Result<(File, Metadata), FileProblem> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A FIFO opened for reading without a writer would block here; the flag has no effect
        // on the regular files that are read afterwards.
        let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY;
        options.custom_flags(flags.bits().cast_signed());
    }
    let file = options.open(path).map_err(|e| FileProblem::io(&e))?;
    let md = file.metadata().map_err(|e| FileProblem::io(&e))?;
    if !md.is_file() {
        return Err(FileProblem::NotRegular { what: describe(&md) });
    }
    Ok((file, md))
}

/// Reads an open regular file to its end, at most `limit` bytes.
///
/// # Errors
///
/// [`FileProblem::TooLarge`] when the handle's size or what was read passes `limit`.
pub(crate) fn read_open(file: File, md: &Metadata, limit: u64) -> Result<Vec<u8>, FileProblem> {
    if md.len() > limit {
        return Err(FileProblem::TooLarge { size: md.len(), limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(md.len()).unwrap_or(0));
    // The file may grow after the `fstat`: never read more than the limit.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| FileProblem::io(&e))?;
    if bytes.len() as u64 > limit {
        return Err(FileProblem::TooLarge { size: bytes.len() as u64, limit });
    }
    Ok(bytes)
}

/// Reads the regular file at `path`, without blocking on a FIFO and at most `limit` bytes.
///
/// # Errors
///
/// Anything [`open_regular`] refuses, and [`FileProblem::TooLarge`].
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, FileProblem> {
    let (file, md) = open_regular(path)?;
    read_open(file, &md, limit)
}

/// A usable entry of a tool directory.
#[derive(Debug, Clone)]
pub(crate) struct Listed {
    /// The file name (UTF-8, checked); its stem is a valid tool name.
    pub(crate) file_name: String,
    /// The length of the stem in `file_name`.
    pub(crate) stem_len: usize,
    /// Spec or sentinel.
    pub(crate) kind: FileKind,
    /// Whether the extension is spelled in lowercase (wins over other spellings).
    pub(crate) canonical_ext: bool,
    /// The `stat` of the file (of the target, for a symlink).
    pub(crate) metadata: Metadata,
    /// The resolved target of a symlink (inside the directory).
    pub(crate) target: Option<PathBuf>,
}

impl Listed {
    /// The tool name (the stem), already checked against the name rule.
    pub(crate) fn name(&self) -> &str {
        &self.file_name[..self.stem_len]
    }

    /// The path to open: the listed path, or the resolved target of a symlink.
    pub(crate) fn open_path(&self, dir: &Path) -> PathBuf {
        self.target.clone().unwrap_or_else(|| dir.join(&self.file_name))
    }
}

/// An entry of a tool directory that cannot be used.
#[derive(Debug, Clone)]
pub(crate) struct Refused {
    /// The path as listed.
    pub(crate) path: PathBuf,
    /// The tool name and kind, when the name is usable (the problem is then with the file).
    pub(crate) tool: Option<(ToolName, FileKind)>,
    /// Why.
    pub(crate) problem: FileProblem,
}

/// One pass over a tool directory.
#[derive(Debug, Default)]
pub(crate) struct Listing {
    /// Usable entries, in directory order.
    pub(crate) entries: Vec<Listed>,
    /// Entries that cannot be used, in directory order.
    pub(crate) refused: Vec<Refused>,
    /// How many `stat`-like calls the pass made.
    pub(crate) stats: u64,
}

/// Whether `stem` is a valid tool name, without building one (the common case allocates
/// nothing).
fn valid_name(stem: &str) -> Result<(), NameError> {
    let ok = !stem.is_empty()
        && stem.len() <= ToolName::MAX_LEN
        && stem.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok { Ok(()) } else { ToolName::parse(stem.to_owned()).map(drop) }
}

/// Lists the tool files of `dir` by the policy of this module; specs larger than `limit` are
/// refused without being opened.
///
/// # Errors
///
/// The directory cannot be listed (or, for a symlink in it, resolved).
pub(crate) fn list_dir(dir: &Path, limit: u64) -> io::Result<Listing> {
    let mut out = Listing::default();
    // Resolved lazily: only symlinks need it.
    let mut canonical_dir: Option<PathBuf> = None;
    for item in fs::read_dir(dir)? {
        let entry = item?;
        let os_name = entry.file_name();
        if os_name.as_encoded_bytes().first() == Some(&b'.') {
            continue;
        }
        let file_name = match os_name.into_string() {
            Ok(name) => name,
            Err(os_name) => {
                out.refuse(dir.join(os_name), None, FileProblem::NonUtf8Name);
                continue;
            }
        };
        let Some((stem, ext)) = file_name.rsplit_once('.') else { continue };
        let kind = if ext.eq_ignore_ascii_case("json") {
            FileKind::Spec
        } else if ext.eq_ignore_ascii_case("removed") {
            FileKind::Removed
        } else {
            continue;
        };
        let canonical_ext = ext == "json" || ext == "removed";
        if let Err(error) = valid_name(stem) {
            let problem = FileProblem::InvalidName { stem: stem.to_owned(), error };
            out.refuse(dir.join(&file_name), None, problem);
            continue;
        }
        let stem_len = stem.len();
        let path = dir.join(&file_name);
        let tool = || ToolName::parse(file_name[..stem_len].to_owned()).ok().map(|n| (n, kind));
        let resolved = match entry.file_type() {
            Ok(ft) if ft.is_symlink() => {
                out.stats += 2;
                let dir_c = match &canonical_dir {
                    Some(c) => c.clone(),
                    None => canonical_dir.insert(fs::canonicalize(dir)?).clone(),
                };
                resolve_inside(&path, &dir_c)
            }
            Ok(_) => {
                out.stats += 1;
                entry.metadata().map(|md| (None, md)).map_err(|e| FileProblem::io(&e))
            }
            Err(e) => Err(FileProblem::io(&e)),
        };
        let (target, md) = match resolved {
            Ok(found) => found,
            Err(problem) => {
                out.refuse(path, tool(), problem);
                continue;
            }
        };
        let problem = if !md.is_file() {
            Some(FileProblem::NotRegular { what: describe(&md) })
        } else if kind == FileKind::Spec && md.len() > limit {
            Some(FileProblem::TooLarge { size: md.len(), limit })
        } else {
            None
        };
        if let Some(problem) = problem {
            out.refuse(path, tool(), problem);
            continue;
        }
        out.entries.push(Listed { file_name, stem_len, kind, canonical_ext, metadata: md, target });
    }
    Ok(out)
}

/// The target of the symlink `path` and its `stat`, when it lies inside `dir` (canonical).
fn resolve_inside(path: &Path, dir: &Path) -> Result<(Option<PathBuf>, Metadata), FileProblem> {
    let target = fs::canonicalize(path).map_err(|e| FileProblem::io(&e))?;
    if !target.starts_with(dir) {
        return Err(FileProblem::SymlinkOutside { target });
    }
    let md = fs::metadata(&target).map_err(|e| FileProblem::io(&e))?;
    Ok((Some(target), md))
}

impl Listing {
    fn refuse(&mut self, path: PathBuf, tool: Option<(ToolName, FileKind)>, problem: FileProblem) {
        self.refused.push(Refused { path, tool, problem });
    }

    /// The entries sorted in runs of one stem; within a run specs first, each kind in
    /// precedence order (the lowercase extension, then the byte-wise smaller file name).
    pub(crate) fn sort(&mut self) {
        self.entries.sort_unstable_by(|a, b| {
            (a.name(), a.kind, !a.canonical_ext, &a.file_name).cmp(&(
                b.name(),
                b.kind,
                !b.canonical_ext,
                &b.file_name,
            ))
        });
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tooldef-files-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_fifo_is_refused_by_its_handle_without_blocking() {
        let dir = temp_dir("fifo");
        let fifo = dir.join("pipe.json");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, rustix::fs::Mode::from_raw_mode(0o600))
            .unwrap();
        // No writer ever opens it: a blocking open would never return.
        assert_eq!(read_regular(&fifo, 64), Err(FileProblem::NotRegular { what: "a FIFO" }));
        assert_eq!(read_regular(&dir, 64), Err(FileProblem::NotRegular { what: "a directory" }));
        assert_eq!(read_regular(&dir.join("none.json"), 64), Err(FileProblem::NotFound));
        let listing = list_dir(&dir, 64).unwrap();
        assert!(listing.entries.is_empty());
        let refused: Vec<_> = listing.refused.iter().map(|r| r.problem.to_string()).collect();
        assert_eq!(refused, ["a FIFO, not a regular file"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reads_stop_at_the_limit() {
        let dir = temp_dir("limit");
        let file = dir.join("a.json");
        fs::write(&file, "12345").unwrap();
        assert_eq!(read_regular(&file, 5).unwrap(), b"12345");
        assert_eq!(read_regular(&file, 4), Err(FileProblem::TooLarge { size: 5, limit: 4 }));
        fs::remove_dir_all(&dir).unwrap();
    }
}
