//! Prints, per provider, the bytes tooldef sends for the 100-tool corpus against the bytes of
//! `schemars::schema_for!` in the same envelope, and checks that nothing lost meaning: no lossy
//! change in tooldef's reports, and every sample call accepted by both schemas.
//!
//! `cargo run --release -p tooldef-benches --features bench --bin byte_ratios`

// A report binary: printing is its job.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::{BTreeMap, BTreeSet};

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
    let mut accounting = None;
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
        if p.id == "openai_chat" {
            accounting = Some((by_keyword(&ours_values), by_keyword(&wire)));
        }
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
    if let Some((ours, theirs)) = accounting {
        out.push_str(&keyword_table(&ours, &theirs));
    }
    println!("{out}");
}

/// Bytes of compact JSON by the key that holds them, summed over `tools`.
///
/// Each member counts its quoted key, the colon and the comma after it; a scalar value counts
/// toward its key, a container's own brackets too, and its members toward their own keys. The
/// names of properties and of definitions count as `(property names)` and `(definition names)`
/// (with the brackets of the schemas they name); array separators count toward the array's key.
fn by_keyword(tools: &[Value]) -> BTreeMap<String, usize> {
    /// `names`: the members of this object are names (of properties or definitions), counted
    /// under that label rather than each under its own.
    fn walk(key: &str, value: &Value, names: Option<&str>, acc: &mut BTreeMap<String, usize>) {
        let own = match value {
            Value::Object(map) => {
                for (k, v) in map {
                    let label = names.unwrap_or(k);
                    // `"key":` and the comma (or the closing bracket's share of it).
                    *acc.entry(label.to_owned()).or_default() += k.len() + 4;
                    let inner = match (names, k.as_str()) {
                        (None, "properties") => Some("(property names)"),
                        (None, "$defs" | "definitions") => Some("(definition names)"),
                        _ => None,
                    };
                    walk(label, v, inner, acc);
                }
                2
            }
            Value::Array(items) => {
                for item in items {
                    walk(key, item, None, acc);
                }
                2 + items.len().saturating_sub(1)
            }
            scalar => serde_json::to_string(scalar).map_or(0, |s| s.len()),
        };
        *acc.entry(key.to_owned()).or_default() += own;
    }
    let mut acc = BTreeMap::new();
    for tool in tools {
        walk("(tool)", tool, None, &mut acc);
    }
    acc
}

/// The accounting of both sides as a Markdown table, largest difference first.
fn keyword_table(ours: &BTreeMap<String, usize>, theirs: &BTreeMap<String, usize>) -> String {
    let keys: BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
    let mut rows: Vec<(&str, usize, usize)> = keys
        .into_iter()
        .map(|k| {
            (k.as_str(), ours.get(k).copied().unwrap_or(0), theirs.get(k).copied().unwrap_or(0))
        })
        .collect();
    rows.sort_by_key(|&(k, a, b)| (std::cmp::Reverse(a.abs_diff(b)), k));
    let mut out = String::from(
        "\nopenai_chat bytes by keyword (key, colon, comma and scalar value; see `by_keyword`):\n\n\
         | keyword | tooldef | schemars | difference |\n|---|---|---|---|\n",
    );
    for (k, a, b) in rows {
        out.push_str(&format!("| `{k}` | {a} | {b} | {} |\n", a as i64 - b as i64));
    }
    out
}
