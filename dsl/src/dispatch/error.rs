//! [`DispatchError`]: every way a call can fail, each with the text the model reads.

use std::fmt;

use crate::checks::ArgErrors;

thread_local! {
    /// The kind of the last error turned into a result on this thread: how the dispatch span
    /// learns why a call failed (the result itself only says that it did), since an executor
    /// builds its error result in the same poll that returns it.
    static LAST_KIND: std::cell::Cell<Option<&'static str>> = const { std::cell::Cell::new(None) };
}

/// Takes the kind [`DispatchError::to_result`] last recorded on this thread.
pub(crate) fn take_last_kind() -> Option<&'static str> {
    LAST_KIND.with(std::cell::Cell::take)
}

/// Why a call produced an error result. Its `Display` is the text the model reads.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DispatchError {
    /// No tool has the requested name.
    #[error("{}", unknown_tool(.name, .available, .suggestion.as_deref()))]
    UnknownTool {
        /// The name the model sent.
        name: String,
        /// The names of the tools that exist, in the toolbox's order.
        available: Vec<String>,
        /// A close match, when there is one.
        suggestion: Option<String>,
    },
    /// The arguments are not JSON.
    #[error("the arguments of {tool} are not valid JSON: {message}")]
    MalformedJson {
        /// The tool.
        tool: String,
        /// What the parser said, with line and column.
        message: String,
    },
    /// The arguments are JSON but do not fit the parameters.
    #[error("{}", InvalidDisplay(.tool, .errors))]
    InvalidArguments {
        /// The tool.
        tool: String,
        /// Every problem found, each with its JSON pointer.
        errors: ArgErrors,
    },
    /// The tool ran and returned an error; the message is the tool's own.
    #[error("{message}")]
    Failed {
        /// The tool.
        tool: String,
        /// The tool's message.
        message: String,
    },
    /// The tool panicked.
    #[error("{tool} failed unexpectedly; this is a bug in the tool, not in the arguments")]
    Panicked {
        /// The tool.
        tool: String,
        /// The panic message (logged, not shown to the model).
        message: String,
    },
    /// The tool did not finish within the call's timeout and was stopped.
    #[error("{tool} did not finish within {} and was stopped", seconds(.after))]
    TimedOut {
        /// The tool.
        tool: String,
        /// The timeout.
        after: std::time::Duration,
    },
    /// The call was cancelled before the tool finished.
    #[error("the call to {tool} was cancelled before it finished")]
    Cancelled {
        /// The tool.
        tool: String,
    },
    /// The tool's result could not be turned into JSON.
    #[error("{tool} produced a result that cannot be represented as JSON: {message}")]
    Output {
        /// The tool.
        tool: String,
        /// What serde said.
        message: String,
    },
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
    let mut out = format!("there is no tool named {}", crate::checks::quote(name));
    if let Some(s) = suggestion {
        out.push_str(&format!(" (did you mean {}?)", crate::checks::quote(s)));
    }
    if available.is_empty() {
        out.push_str("; no tools are available");
    } else {
        out.push_str(&format!("; the available tools are {}", available.join(", ")));
    }
    out
}

struct InvalidDisplay<'a>(&'a str, &'a ArgErrors);

impl fmt::Display for InvalidDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let InvalidDisplay(tool, errors) = self;
        match errors.0.as_slice() {
            [one] => write!(f, "invalid arguments for {tool}: {one}"),
            many => {
                write!(f, "invalid arguments for {tool}:")?;
                for e in many {
                    write!(f, "\n- {e}")?;
                }
                Ok(())
            }
        }
    }
}

impl DispatchError {
    /// The tool's name, or the unknown name the model sent.
    pub fn tool(&self) -> &str {
        match self {
            DispatchError::UnknownTool { name, .. } => name,
            DispatchError::MalformedJson { tool, .. }
            | DispatchError::InvalidArguments { tool, .. }
            | DispatchError::Failed { tool, .. }
            | DispatchError::Panicked { tool, .. }
            | DispatchError::TimedOut { tool, .. }
            | DispatchError::Cancelled { tool }
            | DispatchError::Output { tool, .. } => tool,
        }
    }

    /// A short stable name for what went wrong (`unknown_tool`, `malformed_json`,
    /// `invalid_arguments`, `failed`, `panicked`, `timed_out`, `cancelled`, `output`): the
    /// `error` field of the dispatch span.
    pub fn kind(&self) -> &'static str {
        match self {
            DispatchError::UnknownTool { .. } => "unknown_tool",
            DispatchError::MalformedJson { .. } => "malformed_json",
            DispatchError::InvalidArguments { .. } => "invalid_arguments",
            DispatchError::Failed { .. } => "failed",
            DispatchError::Panicked { .. } => "panicked",
            DispatchError::TimedOut { .. } => "timed_out",
            DispatchError::Cancelled { .. } => "cancelled",
            DispatchError::Output { .. } => "output",
        }
    }

    /// The error result answering `call`.
    pub fn to_result(&self, call: &crate::ToolCall) -> crate::ToolResult {
        LAST_KIND.with(|k| k.set(Some(self.kind())));
        crate::ToolResult::error(call, self.to_string())
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
