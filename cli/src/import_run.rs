//! `tooldef import`, run: a provider's tool list (a FILE, stdin or a live MCP server) written as
//! spec files, one per tool.
//!
//! Owns reading the input and writing the files (every target checked first; a tool that cannot
//! be imported, a name listed twice or one whose file would not read back named on stderr, and
//! nothing written then unless `--keep-going`). Finding the tools in each provider's shapes is
//! `import`'s, listing a server's is `mcp_import`'s, creating files in DIR is `out_dir`'s.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use tooldef::files::{FileProblem, read_regular};
use tooldef::{Executor, ToolDescriptor};

use crate::args::STDIN;
use crate::load::{STDIN_LABEL, read_stdin};
use crate::mcp_import::{self, McpImportArgs};
use crate::providers::ImportFormat;
use crate::{Failure, Status, import, out, out_dir, warn};

/// Arguments of `tooldef import`.
#[derive(Debug, PartialEq)]
pub(crate) struct ImportArgs {
    pub(crate) from: ImportFormat,
    /// The tool list; `-` to read it from stdin.
    pub(crate) file: PathBuf,
    pub(crate) out: PathBuf,
    pub(crate) force: bool,
    /// Write every good tool even when others fail (and still exit non-zero).
    pub(crate) keep_going: bool,
}

/// The largest provider tool list `import` reads.
const MAX_IMPORT_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a provider tool list, at most [`MAX_IMPORT_BYTES`], without blocking on a FIFO.
fn read_file(path: &Path, label: &str) -> Result<String, Failure> {
    let bytes = read_regular(path, MAX_IMPORT_BYTES).map_err(|problem| {
        Failure::Input(match problem {
            FileProblem::TooLarge { .. } => format!(
                "{label}: the file is larger than {MAX_IMPORT_BYTES} bytes; at most that much is read"
            ),
            other => format!("{label}: {other}"),
        })
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Failure::Input(format!("{label}: the file is not UTF-8 (invalid byte at offset {at})"))
    })
}

/// Runs `tooldef import` on a FILE (or stdin).
pub(crate) fn run(a: ImportArgs) -> Result<(), Failure> {
    let (label, text) = if a.file.as_os_str() == STDIN {
        (STDIN_LABEL.to_owned(), read_stdin(MAX_IMPORT_BYTES).map_err(Failure::Input)?)
    } else {
        let label = a.file.display().to_string();
        let text = read_file(&a.file, &label)?;
        (label, text)
    };
    let imported = import::import(&label, &text, a.from).map_err(Failure::Input)?;
    // A list of another format gives only noise as warnings: the error says what it is.
    let why_empty = imported.why_empty(a.from);
    let failed_as_other_format = !imported.failed.is_empty() && !imported.shape_matches(a.from);
    if (why_empty.is_none() && !failed_as_other_format) || imported.shape_matches(a.from) {
        for w in &imported.warnings {
            warn(format_args!("warning: {label}: {w}"));
        }
    }
    if let Some(why) = why_empty {
        return Err(Failure::Input(format!("{label}: {why}")));
    }
    let failed = imported.failed;
    if imported.tools.is_empty() && failed.is_empty() {
        warn(format_args!("warning: {label}: no tools found"));
    }
    let tools: Vec<(&ToolDescriptor, String)> =
        imported.tools.iter().map(|t| (&t.spec.descriptor, format!("#{}", t.pointer))).collect();
    let target = SpecTarget { dir: &a.out, force: a.force, keep_going: a.keep_going };
    write_specs(&label, &tools, failed, imported.hint.as_deref(), &target)
}

/// Runs `tooldef import --from mcp-server -- CMD...`.
pub(crate) fn run_server(a: McpImportArgs) -> Result<(), Failure> {
    let listed = mcp_import::list(&a.command).map_err(Failure::Input)?;
    let label = listed.label.as_str();
    for note in &listed.notes {
        warn(format_args!("note: {label}: {note}"));
    }
    if listed.tools.is_empty() && listed.skipped.is_empty() {
        warn(format_args!("warning: {label}: no tools found"));
    }
    let failed = listed.skipped.iter().map(|(name, e)| format!("{label}: tool `{name}`: {e}"));
    let tools: Vec<(&ToolDescriptor, String)> =
        listed.tools.iter().map(|(t, from)| (Executor::descriptor(&**t), from.clone())).collect();
    let target = SpecTarget { dir: &a.out, force: a.force, keep_going: a.keep_going };
    write_specs(label, &tools, failed.collect(), None, &target)
}

