//! The shape of the table in `args.rs`: a verb, its options and operands, and the help, usage
//! lines and option lists laid out from them.

use std::ffi::OsString;

use super::Command;
use super::parse::{Args, UsageError};

/// The last column of a help line made from a list (the provider names), which is wrapped.
const WRAP: usize = 92;

/// One verb: its help, its options and its operands.
pub(crate) struct Verb {
    /// The verb (`render`).
    pub(crate) name: &'static str,
    /// One line for the main help's list of commands.
    pub(crate) summary: &'static str,
    /// The first line of its help.
    pub(crate) about: &'static str,
    /// Its help between the usage line and `Options:` (ends with a blank line).
    pub(crate) intro: Text,
    /// Its help after the options (empty for none).
    pub(crate) outro: &'static str,
    /// The column where the options' help starts.
    pub(crate) column: usize,
    /// What comes besides options (`PATH...`), and where the usage line shows it.
    pub(crate) operand: Operand,
    /// Its options, and how they are read into a [`Command`].
    pub(crate) options: &'static dyn Options,
}

/// A help text: written, or made from the table when it lists what the table holds.
pub(crate) enum Text {
    /// As written.
    Written(&'static str),
    /// Made when the help is printed.
    Made(fn() -> String),
}

impl Text {
    fn text(&self) -> String {
        match self {
            Text::Written(text) => (*text).to_owned(),
            Text::Made(make) => make(),
        }
    }
}

/// A verb's operands: how the usage line names them, and after how many of the options
/// (`None`: after all of them).
pub(crate) struct Operand {
    pub(crate) usage: &'static str,
    pub(crate) after: Option<usize>,
}

/// An option as help, usage lines and "did you mean" see it.
pub(crate) struct Flag {
    /// `--provider`.
    pub(crate) name: &'static str,
    /// The one-letter spelling (`-h`), if it has one.
    pub(crate) short: Option<&'static str>,
    /// What follows it, `None` for a switch.
    pub(crate) value: Option<Value>,
    /// Its help under `Options:`, one line per line (the layout indents them).
    pub(crate) help: &'static str,
    /// A list made from the table that follows the help (the provider names); the whole is
    /// wrapped.
    pub(crate) listing: Option<fn() -> String>,
}

/// The value an option takes: its placeholder in help (`P`) and how often it is given.
pub(crate) struct Value {
    pub(crate) name: &'static str,
    pub(crate) times: Times,
}

/// How often a value option is given, which the usage line shows.
pub(crate) enum Times {
    /// Once at least (`--provider P`): `one_of` lists the values in the message when it is
    /// missing; `usage`, when set, lists them in the usage line in place of the placeholder.
    Needed { one_of: fn() -> String, usage: Option<fn() -> String> },
    /// At most once, or the last one counts (`[--out DIR]`).
    Optional,
    /// Any number of times (`[--provider P]...`).
    Repeated,
}

impl Flag {
    /// How help shows it: `--provider P`, `-h, --help`.
    fn label(&self) -> String {
        let mut label = match self.short {
            Some(short) => format!("{short}, {}", self.name),
            None => self.name.to_owned(),
        };
        if let Some(value) = &self.value {
            label.push(' ');
            label.push_str(value.name);
        }
        label
    }

    /// How a usage line shows it: `[--strict]`, `--provider P`, `[--provider P]...`.
    pub(crate) fn usage(&self) -> String {
        let Some(value) = &self.value else { return format!("[{}]", self.name) };
        match &value.times {
            Times::Needed { usage: Some(usage), .. } => format!("{} {}", self.name, usage()),
            Times::Needed { usage: None, .. } => format!("{} {}", self.name, value.name),
            Times::Optional => format!("[{} {}]", self.name, value.name),
            Times::Repeated => format!("[{} {}]...", self.name, value.name),
        }
    }

    /// The message when a needed option is missing.
    pub(crate) fn required(&self) -> String {
        let one_of = match self.value.as_ref().map(|v| &v.times) {
            Some(Times::Needed { one_of, .. }) => format!(": one of {}", one_of()),
            _ => String::new(),
        };
        format!("`{}` is required{one_of}", self.name)
    }

    /// Its help lines, the listing wrapped in after the written help.
    fn help_text(&self, column: usize) -> String {
        match self.listing {
            None => self.help.to_owned(),
            Some(listing) if self.help.is_empty() => wrap(&listing(), column),
            Some(listing) => wrap(&format!("{} {}", self.help, listing()), column),
        }
    }
}

/// The options of a verb and how they are read.
pub(crate) trait Options: Sync {
    /// The options, in the order help and the usage line list them (without `--help`).
    fn flags(&self) -> Vec<&Flag>;

    /// Whether `--help` is listed among the options (the `help` verb's own help lists none).
    fn lists_help(&self) -> bool {
        true
    }

