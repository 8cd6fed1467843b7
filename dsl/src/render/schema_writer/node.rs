//! One schema node: its `type` (with the null style of the dialect), then the kind's own
//! keywords and children (string bounds, numbers, `enum`, `items`, `anyOf`). Objects are in
//! `object.rs`, references in `reference.rs`, which keywords are kept in `plan.rs`.

use super::annotations::{Ann, write_description};
use super::{NESTING_GUARD, SchemaWriter, char_count, inline_budget, ir_nodes};
use super::{integer_keywords, number_keywords};
use crate::render::json_writer::{JsonWriter, key};
use crate::render::lowering::enums_in_text::{self, EnumForm};
use crate::render::lowering::{clamp_min_items, one_of_as_any_of, string_enums};
use crate::render::report::{Change, ChangeKind, RenderError, RenderRule};
use crate::render::schema_options::{Keyword, Keywords, NullStyle};
use crate::schema::{
    AnyOfSchema, Combine, EnumValues, ListSchema, ScalarRef, Schema, SchemaKind, StringSchema,
};

/// What a schema of any value is written as where every schema needs a `type`
/// ([`SchemaOptions::needs_type`](crate::render::SchemaOptions::needs_type)).
static ANY_SCALAR: SchemaKind = SchemaKind::AnyOf(AnyOfSchema {
    variants: std::borrow::Cow::Borrowed(&[
        Schema::string(),
        Schema::float(),
        Schema::boolean(),
        Schema::null(),
    ]),
    combine: Combine::AnyOf,
});

