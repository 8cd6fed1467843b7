//! What a renderer tells its caller: the [`LossPolicy`] it renders under, the [`Report`] of every
//! [`Change`] it made to fit the provider, and the [`RenderError`] when it cannot.

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::hash::Hash;

use crate::pointer::JsonPointer;

/// What a renderer does with a change that loses meaning (a [`Change`] whose `lossy` is set).
///
/// This is a choice of the caller, apart from a provider's own *strict mode* (OpenAI's
/// `strict: true`, Anthropic's and Bedrock's strict tools), which is a setting of the renderer:
/// any renderer, strict mode or not, can be asked to refuse lossy changes. The CLI's `--strict`
/// picks both, the strict mode and [`LossPolicy::Refuse`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LossPolicy {
    /// Lossy changes are made and recorded in the [`Report`] (`Change::lossy`).
    #[default]
    Allow,
    /// A lossy change is a [`RenderError`] with [`RenderRule::Lossy`], naming its pointer.
    Refuse,
}

/// What kind of change a renderer made to fit its provider.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A keyword the provider does not accept was written into the description text.
    MovedToDescription,
    /// Something was removed with no place to keep it.
    Dropped,
    /// An optional property was made required (and nullable, so that it can still be "absent").
    MadeRequired,
    /// An open or typed (map) object was closed.
    Closed,
    /// A reference was replaced by its definition.
    Inlined,
    /// Same meaning, another spelling (a `$ref` wrapped in `anyOf`, a bound clamped and noted).
    Rewritten,
    /// Tool-level information the provider's wire format has no field for (title, annotations,
    /// output schema); the input contract is unchanged.
    Omitted,
}

/// One change a renderer made to fit its provider.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Change {
    /// The tool's name.
    pub tool: String,
    /// JSON pointer of the place in the rendered output (`/function/parameters/properties/days`);
    /// the root pointer for the tool as a whole.
    pub pointer: JsonPointer,
    /// Dotted path of the IR parameter (`filter.limit`, `tags[]`, `$defs.Node.label`); empty for
    /// the tool itself.
    pub param: String,
    /// What kind of change.
    pub kind: ChangeKind,
    /// The JSON Schema keyword or wire field concerned (`default`, `minimum`, `annotations`).
    pub keyword: Cow<'static, str>,
    /// What was done, in words (most details are fixed text, kept without a copy).
    pub detail: Cow<'static, str>,
    /// Whether meaning was lost (the provider now accepts or conveys something else).
    pub lossy: bool,
}

impl Change {
    /// A change that keeps the meaning, of `kind` and about `keyword`; give its place with
    /// [`at`](Self::at) and [`param`](Self::param), say what was done with
    /// [`detail`](Self::detail), and record it with
    /// [`RenderCtx::record`](super::RenderCtx::record), which fills in the tool.
    pub fn lossless(kind: ChangeKind, keyword: impl Into<Cow<'static, str>>) -> Self {
        Change {
            tool: String::new(),
            pointer: JsonPointer::root(),
            param: String::new(),
            kind,
            keyword: keyword.into(),
            detail: Cow::Borrowed(""),
            lossy: false,
        }
    }

    /// A change that loses meaning (refused under [`LossPolicy::Refuse`]); otherwise as
    /// [`lossless`](Self::lossless).
    pub fn lossy(kind: ChangeKind, keyword: impl Into<Cow<'static, str>>) -> Self {
        Change { lossy: true, ..Change::lossless(kind, keyword) }
    }

    /// The place in the rendered output (the root, for the tool as a whole, when not given).
    #[must_use]
    pub fn at(mut self, pointer: impl Into<JsonPointer>) -> Self {
        self.pointer = pointer.into();
        self
    }

    /// The dotted path of the IR parameter (none, for the tool itself, when not given).
    #[must_use]
    pub fn param(mut self, param: impl Into<String>) -> Self {
        self.param = param.into();
        self
    }

    /// What was done, in words.
    #[must_use]
    pub fn detail(mut self, detail: impl Into<Cow<'static, str>>) -> Self {
        self.detail = detail.into();
        self
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool `{}`", self.tool)?;
        if !self.param.is_empty() {
            write!(f, ", parameter `{}`", self.param)?;
        }
        if !self.pointer.is_empty() {
            write!(f, " at {}", self.pointer)?;
        }
        write!(f, ": {}", self.detail)?;
        if self.lossy {
            f.write_str(" (lossy)")?;
        }
        Ok(())
    }
}

/// Every change made while rendering, in the order made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The changes.
    pub changes: Vec<Change>,
}

impl Report {
    /// Whether nothing was changed.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// The number of changes.
    pub fn len(&self) -> usize {
        self.changes.len()
    }

    /// The changes, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Change> {
        self.changes.iter()
    }

    /// The changes that lost meaning.
    pub fn lossy(&self) -> impl Iterator<Item = &Change> + '_ {
        self.changes.iter().filter(|c| c.lossy)
    }

    /// Whether every change kept the meaning.
    pub fn is_lossless(&self) -> bool {
        self.changes.iter().all(|c| !c.lossy)
    }

    /// Appends the changes of another report.
    pub fn extend(&mut self, other: Report) {
        self.changes.extend(other.changes);
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.changes {
            writeln!(f, "{c}")?;
        }
        Ok(())
    }
}

impl<'a> IntoIterator for &'a Report {
    type Item = &'a Change;
    type IntoIter = std::slice::Iter<'a, Change>;

    fn into_iter(self) -> Self::IntoIter {
        self.changes.iter()
    }
}

/// The rule a rendering breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RenderRule {
    /// The tool name breaks the provider's name rule.
    Name,
    /// A provider limit is exceeded (properties, nesting, enum values, length).
    Limit,
    /// A recursive definition where the provider or the chosen style does not allow one.
    Recursion,
    /// A reference names no definition.
    UnknownRef,
    /// A change would lose meaning and the policy is [`LossPolicy::Refuse`].
    Lossy,
    /// The provider cannot express the schema at all.
    Unsupported,
    /// A limit over the whole set of tools in one request is exceeded.
    SetLimit,
}

/// Why a descriptor (or a set of them) cannot be rendered for a provider.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RenderError {
    /// The tool's name (for set-level errors, the tool at which the limit was crossed).
    pub tool: String,
    /// JSON pointer in the rendered output; the root pointer for the tool as a whole.
    pub pointer: JsonPointer,
    /// Dotted path of the IR parameter; empty for the tool as a whole.
    pub param: String,
    /// The rule.
    pub rule: RenderRule,
    /// The whole message, naming the tool, the place and the rule.
    pub message: String,
}

impl RenderError {
    /// An error; the message is built from the parts and `detail`.
    pub fn new(
        tool: impl Into<String>,
        pointer: impl Into<JsonPointer>,
        param: impl Into<String>,
        rule: RenderRule,
        detail: impl fmt::Display,
    ) -> Self {
        let (tool, pointer, param) = (tool.into(), pointer.into(), param.into());
        let mut message = format!("tool `{tool}`");
        if !param.is_empty() {
            let _ = write!(message, ", parameter `{param}`");
        }
        if !pointer.is_empty() {
            let _ = write!(message, " at {pointer}");
        }
        let _ = write!(message, ": {detail}");
        RenderError { tool, pointer, param, rule, message }
    }
}