    /// Reads the arguments after the verb.
    fn parse(&self, args: &mut Args, verb: &'static Verb) -> Result<Command, UsageError>;
}

/// A verb's options read into a draft `D` of its arguments, which `finish` turns into the
/// [`Command`] (or the message of what is missing).
pub(crate) struct Opts<D: 'static> {
    pub(crate) opts: &'static [Opt<D>],
    /// Takes one operand.
    pub(crate) operand: fn(&mut D, OsString) -> Result<(), String>,
    pub(crate) finish: fn(D) -> Result<Command, String>,
}

/// One option of a verb whose arguments are drafted in `D`.
pub(crate) struct Opt<D> {
    pub(crate) flag: Flag,
    pub(crate) set: Set<D>,
}

/// What an option does to the draft.
pub(crate) enum Set<D> {
    /// A switch turns this on.
    On(fn(&mut D) -> &mut bool),
    /// A value is read by this, given the option's name (a message when it is refused).
    To(fn(&mut D, &'static str, String) -> Result<(), String>),
}

impl<D> Opt<D> {
    /// A switch: `--strict`.
    pub(crate) const fn switch(
        name: &'static str,
        help: &'static str,
        on: fn(&mut D) -> &mut bool,
    ) -> Self {
        let flag = Flag { name, short: None, value: None, help, listing: None };
        Opt { flag, set: Set::On(on) }
    }

    /// An option with a value: `--out DIR`.
    pub(crate) const fn value(
        name: &'static str,
        value: Value,
        help: &'static str,
        to: fn(&mut D, &'static str, String) -> Result<(), String>,
    ) -> Self {
        let flag = Flag { name, short: None, value: Some(value), help, listing: None };
        Opt { flag, set: Set::To(to) }
    }

    /// The same, its help followed by `listing`.
    pub(crate) const fn listing(self, listing: fn() -> String) -> Self {
        let Opt { flag, set } = self;
        Opt { flag: Flag { listing: Some(listing), ..flag }, set }
    }
}

impl Value {
    /// A value given once at least.
    pub(crate) const fn needed(name: &'static str, one_of: fn() -> String) -> Self {
        Value { name, times: Times::Needed { one_of, usage: None } }
    }

    /// The same, its values listed in the usage line.
    pub(crate) const fn needed_listed(
        name: &'static str,
        one_of: fn() -> String,
        usage: fn() -> String,
    ) -> Self {
        Value { name, times: Times::Needed { one_of, usage: Some(usage) } }
    }

    /// A value given at most once (the last counts).
    pub(crate) const fn optional(name: &'static str) -> Self {
        Value { name, times: Times::Optional }
    }

    /// A value given any number of times.
    pub(crate) const fn repeated(name: &'static str) -> Self {
        Value { name, times: Times::Repeated }
    }
}

/// Every verb's `-h, --help`.
pub(crate) const HELP: Flag =
    Flag { name: "--help", short: Some("-h"), value: None, help: "Print this help", listing: None };

impl Verb {
    /// The long options it takes, as "did you mean" and its message list them.
    pub(crate) fn option_names(&self) -> Vec<&'static str> {
        let mut names: Vec<&str> = self.options.flags().iter().map(|f| f.name).collect();
        if self.options.lists_help() {
            names.push(HELP.name);
        }
        names
    }

    /// What the usage line shows after the verb (`--provider P [--strict] ... PATH...`).
    pub(crate) fn synopsis(&self) -> String {
        let mut parts: Vec<String> = self.options.flags().iter().map(|f| f.usage()).collect();
        let at = self.operand.after.unwrap_or(parts.len()).min(parts.len());
        parts.insert(at, self.operand.usage.to_owned());
        parts.join(" ")
    }

    /// `Usage: tooldef VERB ARGS`.
    pub(crate) fn usage_line(&self) -> String {
        format!("Usage: tooldef {} {}", self.name, self.synopsis())
    }

    /// The whole help text.
    pub(crate) fn help(&self) -> String {
        let mut details = self.intro.text();
        if self.options.lists_help() {
            details.push_str("Options:\n");
            let flags = self.options.flags();
            details.push_str(&options_help(flags.into_iter().chain([&HELP]), self.column));
            if !self.outro.is_empty() {
                details.push('\n');
                details.push_str(self.outro);
            }
        }
        format!("{}\n\n{}\n\n{details}", self.about, self.usage_line())
    }
}

/// The `Options:` lines of `flags`, their help starting at `column`.
pub(crate) fn options_help<'f>(flags: impl IntoIterator<Item = &'f Flag>, column: usize) -> String {
    let rows: Vec<(String, String)> =
        flags.into_iter().map(|f| (f.label(), f.help_text(column))).collect();
    lay_out(&rows, column)
}

/// Rows of a label and its help lines, each help line starting at `column`.
pub(crate) fn lay_out(rows: &[(String, String)], column: usize) -> String {
    let mut text = String::new();
    for (label, help) in rows {
        let mut lines = help.lines();
        let first = lines.next().unwrap_or_default();
        text.push_str(&format!("  {label:<width$}{first}\n", width = column - 2));
        for line in lines {
            text.push_str(&format!("{:column$}{line}\n", ""));
        }
    }
    text
}

/// `text` broken between words so that no line passes column [`WRAP`], the first line starting
/// at `column` (the others are indented to it by the layout).
pub(crate) fn wrap(text: &str, column: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && column + line.len() + 1 + word.len() > WRAP {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines.join("\n")
}

/// `a, b or c`.
pub(crate) fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
