//! The `tooldef` command: render spec files to a provider's wire JSON, plan one request's
//! tools, check what each provider would change or refuse, import provider tool lists as spec
//! files, and serve tool directories over MCP. `tooldef --help` lists the verbs; `args.rs` holds the one table they come from.
//!
//! `-` as a PATH or FILE reads stdin. Exit status: 0 success, 1 a provider refuses a tool, 2 bad
//! usage or bad input. Every bad file and every refused tool is named (one bad tool never hides
//! the others); `--keep-going` still writes the good ones, and the status still says what failed.

mod args;
mod check;
mod import;
mod import_run;
mod load;
mod mcp_import;
mod out_dir;
mod plan;
mod providers;
mod render;
mod serve;

use std::io::{self, Write};
use std::process::ExitCode;

use crate::args::{Command, UsageError};

/// How a command failed; each maps to an exit status.
pub(crate) enum Failure {
    /// Bad arguments (status 2).
    Usage(UsageError),
    /// Bad input: a file that cannot be read or is invalid, or a tool too large or too deeply
    /// nested to render within the limits (status 2); one problem a line, to print.
    Input(String),
    /// A provider refuses a tool (status 1), to print.
    Refused(String),
    /// Failed with this status, every problem already printed on stderr.
    Reported(Status),
    /// stdout was closed (e.g. piped into `head`): stop quietly.
    Closed,
}

/// The exit status of a failure whose problems were printed as they were found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// A provider refuses a tool (1).
    Refused,
    /// Bad input (2).
    BadInput,
}

impl Status {
    fn code(self) -> ExitCode {
        match self {
            Status::Refused => ExitCode::from(1),
            Status::BadInput => ExitCode::from(2),
        }
    }
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
            Status::BadInput.code()
        }
        Err(Failure::Input(message)) => {
            for line in message.lines() {
                let _ = writeln!(err, "error: {line}");
            }
            Status::BadInput.code()
        }
        Err(Failure::Refused(message)) => {
            let _ = writeln!(err, "error: {message}");
            Status::Refused.code()
        }
        Err(Failure::Reported(status)) => status.code(),
    }
}

fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Help(text) => out(text.as_bytes()),
        Command::Version => out(format!("tooldef {}\n", env!("CARGO_PKG_VERSION")).as_bytes()),
        Command::Render(a) => render::run(a),
        Command::Plan(a) => plan::run(a),
        Command::RenderPlan(a, pretty) => plan::run_render(a, pretty),
        Command::Check(a) => check::run(a),
        Command::Import(a) => import_run::run(a),
        Command::ImportServer(a) => import_run::run_server(a),
        Command::Serve(a) => serve::serve(a).map_err(Failure::Input),
    }
}

/// Writes to stdout; a closed pipe ends the command quietly.
pub(crate) fn out(bytes: &[u8]) -> Result<(), Failure> {
    let mut stdout = io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(Failure::Closed),
        Err(e) => Err(Failure::Input(format!("cannot write to stdout: {e}"))),
    }
}

/// Writes one line to stderr (warnings, notes, reports).
pub(crate) fn warn(line: impl std::fmt::Display) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}
