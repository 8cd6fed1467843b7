//! Prints, per provider, the bytes tooldef sends for each 100-tool corpus (the standard one and
//! the wide one) against the bytes of `schemars::schema_for!` in the same envelope, and checks
//! that nothing lost meaning: no lossy change in tooldef's reports, every sample call accepted
//! by both schemas and by tooldef's dispatch, and every invalid call (an integer past its bound,
//! an unknown enum value) refused by tooldef's dispatch.
//!
//! `cargo run --release -p tooldef-benches --features bench --bin byte_ratios`

// A report binary: printing is its job.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;
use tooldef::dispatch::TypedTool;
use tooldef::render::json_array;
use tooldef::{Arguments, LossPolicy, Tool, ToolDescriptor};
use tooldef_benches::ToolValueVisitor;
use tooldef_benches::corpus::{Corpus, Invalid, SEED};
use tooldef_benches::generated::tooldef_const::DESCRIPTORS;
use tooldef_benches::generated::{tooldef_macro, wide_tooldef_macro};
use tooldef_benches::macro_descriptors;
use tooldef_benches::providers::providers;
use tooldef_benches::schemars_corpus::{SchemarsTool, schemars_tools, wide_schemars_tools};

fn main() {
    let mut out = String::from("## Standard corpus (const-DSL descriptors)\n\n");
    out.push_str(&bytes_report(&Corpus::standard(), &DESCRIPTORS, &schemars_tools()));
    out.push_str(&dispatch_report(&Corpus::standard(), tooldef_macro::visit_tools));
    out.push_str("\n## Wide corpus (`#[tool]` descriptors)\n\n");
    let wide = macro_descriptors(wide_tooldef_macro::visit_tools);
    out.push_str(&bytes_report(&Corpus::wide(), &wide, &wide_schemars_tools()));
    out.push_str(&dispatch_report(&Corpus::wide(), wide_tooldef_macro::visit_tools));
    println!("{out}");
}

/// The sample call of each tool of `corpus`, parsed.
fn samples(corpus: &Corpus) -> Vec<Value> {
    corpus
        .tools
        .iter()
        .enumerate()
        .map(|(i, t)| serde_json::from_str(&t.sample_args(SEED + i as u64)).expect("json"))
        .collect()
}

/// The bytes table of one corpus, per provider, and the OpenAI Chat accounting by keyword.
fn bytes_report(
    corpus: &Corpus,
    descriptors: &[&'static ToolDescriptor],
    schemars: &[SchemarsTool],
) -> String {
    let samples = samples(corpus);
    let mut out = String::from(
        "| provider | tooldef bytes | schemars bytes | ratio | target | lossy changes | samples accepted (tooldef / schemars) |\n\
         |---|---|---|---|---|---|---|\n",
    );
    let mut accounting = None;
    for p in providers() {
        let rendered: Vec<_> = descriptors
            .iter()
            .map(|d| p.renderer.render(d, LossPolicy::Allow).expect("renders"))
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
    out
}

/// Whether one tool's typed decoder accepts a call's argument text.
type Decoder = Box<dyn Fn(&str) -> bool>;

/// `TypedTool::decode` of text arguments, per `#[tool]`.
struct Decoders(Vec<Decoder>);

impl ToolValueVisitor for Decoders {
    fn visit<T: Tool>(&mut self, tool: T, _index: usize) {
        let typed = TypedTool::new(tool);
        self.0.push(Box::new(move |s| typed.decode(&Arguments::Text(s.to_owned())).is_ok()));
    }
}

/// Whether tooldef's dispatch (`TypedTool::decode`, the `#[tool]` form) accepts every sample
/// call of `corpus` and refuses every invalid one ([`tooldef_benches::corpus::ToolSpec::invalid_args`]).
fn dispatch_report(corpus: &Corpus, visit_tools: fn(&mut Decoders)) -> String {
    let mut decoders = Decoders(Vec::new());
    visit_tools(&mut decoders);
    assert_eq!(decoders.0.len(), corpus.tools.len(), "one decoder per tool");
    let (mut valid, mut range, mut variant) = ((0, 0), (0, 0), (0, 0));
    for (i, (tool, decode)) in corpus.tools.iter().zip(&decoders.0).enumerate() {
        let seed = SEED + i as u64;
        valid.0 += usize::from(decode(&tool.sample_args(seed)));
        valid.1 += 1;
        for (kind, args) in tool.invalid_args(seed) {
            let tally = match kind {
                Invalid::OutOfRange => &mut range,
                Invalid::UnknownVariant => &mut variant,
            };
            tally.0 += usize::from(!decode(&args));
            tally.1 += 1;
        }
    }
    let ok = |(n, of): (usize, usize)| if n == of { "all" } else { "**not all**" };
    format!(
        "\nDispatch (`TypedTool::decode` of the `#[tool]` form): sample calls accepted {} of {} ({}); \
         calls with one integer past its bound refused {} of {} ({}); calls with an unknown enum \
         value refused {} of {} ({}).\n",
        valid.0,
        valid.1,
        ok(valid),
        range.0,
        range.1,
        ok(range),
        variant.0,
        variant.1,
        ok(variant),
    )
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
