//! References to definitions: a `$ref` (wrapped in `anyOf` where it needs null or siblings the
//! dialect does not take beside it), or, for dialects without references, the definition
//! inlined in its place with the recursion it would need refused.

use super::SchemaWriter;
use super::annotations::Ann;
use crate::render::json_writer::{JsonWriter, key};
use crate::render::lowering::{Pass, inline_refs, wrap_ref_siblings};
use crate::render::report::{RenderError, RenderRule};
use crate::render::schema_options::{NullStyle, RefStyle};
use crate::schema::{RefSchema, SchemaKind};

impl<'a> SchemaWriter<'a> {
    pub(super) fn reference(
        &mut self,
        out: &mut JsonWriter,
        reference: &'a RefSchema,
        ann: Ann<'a>,
    ) -> Result<(), RenderError> {
        let name: &'a str = &reference.name;
        let tool = self.tool;
        let Some(index) = self.defs.position(name) else {
            return Err(self.err(
                RenderRule::UnknownRef,
                format_args!("reference to `{name}`, which is not a definition of the tool"),
            ));
        };
        let def = &tool.definitions[index].schema;
        let inline = match self.refs {
            RefStyle::Inline => true,
            RefStyle::DefsInItems => !(self.in_items && self.defs.is_recursive(index)),
            RefStyle::Defs | RefStyle::Definitions => false,
        };
        if inline {
            if self.inlining.contains(&name) {
                let why = if self.refs == RefStyle::DefsInItems {
                    " outside `items`, and this provider keeps a reference only inside `items` \
                     and `$defs` (it drops one in a property or an `anyOf` variant)"
                } else {
                    ", and this provider needs references inlined"
                };
                return Err(self.err(
                    RenderRule::Recursion,
                    format_args!("definition `{name}` refers to itself{why}"),
                ));
            }
            // One entry per reference the descriptor holds: a reference inside a definition is
            // written again in every copy of that definition, and one entry per copy would grow
            // with the expansion (a million for a fan of references inside the budget). The
            // first copy is named; the others are the same reference.
            let first = self.inlining.last().copied();
            if first.is_none() || self.inlined_refs.insert(std::ptr::from_ref(reference)) {
                self.lower(Pass::InlineRefs, inline_refs::change(name, first))?;
            }
            let merged = Ann {
                nullable: ann.nullable || def.nullable,
                title: ann.title.or(def.title.as_deref()),
                description: ann.description.or(def.description.as_deref()),
                default: ann.default.or(def.default.as_ref()),
                examples: if ann.examples.is_empty() { &def.examples } else { ann.examples },
                verbatim: if ann.verbatim.is_empty() { &def.kept } else { ann.verbatim },
            };
            self.inlining.push(name);
            let result = self.node(out, &def.kind, merged, false);
            self.inlining.pop();
            return result;
        }
        if !self.opts.recursion && self.defs.is_recursive(index) {
            return Err(self.err(
                RenderRule::Recursion,
                format_args!(
                    "definition `{name}` refers to itself, and this provider does not accept recursive schemas"
                ),
            ));
        }
        if self.refs == RefStyle::DefsInItems && !self.referred.contains(&index) {
            self.referred.push(index);
        }
        let target = match self.refs {
            RefStyle::Definitions => "#/definitions/",
            _ => "#/$defs/",
        };
        let mut notes = String::new();
        let kept = self.plan(&REF_KIND, &ann, &mut notes)?;
        self.tuple_items = false;
        // A nullable definition already says so in `$defs`.
        let nullable = ann.nullable;
        let siblings = ann.has_siblings() || !notes.is_empty();
        out.begin_object();
        if (nullable && self.opts.null_style != NullStyle::OpenApi)
            || wrap_ref_siblings::fires(siblings, self.opts)
        {
            if !nullable {
                self.lower(Pass::WrapRefSiblings, wrap_ref_siblings::change())?;
            } else {
                self.stats.unions += 1;
            }
            key!(out, "anyOf");
            out.begin_array();
            write_ref(out, target, name);
            if nullable {
                out.begin_object();
                key!(out, "type");
                self.type_value(out, "null");
                out.end_object();
            }
            out.end_array();
        } else {
            key!(out, "$ref");
            out.string(&ref_target(target, name));
            if nullable {
                key!(out, "nullable");
                out.bool(true);
            }
        }
        self.annotations(out, &ann, kept, &notes);
        out.end_object();
        Ok(())
    }
}

const REF_KIND: SchemaKind = SchemaKind::Null;

fn write_ref(out: &mut JsonWriter, target: &str, name: &str) {
    out.begin_object();
    key!(out, "$ref");
    out.string(&ref_target(target, name));
    out.end_object();
}

/// `prefix` and `name` as a URI fragment: escaped as a JSON pointer segment, then
/// percent-encoded outside the characters a fragment may hold.
pub fn ref_target(prefix: &str, name: &str) -> String {
    let mut out = String::with_capacity(prefix.len() + name.len());
    out.push_str(prefix);
    crate::pointer::fragment_segment_into(&mut out, name);
    out
}