impl<'a> SchemaWriter<'a> {
    /// The single `type` a node is written with, if it has one: an enum whose values have
    /// several types has none, unless the dialect cannot say so and it is lowered to the type of
    /// its first value.
    pub(super) fn kind_type(&self, kind: &SchemaKind) -> Option<&'static str> {
        match kind {
            SchemaKind::Enum(e) => match enums_in_text::form(&e.values, self.opts) {
                EnumForm::Strings => Some("string"),
                EnumForm::InText => {
                    let types = e.values.json_types();
                    Some(if types.iter().all(|t| *t == "integer" || *t == "number") {
                        types[0]
                    } else if types.contains(&"string") {
                        "string"
                    } else {
                        types.first().copied().unwrap_or("string")
                    })
                }
                EnumForm::AsIs => kind_type(kind),
            },
            other => kind_type(other),
        }
    }

    /// Writes the JSON type `name` as a string value, upper-cased where the dialect wants it
    /// (Gemini's OpenAPI form). The names are known, so each is written with its quotes in
    /// one copy rather than checked for escapes.
    pub(super) fn type_value(&self, out: &mut JsonWriter, name: &'static str) {
        let (lower, upper) = match name {
            "string" => ("\"string\"", "\"STRING\""),
            "integer" => ("\"integer\"", "\"INTEGER\""),
            "number" => ("\"number\"", "\"NUMBER\""),
            "boolean" => ("\"boolean\"", "\"BOOLEAN\""),
            "null" => ("\"null\"", "\"NULL\""),
            "array" => ("\"array\"", "\"ARRAY\""),
            "object" => ("\"object\"", "\"OBJECT\""),
            other => return out.string(other),
        };
        out.quoted_string(if self.opts.upper_case_types { upper } else { lower });
    }

    pub(super) fn schema(
        &mut self,
        out: &mut JsonWriter,
        s: &'a Schema,
    ) -> Result<(), RenderError> {
        self.node(out, &s.kind, Ann::of(s), false)
    }

    /// Writes one node. `force_null` adds "or null" (optional made required in strict mode).
    pub(super) fn node(
        &mut self,
        out: &mut JsonWriter,
        kind: &'a SchemaKind,
        mut ann: Ann<'a>,
        force_null: bool,
    ) -> Result<(), RenderError> {
        self.check_nesting()?;
        ann.nullable |= force_null;
        if let SchemaKind::Ref(r) = kind {
            return self.reference(out, r, ann);
        }
        let kind = if matches!(kind, SchemaKind::Any) && self.opts.needs_type {
            self.record(Change::lossy(ChangeKind::Rewritten, "type").detail(
                "a schema of any value written as a string, number, boolean or null: the provider needs a `type` on every schema, so an array or an object is no longer accepted here",
            ))?;
            &ANY_SCALAR
        } else {
            kind
        };
        // Plan the description notes before writing anything.
        let mut notes = String::new();
        let kept = self.plan(kind, &ann, &mut notes)?;
        let shape = self.shape(kind, kept, ann.nullable);
        out.begin_object();
        if shape.wrapper {
            self.null_wrapper(out, kind, kept)?;
            self.annotations(out, &ann, kept, &notes);
        } else {
            if shape.null_in_type {
                self.stats.unions += 1;
            }
            if let Some(t) = ann.title.filter(|_| kept.contains(Keyword::Title)) {
                key!(out, "title");
                out.string(t);
            }
            self.body_with_description(out, kind, shape, &ann, &notes)?;
        }
        out.end_object();
        Ok(())
    }

    /// Refuses a node nested too deeply, or one more inlined node past the inlining budget
    /// (naming the outermost definition being inlined: the expansion starts there).
    fn check_nesting(&mut self) -> Result<(), RenderError> {
        if self.inlining.len() + self.depth > NESTING_GUARD {
            return Err(self.err(RenderRule::Limit, "schemas nest too deeply to render"));
        }
        let Some(name) = self.inlining.first().copied() else { return Ok(()) };
        self.inlined += 1;
        let tool = self.tool;
        let budget = *self.inline_budget.get_or_insert_with(|| inline_budget(tool));
        if self.inlined > budget {
            return Err(self.err(
                RenderRule::Limit,
                format_args!(
                    "inlining definition `/$defs/{}` would write more than {} schema nodes for a \
                     descriptor of {}: its references fan out (each level refers to the one \
                     below several times)",
                    crate::json_schema::pointer_token(name),
                    budget,
                    ir_nodes(self.tool)
                ),
            ));
        }
        Ok(())
    }

    /// How a node of `kind` says "or null" under the dialect's null style.
    fn shape(&self, kind: &SchemaKind, kept: Keywords, nullable: bool) -> Shape {
        let style = self.opts.null_style;
        let union = matches!(kind, SchemaKind::AnyOf(_));
        let null_in_type = nullable
            && !matches!(kind, SchemaKind::Null | SchemaKind::AnyOf(_))
            && style == NullStyle::TypeArray;
        let wrap_null = nullable
            && !matches!(kind, SchemaKind::Null)
            && (style == NullStyle::AnyOf || (style == NullStyle::TypeArray && union));
        // An `anyOf` node gets its null as one more variant rather than a wrapper.
        let null_variant = wrap_null && union;
        Shape { kept, nullable, null_in_type, null_variant, wrapper: wrap_null && !null_variant }
    }

    /// `"anyOf": [<the node>, {"type": "null"}]`, the node's annotations left to the caller.
    fn null_wrapper(
        &mut self,
        out: &mut JsonWriter,
        kind: &'a SchemaKind,
        kept: Keywords,
    ) -> Result<(), RenderError> {
        self.stats.unions += 1;
        key!(out, "anyOf");
        out.begin_array();
        out.begin_object();
        if let Some(t) = self.kind_type(kind) {
            key!(out, "type");
            self.type_value(out, t);
        }
        self.body(out, kind, Shape::plain(kept))?;
        out.end_object();
        out.begin_object();
        key!(out, "type");
        self.type_value(out, "null");
        out.end_object();
        out.end_array();
        Ok(())
    }

    /// `type` first, then the description, then the kind's keywords, then the annotations.
    pub(super) fn body_with_description(
        &mut self,
        out: &mut JsonWriter,
        kind: &'a SchemaKind,
        shape: Shape,
        ann: &Ann<'a>,
        notes: &str,
    ) -> Result<(), RenderError> {
        self.write_type(out, kind, shape.null_in_type);
        if self.opts.null_style == NullStyle::OpenApi
            && ann.nullable
            && !matches!(kind, SchemaKind::Null)
        {
            key!(out, "nullable");
            out.bool(true);
        }
        write_description(out, ann.description, notes);
        self.body(out, kind, shape)?;
        self.trailing(out, ann, shape.kept);
        Ok(())
    }

    /// The node's `type`, with `"null"` in a type array where `null_in_type`.
    fn write_type(&self, out: &mut JsonWriter, kind: &SchemaKind, null_in_type: bool) {
        let type_name = self.kind_type(kind);
        if let SchemaKind::Enum(e) = kind
            && type_name.is_none()
            && self.opts.null_style == NullStyle::TypeArray
        {
            // A mixed enum under a dialect with type arrays: every type of its values.
            key!(out, "type");
            out.begin_array();
            for t in e.values.json_types() {
                self.type_value(out, t);
            }
            if null_in_type {
                self.type_value(out, "null");
            }
            out.end_array();
        } else if let Some(t) = type_name {
            key!(out, "type");
            if null_in_type {
                out.begin_array();
                self.type_value(out, t);
                self.type_value(out, "null");
                out.end_array();
            } else {
                self.type_value(out, t);
            }
        }
    }

    /// The kind's keywords and children (no `type`, no annotations).
    pub(super) fn body(
        &mut self,
        out: &mut JsonWriter,
        kind: &'a SchemaKind,
        shape: Shape,
    ) -> Result<(), RenderError> {
        let tuple_items = std::mem::take(&mut self.tuple_items);
        let kept = shape.kept;
        match kind {
            SchemaKind::String(s) => write_string(out, s, kept),
            SchemaKind::Integer(n) => {
                write_format(out, n.format.as_deref(), kept);
                let bounds = integer_keywords(n, kept.contains(Keyword::Format));
                write_number(out, bounds, kept, |o, v| o.int(v));
            }
            SchemaKind::Float(n) => {
                write_format(out, n.format.as_deref(), kept);
                write_number(out, number_keywords(n), kept, |o, v| o.float(v));
            }
            SchemaKind::Boolean | SchemaKind::Null | SchemaKind::Any | SchemaKind::Ref(_) => {}
            SchemaKind::Enum(e) => self.write_enum(out, &e.values, shape.nullable),
            SchemaKind::List(l) => self.write_list(out, l, kept, tuple_items)?,
            SchemaKind::Object(o) => self.object_body(out, &o.properties, &o.additional)?,
            SchemaKind::AnyOf(a) => self.write_any_of(out, a, shape.null_variant)?,
        }
        Ok(())
    }

    /// `enum`: its values as they are or as strings ([`Pass::StringEnums`](crate::render::Pass::StringEnums)),
    /// with `null` where the node is nullable under type arrays; nothing where the values went
    /// into the description.
    fn write_enum(&mut self, out: &mut JsonWriter, values: &EnumValues, nullable: bool) {
        let as_strings = match enums_in_text::form(values, self.opts) {
            EnumForm::InText => return,
            form => form == EnumForm::Strings,
        };
        self.stats.enum_values += values.len();
        let mut chars = 0;
        key!(out, "enum");
        out.begin_array();
        for v in values.iter() {
            match v {
                ScalarRef::Str(v) => {
                    chars += char_count(v);
                    out.string(v);
                }
                other if as_strings => {
                    let text = string_enums::wire_text(other);
                    chars += char_count(&text);
                    out.string(&text);
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
        if values.len() > self.stats.largest_enum {
            self.stats.largest_enum = values.len();
            self.stats.largest_enum_chars = chars;
        }
    }

    /// `items` (unless kept keywords stand for them) and the item counts.
    fn write_list(
        &mut self,
        out: &mut JsonWriter,
        l: &'a ListSchema,
        kept: Keywords,
        tuple_items: bool,
    ) -> Result<(), RenderError> {
        if !tuple_items {
            let p = self.path.mark();
            self.path.key("items");
            self.path.suffix("[]");
            key!(out, "items");
            let in_items = std::mem::replace(&mut self.in_items, true);
            let written = self.schema(out, &l.items);
            self.in_items = in_items;
            written?;
            self.path.restore(p);
        }
        if kept.contains(Keyword::MinItems)
            && let Some(v) = l.min_items
        {
            key!(out, "minItems");
            out.uint(clamp_min_items::written(v, self.opts));
        }
        if kept.contains(Keyword::MaxItems)
            && let Some(v) = l.max_items
        {
            key!(out, "maxItems");
            out.uint(v);
        }
        if kept.contains(Keyword::UniqueItems) && l.unique {
            key!(out, "uniqueItems");
            out.bool(true);
        }
        Ok(())
    }

    /// `anyOf` (or `oneOf`, see [`Pass::OneOfAsAnyOf`](crate::render::Pass::OneOfAsAnyOf)),
    /// with a `null` variant where the node is nullable and has none.
    fn write_any_of(
        &mut self,
        out: &mut JsonWriter,
        a: &'a AnyOfSchema,
        null_variant: bool,
    ) -> Result<(), RenderError> {
        self.stats.unions += 1;
        let keyword = one_of_as_any_of::keyword(a.combine, self.opts);
        let p = self.path.mark();
        self.path.key(keyword);
        out.key(keyword);
        out.begin_array();
        for (i, v) in a.variants.iter().enumerate() {
            let p2 = self.path.mark();
            self.path.index(i);
            self.path.variant(i);
            self.schema(out, v)?;
            self.path.restore(p2);
        }
        let has_null = a.variants.iter().any(|v| matches!(v.kind, SchemaKind::Null));
        if null_variant && !has_null {
            out.begin_object();
            key!(out, "type");
            self.type_value(out, "null");
            out.end_object();
        }
        out.end_array();
        self.path.restore(p);
        Ok(())
    }
}

/// What `node` decided about one node before writing it: the keywords kept, and how it says
/// "or null".
#[derive(Clone, Copy)]
pub(super) struct Shape {
    kept: Keywords,
    /// The node is nullable (a nullable enum lists `null` under type arrays).
    nullable: bool,
    /// `"null"` goes into a `type` array.
    null_in_type: bool,
    /// A union gets `{"type": "null"}` as one more variant.
    null_variant: bool,
    /// The node is wrapped as `anyOf: [node, null]`.
    wrapper: bool,
}

impl Shape {
    /// A node that says nothing about null.
    pub(super) const fn plain(kept: Keywords) -> Shape {
        Shape { kept, nullable: false, null_in_type: false, null_variant: false, wrapper: false }
    }
}

fn write_string(out: &mut JsonWriter, s: &StringSchema, kept: Keywords) {
    if kept.contains(Keyword::Format)
        && let Some(f) = &s.format
    {
        key!(out, "format");
        out.string(f);
    }
    if kept.contains(Keyword::Pattern)
        && let Some(p) = &s.pattern
    {
        key!(out, "pattern");
        out.string(p);
    }
    if kept.contains(Keyword::MinLength)
        && let Some(v) = s.min_length
    {
        key!(out, "minLength");
        out.uint(v);
    }
    if kept.contains(Keyword::MaxLength)
        && let Some(v) = s.max_length
    {
        key!(out, "maxLength");
        out.uint(v);
    }
}

#[inline]
fn kind_type(kind: &SchemaKind) -> Option<&'static str> {
    match kind {
        SchemaKind::String(_) => Some("string"),
        // Under one `type` only when the values share one (see `SchemaWriter::kind_type`).
        SchemaKind::Enum(e) if e.values.all_strings() => Some("string"),
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

fn write_format(out: &mut JsonWriter, format: Option<&str>, kept: Keywords) {
    if let Some(f) = format
        && kept.contains(Keyword::Format)
    {
        key!(out, "format");
        out.string(f);
    }
}

#[inline]
fn write_number<T: Copy>(
    out: &mut JsonWriter,
    bounds: [(Keyword, Option<T>); 5],
    kept: Keywords,
    write: impl Fn(&mut JsonWriter, T),
) {
    for (k, v) in bounds {
        if let Some(v) = v
            && kept.contains(k)
        {
            out.static_key(k.json_key());
            write(out, v);
        }
    }
}
