//! Command-line parsing: one table of verbs, their options and the providers, read by a small
//! hand-written parser.
//!
//! Owns turning `argv` into a [`Command`] (or a usage error naming the argument at fault, with a
//! "did you mean" where one is close); it runs nothing. Every name is written once, in a row:
//! the usage lines, the help texts, the lists of options in messages and the parser all read
//! [`VERBS`] (and `providers.rs` for provider and import format names).
//!
//! - **To add a flag**, add one row to its verb's `opts` below: [`Opt::switch`] with the field of
//!   the verb's draft it turns on, or [`Opt::value`] with its [`Value`] (needed, optional or
//!   repeated) and the function that reads it into the draft. Add the field to the draft (and to
//!   the verb's arguments, which its `finish` builds). The row's order is the order of the usage
//!   line and of the help.
//! - **To add a verb**, write its module (`cli/src/<verb>.rs`: its arguments and its `run`), add a
//!   [`Command`] variant and its arm in `main.rs`'s `run`, and one [`Verb`] row to [`VERBS`] with
//!   its help, operands, options, draft and `finish`.
//! - **To add a provider**, add one row to `Provider` in `providers.rs`.

mod parse;
mod table;
#[cfg(test)]
mod tests;

use std::ffi::OsString;
use std::path::PathBuf;

use self::parse::{Arg, Args, no_command, no_value, unknown, unknown_option, usage, verb};
pub(crate) use self::parse::{STDIN, UsageError};
use self::table::{
    Flag, Operand, Options, Text, Value, Verb, lay_out, options_help, or_list, wrap,
};
pub(crate) use self::table::{Opt, Opts};
use crate::check::CheckArgs;
use crate::import_run::ImportArgs;
use crate::mcp_import::McpImportArgs;
use crate::plan::PlanArgs;
use crate::providers::{ImportFormat, Provider};
use crate::render::RenderArgs;
use crate::serve::ServeArgs;

/// What the user asked for.
#[derive(Debug, PartialEq)]
pub(crate) enum Command {
    /// Print a help text (on stdout) and exit successfully.
    Help(String),
    /// Print the version.
    Version,
    /// `tooldef render`.
    Render(RenderArgs),
    /// `tooldef plan`.
    Plan(PlanArgs),
    /// `tooldef render --plan` (and whether `--pretty`).
    RenderPlan(PlanArgs, bool),
    /// `tooldef check`.
    Check(CheckArgs),
    /// `tooldef import`.
    Import(ImportArgs),
    /// `tooldef import --from mcp-server -- CMD...`.
    ImportServer(McpImportArgs),
    /// `tooldef serve`.
    Serve(ServeArgs),
}

