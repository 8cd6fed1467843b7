//! Command-line parsing: a small hand-written parser over a table of verbs and their help.
//!
//! Owns turning `argv` into a [`Command`] (or a usage error naming the argument at fault, with a
//! "did you mean" where one is close); it runs nothing. Each verb is one entry of [`VERBS`]: its
//! synopsis, help text, options and parser; the main help and the usage lines come from there.

use std::ffi::OsString;
use std::path::PathBuf;

use tooldef::suggest::closest;

use crate::providers::{ImportFormat, Provider};

/// What the user asked for.
#[derive(Debug, PartialEq)]
pub(crate) enum Command {
    /// Print a help text (on stdout) and exit successfully.
    Help(String),
    /// Print the version.
    Version,
    /// `tooldef render`.
    Render(RenderArgs),
    /// `tooldef check`.
    Check(CheckArgs),
    /// `tooldef import`.
    Import(ImportArgs),
    /// `tooldef import --from mcp-server -- CMD...`.
    ImportServer(crate::mcp_import::McpImportArgs),
    /// `tooldef serve`.
    Serve(crate::serve::ServeArgs),
}

/// Arguments of `tooldef render`.
#[derive(Debug, PartialEq)]
pub(crate) struct RenderArgs {
    pub(crate) provider: Provider,
    pub(crate) strict: bool,
    pub(crate) report: bool,
    pub(crate) pretty: bool,
    /// Write every good tool even when others fail (and still exit non-zero).
    pub(crate) keep_going: bool,
    /// Send names the provider refuses under safe names (`--map-names`).
    pub(crate) map_names: bool,
    /// Spec files and directories; [`STDIN`] for one spec read from stdin.
    pub(crate) paths: Vec<PathBuf>,
}

/// Arguments of `tooldef check`.
#[derive(Debug, PartialEq)]
pub(crate) struct CheckArgs {
    pub(crate) providers: Vec<Provider>,
    pub(crate) strict: bool,
    /// Spec files and directories; [`STDIN`] for one spec read from stdin.
    pub(crate) paths: Vec<PathBuf>,
}

/// Arguments of `tooldef import`.
#[derive(Debug, PartialEq)]
pub(crate) struct ImportArgs {
    pub(crate) from: ImportFormat,
    /// The tool list; [`STDIN`] to read it from stdin.
    pub(crate) file: PathBuf,
    pub(crate) out: PathBuf,
    pub(crate) force: bool,
    /// Write every good tool even when others fail (and still exit non-zero).
    pub(crate) keep_going: bool,
}

/// The PATH or FILE that means stdin.
pub(crate) const STDIN: &str = "-";

/// One verb: its synopsis and help, the options it knows, and its parser.
pub(crate) struct Verb {
    /// The verb (`render`).
    pub(crate) name: &'static str,
    /// The synopsis after the verb (`--provider P [--strict] ... PATH...`).
    pub(crate) args: &'static str,
    /// One line for the main help's list of commands.
    pub(crate) summary: &'static str,
    /// The first line of its help.
    about: &'static str,
    /// Its help after the usage line.
    details: &'static str,
    /// The long options it takes (for "did you mean").
    options: &'static [&'static str],
    /// Parses the arguments after the verb.
    parse: fn(&mut Args, &'static Verb) -> Result<Command, UsageError>,
}

impl Verb {
    /// `Usage: tooldef VERB ARGS`.
    pub(crate) fn usage_line(&self) -> String {
        format!("Usage: tooldef {} {}", self.name, self.args)
    }

    /// The whole help text.
    pub(crate) fn help(&self) -> String {
        format!("{}\n\n{}\n\n{}", self.about, self.usage_line(), self.details)
    }
}

const PROVIDER_LIST: &str = "openai-chat, openai-responses, anthropic, gemini, gemini-openapi, \
                             ollama, mcp or bedrock";

