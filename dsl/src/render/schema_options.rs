//! What a provider's JSON Schema dialect takes: [`SchemaOptions`] (the [`Keywords`] it keeps,
//! its [`NullStyle`], [`RefStyle`] and how [`Unsupported`] keywords are lowered), and the
//! [`SchemaStats`] a write reports.

use super::lowering::{Pass, Passes};
use super::names::NameRule;
use std::hash::Hash;

/// A JSON Schema keyword a dialect may or may not accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum Keyword {
    /// `title`.
    Title,
    /// `default`.
    Default,
    /// `examples`.
    Examples,
    /// `format`.
    Format,
    /// `pattern`.
    Pattern,
    /// `minLength`.
    MinLength,
    /// `maxLength`.
    MaxLength,
    /// `minimum`.
    Minimum,
    /// `maximum`.
    Maximum,
    /// `exclusiveMinimum`.
    ExclusiveMinimum,
    /// `exclusiveMaximum`.
    ExclusiveMaximum,
    /// `multipleOf`.
    MultipleOf,
    /// `minItems`.
    MinItems,
    /// `maxItems`.
    MaxItems,
    /// `uniqueItems`.
    UniqueItems,
}

impl Keyword {
    /// The keyword as spelled in JSON Schema (its row of
    /// [`SchemaKeyword`](crate::json_schema::SchemaKeyword)).
    pub const fn as_str(self) -> &'static str {
        crate::json_schema::keyword::RENDERED[self as usize].wire()
    }

    /// The keyword as an object key for [`JsonWriter::static_key`](super::JsonWriter).
    pub(crate) const fn json_key(self) -> super::StaticKey {
        use crate::json_key as key;
        match self {
            Keyword::Title => key!("title"),
            Keyword::Default => key!("default"),
            Keyword::Examples => key!("examples"),
            Keyword::Format => key!("format"),
            Keyword::Pattern => key!("pattern"),
            Keyword::MinLength => key!("minLength"),
            Keyword::MaxLength => key!("maxLength"),
            Keyword::Minimum => key!("minimum"),
            Keyword::Maximum => key!("maximum"),
            Keyword::ExclusiveMinimum => key!("exclusiveMinimum"),
            Keyword::ExclusiveMaximum => key!("exclusiveMaximum"),
            Keyword::MultipleOf => key!("multipleOf"),
            Keyword::MinItems => key!("minItems"),
            Keyword::MaxItems => key!("maxItems"),
            Keyword::UniqueItems => key!("uniqueItems"),
        }
    }

    /// How the keyword reads in a description note (`Minimum: 1.`).
    pub(super) const fn label(self) -> &'static str {
        match self {
            Keyword::Title => "Title",
            Keyword::Default => "Default",
            Keyword::Examples => "Examples",
            Keyword::Format => "Format",
            Keyword::Pattern => "Pattern",
            Keyword::MinLength => "Minimum length",
            Keyword::MaxLength => "Maximum length",
            Keyword::Minimum => "Minimum",
            Keyword::Maximum => "Maximum",
            Keyword::ExclusiveMinimum => "Greater than",
            Keyword::ExclusiveMaximum => "Less than",
            Keyword::MultipleOf => "Multiple of",
            Keyword::MinItems => "Minimum items",
            Keyword::MaxItems => "Maximum items",
            Keyword::UniqueItems => "Items must be unique",
        }
    }
}

/// A set of [`Keyword`]s (usable in `const`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Keywords(u32);

impl Keywords {
    /// No keyword.
    pub const NONE: Keywords = Keywords(0);
    /// Every keyword.
    pub const ALL: Keywords = Keywords((1 << crate::json_schema::keyword::RENDERED.len()) - 1);

    /// The set plus `k`.
    pub const fn with(self, k: Keyword) -> Keywords {
        Keywords(self.0 | (1 << k as u8))
    }

    /// The set without `k`.
    pub const fn without(self, k: Keyword) -> Keywords {
        Keywords(self.0 & !(1 << k as u8))
    }

    /// Whether `k` is in the set.
    pub const fn contains(self, k: Keyword) -> bool {
        self.0 & (1 << k as u8) != 0
    }

    /// Both sets together.
    #[must_use]
    pub const fn union(self, other: Keywords) -> Keywords {
        Keywords(self.0 | other.0)
    }

    /// The set without the keywords of `other`.
    #[must_use]
    pub const fn difference(self, other: Keywords) -> Keywords {
        Keywords(self.0 & !other.0)
    }
}

/// How a schema says "or null".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NullStyle {
    /// `"type": ["string", "null"]` where there is one type; `anyOf` with `{"type":"null"}` for
    /// unions and references.
    TypeArray,
    /// Always `"anyOf": [<schema>, {"type": "null"}]`.
    AnyOf,
    /// OpenAPI 3.0: `"nullable": true`.
    OpenApi,
}

