//! The JSON Schema writer every renderer shares: [`write_input_schema`] and
//! [`write_output_schema`] lower a descriptor under [`SchemaOptions`], recording each change in
//! the [`RenderCtx`](super::RenderCtx).
//!
//! This file holds the entry points, the [`SchemaWriter`] state and its limits, and the two
//! roots (the input object and an output schema). The rest is one concept per file:
//!
//! | file | owns |
//! | --- | --- |
//! | `node.rs` | one schema node: its `type`, the null style, the kind's keywords and children |
//! | `plan.rs` | which keywords of a node the provider keeps, asking the lowering passes (`render/lowering/`) what becomes notes and changes |
//! | `annotations.rs` | title, description (with the notes), default, examples, verbatim keywords |
//! | `object.rs` | objects: `properties`, `required`, `additionalProperties` |
//! | `reference.rs` | `$ref`: written as a reference or inlined |
//! | `defs.rs` | which definitions a root needs, which are recursive, and writing `$defs` |
//! | `cycles.rs` | which definitions lie on a cycle (strongly connected components, no recursion) |

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use super::json_writer::{JsonWriter, key};
use super::lowering::{Pass, inline_refs, kept_in_text};
use super::renderer::RenderCtx;
use super::report::{Change, RenderError, RenderRule};
use super::schema_options::{Keyword, RefStyle, SchemaOptions, SchemaStats};
use crate::descriptor::{Param, ToolDescriptor};
use crate::pointer::JsonPointer;
use crate::schema::{
    Additional, Kept, NumberSchema, RefSchema, Schema, SchemaKind, int_format_range,
};

mod annotations;
mod cycles;
mod defs;
mod node;
mod object;
mod path;
mod plan;
mod reference;
#[cfg(test)]
mod tests;

use annotations::Ann;
use defs::DefIndex;
use path::Path;
pub use plan::has_lookaround;
pub use reference::ref_target;

/// Writes the tool's input schema (the root object of its parameters) at `pointer`.
///
/// # Errors
///
/// Recursion the options forbid, an unknown reference, or a lossy change under
/// [`LossPolicy::Refuse`](super::LossPolicy::Refuse).
pub fn write_input_schema(
    out: &mut JsonWriter,
    tool: &ToolDescriptor,
    opts: &SchemaOptions,
    ctx: &mut RenderCtx,
    pointer: &JsonPointer,
) -> Result<SchemaStats, RenderError> {
    let mut w = SchemaWriter::new(tool, opts, ctx, pointer);
    w.root_object(out, &tool.params, &tool.additional, None)?;
    let stats = w.stats;
    ctx.keep_inverse(tool);
    Ok(stats)
}

/// The tool's description followed by the notes of what the root of its input schema lowers
/// into text (the keywords of the root that import kept verbatim, under a dialect that does not
/// take them), each recorded as a change at `pointer`, where the description is written. For a
/// provider whose parameters object keeps no `description`
/// ([`SchemaOptions::root_description`] off): [`write_input_schema`] then leaves these notes
/// out, and this text is the tool's description.
///
/// # Errors
///
/// A lossy change under [`LossPolicy::Refuse`](super::LossPolicy::Refuse).
pub fn input_description<'t>(
    tool: &'t ToolDescriptor,
    opts: &SchemaOptions,
    ctx: &mut RenderCtx,
    pointer: &JsonPointer,
) -> Result<Cow<'t, str>, RenderError> {
    let description = Cow::Borrowed(tool.description.as_ref());
    if tool.input_kept.is_empty() || !kept_in_text::fires(opts) {
        return Ok(description);
    }
    let mut w = SchemaWriter::new(tool, opts, ctx, pointer);
    let mut notes = String::new();
    w.plan(&object::OBJECT_KIND, &w.input_root_ann(true), &mut notes)?;
    if notes.is_empty() {
        return Ok(description);
    }
    Ok(Cow::Owned(annotations::with_notes(Some(&tool.description), &notes)))
}

/// Writes the tool's output schema at `pointer`, with its own `$defs`; `Ok(None)` (and nothing
/// written) when the tool declares none.
///
/// # Errors
///
/// As [`write_input_schema`].
pub fn write_output_schema(
    out: &mut JsonWriter,
    tool: &ToolDescriptor,
    opts: &SchemaOptions,
    ctx: &mut RenderCtx,
    pointer: &JsonPointer,
) -> Result<Option<SchemaStats>, RenderError> {
    let Some(output) = &tool.output else { return Ok(None) };
    let mut w = SchemaWriter::new(tool, opts, ctx, pointer);
    w.path.name("$output");
    w.root_schema(out, output)?;
    Ok(Some(w.stats))
}

