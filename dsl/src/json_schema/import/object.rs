//! Object schemas: `properties`, `required` (a required key `properties` does not list
//! included) and `additionalProperties`.

use std::collections::HashSet;

use serde_json::Value;

use super::Importer;
use crate::descriptor::Param;
use crate::json_schema::imported::{ImportError, ImportErrorKind, child, unsupported, wrong};
use crate::json_schema::keyword::is_annotation;
use crate::json_schema::view::View;
use crate::schema::{Additional, Schema};

impl Importer {
    /// The properties of an object schema and what it accepts beyond them.
    ///
    /// At the root (`depth` 0) a property that cannot be read is kept in `self.errors` and the
    /// next one read, so that one import reports the problem of every property; the caller
    /// fails the import when any was kept. Deeper, the first problem stops the import, as does
    /// crossing [`MAX_IMPORT_NODES`](crate::json_schema::MAX_IMPORT_NODES) anywhere.
    pub(super) fn object(
        &mut self,
        view: &View<'_>,
        depth: usize,
    ) -> Result<(Vec<Param>, Additional), ImportError> {
        let mut params = Vec::new();
        let mut failed: HashSet<&str> = HashSet::new();
        let required: HashSet<&str> = view.required.iter().flatten().map(|(r, _)| *r).collect();
        for (name, schema, ptr, _) in view.props.iter().flatten() {
            let schema = match self.schema(schema, ptr, depth + 1) {
                Ok(schema) => schema,
                Err(e) if depth == 0 && e.kind != ImportErrorKind::TooManyNodes => {
                    self.errors.push(e);
                    failed.insert(*name);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let required = required.contains(name);
            params.push(Param::named(name.to_string(), schema).with_required(required));
        }
        let mut described: HashSet<String> = params.iter().map(|p| p.name.to_string()).collect();
        described.extend(failed.iter().map(|name| (*name).to_owned()));
        let before = self.nodes;
        let additional = self.additional(view, depth)?;
        // Each such key below holds a copy of what other keys take: as many nodes again.
        let copy_nodes = (self.nodes - before).max(1);
        // A required key that `properties` does not describe takes what other keys take.
        for (name, ptr) in view.required.iter().flatten() {
            if described.contains(*name) {
                continue;
            }
            let schema = match &additional {
                Additional::Closed => {
                    return Err(unsupported(
                        ptr,
                        "required",
                        format!(
                            "`{name}` is required, but `properties` does not list it and `additionalProperties` is false, so no value is valid"
                        ),
                    ));
                }
                Additional::Typed(t) => {
                    self.count_nodes(copy_nodes, ptr)?;
                    t.get().clone()
                }
                Additional::Open | Additional::Unstated => {
                    self.count_nodes(copy_nodes, ptr)?;
                    Schema::any()
                }
            };
            self.note(
                ptr,
                "required",
                format!(
                    "names `{name}`, which `properties` does not list; it became a property that takes what other keys take"
                ),
            );
            params.push(Param::named(name.to_string(), schema));
        }
        Ok((params, additional))
    }

    pub(super) fn additional(
        &mut self,
        view: &View<'_>,
        depth: usize,
    ) -> Result<Additional, ImportError> {
        Ok(match view.get("additionalProperties") {
            None => Additional::Unstated,
            Some(kw) => match &*kw.value {
                Value::Bool(false) => Additional::Closed,
                Value::Bool(true) => Additional::Open,
                Value::Object(m) => {
                    let inner = self.view(m, &kw.ptr.clone())?;
                    if inner.has_validity() {
                        self.count_nodes(1, &kw.ptr)?;
                        let inner_schema = self.schema_of_view(&inner, depth + 1)?;
                        Additional::Typed(inner_schema.into())
                    } else {
                        self.check_keywords(&inner)?;
                        for k in inner.kws.keys().filter(|k| is_annotation(k)) {
                            let p = child(&kw.ptr, k);
                            self.note(
                                &p,
                                k,
                                "of an unconstrained `additionalProperties` was dropped",
                            );
                        }
                        Additional::Open
                    }
                }
                other => {
                    return Err(wrong(
                        &kw.ptr,
                        "additionalProperties",
                        "a boolean or a schema",
                        other,
                    ));
                }
            },
        })
    }
}
