//! [`DispatchError`]: every way a call can fail, each with the text the model reads.

use std::fmt;

use crate::arg_checks::ArgErrors;

/// Why a call produced an error result: the tool ([`tool`](DispatchError::tool)) and what went
/// wrong ([`kind`](DispatchError::kind)).
///
/// The model reads [`model_text`](DispatchError::model_text) (what
/// [`to_result`](DispatchError::to_result) answers with): everything it needs to fix the call,
/// such as each invalid argument's JSON pointer and what it must be. `Display` is the same text
/// except that a cause which is an error of its own (the [`ArgErrors`] of invalid arguments)
/// is left to [`source`](std::error::Error::source), so a report that walks the chain prints
/// it once.
///
/// ```
/// use tooldef::dispatch::{DispatchError, DispatchErrorKind};
/// use tooldef::{ArgError, ArgErrors, JsonPointer};
///
/// let at = JsonPointer::from_segments(["b"]);
/// let errors = ArgErrors::from(ArgError::new(at, "must be at least 1; got 0"));
/// let err = DispatchError::new("divide", DispatchErrorKind::InvalidArguments { errors });
/// assert_eq!(err.tool(), "divide");
/// assert_eq!(err.model_text(), "invalid arguments for divide: /b must be at least 1; got 0");
/// assert_eq!(err.to_string(), "invalid arguments for divide");
/// let source = std::error::Error::source(&err).unwrap();
/// assert_eq!(source.to_string(), "/b must be at least 1; got 0");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct DispatchError {
    tool: String,
    kind: DispatchErrorKind,
}

/// What went wrong in a [`DispatchError`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DispatchErrorKind {
    /// No tool has the requested name (the error's tool is the name the model sent).
    UnknownTool {
        /// The names of the tools that exist, in the toolbox's order.
        available: Vec<String>,
        /// A close match, when there is one.
        suggestion: Option<String>,
    },
    /// The arguments are not JSON.
    MalformedJson {
        /// What the parser said, with line and column.
        message: String,
    },
    /// The arguments are JSON but do not fit the parameters; the [`ArgErrors`] are the error's
    /// source.
    InvalidArguments {
        /// Every problem found, each with its JSON pointer.
        errors: ArgErrors,
    },
    /// The tool ran and returned an error; the message is the tool's own.
    Failed {
        /// The tool's message.
        message: String,
    },
    /// The tool panicked.
    Panicked {
        /// The panic message (logged, not shown to the model).
        message: String,
    },
    /// The tool did not finish within the call's timeout and was stopped.
    TimedOut {
        /// The timeout.
        after: std::time::Duration,
    },
    /// The call was cancelled before the tool finished.
    Cancelled,
    /// The tool's result could not be turned into JSON.
    Output {
        /// What serde said.
        message: String,
    },
}

impl DispatchErrorKind {
    /// The [`Outcome`](crate::Outcome) of a result with this error: what
    /// [`to_result`](DispatchError::to_result) sets, and the `outcome` field of the
    /// `tooldef.dispatch` span.
    pub fn outcome(&self) -> crate::Outcome {
        use crate::Outcome;
        match self {
            DispatchErrorKind::UnknownTool { .. } => Outcome::UnknownTool,
            DispatchErrorKind::MalformedJson { .. } => Outcome::MalformedJson,
            DispatchErrorKind::InvalidArguments { .. } => Outcome::InvalidArguments,
            DispatchErrorKind::Failed { .. } => Outcome::ToolError,
            DispatchErrorKind::Panicked { .. } => Outcome::Panicked,
            DispatchErrorKind::TimedOut { .. } => Outcome::TimedOut,
            DispatchErrorKind::Cancelled => Outcome::Cancelled,
            DispatchErrorKind::Output { .. } => Outcome::InvalidOutput,
        }
    }

    /// A short stable name for the kind (`unknown_tool`, `malformed_json`,
    /// `invalid_arguments`, `failed`, `panicked`, `timed_out`, `cancelled`, `output`).
    pub fn name(&self) -> &'static str {
        match self {
            DispatchErrorKind::UnknownTool { .. } => "unknown_tool",
            DispatchErrorKind::MalformedJson { .. } => "malformed_json",
            DispatchErrorKind::InvalidArguments { .. } => "invalid_arguments",
            DispatchErrorKind::Failed { .. } => "failed",
            DispatchErrorKind::Panicked { .. } => "panicked",
            DispatchErrorKind::TimedOut { .. } => "timed_out",
            DispatchErrorKind::Cancelled => "cancelled",
            DispatchErrorKind::Output { .. } => "output",
        }
    }
}

/// A duration as people write it: `30s`, `1.5s`, `250ms`.
fn seconds(d: &std::time::Duration) -> String {
    if d.as_millis() < 1000 {
        format!("{}ms", d.as_millis())
    } else {
        let s = d.as_secs_f64();
        if s.fract() == 0.0 { format!("{s:.0}s") } else { format!("{s}s") }
    }
}

