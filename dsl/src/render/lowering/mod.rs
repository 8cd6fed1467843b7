//! Lowering passes and the way back.
//!
//! Every change the schema writer makes to fit a provider is a named [`Pass`]; this module
//! defines each one next to its inverse, the step that gives a model's call back in the terms
//! of the descriptor that was rendered. A rendered tool whose lowering changed what a value
//! looks like on the wire keeps an [`Inverse`] ([`Rendered::inverse`]); the render outputs
//! ([`Rendered`], [`RenderedSet`], [`MappedSet`](super::MappedSet)) implement [`WayBack`], whose
//! [`restore`](WayBack::restore) a host applies to every [`ToolCall`] a provider crate maps from
//! the model's message, before dispatch.
//!
//! The contract these inverses keep, its exceptions and the table of passes are in the
//! [`render`](super) module's docs ("The way back").

//! Each pass is one small unit in its own file, named after it: what the writer asks it (does
//! it fire on this node, what is written), the note and the [`Change`](super::Change) it
//! records, and its inverse. The schema writer is the one walker over the subschemas: at each
//! node it asks the dialect's pass set ([`SchemaOptions::passes`](super::SchemaOptions)) and
//! these units, never a switch of its own. The passes whose inverse changes values
//! (`null_for_absent.rs`, `string_enums.rs`, and the name map) are undone by the walker of the
//! way back (`back.rs`, with a fast path on the text in `text.rs`); the others' inverse is the
//! identity, with dispatch enforcing the original meaning.

mod back;
pub(crate) mod clamp_min_items;
pub(crate) mod close_objects;
pub(crate) mod enums_in_text;
pub(crate) mod inline_refs;
pub(crate) mod kept_in_text;
pub(crate) mod keywords_in_text;
pub(crate) mod map_values_in_text;
pub(crate) mod null_for_absent;
pub(crate) mod one_of_as_any_of;
pub(crate) mod rewrite;
pub(crate) mod string_enums;
mod text;
pub(crate) mod wrap_ref_siblings;

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::renderer::{Rendered, RenderedSet};
use crate::descriptor::ToolDescriptor;
use crate::tool::{Arguments, ToolCall};

/// One named step of lowering a descriptor to a provider's schema dialect.
///
/// Which passes a dialect runs is its [`SchemaOptions`](super::SchemaOptions)' pass set
/// ([`SchemaOptions::with`](super::SchemaOptions::with),
/// [`SchemaOptions::passes`](super::SchemaOptions::passes)); which ones changed a given tool
/// is [`Rendered::passes`]. See [the way back](super#the-way-back) for each pass's inverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum Pass {
    /// Optional properties made required and nullable (OpenAI strict); back: a `null` where
    /// the descriptor does not accept `null` is read as absent.
    NullForAbsent,
    /// Enum values that are not strings sent as strings (Gemini's OpenAPI `parameters`);
    /// back: each string given back as its typed value.
    StringEnums,
    /// Tool and property names the provider refuses sent under safe names
    /// ([`render_mapped`](super::render_mapped)); back: the original names.
    MapNames,
    /// An enum the provider cannot list written as its type, with the values in the
    /// description; back: nothing (dispatch checks the enum).
    EnumsInText,
    /// `oneOf` written as `anyOf`; back: nothing (dispatch checks that exactly one variant
    /// matches).
    OneOfAsAnyOf,
    /// References replaced by their definitions; back: nothing (the value is the same).
    InlineRefs,
    /// A `$ref` with sibling keywords wrapped in `anyOf`; back: nothing.
    WrapRefSiblings,
    /// A map's value type written into the description; back: nothing (dispatch checks each
    /// value).
    MapValuesInText,
    /// Keywords the provider refuses written into the description, or dropped; back: nothing
    /// (dispatch checks them).
    KeywordsInText,
    /// Keywords import kept verbatim written into the description; back: nothing (dispatch
    /// checks them).
    KeptInText,
    /// `minItems` clamped to the largest the provider takes; back: nothing (dispatch checks
    /// the bound).
    ClampMinItems,
    /// Objects closed with `additionalProperties: false`; back: nothing.
    CloseObjects,
    /// A map of any value (`additionalProperties: {}`) written as an open object
    /// (`additionalProperties: true`), for models that refuse `{}` there; back: nothing (the
    /// same values are valid).
    OpenAnyMaps,
    /// `anyOf` variants that accept no value (zod's `{"not": {}}`) left out, for models that
    /// refuse them; back: nothing (the same values are valid).
    DropNeverVariants,
}

impl Pass {
    /// Every pass, in the order they are listed above.
    pub const ALL: [Pass; 14] = [
        Pass::NullForAbsent,
        Pass::StringEnums,
        Pass::MapNames,
        Pass::EnumsInText,
        Pass::OneOfAsAnyOf,
        Pass::InlineRefs,
        Pass::WrapRefSiblings,
        Pass::MapValuesInText,
        Pass::KeywordsInText,
        Pass::KeptInText,
        Pass::ClampMinItems,
        Pass::CloseObjects,
        Pass::OpenAnyMaps,
        Pass::DropNeverVariants,
    ];

