//! Loading the specs `render` and `check` read: files, directories and `-` (one spec on stdin),
//! every file even when some fail, and how a refusal names its file.

use std::collections::HashMap;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use tooldef::{
    LoadedSpec, LossPolicy, MAX_SPEC_BYTES, RenderError, RenderRule, SpecErrorKind, Specs,
    load_specs, parse_spec,
};

use crate::args::STDIN;
use crate::warn;

/// How stdin is named in messages.
pub(crate) const STDIN_LABEL: &str = "<stdin>";

/// Reads all of stdin as text, at most `limit` bytes.
pub(crate) fn read_stdin(limit: u64) -> Result<String, String> {
    let mut bytes = Vec::new();
    io::stdin()
        .lock()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{STDIN_LABEL}: cannot read stdin: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!(
            "{STDIN_LABEL}: stdin holds more than {limit} bytes; at most {limit} are read"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        format!("{STDIN_LABEL}: the input is not UTF-8 (invalid byte at offset {at})")
    })
}

/// The spec on stdin, named by its `name` key (there is no file stem to name it).
fn stdin_spec() -> Result<LoadedSpec, String> {
    let text = read_stdin(MAX_SPEC_BYTES)?;
    let spec = parse_spec(STDIN_LABEL, &text, None).map_err(|e| {
        let lines: Vec<String> = e
            .problems
            .iter()
            .zip(e.messages())
            .map(|(problem, message)| match problem {
                SpecErrorKind::MissingName => format!(
                    "{STDIN_LABEL}: the spec has no `name`; a spec read from stdin is named by \
                     its `name` key"
                ),
                _ => message,
            })
            .collect();
        lines.join("\n")
    })?;
    Ok(LoadedSpec { path: PathBuf::from(STDIN_LABEL), spec })
}

/// The specs that loaded, and one message per file or tool that did not.
pub(crate) struct Loaded {
    pub(crate) specs: Specs,
    /// Messages naming the file and the JSON pointer (possibly several lines each).
    pub(crate) problems: Vec<String>,
}

impl Loaded {
    /// Prints the problems as errors on stderr.
    pub(crate) fn print_problems(&self) {
        for problem in &self.problems {
            for line in problem.lines() {
                warn(format_args!("error: {line}"));
            }
        }
    }
}

/// Loads the specs of `paths` (`-` is stdin), every file even when some fail, printing skipped
/// files and import notes to stderr.
pub(crate) fn load(paths: &[PathBuf]) -> Loaded {
    let mut specs = Specs::default();
    let mut problems = Vec::new();
    // Runs of files and directories go to the library's loader; stdin is read here.
    let mut runs = paths.split(|p| p.as_os_str() == STDIN).peekable();
    while let Some(run) = runs.next() {
        if !run.is_empty() {
            let loaded = load_specs(run).unwrap_or_else(|e| {
                problems.extend(e.errors.iter().map(ToString::to_string));
                e.specs
            });
            specs.loaded.extend(loaded.loaded);
            specs.skipped.extend(loaded.skipped);
            specs.sources.extend(loaded.sources);
        }
        if runs.peek().is_some() {
            // A `-` stood between this run and the next.
            match stdin_spec() {
                Ok(spec) => specs.loaded.push(spec),
                Err(message) => problems.push(message),
            }
        }
    }
    // The library checks names within each run; across runs and stdin, here (the first wins).
    let mut seen: HashMap<String, PathBuf> = HashMap::new();
    specs.loaded.retain(|l| {
        let name = l.spec.descriptor.name.as_str();
        match seen.get(name) {
            Some(first) => {
                problems.push(format!(
                    "{}: tool `{name}` is already defined by {}",
                    l.path.display(),
                    first.display()
                ));
                false
            }
            None => {
                seen.insert(name.to_owned(), l.path.clone());
                true
            }
        }
    });
    for skipped in &specs.skipped {
        warn(format_args!("warning: {skipped}"));
    }
    for l in &specs.loaded {
        for note in &l.spec.notes {
            warn(format_args!("note: {}: {note}", l.path.display()));
        }
    }
    Loaded { specs, problems }
}

/// The loss policy of `--strict`.
pub(crate) fn policy(strict: bool) -> LossPolicy {
    if strict { LossPolicy::Refuse } else { LossPolicy::Allow }
}

/// The file that defines the tool a render error names.
fn file_of<'s>(specs: &'s Specs, e: &RenderError) -> Option<&'s Path> {
    specs
        .loaded
        .iter()
        .find(|l| l.spec.descriptor.name.as_str() == e.tool)
        .map(|l| l.path.as_path())
}

/// Whether a refusal is a limit on size or nesting ([`RenderRule::Limit`]: the expansion budget
/// of inlined references, the nesting guard, a provider's size limits). Such a tool cannot be
/// rendered as given under any policy, so it is bad input (status 2), not a provider's refusal of
/// one feature (status 1).
pub(crate) fn over_limit(e: &RenderError) -> bool {
    e.rule == RenderRule::Limit
}

/// A refusal, naming the file of the tool where it is known.
pub(crate) fn refusal(specs: &Specs, provider: &str, e: &RenderError) -> String {
    match file_of(specs, e) {
        Some(file) => format!("{}: {provider}: {}", file.display(), e.message),
        None => format!("{provider}: {}", e.message),
    }
}