fn unknown_tool(name: &str, available: &[String], suggestion: Option<&str>) -> String {
    let mut out = format!("there is no tool named {}", crate::arg_checks::quote(name));
    if let Some(s) = suggestion {
        out.push_str(&format!(" (did you mean {}?)", crate::arg_checks::quote(s)));
    }
    if available.is_empty() {
        out.push_str("; no tools are available");
    } else {
        out.push_str(&format!("; the available tools are {}", available.join(", ")));
    }
    out
}

impl DispatchError {
    /// An error about the tool `tool` (for [`DispatchErrorKind::UnknownTool`], the name the
    /// model sent).
    pub fn new(tool: impl Into<String>, kind: DispatchErrorKind) -> Self {
        DispatchError { tool: tool.into(), kind }
    }

    /// The tool's name, or the unknown name the model sent.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// What went wrong.
    pub fn kind(&self) -> &DispatchErrorKind {
        &self.kind
    }

    /// What went wrong, by value.
    pub fn into_kind(self) -> DispatchErrorKind {
        self.kind
    }

    /// The text the model reads: `Display` with the cause written in, so that invalid
    /// arguments name each JSON pointer and what it must be (one problem on the same line,
    /// several as a list).
    pub fn model_text(&self) -> String {
        match &self.kind {
            DispatchErrorKind::InvalidArguments { errors } => match errors.0.as_slice() {
                [one] => format!("{self}: {one}"),
                many => {
                    let mut out = format!("{self}:");
                    for e in many {
                        out.push_str("\n- ");
                        out.push_str(&e.to_string());
                    }
                    out
                }
            },
            _ => self.to_string(),
        }
    }

    /// The error result answering `call`, with [`model_text`](DispatchError::model_text) as
    /// its text and the kind's [`outcome`](DispatchErrorKind::outcome).
    pub fn to_result(&self, call: &crate::ToolCall) -> crate::ToolResult {
        crate::ToolResult::error_with(call, self.kind.outcome(), self.model_text())
    }
}

impl fmt::Display for DispatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tool = &self.tool;
        match &self.kind {
            DispatchErrorKind::UnknownTool { available, suggestion } => {
                f.write_str(&unknown_tool(tool, available, suggestion.as_deref()))
            }
            DispatchErrorKind::MalformedJson { message } => {
                write!(f, "the arguments of {tool} are not valid JSON: {message}")
            }
            DispatchErrorKind::InvalidArguments { .. } => {
                write!(f, "invalid arguments for {tool}")
            }
            DispatchErrorKind::Failed { message } => f.write_str(message),
            DispatchErrorKind::Panicked { .. } => write!(
                f,
                "{tool} failed unexpectedly; this is a bug in the tool, not in the arguments"
            ),
            DispatchErrorKind::TimedOut { after } => {
                write!(f, "{tool} did not finish within {} and was stopped", seconds(after))
            }
            DispatchErrorKind::Cancelled => {
                write!(f, "the call to {tool} was cancelled before it finished")
            }
            DispatchErrorKind::Output { message } => {
                write!(f, "{tool} produced a result that cannot be represented as JSON: {message}")
            }
        }
    }
}

impl std::error::Error for DispatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            DispatchErrorKind::InvalidArguments { errors } => Some(errors),
            _ => None,
        }
    }
}

/// The closest of `names` to `wanted`, if close enough to be a likely typo: the shared rule of
/// [`crate::suggest::closest`], or a name whose namespace-less part (after `__`) is `wanted`.
pub(crate) fn closest<'a>(
    wanted: &str,
    names: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let names: Vec<&'a str> = names.into_iter().collect();
    let local = |name: &'a str| name.split_once("__").map_or(name, |(_, l)| l);
    names
        .iter()
        .copied()
        .find(|name| local(name).eq_ignore_ascii_case(wanted))
        .or_else(|| crate::suggest::closest(wanted, names.iter().copied()))
}

/// serde's message without the ` at line 1 column 20` suffix, which means nothing to the model
/// once the arguments are known to be well-formed JSON.
pub(crate) fn without_position(err: &serde_json::Error) -> String {
    let text = err.to_string();
    match text.rfind(" at line ") {
        Some(at) if err.line() > 0 => text[..at].to_owned(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested_and_far_ones_not() {
        let names = ["get_weather", "search", "a2a__forecast"];
        assert_eq!(closest("get_wether", names), Some("get_weather"));
        assert_eq!(closest("GET_WEATHER", names), Some("get_weather"));
        assert_eq!(closest("forecast", names), Some("a2a__forecast"));
        assert_eq!(closest("delete_everything", names), None);
    }
}