    /// A short stable name (`null-for-absent`).
    pub const fn name(self) -> &'static str {
        match self {
            Pass::NullForAbsent => "null-for-absent",
            Pass::StringEnums => "string-enums",
            Pass::MapNames => "map-names",
            Pass::EnumsInText => "enums-in-text",
            Pass::OneOfAsAnyOf => "one-of-as-any-of",
            Pass::InlineRefs => "inline-refs",
            Pass::WrapRefSiblings => "wrap-ref-siblings",
            Pass::MapValuesInText => "map-values-in-text",
            Pass::KeywordsInText => "keywords-in-text",
            Pass::KeptInText => "kept-in-text",
            Pass::ClampMinItems => "clamp-min-items",
            Pass::CloseObjects => "close-objects",
            Pass::OpenAnyMaps => "open-any-maps",
            Pass::DropNeverVariants => "drop-never-variants",
        }
    }

    /// Whether the pass changes how a value is sent, so that its inverse changes the model's
    /// arguments back ([`NullForAbsent`](Pass::NullForAbsent), [`StringEnums`](Pass::StringEnums),
    /// [`MapNames`](Pass::MapNames)); the others change only what the model is told.
    pub const fn changes_values(self) -> bool {
        matches!(self, Pass::NullForAbsent | Pass::StringEnums | Pass::MapNames)
    }
}

impl fmt::Display for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of [`Pass`]es (usable in `const`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Passes(u16);

impl Passes {
    /// No pass.
    pub const NONE: Passes = Passes(0);

    /// The set plus `pass`.
    #[must_use]
    pub const fn with(self, pass: Pass) -> Passes {
        Passes(self.0 | (1 << pass as u8))
    }

    /// The set without `pass`.
    #[must_use]
    pub const fn without(self, pass: Pass) -> Passes {
        Passes(self.0 & !(1 << pass as u8))
    }

    /// Whether `pass` is in the set.
    pub const fn contains(self, pass: Pass) -> bool {
        self.0 & (1 << pass as u8) != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Both sets together.
    #[must_use]
    pub const fn union(self, other: Passes) -> Passes {
        Passes(self.0 | other.0)
    }

    /// The passes of the set that change how a value is sent ([`Pass::changes_values`]).
    #[must_use]
    pub const fn value_changing(self) -> Passes {
        Passes(
            self.0
                & ((1 << Pass::NullForAbsent as u8)
                    | (1 << Pass::StringEnums as u8)
                    | (1 << Pass::MapNames as u8)),
        )
    }

    /// The passes in the set, in [`Pass::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Pass> {
        Pass::ALL.into_iter().filter(move |p| self.contains(*p))
    }
}

impl fmt::Debug for Passes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(Pass::name)).finish()
    }
}

impl FromIterator<Pass> for Passes {
    fn from_iter<I: IntoIterator<Item = Pass>>(iter: I) -> Self {
        iter.into_iter().fold(Passes::NONE, Passes::with)
    }
}

/// The way back of one rendered tool: the value-changing passes its lowering ran, and the
/// descriptor it was rendered from (under the names the provider was sent), which the inverses
/// walk.
///
/// Kept by a [`Rendered`] whose lowering changed how some value is sent; cloning is one
/// reference-count increment.
#[derive(Clone)]
pub struct Inverse(Arc<InverseInner>);

struct InverseInner {
    descriptor: ToolDescriptor,
    passes: Passes,
}

impl Inverse {
    /// The inverse of `passes` (their value-changing part) over `descriptor`.
    pub(crate) fn new(descriptor: &ToolDescriptor, passes: Passes) -> Self {
        Inverse(Arc::new(InverseInner {
            descriptor: descriptor.clone(),
            passes: passes.value_changing(),
        }))
    }

    /// The value-changing passes whose inverses this applies.
    pub fn passes(&self) -> Passes {
        self.0.passes
    }

    /// The descriptor the tool was rendered from, under the names the provider was sent.
    pub fn descriptor(&self) -> &ToolDescriptor {
        &self.0.descriptor
    }

    /// The call's arguments as the descriptor reads them. A call whose arguments are not JSON
    /// is returned unchanged (dispatch then says what is wrong). Arguments given as text stay
    /// text where the only inverse is [`Pass::NullForAbsent`] and every `null` it reads as
    /// absent is a member of the root object (the common case: one scan, then dispatch's fast
    /// path); otherwise they are parsed, given back and returned parsed.
    pub fn restore(&self, mut call: ToolCall) -> ToolCall {
        let mut args = match std::mem::take(&mut call.arguments) {
            Arguments::Json(v) => v,
            Arguments::Text(text) => {
                if self.0.passes == Passes::NONE.with(Pass::NullForAbsent) {
                    // The common case, on the text: no `null`, or only the root's.
                    let restored = if text.contains("null") {
                        text::restore(&self.0.descriptor, &text)
                    } else {
                        text::Text::Unchanged
                    };
                    match restored {
                        text::Text::Unchanged => {
                            call.arguments = Arguments::Text(text);
                            return call;
                        }
                        text::Text::Restored(new) => {
                            call.arguments = Arguments::Text(new);
                            return call;
                        }
                        text::Text::Walk => {}
                    }
                }
                match crate::json_text::parse_arguments(text.as_bytes()) {
                    Ok(v) => v,
                    Err(_) => {
                        call.arguments = Arguments::Text(text);
                        return call;
                    }
                }
            }
        };
        self.restore_value(&mut args);
        call.arguments = Arguments::Json(args);
        call
    }

