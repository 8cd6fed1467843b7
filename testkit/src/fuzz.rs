//! Structure-aware generators of hostile input: raw JSON Schemas as real tools and attackers
//! write them, spec files around them (duplicate keys included), and argument values, plus the
//! seed-corpus writer for the cargo-fuzz targets in `fuzz/`.
//!
//! Unlike [`crate::strategy`], which builds valid descriptors, these build *JSON*: every keyword
//! import reads, with values of the right and of the wrong type, patterns ECMA-262 accepts and
//! ones the engine cannot enforce, bounds beyond 64 bits and integers spelled as floats, `$ref`
//! cycles with and without a base case, dangling references, fan-out, unknown keywords. What a
//! caller may rely on for any of them: no panic, an answer in bounded time, and an accepted spec
//! is a valid descriptor that survives its serde round trip.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Map, Value, json};

/// Patterns a schema may carry that can be enforced: plain ones and ECMA-262 escapes the engine
/// translates.
pub const PATTERNS: &[&str] = &[
    "^[a-z]+$",
    r"^\d{3}-\d{4}$",
    r"^\s*\S+$",
    "a.b",
    "[[&~]",
    "^(?:ab|cd)*?$",
    "^(?<word>[a-z]+)$",
    "",
];

/// Patterns that cannot be enforced (lookaround, backreferences, property escapes, stacked
/// quantifiers, syntax errors, a repetition too large to compile): import must refuse them.
pub const BAD_PATTERNS: &[&str] = &[
    "([",
    "(?<=a)b",
    "(?=x)",
    r"(a)\1",
    r"^\p{L}+$",
    "a{1000}{1000}{1000}",
    "(a{1000}){1000}",
    "(?i)abc",
    "\\",
];

/// Numbers, mostly small integers, sometimes at the edges: integers spelled as floats, `-0`,
/// values beyond 64 bits, tiny and huge.
pub fn edge_number() -> BoxedStrategy<Value> {
    prop_oneof![
        8 => (-100i64..100).prop_map(Value::from),
        1 => any::<i64>().prop_map(Value::from),
        2 => (-100i64..100).prop_map(|i| json!(i as f64)),
        1 => Just(json!(u64::MAX)),
        1 => Just(json!(-0.0)),
        1 => Just(json!(1e300)),
        1 => Just(json!(-92233720368547710000.0_f64)),
        1 => Just(json!(0.1)),
        1 => any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
    ]
    .boxed()
}

/// A `multipleOf`: mostly a small positive integer, sometimes an edge number.
fn step() -> BoxedStrategy<Value> {
    prop_oneof![9 => (1i64..10).prop_map(Value::from), 1 => edge_number()].boxed()
}

fn short_text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => "[a-z]{1,6}",
        1 => prop::sample::select(vec!["a/b", "x~y", "", "$ref", "type", "ünï"])
            .prop_map(str::to_owned),
    ]
    .boxed()
}

/// A scalar JSON value (for enums, consts, defaults).
pub fn scalar() -> BoxedStrategy<Value> {
    prop_oneof![
        6 => short_text().prop_map(Value::String),
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        2 => edge_number(),
    ]
    .boxed()
}

/// A required name: mostly the index of a property (see [`pick`]), sometimes a name no
/// property has.
fn required_pick() -> BoxedStrategy<Result<usize, String>> {
    prop_oneof![40 => (0..8usize).prop_map(Ok), 1 => short_text().prop_map(Err)].boxed()
}

/// The names `picks` choose among `props`.
fn pick(props: &[(String, Value)], picks: Vec<Result<usize, String>>) -> Vec<String> {
    picks
        .into_iter()
        .filter_map(|p| match p {
            Ok(i) if !props.is_empty() => Some(props[i % props.len()].0.clone()),
            Ok(_) => None,
            Err(name) => Some(name),
        })
        .collect()
}

/// The name of a definition in a generated document (`d0`..`d2`; dangling references are
/// among the hostile leaves).
fn def_name() -> impl Strategy<Value = String> {
    (0..3u8).prop_map(|i| format!("d{i}"))
}

