//! The packed table end to end: `#[tool]` and `#[derive(ToolSchema)]` write every key of the
//! table (tool title, description and the four hints; a parameter's description, default,
//! examples, bounds, lengths, pattern, format and allowed values; enum values with their docs)
//! and the runtime reads it back into exactly the descriptor one would build by hand.
#![cfg(feature = "macros")]

use std::borrow::Cow;

use serde::Deserialize;
use tooldef::{
    Annotations, Literal, Param, Schema, SchemaKind, Tool, ToolDescriptor, ToolSchema, tool,
};
use tooldef::{EnumSchema, EnumValue, EnumValues, NumberSchema, StringSchema};

/// How loud.
#[derive(Debug, Clone, Copy, Deserialize, ToolSchema)]
#[serde(rename_all = "lowercase")]
pub enum Volume {
    /// Barely audible.
    Quiet,
    // Left undocumented on purpose: an enum value without a description record.
    #[allow(missing_docs)]
    Loud,
}

/// Say a word, every way the table can describe it.
///
/// A second paragraph.
#[tool(
    name = "say",
    title = "Say it",
    read_only,
    destructive = false,
    idempotent,
    open_world = false
)]
pub fn say(
    /// The word.
    #[param(length = 1..=8, pattern = "^[a-z]+$", format = "word", example = ["hi", "yo"])]
    word: String,
    #[param(min = -5, max = 5, default = 2, description = "How often.")] times: i64,
    #[param(range = 0.25..=1.5)] pitch: f64,
    #[param(one_of = ["en", "fr"], default = "en")] lang: String,
    volume: Volume,
) -> String {
    let _ = (times, pitch, lang, volume);
    word
}

fn string(min: Option<u64>, max: Option<u64>, pattern: &str, format: &str) -> SchemaKind {
    SchemaKind::String(StringSchema {
        format: Some(format.to_owned().into()),
        pattern: Some(pattern.to_owned().into()),
        min_length: min,
        max_length: max,
    })
}

fn by_hand() -> ToolDescriptor {
    let mut word = Schema::of(string(Some(1), Some(8), "^[a-z]+$", "word"));
    word.description = Some("The word.".into());
    word.examples = Cow::Owned(vec![Literal::str("hi"), Literal::str("yo")]);

    let mut times = Schema::of(SchemaKind::Integer(NumberSchema {
        minimum: Some(-5),
        maximum: Some(5),
        ..NumberSchema::NONE_I64
    }));
    times.description = Some("How often.".into());
    times.default = Some(Literal::Int(2));

    let pitch = Schema::of(SchemaKind::Float(NumberSchema {
        minimum: Some(0.25),
        maximum: Some(1.5),
        ..NumberSchema::NONE_F64
    }));

    let mut lang = Schema::of(SchemaKind::Enum(EnumSchema {
        values: EnumValues::owned(vec![EnumValue::new("en"), EnumValue::new("fr")]),
    }));
    lang.default = Some(Literal::str("en"));

    let mut volume = Schema::of(SchemaKind::Enum(EnumSchema {
        values: EnumValues::owned(vec![
            EnumValue::described("quiet", "Barely audible."),
            EnumValue::new("loud"),
        ]),
    }));
    volume.description = Some("How loud.".into());

    ToolDescriptor::builder("say")
        .title("Say it")
        .description("Say a word, every way the table can describe it.\n\nA second paragraph.")
        .annotations(Annotations {
            title: None,
            read_only: Some(true),
            destructive: Some(false),
            idempotent: Some(true),
            open_world: Some(false),
        })
        .param(Param::named("word", word))
        .param(Param::named("times", times).with_required(false))
        .param(Param::named("pitch", pitch))
        .param(Param::named("lang", lang).with_required(false))
        .param(Param::named("volume", volume))
        .build()
        .unwrap()
}

#[test]
fn every_key_the_macros_write_reads_back_as_the_hand_built_descriptor() {
    let generated = Say::descriptor();
    let expected = by_hand();
    assert_eq!(generated.name, expected.name);
    assert_eq!(generated.title, expected.title);
    assert_eq!(generated.description, expected.description);
    assert_eq!(generated.annotations, expected.annotations);
    for (got, want) in generated.params.iter().zip(expected.params.iter()) {
        assert_eq!(got, want, "parameter `{}`", want.name);
    }
    assert_eq!(generated.params.len(), expected.params.len());
    assert_eq!(generated.additional, expected.additional);
}
