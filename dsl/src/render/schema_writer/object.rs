//! Objects: the root object of a tool's parameters and every nested object, with their
//! `properties`, `required` and `additionalProperties` (closed, open, typed or unstated, and how
//! each dialect writes or reports it).

use super::annotations::{Ann, write_description};
use super::{SchemaWriter, char_count};
use crate::descriptor::Param;
use crate::render::json_writer::{JsonWriter, key};
use crate::render::lowering::{Pass, null_for_absent};
use crate::render::report::{Change, ChangeKind, RenderError, RenderRule};
use crate::render::schema_options::{Keyword, RefStyle};
use crate::schema::{Additional, SchemaKind};

impl<'a> SchemaWriter<'a> {
    /// An object node with `type`, annotations and, at a root, definitions.
    pub(super) fn object(
        &mut self,
        out: &mut JsonWriter,
        params: &'a [Param],
        additional: &'a Additional,
        ann: Ann<'a>,
        defs: &[usize],
    ) -> Result<(), RenderError> {
        let mut notes = String::new();
        let kept = self.plan(&OBJECT_KIND, &ann, &mut notes)?;
        self.tuple_items = false;
        // A root's description is not the tool's (and some providers drop it): a root map's
        // value type has nowhere to go.
        if matches!(additional, Additional::Typed(_)) && !self.opts.additional_properties {
            self.ctx.mark(Pass::MapValuesInText);
            self.record(Change::lossy(ChangeKind::Dropped, "additionalProperties").detail("the schema of map values is dropped: the provider does not accept additionalProperties"))?;
        }
        out.begin_object();
        if let Some(t) = ann.title.filter(|_| kept.contains(Keyword::Title)) {
            key!(out, "title");
            out.string(t);
        }
        key!(out, "type");
        self.type_value(out, "object");
        write_description(out, ann.description, &notes);
        self.object_body(out, params, additional)?;
        self.trailing(out, &ann, kept);
        if self.opts.refs == RefStyle::Inline {
            // Definitions are inlined; recursion is found while inlining.
        } else {
            self.write_defs(out, defs)?;
        }
        out.end_object();
        Ok(())
    }

    /// `properties`, `required`, `additionalProperties`.
    pub(super) fn object_body(
        &mut self,
        out: &mut JsonWriter,
        params: &'a [Param],
        additional: &'a Additional,
    ) -> Result<(), RenderError> {
        self.depth += 1;
        self.stats.max_depth = self.stats.max_depth.max(self.depth);
        if !params.is_empty() || self.opts.empty_properties {
            let p = self.path.mark();
            self.path.key("properties");
            key!(out, "properties");
            out.begin_object();
            for prm in params {
                let p2 = self.path.mark();
                self.path.key(&prm.name);
                self.path.name(&prm.name);
                if let Some(rule) = &self.opts.property_names
                    && let Err(why) = rule.check(&prm.name)
                {
                    return Err(self.ctx.error(
                        self.path.pointer(),
                        self.path.param(),
                        RenderRule::Name,
                        format_args!("property name `{}` is not accepted: {why}", prm.name),
                    ));
                }
                self.stats.properties += 1;
                self.stats.name_chars += char_count(&prm.name);
                let mut force_null = false;
                if !prm.required {
                    if self.opts.all_required {
                        force_null = !prm.schema.nullable;
                        // `null` stands for absent only where the schema took no `null` before.
                        let fires = null_for_absent::fires(prm, &self.tool.definitions);
                        if fires {
                            self.ctx.mark(Pass::NullForAbsent);
                        }
                        self.record(
                            Change::lossless(ChangeKind::MadeRequired, "required")
                                .detail(null_for_absent::detail(fires)),
                        )?;
                    } else {
                        self.stats.optional_properties += 1;
                    }
                }
                out.key(&prm.name);
                self.node(out, &prm.schema.kind, Ann::of(&prm.schema), force_null)?;
                self.path.restore(p2);
            }
            out.end_object();
            self.path.restore(p);
        }
        let required = params.iter().filter(|p| p.required || self.opts.all_required);
        if params.iter().any(|p| p.required || self.opts.all_required) || self.opts.empty_required {
            key!(out, "required");
            out.begin_array();
            required.for_each(|p| out.string(&p.name));
            out.end_array();
        }
        self.additional(out, additional)?;
        self.depth -= 1;
        Ok(())
    }

    fn additional(
        &mut self,
        out: &mut JsonWriter,
        additional: &'a Additional,
    ) -> Result<(), RenderError> {
        let p = self.path.mark();
        self.path.key("additionalProperties");
        let result = self.additional_inner(out, additional);
        self.path.restore(p);
        result
    }

    fn additional_inner(
        &mut self,
        out: &mut JsonWriter,
        additional: &'a Additional,
    ) -> Result<(), RenderError> {
        if !self.opts.additional_properties {
            // A map's value type was planned into the description (see `plan_additional`).
            if matches!(additional, Additional::Closed) {
                // Lossless: the contract stays closed (a call with another key is refused when
                // it is checked), the model is shown every key it may send, and neither
                // provider without the keyword reads it (Ollama's server discards it).
                self.record(Change::lossless(ChangeKind::Dropped, "additionalProperties").detail(
                    "`additionalProperties: false` not written: the provider does not accept additionalProperties; a call with another key is still refused when it is checked",
                ))?;
            }
            return Ok(());
        }
        match additional {
            Additional::Closed => {
                key!(out, "additionalProperties");
                out.bool(false);
            }
            Additional::Unstated if self.opts.close_objects => {
                self.ctx.mark(Pass::CloseObjects);
                self.record(Change::lossless(ChangeKind::Closed, "additionalProperties").detail("object that does not state additionalProperties closed: the provider requires additionalProperties: false"))?;
                key!(out, "additionalProperties");
                out.bool(false);
            }
            Additional::Unstated => {}
            Additional::Open if self.opts.close_objects => {
                self.ctx.mark(Pass::CloseObjects);
                self.record(Change::lossy(ChangeKind::Closed, "additionalProperties").detail(
                    "open object closed: the provider requires additionalProperties: false",
                ))?;
                key!(out, "additionalProperties");
                out.bool(false);
            }
            Additional::Open => {
                key!(out, "additionalProperties");
                out.bool(true);
            }
            Additional::Typed(_) if self.opts.close_objects => {
                self.ctx.mark(Pass::CloseObjects);
                self.record(Change::lossy(ChangeKind::Closed, "additionalProperties").detail("map closed to an empty object: the provider requires additionalProperties: false"))?;
                key!(out, "additionalProperties");
                out.bool(false);
            }
            Additional::Typed(s) => {
                let q = self.path.mark();
                self.path.name("*");
                key!(out, "additionalProperties");
                self.schema(out, s)?;
                self.path.restore(q);
            }
        }
        Ok(())
    }
}

pub(super) const OBJECT_KIND: SchemaKind = SchemaKind::Boolean;