/// Every verb, in the order the help lists them.
pub(crate) static VERBS: &[Verb] = &[
    Verb {
        name: "render",
        summary: "Print the provider's wire JSON for the tools, as one JSON array",
        about: "Print the provider's wire JSON for the tools, as one JSON array on stdout",
        intro: Text::Written(
            "\
Each element of the array is exactly one tool as the provider's `tools` field takes it, in
input order. A directory contributes its *.json specs sorted by name: the file stem is the tool
name, dot-files are ignored, a stem that is not a tool name is skipped with a warning. `-` reads
one spec from stdin; its `name` key names the tool.

",
        ),
        outro: "\
Only JSON is printed on stdout. Every bad file and every refused tool is named on stderr (file,
tool, JSON pointer, rule); without --keep-going nothing is printed on stdout then. Exit status:
0 every tool rendered, 1 the provider refuses a tool (and no file was bad), 2 bad usage, a
bad input file (its message names the file and the line and column or JSON pointer of every
problem), or a tool too large or too deeply nested to render (references that fan out past the
expansion budget, the nesting guard, a provider's size limits; named with file and pointer).
",
        column: 17,
        operand: Operand { usage: "PATH...", after: None },
        options: &Opts::<RenderDraft> {
            opts: &[
                RENDER_PROVIDER,
                RENDER_MODEL,
                Opt::switch(
                    "--strict",
                    "Strict mode where the provider has one (`strict: true`), and the strict
policy: a change that would lose meaning is an error instead of a report",
                    |d| &mut d.strict,
                ),
                Opt::switch(
                    "--report",
                    "Print every change made to fit the provider to stderr",
                    |d| &mut d.report,
                ),
                Opt::switch("--pretty", "Indent the JSON", |d| &mut d.pretty),
                Opt::switch(
                    "--keep-going",
                    "Print the tools that can be rendered even when others cannot (the exit
status still says that some were left out)",
                    |d| &mut d.keep_going,
                ),
                Opt::switch(
                    "--map-names",
                    "Send tool and property names the provider refuses (`weather.get` for
OpenAI, `Content-Type` for Gemini) under safe, deterministic names; each
rename is a change (see --report), and a host maps the model's calls back
with tooldef's NameMap",
                    |d| &mut d.map_names,
                ),
                Opt::switch(
                    "--plan",
                    "Print the tools array of one request as `tooldef plan` plans it: strict
where lossless and within budget, deferred tools and the search tool in the
provider's own form, tools that do not fit left out (see `tooldef plan`)",
                    |d| &mut d.plan,
                ),
                Opt::value(
                    "--max-tools",
                    Value::optional("N"),
                    "With --plan: the most tools loaded up front (search tool included)",
                    |d: &mut RenderDraft, name, n| count(name, &n).map(|n| d.max_tools = Some(n)),
                ),
                Opt::value(
                    "--max-bytes",
                    Value::optional("N"),
                    "With --plan: the most bytes of tool definitions loaded up front",
                    |d: &mut RenderDraft, name, n| count(name, &n).map(|n| d.max_bytes = Some(n)),
                ),
            ],
            operand: |d, p| push_path(&mut d.paths, p),
            finish: RenderDraft::finish,
        },
    },
    Verb {
        name: "plan",
        summary: "Decide which tools go into one request, in which form, and why",
        about: "Decide, per tool, how one request for the provider carries it, and why",
        intro: Text::Written(
            "\
Every tool of PATH (read as by `render`) is offered to one request. Each is decided: `strict`
(lossless in the provider's strict mode and within its per-request budgets, with --strict),
`plain` (strict not asked for, not lossless, or a strict budget spent), `deferred` (over a
limit: found through the provider's tool search, or tooldef's `tool_search` tool where the
provider has none) or `left_out` (the provider cannot render it, its name is too long, or it
is over a limit and cannot be deferred). Tools compete for limits by name; one bad tool never
sinks the others. The budgets and their sources are in the repository's docs/budgets.md.

",
        ),
        outro: "\
Prints a table (tool, decision, bytes of its wire JSON, reason) and the totals; with --json,
one JSON array of {\"name\", \"decision\", \"reason\", \"detail\", \"bytes\"} in request order
(`reason` a stable code, `detail` its words). `tooldef render --plan` prints the planned tools
array itself. Exit status: 0 planned (tools left out are part of the plan), 2 bad usage or a
bad input file (the good ones are still planned).
",
        column: 17,
        operand: Operand { usage: "PATH...", after: None },
        options: &Opts::<PlanDraft> {
            opts: &[
                Opt::value(
                    "--provider",
                    Value::needed("P", provider_list),
                    "",
                    |d: &mut PlanDraft, name, p| {
                        if d.provider.is_some() {
                            return Err(format!("`{name}` is given twice; plan takes one"));
                        }
                        d.provider = Some(provider(&p)?);
                        Ok(())
                    },
                )
                .listing(provider_list),
                Opt::switch(
                    "--strict",
                    "Prefer the provider's strict mode, per tool, where it is lossless and
within the request's strict budgets",
                    |d| &mut d.strict,
                ),
                Opt::value(
                    "--max-tools",
                    Value::optional("N"),
                    "The most tools loaded up front (search tool included)",
                    |d: &mut PlanDraft, name, n| count(name, &n).map(|n| d.max_tools = Some(n)),
                ),
                Opt::value(
                    "--max-bytes",
                    Value::optional("N"),
                    "The most bytes of tool definitions loaded up front",
                    |d: &mut PlanDraft, name, n| count(name, &n).map(|n| d.max_bytes = Some(n)),
                ),
                Opt::switch("--json", "One JSON array instead of the table", |d| &mut d.json),
            ],
            operand: |d, p| push_path(&mut d.paths, p),
            finish: PlanDraft::finish,
        },
    },
    Verb {
        name: "check",
        summary: "Show, per provider, what rendering would change or refuse",
        about: "Show, per provider, what rendering the tools would change or refuse",
        intro: Text::Written(
            "\
For each provider (by default all of them), prints every change that rendering would make to
fit the provider (lossy ones marked) and every tool the provider would refuse. PATH is read as
by `render` (`-` for one spec on stdin). Every problem of every file is reported: a bad file
does not stop the others from being checked.

",
        ),
        outro: "\
Exit status: 0 nothing refused, 1 a provider would refuse something (check only the providers
you target with --provider), 2 bad usage, a bad input file (the good ones are still checked),
or a tool too large or too deeply nested to render (as for `render`).
",
        column: 17,
        operand: Operand { usage: "PATH...", after: None },
        options: &Opts::<CheckArgs> {
            opts: &[
                Opt::value(
                    "--provider",
                    Value::repeated("P"),
                    "Check this provider (repeatable):",
                    |d: &mut CheckArgs, _, p| {
                        let p = provider(&p)?;
                        if !d.providers.contains(&p) {
                            d.providers.push(p);
                        }
                        Ok(())
                    },
                )
                .listing(provider_list),
                Opt::value(
                    "--model",
                    Value::optional("ID"),
                    "Check for this model, on the providers that render for one (as
`render --model`)",
                    |d: &mut CheckArgs, _, id| {
                        d.model = Some(id);
                        Ok(())
                    },
                ),
                Opt::switch(
                    "--strict",
                    "Check strict mode, with lossy changes as errors (as `render --strict`)",
                    |d| &mut d.strict,
                ),
            ],
            operand: |d, p| push_path(&mut d.paths, p),
            finish: |mut d| {
                if d.providers.is_empty() {
                    d.providers = Provider::ALL.to_vec();
                }
                if d.paths.is_empty() {
                    return Err("no PATH given".into());
                }
                Ok(Command::Check(d))
            },
        },
    },
    Verb {
        name: "import",
        summary: "Turn a provider's tool list into spec files, one per tool",
        about: "Turn a provider's tool list into spec files, one per tool, named by the tool",
        intro: Text::Made(import_intro),
        outro: "\
The paths written are printed on stdout, one a line; notes (keywords dropped) on stderr. Every
tool that cannot be imported is named on stderr (its JSON pointer in FILE and the problem), and
so is a name listed twice (the second) or one whose file would be a dot-file (`.hidden`, which a
tool directory ignores); without --keep-going nothing is written then. A server's text reaches
the terminal with its control characters escaped. A non-empty list that yields no tool is an error
that says which format it looks like. Exit status: 0 every tool written, 2 bad usage, bad input
or a tool left out.
",
        column: 16,
        operand: Operand { usage: "FILE", after: Some(2) },
        options: &IMPORT,
    },
    Verb {
        name: "serve",
        summary: "Serve the tools of workspace directories as an MCP server on stdio",
        about: "Serve the tools of workspace directories as an MCP server on stdin and stdout",
        intro: Text::Written(
            "\
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

With --http ADDR it serves streamable HTTP instead, until it is interrupted, and prints the
endpoint's URL (`http://ADDR/mcp`) as its first line on stdout. It has no authentication: bind
a loopback address. Requests whose `Host` is not loopback are refused (DNS rebinding), as are
browser pages whose `Origin` is neither loopback nor given with --allow-origin.

",
        ),
        outro: "",
        column: 16,
        operand: Operand { usage: "DIR...", after: None },
        options: &Opts::<ServeArgs> {
            opts: &[
                Opt::value(
                    "--http",
                    Value::optional("ADDR"),
                    "Serve streamable HTTP on ADDR instead of stdio: `127.0.0.1:8080`, or a port
alone for loopback (`8080`; `0` picks a free port)",
                    |d, _, addr| {
                        d.http = Some(addr);
                        Ok(())
                    },
                ),
                Opt::value(
                    "--allow-origin",
                    Value::repeated("ORIGIN"),
                    "With --http, also serve browser pages of ORIGIN (`https://app.example:443`,
`https://app.example:*`, `null`); loopback origins always are",
                    |d, _, origin| {
                        d.allowed_origins.push(origin);
                        Ok(())
                    },
                ),
            ],
            operand: |d, p| {
                d.paths.push(PathBuf::from(p));
                Ok(())
            },
            finish: |d| match (
                d.paths.is_empty(),
                d.http.is_none() && !d.allowed_origins.is_empty(),
            ) {
                (true, _) => Err("no DIR given".into()),
                (_, true) => Err("--allow-origin is for --http".into()),
                (false, false) => Ok(Command::Serve(d)),
            },
        },
    },
    Verb {
        name: "help",
        summary: "Print this help, or the help of one command",
        about: "Print the help of tooldef, or of one command",
        intro: Text::Written("Same as `tooldef --help` and `tooldef COMMAND --help`.\n"),
        outro: "",
        column: 0,
        operand: Operand { usage: "[COMMAND]", after: None },
        options: &HelpVerb,
    },
];

