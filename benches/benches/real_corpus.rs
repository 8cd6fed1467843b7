//! The real-world corpus (`testkit/corpus/real/`: 4,042 published tools from MCP servers on
//! npm and PyPI, BFCL and LangChain) imported and rendered whole, per target.
//!
//! - `real_corpus/import`: every tool read into the IR with the importer of its source (the
//!   tools tooldef refuses are attempted and counted like the others).
//! - `real_corpus/import_render/<target>`: the import, then every imported tool rendered for the
//!   target under the `Allow` policy, as `tooldef import` + `tooldef render` would.
//! - `real_corpus/serde_json_round_trip`: the baseline a user who hands the published JSON
//!   through unchanged would pay: every tool parsed from its text and written back.
//!
//! `cargo bench -p tooldef-benches --features bench --bench real_corpus`
#![allow(clippy::print_stderr)] // the corpus size, beside criterion's own output

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;
use tooldef::render::LossPolicy;
use tooldef_testkit::real::{self, RealTool, Target};

fn import_all(tools: &[RealTool]) -> Vec<tooldef::ToolDescriptor> {
    tools.iter().filter_map(|t| real::import(t).ok()).map(|i| i.descriptor).collect()
}

fn bench(c: &mut Criterion) {
    let tools = real::load();
    let texts: Vec<String> = tools.iter().map(|t| t.raw.to_string()).collect();
    eprintln!("real corpus: {} tools", tools.len());
    let mut group = c.benchmark_group("real_corpus");
    group.sample_size(10);
    group.bench_function("serde_json_round_trip", |b| {
        b.iter(|| {
            let mut bytes = 0;
            for text in &texts {
                let v: Value = serde_json::from_str(black_box(text)).expect("corpus JSON");
                bytes += serde_json::to_string(&v).expect("serializes").len();
            }
            bytes
        });
    });
    group.bench_function("import", |b| b.iter(|| import_all(black_box(&tools)).len()));
    for target in Target::ALL {
        let renderer = target.renderer();
        group.bench_function(format!("import_render/{target}"), |b| {
            b.iter(|| {
                let imported = import_all(black_box(&tools));
                imported
                    .iter()
                    .filter_map(|d| renderer.render(d, LossPolicy::Allow).ok())
                    .map(|r| r.json().len())
                    .sum::<usize>()
            });
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = tooldef_benches::criterion_config();
    targets = bench
}
criterion_main!(benches);
