//! The co-resident bench, shared by `tooldef-benches` (a binary that links tooldef and every
//! provider crate) and `tooldef-coresident-alone` (the same source, without tooldef in its
//! dependency tree): `schema_for!` + `serde_json::to_string` over the schemars corpus, and
//! `Value` parse + `jsonschema` validation of the sample calls. If tooldef changed how
//! serde_json is built (as turning on its `preserve_order` feature would), the two would differ.

use std::hint::black_box;

use criterion::Criterion;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The generator of the corpus, for the sample calls (plain Rust over serde_json).
#[allow(dead_code, unreachable_pub, unused_imports)]
#[path = "../../src/corpus/mod.rs"]
pub(crate) mod corpus;

/// The schemars form of the standard corpus (generated text: rustfmt must leave it as the
/// generator writes it, or `tests/generated.rs` finds it stale).
#[allow(dead_code)]
#[rustfmt::skip]
#[path = "../../src/generated/schemars_args.rs"]
pub(crate) mod schemars_args;

/// Receives every schemars argument type (the generated `visit_args` calls `crate::ArgsVisitor`).
pub(crate) trait ArgsVisitor {
    /// Called once per tool, with its index, name and description.
    fn visit<A>(&mut self, index: usize, name: &'static str, description: &'static str)
    where
        A: DeserializeOwned + schemars::JsonSchema + 'static;
}

struct Schemas(Vec<fn() -> schemars::Schema>);

fn schema_of<A: schemars::JsonSchema>() -> schemars::Schema {
    schemars::schema_for!(A)
}

impl ArgsVisitor for Schemas {
    fn visit<A>(&mut self, _index: usize, _name: &'static str, _description: &'static str)
    where
        A: DeserializeOwned + schemars::JsonSchema + 'static,
    {
        self.0.push(schema_of::<A>);
    }
}

/// The criterion settings of the benches of `tooldef-benches`.
pub(crate) fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3))
        .sample_size(30)
}

/// Both benchmarks, in the criterion group `group`.
pub(crate) fn bench(c: &mut Criterion, group: &str) {
    let mut schemas = Schemas(Vec::new());
    schemars_args::visit_args(&mut schemas);
    let schemas = schemas.0;
    let corpus = corpus::Corpus::standard();
    let samples: Vec<String> = corpus
        .tools
        .iter()
        .enumerate()
        .map(|(i, t)| t.sample_args(corpus::SEED + i as u64))
        .collect();
    let validators: Vec<jsonschema::Validator> = schemas
        .iter()
        .map(|schema| {
            let schema = serde_json::to_value(schema()).expect("schema serializes");
            jsonschema::validator_for(&schema).expect("schema compiles")
        })
        .collect();
    let validate = |samples: &[String]| {
        samples
            .iter()
            .zip(&validators)
            .filter(|(s, v)| {
                serde_json::from_str::<Value>(s).map(|value| v.is_valid(&value)).unwrap_or(false)
            })
            .count()
    };
    assert_eq!(validate(&samples), samples.len(), "every sample call is valid");

    let mut g = c.benchmark_group(group);
    g.bench_function("schemars_serde_json", |b| {
        b.iter(|| {
            schemas
                .iter()
                .map(|schema| serde_json::to_string(&schema()).expect("serializes").len())
                .sum::<usize>()
        })
    });
    g.bench_function("value_jsonschema", |b| b.iter(|| validate(black_box(&samples))));
    g.finish();
}
