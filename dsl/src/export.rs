//! Export: rendered provider JSON written to files, for a `build.rs` (and the `tooldef`
//! command, which renders the same way), with the loading of spec files a build script starts
//! from re-exported here ([`load_specs`], [`load_spec_dir`], [`Specs`]).
//!
//! Owns rendering and writing: one JSON array per renderer. One bad tool never hides the others:
//! [`render_each`] renders every tool on its own and returns the good ones with one error per
//! refused tool. It knows no provider: callers pass [`Renderer`]s from the provider crates. It
//! never prints: a build script prints the cargo directives it is handed
//! ([`Specs::rerun_if_changed`]). Loading the specs is `spec_files`' (the same rules as
//! the `tooldef` command's).
//!
//! # In a build script
//!
//! ```no_run
//! # struct OpenAiChat;
//! # impl tooldef::Renderer for OpenAiChat {
//! #     fn name(&self) -> &str { "openai-chat" }
//! #     fn render(&self, t: &tooldef::ToolDescriptor, p: tooldef::LossPolicy)
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

use crate::descriptor::ToolDescriptor;
use crate::files::FileProblem;
use crate::render::name_map;
use crate::render::{
    Change, LossPolicy, NameMap, RenderError, Rendered, Renderer, Report, json_array,
};
use crate::spec::SpecError;
pub use crate::spec_files::{
    LoadedSpec, SkipReason, Skipped, Specs, SpecsError, load_spec_dir, load_specs,
};

/// Why specs cannot be loaded or rendered JSON cannot be written.
///
/// Its `Display` is the whole line a build script or the CLI prints: the file and every cause
/// written in. So the causes (the I/O error, the renderer's error) are fields, not
/// [`source`](std::error::Error::source)s: a report that walks the chain prints each once.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// A file or directory cannot be read or written.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error (in the message, not the error's source).
        error: std::io::Error,
    },
    /// A spec file cannot be read (the error names the file and the JSON pointer).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A file of a directory names a tool but cannot be used (not a regular file, a symlink
    /// leading out of the directory, too large).
    #[error("{}: {problem}", path.display())]
    File {
        /// The file as listed.
        path: PathBuf,
        /// What is wrong with it.
        problem: FileProblem,
    },
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
    #[error("{}: {renderer}: {error}", file.display())]
    Render {
        /// The output file being written.
        file: PathBuf,
        /// The renderer's name.
        renderer: String,
        /// What the renderer refused (in the message, not the error's source).
        error: Box<RenderError>,
    },
    /// `OUT_DIR` is not set (the caller is not a build script).
    #[error("`OUT_DIR` is not set; call `export` with a directory outside build scripts")]
    NoOutDir,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ExportError + '_ {
    move |error| ExportError::Io { path: path.to_owned(), error }
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
    policy: LossPolicy,
    pretty: bool,
) -> Result<(String, Report), RenderError> {
    let rendered = renderer.render_set(tools, policy)?;
    let mut report = Report::default();
    for r in &rendered {
        report.extend(r.report().clone());
    }
    Ok((array_text(&rendered, pretty), report))
}

/// Every tool of a batch rendered on its own ([`render_each`]): the good ones, and one error per
/// tool the renderer refuses.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RenderedEach {
    /// The renderings of the tools that rendered, in input order.
    pub rendered: Vec<Rendered>,
    /// One error per refused tool, in input order.
    pub refused: Vec<RenderError>,
    /// The renderer's refusal of the rendered tools together (a limit over one request, such
    /// as how many strict tools it may hold), if any: then no subset is chosen for the caller.
    pub set_refused: Option<RenderError>,
}

impl RenderedEach {
    /// Whether every tool rendered and the set is accepted.
    pub fn is_complete(&self) -> bool {
        self.refused.is_empty() && self.set_refused.is_none()
    }

    /// The JSON array of the rendered tools (compact, or pretty with a final newline).
    pub fn json(&self, pretty: bool) -> String {
        array_text(&self.rendered, pretty)
    }

    /// Every change made to the rendered tools, in input order.
    pub fn report(&self) -> Report {
        let mut report = Report::default();
        for r in &self.rendered {
            report.extend(r.report().clone());
        }
        report
    }
}

/// Renders each tool on its own, so that every refused tool is named and the others still
/// render, then checks the limits over the rendered ones ([`Renderer::check_set`]).
pub fn render_each(
    renderer: &dyn Renderer,
    tools: &[&ToolDescriptor],
    policy: LossPolicy,
) -> RenderedEach {
    let mut out = RenderedEach { rendered: Vec::new(), refused: Vec::new(), set_refused: None };
    let mut good: Vec<&ToolDescriptor> = Vec::with_capacity(tools.len());
    for tool in tools {
        match renderer.render(tool, policy) {
            Ok(r) => {
                out.rendered.push(r);
                good.push(tool);
            }
            Err(e) => out.refused.push(e),
        }
    }
    out.set_refused = renderer.check_set(&good, policy).err();
    out
}

/// [`render_each`] under names the provider accepts ([`render_mapped`](crate::render_mapped)):
/// each tool rendered on its own, renames reported at the head of each report, errors naming
/// the original tool, and the [`NameMap`] that gives the model's calls back under the original
/// names.
pub fn render_each_mapped(
    renderer: &dyn Renderer,
    tools: &[&ToolDescriptor],
    policy: LossPolicy,
) -> (RenderedEach, NameMap) {
    let plan = name_map::plan(tools, &renderer.name_rules());
    let renamed: Vec<&ToolDescriptor> = plan.tools.iter().map(|t| &**t).collect();
    let mut each = render_each(renderer, &renamed, policy);
    let mut renames: Vec<Option<Vec<Change>>> = plan.changes.into_iter().map(Some).collect();
    each.rendered = std::mem::take(&mut each.rendered)
        .into_iter()
        .map(|r| {
            // Wire names are distinct within the set, so the rendering names its tool.
            match renamed.iter().position(|t| t.name.as_str() == r.name()) {
                Some(i) => name_map::finish(tools[i], r, renames[i].take().unwrap_or_default()),
                None => r,
            }
        })
        .collect();
    let names = plan.names;
    each.refused =
        std::mem::take(&mut each.refused).into_iter().map(|e| names.original_error(e)).collect();
    each.set_refused = each.set_refused.take().map(|e| names.original_error(e));
    (each, names)
}