/// `tooldef --help` and `tooldef --version`: the options of `tooldef` itself.
const MAIN_FLAGS: [Flag; 2] = [
    Flag {
        name: "--help",
        short: Some("-h"),
        value: None,
        help: "Print help (also `tooldef help COMMAND`, `tooldef COMMAND --help`)",
        listing: None,
    },
    Flag {
        name: "--version",
        short: Some("-V"),
        value: None,
        help: "Print the version",
        listing: None,
    },
];

const MAIN_ABOUT: &str = "tooldef: render, check and import LLM tool definitions";

/// The main help's details: the operands, the providers, the options and the exit status.
fn main_details() -> String {
    let providers = Provider::names().join(", ");
    format!(
        "\
PATH is a spec file (*.json), a directory of spec files, or `-` for one spec on stdin.
{}

Options:
{}
Exit status: 0 success, 1 a provider refuses a tool, 2 bad usage or bad input (a tool too
large or too deeply nested to render is bad input).
",
        wrap(&format!("P is one of: {providers}."), 0),
        options_help(&MAIN_FLAGS, 18),
    )
}

/// `Usage:` and one line per verb, the verbs aligned.
pub(crate) fn usage_block() -> String {
    let width = VERBS.iter().map(|v| v.name.len()).max().unwrap_or(0);
    let mut text = String::from("Usage:\n");
    for v in VERBS {
        text.push_str(&format!("  tooldef {:<width$} {}\n", v.name, v.synopsis()));
    }
    let main: Vec<&str> = MAIN_FLAGS.iter().map(|f| f.name).collect();
    text.push_str(&format!("  tooldef {}\n", main.join(" | ")));
    text
}

