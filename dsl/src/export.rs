//! Export: loading spec files from paths and directories, and writing rendered provider JSON to
//! files, for a `build.rs` (and the `tooldef` command, which uses the same loading rules).
//!
//! Owns the directory rules of a one-shot load (the file stem names the tool, dot-files are
//! ignored, invalid stems are skipped, a stem with a `.removed` sentinel is skipped, specs sorted
//! by name) and writing one JSON array per renderer. It knows no provider: callers pass
//! [`Renderer`]s from the provider crates. It does not watch directories or keep state between
//! loads (the workspace loader does), and it never prints: a build script prints the cargo
//! directives it is handed ([`Specs::rerun_if_changed`]).
//!
//! # In a build script
//!
//! ```no_run
//! # struct OpenAiChat;
//! # impl tooldef::Renderer for OpenAiChat {
//! #     fn name(&self) -> &str { "openai-chat" }
//! #     fn render(&self, t: &tooldef::ToolDescriptor, p: tooldef::Policy)
//! #         -> Result<tooldef::Rendered, tooldef::RenderError> { unimplemented!() }
//! # }
//! // build.rs
//! use tooldef::export::{Target, export_to_out_dir, load_specs};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let specs = load_specs(&["tools"])?;
//!     for line in specs.rerun_if_changed() {
//!         println!("{line}");
//!     }
//!     let tools = specs.descriptors();
//!     let openai = OpenAiChat; // e.g. `tooldef_openai::ChatRenderer::new()`
//!     let written = export_to_out_dir(&tools, &[Target::new(&openai, "tools.openai.json")])?;
//!     for w in &written {
//!         for change in w.report.lossy() {
//!             println!("cargo:warning={change}");
//!         }
//!     }
//!     Ok(())
//! }
//! // main.rs: include_str!(concat!(env!("OUT_DIR"), "/tools.openai.json"))
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use crate::descriptor::{NameError, ToolDescriptor, ToolName};
use crate::render::{Policy, RenderError, Renderer, Report, json_array};
use crate::spec::{Spec, SpecError, load_spec_file};

/// A spec loaded from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedSpec {
    /// The file it came from.
    pub path: PathBuf,
    /// The parsed spec.
    pub spec: Spec,
}

/// Why a file of a directory was not loaded.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SkipReason {
    /// The file stem is not a valid tool name.
    InvalidStem(NameError),
    /// A `.removed` sentinel with the same stem tears the spec down.
    Removed,
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

/// Why specs cannot be loaded or rendered JSON cannot be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// A file or directory cannot be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A spec file cannot be read (the error names the file and the JSON pointer).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// Two specs name the same tool; a provider refuses a request with both.
    #[error("{}: tool `{name}` is already defined by {}", second.display(), first.display())]
    DuplicateName {
        /// The tool name.
        name: String,
        /// The file loaded first.
        first: PathBuf,
        /// The file that names it again.
        second: PathBuf,
    },
    /// The tools cannot be rendered for a target.
    #[error("{}: {renderer}: {source}", file.display())]
    Render {
        /// The output file being written.
        file: PathBuf,
        /// The renderer's name.
        renderer: String,
        /// What the renderer refused.
        #[source]
        source: Box<RenderError>,
    },
    /// `OUT_DIR` is not set (the caller is not a build script).
    #[error("`OUT_DIR` is not set; call `export` with a directory outside build scripts")]
    NoOutDir,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |source| ExportError::Io { path: path.to_owned(), source }
}

/// Loads spec files and directories in order: a file is read with [`load_spec_file`] (its
/// `name` key names the tool, else its stem), a directory with [`load_spec_dir`].
///
/// # Errors
///
/// A path cannot be read, a spec is invalid (the error names the file and the JSON pointer), or
/// two specs name the same tool.
pub fn load_specs<P: AsRef<Path>>(paths: &[P]) -> Result<Specs, ExportError> {
    let mut specs = Specs::default();
    for path in paths {
        let path = path.as_ref();
        let meta = std::fs::metadata(path).map_err(io(path))?;
        if meta.is_dir() {
            let dir = load_spec_dir(path)?;
            specs.loaded.extend(dir.loaded);
            specs.skipped.extend(dir.skipped);
            specs.sources.extend(dir.sources);
        } else {
            let spec = load_spec_file(path, None)?;
            specs.loaded.push(LoadedSpec { path: path.to_owned(), spec });
            specs.sources.push(path.to_owned());
        }
    }
    check_unique(&specs.loaded)?;
    Ok(specs)
}

