//! The `tooldef` command: render spec files to a provider's wire JSON, check what each provider
//! would change or refuse, and import provider tool lists as spec files.
//!
//! ```text
//! tooldef render --provider P [--strict] [--report] [--pretty] [--keep-going] [--map-names] PATH...
//! tooldef check  [--provider P]... [--strict] PATH...
//! tooldef import --from mcp|openai|anthropic|gemini [--keep-going] FILE [--out DIR] [--force]
//! tooldef import --from mcp-server [--out DIR] [--force] -- CMD [ARG]...
//! tooldef serve  DIR...
//! tooldef help   [COMMAND]
//! ```
//!
//! `-` as a PATH or FILE reads stdin. Exit status: 0 success, 1 a provider refuses a tool, 2 bad
//! usage or bad input. Every bad file and every refused tool is named (one bad tool never hides
//! the others); `--keep-going` still writes the good ones, and the status still says what failed.

mod args;
mod import;
mod mcp_import;
mod out_dir;
mod providers;
mod serve;

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tooldef::files::{FileProblem, read_regular};
use tooldef::{
    Executor, LoadedSpec, LossPolicy, MAX_SPEC_BYTES, RenderError, RenderRule, Renderer,
    SpecErrorKind, Specs, ToolDescriptor, load_specs, parse_spec, render_each, render_each_mapped,
};

use crate::args::{CheckArgs, Command, ImportArgs, RenderArgs, STDIN, UsageError};

/// How a command failed; each maps to an exit status.
enum Failure {
    /// Bad arguments (status 2).
    Usage(UsageError),
    /// Bad input: a file that cannot be read or is invalid, or a tool too large or too deeply
    /// nested to render within the limits (status 2); one problem a line.
    Input(String),
    /// A provider refuses a tool (status 1); the message was already printed when empty.
    Refused(String),
    /// stdout was closed (e.g. piped into `head`): stop quietly.
    Closed,
}

impl From<UsageError> for Failure {
    fn from(e: UsageError) -> Self {
        Failure::Usage(e)
    }
}

fn main() -> ExitCode {
    let argv: Vec<_> = std::env::args_os().skip(1).collect();
    let result = args::parse(argv).map_err(Failure::from).and_then(run);
    let mut err = io::stderr().lock();
    match result {
        Ok(()) | Err(Failure::Closed) => ExitCode::SUCCESS,
        Err(Failure::Usage(e)) => {
            let _ = writeln!(
                err,
                "error: {}\n\n{}\n\nFor more information, try `{}`.",
                e.message,
                e.usage(),
                e.more()
            );
            ExitCode::from(2)
        }
        Err(Failure::Input(message)) => {
            for line in message.lines() {
                let _ = writeln!(err, "error: {line}");
            }
            ExitCode::from(2)
        }
        Err(Failure::Refused(message)) => {
            if !message.is_empty() {
                let _ = writeln!(err, "error: {message}");
            }
            ExitCode::from(1)
        }
    }
}

fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Help(text) => out(text.as_bytes()),
        Command::Version => out(format!("tooldef {}\n", env!("CARGO_PKG_VERSION")).as_bytes()),
        Command::Render(a) => render(a),
        Command::Check(a) => check(a),
        Command::Import(a) => import_cmd(a),
        Command::ImportServer(a) => {
            let listed = mcp_import::list(&a.command).map_err(Failure::Input)?;
            let label = listed.label.as_str();
            for note in &listed.notes {
                warn(format_args!("note: {label}: {note}"));
            }
            if listed.tools.is_empty() && listed.skipped.is_empty() {
                warn(format_args!("warning: {label}: no tools found"));
            }
            let failed =
                listed.skipped.iter().map(|(name, e)| format!("{label}: tool `{name}`: {e}"));
            let tools: Vec<(&ToolDescriptor, String)> = listed
                .tools
                .iter()
                .map(|(t, from)| (Executor::descriptor(&**t), from.clone()))
                .collect();
            let target = SpecTarget { dir: &a.out, force: a.force, keep_going: a.keep_going };
            write_specs(label, &tools, failed.collect(), None, &target)
        }
        Command::Serve(a) => serve::serve(a).map_err(Failure::Input),
    }
}

/// Writes to stdout; a closed pipe ends the command quietly.
fn out(bytes: &[u8]) -> Result<(), Failure> {
    let mut stdout = io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(Failure::Closed),
        Err(e) => Err(Failure::Input(format!("cannot write to stdout: {e}"))),
    }
}

/// Writes one line to stderr (warnings, notes, reports).
fn warn(line: impl std::fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// How stdin is named in messages.
const STDIN_LABEL: &str = "<stdin>";

/// Reads all of stdin as text, at most `limit` bytes.
fn read_stdin(limit: u64) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    io::stdin()
        .lock()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Input(format!("{STDIN_LABEL}: cannot read stdin: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(Failure::Input(format!(
            "{STDIN_LABEL}: stdin holds more than {limit} bytes; at most {limit} are read"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Failure::Input(format!(
            "{STDIN_LABEL}: the input is not UTF-8 (invalid byte at offset {at})"
        ))
    })
}

