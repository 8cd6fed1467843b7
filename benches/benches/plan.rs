//! The request planner against plain rendering, per tool: 100, 1,000 and 10,000 tools (the 100
//! const-DSL corpus tools and renamed copies of them), with criterion's per-element throughput,
//! so the time per tool of each step reads directly and the ratio is the planner's overhead.
//!
//! Steps, each from cold (no cache): rendering the set for Anthropic (plain, every tool, then
//! `json_array`), the baseline; planning it for Anthropic with strict preferred (every tool
//! rendered plain and strict, budgets spent in priority order, the set checks) under a host
//! limit of 100 tools, and writing the planned tools array; the same for OpenAI Responses with
//! its hosted `tool_search`.
//!
//! `cargo bench -p tooldef-benches --features bench --bench plan`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tooldef::assembly::{HostLimits, PlanTool, Planner};
use tooldef::render::json_array;
use tooldef::{LossPolicy, Renderer, ToolDescriptor, ToolName};
use tooldef_anthropic::AnthropicRenderer;
use tooldef_benches::criterion_config;
use tooldef_benches::generated::tooldef_const::DESCRIPTORS;
use tooldef_openai::OpenAiRenderer;

/// The sizes every step is measured at.
const SIZES: [usize; 3] = [100, 1_000, 10_000];

/// `n` descriptors: the corpus, then copies renamed `<name>_c<k>`.
fn descriptors(n: usize) -> Vec<ToolDescriptor> {
    (0..n)
        .map(|i| {
            let mut d = DESCRIPTORS[i % DESCRIPTORS.len()].clone();
            let copy = i / DESCRIPTORS.len();
            if copy > 0 {
                let name = format!("{}_c{copy}", d.name.as_str());
                d.name = ToolName::parse(name).expect("a valid name");
            }
            d
        })
        .collect()
}

fn plan(c: &mut Criterion) {
    let mut group = c.benchmark_group("plan");
    for n in SIZES {
        let tools = descriptors(n);
        let offered: Vec<PlanTool> = tools.iter().cloned().map(PlanTool::new).collect();
        group.throughput(Throughput::Elements(n as u64));
        let renderer = AnthropicRenderer::new();
        group.bench_with_input(BenchmarkId::new("render_anthropic", n), &tools, |b, tools| {
            b.iter(|| {
                let rendered: Vec<_> = tools
                    .iter()
                    .filter_map(|t| renderer.render(t, LossPolicy::Allow).ok())
                    .collect();
                black_box(json_array(&rendered))
            });
        });
        let host = HostLimits::none().max_tools(100);
        let anthropic =
            Planner::new(tooldef_anthropic::plan_target(tooldef_anthropic::ToolSearch::Regex))
                .strict(true)
                .host(host.clone());
        group.bench_with_input(
            BenchmarkId::new("plan_anthropic_strict", n),
            &offered,
            |b, offered| {
                b.iter(|| {
                    let plan = anthropic.plan(offered.iter().cloned());
                    black_box(tooldef_anthropic::planned_tools_json(&plan, true))
                });
            },
        );
        let openai = Planner::new(tooldef_openai::plan_target(
            &OpenAiRenderer::responses(),
            tooldef_openai::ToolSearch::Hosted,
        ))
        .strict(true)
        .host(host);
        group.bench_with_input(
            BenchmarkId::new("plan_openai_responses_strict", n),
            &offered,
            |b, offered| {
                b.iter(|| {
                    let plan = openai.plan(offered.iter().cloned());
                    black_box(tooldef_openai::planned_tools_json(&plan))
                });
            },
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = plan
}
criterion_main!(benches);
