//! Prints, per provider, the bytes tooldef sends for the 100-tool corpus against the bytes of
//! `schemars::schema_for!` in the same envelope, and checks that nothing lost meaning: no lossy
//! change in tooldef's reports, and every sample call accepted by both schemas.
//!
//! `cargo run --release -p tooldef-benches --features bench --bin byte_ratios`

// A report binary: printing is its job.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use serde_json::Value;
use tooldef::Policy;
use tooldef::render::json_array;
use tooldef_benches::corpus::{Corpus, SEED};
use tooldef_benches::generated::tooldef_const::DESCRIPTORS;
use tooldef_benches::providers::providers;
use tooldef_benches::schemars_corpus::schemars_tools;

fn main() {
    let corpus = Corpus::standard();
    let samples: Vec<Value> = corpus
        .tools
        .iter()
        .enumerate()
        .map(|(i, t)| serde_json::from_str(&t.sample_args(SEED + i as u64)).expect("json"))
        .collect();
    let schemars = schemars_tools();
    let mut out = String::from(
        "| provider | tooldef bytes | schemars bytes | ratio | target | lossy changes | samples accepted (tooldef / schemars) |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for p in providers() {
        let rendered: Vec<_> = DESCRIPTORS
            .iter()
            .map(|d| p.renderer.render(d, Policy::Lenient).expect("renders"))
            .collect();
        let lossy: usize = rendered.iter().map(|r| r.report().lossy().count()).sum();
        let ours = json_array(&rendered);
        let wire: Vec<Value> = schemars
            .iter()
            .map(|t| {
                p.envelope.wrap(
                    t.name,
                    t.description,
                    serde_json::to_value((t.schema)()).expect("schema"),
                )
            })
            .collect();
        let theirs = serde_json::to_string(&wire).expect("serializes");
        let accepted = |tools: &[Value]| {
            tools
                .iter()
                .zip(&samples)
                .filter(|(tool, sample)| {
                    let schema = p.envelope.parameters(tool).expect("parameters");
                    jsonschema::validator_for(schema).map(|v| v.is_valid(sample)).unwrap_or(false)
                })
                .count()
        };
        let ours_values: Vec<Value> = rendered.iter().map(|r| r.to_value()).collect();
        let ratio = ours.len() as f64 / theirs.len() as f64;
        let target = if p.id == "openai_chat" { "<= 0.75" } else { "-" };
        out.push_str(&format!(
            "| {} | {} | {} | {ratio:.3} | {target} | {lossy} | {} / {} |\n",
            p.id,
            ours.len(),
            theirs.len(),
            accepted(&ours_values),
            accepted(&wire),
        ));
    }
    {
        println!("{out}");
    }
}