/// Walks the IR and writes JSON Schema text under [`SchemaOptions`].
struct SchemaWriter<'a> {
    tool: &'a ToolDescriptor,
    opts: &'a SchemaOptions,
    /// Where definitions go: the dialect's [`RefStyle`], or inlined by
    /// [`Pass::InlineRefs`](super::Pass::InlineRefs).
    refs: RefStyle,
    ctx: &'a mut RenderCtx,
    /// The output pointer and the parameter path of the node being written.
    path: Path<'a>,
    stats: SchemaStats,
    depth: usize,
    /// Definitions being inlined, innermost last (recursion guard).
    inlining: Vec<&'a str>,
    /// The references inside definitions already reported as inlined, by address: each is
    /// reported once, however many copies of its definition are written.
    inlined_refs: HashSet<*const RefSchema>,
    /// The definitions by name, with their recursion marks (set by `prepare_defs`).
    defs: DefIndex<'a>,
    /// Schema nodes written from inlined definitions so far, and how many may be (see
    /// [`INLINE_FACTOR`]).
    inlined: usize,
    /// Found when a definition is first inlined (it walks the descriptor).
    inline_budget: Option<usize>,
    /// Set by `plan` when the node's kept keywords stand for its array items (a tuple).
    tuple_items: bool,
    /// Whether the node is inside `items` or a definition, where [`RefStyle::DefsInItems`]
    /// writes a reference to a recursive definition as a `$ref`.
    in_items: bool,
    /// The definitions written as a `$ref` so far, by position (for
    /// [`RefStyle::DefsInItems`], which writes only those in `$defs`).
    referred: Vec<usize>,
}

const NESTING_GUARD: usize = 128;

/// How many schema nodes inlining may write per node of the descriptor (plus
/// [`INLINE_FLOOR`]). Definitions that each refer to the previous one several times double the
/// output with every level: a 2 KB descriptor would inline into gigabytes. Real tools inline
/// into a few times their own size; past the budget the render fails, naming the definition.
const INLINE_FACTOR: usize = 64;

/// Inlined nodes always allowed, whatever the descriptor's size.
const INLINE_FLOOR: usize = 16 * 1024;

/// Inlined nodes never allowed past, whatever the descriptor's size. A spec of a megabyte holds
/// some 40,000 nodes, and [`INLINE_FACTOR`] alone would let it inline into millions (tens of
/// megabytes of output, and hundreds more where a renderer rewrites a parsed copy); no
/// provider takes a tool schema of even this many nodes.
const INLINE_CEILING: usize = 64 * 1024;

impl<'a> SchemaWriter<'a> {
    fn new(
        tool: &'a ToolDescriptor,
        opts: &'a SchemaOptions,
        ctx: &'a mut RenderCtx,
        pointer: &'a JsonPointer,
    ) -> Self {
        SchemaWriter {
            tool,
            opts,
            refs: inline_refs::ref_style(opts),
            ctx,
            path: Path::new(pointer),
            stats: SchemaStats::default(),
            depth: 0,
            inlining: Vec::new(),
            inlined_refs: HashSet::new(),
            defs: DefIndex::default(),
            inlined: 0,
            inline_budget: None,
            tuple_items: false,
            in_items: false,
            referred: Vec::new(),
        }
    }

    fn err(&self, rule: RenderRule, detail: impl fmt::Display) -> RenderError {
        self.ctx.error(self.path.pointer(), self.path.param(), rule, detail)
    }

    /// Records `change` at the node being written.
    fn record(&mut self, change: Change) -> Result<(), RenderError> {
        self.ctx.record(change.at(self.path.pointer()).param(self.path.param()))
    }

    /// Records `change`, made by `pass`, at the node being written, and marks the tool as
    /// changed by it.
    fn lower(&mut self, pass: Pass, change: Change) -> Result<(), RenderError> {
        self.ctx.mark(pass);
        self.record(change)
    }

    fn root_object(
        &mut self,
        out: &mut JsonWriter,
        params: &'a [Param],
        additional: &'a Additional,
        ann: Option<Ann<'a>>,
    ) -> Result<(), RenderError> {
        let defs = if self.tool.definitions.is_empty() {
            Vec::new()
        } else {
            let roots: Vec<&Schema> = params
                .iter()
                .map(|p| &p.schema)
                .chain(match additional {
                    Additional::Typed(s) => Some(s.get()),
                    _ => None,
                })
                .collect();
            self.prepare_defs(&roots)
        };
        let ann = ann.unwrap_or_else(|| self.input_root_ann(self.opts.root_description));
        self.object(out, params, additional, ann, &defs)
    }