/// The spec on stdin, named by its `name` key (there is no file stem to name it).
fn stdin_spec() -> Result<LoadedSpec, String> {
    let text = read_stdin(MAX_SPEC_BYTES).map_err(|f| match f {
        Failure::Input(message) => message,
        _ => format!("{STDIN_LABEL}: cannot read stdin"),
    })?;
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
struct Loaded {
    specs: Specs,
    /// Messages naming the file and the JSON pointer (possibly several lines each).
    problems: Vec<String>,
}

impl Loaded {
    /// Prints the problems as errors on stderr.
    fn print_problems(&self) {
        for problem in &self.problems {
            for line in problem.lines() {
                warn(format_args!("error: {line}"));
            }
        }
    }
}

/// Loads the specs of `paths` (`-` is stdin), every file even when some fail, printing skipped
/// files and import notes to stderr.
fn load(paths: &[PathBuf]) -> Loaded {
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

fn policy(strict: bool) -> LossPolicy {
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
fn over_limit(e: &RenderError) -> bool {
    e.rule == RenderRule::Limit
}

fn refusal(specs: &Specs, provider: &str, e: &RenderError) -> String {
    match file_of(specs, e) {
        Some(file) => format!("{}: {provider}: {}", file.display(), e.message),
        None => format!("{provider}: {}", e.message),
    }
}

fn render(a: RenderArgs) -> Result<(), Failure> {
    let loaded = load(&a.paths);
    loaded.print_problems();
    let specs = &loaded.specs;
    let tools = specs.descriptors();
    let renderer = a.provider.renderer(a.strict);
    let name = a.provider.name();
    let each = if a.map_names {
        render_each_mapped(&*renderer, &tools, policy(a.strict)).0
    } else {
        render_each(&*renderer, &tools, policy(a.strict))
    };
    // Every refused tool is named, then a refusal of the set as a whole.
    for e in &each.refused {
        warn(format_args!("error: {}", refusal(specs, name, e)));
    }
    if let Some(e) = &each.set_refused {
        warn(format_args!("error: {name}: {}", e.message));
    }
    let complete = loaded.problems.is_empty() && each.is_complete();
    // A set the provider refuses as a whole has no good subset to print.
    if complete || (a.keep_going && each.set_refused.is_none()) {
        if a.report {
            let report = each.report();
            if report.is_empty() {
                warn(format_args!("{name}: no changes"));
            }
            for change in &report {
                warn(format_args!("{name}: {change}"));
            }
        }
        out(each.json(a.pretty).as_bytes())?;
        if !a.pretty {
            out(b"\n")?;
        }
    }
    if !loaded.problems.is_empty() || each.refused.iter().any(over_limit) {
        return Err(Failure::Input(String::new()));
    }
    if !complete {
        return Err(Failure::Refused(String::new()));
    }
    Ok(())
}

fn check(a: CheckArgs) -> Result<(), Failure> {
    let loaded = load(&a.paths);
    // Every file is reported: the bad ones here, the good ones checked below.
    loaded.print_problems();
    let specs = &loaded.specs;
    let tools = specs.descriptors();
    let mut text = String::new();
    let mut refusing = Vec::new();
    let mut over = false;
    // Nothing loaded: the errors above are the whole answer.
    let providers =
        if tools.is_empty() && !loaded.problems.is_empty() { &[][..] } else { &a.providers[..] };
    for provider in providers {
        let renderer = provider.renderer(a.strict);
        let lines = check_one(specs, &tools, &*renderer, policy(a.strict));
        if lines.refused > 0 {
            refusing.push(provider.name());
        }
        over |= lines.over_limit;
        let lossy = lines.changes.iter().filter(|(_, lossy)| *lossy).count();
        text.push_str(&format!(
            "{}: {} tools, {} changes ({lossy} lossy), {} refused\n",
            provider.name(),
            tools.len(),
            lines.changes.len(),
            lines.refused
        ));
        for (line, _) in &lines.changes {
            text.push_str(&format!("  changed  {line}\n"));
        }
        for line in &lines.refusals {
            text.push_str(&format!("  refused  {line}\n"));
        }
    }
    out(text.as_bytes())?;
    if !loaded.problems.is_empty() {
        // Every problem is on stderr already.
        return Err(Failure::Input(String::new()));
    }
    if refusing.is_empty() {
        return Ok(());
    }
    let message = format!(
        "{} of {} providers would refuse a tool: {}; check only the providers you target with \
         `--provider`",
        refusing.len(),
        a.providers.len(),
        refusing.join(", ")
    );
    Err(if over { Failure::Input(message) } else { Failure::Refused(message) })
}

/// What one provider would change and refuse.
struct CheckLines {
    changes: Vec<(String, bool)>,
    refusals: Vec<String>,
    refused: usize,
    /// Whether a refusal was a limit on size or nesting (see [`over_limit`]).
    over_limit: bool,
}

fn check_one(
    specs: &Specs,
    tools: &[&ToolDescriptor],
    renderer: &dyn Renderer,
    policy: LossPolicy,
) -> CheckLines {
    let mut lines =
        CheckLines { changes: Vec::new(), refusals: Vec::new(), refused: 0, over_limit: false };
    let name = renderer.name().to_owned();
    // Each tool on its own, so that every refusal is listed, then the limits over the set.
    for tool in tools {
        match renderer.render(tool, policy) {
            Ok(r) => lines.changes.extend(r.report().iter().map(|c| (c.to_string(), c.lossy))),
            Err(e) => {
                lines.refused += 1;
                lines.over_limit |= over_limit(&e);
                lines.refusals.push(refusal(specs, &name, &e));
            }
        }
    }
    if let Err(e) = renderer.check_set(tools, policy) {
        lines.refused += 1;
        lines.refusals.push(format!("{name}: {}", e.message));
    }
    lines
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

fn import_cmd(a: ImportArgs) -> Result<(), Failure> {
    let (label, text) = if a.file.as_os_str() == STDIN {
        (STDIN_LABEL.to_owned(), read_stdin(MAX_IMPORT_BYTES)?)
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
        return Err(Failure::Input(String::new()));
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
        return Err(Failure::Input(String::new()));
    }
    Ok(())
}
