//! Reading `argv` against the table: options and operands, and the usage errors that name the
//! argument at fault (with a "did you mean" where one is close).

use std::ffi::OsString;

use tooldef::suggest::closest;

use super::Command;
use super::table::{HELP, Options, Opts, Set, Verb};
use super::{VERBS, usage_block};

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

/// A usage error about `verb` (`None`: about `tooldef` itself).
pub(crate) fn usage(message: impl Into<String>, verb: Option<&'static Verb>) -> UsageError {
    UsageError { message: message.into(), verb: verb.map(|v| v.name) }
}

/// The verb named `name`.
pub(crate) fn verb(name: &str) -> Option<&'static Verb> {
    VERBS.iter().find(|v| v.name == name)
}

/// `; did you mean `x`?` when `wanted` is close to one of `known`, else `otherwise`.
fn hint<'a>(wanted: &str, known: impl IntoIterator<Item = &'a str>, otherwise: &str) -> String {
    match closest(wanted, known) {
        Some(k) => format!("; did you mean `{k}`?"),
        None => otherwise.to_owned(),
    }
}

/// `unknown WHAT `value`` with "did you mean" one of `names`, or all of them.
pub(crate) fn unknown(what: &str, value: &str, names: &[&str]) -> String {
    let rest =
        hint(value, names.iter().copied(), &format!("; expected one of {}", names.join(", ")));
    format!("unknown {what} `{value}`{rest}")
}

/// `no command `x`` with "did you mean" one of the verbs, or all of them.
pub(crate) fn no_command(name: &str) -> UsageError {
    let names: Vec<&str> = VERBS.iter().map(|v| v.name).collect();
    let rest =
        hint(name, names.iter().copied(), &format!("; expected one of {}", names.join(", ")));
    usage(format!("no command `{name}`{rest}"), None)
}

/// One argument, split into an option (with an inline `=value`) or a positional.
pub(crate) enum Arg {
    Flag { name: String, value: Option<String> },
    Positional(OsString),
}

/// Iterates arguments; after `--`, everything is positional. `-` alone is positional (stdin).
pub(crate) struct Args {
    rest: std::vec::IntoIter<OsString>,
    positional_only: bool,
}

/// The PATH or FILE that means stdin.
pub(crate) const STDIN: &str = "-";

impl Args {
    pub(crate) fn new(argv: Vec<OsString>) -> Self {
        Args { rest: argv.into_iter(), positional_only: false }
    }

    pub(crate) fn next_arg(&mut self) -> Option<Arg> {
        let raw = self.rest.next()?;
        if self.positional_only {
            return Some(Arg::Positional(raw));
        }
        let Some(text) = raw.to_str() else { return Some(Arg::Positional(raw)) };
        if text == "--" {
            self.positional_only = true;
            return self.next_arg();
        }
        if Some(text) == HELP.short {
            return Some(Arg::Flag { name: HELP.name.into(), value: None });
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

/// Refuses an inline value given to a switch.
pub(crate) fn no_value(
    name: &str,
    value: Option<String>,
    verb: Option<&'static Verb>,
) -> Result<(), UsageError> {
    match value {
        None => Ok(()),
        Some(_) => Err(usage(format!("`{name}` takes no value"), verb)),
    }
}

/// An option without its leading dashes.
fn bare_name(option: &str) -> &str {
    option.trim_start_matches('-')
}

/// `unknown option`, with "did you mean" one of `known` or the list of them.
pub(crate) fn unknown_option(
    name: &str,
    known: &[&str],
    verb: Option<&'static Verb>,
) -> UsageError {
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

/// `a, b or c` quoted (or `no options`).
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

impl<D: Default + 'static> Options for Opts<D> {
    fn flags(&self) -> Vec<&super::table::Flag> {
        self.opts.iter().map(|o| &o.flag).collect()
    }

    fn parse(&self, args: &mut Args, verb: &'static Verb) -> Result<Command, UsageError> {
        let refused = |message: String| usage(message, Some(verb));
        let mut draft = D::default();
        while let Some(arg) = args.next_arg() {
            let (name, value) = match arg {
                Arg::Positional(p) => {
                    (self.operand)(&mut draft, p).map_err(refused)?;
                    continue;
                }
                Arg::Flag { name, value } => (name, value),
            };
            if name == HELP.name {
                return Ok(Command::Help(verb.help()));
            }
            let Some(opt) = self.opts.iter().find(|o| o.flag.name == name) else {
                return Err(unknown_option(&name, &verb.option_names(), Some(verb)));
            };
            match opt.set {
                Set::On(field) => {
                    no_value(&name, value, Some(verb))?;
                    *field(&mut draft) = true;
                }
                Set::To(set) => {
                    let value = args.value(&name, value, verb)?;
                    set(&mut draft, opt.flag.name, value).map_err(refused)?;
                }
            }
        }
        (self.finish)(draft).map_err(refused)
    }
}
