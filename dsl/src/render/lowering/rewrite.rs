//! The passes that rewrite the descriptor before the schema writer sees it, for model families
//! that refuse a spelling the writer would otherwise choose ([`ModelProfile`](super::super::ModelProfile)):
//! [`Pass::OpenAnyMaps`] and [`Pass::DropNeverVariants`]. Both keep what values are valid, so
//! their way back is nothing; each rewrite is a lossless report entry.

use std::borrow::Cow;

use super::{Pass, Passes};
use crate::JsonPointer;
use crate::descriptor::ToolDescriptor;
use crate::render::renderer::RenderCtx;
use crate::render::report::{Change, ChangeKind, RenderError};
use crate::schema::{Additional, Schema, SchemaKind};

/// Runs the rewriting passes of `passes` over `tool`; borrowed back when none applies.
pub(crate) fn run<'t>(
    passes: Passes,
    tool: &'t ToolDescriptor,
    ctx: &mut RenderCtx,
    parameters: &JsonPointer,
) -> Result<Cow<'t, ToolDescriptor>, RenderError> {
    let passes = [Pass::OpenAnyMaps, Pass::DropNeverVariants]
        .into_iter()
        .filter(|p| passes.contains(*p))
        .collect::<Passes>();
    if passes.is_empty() || !needs(passes, tool) {
        return Ok(Cow::Borrowed(tool));
    }
    let mut owned = tool.clone();
    let mut w = Rewriter { passes, ctx, pointer: parameters.clone(), param: String::new() };
    w.additional(&mut owned.additional)?;
    let params = owned.params.to_mut();
    for p in params.iter_mut() {
        let mark = w.enter("properties", &p.name);
        let r = w.schema(&mut p.schema);
        w.restore(mark);
        r?;
    }
    let defs = owned.definitions.to_mut();
    for d in defs.iter_mut() {
        let mark = w.enter("$defs", "$defs");
        w.pointer.pop();
        w.pointer.push(&d.name);
        w.param.push('.');
        w.param.push_str(&d.name);
        let r = w.schema(&mut d.schema);
        w.restore(mark);
        r?;
    }
    Ok(Cow::Owned(owned))
}

/// Whether a map of any value: `additionalProperties: {}` as the writer would spell it.
fn any_map(additional: &Additional) -> bool {
    matches!(additional, Additional::Typed(s) if is_bare_any(s))
}

fn is_bare_any(s: &Schema) -> bool {
    matches!(s.kind, SchemaKind::Any)
        && !s.nullable
        && s.kept.is_empty()
        && s.description.is_none()
        && s.title.is_none()
        && s.default.is_none()
        && s.examples.is_empty()
}

/// Whether `s` accepts no value: `{"not": {}}` (or `{"not": true}`) and nothing else that
/// constrains.
fn is_never(s: &Schema) -> bool {
    matches!(s.kind, SchemaKind::Any)
        && !s.nullable
        && s.kept.len() == 1
        && s.kept[0].keyword == "not"
        && (s.kept[0].value == serde_json::json!({}) || s.kept[0].value == serde_json::json!(true))
}

fn needs(passes: Passes, tool: &ToolDescriptor) -> bool {
    fn schema(passes: Passes, s: &Schema, depth: usize) -> bool {
        if depth > 128 {
            return false;
        }
        match &s.kind {
            SchemaKind::Object(o) => {
                (passes.contains(Pass::OpenAnyMaps) && any_map(&o.additional))
                    || matches!(&o.additional, Additional::Typed(t) if schema(passes, t, depth + 1))
                    || o.properties.iter().any(|p| schema(passes, &p.schema, depth + 1))
            }
            SchemaKind::List(l) => schema(passes, &l.items, depth + 1),
            SchemaKind::AnyOf(a) => {
                (passes.contains(Pass::DropNeverVariants)
                    && a.variants.len() > 1
                    && a.variants.iter().any(is_never))
                    || a.variants.iter().any(|v| schema(passes, v, depth + 1))
            }
            _ => false,
        }
    }
    (passes.contains(Pass::OpenAnyMaps) && any_map(&tool.additional))
        || matches!(&tool.additional, Additional::Typed(t) if schema(passes, t, 0))
        || tool.params.iter().any(|p| schema(passes, &p.schema, 0))
        || tool.definitions.iter().any(|d| schema(passes, &d.schema, 0))
}

