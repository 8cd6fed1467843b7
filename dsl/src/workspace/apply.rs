//! Applying a reconcile: the difference between what the workspace applied last and what the
//! directory now asks for, turned into registry operations and sent as one batch (or tool by
//! tool when the target refuses the batch, so that one refusal does not block the others).
//!
//! Owns the diff and the report buckets; deciding what the directory asks for is
//! [`super::Workspace`]'s.

use std::collections::BTreeMap;
use std::path::Path;

use crate::descriptor::ToolName;

use super::{
    Applied, Inner, ReconcileReport, SkipReason, Skipped, ToolChange, Workspace, WorkspaceOp,
    WorkspaceTarget, notes,
};

impl Workspace {
    /// Applies the difference between what is applied and `desired` (both sorted by name):
    /// one batch, or, when the target refuses it, one batch per tool so that one refusal does
    /// not block the others.
    pub(super) fn apply<T: WorkspaceTarget + ?Sized>(
        &self,
        inner: &mut Inner,
        desired: Vec<Applied>,
        target: &T,
        report: &mut ReconcileReport,
    ) {
        let mut steps = Vec::new();
        let (old, new) = (&inner.applied, &desired);
        let (mut a, mut d) = (0, 0);
        loop {
            let (before, after) = match (old.get(a), new.get(d)) {
                (None, None) => break,
                (Some(o), Some(n)) if o.name() == n.name() => {
                    a += 1;
                    d += 1;
                    if o.same(n) {
                        if target.in_effect(&o.op()) {
                            continue;
                        }
                        // Undone behind the workspace's back (unregistered, unstripped):
                        // apply it again.
                        tracing::info!(tool = %n.name(), "workspace change no longer in effect; applying it again");
                        (None, Some(n))
                    } else {
                        (Some(o), Some(n))
                    }
                }
                (Some(o), Some(n)) if o.name() < n.name() => {
                    a += 1;
                    (Some(o), None)
                }
                (Some(o), None) => {
                    a += 1;
                    (Some(o), None)
                }
                (_, n) => {
                    d += 1;
                    (None, n)
                }
            };
            steps.push(Step::between(before, after));
        }
        if steps.is_empty() {
            return; // nothing changed: the applied state stays as it is
        }

        let all: Vec<WorkspaceOp> = steps.iter().flat_map(|s| s.ops.iter().cloned()).collect();
        let mut refused: BTreeMap<ToolName, ()> = BTreeMap::new();
        if let Err(batch_error) = target.apply_workspace(&all) {
            tracing::warn!(dir = %self.dir.display(), error = %batch_error,
                "workspace batch refused; applying tool by tool");
            for step in &steps {
                if let Err(e) = target.apply_workspace(&step.ops) {
                    let path = step
                        .changes
                        .last()
                        .map(|(_, c)| c.path.clone())
                        .unwrap_or_else(|| self.dir.clone());
                    tracing::warn!(tool = %step.name, error = %e, "workspace change refused");
                    report.skipped.push(Skipped {
                        path,
                        name: Some(step.name.clone()),
                        reason: SkipReason::Refused(e),
                        kept_previous: inner.applied(step.name.as_str()).is_some(),
                    });
                    refused.insert(step.name.clone(), ());
                }
            }
        }
        for step in steps {
            if refused.contains_key(&step.name) {
                continue;
            }
            for (bucket, c) in step.changes {
                match bucket {
                    Bucket::Registered => report.registered.push(c),
                    Bucket::Removed => report.removed.push(c),
                    Bucket::Stripped | Bucket::Restored if !target.has_tool(&c.name) => {
                        tracing::info!(tool = %c.name, path = %c.path.display(),
                            "`.removed` sentinel with no tool of that name: nothing listed changes");
                        report.sentinels_without_tool.push(c);
                    }
                    Bucket::Stripped => report.stripped.push(c),
                    Bucket::Restored => report.restored.push(c),
                }
            }
        }
        if refused.is_empty() {
            inner.applied = desired;
        } else {
            // Refused names keep what they had.
            let mut next: Vec<Applied> =
                desired.into_iter().filter(|a| !refused.contains_key(a.name())).collect();
            next.extend(inner.applied.iter().filter(|a| refused.contains_key(a.name())).cloned());
            next.sort_by(|a, b| a.name().cmp(b.name()));
            inner.applied = next;
        }
    }
}

#[derive(Clone, Copy)]
enum Bucket {
    Registered,
    Removed,
    Stripped,
    Restored,
}

/// The registry operations that take one name from its applied state to its desired one.
struct Step {
    name: ToolName,
    ops: Vec<WorkspaceOp>,
    changes: Vec<(Bucket, ToolChange)>,
}

impl Step {
    fn between(before: Option<&Applied>, after: Option<&Applied>) -> Step {
        let name = match (before, after) {
            (Some(a), _) | (None, Some(a)) => a.name().clone(),
            (None, None) => ToolName::new("unreachable"),
        };
        let change = |path: &Path, notes: Vec<String>| ToolChange {
            name: name.clone(),
            path: path.to_owned(),
            notes,
        };
        let mut ops = Vec::new();
        let mut changes = Vec::new();
        match before {
            Some(Applied::Spec(old)) if !matches!(after, Some(Applied::Spec(_))) => {
                ops.push(WorkspaceOp::Unregister(name.clone()));
                changes.push((Bucket::Removed, change(&old.tool.path, Vec::new())));
            }
            Some(Applied::Removed(s)) => {
                ops.push(WorkspaceOp::Unstrip(name.clone()));
                changes.push((Bucket::Restored, change(&s.path, Vec::new())));
            }
            _ => {}
        }
        match after {
            Some(Applied::Spec(new)) => {
                ops.push(WorkspaceOp::Register(new.tool.clone()));
                changes.push((Bucket::Registered, change(&new.tool.path, notes(&new.spec))));
            }
            Some(Applied::Removed(s)) => {
                ops.push(WorkspaceOp::Strip(name.clone()));
                changes.push((Bucket::Stripped, change(&s.path, Vec::new())));
            }
            None => {}
        }
        Step { name, ops, changes }
    }
}
