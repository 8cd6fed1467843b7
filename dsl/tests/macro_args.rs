//! The `Deserialize` that `#[tool]` generates for its arguments accepts and refuses exactly
//! what serde's derive (with `deny_unknown_fields`) does on an equivalent struct, with the same
//! error messages: checked on hand-picked objects and on generated ones mixing known, renamed
//! and unknown keys, duplicates, nulls and values of every JSON type.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use serde::Deserialize;
use tooldef::{Tool, ToolSchema, tool};

/// A unit.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, ToolSchema)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Celsius.
    Celsius,
    /// Fahrenheit.
    Fahrenheit,
}

/// A place.
#[derive(Debug, Clone, PartialEq, Deserialize, ToolSchema)]
#[serde(deny_unknown_fields)]
pub struct Place {
    /// Latitude.
    pub lat: f64,
    /// A label.
    pub label: Option<String>,
}

/// Every kind of parameter the decoding distinguishes.
#[tool]
#[allow(clippy::too_many_arguments)]
pub fn forecast(
    city: String,
    days: Option<u8>,
    #[param(default = 3)] limit: u32,
    #[param(name = "type")] kind: String,
    #[param(default = "celsius")] unit: Unit,
    tags: Vec<String>,
    place: Option<Place>,
    r#ref: Option<Option<bool>>,
) -> String {
    let _ = (days, limit, kind, unit, tags, place, r#ref);
    city
}

fn three() -> u32 {
    3
}

fn celsius() -> Unit {
    Unit::Celsius
}

/// What a hand-written serde struct for `forecast` says.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Twin {
    city: String,
    days: Option<u8>,
    #[serde(default = "three")]
    limit: u32,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default = "celsius")]
    unit: Unit,
    tags: Vec<String>,
    place: Option<Place>,
    r#ref: Option<Option<bool>>,
}

type Args = <Forecast as Tool>::Args;

fn generated(a: &Args) -> String {
    format!("{:?}", (&a.city, a.days, a.limit, &a.kind, a.unit, &a.tags, &a.place, a.r#ref))
}

fn twin(t: &Twin) -> String {
    format!("{:?}", (&t.city, t.days, t.limit, &t.kind, t.unit, &t.tags, &t.place, t.r#ref))
}

/// The generated decoder's message without the parameter it names (serde's derive names
/// none; the rest of the message must be serde's, word for word).
fn unnamed(message: String) -> String {
    match message.strip_prefix("parameter `").and_then(|m| m.split_once("`: ")) {
        Some((_, rest)) => rest.to_owned(),
        None => message,
    }
}

/// Both decodings of `text`, as the value or the error message; then the same from a parsed
/// `Value` (what `Arguments::Json` decodes), when the text parses.
fn assert_same(text: &str) {
    let ours = serde_json::from_str::<Args>(text)
        .map(|a| generated(&a))
        .map_err(|e| unnamed(e.to_string()));
    let theirs = serde_json::from_str::<Twin>(text).map(|t| twin(&t)).map_err(|e| e.to_string());
    assert_eq!(ours, theirs, "decoding {text}");
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
        let ours =
            Args::deserialize(&value).map(|a| generated(&a)).map_err(|e| unnamed(e.to_string()));
        let theirs = Twin::deserialize(&value).map(|t| twin(&t)).map_err(|e| e.to_string());
        assert_eq!(ours, theirs, "decoding the value of {text}");
    }
}

#[test]
fn hand_picked_objects_decode_as_serde_does() {
    let base = r#""city":"Oslo","type":"x","tags":[]"#;
    for text in [
        format!("{{{base}}}"),
        format!(
            r#"{{{base},"days":2,"limit":9,"unit":"fahrenheit","place":{{"lat":1.5}},"ref":true}}"#
        ),
        format!(r#"{{{base},"days":null,"place":null,"ref":null}}"#),
        format!(r#"{{{base},"kind":"x"}}"#),
        format!(r#"{{{base},"city":"Bergen"}}"#),
        format!(r#"{{{base},"limit":null}}"#),
        format!(r#"{{{base},"unit":"kelvin"}}"#),
        format!(r#"{{{base},"days":256}}"#),
        format!(r#"{{{base},"place":{{"lat":1,"x":2}}}}"#),
        r#"{"type":"x","tags":[]}"#.to_owned(),
        r#"{"city":"Oslo","tags":[]}"#.to_owned(),
        "{}".to_owned(),
        format!(r#"{{{base},"days":"#),
    ] {
        assert_same(&text);
    }
}

/// A key: each wire name, the Rust name of the renamed parameter, and an unknown one.
fn key() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "city", "days", "limit", "type", "unit", "tags", "place", "ref", "kind", "zzz",
    ])
}

/// A value of some JSON type, often one a parameter takes.
fn value() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "null",
        "true",
        "0",
        "7",
        "300",
        "-1",
        "2.5",
        r#""Oslo""#,
        r#""celsius""#,
        r#""kelvin""#,
        "[]",
        r#"["a","b"]"#,
        "[1]",
        r#"{"lat":1.5}"#,
        r#"{"lat":1.5,"label":null}"#,
        r#"{"label":"x"}"#,
        "{}",
    ])
}

proptest! {
    #![proptest_config(Config {
        cases: 512,
        rng_seed: RngSeed::Fixed(0xa125_0bec),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn generated_objects_decode_as_serde_does(
        entries in prop::collection::vec((key(), value()), 0..9),
        required in any::<bool>(),
    ) {
        // Half of the objects start with the required keys, so that more of them decode.
        let mut parts: Vec<String> = if required {
            vec![r#""city":"Oslo""#.into(), r#""type":"t""#.into(), r#""tags":[]"#.into()]
        } else {
            Vec::new()
        };
        parts.extend(entries.iter().map(|(k, v)| format!("\"{k}\":{v}")));
        assert_same(&format!("{{{}}}", parts.join(",")));
    }
}
