//! [`Pass::NullForAbsent`](super::Pass::NullForAbsent): a strict mode that lists every
//! property in `required` makes an optional one nullable, so that the model can still say
//! "absent" by sending `null`. On the way back that `null` is read as absent, so the default
//! applies and an `Option` is `None`, for every property whose schema did not accept `null`
//! before; a property that did keeps its `null`, which then means `null`.

use serde_json::{Map, Value};

use super::Pass;
use crate::descriptor::{Definition, Param};
use crate::render::report::{Change, ChangeKind};
use crate::render::schema_options::SchemaOptions;
use crate::schema::{Schema, SchemaKind};

/// How deep [`admits_null`] follows references and unions (a cycle of them ends there).
const MAX_HOPS: usize = 32;

/// Whether the pass turns `null` for `param` into "absent": the property is optional and its
/// schema does not accept `null` (so the `null` can only mean absent). The writer reports each
/// optional property it makes required by this, and the way back removes such a `null`.
pub(crate) fn fires(param: &Param, definitions: &[Definition]) -> bool {
    !param.required && !admits_null(&param.schema, definitions)
}

/// Whether the pass runs: every property is listed in `required` (and `required` is written
/// on every object, an empty one too).
#[inline]
pub(crate) fn runs(opts: &SchemaOptions) -> bool {
    opts.runs(Pass::NullForAbsent)
}

/// What the writer reports for an optional property it makes required: whether `null` now
/// stands for absent (the pass fires) or keeps its own meaning.
pub(crate) fn change(fires: bool) -> Change {
    let detail = if fires {
        "optional property made required and nullable: send null for absent"
    } else {
        "optional (already nullable) property made required: null keeps its meaning, so the model cannot leave it out"
    };
    Change::lossless(ChangeKind::MadeRequired, "required").detail(detail)
}

/// Whether `schema` accepts `null` as it is: nullable, the null type, any value, a union with
/// a variant that does, or a reference to a definition that does.
pub(crate) fn admits_null(schema: &Schema, definitions: &[Definition]) -> bool {
    admits(schema, definitions, 0)
}

fn admits(schema: &Schema, definitions: &[Definition], hops: usize) -> bool {
    if schema.nullable {
        return true;
    }
    if hops > MAX_HOPS {
        return false;
    }
    match &schema.kind {
        SchemaKind::Null | SchemaKind::Any => true,
        SchemaKind::AnyOf(a) => a.variants.iter().any(|v| admits(v, definitions, hops + 1)),
        SchemaKind::Ref(r) => definitions
            .iter()
            .find(|d| d.name == r.name)
            .is_some_and(|d| admits(&d.schema, definitions, hops + 1)),
        _ => false,
    }
}

/// The inverse over one object's keys: each `null` the pass stands for is removed.
pub(crate) fn restore(map: &mut Map<String, Value>, params: &[Param], definitions: &[Definition]) {
    for p in params {
        if map.get(p.name()).is_some_and(Value::is_null) && fires(p, definitions) {
            map.remove(p.name());
        }
    }
}
