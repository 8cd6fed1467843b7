//! Command-line parsing: a small hand-written parser for the three commands and their help.
//!
//! Owns turning `argv` into a [`Command`] (or a usage error naming the argument at fault); it
//! runs nothing.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::providers::{ImportFormat, Provider};

/// What the user asked for.
#[derive(Debug, PartialEq)]
pub(crate) enum Command {
    /// Print a help text and exit successfully.
    Help(&'static str),
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
    pub(crate) paths: Vec<PathBuf>,
}

/// Arguments of `tooldef check`.
#[derive(Debug, PartialEq)]
pub(crate) struct CheckArgs {
    pub(crate) providers: Vec<Provider>,
    pub(crate) strict: bool,
    pub(crate) paths: Vec<PathBuf>,
}

/// Arguments of `tooldef import`.
#[derive(Debug, PartialEq)]
pub(crate) struct ImportArgs {
    pub(crate) from: ImportFormat,
    pub(crate) file: PathBuf,
    pub(crate) out: PathBuf,
    pub(crate) force: bool,
}

pub(crate) const MAIN_HELP: &str = "\
tooldef: render, check and import LLM tool definitions

Usage:
  tooldef render --provider P [--strict] [--report] [--pretty] PATH...
  tooldef check  [--provider P]... [--strict] PATH...
  tooldef import --from mcp|openai|anthropic|gemini FILE [--out DIR] [--force]
  tooldef import --from mcp-server [--out DIR] [--force] -- CMD [ARG]...
  tooldef serve  DIR...

Commands:
  render   Print the provider's wire JSON for the tools, as one JSON array
  check    Show, per provider, what rendering would change or refuse
  import   Turn a provider's tool list into spec files, one per tool
  serve    Serve the tools of workspace directories as an MCP server on stdio

PATH is a spec file (*.json) or a directory of spec files.
P is one of: openai-chat, openai-responses, anthropic, gemini, gemini-openapi, ollama, mcp,
bedrock.

Options:
  -h, --help      Print help (also `tooldef help COMMAND`, `tooldef COMMAND --help`)
  -V, --version   Print the version

Exit status: 0 success, 1 a provider refuses a tool, 2 bad usage or bad input.
";

pub(crate) const RENDER_HELP: &str = "\
Print the provider's wire JSON for the tools, as one JSON array on stdout

Usage: tooldef render --provider P [--strict] [--report] [--pretty] PATH...

Each element of the array is exactly one tool as the provider's `tools` field takes it, in
input order. A directory contributes its *.json specs sorted by name: the file stem is the tool
name, dot-files are ignored, a stem that is not a tool name is skipped with a warning.

Options:
  --provider P   openai-chat, openai-responses, anthropic, gemini, gemini-openapi, ollama,
                 mcp or bedrock
  --strict       Strict mode where the provider has one (`strict: true`), and the strict
                 policy: a change that would lose meaning is an error instead of a report
  --report       Print every change made to fit the provider to stderr
  --pretty       Indent the JSON
  -h, --help     Print this help

Only JSON is printed on stdout. Bad input exits with status 2 and a message naming the file
and the line and column or JSON pointer; a tool the provider refuses exits with status 1.
";

pub(crate) const CHECK_HELP: &str = "\
Show, per provider, what rendering the tools would change or refuse

Usage: tooldef check [--provider P]... [--strict] PATH...

For each provider (by default all of them), prints every change that rendering would make to
fit the provider (lossy ones marked) and every tool the provider would refuse.

Options:
  --provider P   Check this provider (repeatable): openai-chat, openai-responses, anthropic,
                 gemini, gemini-openapi, ollama, mcp or bedrock
  --strict       Check strict mode and the strict policy (lossy changes are refusals)
  -h, --help     Print this help

Exit status: 0 nothing refused, 1 a provider would refuse something, 2 bad usage or input.
";

pub(crate) const IMPORT_HELP: &str = "\
Turn a provider's tool list into spec files, one per tool, named by the tool

Usage: tooldef import --from mcp|openai|anthropic|gemini FILE [--out DIR] [--force]
       tooldef import --from mcp-server [--out DIR] [--force] -- CMD [ARG]...

Accepted input:
  mcp        a `tools/list` result ({\"tools\": [...]}), the JSON-RPC response holding it, or
             an array of tools
  openai     a `tools` array in the Chat Completions or the Responses shape (or {\"tools\": [...]})
  anthropic  a `tools` array (or {\"tools\": [...]}); server tools are skipped with a warning
  gemini     a `functionDeclarations` array, {\"functionDeclarations\": [...]}, or a `tools`
             array or wrapper of such objects; `parameters` (OpenAPI subset) and
             `parametersJsonSchema` are both read
  mcp-server a live MCP server: CMD is started with its stdin and stdout as the MCP stdio
             transport, its tools are listed (every page) and written; nothing is written if
             one of them cannot be imported

Options:
  --from F      The input's provider format
  --out DIR     Where to write the spec files (default: the current directory)
  --force       Overwrite existing spec files
  -h, --help    Print this help

The paths written are printed on stdout, one a line; notes (keywords dropped) on stderr.
";

/// A usage error: what is wrong, and the help text of the command it concerns.
#[derive(Debug, PartialEq)]
pub(crate) struct UsageError {
    pub(crate) message: String,
    pub(crate) usage: &'static str,
}

fn usage(message: impl Into<String>, usage: &'static str) -> UsageError {
    UsageError { message: message.into(), usage }
}

/// The usage line of a help text (its first `Usage:` line).
pub(crate) fn usage_line(help: &str) -> &str {
    help.lines().find(|l| l.starts_with("Usage:")).unwrap_or("Usage: tooldef --help")
}

/// One argument, split into a long option (with an inline `=value`) or a positional.
enum Arg {
    Flag { name: String, value: Option<String> },
    Positional(OsString),
}

/// Iterates arguments; after `--`, everything is positional.
struct Args {
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
        if text.starts_with('-') && text.len() > 1 {
            return Some(Arg::Flag { name: text.into(), value: None });
        }
        Some(Arg::Positional(raw))
    }

    /// The value of an option: inline (`--out=dir`) or the next argument.
    fn value(
        &mut self,
        name: &str,
        inline: Option<String>,
        help: &'static str,
    ) -> Result<String, UsageError> {
        if let Some(v) = inline {
            return Ok(v);
        }
        match self.rest.next() {
            Some(v) => v
                .into_string()
                .map_err(|_| usage(format!("the value of `{name}` is not valid UTF-8"), help)),
            None => Err(usage(format!("`{name}` needs a value"), help)),
        }
    }
}

fn no_value(name: &str, value: Option<String>, help: &'static str) -> Result<(), UsageError> {
    match value {
        None => Ok(()),
        Some(_) => Err(usage(format!("`{name}` takes no value"), help)),
    }
}

fn unknown(name: &str, known: &[&str], help: &'static str) -> UsageError {
    let close = known.iter().find(|k| edit_distance(name, k) <= 2);
    let message = match close {
        Some(k) => format!("unknown option `{name}`; did you mean `{k}`?"),
        None => format!("unknown option `{name}`"),
    };
    usage(message, help)
}

/// Levenshtein distance, for "did you mean" hints on short option names.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

fn provider(value: &str, help: &'static str) -> Result<Provider, UsageError> {
    Provider::parse(value).ok_or_else(|| {
        let names: Vec<&str> = Provider::ALL.iter().map(|p| p.name()).collect();
        usage(format!("unknown provider `{value}`; expected one of {}", names.join(", ")), help)
    })
}

/// Parses the arguments after the program name.
pub(crate) fn parse(argv: Vec<OsString>) -> Result<Command, UsageError> {
    let mut args = Args { rest: argv.into_iter(), positional_only: false };
    let command = match args.next_arg() {
        None => return Err(usage("no command given", MAIN_HELP)),
        Some(Arg::Flag { name, value }) => match name.as_str() {
            "--help" => {
                return no_value(&name, value, MAIN_HELP).map(|()| Command::Help(MAIN_HELP));
            }
            "--version" | "-V" => {
                return no_value(&name, value, MAIN_HELP).map(|()| Command::Version);
            }
            _ => return Err(unknown(&name, &["--help", "--version"], MAIN_HELP)),
        },
        Some(Arg::Positional(c)) => c.to_string_lossy().into_owned(),
    };
    match command.as_str() {
        "render" => parse_render(&mut args),
        "check" => parse_check(&mut args),
        "import" => parse_import(&mut args),
        "serve" => parse_serve(&mut args),
        "help" => match args.next_arg() {
            None => Ok(Command::Help(MAIN_HELP)),
            Some(Arg::Positional(c)) => match c.to_str() {
                Some("render") => Ok(Command::Help(RENDER_HELP)),
                Some("check") => Ok(Command::Help(CHECK_HELP)),
                Some("import") => Ok(Command::Help(IMPORT_HELP)),
                Some("serve") => Ok(Command::Help(crate::serve::SERVE_HELP)),
                _ => Err(usage(format!("no command `{}`", c.to_string_lossy()), MAIN_HELP)),
            },
            Some(Arg::Flag { name, .. }) => Err(unknown(&name, &[], MAIN_HELP)),
        },
        other => {
            let close = ["render", "check", "import", "serve", "help"]
                .into_iter()
                .find(|k| edit_distance(other, k) <= 2);
            let message = match close {
                Some(k) => format!("no command `{other}`; did you mean `{k}`?"),
                None => format!("no command `{other}`; expected render, check, import or serve"),
            };
            Err(usage(message, MAIN_HELP))
        }
    }
}

fn parse_render(args: &mut Args) -> Result<Command, UsageError> {
    const H: &str = RENDER_HELP;
    let (mut provider_arg, mut strict, mut report, mut pretty) = (None, false, false, false);
    let mut paths = Vec::new();
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Positional(p) => paths.push(PathBuf::from(p)),
            Arg::Flag { name, value } => match name.as_str() {
                "--help" => return Ok(Command::Help(H)),
                "--provider" => {
                    let v = args.value(&name, value, H)?;
                    if provider_arg.is_some() {
                        return Err(usage("`--provider` is given twice; render takes one", H));
                    }
                    provider_arg = Some(provider(&v, H)?);
                }
                "--strict" => {
                    no_value(&name, value, H)?;
                    strict = true;
                }
                "--report" => {
                    no_value(&name, value, H)?;
                    report = true;
                }
                "--pretty" => {
                    no_value(&name, value, H)?;
                    pretty = true;
                }
                _ => {
                    return Err(unknown(
                        &name,
                        &["--provider", "--strict", "--report", "--pretty", "--help"],
                        H,
                    ));
                }
            },
        }
    }
    let provider = provider_arg.ok_or_else(|| usage("`--provider` is required", H))?;
    if paths.is_empty() {
        return Err(usage("no PATH given", H));
    }
    Ok(Command::Render(RenderArgs { provider, strict, report, pretty, paths }))
}

fn parse_check(args: &mut Args) -> Result<Command, UsageError> {
    const H: &str = CHECK_HELP;
    let (mut providers, mut strict, mut paths) = (Vec::new(), false, Vec::new());
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Positional(p) => paths.push(PathBuf::from(p)),
            Arg::Flag { name, value } => match name.as_str() {
                "--help" => return Ok(Command::Help(H)),
                "--provider" => {
                    let p = provider(&args.value(&name, value, H)?, H)?;
                    if !providers.contains(&p) {
                        providers.push(p);
                    }
                }
                "--strict" => {
                    no_value(&name, value, H)?;
                    strict = true;
                }
                _ => return Err(unknown(&name, &["--provider", "--strict", "--help"], H)),
            },
        }
    }
    if providers.is_empty() {
        providers = Provider::ALL.to_vec();
    }
    if paths.is_empty() {
        return Err(usage("no PATH given", H));
    }
    Ok(Command::Check(CheckArgs { providers, strict, paths }))
}

fn parse_import(args: &mut Args) -> Result<Command, UsageError> {
    const H: &str = IMPORT_HELP;
    let (mut from, mut out, mut force, mut files) = (None, None, false, Vec::new());
    let mut server = false;
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Positional(p) => files.push(PathBuf::from(p)),
            Arg::Flag { name, value } => match name.as_str() {
                "--help" => return Ok(Command::Help(H)),
                "--from" => {
                    let v = args.value(&name, value, H)?;
                    server = v == "mcp-server";
                    if server {
                        continue;
                    }
                    from = Some(ImportFormat::parse(&v).ok_or_else(|| {
                        usage(
                            format!(
                                "unknown format `{v}`; expected one of mcp, openai, anthropic, gemini, mcp-server"
                            ),
                            H,
                        )
                    })?);
                }
                "--out" => out = Some(PathBuf::from(args.value(&name, value, H)?)),
                "--force" => {
                    no_value(&name, value, H)?;
                    force = true;
                }
                _ => return Err(unknown(&name, &["--from", "--out", "--force", "--help"], H)),
            },
        }
    }
    if server {
        if files.is_empty() {
            return Err(usage("no server command given after `--`", H));
        }
        let command = files.into_iter().map(PathBuf::into_os_string).collect();
        let out = out.unwrap_or_else(|| ".".into());
        return Ok(Command::ImportServer(crate::mcp_import::McpImportArgs { command, out, force }));
    }
    let from = from.ok_or_else(|| usage("`--from` is required", H))?;
    let file = match files.len() {
        1 => files.remove(0),
        0 => return Err(usage("no FILE given", H)),
        _ => return Err(usage("import reads one FILE", H)),
    };
    Ok(Command::Import(ImportArgs { from, file, out: out.unwrap_or_else(|| ".".into()), force }))
}

fn parse_serve(args: &mut Args) -> Result<Command, UsageError> {
    const H: &str = crate::serve::SERVE_HELP;
    let mut paths = Vec::new();
    while let Some(arg) = args.next_arg() {
        match arg {
            Arg::Positional(p) => paths.push(PathBuf::from(p)),
            Arg::Flag { name, .. } if name == "--help" => return Ok(Command::Help(H)),
            Arg::Flag { name, .. } => return Err(unknown(&name, &["--help"], H)),
        }
    }
    if paths.is_empty() {
        return Err(usage("no DIR given", H));
    }
    Ok(Command::Serve(crate::serve::ServeArgs { paths }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(args: &[&str]) -> Result<Command, UsageError> {
        parse(args.iter().map(OsString::from).collect())
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
    fn usage_errors_name_the_argument() {
        let e = parse_str(&["render", "--provider", "openai", "x"]).unwrap_err();
        assert!(e.message.starts_with("unknown provider `openai`; expected one of openai-chat"));
        let e = parse_str(&["render", "--provder", "mcp", "x"]).unwrap_err();
        assert_eq!(e.message, "unknown option `--provder`; did you mean `--provider`?");
        let e = parse_str(&["render", "x"]).unwrap_err();
        assert_eq!(e.message, "`--provider` is required");
        let e = parse_str(&["rendr"]).unwrap_err();
        assert_eq!(e.message, "no command `rendr`; did you mean `render`?");
        let e = parse_str(&["import", "--from", "mcp"]).unwrap_err();
        assert_eq!(e.message, "no FILE given");
        let e = parse_str(&["render", "--pretty=yes", "--provider", "mcp", "x"]).unwrap_err();
        assert_eq!(e.message, "`--pretty` takes no value");
    }

    #[test]
    fn import_defaults_to_the_current_directory() {
        let Ok(Command::Import(i)) = parse_str(&["import", "--from", "gemini", "f.json"]) else {
            panic!("expected import")
        };
        assert_eq!((i.from, i.out, i.force), (ImportFormat::Gemini, PathBuf::from("."), false));
    }
}