fn leaf_schema() -> BoxedStrategy<Value> {
    let type_name = prop::sample::select(vec![
        "string", "integer", "number", "boolean", "null", "object", "array",
    ]);
    let hostile = prop_oneof![
        prop::sample::select(BAD_PATTERNS.to_vec())
            .prop_map(|p| json!({"type": "string", "pattern": p})),
        Just(json!({"type": "integr"})),
        Just(json!(false)),
        Just(json!({"not": {"type": "string"}})),
        prop::collection::vec(scalar(), 0..4).prop_map(|values| json!({"enum": values})),
        Just(json!({"$ref": "#/$defs/missing"})),
    ];
    prop_oneof![
        12 => type_name.prop_map(|t| json!({"type": t})),
        4 => (prop::sample::select(PATTERNS.to_vec()), proptest::option::of(0u64..5)).prop_map(
            |(p, min)| {
                let mut m = json!({"type": "string", "pattern": p});
                if let Some(min) = min {
                    m["minLength"] = json!(min);
                }
                m
            }
        ),
        4 => (edge_number(), edge_number(), proptest::option::of(step())).prop_map(
            |(lo, hi, step)| {
                // Mostly in order; edge numbers still meet the range checks.
                let (lo, hi) = match (lo.as_f64(), hi.as_f64()) {
                    (Some(a), Some(b)) if a > b => (hi, lo),
                    _ => (lo, hi),
                };
                let mut m = json!({"type": "integer", "minimum": lo, "maximum": hi});
                if let Some(step) = step {
                    m["multipleOf"] = step;
                }
                m
            }
        ),
        2 => (edge_number(), any::<bool>()).prop_map(|(n, integer)| {
            json!({"type": if integer { "integer" } else { "number" }, "exclusiveMaximum": n})
        }),
        3 => prop::collection::vec(short_text(), 1..6).prop_map(|values| json!({"enum": values})),
        2 => scalar().prop_map(|c| json!({"const": c})),
        6 => def_name().prop_map(|d| json!({"$ref": format!("#/$defs/{d}")})),
        1 => Just(json!({"$ref": "#"})),
        1 => Just(json!(true)),
        1 => Just(json!({"x-unknown": 1, "nullable": true, "type": "string"})),
        1 => hostile,
    ]
    .boxed()
}

/// A JSON Schema, nested a few levels, with annotations (defaults of the right and the wrong
/// type, `null` among them) sprinkled over it.
pub fn arb_json_schema() -> BoxedStrategy<Value> {
    leaf_schema()
        .prop_recursive(4, 32, 5, |inner| {
            prop_oneof![
                4 => (
                    prop::collection::vec((short_text(), inner.clone()), 0..5),
                    prop::collection::vec(required_pick(), 0..3),
                    prop_oneof![
                        Just(None),
                        Just(Some(json!(false))),
                        Just(Some(json!(true))),
                        inner.clone().prop_map(Some)
                    ],
                )
                    .prop_map(|(props, required, additional)| {
                        let required = pick(&props, required);
                        let props: Map<String, Value> = props.into_iter().collect();
                        let mut m = json!({"type": "object", "properties": props});
                        if !required.is_empty() {
                            m["required"] = json!(required);
                        }
                        if let Some(a) = additional {
                            m["additionalProperties"] = a;
                        }
                        m
                    }),
                3 => (inner.clone(), proptest::option::of(0u64..3), any::<bool>()).prop_map(
                    |(items, min, unique)| {
                        let mut m = json!({"type": "array", "items": items});
                        if let Some(min) = min {
                            m["minItems"] = json!(min);
                        }
                        if unique {
                            m["uniqueItems"] = json!(true);
                        }
                        m
                    }
                ),
                1 => (
                    prop::sample::select(vec!["anyOf", "oneOf", "allOf"]),
                    prop::collection::vec(inner.clone(), 1..4)
                )
                    .prop_map(|(k, members)| json!({ k: members })),
                1 => (inner, scalar(), any::<bool>()).prop_map(|(mut s, default, null_type)| {
                    if let Value::Object(m) = &mut s {
                        m.insert("default".into(), default);
                        m.insert("description".into(), json!("generated"));
                        if null_type && m.get("type").is_some_and(Value::is_string) {
                            let t = m["type"].clone();
                            m.insert("type".into(), json!([t, "null"]));
                        }
                    }
                    s
                }),
            ]
        })
        .boxed()
}