/// The help of `tooldef` itself.
pub(crate) fn main_help() -> String {
    let width = VERBS.iter().map(|v| v.name.len()).max().unwrap_or(0);
    let mut commands = String::from("Commands:\n");
    for v in VERBS {
        commands.push_str(&format!("  {:<width$}   {}\n", v.name, v.summary));
    }
    format!("{MAIN_ABOUT}\n\n{}\n{commands}\n{}", usage_block(), main_details())
}

/// Parses the arguments after the program name.
pub(crate) fn parse(argv: Vec<OsString>) -> Result<Command, UsageError> {
    let mut args = Args::new(argv);
    let name = match args.next_arg() {
        None => return Err(usage("no command given", None)),
        Some(Arg::Flag { name, value }) => {
            let [help, version] = &MAIN_FLAGS;
            let command = if name == help.name {
                Command::Help(main_help())
            } else if name == version.name || Some(name.as_str()) == version.short {
                Command::Version
            } else {
                let known: Vec<&str> = MAIN_FLAGS.iter().map(|f| f.name).collect();
                return Err(unknown_option(&name, &known, None));
            };
            no_value(&name, value, None)?;
            return Ok(command);
        }
        Some(Arg::Positional(c)) => c.to_string_lossy().into_owned(),
    };
    match verb(&name) {
        Some(v) => v.options.parse(&mut args, v),
        None => Err(no_command(&name)),
    }
}

/// The provider names, `a, b or c`.
fn provider_list() -> String {
    or_list(&Provider::names())
}

/// The provider named `value`.
fn provider(value: &str) -> Result<Provider, String> {
    Provider::parse(value).ok_or_else(|| unknown("provider", value, &Provider::names()))
}

/// Adds a PATH, refusing `-` twice (stdin can be read once).
fn push_path(paths: &mut Vec<PathBuf>, p: OsString) -> Result<(), String> {
    let p = PathBuf::from(p);
    if p.as_os_str() == STDIN && paths.iter().any(|q| q.as_os_str() == STDIN) {
        return Err("`-` (stdin) is given twice; stdin holds one spec".into());
    }
    paths.push(p);
    Ok(())
}

