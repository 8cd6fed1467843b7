//! Loading spec files from paths and directories, once: what a `build.rs` and the `tooldef`
//! command read (the live workspace keeps its own loader over the same directory reader).
//!
//! Owns the rules of a one-shot load over the shared directory reader ([`crate::files`], whose
//! policy says which entries are tool files): the file stem names the tool, a stem that is not a
//! tool name is skipped with a warning, a stem with a `.removed` sentinel is skipped, specs are
//! sorted by name. One bad tool never hides the others: [`load_specs`] and [`load_spec_dir`]
//! read every file and, when some fail, return a [`SpecsError`] holding both the specs that
//! loaded and one error per file or tool. It does not watch directories or keep state between
//! loads (the workspace loader does), and it never prints: a build script prints the cargo
//! directives it is handed ([`Specs::rerun_if_changed`]). Writing rendered JSON is
//! [`crate::export`]'s.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::descriptor::{NameError, ToolDescriptor, ToolName};
use crate::export::ExportError;
use crate::files::{self, FileKind, FileProblem};
use crate::spec::{MAX_SPEC_BYTES, Spec, load_spec_file, parse_bytes};

/// A spec loaded from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedSpec {
    /// The file it came from.
    pub path: PathBuf,
    /// The parsed spec.
    pub spec: Spec,
}

/// Why a file of a directory was not loaded (a warning, not an error: the file names no tool,
/// or another file decides for its name).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SkipReason {
    /// The file stem is not a valid tool name.
    InvalidStem(NameError),
    /// A `.removed` sentinel with the same stem tears the spec down.
    Removed,
    /// The file name is not UTF-8.
    NonUtf8Name,
    /// Another spelling of the same stem wins (`a.json` over `a.JSON`).
    Shadowed {
        /// The file that wins.
        by: PathBuf,
    },
    /// The file was listed but was gone by the time it was read: it is not there, as for the
    /// live workspace.
    Vanished,
}

/// A file of a directory that was skipped, and why.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// Why it was skipped.
    pub reason: SkipReason,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.reason {
            SkipReason::InvalidStem(e) => {
                write!(f, "{path}: skipped: the file name is not a tool name: {e}")
            }
            SkipReason::Removed => {
                write!(f, "{path}: skipped: a `.removed` file of the same name tears it down")
            }
            SkipReason::NonUtf8Name => write!(f, "{path}: skipped: the file name is not UTF-8"),
            SkipReason::Shadowed { by } => {
                write!(f, "{path}: skipped: {} defines the same tool", by.display())
            }
            SkipReason::Vanished => {
                write!(f, "{path}: skipped: deleted while the directory was being read")
            }
        }
    }
}

/// Specs loaded from files and directories, in load order, with what was skipped.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Specs {
    /// The specs: files in the order given, a directory's specs sorted by name where it was
    /// given.
    pub loaded: Vec<LoadedSpec>,
    /// Directory entries that were skipped (each also logged as a `tracing` warning).
    pub skipped: Vec<Skipped>,
    /// Every file and directory read, for [`Specs::rerun_if_changed`].
    pub sources: Vec<PathBuf>,
}

impl Specs {
    /// The descriptors, in load order.
    pub fn descriptors(&self) -> Vec<&ToolDescriptor> {
        self.loaded.iter().map(|l| &l.spec.descriptor).collect()
    }

    /// The `cargo:rerun-if-changed=...` lines a build script prints so that it runs again when a
    /// spec (or a directory's list of files) changes.
    pub fn rerun_if_changed(&self) -> Vec<String> {
        self.sources.iter().map(|p| format!("cargo:rerun-if-changed={}", p.display())).collect()
    }
}

/// Specs that loaded and every file or tool that did not: what [`load_specs`] and
/// [`load_spec_dir`] return when something fails. One bad file never hides the others.
#[derive(Debug)]
#[non_exhaustive]
pub struct SpecsError {
    /// The specs that loaded, in load order, with what was skipped.
    pub specs: Specs,
    /// One error per file or tool that failed, in load order; never empty.
    pub errors: Vec<ExportError>,
}

impl fmt::Display for SpecsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

