//! [`OverrideError`]: why a patch could not be applied to a tool.

use std::fmt;

use crate::descriptor::NameError;
use crate::descriptor_rules::DescriptorError;

/// Why a patch could not be applied to a tool: the tool ([`tool`](OverrideError::tool)) and
/// what went wrong ([`kind`](OverrideError::kind)).
///
/// Its `Display` names the tool and the problem. A cause that is an error of its own (a
/// [`NameError`], a [`DescriptorError`]) is not repeated in that text: it is the error's
/// [`source`](std::error::Error::source), so a report that walks the chain prints it once.
///
/// ```
/// use tooldef::{Constraint, Override, OverrideErrorKind, ToolDescriptor};
///
/// let tool = ToolDescriptor::new("search");
/// let err = Override::constrain("limit", Constraint::Required).apply(&tool).unwrap_err();
/// assert_eq!(err.tool(), "search");
/// assert!(matches!(err.kind(), OverrideErrorKind::UnknownParam { param } if param == "limit"));
/// assert_eq!(err.to_string(), "override of tool `search`: it has no parameter `limit`");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct OverrideError {
    tool: String,
    kind: OverrideErrorKind,
}

/// What went wrong in an [`OverrideError`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum OverrideErrorKind {
    /// The patch names a parameter the tool does not have.
    UnknownParam {
        /// The parameter.
        param: String,
    },
    /// Narrowing an enum listed values the parameter does not accept (that would widen it).
    WidensEnum {
        /// The parameter.
        param: String,
        /// The values that are not among the parameter's values.
        values: Vec<String>,
    },
    /// A range that lets through values the parameter does not accept (that would widen it).
    WidensRange {
        /// The parameter.
        param: String,
        /// The bound the new range crosses, as a phrase (`at least 1`, `less than 10`).
        limit: String,
    },
    /// The patched schema lets the model leave out a parameter the tool requires, and the patch
    /// supplies no value for it (no default, not hidden).
    DropsRequired {
        /// The parameter (its registered name).
        param: String,
    },
    /// An added parameter takes the registered name of a hidden or renamed one, so the two
    /// would reach the executor as one.
    ParamTaken {
        /// The parameter.
        param: String,
    },
    /// A constraint that does not apply to the parameter's kind.
    NotApplicable {
        /// The parameter (or `output` for the output schema).
        param: String,
        /// The constraint.
        what: &'static str,
        /// The schema kind of the parameter.
        kind: &'static str,
    },
    /// A new name or namespace breaks the name rule; the [`NameError`] is the error's source.
    Name {
        /// What is wrong with the new name.
        source: NameError,
    },
    /// The value of a hidden parameter is not one the parameter accepts.
    HiddenValue {
        /// The parameter.
        param: String,
        /// Why the value is rejected.
        message: String,
    },
    /// A replacement input schema could not be imported.
    InputSchema {
        /// What the importer rejected (with its JSON pointer).
        message: String,
    },
    /// A closure patch reported an error.
    Custom {
        /// The closure's message.
        message: String,
    },
    /// The patched descriptor breaks a rule of [`crate::descriptor_rules`]; the [`DescriptorError`] is
    /// the error's source.
    Invalid {
        /// The broken rule.
        source: DescriptorError,
    },
    /// A rename onto a name another tool already has (reported by the registry).
    NameTaken {
        /// The name asked for.
        name: String,
    },
}

impl OverrideError {
    /// An error about the tool registered as `tool`.
    pub fn new(tool: impl Into<String>, kind: OverrideErrorKind) -> Self {
        OverrideError { tool: tool.into(), kind }
    }

    /// The (registered) name of the tool the error is about.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// What went wrong.
    pub fn kind(&self) -> &OverrideErrorKind {
        &self.kind
    }

    /// What went wrong, by value.
    pub fn into_kind(self) -> OverrideErrorKind {
        self.kind
    }
}

impl fmt::Display for OverrideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tool = &self.tool;
        write!(f, "override of tool `{tool}`: ")?;
        match &self.kind {
            OverrideErrorKind::UnknownParam { param } => {
                write!(f, "it has no parameter `{param}`")
            }
            OverrideErrorKind::WidensEnum { param, values } => write!(
                f,
                "parameter `{param}` does not accept {}; an override may narrow an enum, never widen it",
                quote_list(values)
            ),
            OverrideErrorKind::WidensRange { param, limit } => write!(
                f,
                "parameter `{param}` must be {limit}; an override may narrow a range, never widen it"
            ),
            OverrideErrorKind::DropsRequired { param } => write!(
                f,
                "the tool requires parameter `{param}`, but the patched schema lets the model leave it out; keep it required, give it a default or hide it with a value"
            ),
            OverrideErrorKind::ParamTaken { param } => write!(
                f,
                "cannot add parameter `{param}`: the tool already takes it, hidden or under another name"
            ),
            OverrideErrorKind::NotApplicable { param, what, kind } => {
                write!(f, "{what} does not apply to parameter `{param}` of type {kind}")
            }
            OverrideErrorKind::Name { .. } => f.write_str("the new name breaks the name rule"),
            OverrideErrorKind::HiddenValue { param, message } => {
                write!(f, "the value hidden in parameter `{param}` is invalid: {message}")
            }
            OverrideErrorKind::InputSchema { message } => {
                write!(f, "the replacement input schema is invalid: {message}")
            }
            OverrideErrorKind::Custom { message } => f.write_str(message),
            OverrideErrorKind::Invalid { .. } => f.write_str("the patched descriptor is invalid"),
            OverrideErrorKind::NameTaken { name } => {
                write!(f, "cannot rename it to `{name}`, another tool has that name")
            }
        }
    }
}

impl std::error::Error for OverrideError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            OverrideErrorKind::Name { source } => Some(source),
            OverrideErrorKind::Invalid { source } => Some(source),
            _ => None,
        }
    }
}

pub(super) fn quote_list(values: &[String]) -> String {
    values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ")
}