    /// [`restore`](Self::restore) of arguments already parsed, in place.
    pub fn restore_value(&self, arguments: &mut Value) {
        let d = &self.0.descriptor;
        if let Value::Object(map) = arguments {
            back::Back::new(&d.definitions, self.0.passes).object(map, &d.params, &d.additional, 0);
        }
    }
}

impl fmt::Debug for Inverse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Inverse")
            .field("tool", &self.0.descriptor.name.as_str())
            .field("passes", &self.0.passes)
            .finish()
    }
}

impl PartialEq for Inverse {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.passes == other.0.passes && self.0.descriptor == other.0.descriptor)
    }
}

/// The way back from a model's tool calls to the descriptors that were rendered: what every
/// render output implements ([`Rendered`], a slice or `Vec` of them, [`RenderedSet`],
/// [`MappedSet`](super::MappedSet), [`NameMap`](super::NameMap)).
///
/// Apply [`restore`](Self::restore) to each [`ToolCall`] a provider crate maps from the model's
/// message, then dispatch it. The stream accumulators take one too, so that their early checks
/// read a value as the way back will.
pub trait WayBack {
    /// The inverse of the tool the provider knows as `wire_name`, when its lowering changed how
    /// a value is sent.
    fn inverse_of(&self, wire_name: &str) -> Option<&Inverse>;

    /// The original name of the tool the provider knows as `wire_name`: itself, unless the set
    /// was rendered under mapped names ([`MappedSet`](super::MappedSet),
    /// [`NameMap`](super::NameMap)).
    fn original_name<'s>(&'s self, wire_name: &'s str) -> &'s str {
        wire_name
    }

    /// The descriptor of the tool the provider knows as `wire_name`, under the names the
    /// provider was sent, when the rendering keeps one (its [`Inverse`]'s, or a mapped set's
    /// renamed descriptor); `None` when the descriptor found under
    /// [`original_name`](Self::original_name) reads the model's arguments as they are. A
    /// stream's early checks read the arguments by it.
    fn wire_descriptor(&self, wire_name: &str) -> Option<&ToolDescriptor> {
        self.inverse_of(wire_name).map(Inverse::descriptor)
    }

    /// The call in the terms of the descriptor that was rendered: its arguments given back by
    /// the tool's [`Inverse`] (and, for a name-mapped set, its names). A call to a tool outside
    /// the set is returned unchanged.
    fn restore(&self, call: ToolCall) -> ToolCall {
        match self.inverse_of(&call.name) {
            Some(inverse) => inverse.restore(call),
            None => call,
        }
    }

    /// Every call of a turn, [`restore`](Self::restore)d, in order.
    fn restore_all(&self, calls: Vec<ToolCall>) -> Vec<ToolCall> {
        calls.into_iter().map(|c| self.restore(c)).collect()
    }
}

impl<T: WayBack + ?Sized> WayBack for &T {
    fn inverse_of(&self, wire_name: &str) -> Option<&Inverse> {
        (**self).inverse_of(wire_name)
    }
    fn original_name<'s>(&'s self, wire_name: &'s str) -> &'s str {
        (**self).original_name(wire_name)
    }
    fn wire_descriptor(&self, wire_name: &str) -> Option<&ToolDescriptor> {
        (**self).wire_descriptor(wire_name)
    }
    fn restore(&self, call: ToolCall) -> ToolCall {
        (**self).restore(call)
    }
}

impl WayBack for Rendered {
    fn inverse_of(&self, wire_name: &str) -> Option<&Inverse> {
        self.inverse().filter(|_| self.name() == wire_name)
    }
}

impl WayBack for [Rendered] {
    fn inverse_of(&self, wire_name: &str) -> Option<&Inverse> {
        self.iter().find(|r| r.name() == wire_name).and_then(Rendered::inverse)
    }
}

impl WayBack for Vec<Rendered> {
    fn inverse_of(&self, wire_name: &str) -> Option<&Inverse> {
        self.as_slice().inverse_of(wire_name)
    }
}

impl WayBack for RenderedSet {
    fn inverse_of(&self, wire_name: &str) -> Option<&Inverse> {
        self.tools().inverse_of(wire_name)
    }
}

/// Appends `note` to the notes of a description, a space between two.
pub(crate) fn push_note(notes: &mut String, note: &str) {
    if !notes.is_empty() {
        notes.push(' ');
    }
    notes.push_str(note);
}

#[cfg(test)]
mod tests;
