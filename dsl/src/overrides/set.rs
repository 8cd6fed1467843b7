//! [`Overrides`]: sets of overrides keyed by tool, and the [`OverrideReport`] of applying them.

use std::sync::Arc;

use crate::tool::{Executor, Tool};

use super::apply::Patched;
use super::error::{OverrideError, OverrideErrorKind};
use super::executor::OverriddenExecutor;
use super::patch::Override;

/// A set of overrides keyed by tool: by name (tolerant of absent tools) or by [`Tool`] type
/// (a typo is a compile error). Overrides of one tool compose in the order they were added.
///
/// Keys are *registered* names: an override of a tool that another override renames still uses
/// the registered name.
#[derive(Clone, Debug, Default)]
#[must_use = "overrides do nothing until they are applied"]
pub struct Overrides {
    entries: Vec<(String, Override)>,
}

impl Overrides {
    /// An empty set.
    pub fn new() -> Self {
        Overrides::default()
    }

    /// Adds an override of the tool registered as `name`.
    pub fn for_name(mut self, name: impl Into<String>, patch: Override) -> Self {
        self.push(name, patch);
        self
    }

    /// Adds an override of the tool `T` (keyed by `T::NAME`).
    pub fn for_tool<T: Tool>(self, patch: Override) -> Self {
        self.for_name(T::NAME, patch)
    }

    /// Adds an override of the tool registered as `name`, in place.
    pub fn push(&mut self, name: impl Into<String>, patch: Override) {
        self.entries.push((name.into(), patch));
    }

    /// Appends every entry of `other` after this set's entries.
    pub fn extend(&mut self, other: Overrides) {
        self.entries.extend(other.entries);
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The tool names that have overrides, each once, in first-added order.
    pub fn names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for (name, _) in &self.entries {
            if !out.contains(&name.as_str()) {
                out.push(name);
            }
        }
        out
    }

    /// The overrides of the tool registered as `name`, in order.
    pub fn patches_for<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Override> + 'a {
        self.entries.iter().filter(move |(n, _)| n == name).map(|(_, o)| o)
    }

    /// Applies the overrides of `name` to `p` in order, validating after each.
    pub(crate) fn patch(&self, name: &str, mut p: Patched) -> Result<Patched, OverrideError> {
        for o in self.patches_for(name) {
            p = o.apply_patched(p)?;
        }
        Ok(p)
    }

    /// Applies the set to a list of executors (for use without a registry, e.g. before building
    /// a toolbox), keeping their order. Each tool gets its overrides in order; tools without
    /// overrides are returned as they are; a tool whose patch fails (or that a rename would give
    /// a name already in the list) is returned unpatched and reported.
    pub fn apply_to(
        &self,
        executors: Vec<Arc<dyn Executor>>,
    ) -> (Vec<Arc<dyn Executor>>, OverrideReport) {
        let mut report = OverrideReport::default();
        let present: Vec<String> =
            executors.iter().map(|e| e.descriptor().name.to_string()).collect();
        // A rename onto any name in the list (or one an earlier rename took) fails.
        let mut taken: Vec<String> = present.clone();
        let mut out = Vec::with_capacity(executors.len());
        for (e, name) in executors.into_iter().zip(&present) {
            if self.patches_for(name).next().is_none() {
                out.push(e);
                continue;
            }
            let patched = self.patch(name, Patched::new(e.descriptor())).and_then(|p| {
                let new = p.descriptor.name.as_str();
                if new != name.as_str() {
                    if taken.iter().any(|t| t == new) {
                        return Err(OverrideError::new(
                            name.clone(),
                            OverrideErrorKind::NameTaken { name: new.to_owned() },
                        ));
                    }
                    taken.push(new.to_owned());
                }
                Ok(p)
            });
            match patched {
                Ok(p) => {
                    report.applied.push(name.clone());
                    out.push(Arc::new(OverriddenExecutor::from_patched(e, p)));
                }
                Err(err) => {
                    tracing::warn!(tool = %name, error = %err, "override failed; tool left as registered");
                    report.failed.push(err);
                    out.push(e);
                }
            }
        }
        for name in self.names() {
            if !present.iter().any(|p| p == name) {
                tracing::warn!(tool = %name, "override of an absent tool skipped");
                report.skipped.push(name.to_owned());
            }
        }
        (out, report)
    }
}

/// What applying a set of overrides did.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct OverrideReport {
    /// Tools (registered names) that were patched.
    pub applied: Vec<String>,
    /// Names with overrides but no such tool: skipped with a warning, never an error.
    pub skipped: Vec<String>,
    /// Tools whose patch failed; they stay as registered.
    pub failed: Vec<OverrideError>,
}

impl OverrideReport {
    /// Whether no patch failed.
    pub fn is_ok(&self) -> bool {
        self.failed.is_empty()
    }
}
