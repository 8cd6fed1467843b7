//! [`SchemaSource`]: the JSON text a descriptor's schemas were imported from, kept beside the
//! IR together with the IR they were imported as.
//!
//! The IR normalises what it reads (`{"type": "number", "enum": [1, 2]}` becomes an integer
//! enum, a type array is put in one order, draft-07 spellings become 2020-12 ones), so a schema
//! written back from the IR is equivalent to the one read but not the same JSON. A renderer
//! whose provider takes full JSON Schema (MCP) can write the kept text instead, which gives back
//! exactly what was imported. It may only do so while the IR is still what that text was
//! imported as: the source keeps a fingerprint of those IR parts and compares it with the
//! descriptor's at render time, so any edit (an `Override`, a strip, a user changing a public
//! field) makes the renderer fall back to the IR, with no flag for each edit to clear.
//!
//! The fingerprint is 128 bits of SipHash over the parts' serde form, which holds every field
//! of the IR (the descriptor's serde round trip is exact), so two IRs that differ never share
//! one but by a hash collision. It costs 32 bytes however large the schema, where a copy of the
//! IR would double what an imported descriptor holds (some 220 bytes per schema node).
//!
//! Owns only the container and that comparison; the spec reader ([`crate::spec`]) fills it and
//! writes the kept text back into spec files, the MCP renderer writes it on the wire.

use std::borrow::Cow;
use std::fmt;
use std::hash::{DefaultHasher, Hasher};
use std::io;
use std::sync::Arc;

use serde::Serialize;

use crate::schema::{Additional, Definition, Kept, Param, SchemaRef};

/// The JSON text of the input and output schemas a descriptor was imported from, with a
/// fingerprint of the IR they were imported as (see [`ToolDescriptor::source_input_schema`]).
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

/// What a source holds: the texts and the fingerprints of the IR they were imported as.
#[derive(PartialEq)]
struct Source {
    input: Option<Box<str>>,
    output: Option<Box<str>>,
    input_ir: Option<Fingerprint>,
    output_ir: Option<Fingerprint>,
}

/// The IR parts of a descriptor that its schemas are written from.
pub(crate) struct SchemaParts<'a> {
    pub(crate) params: &'a Cow<'static, [Param]>,
    pub(crate) additional: &'a Additional,
    pub(crate) definitions: &'a Cow<'static, [Definition]>,
    pub(crate) input_kept: &'a [Kept],
    pub(crate) output: &'a Option<SchemaRef>,
}

impl SchemaParts<'_> {
    /// The input side: parameters, what the object accepts beyond them, definitions, kept
    /// keywords.
    fn input(&self) -> Option<Fingerprint> {
        Fingerprint::of(&(self.params, self.additional, self.definitions, self.input_kept))
    }

    /// The output side: the output schema and the definitions it may refer to.
    fn output(&self) -> Option<Fingerprint> {
        Fingerprint::of(&(self.output, self.definitions))
    }
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
            input_ir: input.as_ref().and_then(|_| parts.input()),
            output_ir: output.as_ref().and_then(|_| parts.output()),
            input: input.map(String::into_boxed_str),
            output: output.map(String::into_boxed_str),
        })))
    }

    /// The kept input schema text, when the input side of `parts` is still what it was imported
    /// as (parameters, what the object accepts beyond them, definitions, kept keywords).
    pub(crate) fn input_for(&self, parts: SchemaParts<'_>) -> Option<&str> {
        let s = self.0.as_deref()?;
        let text = s.input.as_deref()?;
        (s.input_ir.is_some() && s.input_ir == parts.input()).then_some(text)
    }

    /// The kept output schema text, when the output side of `parts` is still what it was
    /// imported as (the output schema and the definitions).
    pub(crate) fn output_for(&self, parts: SchemaParts<'_>) -> Option<&str> {
        let s = self.0.as_deref()?;
        let text = s.output.as_deref()?;
        (s.output_ir.is_some() && s.output_ir == parts.output()).then_some(text)
    }
}

/// 128 bits of SipHash over a value's compact JSON serde form, written straight into the
/// hashers (nothing is allocated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fingerprint(u64, u64);

impl Fingerprint {
    /// `None` when the value does not serialize (it always does for the IR; a value that did
    /// not would never match, and the renderer would write the IR).
    fn of<T: Serialize + ?Sized>(value: &T) -> Option<Fingerprint> {
        let mut hashers = TwoHashers(DefaultHasher::new(), DefaultHasher::new());
        // Two hashers that differ from their first byte on: two independent 64-bit hashes.
        hashers.1.write_u8(0xa5);
        serde_json::to_writer(&mut hashers, value).ok()?;
        Some(Fingerprint(hashers.0.finish(), hashers.1.finish()))
    }
}

struct TwoHashers(DefaultHasher, DefaultHasher);

impl io::Write for TwoHashers {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.write(bytes);
        self.1.write(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
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
