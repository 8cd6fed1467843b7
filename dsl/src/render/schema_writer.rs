//! The JSON Schema writer every renderer shares: [`write_input_schema`] and
//! [`write_output_schema`] lower a descriptor under [`SchemaOptions`], recording each change in
//! the [`RenderCtx`](super::RenderCtx).

use std::fmt::{self, Write as _};

use super::json_writer::{JsonWriter, literal_text, push_float};
use super::renderer::RenderCtx;
use super::report::{Change, ChangeKind, RenderError, RenderRule};
use super::schema_options::{
    Keyword, Keywords, NullStyle, RefStyle, SchemaOptions, SchemaStats, Unsupported,
};
use crate::descriptor::{Param, ToolDescriptor};
use crate::json_schema::json_refs;
use crate::literal::Literal;
use crate::pointer::JsonPointer;
use crate::schema::{
    Additional, Combine, EnumValues, Kept, NumberSchema, ScalarRef, Schema, SchemaKind,
};

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
    Ok(w.stats)
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
    w.param.push_str("$output");
    w.root_schema(out, output)?;
    Ok(Some(w.stats))
}

/// The annotations of a schema node after merging a reference with its definition.
#[derive(Clone, Copy)]
struct Ann<'a> {
    nullable: bool,
    title: Option<&'a str>,
    description: Option<&'a str>,
    default: Option<&'a Literal>,
    examples: &'a [Literal],
    /// Keywords import kept verbatim.
    verbatim: &'a [Kept],
}

impl<'a> Ann<'a> {
    fn of(s: &'a Schema) -> Self {
        Ann {
            nullable: s.nullable,
            title: s.title.as_deref(),
            description: s.description.as_deref(),
            default: s.default.as_ref(),
            examples: &s.examples,
            verbatim: &s.kept,
        }
    }

    fn has_siblings(&self) -> bool {
        self.title.is_some()
            || self.description.is_some()
            || self.default.is_some()
            || !self.examples.is_empty()
            || !self.verbatim.is_empty()
    }
}

/// Walks the IR and writes JSON Schema text under [`SchemaOptions`].
struct SchemaWriter<'a> {
    tool: &'a ToolDescriptor,
    opts: &'a SchemaOptions,
    ctx: &'a mut RenderCtx,
    pointer: JsonPointer,
    param: String,
    stats: SchemaStats,
    depth: usize,
    /// Definitions being inlined, innermost last (recursion guard).
    inlining: Vec<&'a str>,
    /// Per definition (descriptor order): whether it can reach itself.
    recursive: Vec<bool>,
    /// Schema nodes written from inlined definitions so far, and how many may be (see
    /// [`INLINE_FACTOR`]).
    inlined: usize,
    inline_budget: usize,
    /// Set by `plan` when the node's kept keywords stand for its array items (a tuple).
    tuple_items: bool,
}

const NESTING_GUARD: usize = 128;

/// How many schema nodes inlining may write per node of the descriptor (plus
/// [`INLINE_FLOOR`]). Definitions that each refer to the previous one several times double the
/// output with every level: a 2 KB descriptor would inline into gigabytes. Real tools inline
/// into a few times their own size; past the budget the render fails, naming the definition.
const INLINE_FACTOR: usize = 64;

/// Inlined nodes always allowed, whatever the descriptor's size.
const INLINE_FLOOR: usize = 16 * 1024;

impl<'a> SchemaWriter<'a> {
    fn new(
        tool: &'a ToolDescriptor,
        opts: &'a SchemaOptions,
        ctx: &'a mut RenderCtx,
        pointer: &JsonPointer,
    ) -> Self {
        SchemaWriter {
            tool,
            opts,
            ctx,
            pointer: pointer.clone(),
            param: String::new(),
            stats: SchemaStats::default(),
            depth: 0,
            inlining: Vec::new(),
            recursive: Vec::new(),
            inlined: 0,
            inline_budget: ir_nodes(tool)
                .saturating_mul(INLINE_FACTOR)
                .saturating_add(INLINE_FLOOR),
            tuple_items: false,
        }
    }

    fn err(&self, rule: RenderRule, detail: impl fmt::Display) -> RenderError {
        self.ctx.error(&self.pointer, self.param.as_str(), rule, detail)
    }

    /// Records `change` at the node being written.
    fn record(&mut self, change: Change) -> Result<(), RenderError> {
        self.ctx.record(change.at(&self.pointer).param(self.param.as_str()))
    }

    fn push_ptr(&mut self, seg: &str) -> usize {
        let len = self.pointer.len();
        self.pointer.push(seg);
        len
    }

    fn push_param(&mut self, seg: &str, dot: bool) -> usize {
        let len = self.param.len();
        if dot && !self.param.is_empty() {
            self.param.push('.');
        }
        self.param.push_str(seg);
        len
    }

