//! Rendering the 100-tool corpus for each provider: tooldef cold (from descriptors), cached as a
//! set (`RenderCache::get_static_set`) and cached per tool (`RenderCache::get_static`), against
//! `schemars::schema_for!` + `serde_json` in the same provider envelope, against rmcp's tool
//! list, and against copying the output bytes.
//!
//! `cargo bench -p tooldef-benches --features bench --bench render -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use tooldef::render::json_array;
use tooldef::{Policy, RenderCache, Renderer, ToolDescriptor};
use tooldef_benches::generated::rmcp_router;
use tooldef_benches::generated::tooldef_const::DESCRIPTORS;
use tooldef_benches::providers::{Envelope, providers};
use tooldef_benches::schemars_corpus::{SchemarsTool, schemars_tools};

fn tooldef_cold(renderer: &dyn Renderer) -> String {
    let rendered: Vec<_> =
        DESCRIPTORS.iter().map(|d| renderer.render(d, Policy::Lenient).expect("renders")).collect();
    json_array(&rendered)
}

/// The request's tool set from the set cache, copied into an owned `String` (as a caller
/// writing it into a request body copies it), so this measures lookup plus one copy.
fn tooldef_cached(
    cache: &RenderCache,
    renderer: &dyn Renderer,
    tools: &[&'static ToolDescriptor],
) -> String {
    cache.get_static_set(renderer, tools, Policy::Lenient).expect("renders").json().to_owned()
}

/// Each tool from the per-tool cache, joined anew.
fn tooldef_cached_tools(cache: &RenderCache, renderer: &dyn Renderer) -> String {
    let rendered: Vec<_> = DESCRIPTORS
        .iter()
        .map(|d| cache.get_static(renderer, d, Policy::Lenient).expect("renders"))
        .collect();
    json_array(&rendered)
}

fn schemars_json(tools: &[SchemarsTool], envelope: Envelope) -> String {
    let wire: Vec<Value> = tools
        .iter()
        .map(|t| {
            let schema = serde_json::to_value((t.schema)()).expect("schema serializes");
            envelope.wrap(t.name, t.description, schema)
        })
        .collect();
    serde_json::to_string(&wire).expect("serializes")
}

fn render(c: &mut Criterion) {
    let tools = schemars_tools();
    for provider in providers() {
        let renderer = provider.renderer.as_ref();
        let mut group = c.benchmark_group(format!("render_{}", provider.id));
        group.bench_function("tooldef_cold", |b| b.iter(|| tooldef_cold(black_box(renderer))));
        let cache = RenderCache::new();
        let bytes = tooldef_cached(&cache, renderer, &DESCRIPTORS);
        assert_eq!(bytes, tooldef_cold(renderer), "the cached set is the cold rendering");
        assert_eq!(bytes, tooldef_cached_tools(&cache, renderer));
        group.bench_function("tooldef_cached", |b| {
            b.iter(|| {
                tooldef_cached(black_box(&cache), black_box(renderer), black_box(&DESCRIPTORS))
            })
        });
        group.bench_function("tooldef_cached_tools", |b| {
            b.iter(|| tooldef_cached_tools(black_box(&cache), black_box(renderer)))
        });
        group.bench_function("copy_output_bytes", |b| b.iter(|| black_box(&bytes).clone()));
        group.bench_function("schemars_serde_json", |b| {
            b.iter(|| schemars_json(black_box(&tools), provider.envelope))
        });
        group.finish();
    }

    // rmcp keeps its tools (with schemas generated once and cached per type) in a router;
    // sending them is `list_all` plus serializing the list.
    let mut group = c.benchmark_group("render_rmcp");
    let router = rmcp_router::router();
    group.bench_function("rmcp_cached_list", |b| {
        b.iter(|| serde_json::to_string(&black_box(&router).list_all()).expect("serializes"))
    });
    group.bench_function("rmcp_build_router_and_list", |b| {
        b.iter(|| serde_json::to_string(&rmcp_router::router().list_all()).expect("serializes"))
    });
    group.finish();
    let _ = json!(null);
}

criterion_group! {
    name = benches;
    config = tooldef_benches::criterion_config();
    targets = render
}
criterion_main!(benches);