fn check_unique(loaded: &[LoadedSpec]) -> Result<(), ExportError> {
    let mut seen: indexmap::IndexMap<&str, &Path> = indexmap::IndexMap::new();
    for l in loaded {
        let name = l.spec.descriptor.name.as_str();
        if let Some(first) = seen.insert(name, &l.path) {
            return Err(ExportError::DuplicateName {
                name: name.to_owned(),
                first: first.to_owned(),
                second: l.path.clone(),
            });
        }
    }
    Ok(())
}

/// Loads the `*.json` specs of a directory (not its subdirectories) by the workspace rules: the
/// file stem is the tool name (a `name` inside is ignored), dot-files are ignored, a stem that is
/// not a valid tool name is skipped with a warning, a stem that also has a `.removed` file is
/// skipped, other files are ignored; the specs are sorted by name.
///
/// # Errors
///
/// The directory or a spec cannot be read, or a spec is invalid. Unlike the live workspace,
/// which keeps loading the others, a one-shot load fails on the first bad spec.
pub fn load_spec_dir(dir: impl AsRef<Path>) -> Result<Specs, ExportError> {
    let dir = dir.as_ref();
    let mut json = Vec::new();
    let mut removed = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        let path = entry.path();
        let Some(file_name) = path.file_name().and_then(|n| n.to_str()) else { continue };
        if file_name.starts_with('.') || !entry.file_type().map_err(io(&path))?.is_file() {
            continue;
        }
        if let Some(stem) = file_name.strip_suffix(".json") {
            json.push((stem.to_owned(), path));
        } else if let Some(stem) = file_name.strip_suffix(".removed") {
            removed.push(stem.to_owned());
        }
    }
    json.sort_by(|a, b| a.0.cmp(&b.0));
    let mut specs = Specs { sources: vec![dir.to_owned()], ..Specs::default() };
    for (stem, path) in json {
        let name = match ToolName::parse(stem.clone()) {
            Ok(name) => name,
            Err(e) => {
                tracing::warn!(file = %path.display(), error = %e, "spec skipped: invalid file name");
                specs.skipped.push(Skipped { path, reason: SkipReason::InvalidStem(e) });
                continue;
            }
        };
        if removed.contains(&stem) {
            tracing::warn!(file = %path.display(), "spec skipped: torn down by a `.removed` file");
            specs.skipped.push(Skipped { path, reason: SkipReason::Removed });
            continue;
        }
        let spec = load_spec_file(&path, Some(&name))?;
        specs.sources.push(path.clone());
        specs.loaded.push(LoadedSpec { path, spec });
    }
    Ok(specs)
}

/// Renders tools for one provider into one JSON array text (compact or pretty), with the
/// report of every change made; the elements are exactly the renderer's per-tool wire objects.
///
/// # Errors
///
/// The renderer refuses the set or a tool.
pub fn render_json(
    renderer: &dyn Renderer,
    tools: &[&ToolDescriptor],
    policy: Policy,
    pretty: bool,
) -> Result<(String, Report), RenderError> {
    let rendered = renderer.render_set(tools, policy)?;
    let mut report = Report::default();
    for r in &rendered {
        report.extend(r.report().clone());
    }
    let text = if pretty {
        let values: Vec<serde_json::Value> = rendered.iter().map(|r| r.to_value()).collect();
        let mut text =
            serde_json::to_string_pretty(&values).unwrap_or_else(|_| json_array(&rendered));
        text.push('\n');
        text
    } else {
        json_array(&rendered)
    };
    Ok((text, report))
}

/// One output file: a renderer, the file name (relative to the export directory) and how to
/// render.
#[derive(Clone, Copy)]
pub struct Target<'a> {
    renderer: &'a dyn Renderer,
    file: &'a str,
    policy: Policy,
    pretty: bool,
}

impl fmt::Debug for Target<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Target")
            .field("renderer", &self.renderer.name())
            .field("file", &self.file)
            .field("policy", &self.policy)
            .field("pretty", &self.pretty)
            .finish()
    }
}

impl<'a> Target<'a> {
    /// `file` (e.g. `tools.openai.json`) rendered by `renderer`, lenient, compact.
    pub fn new(renderer: &'a dyn Renderer, file: &'a str) -> Self {
        Target { renderer, file, policy: Policy::Lenient, pretty: false }
    }

    /// Renders under `policy` (strict: a lossy change fails the build).
    pub fn policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// Pretty-prints the JSON (for files people read).
    pub fn pretty(mut self) -> Self {
        self.pretty = true;
        self
    }
}

