//! Definitions: which of the tool's definitions a root needs (those its schemas and kept
//! keywords reach), which of them can reach themselves (recursion), and writing them under
//! `$defs` or `definitions`.

use std::collections::HashMap;

use super::cycles::on_a_cycle;
use super::{NESTING_GUARD, SchemaWriter, char_count};
use crate::descriptor::ToolDescriptor;
use crate::json_schema::json_refs;
use crate::render::json_writer::JsonWriter;
use crate::render::report::{RenderError, RenderRule};
use crate::render::schema_options::RefStyle;
use crate::schema::{Additional, Schema, SchemaKind};

/// The tool's definitions as the writer looks them up, found once per root.
#[derive(Default)]
pub(super) struct DefIndex<'a> {
    /// Each name's position in the descriptor (the first, should a name repeat).
    by_name: HashMap<&'a str, usize>,
    /// Per definition, in descriptor order: whether it can reach itself.
    recursive: Vec<bool>,
    /// Per definition, in descriptor order: the definitions it refers to.
    edges: Vec<Vec<usize>>,
}

impl DefIndex<'_> {
    /// The position of the definition named `name`.
    pub(super) fn position(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Whether the definition at `position` refers to itself, directly or through others.
    pub(super) fn is_recursive(&self, position: usize) -> bool {
        self.recursive.get(position).copied().unwrap_or(false)
    }

    /// Which definitions `$defs` must hold under [`RefStyle::DefsInItems`], by position: those
    /// `referred` to, and the recursive ones their bodies reach (inside a definition, a
    /// reference to a recursive definition is written as a `$ref`, any other inlined).
    fn needed(&self, referred: &[usize]) -> Vec<bool> {
        let mut seen = vec![false; self.edges.len()];
        let mut stack = referred.to_vec();
        while let Some(i) = stack.pop() {
            if let Some(false) = seen.get(i).copied() {
                seen[i] = true;
                stack.extend(self.edges[i].iter().copied());
            }
        }
        seen.iter().enumerate().map(|(i, s)| *s && self.is_recursive(i)).collect()
    }
}

impl<'a> SchemaWriter<'a> {
    /// The definitions reachable from `roots`, in descriptor order; indexes the definitions by
    /// name and marks the recursive ones. Linear in the definitions and their references.
    pub(super) fn prepare_defs(&mut self, roots: &[&'a Schema]) -> Vec<usize> {
        let tool: &'a ToolDescriptor = self.tool;
        let defs = &tool.definitions;
        if defs.is_empty() {
            return Vec::new();
        }
        let mut by_name = HashMap::with_capacity(defs.len());
        for (i, d) in defs.iter().enumerate() {
            by_name.entry(&*d.name).or_insert(i);
        }
        let index = |name: &str| by_name.get(name).copied();
        // Direct references of each definition.
        let edges: Vec<Vec<usize>> = defs
            .iter()
            .map(|d| {
                let mut names = Vec::new();
                collect_refs(&d.schema, &mut names, 0);
                let mut kept = Vec::new();
                collect_kept_refs(&d.schema, &mut kept, 0);
                names
                    .iter()
                    .copied()
                    .chain(kept.iter().map(String::as_str))
                    .filter_map(index)
                    .collect()
            })
            .collect();
        let mut reach = vec![false; defs.len()];
        let mut stack: Vec<usize> = Vec::new();
        let mut kept = Vec::new();
        for k in &tool.input_kept {
            json_refs(&k.value, &mut kept);
        }
        for root in roots {
            let mut names = Vec::new();
            collect_refs(root, &mut names, 0);
            collect_kept_refs(root, &mut kept, 0);
            stack.extend(names.iter().filter_map(|n| index(n)));
        }
        stack.extend(kept.iter().filter_map(|n| index(n)));
        while let Some(i) = stack.pop() {
            if !reach[i] {
                reach[i] = true;
                stack.extend(edges[i].iter().copied());
            }
        }
        self.defs = DefIndex { recursive: on_a_cycle(&edges), by_name, edges };
        (0..defs.len()).filter(|i| reach[*i]).collect()
    }

    pub(super) fn write_defs(
        &mut self,
        out: &mut JsonWriter,
        defs: &[usize],
    ) -> Result<(), RenderError> {
        let key = match self.refs {
            RefStyle::Defs | RefStyle::DefsInItems => "$defs",
            RefStyle::Definitions => "definitions",
            RefStyle::Inline => return Ok(()),
        };
        let needed: Vec<usize>;
        let defs = if self.refs == RefStyle::DefsInItems {
            let wanted = self.defs.needed(&self.referred);
            needed = defs.iter().copied().filter(|i| wanted.get(*i) == Some(&true)).collect();
            &needed[..]
        } else {
            defs
        };
        if defs.is_empty() {
            return Ok(());
        }
        // A definition's body is kept as it is (Ollama's `$defs`), as `items` are.
        let in_items = std::mem::replace(&mut self.in_items, true);
        let saved = self.path.mark();
        self.path.key(key);
        // Definitions are named from `$defs`, whatever the path of the root.
        self.path.reset_param();
        out.key(key);
        out.begin_object();
        let tool = self.tool;
        let mut result = Ok(());
        for &i in defs {
            let d = &tool.definitions[i];
            let p = self.path.mark();
            self.path.key(&d.name);
            if self.defs.is_recursive(i) && !self.opts.recursion {
                result = Err(self.err(
                    RenderRule::Recursion,
                    format_args!(
                        "definition `{}` refers to itself, and this provider does not accept recursive schemas",
                        d.name
                    ),
                ));
                break;
            }
            self.path.name("$defs");
            self.path.name(&d.name);
            self.stats.definitions += 1;
            self.stats.name_chars += char_count(&d.name);
            out.key(&d.name);
            if let Err(e) = self.schema(out, &d.schema) {
                result = Err(e);
                break;
            }
            self.path.restore(p);
        }
        out.end_object();
        self.path.restore(saved);
        self.in_items = in_items;
        result
    }
}

/// The definitions the kept keywords of `s` and its children refer to.
fn collect_kept_refs(s: &Schema, names: &mut Vec<String>, depth: usize) {
    if depth > NESTING_GUARD {
        return;
    }
    for k in &s.kept {
        json_refs(&k.value, names);
    }
    match &s.kind {
        SchemaKind::List(l) => collect_kept_refs(&l.items, names, depth + 1),
        SchemaKind::Object(o) => {
            for p in o.properties.iter() {
                collect_kept_refs(&p.schema, names, depth + 1);
            }
            if let Additional::Typed(t) = &o.additional {
                collect_kept_refs(t, names, depth + 1);
            }
        }
        SchemaKind::AnyOf(a) => {
            a.variants.iter().for_each(|v| collect_kept_refs(v, names, depth + 1))
        }
        _ => {}
    }
}

fn collect_refs<'s>(s: &'s Schema, names: &mut Vec<&'s str>, depth: usize) {
    if depth > NESTING_GUARD {
        return;
    }
    match &s.kind {
        SchemaKind::Ref(r) => names.push(&r.name),
        SchemaKind::List(l) => collect_refs(&l.items, names, depth + 1),
        SchemaKind::Object(o) => {
            for p in o.properties.iter() {
                collect_refs(&p.schema, names, depth + 1);
            }
            if let Additional::Typed(t) = &o.additional {
                collect_refs(t, names, depth + 1);
            }
        }
        SchemaKind::AnyOf(a) => a.variants.iter().for_each(|v| collect_refs(v, names, depth + 1)),
        _ => {}
    }
}
