//! [`OverrideError`]: why a patch could not be applied to a tool.

use crate::descriptor::NameError;
use crate::validate::DescriptorError;

/// Why a patch could not be applied to a tool. Every variant names the tool.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OverrideError {
    /// The patch names a parameter the tool does not have.
    #[error("override of tool `{tool}`: it has no parameter `{param}`")]
    UnknownParam {
        /// The tool.
        tool: String,
        /// The parameter.
        param: String,
    },
    /// Narrowing an enum listed values the parameter does not accept (that would widen it).
    #[error(
        "override of tool `{tool}`: parameter `{param}` does not accept {}; an override may narrow an enum, never widen it",
        quote_list(.values)
    )]
    WidensEnum {
        /// The tool.
        tool: String,
        /// The parameter.
        param: String,
        /// The values that are not among the parameter's values.
        values: Vec<String>,
    },
    /// A range that lets through values the parameter does not accept (that would widen it).
    #[error(
        "override of tool `{tool}`: parameter `{param}` must be {limit}; an override may narrow a range, never widen it"
    )]
    WidensRange {
        /// The tool.
        tool: String,
        /// The parameter.
        param: String,
        /// The bound the new range crosses, as a phrase (`at least 1`, `less than 10`).
        limit: String,
    },
    /// The patched schema lets the model leave out a parameter the tool requires, and the patch
    /// supplies no value for it (no default, not hidden).
    #[error(
        "override of tool `{tool}`: the tool requires parameter `{param}`, but the patched schema lets the model leave it out; keep it required, give it a default or hide it with a value"
    )]
    DropsRequired {
        /// The tool.
        tool: String,
        /// The parameter (its registered name).
        param: String,
    },
    /// An added parameter takes the registered name of a hidden or renamed one, so the two
    /// would reach the executor as one.
    #[error(
        "override of tool `{tool}`: cannot add parameter `{param}`: the tool already takes it, hidden or under another name"
    )]
    ParamTaken {
        /// The tool.
        tool: String,
        /// The parameter.
        param: String,
    },
    /// A constraint that does not apply to the parameter's kind.
    #[error(
        "override of tool `{tool}`: {what} does not apply to parameter `{param}` of type {kind}"
    )]
    NotApplicable {
        /// The tool.
        tool: String,
        /// The parameter (or `output` for the output schema).
        param: String,
        /// The constraint.
        what: &'static str,
        /// The schema kind of the parameter.
        kind: &'static str,
    },
    /// A new name or namespace breaks the name rule.
    #[error("override of tool `{tool}`: {source}")]
    Name {
        /// The tool.
        tool: String,
        /// What is wrong with the new name.
        source: NameError,
    },
    /// The value of a hidden parameter is not one the parameter accepts.
    #[error(
        "override of tool `{tool}`: the value hidden in parameter `{param}` is invalid: {message}"
    )]
    HiddenValue {
        /// The tool.
        tool: String,
        /// The parameter.
        param: String,
        /// Why the value is rejected.
        message: String,
    },
    /// A replacement input schema could not be imported.
    #[error("override of tool `{tool}`: the replacement input schema is invalid: {message}")]
    InputSchema {
        /// The tool.
        tool: String,
        /// What the importer rejected (with its JSON pointer).
        message: String,
    },
    /// A closure patch reported an error.
    #[error("override of tool `{tool}`: {message}")]
    Custom {
        /// The tool.
        tool: String,
        /// The closure's message.
        message: String,
    },
    /// The patched descriptor breaks a rule of [`crate::validate`].
    #[error("override of tool `{tool}` produced an invalid descriptor: {source}")]
    Invalid {
        /// The tool (its registered name).
        tool: String,
        /// The broken rule.
        source: DescriptorError,
    },
    /// A rename onto a name another tool already has (reported by the registry).
    #[error("override of tool `{tool}`: cannot rename it to `{name}`, another tool has that name")]
    NameTaken {
        /// The tool (its registered name).
        tool: String,
        /// The name asked for.
        name: String,
    },
}

impl OverrideError {
    /// The (registered) name of the tool the error is about.
    pub fn tool(&self) -> &str {
        match self {
            OverrideError::UnknownParam { tool, .. }
            | OverrideError::WidensEnum { tool, .. }
            | OverrideError::WidensRange { tool, .. }
            | OverrideError::DropsRequired { tool, .. }
            | OverrideError::ParamTaken { tool, .. }
            | OverrideError::NotApplicable { tool, .. }
            | OverrideError::Name { tool, .. }
            | OverrideError::HiddenValue { tool, .. }
            | OverrideError::InputSchema { tool, .. }
            | OverrideError::Custom { tool, .. }
            | OverrideError::Invalid { tool, .. }
            | OverrideError::NameTaken { tool, .. } => tool,
        }
    }
}

pub(super) fn quote_list(values: &[String]) -> String {
    values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ")
}