// No source: the text already lists every error with its causes, and a list has no single
// cause (the errors are in `errors`).
impl std::error::Error for SpecsError {}

/// What a load gathers: the good specs and the errors.
#[derive(Default)]
struct Loading {
    specs: Specs,
    errors: Vec<ExportError>,
}

impl Loading {
    fn finish(mut self) -> Result<Specs, SpecsError> {
        self.drop_duplicates();
        if self.errors.is_empty() {
            Ok(self.specs)
        } else {
            Err(SpecsError { specs: self.specs, errors: self.errors })
        }
    }

    /// Keeps the first spec of each name; every later one is an error.
    fn drop_duplicates(&mut self) {
        let mut seen: indexmap::IndexMap<String, PathBuf> = indexmap::IndexMap::new();
        let mut kept = Vec::with_capacity(self.specs.loaded.len());
        for l in std::mem::take(&mut self.specs.loaded) {
            let name = l.spec.descriptor.name.as_str();
            match seen.get(name) {
                Some(first) => self.errors.push(ExportError::DuplicateName {
                    name: name.to_owned(),
                    first: first.clone(),
                    second: l.path.clone(),
                }),
                None => {
                    seen.insert(name.to_owned(), l.path.clone());
                    kept.push(l);
                }
            }
        }
        self.specs.loaded = kept;
    }

    fn skip(&mut self, path: PathBuf, reason: SkipReason) {
        let skipped = Skipped { path, reason };
        tracing::warn!(%skipped, "spec skipped");
        self.specs.skipped.push(skipped);
    }

    fn dir(&mut self, dir: &Path) {
        match files::list_dir(dir, MAX_SPEC_BYTES) {
            Ok(listing) => self.listed(dir, listing),
            Err(error) => self.errors.push(ExportError::Io { path: dir.to_owned(), error }),
        }
    }

    /// Loads what a listing of `dir` found. A file listed but gone by the time it is looked at
    /// or read (another process deleted it) is skipped as not there, never an error.
    fn listed(&mut self, dir: &Path, mut listing: files::Listing) {
        self.specs.sources.push(dir.to_owned());
        listing.sort();
        // A sentinel tears its stem down even when it cannot be read, unless it is gone.
        let removed: std::collections::BTreeSet<&str> = listing
            .entries
            .iter()
            .filter(|e| e.kind == FileKind::Removed)
            .map(files::Listed::name)
            .chain(listing.refused.iter().filter_map(|r| match (&r.tool, &r.problem) {
                (_, FileProblem::NotFound) => None,
                (Some((name, FileKind::Removed)), _) => Some(name.as_str()),
                _ => None,
            }))
            .collect();
        let mut failed: Vec<(String, ExportError)> = Vec::new();
        for r in &listing.refused {
            match (&r.tool, &r.problem) {
                (None, FileProblem::InvalidName { error, .. }) => {
                    self.skip(r.path.clone(), SkipReason::InvalidStem(error.clone()));
                }
                (None, _) => self.skip(r.path.clone(), SkipReason::NonUtf8Name),
                (Some((_, FileKind::Removed)), _) => {}
                (Some((_, FileKind::Spec)), FileProblem::NotFound) if gone(&r.path) => {
                    self.skip(r.path.clone(), SkipReason::Vanished);
                }
                (Some((name, FileKind::Spec)), _) if removed.contains(name.as_str()) => {
                    self.skip(r.path.clone(), SkipReason::Removed);
                }
                (Some((name, FileKind::Spec)), problem) => failed.push((
                    name.to_string(),
                    ExportError::File { path: r.path.clone(), problem: problem.clone() },
                )),
            }
        }
        failed.sort_by(|a, b| a.0.cmp(&b.0));
        let mut failed = failed.into_iter().peekable();
        let mut winner: Option<&files::Listed> = None;
        for entry in listing.entries.iter().filter(|e| e.kind == FileKind::Spec) {
            let name = entry.name();
            // Failures of stems sorted before this one come first: errors in name order.
            while let Some((_, e)) = failed.next_if(|(n, _)| n.as_str() < name) {
                self.errors.push(e);
            }
            let path = dir.join(&entry.file_name);
            if removed.contains(name) {
                self.skip(path, SkipReason::Removed);
                continue;
            }
            match winner {
                Some(w) if w.name() == name => {
                    self.skip(path, SkipReason::Shadowed { by: dir.join(&w.file_name) });
                    continue;
                }
                _ => winner = Some(entry),
            }
            // A failed file of the same stem does not hide a good one (`a.JSON` when `a.json`
            // is a FIFO): both are reported.
            while let Some((_, e)) = failed.next_if(|(n, _)| n == name) {
                self.errors.push(e);
            }
            self.listed_spec(dir, entry, path);
        }
        self.errors.extend(failed.map(|(_, e)| e));
    }