/// Where named definitions go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RefStyle {
    /// `"$ref": "#/$defs/Name"` with `$defs` at the root (2020-12).
    Defs,
    /// `"$ref": "#/definitions/Name"` with `definitions` at the root (draft-07).
    Definitions,
    /// Every reference replaced by its definition; recursion is an error. The same as
    /// running [`Pass::InlineRefs`] (which the dialect's [`passes`](SchemaOptions::passes)
    /// then lists).
    Inline,
    /// References inlined as by [`Inline`](Self::Inline), except that a reference to a
    /// recursive definition inside `items` (or inside a definition) is written as
    /// `"$ref": "#/$defs/Name"`, with `$defs` at the root holding the definitions so referred
    /// to: the Ollama server keeps a root `$defs` and an `items` as any JSON, and drops a `$ref`
    /// in a property or an `anyOf` variant. Recursion anywhere else is an error.
    DefsInItems,
}

/// What happens to a keyword the dialect does not accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Unsupported {
    /// Written into the description (`Minimum: 1.`) and reported as lossless.
    Describe,
    /// Dropped and reported as lossy.
    Drop,
}

/// What a provider's JSON Schema dialect accepts, and how to lower the IR into it.
///
/// The facts of the dialect are fields; every change the writer makes to fit it is a named
/// lowering [`Pass`] in [`passes`](Self::passes), composed with [`with`](Self::with).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SchemaOptions {
    /// Keywords written as keywords; the others follow [`unsupported`](Self::unsupported)
    /// ([`Pass::KeywordsInText`]).
    pub keywords: Keywords,
    /// What happens to keywords outside [`keywords`](Self::keywords), to formats outside
    /// [`formats`](Self::formats) and to patterns the dialect rejects.
    pub unsupported: Unsupported,
    /// The formats accepted as `format`; `None` accepts any.
    pub formats: Option<&'static [&'static str]>,
    /// Whether a `pattern` may use lookaround or backreferences.
    pub pattern_lookaround: bool,
    /// How "or null" is written.
    pub null_style: NullStyle,
    /// Where definitions go (unless [`Pass::InlineRefs`] runs, which inlines every reference).
    pub refs: RefStyle,
    /// Whether a definition may (indirectly) reference itself.
    pub recursion: bool,
    /// The lowering passes the dialect runs wherever a schema needs them (see [`Pass`] for
    /// what each one does and its way back). [`Pass::KeywordsInText`] is not listed here: it
    /// follows from [`keywords`](Self::keywords), [`formats`](Self::formats) and
    /// [`pattern_lookaround`](Self::pattern_lookaround); nor is [`Pass::MapNames`], which is
    /// [`render_mapped`](super::render_mapped)'s.
    pub passes: Passes,
    /// `"properties": {}` written on objects without properties.
    pub empty_properties: bool,
    /// `"required": []` written on objects without required properties (always, under
    /// [`Pass::NullForAbsent`]).
    pub empty_required: bool,
    /// Type names in upper case (`"STRING"`), for Gemini `parameters`.
    pub upper_case_types: bool,
    /// Whether the root object of a tool's parameters may carry a `description`. Where not
    /// (Ollama's server keeps none there), what would be lowered into it (keywords of the root
    /// that import kept verbatim) goes into the tool's description instead:
    /// [`write_input_schema`](super::write_input_schema) leaves it out, and the renderer writes
    /// [`input_description`](super::input_description) as the tool's description.
    pub root_description: bool,
    /// Whether every schema must say what type it holds (a `type`, or a union or reference
    /// whose parts do): OpenAI strict refuses one without ("schema must have a 'type' key"), and
    /// the strict modes follow it. A schema that accepts any value (`{}`: an array without
    /// `items`, an `anyOf` variant, a value of any type) is then written as the union of the
    /// scalar types (string, number, boolean, null), a lossy reported change: arrays and objects
    /// are no longer accepted there.
    pub needs_type: bool,
    /// The rule every property name must follow (parameters, nested objects, definitions);
    /// `None` accepts any name. A name that breaks it is a [`RenderRule::Name`](super::RenderRule::Name) error.
    pub property_names: Option<NameRule>,
}

const FULL: Keywords = Keywords::ALL;