/// The longest file name written (in bytes): what most file systems take.
const MAX_FILE_NAME: usize = 255;

/// Why the spec file of the tool `name` would never read back as it, if it would not.
fn unreadable_file_name(name: &str) -> Option<String> {
    if name.starts_with('.') {
        return Some(
            "would be a dot-file, which a tool directory ignores (a spec file's name must not \
             start with `.`)"
                .into(),
        );
    }
    let len = name.len() + ".json".len();
    (len > MAX_FILE_NAME).then(|| {
        format!("would be a file name of {len} bytes; at most {MAX_FILE_NAME} are written")
    })
}

/// Where `import` writes its spec files, and what it does when some tools cannot be imported.
struct SpecTarget<'a> {
    dir: &'a Path,
    force: bool,
    keep_going: bool,
}

/// Writes one spec file per tool (`(descriptor, where it came from)`) into `target.dir`, after
/// checking every target first, and lists the paths written on stdout. `failed` holds the
/// tools already refused (one line each, printed as errors, with `hint` after them): with any,
/// nothing is written unless `keep_going`, and the exit status says some were left out.
fn write_specs(
    label: &str,
    tools: &[(&ToolDescriptor, String)],
    mut failed: Vec<String>,
    hint: Option<&str>,
    target: &SpecTarget<'_>,
) -> Result<(), Failure> {
    // Check everything before writing anything.
    let mut files: Vec<(PathBuf, String)> = Vec::with_capacity(tools.len());
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for (descriptor, from) in tools {
        let name = descriptor.name.as_str();
        // Two tools of one name would be two writes of one file: the second is refused (the
        // first stays unless it fails too), so that `--force` never keeps one silently.
        if let Some(first) = seen.get(name) {
            failed.push(format!("{label}: {from}: tool `{name}` is already listed at {first}"));
            continue;
        }
        seen.insert(name, from);
        // A name whose file would never read back: a dot-file (`.`, `..`, `.hidden`), which
        // every directory read ignores, or a file name too long to create. (Other names the
        // file-stem rule refuses, `a.b` or past 64 characters, still read back from the file
        // itself, and a directory read names them.)
        if let Some(why) = unreadable_file_name(name) {
            failed.push(format!(
                "{label}: {from}: tool `{name}` cannot be written as a spec file: `{name}.json` {why}"
            ));
            continue;
        }
        let path = target.dir.join(format!("{name}.json"));
        if let Err(e) = out_dir::check_target(&path, target.force) {
            failed.push(e);
            continue;
        }
        let spec = tooldef::spec_to_literal(descriptor, None);
        match serde_json::to_string_pretty(&spec) {
            Ok(mut json) => {
                json.push('\n');
                files.push((path, json));
            }
            Err(e) => failed.push(format!("{label}: {from}: {e}")),
        }
    }
    for line in failed.iter().map(String::as_str).chain(hint) {
        warn(format_args!("error: {line}"));
    }
    if !failed.is_empty() && !target.keep_going {
        // Every problem is on stderr already; nothing is written.
        return Err(Failure::Reported(Status::BadInput));
    }
    if !files.is_empty() {
        std::fs::create_dir_all(target.dir)
            .map_err(|e| Failure::Input(format!("{}: {e}", target.dir.display())))?;
    }
    let mut listing = String::new();
    let mut write_failed = 0usize;
    for (path, json) in files {
        match out_dir::write(&path, json.as_bytes(), target.force) {
            Ok(()) => listing.push_str(&format!("{}\n", path.display())),
            Err(e) => {
                warn(format_args!("error: {e}"));
                write_failed += 1;
            }
        }
    }
    out(listing.as_bytes())?;
    if !failed.is_empty() || write_failed > 0 {
        // Some tools were left out, each named on stderr.
        return Err(Failure::Reported(Status::BadInput));
    }
    Ok(())
}
