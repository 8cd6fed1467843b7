//! What a reconcile changes: the operations it asks of its target ([`WorkspaceOp`]) and the
//! target itself ([`WorkspaceTarget`], implemented by [`ToolRegistry`]).
//!
//! Owns the seam between the workspace and the registry; the registry's own rules (stash,
//! strip, batch validation) stay in [`crate::registry`].

use std::fmt;
use std::sync::Arc;

use crate::descriptor::ToolName;
use crate::registry::{Batch, Origin, ToolRegistry};
use crate::tool::Executor;

/// One change a reconcile asks of the registry.
#[derive(Clone)]
#[non_exhaustive]
pub enum WorkspaceOp {
    /// Register (or replace) the workspace tool of the executor's descriptor name, shadowing a
    /// core tool of that name (stashed until [`WorkspaceOp::Unregister`]).
    Register(Arc<dyn Executor>),
    /// Remove the workspace tool and restore the stashed core tool, if any.
    Unregister(ToolName),
    /// Strip the core tool of that name, now or when one is registered later (a logged no-op
    /// for the listing while there is none).
    Strip(ToolName),
    /// Restore a stripped core tool.
    Unstrip(ToolName),
}

impl WorkspaceOp {
    /// The tool the change is about.
    pub fn name(&self) -> &ToolName {
        match self {
            WorkspaceOp::Register(e) => &e.descriptor().name,
            WorkspaceOp::Unregister(n) | WorkspaceOp::Strip(n) | WorkspaceOp::Unstrip(n) => n,
        }
    }
}

impl fmt::Debug for WorkspaceOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorkspaceOp::Register(e) => {
                f.debug_tuple("Register").field(&e.descriptor().name).finish()
            }
            WorkspaceOp::Unregister(n) => f.debug_tuple("Unregister").field(n).finish(),
            WorkspaceOp::Strip(n) => f.debug_tuple("Strip").field(n).finish(),
            WorkspaceOp::Unstrip(n) => f.debug_tuple("Unstrip").field(n).finish(),
        }
    }
}

/// What a reconcile applies its changes to: the registry.
pub trait WorkspaceTarget {
    /// Applies `ops` as one batch: all of them, or (on error) none, and readers see either the
    /// state before or the state after.
    ///
    /// # Errors
    ///
    /// A message saying why the batch was refused.
    fn apply_workspace(&self, ops: &[WorkspaceOp]) -> Result<(), String>;

    /// Whether `op`, applied by an earlier reconcile, is still in effect (the workspace tool is
    /// still the one registered, the name still stripped). A reconcile applies again what is
    /// not, even when its file is unchanged. The default trusts the target: always `true`.
    fn in_effect(&self, op: &WorkspaceOp) -> bool {
        let _ = op;
        true
    }

    /// Whether a tool other than a workspace one is registered as `name` (active or hidden):
    /// whether a `.removed` sentinel for it strips something. The default says `true`.
    fn has_tool(&self, name: &ToolName) -> bool {
        let _ = name;
        true
    }
}

impl WorkspaceTarget for ToolRegistry {
    fn apply_workspace(&self, ops: &[WorkspaceOp]) -> Result<(), String> {
        let mut batch = Batch::new();
        for op in ops {
            batch = match op {
                WorkspaceOp::Register(e) => batch.register(Arc::clone(e), Origin::Workspace),
                WorkspaceOp::Unregister(n) => batch.unregister(n.as_str(), Origin::Workspace),
                WorkspaceOp::Strip(n) => batch.strip(n.as_str()),
                WorkspaceOp::Unstrip(n) => batch.unstrip(n.as_str()),
            };
        }
        self.apply(batch).map(drop).map_err(|e| e.to_string())
    }

    fn in_effect(&self, op: &WorkspaceOp) -> bool {
        match op {
            WorkspaceOp::Register(e) => self
                .workspace_entry(e.descriptor().name.as_str())
                .is_some_and(|w| Arc::ptr_eq(&w, e)),
            WorkspaceOp::Unregister(n) => self.workspace_entry(n.as_str()).is_none(),
            WorkspaceOp::Strip(n) => self.is_stripped(n.as_str()),
            WorkspaceOp::Unstrip(n) => !self.is_stripped(n.as_str()),
        }
    }

    fn has_tool(&self, name: &ToolName) -> bool {
        self.origins(name.as_str()).iter().any(|o| *o != Origin::Workspace)
    }
}