/// Every verb, in the order the help lists them. A new verb is one entry here (and a
/// [`Command`] variant that `main` runs).
pub(crate) static VERBS: &[Verb] = &[
    Verb {
        name: "render",
        args: "--provider P [--strict] [--report] [--pretty] [--keep-going] [--map-names] PATH...",
        summary: "Print the provider's wire JSON for the tools, as one JSON array",
        about: "Print the provider's wire JSON for the tools, as one JSON array on stdout",
        details: "\
Each element of the array is exactly one tool as the provider's `tools` field takes it, in
input order. A directory contributes its *.json specs sorted by name: the file stem is the tool
name, dot-files are ignored, a stem that is not a tool name is skipped with a warning. `-` reads
one spec from stdin; its `name` key names the tool.

Options:
  --provider P   openai-chat, openai-responses, anthropic, gemini, gemini-openapi, ollama,
                 mcp or bedrock
  --strict       Strict mode where the provider has one (`strict: true`), and the strict
                 policy: a change that would lose meaning is an error instead of a report
  --report       Print every change made to fit the provider to stderr
  --pretty       Indent the JSON
  --keep-going   Print the tools that can be rendered even when others cannot (the exit
                 status still says that some were left out)
  --map-names    Send tool and property names the provider refuses (`weather.get` for
                 OpenAI, `Content-Type` for Gemini) under safe, deterministic names; each
                 rename is a change (see --report), and a host maps the model's calls back
                 with tooldef's NameMap
  -h, --help     Print this help

Only JSON is printed on stdout. Every bad file and every refused tool is named on stderr (file,
tool, JSON pointer, rule); without --keep-going nothing is printed on stdout then. Exit status:
0 every tool rendered, 1 the provider refuses a tool (and no file was bad), 2 bad usage, a
bad input file (its message names the file and the line and column or JSON pointer of every
problem), or a tool too large or too deeply nested to render (references that fan out past the
expansion budget, the nesting guard, a provider's size limits; named with file and pointer).
",
        options: &[
            "--provider",
            "--strict",
            "--report",
            "--pretty",
            "--keep-going",
            "--map-names",
            "--help",
        ],
        parse: parse_render,
    },
    Verb {
        name: "check",
        args: "[--provider P]... [--strict] PATH...",
        summary: "Show, per provider, what rendering would change or refuse",
        about: "Show, per provider, what rendering the tools would change or refuse",
        details: "\
For each provider (by default all of them), prints every change that rendering would make to
fit the provider (lossy ones marked) and every tool the provider would refuse. PATH is read as
by `render` (`-` for one spec on stdin). Every problem of every file is reported: a bad file
does not stop the others from being checked.

Options:
  --provider P   Check this provider (repeatable): openai-chat, openai-responses, anthropic,
                 gemini, gemini-openapi, ollama, mcp or bedrock
  --strict       Check strict mode, with lossy changes as errors (as `render --strict`)
  -h, --help     Print this help

Exit status: 0 nothing refused, 1 a provider would refuse something (check only the providers
you target with --provider), 2 bad usage, a bad input file (the good ones are still checked),
or a tool too large or too deeply nested to render (as for `render`).
",
        options: &["--provider", "--strict", "--help"],
        parse: parse_check,
    },
    Verb {
        name: "import",
        args: "--from mcp|openai|anthropic|gemini [--keep-going] FILE [--out DIR] [--force]",
        summary: "Turn a provider's tool list into spec files, one per tool",
        about: "Turn a provider's tool list into spec files, one per tool, named by the tool",
        details: "\
Accepted input (FILE, or `-` for stdin):
  mcp        a `tools/list` result ({\"tools\": [...]}), the JSON-RPC response holding it, or
             an array of tools
  openai     a `tools` array in the Chat Completions or the Responses shape (or {\"tools\": [...]})
  anthropic  a `tools` array (or {\"tools\": [...]}); server tools are skipped with a warning
  gemini     a `functionDeclarations` array, {\"functionDeclarations\": [...]}, or a `tools`
             array or wrapper of such objects; `parameters` (OpenAPI subset) and
             `parametersJsonSchema` are both read
  mcp-server a live MCP server, instead of FILE:
             tooldef import --from mcp-server [--out DIR] [--force] [--keep-going] -- CMD [ARG]...
             CMD is started with its stdin and stdout as the MCP stdio transport, its tools
             are listed (every page) and written, as for a FILE

Options:
  --from F      The input's provider format
  --out DIR     Where to write the spec files (default: the current directory); nothing is
                written outside it: a symbolic link in DIR is never written through (refused)
  --force       Overwrite existing spec files (regular files only; replaced, not rewritten)
  --keep-going  Write the tools that can be imported even when others cannot (the exit
                status still says that some were left out)
  -h, --help    Print this help

The paths written are printed on stdout, one a line; notes (keywords dropped) on stderr. Every
tool that cannot be imported is named on stderr (its JSON pointer in FILE and the problem), and
so is a name listed twice (the second) or one whose file would be a dot-file (`.hidden`, which a
tool directory ignores); without --keep-going nothing is written then. A server's text reaches
the terminal with its control characters escaped. A non-empty list that yields no tool is an error
that says which format it looks like. Exit status: 0 every tool written, 2 bad usage, bad input
or a tool left out.
",
        options: &["--from", "--out", "--force", "--keep-going", "--help"],
        parse: parse_import,
    },
    Verb {
        name: "serve",
        args: "DIR...",
        summary: "Serve the tools of workspace directories as an MCP server on stdio",
        about: "Serve the tools of workspace directories as an MCP server on stdin and stdout",
        details: "\
Each DIR is a workspace tool directory (*.json specs, the file stem is the tool name). The
directories are read again on every `tools/list`: a broken file is skipped with a warning on
stderr, a changed file that breaks keeps its last good version, and clients are sent
`notifications/tools/list_changed` when the set changes. `tools/call` checks the arguments
against the schema first (an error result names the JSON pointer); a spec with a `command`
runs it with the arguments on its stdin, a spec without one answers with an error result.
At most 16 commands of a directory run at once (further calls wait their turn); a call the
client cancels kills its command's process group.

The server stops when its client closes stdin, once the calls in flight are answered (at most
5 s later); a command still running then is killed. Only MCP messages are written on stdout.

Options:
  -h, --help    Print this help
",
        options: &["--help"],
        parse: parse_serve,
    },
    Verb {
        name: "help",
        args: "[COMMAND]",
        summary: "Print this help, or the help of one command",
        about: "Print the help of tooldef, or of one command",
        details: "Same as `tooldef --help` and `tooldef COMMAND --help`.\n",
        options: &[],
        parse: parse_help,
    },
];

const MAIN_ABOUT: &str = "tooldef: render, check and import LLM tool definitions";

const MAIN_DETAILS: &str = "\
PATH is a spec file (*.json), a directory of spec files, or `-` for one spec on stdin.
P is one of: openai-chat, openai-responses, anthropic, gemini, gemini-openapi, ollama, mcp,
bedrock.

Options:
  -h, --help      Print help (also `tooldef help COMMAND`, `tooldef COMMAND --help`)
  -V, --version   Print the version

Exit status: 0 success, 1 a provider refuses a tool, 2 bad usage or bad input (a tool too
large or too deeply nested to render is bad input).
";

/// `Usage:` and one line per verb, the verbs aligned.
pub(crate) fn usage_block() -> String {
    let width = VERBS.iter().map(|v| v.name.len()).max().unwrap_or(0);
    let mut text = String::from("Usage:\n");
    for v in VERBS {
        text.push_str(&format!("  tooldef {:<width$} {}\n", v.name, v.args));
    }
    text.push_str("  tooldef --help | --version\n");
    text
}

/// The help of `tooldef` itself.
pub(crate) fn main_help() -> String {
    let width = VERBS.iter().map(|v| v.name.len()).max().unwrap_or(0);
    let mut commands = String::from("Commands:\n");
    for v in VERBS {
        commands.push_str(&format!("  {:<width$}   {}\n", v.name, v.summary));
    }
    format!("{MAIN_ABOUT}\n\n{}\n{commands}\n{MAIN_DETAILS}", usage_block())
}

/// A usage error: what is wrong, and the verb it concerns (`None` for `tooldef` itself).
#[derive(Debug, PartialEq)]
pub(crate) struct UsageError {
    pub(crate) message: String,
    verb: Option<&'static str>,
}

impl UsageError {
    /// The usage to print under the message: the verb's usage line, or every verb's.
    pub(crate) fn usage(&self) -> String {
        match self.verb.and_then(verb) {
            Some(v) => v.usage_line(),
            None => usage_block().trim_end().to_owned(),
        }
    }

    /// Where to read more (`tooldef render --help`).
    pub(crate) fn more(&self) -> String {
        match self.verb {
            Some(v) => format!("tooldef {v} --help"),
            None => "tooldef --help".to_owned(),
        }
    }
}

fn usage(message: impl Into<String>, verb: Option<&'static Verb>) -> UsageError {
    UsageError { message: message.into(), verb: verb.map(|v| v.name) }
}

fn verb(name: &str) -> Option<&'static Verb> {
    VERBS.iter().find(|v| v.name == name)
}

/// `; did you mean `x`?` when `wanted` is close to one of `known`, else `otherwise`.
fn hint<'a>(wanted: &str, known: impl IntoIterator<Item = &'a str>, otherwise: &str) -> String {
    match closest(wanted, known) {
        Some(k) => format!("; did you mean `{k}`?"),
        None => otherwise.to_owned(),
    }
}

/// One argument, split into an option (with an inline `=value`) or a positional.
enum Arg {
    Flag { name: String, value: Option<String> },
    Positional(OsString),
}

/// Iterates arguments; after `--`, everything is positional. `-` alone is positional (stdin).
pub(crate) struct Args {
    rest: std::vec::IntoIter<OsString>,
    positional_only: bool,
}

impl Args {
    fn next_arg(&mut self) -> Option<Arg> {
        let raw = self.rest.next()?;
        if self.positional_only {
            return Some(Arg::Positional(raw));
        }
        let Some(text) = raw.to_str() else { return Some(Arg::Positional(raw)) };
        if text == "--" {
            self.positional_only = true;
            return self.next_arg();
        }
        if text == "-h" {
            return Some(Arg::Flag { name: "--help".into(), value: None });
        }
        if text.starts_with("--") {
            return Some(match text.split_once('=') {
                Some((name, value)) => Arg::Flag { name: name.into(), value: Some(value.into()) },
                None => Arg::Flag { name: text.into(), value: None },
            });
        }
        if text.starts_with('-') && text != STDIN {
            return Some(Arg::Flag { name: text.into(), value: None });
        }
        Some(Arg::Positional(raw))
    }

    /// The value of an option: inline (`--out=dir`) or the next argument.
    fn value(
        &mut self,
        name: &str,
        inline: Option<String>,
        verb: &'static Verb,
    ) -> Result<String, UsageError> {
        if let Some(v) = inline {
            return Ok(v);
        }
        match self.rest.next() {
            Some(v) => v.into_string().map_err(|_| {
                usage(format!("the value of `{name}` is not valid UTF-8"), Some(verb))
            }),
            None => Err(usage(format!("`{name}` needs a value"), Some(verb))),
        }
    }
}

fn no_value(name: &str, value: Option<String>, verb: &'static Verb) -> Result<(), UsageError> {
    match value {
        None => Ok(()),
        Some(_) => Err(usage(format!("`{name}` takes no value"), Some(verb))),
    }
}

/// An option without its leading dashes.
fn bare_name(option: &str) -> &str {
    option.trim_start_matches('-')
}

fn unknown_option(name: &str, known: &[&str], verb: Option<&'static Verb>) -> UsageError {
    let what = match verb {
        Some(v) => format!("`{}`", v.name),
        None => "tooldef".to_owned(),
    };
    // Compared without their dashes, which every option shares.
    let rest = match closest(bare_name(name), known.iter().map(|o| bare_name(o))) {
        Some(k) => format!("; did you mean `--{k}`?"),
        None => format!("; {what} takes {}", list(known)),
    };
    usage(format!("unknown option `{name}`{rest}"), verb)
}

/// `a, b or c` (or `no options`).
fn list(items: &[&str]) -> String {
    match items {
        [] => "no options".to_owned(),
        [one] => format!("`{one}`"),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(|i| format!("`{i}`")).collect();
            format!("{} or `{last}`", init.join(", "))
        }
    }
}

fn provider(value: &str, verb: &'static Verb) -> Result<Provider, UsageError> {
    Provider::parse(value).ok_or_else(|| {
        let names = Provider::ALL.map(Provider::name);
        let rest = hint(value, names, &format!("; expected one of {}", names.join(", ")));
        usage(format!("unknown provider `{value}`{rest}"), Some(verb))
    })
}

/// Parses the arguments after the program name.
pub(crate) fn parse(argv: Vec<OsString>) -> Result<Command, UsageError> {
    let mut args = Args { rest: argv.into_iter(), positional_only: false };
    let name = match args.next_arg() {
        None => return Err(usage("no command given", None)),
        Some(Arg::Flag { name, value }) => {
            return match name.as_str() {
                "--help" => match value {
                    None => Ok(Command::Help(main_help())),
                    Some(_) => Err(usage("`--help` takes no value", None)),
                },
                "--version" | "-V" => match value {
                    None => Ok(Command::Version),
                    Some(_) => Err(usage(format!("`{name}` takes no value"), None)),
                },
                _ => Err(unknown_option(&name, &["--help", "--version"], None)),
            };
        }
        Some(Arg::Positional(c)) => c.to_string_lossy().into_owned(),
    };
    match verb(&name) {
        Some(v) => (v.parse)(&mut args, v),
        None => Err(no_command(&name)),
    }
}

fn no_command(name: &str) -> UsageError {
    let names = VERBS.iter().map(|v| v.name);
    let all: Vec<&str> = names.clone().collect();
    let rest = hint(name, names, &format!("; expected one of {}", all.join(", ")));
    usage(format!("no command `{name}`{rest}"), None)
}

fn parse_help(args: &mut Args, this: &'static Verb) -> Result<Command, UsageError> {
    let text = match args.next_arg() {
        None => main_help(),
        Some(Arg::Positional(c)) => {
            let name = c.to_string_lossy();
            verb(&name).ok_or_else(|| no_command(&name))?.help()
        }
        Some(Arg::Flag { name, .. }) if name == "--help" => this.help(),
        Some(Arg::Flag { name, .. }) => {
            return Err(unknown_option(&name, this.options, Some(this)));
        }
    };
    match args.next_arg() {
        None => Ok(Command::Help(text)),
        Some(_) => Err(usage("`help` takes one COMMAND at most", Some(this))),
    }
}

/// Adds a PATH, refusing `-` twice (stdin can be read once).
fn push_path(paths: &mut Vec<PathBuf>, p: OsString, verb: &'static Verb) -> Result<(), UsageError> {
    let p = PathBuf::from(p);
    if p.as_os_str() == STDIN && paths.iter().any(|q| q.as_os_str() == STDIN) {
        return Err(usage("`-` (stdin) is given twice; stdin holds one spec", Some(verb)));
    }
    paths.push(p);
    Ok(())
}

fn parse_render(args: &mut Args, v: &'static Verb) -> Result<Command, UsageError> {
    let (mut provider_arg, mut strict, mut report, mut pretty) = (None, false, false, false);
    let mut keep_going = false;
    let mut map_names = false;
    let mut paths = Vec::new();
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Positional(p) => push_path(&mut paths, p, v)?,
            Arg::Flag { name, value } => match name.as_str() {
                "--help" => return Ok(Command::Help(v.help())),
                "--provider" => {
                    let value = args.value(&name, value, v)?;
                    if provider_arg.is_some() {
                        return Err(usage(
                            "`--provider` is given twice; render takes one",
                            Some(v),
                        ));
                    }
                    provider_arg = Some(provider(&value, v)?);
                }
                "--strict" => {
                    no_value(&name, value, v)?;
                    strict = true;
                }
                "--report" => {
                    no_value(&name, value, v)?;
                    report = true;
                }
                "--pretty" => {
                    no_value(&name, value, v)?;
                    pretty = true;
                }
                "--keep-going" => {
                    no_value(&name, value, v)?;
                    keep_going = true;
                }
                "--map-names" => {
                    no_value(&name, value, v)?;
                    map_names = true;
                }
                _ => return Err(unknown_option(&name, v.options, Some(v))),
            },
        }
    }
    let provider = provider_arg.ok_or_else(|| {
        usage(format!("`--provider` is required: one of {PROVIDER_LIST}"), Some(v))
    })?;
    if paths.is_empty() {
        return Err(usage("no PATH given", Some(v)));
    }
    Ok(Command::Render(RenderArgs {
        provider,
        strict,
        report,
        pretty,
        keep_going,
        map_names,
        paths,
    }))
}

fn parse_check(args: &mut Args, v: &'static Verb) -> Result<Command, UsageError> {
    let (mut providers, mut strict, mut paths) = (Vec::new(), false, Vec::new());
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Positional(p) => push_path(&mut paths, p, v)?,
            Arg::Flag { name, value } => match name.as_str() {
                "--help" => return Ok(Command::Help(v.help())),
                "--provider" => {
                    let p = provider(&args.value(&name, value, v)?, v)?;
                    if !providers.contains(&p) {
                        providers.push(p);
                    }
                }
                "--strict" => {
                    no_value(&name, value, v)?;
                    strict = true;
                }
                _ => return Err(unknown_option(&name, v.options, Some(v))),
            },
        }
    }
    if providers.is_empty() {
        providers = Provider::ALL.to_vec();
    }
    if paths.is_empty() {
        return Err(usage("no PATH given", Some(v)));
    }
    Ok(Command::Check(CheckArgs { providers, strict, paths }))
}

/// The `--from` value that imports from a live MCP server rather than a file.
const MCP_SERVER: &str = "mcp-server";

fn parse_import(args: &mut Args, v: &'static Verb) -> Result<Command, UsageError> {
    let (mut from, mut out, mut force, mut files) = (None, None, false, Vec::new());
    let (mut server, mut keep_going) = (false, false);
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Positional(p) => files.push(PathBuf::from(p)),
            Arg::Flag { name, value } => match name.as_str() {
                "--help" => return Ok(Command::Help(v.help())),
                "--from" => {
                    let value = args.value(&name, value, v)?;
                    server = value == MCP_SERVER;
                    if server {
                        continue;
                    }
                    from = Some(ImportFormat::parse(&value).ok_or_else(|| {
                        let names: Vec<&str> = ImportFormat::ALL
                            .map(ImportFormat::name)
                            .into_iter()
                            .chain([MCP_SERVER])
                            .collect();
                        let rest = hint(
                            &value,
                            names.iter().copied(),
                            &format!("; expected one of {}", names.join(", ")),
                        );
                        usage(format!("unknown format `{value}`{rest}"), Some(v))
                    })?);
                }
                "--out" => out = Some(PathBuf::from(args.value(&name, value, v)?)),
                "--force" => {
                    no_value(&name, value, v)?;
                    force = true;
                }
                "--keep-going" => {
                    no_value(&name, value, v)?;
                    keep_going = true;
                }
                _ => return Err(unknown_option(&name, v.options, Some(v))),
            },
        }
    }
    if server {
        if files.is_empty() {
            return Err(usage("no server command given after `--`", Some(v)));
        }
        let command = files.into_iter().map(PathBuf::into_os_string).collect();
        let out = out.unwrap_or_else(|| ".".into());
        return Ok(Command::ImportServer(crate::mcp_import::McpImportArgs {
            command,
            out,
            force,
            keep_going,
        }));
    }
    let from = from.ok_or_else(|| {
        let names = ImportFormat::ALL.map(ImportFormat::name);
        usage(format!("`--from` is required: one of {}, {MCP_SERVER}", names.join(", ")), Some(v))
    })?;
    let file = match files.len() {
        1 => files.remove(0),
        0 => return Err(usage("no FILE given (`-` reads stdin)", Some(v))),
        _ => return Err(usage("import reads one FILE", Some(v))),
    };
    let out = out.unwrap_or_else(|| ".".into());
    Ok(Command::Import(ImportArgs { from, file, out, force, keep_going }))
}

