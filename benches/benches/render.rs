//! Rendering the 100-tool corpus for each provider: tooldef cold (from descriptors), cached as a
//! set (`RenderCache::get_static_set`) and cached per tool (`RenderCache::get_static`), against
//! `schemars::schema_for!` + `serde_json` in the same provider envelope, against rmcp's tool
//! list, against copying the output bytes, and against `serde_json::to_string` of a prebuilt
//! `Value` of the same JSON. `render_openai_chat_wide` is the cold pair (and the prebuilt
//! `Value`) over the wide corpus.
//!
//! `cargo bench -p tooldef-benches --features bench --bench render -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use tooldef::render::json_array;
use tooldef::{LossPolicy, RenderCache, Renderer, ToolDescriptor};
use tooldef_benches::generated::tooldef_const::DESCRIPTORS;
use tooldef_benches::generated::{rmcp_router, wide_tooldef_macro};
use tooldef_benches::macro_descriptors;
use tooldef_benches::providers::{Envelope, providers};
use tooldef_benches::schemars_corpus::{schemars_json, schemars_tools, wide_schemars_tools};
use tooldef_openai::OpenAiRenderer;

fn tooldef_cold(renderer: &dyn Renderer, descriptors: &[&'static ToolDescriptor]) -> String {
    let rendered: Vec<_> = descriptors
        .iter()
        .map(|d| renderer.render(d, LossPolicy::Allow).expect("renders"))
        .collect();
    json_array(&rendered)
}

/// A `Value` equal to `json`, for `serde_json::to_string` to write back: the same JSON, hence
/// the same number of bytes (serde_json's map orders keys, which changes no length).
fn prebuilt_value(json: &str) -> Value {
    let value: Value = serde_json::from_str(json).expect("tooldef writes JSON");
    assert_eq!(serde_json::to_string(&value).expect("serializes").len(), json.len());
    value
}

/// The request's tool set from the set cache, copied into an owned `String` (as a caller
/// writing it into a request body copies it), so this measures lookup plus one copy.
fn tooldef_cached(
    cache: &RenderCache,
    renderer: &dyn Renderer,
    tools: &[&'static ToolDescriptor],
) -> String {
    cache.get_static_set(renderer, tools, LossPolicy::Allow).expect("renders").json().to_owned()
}

/// Each tool from the per-tool cache, joined anew.
fn tooldef_cached_tools(cache: &RenderCache, renderer: &dyn Renderer) -> String {
    let rendered: Vec<_> = DESCRIPTORS
        .iter()
        .map(|d| cache.get_static(renderer, d, LossPolicy::Allow).expect("renders"))
        .collect();
    json_array(&rendered)
}

fn render(c: &mut Criterion) {
    let tools = schemars_tools();
    for provider in providers() {
        let renderer = provider.renderer.as_ref();
        let mut group = c.benchmark_group(format!("render_{}", provider.id));
        group.bench_function("tooldef_cold", |b| {
            b.iter(|| tooldef_cold(black_box(renderer), black_box(&DESCRIPTORS)))
        });
        let cache = RenderCache::new();
        let bytes = tooldef_cached(&cache, renderer, &DESCRIPTORS);
        assert_eq!(
            bytes,
            tooldef_cold(renderer, &DESCRIPTORS),
            "the cached set is the cold rendering"
        );
        let value = prebuilt_value(&bytes);
        group.bench_function("serde_json_prebuilt_value", |b| {
            b.iter(|| serde_json::to_string(black_box(&value)).expect("serializes"))
        });
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

    // The wide corpus (64-bit integers, nested structs, documented enum variants), from the
    // `#[tool]` form's descriptors, for OpenAI Chat.
    let wide = macro_descriptors(wide_tooldef_macro::visit_tools);
    let wide_tools = wide_schemars_tools();
    let chat = OpenAiRenderer::chat();
    let mut group = c.benchmark_group("render_openai_chat_wide");
    group.bench_function("tooldef_cold", |b| {
        b.iter(|| tooldef_cold(black_box(&chat), black_box(&wide)))
    });
    let value = prebuilt_value(&tooldef_cold(&chat, &wide));
    group.bench_function("serde_json_prebuilt_value", |b| {
        b.iter(|| serde_json::to_string(black_box(&value)).expect("serializes"))
    });
    group.bench_function("schemars_serde_json", |b| {
        b.iter(|| schemars_json(black_box(&wide_tools), Envelope::OpenAiChat))
    });
    group.finish();

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
