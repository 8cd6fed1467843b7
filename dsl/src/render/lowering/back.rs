//! The one walker of the way back: a model's arguments and the schema they were rendered from,
//! side by side, with each value-changing pass's inverse applied where that pass fired.
//!
//! A union is read by its variants in order: the value is given back under each variant and
//! taken under the first one that it then fits (checked by the [`ArgValidator`]). Bounded: the
//! walk stops at [`MAX_DEPTH`] and after [`MAX_TRIES`] union variants, leaving the rest of the
//! value as it came (dispatch then says what is wrong with it).

use serde_json::{Map, Value};

use super::{Pass, Passes, null_for_absent, string_enums};
use crate::descriptor::{Definition, Param};
use crate::dispatch::{ArgValidator, MAX_DEPTH};
use crate::pointer::JsonPointer;
use crate::schema::{Additional, AnyOfSchema, Schema, SchemaKind};

/// How many union variants one call's walk tries at most.
const MAX_TRIES: usize = 4096;

/// One walk over one call's arguments.
pub(crate) struct Back<'d> {
    defs: &'d [Definition],
    passes: Passes,
    validator: ArgValidator,
    tries: usize,
}

impl<'d> Back<'d> {
    pub(crate) fn new(defs: &'d [Definition], passes: Passes) -> Self {
        Back { defs, passes, validator: ArgValidator::new(), tries: 0 }
    }

    /// The keys of one object: each `null` that stands for absent removed, each value walked
    /// under its property's schema (or the map's value schema).
    pub(crate) fn object(
        &mut self,
        map: &mut Map<String, Value>,
        params: &[Param],
        additional: &Additional,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        if self.passes.contains(Pass::NullForAbsent) {
            null_for_absent::restore(map, params, self.defs);
        }
        for p in params {
            if let Some(v) = map.get_mut(p.name()) {
                self.value(v, &p.schema, depth + 1);
            }
        }
        if let Additional::Typed(values) = additional {
            for (k, v) in map.iter_mut() {
                if !params.iter().any(|p| p.name() == k) {
                    self.value(v, values, depth + 1);
                }
            }
        }
    }

    /// One value under `schema`.
    fn value(&mut self, v: &mut Value, schema: &Schema, depth: usize) {
        if depth > MAX_DEPTH || v.is_null() {
            return;
        }
        match &schema.kind {
            SchemaKind::Ref(r) => {
                let defs = self.defs;
                if let Some(d) = defs.iter().find(|d| d.name == r.name) {
                    self.value(v, &d.schema, depth + 1);
                }
            }
            SchemaKind::Object(o) => {
                if let Value::Object(map) = v {
                    self.object(map, &o.properties, &o.additional, depth);
                }
            }
            SchemaKind::List(l) => {
                if let Value::Array(items) = v {
                    for item in items {
                        self.value(item, &l.items, depth + 1);
                    }
                }
            }
            SchemaKind::Enum(e) => {
                if self.passes.contains(Pass::StringEnums)
                    && let Value::String(sent) = v
                    && string_enums::fires(&e.values)
                    && let Some(typed) = string_enums::typed(&e.values, sent)
                {
                    *v = typed;
                }
            }
            SchemaKind::AnyOf(a) => self.union(v, a, depth),
            _ => {}
        }
    }

    /// A union: the value under the first variant it fits once given back under it.
    fn union(&mut self, v: &mut Value, a: &AnyOfSchema, depth: usize) {
        // Only containers and strings have anything to give back.
        if !matches!(v, Value::Object(_) | Value::Array(_) | Value::String(_)) {
            return;
        }
        for variant in a.variants.iter() {
            if self.tries >= MAX_TRIES {
                return;
            }
            self.tries += 1;
            let mut attempt = v.clone();
            self.value(&mut attempt, variant, depth + 1);
            let fits = self
                .validator
                .check_value(variant, self.defs, &attempt, &JsonPointer::root())
                .is_ok();
            if fits {
                *v = attempt;
                return;
            }
        }
    }
}