struct Rewriter<'c> {
    passes: Passes,
    ctx: &'c mut RenderCtx,
    pointer: JsonPointer,
    param: String,
}

impl Rewriter<'_> {
    /// Steps into `key/name` (pointer) and `name` (parameter path); the mark restores both.
    fn enter(&mut self, key: &str, name: &str) -> (usize, usize) {
        let mark = (self.pointer.len(), self.param.len());
        self.pointer.push(key);
        self.pointer.push(name);
        if !self.param.is_empty() {
            self.param.push('.');
        }
        self.param.push_str(name);
        mark
    }

    fn restore(&mut self, (pointer, param): (usize, usize)) {
        self.pointer.truncate(pointer);
        self.param.truncate(param);
    }

    fn record(&mut self, pass: Pass, change: Change) -> Result<(), RenderError> {
        self.ctx.mark(pass);
        self.ctx.record(change.at(self.pointer.clone()).param(self.param.clone()))
    }

    fn additional(&mut self, additional: &mut Additional) -> Result<(), RenderError> {
        if self.passes.contains(Pass::OpenAnyMaps) && any_map(additional) {
            *additional = Additional::Open;
            let mark = (self.pointer.len(), self.param.len());
            self.pointer.push("additionalProperties");
            let r = self.record(
                Pass::OpenAnyMaps,
                Change::lossless(ChangeKind::Rewritten, "additionalProperties").detail(
                    "a map of any value written as `additionalProperties: true`: the model refuses `{}` there",
                ),
            );
            self.restore(mark);
            return r;
        }
        if let Additional::Typed(t) = additional {
            let mark = (self.pointer.len(), self.param.len());
            self.pointer.push("additionalProperties");
            self.param.push_str(".*");
            let r = self.schema(t.make_mut());
            self.restore(mark);
            r?;
        }
        Ok(())
    }

    fn schema(&mut self, s: &mut Schema) -> Result<(), RenderError> {
        if self.pointer.len() > 512 {
            return Ok(());
        }
        match &mut s.kind {
            SchemaKind::Object(o) => {
                self.additional(&mut o.additional)?;
                for p in o.properties.to_mut().iter_mut() {
                    let mark = self.enter("properties", &p.name);
                    let r = self.schema(&mut p.schema);
                    self.restore(mark);
                    r?;
                }
            }
            SchemaKind::List(l) => {
                let mark = (self.pointer.len(), self.param.len());
                self.pointer.push("items");
                self.param.push_str("[]");
                let r = self.schema(l.items.make_mut());
                self.restore(mark);
                r?;
            }
            SchemaKind::AnyOf(a) => {
                if self.passes.contains(Pass::DropNeverVariants)
                    && a.variants.len() > 1
                    && a.variants.iter().any(is_never)
                {
                    let variants = a.variants.to_mut();
                    let before = variants.len();
                    variants.retain(|v| !is_never(v));
                    let dropped = before - variants.len();
                    self.record(
                        Pass::DropNeverVariants,
                        Change::lossless(ChangeKind::Dropped, "anyOf").detail(format!(
                            "{dropped} `anyOf` variant(s) that accept no value (`{{\"not\": {{}}}}`) left out: the model refuses them",
                        )),
                    )?;
                    if variants.len() == 1
                        && let Some(only) = variants.pop()
                    {
                        collapse(s, only);
                        return self.schema(s);
                    }
                }
                if let SchemaKind::AnyOf(a) = &mut s.kind {
                    for (i, v) in a.variants.to_mut().iter_mut().enumerate() {
                        let mark = (self.pointer.len(), self.param.len());
                        self.pointer.push("anyOf");
                        self.pointer.push_index(i);
                        let r = self.schema(v);
                        self.restore(mark);
                        r?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// `outer` (an `anyOf` left with one variant) becomes that variant, keeping the outer
/// schema's annotations where the variant has none, and its `null`.
fn collapse(outer: &mut Schema, only: Schema) {
    let Schema { kind, nullable, title, description, default, examples, kept } = only;
    outer.kind = kind;
    outer.nullable |= nullable;
    if outer.title.is_none() {
        outer.title = title;
    }
    if outer.description.is_none() {
        outer.description = description;
    }
    if outer.default.is_none() {
        outer.default = default;
    }
    if outer.examples.is_empty() {
        outer.examples = examples;
    }
    outer.kept.extend(kept);
}