impl SchemaOptions {
    /// Plain JSON Schema 2020-12: everything kept, `$defs`, type arrays for null, no pass.
    pub const JSON_SCHEMA: SchemaOptions = SchemaOptions {
        keywords: FULL,
        unsupported: Unsupported::Describe,
        formats: None,
        pattern_lookaround: true,
        null_style: NullStyle::TypeArray,
        refs: RefStyle::Defs,
        recursion: true,
        passes: Passes::NONE,
        empty_properties: true,
        empty_required: false,
        upper_case_types: false,
        root_description: true,
        needs_type: false,
        property_names: None,
    };
}

impl SchemaOptions {
    /// These options with `pass` run wherever a schema needs it (added to
    /// [`passes`](Self::passes)). [`StringEnums`](Pass::StringEnums) brings
    /// [`EnumsInText`](Pass::EnumsInText) with it, for the enums whose values' strings do not
    /// tell them apart. [`KeywordsInText`](Pass::KeywordsInText) follows from
    /// [`keywords`](Self::keywords), [`formats`](Self::formats) and
    /// [`pattern_lookaround`](Self::pattern_lookaround), and [`MapNames`](Pass::MapNames) is
    /// [`render_mapped`](super::render_mapped)'s: both leave the options as they are.
    #[must_use]
    pub const fn with(mut self, pass: Pass) -> Self {
        match pass {
            // The descriptor rewrites of model profiles (`lowering/rewrite.rs`) run before the
            // writer, which has nothing to ask of them.
            Pass::KeywordsInText | Pass::MapNames | Pass::OpenAnyMaps | Pass::DropNeverVariants => {
            }
            Pass::StringEnums => {
                self.passes = self.passes.with(Pass::StringEnums).with(Pass::EnumsInText);
            }
            other => self.passes = self.passes.with(other),
        }
        self
    }

    /// These options with every pass of `passes` run ([`with`](Self::with), in
    /// [`Pass::ALL`] order).
    #[must_use]
    pub const fn with_passes(mut self, passes: Passes) -> Self {
        let mut i = 0;
        while i < Pass::ALL.len() {
            if passes.contains(Pass::ALL[i]) {
                self = self.with(Pass::ALL[i]);
            }
            i += 1;
        }
        self
    }

    /// Whether the writer runs `pass` wherever a schema needs it.
    #[inline]
    pub(crate) const fn runs(&self, pass: Pass) -> bool {
        self.passes.contains(pass)
    }

    /// The lowering passes this dialect runs wherever a schema needs them: [`passes`](Self::passes),
    /// [`KeywordsInText`](Pass::KeywordsInText) where it keeps fewer keywords, formats or
    /// patterns than JSON Schema, [`InlineRefs`](Pass::InlineRefs) under [`RefStyle::Inline`],
    /// and the string enums of [`NullStyle::OpenApi`] (see [`Pass`];
    /// [`Rendered::passes`](super::Rendered::passes) says which ones changed a given tool).
    pub const fn passes(&self) -> Passes {
        let mut p = self.passes;
        if matches!(self.null_style, NullStyle::OpenApi) {
            p = p.with(Pass::StringEnums).with(Pass::EnumsInText);
        }
        if matches!(self.refs, RefStyle::Inline) {
            p = p.with(Pass::InlineRefs);
        }
        if self.keywords.0 != Keywords::ALL.0 || self.formats.is_some() || !self.pattern_lookaround
        {
            p = p.with(Pass::KeywordsInText);
        }
        p
    }
}

impl Default for SchemaOptions {
    fn default() -> Self {
        SchemaOptions::JSON_SCHEMA
    }
}

/// Counts gathered while writing a schema, for providers' limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SchemaStats {
    /// Object properties written, all levels and definitions included.
    pub properties: usize,
    /// Properties not listed in their object's `required`.
    pub optional_properties: usize,
    /// Deepest object nesting (the root object is level 1).
    pub max_depth: usize,
    /// Enum values written, all enums together.
    pub enum_values: usize,
    /// Largest number of values in one enum.
    pub largest_enum: usize,
    /// Characters of the largest enum's values together.
    pub largest_enum_chars: usize,
    /// Characters of property names, definition names and enum values together.
    pub name_chars: usize,
    /// Unions written: `anyOf`s and type arrays.
    pub unions: usize,
    /// Definitions written under `$defs`.
    pub definitions: usize,
}

impl SchemaStats {
    /// Adds another schema's counts (for set-level limits).
    pub fn add(&mut self, o: &SchemaStats) {
        self.properties += o.properties;
        self.optional_properties += o.optional_properties;
        self.max_depth = self.max_depth.max(o.max_depth);
        self.enum_values += o.enum_values;
        if o.largest_enum > self.largest_enum {
            self.largest_enum = o.largest_enum;
            self.largest_enum_chars = o.largest_enum_chars;
        }
        self.name_chars += o.name_chars;
        self.unions += o.unions;
        self.definitions += o.definitions;
    }
}
