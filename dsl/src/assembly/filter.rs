//! The allow/deny interceptor: [`ToolFilter`] and its name patterns, [`ToolPattern`].

use std::fmt;

use crate::descriptor::ToolName;

use super::{AssemblyError, Interceptor, Next, PromptAssembly};

/// A tool-name pattern: `prefix*` matches every name starting with `prefix` (`mcp__memory__*`,
/// or `*` for every name); anything else matches exactly one name.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum ToolPattern {
    /// Matches this name only.
    Exact(ToolName),
    /// Matches every name starting with this text.
    Prefix(String),
}

/// Why a string is not a valid [`ToolPattern`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PatternError {
    /// The pattern is empty.
    #[error("tool pattern is empty; write a name, or `prefix*`")]
    Empty,
    /// A `*` somewhere else than at the end.
    #[error(
        "tool pattern `{pattern}` has a `*` before its end; only a trailing `*` (prefix match) is supported"
    )]
    Wildcard {
        /// The pattern.
        pattern: String,
    },
    /// A character no tool name can contain, so the pattern could never match.
    #[error(
        "tool pattern `{pattern}` has the character {ch:?}, which no tool name contains (only a-z, A-Z, 0-9, `_`, `-`, `.`)"
    )]
    BadChar {
        /// The pattern.
        pattern: String,
        /// The offending character.
        ch: char,
    },
    /// An exact name longer than any tool name can be.
    #[error("tool pattern `{pattern}` is longer than 128 characters, so no tool name can match it")]
    TooLong {
        /// The pattern.
        pattern: String,
    },
}

impl ToolPattern {
    /// Parses `prefix*` as a prefix pattern and anything else as an exact name.
    ///
    /// # Errors
    ///
    /// A [`PatternError`] when the pattern could never match a tool name (empty, a `*` before
    /// the end, a character outside the tool name rule, too long).
    pub fn parse(pattern: &str) -> Result<Self, PatternError> {
        if pattern.is_empty() {
            return Err(PatternError::Empty);
        }
        let (body, prefix) = match pattern.strip_suffix('*') {
            Some(body) => (body, true),
            None => (pattern, false),
        };
        if body.contains('*') {
            return Err(PatternError::Wildcard { pattern: pattern.to_owned() });
        }
        if let Some(ch) =
            body.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        {
            return Err(PatternError::BadChar { pattern: pattern.to_owned(), ch });
        }
        if body.len() > ToolName::MAX_LEN {
            return Err(PatternError::TooLong { pattern: pattern.to_owned() });
        }
        if prefix {
            Ok(ToolPattern::Prefix(body.to_owned()))
        } else {
            // Checked above: non-empty, valid characters, not too long.
            ToolName::parse_wide(body.to_owned())
                .map(ToolPattern::Exact)
                .map_err(|_| PatternError::Empty)
        }
    }

    /// Whether `name` matches.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            ToolPattern::Exact(exact) => exact.as_str() == name,
            ToolPattern::Prefix(prefix) => name.starts_with(prefix.as_str()),
        }
    }
}

impl fmt::Display for ToolPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolPattern::Exact(name) => f.write_str(name.as_str()),
            ToolPattern::Prefix(prefix) => write!(f, "{prefix}*"),
        }
    }
}

impl fmt::Debug for ToolPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ToolPattern({self})")
    }
}

impl std::str::FromStr for ToolPattern {
    type Err = PatternError;

    fn from_str(s: &str) -> Result<Self, PatternError> {
        ToolPattern::parse(s)
    }
}

/// An interceptor that keeps a tool when it matches the allow list (or the allow list is empty)
/// and matches no entry of the deny list: deny wins over allow.
///
/// It filters the tools present when it runs. Register it before [`super::ProgressiveDisclosure`]
/// so that denied tools cannot be found by a search either.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[must_use]
pub struct ToolFilter {
    allow: Vec<ToolPattern>,
    deny: Vec<ToolPattern>,
}

impl ToolFilter {
    /// A filter that keeps every tool.
    pub fn new() -> Self {
        ToolFilter::default()
    }

    /// Also allows the tools matching `pattern` (once anything is allowed, nothing else is).
    ///
    /// # Errors
    ///
    /// `pattern` is not a valid [`ToolPattern`].
    pub fn allow(mut self, pattern: &str) -> Result<Self, PatternError> {
        self.allow.push(ToolPattern::parse(pattern)?);
        Ok(self)
    }

    /// Denies the tools matching `pattern`.
    ///
    /// # Errors
    ///
    /// `pattern` is not a valid [`ToolPattern`].
    pub fn deny(mut self, pattern: &str) -> Result<Self, PatternError> {
        self.deny.push(ToolPattern::parse(pattern)?);
        Ok(self)
    }

    /// Allows the tools matching any of `patterns`.
    ///
    /// # Errors
    ///
    /// The first pattern that is not a valid [`ToolPattern`].
    pub fn allow_all<'p>(
        mut self,
        patterns: impl IntoIterator<Item = &'p str>,
    ) -> Result<Self, PatternError> {
        for pattern in patterns {
            self = self.allow(pattern)?;
        }
        Ok(self)
    }

    /// Denies the tools matching any of `patterns`.
    ///
    /// # Errors
    ///
    /// The first pattern that is not a valid [`ToolPattern`].
    pub fn deny_all<'p>(
        mut self,
        patterns: impl IntoIterator<Item = &'p str>,
    ) -> Result<Self, PatternError> {
        for pattern in patterns {
            self = self.deny(pattern)?;
        }
        Ok(self)
    }

    /// Adds an already parsed allow pattern.
    pub fn allow_pattern(mut self, pattern: ToolPattern) -> Self {
        self.allow.push(pattern);
        self
    }

    /// Adds an already parsed deny pattern.
    pub fn deny_pattern(mut self, pattern: ToolPattern) -> Self {
        self.deny.push(pattern);
        self
    }

    /// Whether the tool named `name` passes the filter.
    pub fn permits(&self, name: &str) -> bool {
        let allowed = self.allow.is_empty() || self.allow.iter().any(|p| p.matches(name));
        allowed && !self.deny.iter().any(|p| p.matches(name))
    }
}

impl Interceptor for ToolFilter {
    fn intercept(
        &self,
        mut assembly: PromptAssembly,
        next: Next<'_>,
    ) -> Result<PromptAssembly, AssemblyError> {
        assembly.retain_tools(|tool| self.permits(tool.name.as_str()));
        next.run(assembly)
    }

    fn name(&self) -> &str {
        "tool_filter"
    }
}
