//! A bounded, stable-toolchain stand-in for the `cargo fuzz` target in `fuzz/`: the spec parser
//! over mutated seed specs never panics, and whatever it accepts is a valid descriptor.

use std::path::Path;

use proptest::prelude::*;
use tooldef::{SkipReason, ToolDescriptor, parse_spec_file};

const SEEDS: &[&str] = &[
    r#"{"name": "x", "title": "T", "description": "d", "annotations": {"readOnlyHint": true}}"#,
    r#"{"description": "runs", "command": ["sh", "-c", "cat"]}"#,
    r#"{"input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}"#,
    r#"{"input_schema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 9}}}, "output_schema": {"type": "object"}}"#,
    r##"{"input_schema": {"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}}}"##,
];

const TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "null",
    "true",
    "1e999",
    "-0",
    "\"command\"",
    "\"input_schema\"",
    "\"$ref\"",
    "\"#/$defs/x\"",
    "\\u0000",
    "\u{fffd}",
    "[[[[[[[[",
];

fn mutate(seed: &str, edits: &[(u8, usize, usize)]) -> Vec<u8> {
    let mut bytes = seed.as_bytes().to_vec();
    for &(op, at, what) in edits {
        let at = if bytes.is_empty() { 0 } else { at % (bytes.len() + 1) };
        match op % 4 {
            0 => bytes.insert(at, what as u8),
            1 if at < bytes.len() => {
                bytes.remove(at);
            }
            2 => {
                let tok = TOKENS[what % TOKENS.len()].as_bytes();
                bytes.splice(at..at, tok.iter().copied());
            }
            _ => bytes.truncate(at.max(1)),
        }
    }
    bytes
}

fn check(bytes: &[u8]) {
    match parse_spec_file(Path::new("tools/fuzzed.json"), bytes) {
        Ok(spec) => {
            assert_eq!(spec.descriptor.name.as_str(), "fuzzed");
            spec.descriptor.validate().unwrap();
            if let Some(command) = &spec.command {
                let argv = &command.argv;
                assert!(!argv.is_empty() && !argv[0].is_empty());
            }
            let json = serde_json::to_string(&spec.descriptor).unwrap();
            let back: ToolDescriptor = serde_json::from_str(&json).unwrap();
            assert_eq!(back, spec.descriptor);
        }
        Err(SkipReason::Invalid(msg)) => {
            assert!(msg.starts_with("tools/fuzzed.json"), "the error names the file: {msg}");
        }
        Err(other) => panic!("unexpected rejection {other:?}"),
    }
}

#[test]
fn every_seed_parses() {
    for seed in SEEDS {
        parse_spec_file(Path::new("tools/seed.json"), seed.as_bytes()).unwrap();
    }
}

#[test]
fn hostile_nesting_is_an_error() {
    for open in ["[", "{\"a\":"] {
        let text = format!("{{\"input_schema\": {}", open.repeat(100_000));
        check(text.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn mutated_specs_never_panic(
        seed in 0..SEEDS.len(),
        edits in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 0..12),
    ) {
        check(&mutate(SEEDS[seed], &edits));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        check(&bytes);
    }
}
