//! [`SchemaSource`]: the JSON text a descriptor's schemas were imported from, kept beside the
//! IR together with the IR they were imported as.
//!
//! The IR normalises what it reads (`{"type": "number", "enum": [1, 2]}` becomes an integer
//! enum, a type array is put in one order, draft-07 spellings become 2020-12 ones), so a schema
//! written back from the IR is equivalent to the one read but not the same JSON. A renderer
//! whose provider takes full JSON Schema (MCP) can write the kept text instead, which gives back
//! exactly what was imported. It may only do so while the IR is still what that text was
//! imported as: the source keeps a copy of those IR parts and compares them with the
//! descriptor's at render time, so any edit (an `Override`, a strip, a user changing a public
//! field) makes the renderer fall back to the IR, with no flag for each edit to clear.
//!
//! Owns only the container and that comparison; the spec reader ([`crate::spec`]) fills it and
//! writes the kept text back into spec files, the MCP renderer writes it on the wire.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::schema::{Additional, Definition, Kept, Param, SchemaRef};

/// The JSON text of the input and output schemas a descriptor was imported from, with the IR
/// they were imported as (see [`ToolDescriptor::source_input_schema`]).
///
/// Filled by the spec reader ([`spec_from_value`](crate::spec_from_value) and every import
/// built on it: `tooldef import`, spec files, workspace files, `tooldef_mcp::import_tools`);
/// empty ([`SchemaSource::NONE`]) for descriptors built in Rust or deserialized.
///
/// Cloning is a reference-count increment. It is not serialized: the serde form of a descriptor
/// is its IR, and a spec file carries the source in its own schema fields
/// ([`spec_to_literal`](crate::spec_to_literal) writes the kept text there). It takes no part
/// in [`ToolDescriptor`]'s equality (an imported descriptor equals the one built in Rust with
/// the same IR), but two sources compare equal only when they hold the same texts and IR.
///
/// [`ToolDescriptor`]: crate::ToolDescriptor
/// [`ToolDescriptor::source_input_schema`]: crate::ToolDescriptor::source_input_schema
#[derive(Clone, Default, PartialEq)]
pub struct SchemaSource(Option<Arc<Source>>);

/// What a source holds: the texts and the IR parts they were imported as.
#[derive(PartialEq)]
struct Source {
    input: Option<Box<str>>,
    output: Option<Box<str>>,
    params: Cow<'static, [Param]>,
    additional: Additional,
    definitions: Cow<'static, [Definition]>,
    input_kept: Vec<Kept>,
    output_ir: Option<SchemaRef>,
}

/// The IR parts of a descriptor that its schemas are written from.
pub(crate) struct SchemaParts<'a> {
    pub(crate) params: &'a Cow<'static, [Param]>,
    pub(crate) additional: &'a Additional,
    pub(crate) definitions: &'a Cow<'static, [Definition]>,
    pub(crate) input_kept: &'a [Kept],
    pub(crate) output: &'a Option<SchemaRef>,
}

impl SchemaSource {
    /// No source: the schemas are written from the IR.
    pub const NONE: SchemaSource = SchemaSource(None);

    /// Whether no schema text is kept.
    pub fn is_none(&self) -> bool {
        self.0.as_ref().is_none_or(|s| s.input.is_none() && s.output.is_none())
    }

    /// The kept input schema text, whether or not the IR still matches it.
    pub fn input_text(&self) -> Option<&str> {
        self.0.as_ref()?.input.as_deref()
    }

    /// The kept output schema text, whether or not the IR still matches it.
    pub fn output_text(&self) -> Option<&str> {
        self.0.as_ref()?.output.as_deref()
    }

    /// Keeps `input` and `output` (compact JSON texts) as the source of the IR `parts` as they
    /// are now; `None` for both is [`SchemaSource::NONE`].
    pub(crate) fn new(
        parts: SchemaParts<'_>,
        input: Option<String>,
        output: Option<String>,
    ) -> Self {
        if input.is_none() && output.is_none() {
            return SchemaSource::NONE;
        }
        SchemaSource(Some(Arc::new(Source {
            input: input.map(String::into_boxed_str),
            output: output.map(String::into_boxed_str),
            params: parts.params.clone(),
            additional: parts.additional.clone(),
            definitions: parts.definitions.clone(),
            input_kept: parts.input_kept.to_vec(),
            output_ir: parts.output.clone(),
        })))
    }

    /// The kept input schema text, when the input side of `parts` is still what it was imported
    /// as (parameters, what the object accepts beyond them, definitions, kept keywords).
    pub(crate) fn input_for(&self, parts: SchemaParts<'_>) -> Option<&str> {
        let s = self.0.as_deref()?;
        let text = s.input.as_deref()?;
        let same = s.params == *parts.params
            && s.additional == *parts.additional
            && s.input_kept == parts.input_kept
            && s.definitions == *parts.definitions;
        same.then_some(text)
    }

    /// The kept output schema text, when the output side of `parts` is still what it was
    /// imported as (the output schema and the definitions).
    pub(crate) fn output_for(&self, parts: SchemaParts<'_>) -> Option<&str> {
        let s = self.0.as_deref()?;
        let text = s.output.as_deref()?;
        let same = s.output_ir == *parts.output && s.definitions == *parts.definitions;
        same.then_some(text)
    }
}

impl fmt::Debug for SchemaSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            None => f.write_str("SchemaSource::NONE"),
            Some(s) => f
                .debug_struct("SchemaSource")
                .field("input", &s.input)
                .field("output", &s.output)
                .finish_non_exhaustive(),
        }
    }
}