    /// The annotations of the input schema's root: the keywords import kept there, where
    /// `with_kept` or where the dialect writes them as they are; otherwise none (they go into
    /// the tool's description, see [`input_description`]).
    fn input_root_ann(&self, with_kept: bool) -> Ann<'a> {
        let kept: &'a [Kept] = &self.tool.input_kept;
        Ann {
            nullable: false,
            title: None,
            description: None,
            default: None,
            examples: &[],
            verbatim: if with_kept || !kept_in_text::fires(self.opts) { kept } else { &[] },
        }
    }

    fn root_schema(&mut self, out: &mut JsonWriter, schema: &'a Schema) -> Result<(), RenderError> {
        let defs = self.prepare_defs(&[schema]);
        if let SchemaKind::Object(o) = &schema.kind
            && !schema.nullable
        {
            return self.object(out, &o.properties, &o.additional, Ann::of(schema), &defs);
        }
        if defs.is_empty() || self.refs == RefStyle::Inline {
            return self.schema(out, schema);
        }
        // A non-object root with definitions: wrap so that `$defs` has a place.
        out.begin_object();
        key!(out, "allOf");
        out.begin_array();
        self.schema(out, schema)?;
        out.end_array();
        self.write_defs(out, &defs)?;
        out.end_object();
        Ok(())
    }
}

/// A number schema's bounds with the keyword each is written as, in the order they are written
/// (one table for planning which a provider keeps and for writing them).
fn number_keywords<T: Copy>(n: &NumberSchema<T>) -> [(Keyword, Option<T>); 5] {
    [
        (Keyword::Minimum, n.minimum),
        (Keyword::Maximum, n.maximum),
        (Keyword::ExclusiveMinimum, n.exclusive_minimum),
        (Keyword::ExclusiveMaximum, n.exclusive_maximum),
        (Keyword::MultipleOf, n.multiple_of),
    ]
}

/// An integer schema's bounds as written: its own, and, where its `format` is not written
/// (`format_kept` false) and means bounds (`int32`, `int64`), those bounds too, intersected with
/// its own (a bound of the schema's that is already as tight stays as it is).
fn integer_keywords(n: &NumberSchema<i64>, format_kept: bool) -> [(Keyword, Option<i64>); 5] {
    let mut keywords = number_keywords(n);
    let range = n.format.as_deref().filter(|_| !format_kept).and_then(int_format_range);
    if let Some((low, high)) = range {
        if !(n.minimum.is_some_and(|m| m >= low) || n.exclusive_minimum.is_some_and(|x| x >= low)) {
            keywords[0].1 = Some(low);
        }
        if !(n.maximum.is_some_and(|m| m <= high) || n.exclusive_maximum.is_some_and(|x| x <= high))
        {
            keywords[1].1 = Some(high);
        }
    }
    keywords
}

/// The number of characters of `s` (a name or enum value: nearly always ASCII, whose
/// length is its byte count).
fn char_count(s: &str) -> usize {
    if s.is_ascii() { s.len() } else { s.chars().count() }
}

/// How many schema nodes inlining may write for `tool` (see [`INLINE_FACTOR`]).
fn inline_budget(tool: &ToolDescriptor) -> usize {
    ir_nodes(tool).saturating_mul(INLINE_FACTOR).saturating_add(INLINE_FLOOR).min(INLINE_CEILING)
}

/// The number of schema nodes of a descriptor (parameters, definitions and output, each
/// definition counted once), counted without recursion.
fn ir_nodes(tool: &ToolDescriptor) -> usize {
    let mut stack: Vec<&Schema> = Vec::with_capacity(tool.params.len() + 8);
    stack.extend(tool.params.iter().map(|p| &p.schema));
    stack.extend(tool.definitions.iter().map(|d| &d.schema));
    if let Additional::Typed(s) = &tool.additional {
        stack.push(s);
    }
    if let Some(o) = &tool.output {
        stack.push(o);
    }
    let mut nodes = 0;
    while let Some(s) = stack.pop() {
        nodes += 1;
        match &s.kind {
            SchemaKind::List(l) => stack.push(&l.items),
            SchemaKind::Object(o) => {
                stack.extend(o.properties.iter().map(|p| &p.schema));
                if let Additional::Typed(t) = &o.additional {
                    stack.push(t);
                }
            }
            SchemaKind::AnyOf(a) => stack.extend(a.variants.iter()),
            _ => {}
        }
    }
    nodes
}