fn array_text(rendered: &[Rendered], pretty: bool) -> String {
    let compact = json_array(rendered);
    if pretty {
        let mut text = indent_json(&compact);
        text.push('\n');
        text
    } else {
        compact
    }
}

/// `json` indented two spaces a level, as `serde_json::to_string_pretty` lays it out, with
/// nothing but whitespace added: keys keep their order (a parsed `Value` would sort them, and
/// key order is meaning for OpenAI strict and Gemini) and every string and number keeps its
/// bytes. Whitespace already outside strings is dropped first, so any valid JSON text comes out
/// in the one layout.
fn indent_json(json: &str) -> String {
    let b = json.as_bytes();
    let mut out = String::with_capacity(json.len() + json.len() / 2);
    let mut depth = 0usize;
    // The start of the text not yet copied (strings and scalars are copied in runs).
    let mut i = 0;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    // The next byte after `from` that is not whitespace.
    let next_solid =
        |from: usize| b[from..].iter().position(|c| !c.is_ascii_whitespace()).map(|n| b[from + n]);
    while i < b.len() {
        match b[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                out.push_str(&json[start..i]);
                continue;
            }
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                out.push(char::from(open));
                if next_solid(i + 1) == Some(close) {
                    // An empty object or array stays on one line.
                    let skip = b[i + 1..].iter().position(|c| *c == close).unwrap_or(0);
                    out.push(char::from(close));
                    i += skip + 2;
                    continue;
                }
                depth += 1;
                newline(&mut out, depth);
            }
            close @ (b'}' | b']') => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(char::from(close));
            }
            b',' => {
                out.push(',');
                newline(&mut out, depth);
            }
            b':' => out.push_str(": "),
            c if c.is_ascii_whitespace() => {}
            _ => {
                // A number, `true`, `false` or `null`: ASCII up to the next delimiter.
                let start = i;
                while i < b.len() && !b"{}[],:\" \t\n\r".contains(&b[i]) {
                    i += 1;
                }
                out.push_str(&json[start..i]);
                continue;
            }
        }
        i += 1;
    }
    out
}

/// One output file: a renderer, the file name (relative to the export directory) and how to
/// render.
#[derive(Clone, Copy)]
pub struct Target<'a> {
    renderer: &'a dyn Renderer,
    file: &'a str,
    policy: LossPolicy,
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
        Target { renderer, file, policy: LossPolicy::Allow, pretty: false }
    }

    /// Renders under `policy` (strict: a lossy change fails the build).
    pub fn policy(mut self, policy: LossPolicy) -> Self {
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
            render_json(t.renderer, tools, t.policy, t.pretty).map_err(|error| {
                ExportError::Render {
                    file: path.clone(),
                    renderer: t.renderer.name().to_owned(),
                    error: Box::new(error),
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
        fn render(
            &self,
            tool: &ToolDescriptor,
            policy: LossPolicy,
        ) -> Result<Rendered, RenderError> {
            if tool.name.as_str() == "refused" {
                return Err(RenderError::new(
                    "refused",
                    crate::JsonPointer::root(),
                    "",
                    RenderRule::Unsupported,
                    "no",
                ));
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

    #[test]
    fn render_each_names_every_refused_tool_and_keeps_the_others() {
        let (a, refused, b) =
            (ToolDescriptor::new("a"), ToolDescriptor::new("refused"), ToolDescriptor::new("b"));
        let each = render_each(&Names, &[&a, &refused, &b], LossPolicy::Allow);
        assert!(!each.is_complete());
        assert_eq!(each.json(false), r#"[{"n":"a"},{"n":"b"}]"#);
        let refused: Vec<&str> = each.refused.iter().map(|e| e.tool.as_str()).collect();
        assert_eq!(refused, ["refused"]);
        assert!(each.set_refused.is_none());
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

    #[test]
    fn pretty_text_only_adds_whitespace_and_keeps_key_order() {
        let compact = r#"[{"type":"function","b":{},"a":[],"s":"{\"x\": [1,2]}, \\","n":[-1.5e3,true,null,{"z":{ }}],"u":"é"}]"#;
        assert_eq!(
            indent_json(compact),
            r#"[
  {
    "type": "function",
    "b": {},
    "a": [],
    "s": "{\"x\": [1,2]}, \\",
    "n": [
      -1.5e3,
      true,
      null,
      {
        "z": {}
      }
    ],
    "u": "é"
  }
]"#
        );
        let pretty = indent_json(compact);
        assert_eq!(indent_json(&pretty), pretty, "indenting indented text changes nothing");
    }

    #[test]
    fn pretty_text_lays_out_as_serde_json_does() {
        // With keys already sorted, serde_json's own layout is the reference.
        let v = serde_json::json!({"a": [1, {"b": [], "c": {}}], "d": {"e": "f,g:h"}, "z": [[]]});
        let compact = serde_json::to_string(&v).unwrap();
        assert_eq!(indent_json(&compact), serde_json::to_string_pretty(&v).unwrap());
    }
}
