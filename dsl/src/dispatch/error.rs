//! [`DispatchError`]: every way a call can fail, each with the text the model reads.

use std::fmt;

use crate::checks::ArgErrors;

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
    /// The tool's result could not be turned into JSON.
    #[error("{tool} produced a result that cannot be represented as JSON: {message}")]
    Output {
        /// The tool.
        tool: String,
        /// What serde said.
        message: String,
    },
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
            | DispatchError::Output { tool, .. } => tool,
        }
    }

    /// The error result answering `call`.
    pub fn to_result(&self, call: &crate::ToolCall) -> crate::ToolResult {
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
