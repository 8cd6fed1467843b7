//! Writing spec files into `import --out DIR` without ever writing outside it.
//!
//! A name in DIR that is a symbolic link is never written through, dangling or not, with or
//! without `--force`: it is refused, naming the path. Refused rather than replaced, because a
//! link in the output directory was put there on purpose by someone, and replacing it would
//! silently undo that; the user removes it or picks another DIR. New files are created with
//! `create_new` (`O_CREAT | O_EXCL`, which fails on any existing name, a dangling link
//! included, and so never follows one); with `--force`, an existing regular file is replaced by
//! renaming a new file over it (a rename replaces the name, never what a link points to), so
//! even a link that appears between the check and the write is not followed.
//!
//! Owns file creation in DIR only; what goes into the files is `import`'s.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Whether `path` may be written: nothing there, or (with `force`) a regular file.
pub(crate) fn check_target(path: &Path, force: bool) -> Result<(), String> {
    match fs::symlink_metadata(path) {
        Ok(md) if md.file_type().is_symlink() => Err(format!(
            "{}: is a symbolic link; refusing to write through it (remove it or choose another \
             `--out`)",
            path.display()
        )),
        Ok(_) if !force => {
            Err(format!("{}: already exists; pass `--force` to overwrite", path.display()))
        }
        Ok(md) if !md.is_file() => {
            Err(format!("{}: not a regular file; refusing to overwrite it", path.display()))
        }
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Writes `bytes` to `path` as a new file, or (with `force`) in place of a regular file, never
/// through a symbolic link.
pub(crate) fn write(path: &Path, bytes: &[u8], force: bool) -> Result<(), String> {
    check_target(path, force)?;
    let fail = |e: io::Error| format!("{}: {e}", path.display());
    if !force {
        return create_new(path, bytes).map_err(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => {
                format!("{}: already exists; pass `--force` to overwrite", path.display())
            }
            _ => fail(e),
        });
    }
    let temp = temp_beside(path);
    create_new(&temp, bytes).map_err(fail)?;
    fs::rename(&temp, path).map_err(|e| {
        let _ = fs::remove_file(&temp);
        fail(e)
    })
}

/// Creates `path`, failing if any file or link is there.
fn create_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// A fresh name in the directory of `path` (a dot-file, so no tool directory reads it).
fn temp_beside(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.{}-{n}.tmp", std::process::id()))
}