/// A file written (or found up to date) by [`export`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Exported {
    /// The file.
    pub path: PathBuf,
    /// The renderer's name.
    pub renderer: String,
    /// Every change made to fit the provider.
    pub report: Report,
    /// Whether the file was written (false: it already had this content, and was left alone so
    /// that its modification time does not trigger rebuilds).
    pub written: bool,
}

/// Renders `tools` for each target and writes each JSON array to `dir/file`, creating `dir`;
/// a file that already holds the same text is not rewritten.
///
/// # Errors
///
/// A renderer refuses the tools (nothing further is written), or a file cannot be written.
pub fn export(
    dir: impl AsRef<Path>,
    tools: &[&ToolDescriptor],
    targets: &[Target<'_>],
) -> Result<Vec<Exported>, ExportError> {
    let dir = dir.as_ref();
    // Render everything first, so that a refusal leaves no half-written set of files.
    let mut outputs = Vec::with_capacity(targets.len());
    for t in targets {
        let path = dir.join(t.file);
        let (text, report) =
            render_json(t.renderer, tools, t.policy, t.pretty).map_err(|source| {
                ExportError::Render {
                    file: path.clone(),
                    renderer: t.renderer.name().to_owned(),
                    source: Box::new(source),
                }
            })?;
        outputs.push((path, t.renderer.name().to_owned(), text, report));
    }
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let mut written = Vec::with_capacity(outputs.len());
    for (path, renderer, text, report) in outputs {
        let same = std::fs::read(&path).is_ok_and(|old| old == text.as_bytes());
        if !same {
            std::fs::write(&path, &text).map_err(io(&path))?;
        }
        written.push(Exported { path, renderer, report, written: !same });
    }
    Ok(written)
}

/// [`export`] into the build script's `OUT_DIR`.
///
/// # Errors
///
/// `OUT_DIR` is not set, or anything [`export`] reports.
pub fn export_to_out_dir(
    tools: &[&ToolDescriptor],
    targets: &[Target<'_>],
) -> Result<Vec<Exported>, ExportError> {
    let dir = std::env::var_os("OUT_DIR").ok_or(ExportError::NoOutDir)?;
    export(PathBuf::from(dir), tools, targets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{JsonWriter, RenderCtx, RenderRule, Rendered};

    /// `{"n": name}`; refuses tools named `refused`.
    struct Names;

    impl Renderer for Names {
        fn name(&self) -> &str {
            "names"
        }
        fn render(&self, tool: &ToolDescriptor, policy: Policy) -> Result<Rendered, RenderError> {
            if tool.name.as_str() == "refused" {
                return Err(RenderError::new("refused", "", "", RenderRule::Unsupported, "no"));
            }
            let ctx = RenderCtx::new(tool, policy);
            let mut out = JsonWriter::new();
            out.begin_object();
            out.key("n");
            out.string(tool.name.as_str());
            out.end_object();
            Ok(ctx.finish(out))
        }
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
        std::fs::create_dir(dir.join("sub.json")).unwrap();
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
        assert!(matches!(&err, ExportError::DuplicateName { name, .. } if name == "x"), "{err}");
        let err = load_specs(&[dir.join("missing.json")]).unwrap_err();
        assert!(err.to_string().starts_with(&dir.join("missing.json").display().to_string()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn export_writes_each_target_once_and_refusals_write_nothing() {
        let dir = temp_dir("write");
        let a = ToolDescriptor::new("a");
        let b = ToolDescriptor::new("b");
        let targets =
            [Target::new(&Names, "compact.json"), Target::new(&Names, "pretty.json").pretty()];
        let written = export(dir.join("out"), &[&a, &b], &targets).unwrap();
        assert!(written.iter().all(|w| w.written && w.renderer == "names"));
        let compact = std::fs::read_to_string(dir.join("out/compact.json")).unwrap();
        assert_eq!(compact, r#"[{"n":"a"},{"n":"b"}]"#);
        let pretty = std::fs::read_to_string(dir.join("out/pretty.json")).unwrap();
        assert_eq!(pretty, "[\n  {\n    \"n\": \"a\"\n  },\n  {\n    \"n\": \"b\"\n  }\n]\n");
        let again = export(dir.join("out"), &[&a, &b], &targets).unwrap();
        assert!(again.iter().all(|w| !w.written));

        let refused = ToolDescriptor::new("refused");
        let err = export(dir.join("none"), &[&a, &refused], &targets).unwrap_err();
        assert!(
            matches!(&err, ExportError::Render { renderer, .. } if renderer == "names"),
            "{err}"
        );
        assert!(!dir.join("none").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