    fn listed_spec(&mut self, dir: &Path, entry: &files::Listed, path: PathBuf) {
        let Ok(name) = ToolName::parse(entry.name().to_owned()) else { return };
        let bytes = match files::read_regular(&entry.open_path(dir), MAX_SPEC_BYTES) {
            Ok(bytes) => bytes,
            Err(FileProblem::NotFound) if gone(&path) => {
                return self.skip(path, SkipReason::Vanished);
            }
            Err(problem) => {
                self.errors.push(ExportError::File { path, problem });
                return;
            }
        };
        let label = path.display().to_string();
        match parse_bytes(&label, &bytes, Some(&name), None) {
            Ok(spec) => {
                self.specs.sources.push(path.clone());
                self.specs.loaded.push(LoadedSpec { path, spec });
            }
            Err(e) => self.errors.push(ExportError::Spec(e)),
        }
    }
}

/// Whether the file listed at `path` is no longer there (a symlink that is still there but
/// leads nowhere is a broken file, not a vanished one).
fn gone(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
}

/// Loads spec files and directories in order: a file is read with [`load_spec_file`] (its
/// `name` key names the tool, else its stem), a directory with [`load_spec_dir`]'s rules.
///
/// # Errors
///
/// A [`SpecsError`] when any path cannot be read, any spec is invalid (each error names the file
/// and the JSON pointer) or two specs name the same tool (the first one is kept): it holds
/// every spec that loaded and one error per failure.
pub fn load_specs<P: AsRef<Path>>(paths: &[P]) -> Result<Specs, SpecsError> {
    let mut loading = Loading::default();
    for path in paths {
        let path = path.as_ref();
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => loading.dir(path),
            Ok(_) => match load_spec_file(path, None) {
                Ok(spec) => {
                    loading.specs.loaded.push(LoadedSpec { path: path.to_owned(), spec });
                    loading.specs.sources.push(path.to_owned());
                }
                Err(e) => loading.errors.push(ExportError::Spec(e)),
            },
            Err(error) => loading.errors.push(ExportError::Io { path: path.to_owned(), error }),
        }
    }
    loading.finish()
}