    /// The single `type` a node is written with, if it has one: an enum whose values have
    /// several types has none, unless the dialect cannot say so and it is lowered to the type of
    /// its first value.
    fn kind_type(&self, kind: &SchemaKind) -> Option<&'static str> {
        match kind {
            SchemaKind::Enum(e) if self.enum_lowered(&e.values) => {
                let types = e.values.json_types();
                Some(if types.iter().all(|t| *t == "integer" || *t == "number") {
                    types[0]
                } else if types.contains(&"string") {
                    "string"
                } else {
                    types.first().copied().unwrap_or("string")
                })
            }
            other => kind_type(other),
        }
    }

    /// Whether an enum cannot be written as `enum` here: its values are not all strings and the
    /// dialect takes string enums only, or they have several types and the dialect can say
    /// neither a type array nor no type (OpenAPI `parameters`).
    fn enum_lowered(&self, values: &EnumValues) -> bool {
        if values.all_strings() {
            return false;
        }
        !self.opts.scalar_enums
            || (self.opts.null_style == NullStyle::OpenApi && values.json_types().len() > 1)
    }

    fn type_name(&self, name: &'static str) -> &'static str {
        if !self.opts.upper_case_types {
            return name;
        }
        match name {
            "string" => "STRING",
            "integer" => "INTEGER",
            "number" => "NUMBER",
            "boolean" => "BOOLEAN",
            "null" => "NULL",
            "array" => "ARRAY",
            "object" => "OBJECT",
            other => other,
        }
    }

    /// The definitions reachable from `roots`, in descriptor order, with recursion marks.
    fn prepare_defs(&mut self, roots: &[&'a Schema]) -> Vec<usize> {
        let defs = &self.tool.definitions;
        if defs.is_empty() {
            return Vec::new();
        }
        // Built once: a scan per reference would cost references times definitions.
        let mut by_name: std::collections::HashMap<&str, usize> =
            std::collections::HashMap::with_capacity(defs.len());
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
        for k in &self.tool.input_kept {
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
        // A definition is recursive when it can reach itself.
        self.recursive = (0..defs.len())
            .map(|start| {
                let mut seen = vec![false; defs.len()];
                let mut stack: Vec<usize> = edges[start].clone();
                while let Some(i) = stack.pop() {
                    if i == start {
                        return true;
                    }
                    if !seen[i] {
                        seen[i] = true;
                        stack.extend(edges[i].iter().copied());
                    }
                }
                false
            })
            .collect();
        (0..defs.len()).filter(|i| reach[*i]).collect()
    }

    fn root_object(
        &mut self,
        out: &mut JsonWriter,
        params: &'a [Param],
        additional: &'a Additional,
        ann: Option<Ann<'a>>,
    ) -> Result<(), RenderError> {
        let roots: Vec<&Schema> = params
            .iter()
            .map(|p| &p.schema)
            .chain(match additional {
                Additional::Typed(s) => Some(s.get()),
                _ => None,
            })
            .collect();
        let defs = self.prepare_defs(&roots);
        let ann = ann.unwrap_or(Ann {
            nullable: false,
            title: None,
            description: None,
            default: None,
            examples: &[],
            verbatim: &self.tool.input_kept,
        });
        self.object(out, params, additional, ann, &defs)
    }

    fn root_schema(&mut self, out: &mut JsonWriter, schema: &'a Schema) -> Result<(), RenderError> {
        let defs = self.prepare_defs(&[schema]);
        if let SchemaKind::Object(o) = &schema.kind
            && !schema.nullable
        {
            return self.object(out, &o.properties, &o.additional, Ann::of(schema), &defs);
        }
        if defs.is_empty() || self.opts.refs == RefStyle::Inline {
            return self.schema(out, schema);
        }
        // A non-object root with definitions: wrap so that `$defs` has a place.
        out.begin_object();
        out.key("allOf");
        out.begin_array();
        self.schema(out, schema)?;
        out.end_array();
        self.write_defs(out, &defs)?;
        out.end_object();
        Ok(())
    }

    fn write_defs(&mut self, out: &mut JsonWriter, defs: &[usize]) -> Result<(), RenderError> {
        let key = match self.opts.refs {
            RefStyle::Defs => "$defs",
            RefStyle::Definitions => "definitions",
            RefStyle::Inline => return Ok(()),
        };
        if defs.is_empty() {
            return Ok(());
        }
        let saved_ptr = self.pointer.len();
        let saved_param = std::mem::take(&mut self.param);
        self.push_ptr(key);
        out.key(key);
        out.begin_object();
        let tool = self.tool;
        let mut result = Ok(());
        for &i in defs {
            let d = &tool.definitions[i];
            let p = self.push_ptr(&d.name);
            if self.recursive.get(i).copied().unwrap_or(false) && !self.opts.recursion {
                result = Err(self.err(
                    RenderRule::Recursion,
                    format_args!(
                        "definition `{}` refers to itself, and this provider does not accept recursive schemas",
                        d.name
                    ),
                ));
                break;
            }
            self.param.clear();
            self.param.push_str("$defs.");
            self.param.push_str(&d.name);
            self.stats.definitions += 1;
            self.stats.name_chars += d.name.chars().count();
            out.key(&d.name);
            if let Err(e) = self.schema(out, &d.schema) {
                result = Err(e);
                break;
            }
            self.pointer.truncate(p);
        }
        out.end_object();
        self.pointer.truncate(saved_ptr);
        self.param = saved_param;
        result
    }

    fn schema(&mut self, out: &mut JsonWriter, s: &'a Schema) -> Result<(), RenderError> {
        self.node(out, &s.kind, Ann::of(s), false)
    }

    /// Writes one node. `force_null` adds "or null" (optional made required in strict mode).
    fn node(
        &mut self,
        out: &mut JsonWriter,
        kind: &'a SchemaKind,
        mut ann: Ann<'a>,
        force_null: bool,
    ) -> Result<(), RenderError> {
        if self.inlining.len() + self.depth > NESTING_GUARD {
            return Err(self.err(RenderRule::Limit, "schemas nest too deeply to render"));
        }
        // Name the outermost definition being inlined: the expansion starts there.
        if let Some(name) = self.inlining.first().copied() {
            self.inlined += 1;
            if self.inlined > self.inline_budget {
                return Err(self.err(
                    RenderRule::Limit,
                    format_args!(
                        "inlining definition `/$defs/{}` would write more than {} schema nodes \
                         for a descriptor of {}: its references fan out (each level refers to \
                         the one below several times)",
                        crate::json_schema::pointer_token(name),
                        self.inline_budget,
                        ir_nodes(self.tool)
                    ),
                ));
            }
        }
        ann.nullable |= force_null;
        if let SchemaKind::Ref(r) = kind {
            return self.reference(out, &r.name, ann);
        }
        // Plan the description notes before writing anything.
        let mut notes = String::new();
        let kept = self.plan(kind, &ann, &mut notes)?;
        let null_in_type = ann.nullable
            && !matches!(kind, SchemaKind::Null | SchemaKind::AnyOf(_))
            && self.opts.null_style == NullStyle::TypeArray;
        let wrap_null = ann.nullable
            && !matches!(kind, SchemaKind::Null)
            && (self.opts.null_style == NullStyle::AnyOf
                || (self.opts.null_style == NullStyle::TypeArray
                    && matches!(kind, SchemaKind::AnyOf(_))));
        // An `anyOf` node gets its null as one more variant rather than a wrapper.
        let null_variant = wrap_null && matches!(kind, SchemaKind::AnyOf(_));
        let wrapper = wrap_null && !null_variant;

        out.begin_object();
        if wrapper {
            self.stats.unions += 1;
            out.key("anyOf");
            out.begin_array();
            out.begin_object();
            if let Some(t) = self.kind_type(kind) {
                out.key("type");
                out.string(self.type_name(t));
            }
            self.body(out, kind, kept, false, false)?;
            out.end_object();
            out.begin_object();
            out.key("type");
            out.string(self.type_name("null"));
            out.end_object();
            out.end_array();
            self.annotations(out, &ann, kept, &notes);
        } else {
            if null_in_type {
                self.stats.unions += 1;
            }
            if let Some(t) = ann.title.filter(|_| kept.contains(Keyword::Title)) {
                out.key("title");
                out.string(t);
            }
            self.body_with_description(out, kind, kept, null_in_type, null_variant, &ann, &notes)?;
        }
        out.end_object();
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn body_with_description(
        &mut self,
        out: &mut JsonWriter,
        kind: &'a SchemaKind,
        kept: Keywords,
        null_in_type: bool,
        null_variant: bool,
        ann: &Ann<'a>,
        notes: &str,
    ) -> Result<(), RenderError> {
        // `type` first, then the description, then the kind's keywords.
        let type_name = self.kind_type(kind);
        if let SchemaKind::Enum(e) = kind
            && type_name.is_none()
            && self.opts.null_style == NullStyle::TypeArray
        {
            // A mixed enum under a dialect with type arrays: every type of its values.
            out.key("type");
            out.begin_array();
            for t in e.values.json_types() {
                out.string(self.type_name(t));
            }
            if null_in_type {
                out.string(self.type_name("null"));
            }
            out.end_array();
        } else if let Some(t) = type_name {
            out.key("type");
            if null_in_type {
                out.begin_array();
                out.string(self.type_name(t));
                out.string(self.type_name("null"));
                out.end_array();
            } else {
                out.string(self.type_name(t));
            }
        }
        if self.opts.null_style == NullStyle::OpenApi
            && ann.nullable
            && !matches!(kind, SchemaKind::Null)
        {
            out.key("nullable");
            out.bool(true);
        }
        write_description(out, ann.description, notes);
        self.body(out, kind, kept, ann.nullable, null_variant)?;
        self.trailing(out, ann, kept);
        Ok(())
    }

    /// The wrapper's annotations (title, description, default, examples) for anyOf-null style.
    fn annotations(&mut self, out: &mut JsonWriter, ann: &Ann<'a>, kept: Keywords, notes: &str) {
        if let Some(t) = ann.title.filter(|_| kept.contains(Keyword::Title)) {
            out.key("title");
            out.string(t);
        }
        write_description(out, ann.description, notes);
        self.trailing(out, ann, kept);
    }

    fn trailing(&mut self, out: &mut JsonWriter, ann: &Ann<'a>, kept: Keywords) {
        if self.opts.verbatim {
            for k in ann.verbatim {
                out.key(&k.keyword);
                out.value(&k.value);
            }
        }
        if let Some(d) = ann.default.filter(|_| kept.contains(Keyword::Default)) {
            out.key("default");
            out.literal(d);
        }
        if !ann.examples.is_empty() && kept.contains(Keyword::Examples) {
            out.key("examples");
            out.begin_array();
            ann.examples.iter().for_each(|e| out.literal(e));
            out.end_array();
        }
    }

    /// Decides which keywords of this node are written; the others become notes and changes.
    fn plan(
        &mut self,
        kind: &'a SchemaKind,
        ann: &Ann<'a>,
        notes: &mut String,
    ) -> Result<Keywords, RenderError> {
        let allowed = self.opts.keywords;
        let mut kept = Keywords::NONE;
        // Keeps `k` when allowed, else notes `text` under its label.
        macro_rules! keyword {
            ($k:expr, $text:expr) => {{
                let k: Keyword = $k;
                if allowed.contains(k) {
                    kept = kept.with(k);
                } else {
                    self.unsupported(k, $text.as_ref(), notes)?;
                }
            }};
        }
        if let Some(title) = ann.title {
            keyword!(Keyword::Title, title);
        }
        if let Some(d) = ann.default {
            keyword!(Keyword::Default, literal_text(d));
        }
        if !ann.examples.is_empty() {
            keyword!(Keyword::Examples, join_literals(ann.examples));
        }
        if !self.opts.verbatim {
            for k in ann.verbatim {
                push_note(notes, &format!("{}: {}.", k.keyword, k.value));
                self.record(Change::lossy(ChangeKind::MovedToDescription, k.keyword.to_string()).detail(format!(
                        "`{}` moved into the description: the provider does not take it and the IR cannot lower it",
                        k.keyword
                    )))?;
            }
        } else if ann.verbatim.iter().any(|k| k.keyword == "prefixItems" || k.keyword == "items") {
            // The kept `prefixItems`/`items` stand for the array's items.
            self.tuple_items = true;
        }
        match kind {
            SchemaKind::AnyOf(a) if a.combine == Combine::OneOf && !self.opts.verbatim => {
                self.record(Change::lossy(ChangeKind::Rewritten, "oneOf").detail("`oneOf` written as `anyOf`: its variants may overlap, so the provider also accepts a value that matches two"))?;
            }
            SchemaKind::String(s) => {
                if let Some(f) = &s.format {
                    let known = self.opts.formats.is_none_or(|list| list.contains(&f.as_ref()));
                    if allowed.contains(Keyword::Format) && known {
                        kept = kept.with(Keyword::Format);
                    } else {
                        self.unsupported(Keyword::Format, f, notes)?;
                    }
                }
                if let Some(p) = &s.pattern {
                    let ok = self.opts.pattern_lookaround || !has_lookaround(p);
                    if allowed.contains(Keyword::Pattern) && ok {
                        kept = kept.with(Keyword::Pattern);
                    } else {
                        self.unsupported(Keyword::Pattern, p, notes)?;
                    }
                }
                if let Some(v) = s.min_length {
                    keyword!(Keyword::MinLength, v.to_string());
                }
                if let Some(v) = s.max_length {
                    keyword!(Keyword::MaxLength, v.to_string());
                }
            }
            SchemaKind::Integer(n) => self.plan_number(n, |v| v.to_string(), &mut kept, notes)?,
            SchemaKind::Float(n) => self.plan_number(n, float_text, &mut kept, notes)?,
            SchemaKind::Enum(e) if self.enum_lowered(&e.values) => {
                let text = enum_note(&e.values);
                push_note(notes, &text);
                self.record(Change::lossy(ChangeKind::MovedToDescription, "enum").detail(
                    "values written into the description: the provider takes enums of strings only",
                ))?;
            }
            SchemaKind::Enum(e)
                if self.opts.null_style == NullStyle::AnyOf && self.kind_type(kind).is_none() =>
            {
                self.record(Change::lossless(ChangeKind::Rewritten, "type").detail(
                    "`type` left out: the values have several types and the provider takes no type arrays; `enum` alone says what is valid",
                ))?;
                if e.values.iter_described().any(|(_, d)| d.is_some()) {
                    push_note(notes, &enum_note(&e.values));
                    self.record(
                        Change::lossless(ChangeKind::MovedToDescription, "enum")
                            .detail("descriptions of enum values written into the description"),
                    )?;
                }
            }
            SchemaKind::Enum(e) if e.values.iter_described().any(|(_, d)| d.is_some()) => {
                let text = enum_note(&e.values);
                push_note(notes, &text);
                self.record(
                    Change::lossless(ChangeKind::MovedToDescription, "enum")
                        .detail("descriptions of enum values written into the description"),
                )?;
            }
            SchemaKind::List(l) => {
                if let Some(v) = l.min_items {
                    match self.opts.max_min_items {
                        Some(max) if v > max && allowed.contains(Keyword::MinItems) => {
                            kept = kept.with(Keyword::MinItems);
                            push_note(notes, &format!("Minimum items: {v}."));
                            self
                                .record(Change::lossless(ChangeKind::Rewritten, "minItems").detail(
                                format!(
                                    "minItems {v} clamped to {max}; the bound is in the description"
                                ),
                            ))?;
                        }
                        _ => keyword!(Keyword::MinItems, v.to_string()),
                    }
                }
                if let Some(v) = l.max_items {
                    keyword!(Keyword::MaxItems, v.to_string());
                }
                if l.unique {
                    if allowed.contains(Keyword::UniqueItems) {
                        kept = kept.with(Keyword::UniqueItems);
                    } else {
                        self.unsupported(Keyword::UniqueItems, "", notes)?;
                    }
                }
            }
            SchemaKind::Object(o) => self.plan_additional(&o.additional, notes)?,
            _ => {}
        }
        Ok(kept)
    }

    /// A map whose dialect has no `additionalProperties` keeps its value type in the description.
    fn plan_additional(
        &mut self,
        additional: &Additional,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        let Additional::Typed(values) = additional else { return Ok(()) };
        if self.opts.additional_properties {
            return Ok(());
        }
        // Written from the ordered literal, so the keys come in the order tooldef writes them.
        let literal = crate::json_schema::export_schema_literal(values, &[]);
        let text = serde_json::to_string(&literal).unwrap_or_default();
        push_note(notes, &format!("Values of other keys: {text}."));
        self.record(Change::lossy(ChangeKind::MovedToDescription, "additionalProperties").detail("the schema of map values moved into the description: the provider does not accept additionalProperties"))
    }

    fn plan_number<T: Copy>(
        &mut self,
        n: &NumberSchema<T>,
        text: impl Fn(T) -> String,
        kept: &mut Keywords,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        let pairs = [
            (Keyword::Minimum, n.minimum),
            (Keyword::Maximum, n.maximum),
            (Keyword::ExclusiveMinimum, n.exclusive_minimum),
            (Keyword::ExclusiveMaximum, n.exclusive_maximum),
            (Keyword::MultipleOf, n.multiple_of),
        ];
        for (k, v) in pairs {
            if let Some(v) = v {
                if self.opts.keywords.contains(k) {
                    *kept = kept.with(k);
                } else {
                    self.unsupported(k, &text(v), notes)?;
                }
            }
        }
        Ok(())
    }

    fn unsupported(
        &mut self,
        k: Keyword,
        value: &str,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        match self.opts.unsupported {
            Unsupported::Describe => {
                if value.is_empty() {
                    push_note(notes, &format!("{}.", k.label()));
                } else {
                    push_note(notes, &format!("{}: {value}.", k.label()));
                }
                self.record(
                    Change::lossless(ChangeKind::MovedToDescription, k.as_str())
                        .detail(format!("`{}` moved into the description", k.as_str())),
                )
            }
            Unsupported::Drop => self.record(
                Change::lossy(ChangeKind::Dropped, k.as_str())
                    .detail(format!("`{}` dropped: the provider does not accept it", k.as_str())),
            ),
        }
    }

    /// The kind's keywords and children (no `type`, no annotations).
    fn body(
        &mut self,
        out: &mut JsonWriter,
        kind: &'a SchemaKind,
        kept: Keywords,
        nullable: bool,
        null_variant: bool,
    ) -> Result<(), RenderError> {
        let tuple_items = std::mem::take(&mut self.tuple_items);
        match kind {
            SchemaKind::String(s) => {
                if kept.contains(Keyword::Format)
                    && let Some(f) = &s.format
                {
                    out.key("format");
                    out.string(f);
                }
                if kept.contains(Keyword::Pattern)
                    && let Some(p) = &s.pattern
                {
                    out.key("pattern");
                    out.string(p);
                }
                if kept.contains(Keyword::MinLength)
                    && let Some(v) = s.min_length
                {
                    out.key("minLength");
                    out.uint(v);
                }
                if kept.contains(Keyword::MaxLength)
                    && let Some(v) = s.max_length
                {
                    out.key("maxLength");
                    out.uint(v);
                }
            }
            SchemaKind::Integer(n) => write_number(out, n, kept, |o, v| o.int(v)),
            SchemaKind::Float(n) => write_number(out, n, kept, |o, v| o.float(v)),
            SchemaKind::Boolean | SchemaKind::Null | SchemaKind::Any => {}
            SchemaKind::Enum(e) if self.enum_lowered(&e.values) => {}
            SchemaKind::Enum(e) => {
                self.stats.enum_values += e.values.len();
                let mut chars = 0;
                out.key("enum");
                out.begin_array();
                for v in e.values.iter() {
                    match v {
                        ScalarRef::Str(v) => {
                            chars += v.chars().count();
                            out.string(v);
                        }
                        other => {
                            let value = other.to_json();
                            chars += value.to_string().len();
                            out.value(&value);
                        }
                    }
                }
                // A nullable enum must list null, or null stays invalid (OpenAPI's `nullable`
                // admits null by itself, and its enums hold strings only).
                if nullable && self.opts.null_style == NullStyle::TypeArray {
                    out.null();
                }
                out.end_array();
                self.stats.name_chars += chars;
                if e.values.len() > self.stats.largest_enum {
                    self.stats.largest_enum = e.values.len();
                    self.stats.largest_enum_chars = chars;
                }
            }
            SchemaKind::List(l) => {
                if !tuple_items {
                    let p = self.push_ptr("items");
                    let q = self.push_param("[]", false);
                    out.key("items");
                    self.schema(out, &l.items)?;
                    self.pointer.truncate(p);
                    self.param.truncate(q);
                }
                if kept.contains(Keyword::MinItems)
                    && let Some(v) = l.min_items
                {
                    out.key("minItems");
                    out.uint(self.opts.max_min_items.map_or(v, |m| v.min(m)));
                }
                if kept.contains(Keyword::MaxItems)
                    && let Some(v) = l.max_items
                {
                    out.key("maxItems");
                    out.uint(v);
                }
                if kept.contains(Keyword::UniqueItems) && l.unique {
                    out.key("uniqueItems");
                    out.bool(true);
                }
            }
            SchemaKind::Object(o) => {
                self.object_body(out, &o.properties, &o.additional)?;
            }
            SchemaKind::AnyOf(a) => {
                self.stats.unions += 1;
                let keyword =
                    if a.combine.is_one_of() && self.opts.verbatim { "oneOf" } else { "anyOf" };
                let p = self.push_ptr(keyword);
                out.key(keyword);
                out.begin_array();
                for (i, v) in a.variants.iter().enumerate() {
                    let p2 = self.pointer.len();
                    self.pointer.push_index(i);
                    let q = self.param.len();
                    let _ = write!(self.param, "|{i}");
                    self.schema(out, v)?;
                    self.pointer.truncate(p2);
                    self.param.truncate(q);
                }
                let has_null = a.variants.iter().any(|v| matches!(v.kind, SchemaKind::Null));
                if null_variant && !has_null {
                    out.begin_object();
                    out.key("type");
                    out.string(self.type_name("null"));
                    out.end_object();
                }
                out.end_array();
                self.pointer.truncate(p);
            }
            SchemaKind::Ref(_) => {}
        }
        Ok(())
    }

    /// An object node with `type`, annotations and, at a root, definitions.
    fn object(
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
            self.record(Change::lossy(ChangeKind::Dropped, "additionalProperties").detail("the schema of map values is dropped: the provider does not accept additionalProperties"))?;
        }
        out.begin_object();
        if let Some(t) = ann.title.filter(|_| kept.contains(Keyword::Title)) {
            out.key("title");
            out.string(t);
        }
        out.key("type");
        out.string(self.type_name("object"));
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
    fn object_body(
        &mut self,
        out: &mut JsonWriter,
        params: &'a [Param],
        additional: &'a Additional,
    ) -> Result<(), RenderError> {
        self.depth += 1;
        self.stats.max_depth = self.stats.max_depth.max(self.depth);
        if !params.is_empty() || self.opts.empty_properties {
            let p = self.push_ptr("properties");
            out.key("properties");
            out.begin_object();
            for prm in params {
                let p2 = self.push_ptr(&prm.name);
                let q = self.push_param(&prm.name, true);
                if let Some(rule) = &self.opts.property_names
                    && let Err(why) = rule.check(&prm.name)
                {
                    return Err(self.ctx.error(
                        &self.pointer,
                        &self.param,
                        RenderRule::Name,
                        format_args!("property name `{}` is not accepted: {why}", prm.name),
                    ));
                }
                self.stats.properties += 1;
                self.stats.name_chars += prm.name.chars().count();
                let mut force_null = false;
                if !prm.required {
                    if self.opts.all_required {
                        force_null = !prm.schema.nullable;
                        let detail = if force_null {
                            "optional property made required and nullable: send null for absent"
                        } else {
                            "optional (already nullable) property made required: send null for absent"
                        };
                        self.record(
                            Change::lossless(ChangeKind::MadeRequired, "required").detail(detail),
                        )?;
                    } else {
                        self.stats.optional_properties += 1;
                    }
                }
                out.key(&prm.name);
                self.node(out, &prm.schema.kind, Ann::of(&prm.schema), force_null)?;
                self.pointer.truncate(p2);
                self.param.truncate(q);
            }
            out.end_object();
            self.pointer.truncate(p);
        }
        let required = params.iter().filter(|p| p.required || self.opts.all_required);
        if params.iter().any(|p| p.required || self.opts.all_required) || self.opts.empty_required {
            out.key("required");
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
        let p = self.push_ptr("additionalProperties");
        let result = self.additional_inner(out, additional);
        self.pointer.truncate(p);
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
                out.key("additionalProperties");
                out.bool(false);
            }
            Additional::Unstated if self.opts.close_objects => {
                self.record(Change::lossless(ChangeKind::Closed, "additionalProperties").detail("object that does not state additionalProperties closed: the provider requires additionalProperties: false"))?;
                out.key("additionalProperties");
                out.bool(false);
            }
            Additional::Unstated => {}
            Additional::Open if self.opts.close_objects => {
                self.record(Change::lossy(ChangeKind::Closed, "additionalProperties").detail(
                    "open object closed: the provider requires additionalProperties: false",
                ))?;
                out.key("additionalProperties");
                out.bool(false);
            }
            Additional::Open => {
                out.key("additionalProperties");
                out.bool(true);
            }
            Additional::Typed(_) if self.opts.close_objects => {
                self.record(Change::lossy(ChangeKind::Closed, "additionalProperties").detail("map closed to an empty object: the provider requires additionalProperties: false"))?;
                out.key("additionalProperties");
                out.bool(false);
            }
            Additional::Typed(s) => {
                let q = self.push_param("*", true);
                out.key("additionalProperties");
                self.schema(out, s)?;
                self.param.truncate(q);
            }
        }
        Ok(())
    }

    fn reference(
        &mut self,
        out: &mut JsonWriter,
        name: &'a str,
        ann: Ann<'a>,
    ) -> Result<(), RenderError> {
        let tool = self.tool;
        let Some(index) = tool.definitions.iter().position(|d| d.name == name) else {
            return Err(self.err(
                RenderRule::UnknownRef,
                format_args!("reference to `{name}`, which is not a definition of the tool"),
            ));
        };
        let def = &tool.definitions[index].schema;
        if self.opts.refs == RefStyle::Inline {
            if self.inlining.contains(&name) {
                return Err(self.err(
                    RenderRule::Recursion,
                    format_args!(
                        "definition `{name}` refers to itself, and this provider needs references inlined"
                    ),
                ));
            }
            self.record(
                Change::lossless(ChangeKind::Inlined, "$ref")
                    .detail(format!("reference to `{name}` replaced by its definition")),
            )?;
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
        if !self.opts.recursion && self.recursive.get(index).copied().unwrap_or(false) {
            return Err(self.err(
                RenderRule::Recursion,
                format_args!(
                    "definition `{name}` refers to itself, and this provider does not accept recursive schemas"
                ),
            ));
        }
        let target = match self.opts.refs {
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
            || (siblings && !self.opts.ref_siblings)
        {
            if !nullable {
                self.record(
                    Change::lossless(ChangeKind::Rewritten, "$ref")
                        .detail("`$ref` with sibling keywords wrapped in anyOf"),
                )?;
            } else {
                self.stats.unions += 1;
            }
            out.key("anyOf");
            out.begin_array();
            write_ref(out, target, name);
            if nullable {
                out.begin_object();
                out.key("type");
                out.string(self.type_name("null"));
                out.end_object();
            }
            out.end_array();
        } else {
            out.key("$ref");
            out.string(&ref_target(target, name));
            if nullable {
                out.key("nullable");
                out.bool(true);
            }
        }
        self.annotations(out, &ann, kept, &notes);
        out.end_object();
        Ok(())
    }
}

const OBJECT_KIND: SchemaKind = SchemaKind::Boolean;
const REF_KIND: SchemaKind = SchemaKind::Null;

fn write_ref(out: &mut JsonWriter, target: &str, name: &str) {
    out.begin_object();
    out.key("$ref");
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

fn kind_type(kind: &SchemaKind) -> Option<&'static str> {
    match kind {
        SchemaKind::String(_) => Some("string"),
        // Under one `type` only when the values share one (see `SchemaWriter::kind_type`).
        SchemaKind::Enum(e) => match e.values.json_types().as_slice() {
            [t] => Some(t),
            _ => None,
        },
        SchemaKind::Integer(_) => Some("integer"),
        SchemaKind::Float(_) => Some("number"),
        SchemaKind::Boolean => Some("boolean"),
        SchemaKind::Null => Some("null"),
        SchemaKind::List(_) => Some("array"),
        SchemaKind::Object(_) => Some("object"),
        SchemaKind::AnyOf(_) | SchemaKind::Ref(_) | SchemaKind::Any => None,
    }
}

fn write_number<T: Copy>(
    out: &mut JsonWriter,
    n: &NumberSchema<T>,
    kept: Keywords,
    write: impl Fn(&mut JsonWriter, T),
) {
    let pairs = [
        (Keyword::Minimum, n.minimum),
        (Keyword::Maximum, n.maximum),
        (Keyword::ExclusiveMinimum, n.exclusive_minimum),
        (Keyword::ExclusiveMaximum, n.exclusive_maximum),
        (Keyword::MultipleOf, n.multiple_of),
    ];
    for (k, v) in pairs {
        if let Some(v) = v
            && kept.contains(k)
        {
            out.key(k.as_str());
            write(out, v);
        }
    }
}

fn write_description(out: &mut JsonWriter, description: Option<&str>, notes: &str) {
    match (description, notes.is_empty()) {
        (None, true) => {}
        (Some(d), true) => {
            out.key("description");
            out.string(d);
        }
        (d, false) => {
            let mut text = String::with_capacity(d.map_or(0, str::len) + notes.len() + 2);
            if let Some(d) = d.map(str::trim_end).filter(|d| !d.is_empty()) {
                text.push_str(d);
                if !d.ends_with(['.', '!', '?', ':']) {
                    text.push('.');
                }
                text.push(' ');
            }
            text.push_str(notes);
            out.key("description");
            out.string(&text);
        }
    }
}

fn push_note(notes: &mut String, note: &str) {
    if !notes.is_empty() {
        notes.push(' ');
    }
    notes.push_str(note);
}

fn float_text(f: f64) -> String {
    let mut s = String::new();
    push_float(&mut s, f);
    s
}

fn join_literals(items: &[Literal]) -> String {
    let mut s = String::new();
    for (i, l) in items.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&literal_text(l));
    }
    s
}

fn enum_note(values: &EnumValues) -> String {
    let mut s = String::from("Values: ");
    for (i, (v, d)) in values.iter_described().enumerate() {
        if i > 0 {
            s.push_str("; ");
        }
        match v {
            ScalarRef::Str(v) => s.push_str(v),
            other => {
                let _ = write!(s, "{other}");
            }
        }
        if let Some(d) = d {
            s.push_str(" = ");
            s.push_str(d.trim_end().trim_end_matches('.'));
        }
    }
    s.push('.');
    s
}

/// Whether a regular expression uses lookaround or backreferences, which some strict dialects
/// reject.
pub fn has_lookaround(pattern: &str) -> bool {
    let b = pattern.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                if b.get(i + 1).is_some_and(|c| c.is_ascii_digit() && *c != b'0')
                    || b.get(i + 1) == Some(&b'k')
                {
                    return true;
                }
                i += 2;
                continue;
            }
            b'(' if b.get(i + 1) == Some(&b'?') => {
                let rest = &b[i + 2..];
                if rest.starts_with(b"=")
                    || rest.starts_with(b"!")
                    || rest.starts_with(b"<=")
                    || rest.starts_with(b"<!")
                {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// The number of schema nodes of a descriptor (parameters, definitions and output, each
/// definition counted once), counted without recursion.
fn ir_nodes(tool: &ToolDescriptor) -> usize {
    let mut stack: Vec<&Schema> = tool.params.iter().map(|p| &p.schema).collect();
    stack.extend(tool.definitions.iter().map(|d| &d.schema));
    if let Additional::Typed(s) = &tool.additional {
        stack.push(s);
    }
    if let Some(o) = &tool.output {
        stack.push(o);
    }
    let mut n = 0;
    while let Some(s) = stack.pop() {
        n += 1;
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
    n
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::descriptor::{Param, ToolDescriptor};
    use crate::render::{LossPolicy, Rendered};
    #[test]
    fn floats_are_written_as_serde_json_writes_them() {
        for f in [1.0, 0.5, -3.25, 1e20, 1.5e-7, f64::MAX] {
            assert_eq!(float_text(f), serde_json::to_string(&f).unwrap());
        }
        assert_eq!(float_text(f64::NAN), "null");
    }

    #[test]
    fn reference_targets_are_escaped() {
        assert_eq!(ref_target("#/$defs/", "Node"), "#/$defs/Node");
        assert_eq!(ref_target("#/$defs/", "a/b~c d"), "#/$defs/a~1b~0c%20d");
        assert_eq!(ref_target("#/$defs/", "é"), "#/$defs/%C3%A9");
    }

    #[test]
    fn lookaround_is_detected() {
        assert!(has_lookaround("^(?=.*\\d).+$"));
        assert!(has_lookaround("(?<!x)y"));
        assert!(has_lookaround("(a)\\1"));
        assert!(!has_lookaround("^[a-z]+(?:-[a-z]+)*$"));
        assert!(!has_lookaround("\\d{3}"));
    }

    static WEATHER: ToolDescriptor =
        ToolDescriptor::new("get_weather").description("Get the weather.").params(
            const {
                &[
                    Param::string("city"),
                    Param::integer("days")
                        .description("Number of days")
                        .range(1, 10)
                        .default_int(3),
                    Param::enumeration("unit", &["c", "f"]).nullable().optional(),
                ]
            },
        );

    fn render(tool: &ToolDescriptor, opts: &SchemaOptions, policy: LossPolicy) -> Rendered {
        let mut ctx = RenderCtx::new(tool, policy);
        let mut out = JsonWriter::new();
        write_input_schema(&mut out, tool, opts, &mut ctx, &JsonPointer::root()).unwrap();
        ctx.finish(out)
    }

    #[test]
    fn plain_json_schema_keeps_everything() {
        let r = render(&WEATHER, &SchemaOptions::JSON_SCHEMA, LossPolicy::Refuse);
        assert_eq!(
            r.json(),
            r#"{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","description":"Number of days","minimum":1,"maximum":10,"default":3},"unit":{"type":["string","null"],"enum":["c","f",null]}},"required":["city"],"additionalProperties":false}"#
        );
        assert!(r.report().is_empty());
    }

    #[test]
    fn strict_lowering_moves_defaults_and_bounds_and_reports_them() {
        let opts = SchemaOptions {
            keywords: Keywords::ALL
                .without(Keyword::Default)
                .without(Keyword::Minimum)
                .without(Keyword::Maximum),
            all_required: true,
            close_objects: true,
            null_style: NullStyle::AnyOf,
            ..SchemaOptions::JSON_SCHEMA
        };
        let r = render(&WEATHER, &opts, LossPolicy::Refuse);
        assert_eq!(
            r.json(),
            r#"{"type":"object","properties":{"city":{"type":"string"},"days":{"anyOf":[{"type":"integer"},{"type":"null"}],"description":"Number of days. Default: 3. Minimum: 1. Maximum: 10."},"unit":{"anyOf":[{"type":"string","enum":["c","f"]},{"type":"null"}]}},"required":["city","days","unit"],"additionalProperties":false}"#
        );
        let kinds: Vec<_> =
            r.report().iter().map(|c| (c.param.as_str(), c.keyword.as_ref())).collect();
        assert_eq!(
            kinds,
            [
                ("days", "required"),
                ("days", "default"),
                ("days", "minimum"),
                ("days", "maximum"),
                ("unit", "required")
            ]
        );
        assert_eq!(r.report().changes[1].pointer, "/properties/days");
        assert!(r.report().is_lossless());
    }

    fn imported(schema: serde_json::Value) -> ToolDescriptor {
        let mut d = ToolDescriptor::new("imported");
        crate::json_schema::import_input(&schema).unwrap().value.apply_to(&mut d);
        d
    }

    fn try_render(
        tool: &ToolDescriptor,
        opts: &SchemaOptions,
        policy: LossPolicy,
    ) -> Result<Rendered, RenderError> {
        let mut ctx = RenderCtx::new(tool, policy);
        let mut out = JsonWriter::new();
        write_input_schema(&mut out, tool, opts, &mut ctx, &JsonPointer::root())?;
        Ok(ctx.finish(out))
    }

    const STRICT: SchemaOptions =
        SchemaOptions { close_objects: true, verbatim: false, ..SchemaOptions::JSON_SCHEMA };

    #[test]
    fn strict_closes_an_unstated_object_without_loss_and_refuses_to_close_a_stated_open_one() {
        let unstated = imported(serde_json::json!({
            "type": "object",
            "properties": {"tags": {"type": "object", "properties": {"a": {"type": "string"}}}}
        }));
        let plain = render(&unstated, &SchemaOptions::JSON_SCHEMA, LossPolicy::Refuse);
        assert_eq!(
            plain.json(),
            r#"{"type":"object","properties":{"tags":{"type":"object","properties":{"a":{"type":"string"}}}}}"#
        );
        let strict = render(&unstated, &STRICT, LossPolicy::Refuse);
        assert_eq!(
            strict.json(),
            r#"{"type":"object","properties":{"tags":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}},"additionalProperties":false}"#
        );
        let changes: Vec<_> =
            strict.report().iter().map(|c| (c.pointer.as_str(), c.kind, c.lossy)).collect();
        assert_eq!(
            changes,
            [
                ("/properties/tags/additionalProperties", ChangeKind::Closed, false),
                ("/additionalProperties", ChangeKind::Closed, false),
            ]
        );
        let open = imported(serde_json::json!({"type": "object", "additionalProperties": true}));
        let e = try_render(&open, &STRICT, LossPolicy::Refuse).unwrap_err();
        assert_eq!(e.pointer, "/additionalProperties");
        assert!(try_render(&open, &STRICT, LossPolicy::Allow).unwrap().report().changes[0].lossy);
    }

    #[test]
    fn a_closed_object_is_reported_where_additional_properties_cannot_be_written() {
        let closed = imported(serde_json::json!({
            "type": "object",
            "properties": {"tags": {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}},
            "additionalProperties": false
        }));
        let opts = SchemaOptions { additional_properties: false, ..SchemaOptions::JSON_SCHEMA };
        let r = render(&closed, &opts, LossPolicy::Refuse);
        assert_eq!(
            r.json(),
            r#"{"type":"object","properties":{"tags":{"type":"object","properties":{"a":{"type":"string"}}}}}"#
        );
        let changes: Vec<_> = r
            .report()
            .iter()
            .map(|c| (c.pointer.as_str(), c.param.as_str(), c.kind, c.keyword.as_ref(), c.lossy))
            .collect();
        assert_eq!(
            changes,
            [
                (
                    "/properties/tags/additionalProperties",
                    "tags",
                    ChangeKind::Dropped,
                    "additionalProperties",
                    false
                ),
                ("/additionalProperties", "", ChangeKind::Dropped, "additionalProperties", false),
            ]
        );
        // An object that states nothing loses nothing.
        let unstated = imported(serde_json::json!({"type": "object", "properties": {"a": {}}}));
        assert!(render(&unstated, &opts, LossPolicy::Refuse).report().is_empty());
    }

    #[test]
    fn kept_keywords_are_verbatim_for_json_schema_and_a_lossy_description_elsewhere() {
        let tool = imported(serde_json::json!({
            "type": "object",
            "properties": {"n": {"type": "integer", "not": {"const": 3}}},
            "additionalProperties": false
        }));
        let plain = render(&tool, &SchemaOptions::JSON_SCHEMA, LossPolicy::Refuse);
        assert_eq!(
            plain.json(),
            r#"{"type":"object","properties":{"n":{"type":"integer","not":{"const":3}}},"additionalProperties":false}"#
        );
        assert!(plain.report().is_empty());
        let lowered = render(&tool, &STRICT, LossPolicy::Allow);
        assert_eq!(
            lowered.json(),
            r#"{"type":"object","properties":{"n":{"type":"integer","description":"not: {\"const\":3}."}},"additionalProperties":false}"#
        );
        let e = try_render(&tool, &STRICT, LossPolicy::Refuse).unwrap_err();
        assert_eq!((e.pointer.as_str(), e.param.as_str()), ("/properties/n", "n"));
    }

    #[test]
    fn an_overlapping_one_of_is_kept_and_lowered_to_any_of_with_a_lossy_report() {
        let tool = imported(serde_json::json!({
            "type": "object",
            "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}},
            "additionalProperties": false
        }));
        let plain = render(&tool, &SchemaOptions::JSON_SCHEMA, LossPolicy::Refuse);
        assert_eq!(
            plain.json(),
            r#"{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"string","maxLength":3}]}},"additionalProperties":false}"#
        );
        let lowered = render(&tool, &STRICT, LossPolicy::Allow);
        assert!(lowered.json().contains(r#""anyOf":[{"type":"string"}"#), "{}", lowered.json());
        assert!(!lowered.report().is_lossless());
        // Disjoint variants mean the same as `anyOf`: no report.
        let disjoint = imported(serde_json::json!({
            "type": "object",
            "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
            "additionalProperties": false
        }));
        assert!(render(&disjoint, &STRICT, LossPolicy::Refuse).report().is_empty());
    }

    fn scalar_enums() -> ToolDescriptor {
        imported(serde_json::json!({"type": "object", "properties": {
            "i": {"type": "integer", "enum": [1, 2]},
            "m": {"type": ["string", "integer", "null"], "enum": ["a", 1, null]},
            "s": {"type": "string", "enum": ["x"]}
        }}))
    }

    #[test]
    fn scalar_enums_are_written_verbatim_where_the_dialect_takes_them() {
        let r = render(&scalar_enums(), &SchemaOptions::JSON_SCHEMA, LossPolicy::Refuse);
        assert_eq!(
            r.json(),
            r#"{"type":"object","properties":{"i":{"type":"integer","enum":[1,2]},"m":{"type":["string","integer","null"],"enum":["a",1,null]},"s":{"type":"string","enum":["x"]}}}"#
        );
        assert!(r.report().is_empty());
        // Without type arrays a mixed enum has no `type`; null is a variant of its own.
        let opts = SchemaOptions { null_style: NullStyle::AnyOf, ..SchemaOptions::JSON_SCHEMA };
        let r = render(&scalar_enums(), &opts, LossPolicy::Refuse);
        assert!(
            r.json().contains(r#""m":{"anyOf":[{"enum":["a",1]},{"type":"null"}]}"#),
            "{}",
            r.json()
        );
        let changes: Vec<_> =
            r.report().iter().map(|c| (c.param.as_str(), c.keyword.as_ref(), c.lossy)).collect();
        assert_eq!(changes, [("m", "type", false)]);
    }

    #[test]
    fn string_only_dialects_get_the_values_in_the_description_as_a_lossy_change() {
        let opts = SchemaOptions {
            scalar_enums: false,
            null_style: NullStyle::OpenApi,
            ..SchemaOptions::JSON_SCHEMA
        };
        let r = render(&scalar_enums(), &opts, LossPolicy::Allow);
        assert_eq!(
            r.json(),
            r#"{"type":"object","properties":{"i":{"type":"integer","description":"Values: 1; 2."},"m":{"type":"string","nullable":true,"description":"Values: a; 1."},"s":{"type":"string","enum":["x"]}}}"#
        );
        let lossy: Vec<_> = r
            .report()
            .iter()
            .filter(|c| c.lossy)
            .map(|c| (c.param.as_str(), c.keyword.as_ref()))
            .collect();
        assert_eq!(lossy, [("i", "enum"), ("m", "enum")]);
        let e = try_render(&scalar_enums(), &opts, LossPolicy::Refuse).unwrap_err();
        assert!(e.to_string().contains("enum"), "{e}");
    }
}