/// `render --provider`, which `finish` asks for by name.
const RENDER_PROVIDER: Opt<RenderDraft> = Opt::value(
    "--provider",
    Value::needed("P", provider_list),
    "",
    |d: &mut RenderDraft, name, p| {
        if d.provider.is_some() {
            return Err(format!("`{name}` is given twice; render takes one"));
        }
        d.provider = Some(provider(&p)?);
        Ok(())
    },
)
.listing(provider_list);

const RENDER_MODEL: Opt<RenderDraft> = Opt::value(
    "--model",
    Value::optional("ID"),
    "Render for this model (`qwen3-coder`, `kimi-k2`, `gemini-2.0-flash`, `o3`): its
family's profile on top of the provider's wire API (openai-chat,
openai-responses, gemini, gemini-openapi, ollama); an ID no profile matches
keeps the provider's defaults, and --report says so",
    |d: &mut RenderDraft, _, id| {
        d.model = Some(id);
        Ok(())
    },
);

/// A count given to `name` (`--max-tools 100`).
fn count(name: &str, value: &str) -> Result<usize, String> {
    value.parse().map_err(|_| format!("`{name}` takes a whole number; got `{value}`"))
}

/// `render`'s arguments as they are read.
#[derive(Default)]
struct RenderDraft {
    provider: Option<Provider>,
    model: Option<String>,
    strict: bool,
    report: bool,
    pretty: bool,
    keep_going: bool,
    map_names: bool,
    plan: bool,
    max_tools: Option<usize>,
    max_bytes: Option<usize>,
    paths: Vec<PathBuf>,
}

impl RenderDraft {
    fn finish(self) -> Result<Command, String> {
        let RenderDraft {
            provider,
            model,
            strict,
            report,
            pretty,
            keep_going,
            map_names,
            plan,
            max_tools,
            max_bytes,
            paths,
        } = self;
        let provider = provider.ok_or_else(|| RENDER_PROVIDER.flag.required())?;
        if model.is_some() && !provider.takes_model() {
            return Err(format!(
                "`--model` applies to the wire APIs other model families are served over; `{}` renders for no model",
                provider.name()
            ));
        }
        if paths.is_empty() {
            return Err("no PATH given".into());
        }
        if plan {
            for (given, name) in [
                (report, "--report"),
                (keep_going, "--keep-going"),
                (map_names, "--map-names"),
                (model.is_some(), "--model"),
            ] {
                if given {
                    return Err(format!("`{name}` does not go with `--plan`"));
                }
            }
            let args = PlanArgs { provider, strict, max_tools, max_bytes, json: true, paths };
            return Ok(Command::RenderPlan(args, pretty));
        }
        if max_tools.is_some() || max_bytes.is_some() {
            return Err("`--max-tools` and `--max-bytes` need `--plan`".into());
        }
        Ok(Command::Render(RenderArgs {
            provider,
            model,
            strict,
            report,
            pretty,
            keep_going,
            map_names,
            paths,
        }))
    }
}

/// `plan`'s arguments as they are read.
#[derive(Default)]
struct PlanDraft {
    provider: Option<Provider>,
    strict: bool,
    max_tools: Option<usize>,
    max_bytes: Option<usize>,
    json: bool,
    paths: Vec<PathBuf>,
}

impl PlanDraft {
    fn finish(self) -> Result<Command, String> {
        let PlanDraft { provider, strict, max_tools, max_bytes, json, paths } = self;
        let provider = provider.ok_or_else(|| RENDER_PROVIDER.flag.required())?;
        if paths.is_empty() {
            return Err("no PATH given".into());
        }
        Ok(Command::Plan(PlanArgs { provider, strict, max_tools, max_bytes, json, paths }))
    }
}

/// The `--from` value that imports from a live MCP server rather than a file.
const MCP_SERVER: &str = "mcp-server";

/// `import --from`, which `finish` asks for by name.
const IMPORT_FROM: Opt<ImportDraft> = Opt::value(
    "--from",
    Value::needed_listed("F", || from_names().join(", "), || ImportFormat::names().join("|")),
    "The input's provider format",
    |d, _, value| {
        d.server = value == MCP_SERVER;
        if !d.server {
            let format = ImportFormat::parse(&value);
            d.from = Some(format.ok_or_else(|| unknown("format", &value, &from_names()))?);
        }
        Ok(())
    },
);

