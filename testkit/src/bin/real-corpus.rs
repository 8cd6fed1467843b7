//! The figures of the real-world corpus: per target, tools imported, rendered and refused by
//! reason, and the time of a whole-corpus import + render.
//!
//! `cargo run --release -p tooldef-testkit --bin real-corpus`; with `--write-refusals`, also
//! rewrites `testkit/corpus/real/refusals.json` from this run, keeping every judgement in it.
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use tooldef::render::LossPolicy;
use tooldef_testkit::real::{self, RealTool, Refusals, Target};

fn main() {
    let tools = real::load();
    let started = Instant::now();
    let run = real::run(&tools);
    let elapsed = started.elapsed();
    let mut sources: BTreeMap<&str, usize> = BTreeMap::new();
    for t in &tools {
        *sources.entry(t.file.split('/').next().unwrap_or("")).or_default() += 1;
    }
    println!("corpus: {} tools from {} files", run.tools, files(&tools));
    for (source, n) in &sources {
        println!("  {source}: {n}");
    }
    println!("imported: {} of {}", run.imported, run.tools);
    println!(
        "MCP round trip (the whole Tool JSON-equal, schemas apart from $schema): {} of {}",
        run.mcp_round_trip.0, run.mcp_round_trip.1
    );
    for (tool, misses) in &run.mcp_round_trip_misses {
        for miss in misses {
            println!("  {tool}: {miss}");
        }
    }
    println!(
        "schema text kept beside the IR: {} bytes over {} tools",
        run.kept_source_bytes, run.imported
    );
    println!("whole run (import + 12 renders, lenient and strict policy, checks): {elapsed:.2?}");
    timings(&tools);
    println!();
    println!("| target | rendered | % of corpus | lossless | refused |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    for target in Target::ALL {
        let (rendered, lossless) = run.rendered[&target];
        let refused = run.refusals.iter().filter(|r| r.target == Some(target)).count();
        println!(
            "| {target} | {rendered} | {:.1}% | {lossless} | {refused} |",
            100.0 * rendered as f64 / run.tools.max(1) as f64
        );
    }
    println!();
    let mut groups: BTreeMap<(&str, &str), (usize, &str)> = BTreeMap::new();
    for r in &run.refusals {
        groups.entry((r.stage(), &r.category)).or_insert((0, &r.message)).0 += 1;
    }
    println!("refusals by stage and reason (count, reason, one message):");
    for ((stage, category), (n, example)) in &groups {
        println!("  {n:5}  [{stage}] {category}");
        println!("         e.g. {example}");
    }
    println!();
    println!("failures: {}", run.failures.len());
    let mut failures: BTreeMap<(String, String), (usize, String)> = BTreeMap::new();
    for f in &run.failures {
        let at = f.detail.split(": ").next().unwrap_or("");
        let keyword = at.rsplit('/').next().unwrap_or("");
        let key = (format!("{:?} [{}] `{keyword}`", f.kind, f.target), real::category(&f.detail));
        failures.entry(key).or_insert((0, f.to_string())).0 += 1;
    }
    for ((kind, category), (n, example)) in &failures {
        println!("  {n:5}  {kind} {category}");
        println!("         e.g. {example}");
    }
    let path = real::refusals_path();
    let file = Refusals::load(&path);
    if std::env::args().any(|a| a == "--write-refusals") {
        let text = file.rewritten(&run).to_json();
        std::fs::write(&path, text).expect("refusals.json is writable");
        println!("wrote {}", path.display());
    }
}

/// Passes per timing; the fastest is reported.
const PASSES: usize = 5;

/// Times the import of the whole corpus, then each target's render of every imported tool on
/// its own (the lenient policy), without the checks of the run above.
fn timings(tools: &[RealTool]) {
    let (took, imported) = fastest(|| tools.iter().filter_map(|t| real::import(t).ok()).count());
    println!("import of the corpus: {imported} tools in {took:.2?} (fastest of {PASSES} passes)");
    let descriptors: Vec<_> =
        tools.iter().filter_map(|t| real::import(t).ok()).map(|i| i.descriptor).collect();
    for target in Target::ALL {
        let renderer = target.renderer();
        let (took, rendered) = fastest(|| {
            descriptors.iter().filter(|d| renderer.render(d, LossPolicy::Allow).is_ok()).count()
        });
        println!("  render {target}: {rendered} tools in {took:.2?}");
    }
}

/// The fastest of [`PASSES`] runs of `pass`, with what it returned.
fn fastest(mut pass: impl FnMut() -> usize) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut out = 0;
    for _ in 0..PASSES {
        let started = Instant::now();
        out = pass();
        best = best.min(started.elapsed());
    }
    (best, out)
}

fn files(tools: &[RealTool]) -> usize {
    let mut files: Vec<&str> = tools.iter().map(|t| t.file.as_str()).collect();
    files.dedup();
    files.len()
}