/// An input schema document: an object root over generated properties, with `$defs` `d0`..`d2`
/// (and sometimes `d3`) that may refer to each other, so cycles with and without base cases and
/// fan-out both occur.
pub fn arb_input_schema() -> BoxedStrategy<Value> {
    (
        prop::collection::vec((short_text(), arb_json_schema()), 0..5),
        prop::collection::vec(required_pick(), 0..3),
        prop::collection::vec(arb_json_schema(), 3..4),
        proptest::option::of(any::<bool>()),
    )
        .prop_map(|(props, required, defs, additional)| {
            let required = pick(&props, required);
            let props: Map<String, Value> = props.into_iter().collect();
            let defs: Map<String, Value> =
                defs.into_iter().enumerate().map(|(i, d)| (format!("d{i}"), d)).collect();
            let mut root = json!({"type": "object", "properties": props, "$defs": defs});
            if !required.is_empty() {
                root["required"] = json!(required);
            }
            if let Some(a) = additional {
                root["additionalProperties"] = json!(a);
            }
            root
        })
        .boxed()
}

/// The text of a spec file around [`arb_input_schema`]; sometimes a key is repeated in one
/// object (the text is edited after serializing, as no `Map` can hold two equal keys).
pub fn arb_spec_text() -> BoxedStrategy<String> {
    (arb_input_schema(), proptest::option::of(arb_json_schema()), any::<u8>())
        .prop_map(|(input, output, mutation)| {
            let mut spec =
                json!({"name": "fuzzed", "description": "Generated.", "input_schema": input});
            if let Some(output) = output {
                spec["output_schema"] = output;
            }
            let text = spec.to_string();
            match mutation % 32 {
                // Repeat the description key: the last one would win silently.
                0 => text.replacen(
                    r#""description":"Generated.""#,
                    r#""description":"Generated.","description":"Again.""#,
                    1,
                ),
                // Repeat the first property's type.
                1 => text.replacen(r#""type":"#, r#""type":"string","type":"#, 1),
                _ => text,
            }
        })
        .boxed()
}

/// Argument values: objects keyed like generated properties, with values of every type (edge
/// numbers, nested arrays and objects), and sometimes not an object at all.
pub fn arb_arguments() -> BoxedStrategy<Value> {
    let value = scalar().prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((short_text(), inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    });
    prop_oneof![
        6 => prop::collection::vec((short_text(), value.clone()), 0..6)
            .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        1 => value,
    ]
    .boxed()
}

/// `count` inputs for a fuzz target, the same ones for the same `seed`: each is a spec file's
/// bytes. The cargo-fuzz targets start from these (see `fuzz/README.md`).
pub fn seed_specs(count: usize, seed: u64) -> Vec<Vec<u8>> {
    sample(arb_spec_text(), count, seed).into_iter().map(String::into_bytes).collect()
}

/// `count` inputs for the `call` fuzz target: a spec file, a NUL byte, then argument text.
pub fn seed_calls(count: usize, seed: u64) -> Vec<Vec<u8>> {
    sample((arb_spec_text(), arb_arguments()), count, seed)
        .into_iter()
        .map(|(spec, args)| {
            let mut bytes = spec.into_bytes();
            bytes.push(0);
            bytes.extend(args.to_string().into_bytes());
            bytes
        })
        .collect()
}

/// `count` values of `strategy`, deterministic for `seed`.
fn sample<T: std::fmt::Debug>(
    strategy: impl Strategy<Value = T>,
    count: usize,
    seed: u64,
) -> Vec<T> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    (0..count)
        .filter_map(|_| strategy.new_tree(&mut runner).ok().map(|tree| tree.current()))
        .collect()
}