fn parse_serve(args: &mut Args, v: &'static Verb) -> Result<Command, UsageError> {
    let mut paths = Vec::new();
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Positional(p) => paths.push(PathBuf::from(p)),
            Arg::Flag { name, .. } if name == "--help" => return Ok(Command::Help(v.help())),
            Arg::Flag { name, .. } => return Err(unknown_option(&name, v.options, Some(v))),
        }
    }
    if paths.is_empty() {
        return Err(usage("no DIR given", Some(v)));
    }
    Ok(Command::Serve(crate::serve::ServeArgs { paths }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(args: &[&str]) -> Result<Command, UsageError> {
        parse(args.iter().map(OsString::from).collect())
    }

    fn message(args: &[&str]) -> String {
        parse_str(args).expect_err("a usage error").message
    }

    #[test]
    fn render_takes_flags_in_any_order_and_inline_values() {
        let c = parse_str(&["render", "a.json", "--pretty", "--provider=anthropic", "dir"]);
        assert_eq!(
            c,
            Ok(Command::Render(RenderArgs {
                provider: Provider::Anthropic,
                strict: false,
                report: false,
                pretty: true,
                keep_going: false,
                map_names: false,
                paths: vec!["a.json".into(), "dir".into()],
            }))
        );
    }

    #[test]
    fn double_dash_makes_the_rest_positional() {
        let Ok(Command::Render(r)) = parse_str(&["render", "--provider", "mcp", "--", "--strict"])
        else {
            panic!("expected render");
        };
        assert_eq!((r.strict, r.paths), (false, vec![PathBuf::from("--strict")]));
    }

    #[test]
    fn a_dash_is_stdin_and_may_be_given_once() {
        let Ok(Command::Check(c)) = parse_str(&["check", "a.json", "-"]) else {
            panic!("expected check")
        };
        assert_eq!(c.paths, [PathBuf::from("a.json"), PathBuf::from("-")]);
        assert_eq!(
            message(&["render", "--provider", "mcp", "-", "-"]),
            "`-` (stdin) is given twice; stdin holds one spec"
        );
        let Ok(Command::Import(i)) = parse_str(&["import", "--from", "mcp", "-"]) else {
            panic!("expected import")
        };
        assert_eq!(i.file, PathBuf::from("-"));
    }

    #[test]
    fn check_defaults_to_every_provider_and_dedups() {
        let Ok(Command::Check(c)) = parse_str(&["check", "x"]) else { panic!("expected check") };
        assert_eq!(c.providers, Provider::ALL.to_vec());
        let Ok(Command::Check(c)) =
            parse_str(&["check", "--provider", "ollama", "--provider=ollama", "x"])
        else {
            panic!("expected check")
        };
        assert_eq!(c.providers, vec![Provider::Ollama]);
    }

    #[test]
    fn usage_errors_name_the_argument_and_suggest_a_close_one() {
        assert_eq!(
            message(&["render", "--provider", "openai", "x"]),
            "unknown provider `openai`; expected one of openai-chat, openai-responses, anthropic, gemini, gemini-openapi, ollama, mcp, bedrock"
        );
        assert_eq!(
            message(&["render", "--provider", "antropic", "x"]),
            "unknown provider `antropic`; did you mean `anthropic`?"
        );
        assert_eq!(
            message(&["render", "--provder", "mcp", "x"]),
            "unknown option `--provder`; did you mean `--provider`?"
        );
        assert_eq!(
            message(&["check", "--keep-going", "x"]),
            "unknown option `--keep-going`; `check` takes `--provider`, `--strict` or `--help`"
        );
        assert_eq!(
            message(&["import", "--from", "gemni", "x"]),
            "unknown format `gemni`; did you mean `gemini`?"
        );
        assert_eq!(
            message(&["render", "x"]),
            "`--provider` is required: one of openai-chat, openai-responses, anthropic, gemini, gemini-openapi, ollama, mcp or bedrock"
        );
        assert_eq!(message(&["rendr"]), "no command `rendr`; did you mean `render`?");
        assert_eq!(message(&["improt"]), "no command `improt`; did you mean `import`?");
        assert_eq!(
            message(&["convert"]),
            "no command `convert`; expected one of render, check, import, serve, help"
        );
        assert_eq!(
            message(&["--verison"]),
            "unknown option `--verison`; did you mean `--version`?"
        );
        assert_eq!(
            message(&["check", "--keep", "x"]),
            "unknown option `--keep`; `check` takes `--provider`, `--strict` or `--help`"
        );
        assert_eq!(
            message(&["import", "-force"]),
            "unknown option `-force`; did you mean `--force`?"
        );
        assert_eq!(message(&["import", "--from", "mcp"]), "no FILE given (`-` reads stdin)");
        assert_eq!(
            message(&["render", "--pretty=yes", "--provider", "mcp", "x"]),
            "`--pretty` takes no value"
        );
        assert_eq!(message(&["help", "chek"]), "no command `chek`; did you mean `check`?");
    }

    #[test]
    fn usage_under_an_error_is_the_verbs_line_or_every_verb() {
        let e = parse_str(&["check"]).unwrap_err();
        assert_eq!(e.usage(), "Usage: tooldef check [--provider P]... [--strict] PATH...");
        assert_eq!(e.more(), "tooldef check --help");
        let e = parse_str(&[]).unwrap_err();
        assert_eq!(
            e.usage(),
            "Usage:
  tooldef render --provider P [--strict] [--report] [--pretty] [--keep-going] [--map-names] PATH...
  tooldef check  [--provider P]... [--strict] PATH...
  tooldef import --from mcp|openai|anthropic|gemini [--keep-going] FILE [--out DIR] [--force]
  tooldef serve  DIR...
  tooldef help   [COMMAND]
  tooldef --help | --version"
        );
        assert_eq!(e.more(), "tooldef --help");
    }

    #[test]
    fn help_comes_from_the_verb_table() {
        for v in VERBS {
            let Ok(Command::Help(text)) = parse_str(&[v.name, "--help"]) else {
                panic!("{}: expected help", v.name)
            };
            assert!(text.lines().any(|l| l == v.usage_line()), "{text}");
            assert_eq!(parse_str(&["help", v.name]), Ok(Command::Help(text)));
        }
        let Ok(Command::Help(main)) = parse_str(&["-h"]) else { panic!("expected help") };
        for v in VERBS {
            assert!(main.contains(&format!("  {:<6}   {}\n", v.name, v.summary)), "{main}");
        }
        assert_eq!(parse_str(&["help"]), Ok(Command::Help(main)));
    }

    #[test]
    fn import_defaults_to_the_current_directory() {
        let Ok(Command::Import(i)) = parse_str(&["import", "--from", "gemini", "f.json"]) else {
            panic!("expected import")
        };
        assert_eq!((i.from, i.out, i.force), (ImportFormat::Gemini, PathBuf::from("."), false));
    }

    #[test]
    fn keep_going_is_taken_by_render_and_import_only() {
        let Ok(Command::Render(r)) = parse_str(&["render", "--keep-going", "--provider=mcp", "d"])
        else {
            panic!("expected render")
        };
        assert!(r.keep_going);
        let Ok(Command::Import(i)) = parse_str(&["import", "--from", "mcp", "--keep-going", "f"])
        else {
            panic!("expected import")
        };
        assert!(i.keep_going);
        let Ok(Command::ImportServer(s)) =
            parse_str(&["import", "--from", "mcp-server", "--keep-going", "--", "srv"])
        else {
            panic!("expected import from a server")
        };
        assert!(s.keep_going);
    }
}