/// Loads the `*.json` specs of a directory (not its subdirectories) by the workspace rules of
/// [`crate::files`]: the file stem is the tool name (a `name` inside is ignored), dot-files are
/// ignored, a stem that is not a valid tool name is skipped with a warning, a stem that also has
/// a `.removed` file is skipped, other files are ignored; the specs are sorted by name. A file
/// deleted between the listing and its read is not there: it is skipped with a warning
/// ([`SkipReason::Vanished`]), as the workspace skips it.
///
/// # Errors
///
/// A [`SpecsError`] when the directory cannot be listed or any of its specs cannot be used (not
/// a regular file, a symlink leading out, too large, invalid): it holds every spec that loaded
/// and one error per file that did not, like the live workspace, which keeps loading the others.
pub fn load_spec_dir(dir: impl AsRef<Path>) -> Result<Specs, SpecsError> {
    let mut loading = Loading::default();
    loading.dir(dir.as_ref());
    loading.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> String {
        format!(r#"{{"name": "{name}", "input_schema": {{"type": "object"}}}}"#)
    }

    #[test]
    fn a_spec_deleted_between_the_listing_and_its_read_is_skipped_not_an_error() {
        let dir = temp_dir("vanished");
        for name in ["a", "b", "c"] {
            std::fs::write(dir.join(format!("{name}.json")), spec(name)).unwrap();
        }
        // The listing sees three specs; then another process deletes one, before it is read.
        let listing = files::list_dir(&dir, MAX_SPEC_BYTES).unwrap();
        std::fs::remove_file(dir.join("b.json")).unwrap();
        let mut loading = Loading::default();
        loading.listed(&dir, listing);
        let specs = loading.finish().unwrap();
        let names: Vec<&str> =
            specs.loaded.iter().map(|l| l.spec.descriptor.name.as_str()).collect();
        assert_eq!(names, ["a", "c"]);
        let skipped: Vec<String> = specs.skipped.iter().map(ToString::to_string).collect();
        let b = dir.join("b.json");
        assert_eq!(
            skipped,
            [format!("{}: skipped: deleted while the directory was being read", b.display())]
        );
        assert_eq!(specs.sources, [dir.clone(), dir.join("a.json"), dir.join("c.json")]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_spec_gone_before_its_stat_is_skipped_and_a_vanished_sentinel_removes_nothing() {
        let dir = temp_dir("unstatted");
        std::fs::write(dir.join("a.json"), spec("a")).unwrap();
        // What the listing records when a file goes between `readdir` and its `stat`.
        let name = |n: &str| ToolName::parse(n.to_owned()).unwrap();
        let mut listing = files::list_dir(&dir, MAX_SPEC_BYTES).unwrap();
        for (file, kind) in [("b.json", FileKind::Spec), ("a.removed", FileKind::Removed)] {
            listing.refused.push(files::Refused {
                path: dir.join(file),
                tool: Some((name(&file[..1]), kind)),
                problem: FileProblem::NotFound,
            });
        }
        let mut loading = Loading::default();
        loading.listed(&dir, listing);
        let specs = loading.finish().unwrap();
        assert_eq!(specs.loaded.len(), 1);
        assert_eq!(specs.loaded[0].spec.descriptor.name, "a");
        let skipped: Vec<String> = specs.skipped.iter().map(ToString::to_string).collect();
        assert_eq!(
            skipped,
            [format!(
                "{}: skipped: deleted while the directory was being read",
                dir.join("b.json").display()
            )]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_that_leads_nowhere_is_still_an_error() {
        let dir = temp_dir("dangling");
        std::os::unix::fs::symlink(dir.join("nowhere.json"), dir.join("a.json")).unwrap();
        let err = load_spec_dir(&dir).unwrap_err();
        let errors: Vec<String> = err.errors.iter().map(ToString::to_string).collect();
        assert_eq!(errors, [format!("{}: no such file", dir.join("a.json").display())]);
        assert!(err.specs.skipped.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tooldef-export-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(specs: &Specs) -> Vec<&str> {
        specs.loaded.iter().map(|l| l.spec.descriptor.name.as_str()).collect()
    }

    #[test]
    fn a_directory_loads_by_the_workspace_rules() {
        let dir = temp_dir("rules");
        for (file, text) in [
            ("b.json", r#"{"name": "other"}"#),
            ("a.json", "{}"),
            (".hidden.json", "{}"),
            ("bad name.json", "{}"),
            ("gone.json", "{}"),
            ("gone.removed", ""),
            ("notes.txt", "not a spec"),
        ] {
            std::fs::write(dir.join(file), text).unwrap();
        }
        let specs = load_spec_dir(&dir).unwrap();
        assert_eq!(names(&specs), ["a", "b"]);
        let skipped: Vec<_> = specs
            .skipped
            .iter()
            .map(|s| {
                (
                    s.path.file_name().unwrap().to_str().unwrap(),
                    matches!(s.reason, SkipReason::Removed),
                )
            })
            .collect();
        assert_eq!(skipped, [("bad name.json", false), ("gone.json", true)]);
        assert_eq!(
            specs.rerun_if_changed()[0],
            format!("cargo:rerun-if-changed={}", dir.display())
        );
        assert_eq!(specs.sources.len(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn paths_load_in_order_and_names_must_be_unique() {
        let dir = temp_dir("paths");
        std::fs::create_dir(dir.join("d")).unwrap();
        std::fs::write(dir.join("d/x.json"), "{}").unwrap();
        std::fs::write(dir.join("first.json"), r#"{"name": "y"}"#).unwrap();
        std::fs::write(dir.join("dup.json"), r#"{"name": "x"}"#).unwrap();
        let specs = load_specs(&[dir.join("first.json"), dir.join("d")]).unwrap();
        assert_eq!(names(&specs), ["y", "x"]);
        let err = load_specs(&[dir.join("d"), dir.join("dup.json")]).unwrap_err();
        // The first definition stays loaded; the second is the error.
        assert_eq!(names(&err.specs), ["x"]);
        assert_eq!(
            err.to_string(),
            format!(
                "{}: tool `x` is already defined by {}",
                dir.join("dup.json").display(),
                dir.join("d/x.json").display()
            )
        );
        let err = load_specs(&[dir.join("missing.json")]).unwrap_err();
        assert!(err.to_string().starts_with(&dir.join("missing.json").display().to_string()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// What a reporter that walks `source()` prints: each error's text, joined by `: `.
    fn chain(err: &dyn std::error::Error) -> String {
        let mut out = err.to_string();
        let mut next = err.source();
        while let Some(e) = next {
            out.push_str(": ");
            out.push_str(&e.to_string());
            next = e.source();
        }
        out
    }

    #[test]
    fn a_report_that_walks_the_chain_prints_each_cause_once() {
        let dir = temp_dir("chain");
        let missing = dir.join("missing.json");
        let io = std::fs::metadata(&missing).unwrap_err().to_string();
        let err = load_specs(&[&missing]).unwrap_err();
        assert!(matches!(&err.errors[..], [ExportError::Io { .. }]), "{err:?}");
        assert_eq!(chain(&err), format!("{}: {io}", missing.display()));
        assert_eq!(chain(&err.errors[0]), format!("{}: {io}", missing.display()));

        let bad = dir.join("bad.json");
        std::fs::write(&bad, r#"{"name": "bad name"}"#).unwrap();
        let cause = "tool name `bad name` has the character ' '";
        let err = load_specs(&[&bad]).unwrap_err();
        let report = chain(&err);
        assert_eq!(report.matches(cause).count(), 1, "{report}");
        assert_eq!(chain(&err.errors[0]).matches(cause).count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn every_bad_file_of_a_directory_is_an_error_and_the_good_ones_still_load() {
        let dir = temp_dir("many");
        for (file, text) in [
            ("a.json", "{}"),
            ("b.json", r#"{"descripton": "typo"}"#),
            ("c.json", "{}"),
            ("d.json", "{"),
        ] {
            std::fs::write(dir.join(file), text).unwrap();
        }
        std::fs::create_dir(dir.join("sub.json")).unwrap();
        let err = load_spec_dir(&dir).unwrap_err();
        assert_eq!(names(&err.specs), ["a", "c"]);
        let p = |f: &str| dir.join(f).display().to_string();
        assert_eq!(
            err.to_string(),
            [
                format!(
                    "{}: #: unknown key `descripton`; did you mean `description`?",
                    p("b.json")
                ),
                format!("{}:1:1: malformed JSON: EOF while parsing an object", p("d.json")),
                format!("{}: a directory, not a regular file", p("sub.json")),
            ]
            .join("\n")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_followed_inside_the_directory_only_and_fifos_refused() {
        let dir = temp_dir("links");
        let outside = temp_dir("links-outside");
        std::fs::write(dir.join("real.json"), "{}").unwrap();
        std::fs::write(outside.join("secret.json"), "{}").unwrap();
        std::os::unix::fs::symlink(dir.join("real.json"), dir.join("alias.json")).unwrap();
        std::os::unix::fs::symlink(outside.join("secret.json"), dir.join("leak.json")).unwrap();
        let fifo = dir.join("pipe.json");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, rustix::fs::Mode::from_raw_mode(0o600))
            .unwrap();
        let err = load_spec_dir(&dir).unwrap_err();
        assert_eq!(names(&err.specs), ["alias", "real"]);
        assert_eq!(
            err.to_string(),
            format!(
                "{}: symlink leads outside the directory, to {}\n{}: a FIFO, not a regular file",
                dir.join("leak.json").display(),
                std::fs::canonicalize(outside.join("secret.json")).unwrap().display(),
                fifo.display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::remove_dir_all(&outside).unwrap();
    }
}
