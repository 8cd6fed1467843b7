//! The cold render's time ratios measured in interleaved pairs: tooldef against
//! `schema_for!` + serde_json, and against serde_json writing a prebuilt `Value` of the same
//! JSON, on both corpora.
//!
//! On a shared machine the speed drifts by 20% or more over seconds, and criterion measures one
//! side after the other, so a ratio of two criterion means carries that drift. Here the sides
//! take turns in short batches (about 20 ms each, in alternating order), each pair of batches
//! gives one ratio, and the median of many pairs is reported with its quartiles: slow drift
//! falls on both sides of a pair alike.
//!
//! `cargo run --release -p tooldef-benches --features bench --bin render_pairs [PAIRS]`
//! (default 201 pairs per corpus).

// A measuring binary: printing its result is its job.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde_json::Value;
use tooldef::render::json_array;
use tooldef::{LossPolicy, Renderer, ToolDescriptor};
use tooldef_benches::generated::{tooldef_const, wide_tooldef_macro};
use tooldef_benches::macro_descriptors;
use tooldef_benches::providers::Envelope;
use tooldef_benches::schemars_corpus::{schemars_json, schemars_tools, wide_schemars_tools};
use tooldef_openai::OpenAiRenderer;

/// How long one batch of one side runs.
const BATCH: Duration = Duration::from_millis(20);

fn tooldef_cold(renderer: &OpenAiRenderer, descriptors: &[&'static ToolDescriptor]) -> String {
    let rendered: Vec<_> = descriptors
        .iter()
        .map(|d| renderer.render(d, LossPolicy::Allow).expect("the corpus renders"))
        .collect();
    json_array(&rendered)
}

/// Runs `f` `n` times; the time per run.
fn time_batch(n: u32, f: &mut dyn FnMut() -> usize) -> f64 {
    let start = Instant::now();
    for _ in 0..n {
        black_box(f());
    }
    start.elapsed().as_secs_f64() / f64::from(n)
}

/// How many runs of `f` fill a batch.
fn calibrate(f: &mut dyn FnMut() -> usize) -> u32 {
    let once = time_batch(3, f).max(1e-9);
    ((BATCH.as_secs_f64() / once).ceil() as u32).max(1)
}

/// The value at quantile `q` of sorted `v`.
fn quantile(v: &[f64], q: f64) -> f64 {
    let at = q * (v.len() - 1) as f64;
    let (low, high) = (at.floor() as usize, at.ceil() as usize);
    v[low] + (v[high] - v[low]) * (at - low as f64)
}

fn summary(mut ratios: Vec<f64>) -> String {
    ratios.sort_by(f64::total_cmp);
    format!(
        "{:.2}x (quartiles {:.2} to {:.2})",
        quantile(&ratios, 0.5),
        quantile(&ratios, 0.25),
        quantile(&ratios, 0.75)
    )
}

fn main() {
    let pairs: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(201);
    let renderer = OpenAiRenderer::chat();
    println!(
        "| corpus | tooldef per render | schemars / tooldef, median of {pairs} pairs | tooldef / prebuilt `Value` write, median of {pairs} pairs |"
    );
    println!("|---|---|---|---|");
    for corpus in ["standard", "wide"] {
        let descriptors: Vec<&'static ToolDescriptor> = if corpus == "wide" {
            macro_descriptors(wide_tooldef_macro::visit_tools)
        } else {
            tooldef_const::DESCRIPTORS.to_vec()
        };
        let tools = if corpus == "wide" { wide_schemars_tools() } else { schemars_tools() };
        let value: Value = serde_json::from_str(&tooldef_cold(&renderer, &descriptors))
            .expect("tooldef writes JSON");

        let mut tooldef = || tooldef_cold(&renderer, black_box(&descriptors)).len();
        let mut schemars = || schemars_json(black_box(&tools), Envelope::OpenAiChat).len();
        let mut write_value =
            || serde_json::to_string(black_box(&value)).expect("serializes").len();
        let mut sides: [&mut dyn FnMut() -> usize; 3] =
            [&mut tooldef, &mut schemars, &mut write_value];
        // Warm up and size the batches.
        let runs: Vec<u32> = sides.iter_mut().map(|f| calibrate(&mut **f)).collect();
        let (mut vs_schemars, mut vs_value, mut own) = (Vec::new(), Vec::new(), Vec::new());
        for pair in 0..pairs {
            let mut times = [0.0; 3];
            // Alternate the order, so that neither side always runs first.
            let order: [usize; 3] = if pair % 2 == 0 { [0, 1, 2] } else { [2, 1, 0] };
            for side in order {
                times[side] = time_batch(runs[side], sides[side]);
            }
            vs_schemars.push(times[1] / times[0]);
            vs_value.push(times[0] / times[2]);
            own.push(times[0]);
        }
        own.sort_by(f64::total_cmp);
        println!(
            "| {corpus} | {:.1} µs | {} | {} |",
            quantile(&own, 0.5) * 1e6,
            summary(vs_schemars),
            summary(vs_value)
        );
    }
}
