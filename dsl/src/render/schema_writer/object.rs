//! Objects: the root object of a tool's parameters and every nested object, with their
//! `properties`, `required` and `additionalProperties` (closed, open, typed or unstated, and how
//! each dialect writes or reports it).

use super::annotations::{Ann, write_description};
use super::{SchemaWriter, char_count};
use crate::descriptor::Param;
use crate::render::json_writer::{JsonWriter, key};
use crate::render::lowering::{Pass, close_objects, map_values_in_text, null_for_absent};
use crate::render::report::{RenderError, RenderRule};
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
        if matches!(additional, Additional::Typed(_)) && map_values_in_text::fires(self.opts) {
            self.lower(Pass::MapValuesInText, map_values_in_text::dropped_at_root())?;
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
        if self.refs == RefStyle::Inline {
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
                let force_null = self.plan_required(prm)?;
                out.key(&prm.name);
                self.node(out, &prm.schema.kind, Ann::of(&prm.schema), force_null)?;
                self.path.restore(p2);
            }
            out.end_object();
            self.path.restore(p);
        }
        let all_required = null_for_absent::runs(self.opts);
        let required = params.iter().filter(|p| p.required || all_required);
        if all_required || self.opts.empty_required || params.iter().any(|p| p.required) {
            key!(out, "required");
            out.begin_array();
            required.for_each(|p| out.string(&p.name));
            out.end_array();
        }
        self.additional(out, additional)?;
        self.depth -= 1;
        Ok(())
    }

    /// Whether an optional property is made required and nullable
    /// ([`Pass::NullForAbsent`]), recording it; otherwise counts it as optional.
    fn plan_required(&mut self, prm: &Param) -> Result<bool, RenderError> {
        if prm.required {
            return Ok(false);
        }
        if !null_for_absent::runs(self.opts) {
            self.stats.optional_properties += 1;
            return Ok(false);
        }
        // `null` stands for absent only where the schema took no `null` before.
        let fires = null_for_absent::fires(prm, &self.tool.definitions);
        if fires {
            self.ctx.mark(Pass::NullForAbsent);
        }
        self.record(null_for_absent::change(fires))?;
        Ok(!prm.schema.nullable)
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
        if map_values_in_text::fires(self.opts) {
            // A map's value type was planned into the description (see `plan_additional`).
            if matches!(additional, Additional::Closed) {
                self.lower(Pass::MapValuesInText, map_values_in_text::closed_left_out())?;
            }
            return Ok(());
        }
        if let Some(change) = close_objects::closes(additional, self.opts) {
            self.lower(Pass::CloseObjects, change)?;
            key!(out, "additionalProperties");
            out.bool(false);
            return Ok(());
        }
        match additional {
            Additional::Closed | Additional::Open => {
                key!(out, "additionalProperties");
                out.bool(matches!(additional, Additional::Open));
            }
            Additional::Unstated => {}
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
