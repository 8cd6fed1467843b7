//! [`Pass::CloseObjects`](super::Pass::CloseObjects): strict modes take only closed objects,
//! so every object is written with `additionalProperties: false`. One that did not say is
//! closed losslessly (its keys are all listed); an open object, or a map closed to an empty
//! object, loses what it accepted (a lossy reported change).
//!
//! Back: nothing to give back; a model obeying the closed schema sends only listed keys.

use super::Pass;
use crate::render::report::{Change, ChangeKind};
use crate::render::schema_options::SchemaOptions;
use crate::schema::Additional;

/// The change the pass records closing an object whose `additionalProperties` is
/// `additional`; `None` where it leaves it as it is (the pass does not run, or the object is
/// already closed).
pub(crate) fn closes(additional: &Additional, opts: &SchemaOptions) -> Option<Change> {
    if !opts.runs(Pass::CloseObjects) {
        return None;
    }
    let change = match additional {
        Additional::Closed => return None,
        Additional::Unstated => Change::lossless(ChangeKind::Closed, "additionalProperties").detail(
            "object that does not state additionalProperties closed: the provider requires additionalProperties: false",
        ),
        Additional::Open => Change::lossy(ChangeKind::Closed, "additionalProperties")
            .detail("open object closed: the provider requires additionalProperties: false"),
        Additional::Typed(_) => Change::lossy(ChangeKind::Closed, "additionalProperties").detail(
            "map closed to an empty object: the provider requires additionalProperties: false",
        ),
    };
    Some(change)
}