/// Every `--from` value: the formats, then a live server.
fn from_names() -> Vec<&'static str> {
    let mut names = ImportFormat::names();
    names.push(MCP_SERVER);
    names
}

/// `import`'s options, which its help also reads for the server's usage line.
static IMPORT: Opts<ImportDraft> = Opts {
    opts: &[
        IMPORT_FROM,
        Opt::switch(
            "--keep-going",
            "Write the tools that can be imported even when others cannot (the exit
status still says that some were left out)",
            |d| &mut d.keep_going,
        ),
        Opt::value(
            "--out",
            Value::optional("DIR"),
            "Where to write the spec files (default: the current directory); nothing is
written outside it: a symbolic link in DIR is never written through (refused)",
            |d, _, dir| {
                d.out = Some(PathBuf::from(dir));
                Ok(())
            },
        ),
        Opt::switch(
            "--force",
            "Overwrite existing spec files (regular files only; replaced, not rewritten)",
            |d| &mut d.force,
        ),
    ],
    operand: |d, p| {
        d.files.push(PathBuf::from(p));
        Ok(())
    },
    finish: ImportDraft::finish,
};

/// `import`'s help before its options: what each `--from` reads.
fn import_intro() -> String {
    let mut rows: Vec<(String, String)> =
        ImportFormat::ALL.iter().map(|f| (f.name().to_owned(), f.help().to_owned())).collect();
    let server_options: Vec<String> = IMPORT.opts.iter().skip(1).map(|o| o.flag.usage()).collect();
    rows.push((
        MCP_SERVER.to_owned(),
        format!(
            "a live MCP server, instead of FILE:
tooldef import {} {MCP_SERVER} {} -- CMD [ARG]...
CMD is started with its stdin and stdout as the MCP stdio transport, its tools
are listed (every page) and written, as for a FILE",
            IMPORT_FROM.flag.name,
            server_options.join(" ")
        ),
    ));
    format!("Accepted input (FILE, or `-` for stdin):\n{}\n", lay_out(&rows, 13))
}

/// `import`'s arguments as they are read.
#[derive(Default)]
struct ImportDraft {
    from: Option<ImportFormat>,
    /// `--from mcp-server` (the last `--from` counts).
    server: bool,
    out: Option<PathBuf>,
    force: bool,
    keep_going: bool,
    files: Vec<PathBuf>,
}

impl ImportDraft {
    fn finish(self) -> Result<Command, String> {
        let ImportDraft { from, server, out, force, keep_going, mut files } = self;
        let out = out.unwrap_or_else(|| ".".into());
        if server {
            if files.is_empty() {
                return Err("no server command given after `--`".into());
            }
            let command = files.into_iter().map(PathBuf::into_os_string).collect();
            return Ok(Command::ImportServer(McpImportArgs { command, out, force, keep_going }));
        }
        let from = from.ok_or_else(|| IMPORT_FROM.flag.required())?;
        let file = match files.len() {
            1 => files.remove(0),
            0 => return Err("no FILE given (`-` reads stdin)".into()),
            _ => return Err("import reads one FILE".into()),
        };
        Ok(Command::Import(ImportArgs { from, file, out, force, keep_going }))
    }
}

/// The `help` verb: at most one COMMAND, and no options of its own besides `--help`.
struct HelpVerb;

impl Options for HelpVerb {
    fn flags(&self) -> Vec<&Flag> {
        Vec::new()
    }

    fn lists_help(&self) -> bool {
        false
    }

    fn parse(&self, args: &mut Args, this: &'static Verb) -> Result<Command, UsageError> {
        let text = match args.next_arg() {
            None => main_help(),
            Some(Arg::Positional(c)) => {
                let name = c.to_string_lossy();
                verb(&name).ok_or_else(|| no_command(&name))?.help()
            }
            Some(Arg::Flag { name, .. }) if name == table::HELP.name => this.help(),
            Some(Arg::Flag { name, .. }) => {
                return Err(unknown_option(&name, &this.option_names(), Some(this)));
            }
        };
        match args.next_arg() {
            None => Ok(Command::Help(text)),
            Some(_) => Err(usage("`help` takes one COMMAND at most", Some(this))),
        }
    }
}
