//! How the registry-side steps grow with the number of tools: 100, 1,000 and 10,000 tools (the
//! 100 const-DSL corpus tools and renamed copies of them), each step measured at every size
//! with criterion's per-element throughput, so a step that grows linearly shows the same time
//! per tool at every size.
//!
//! Steps: rendering the set cold (OpenAI Chat, every tool then `json_array`); the cached set
//! of a registry snapshot (`Snapshot::rendered`, one lookup once warm); a no-op reconcile of a
//! directory of that many spec files; and an assembly of the registry's tools through a
//! `ToolFilter` that keeps one name prefix.
//!
//! `cargo bench -p tooldef-benches --features bench --bench scale`

use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tooldef::render::json_array;
use tooldef::spec::spec_to_json;
use tooldef::workspace::Workspace;
use tooldef::{
    Assembler, AssemblyContext, DynamicTool, Executor, LossPolicy, Origin, RenderCache, Renderer,
    ToolDescriptor, ToolFilter, ToolName, ToolRegistry,
};
use tooldef_benches::criterion_config;
use tooldef_benches::generated::tooldef_const::DESCRIPTORS;
use tooldef_openai::OpenAiRenderer;

/// The sizes every step is measured at.
const SIZES: [usize; 3] = [100, 1_000, 10_000];

/// `n` descriptors: the corpus, then copies renamed `<name>_c<k>`, sorted by name.
fn descriptors(n: usize) -> Vec<ToolDescriptor> {
    let mut out: Vec<ToolDescriptor> = (0..n)
        .map(|i| {
            let mut d = DESCRIPTORS[i % DESCRIPTORS.len()].clone();
            let copy = i / DESCRIPTORS.len();
            if copy > 0 {
                let name = format!("{}_c{copy}", d.name.as_str());
                d.name = ToolName::parse(name).expect("a valid name");
            }
            d
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// A registry holding `descriptors` as core tools that answer with their arguments.
fn registry(descriptors: &[ToolDescriptor]) -> ToolRegistry {
    let registry = ToolRegistry::new();
    for d in descriptors {
        let tool: Arc<dyn Executor> = Arc::new(DynamicTool::new_sync(d.clone(), Ok));
        registry.register(tool, Origin::Core).expect("registers");
    }
    registry
}

/// A directory of one spec file per descriptor, removed on drop.
struct SpecDir(PathBuf);

impl SpecDir {
    fn new(descriptors: &[ToolDescriptor]) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "tooldef-scale-bench-{}-{}",
            std::process::id(),
            descriptors.len()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        for d in descriptors {
            let text = serde_json::to_string(&spec_to_json(d, None)).expect("serializes");
            std::fs::write(dir.join(format!("{}.json", d.name.as_str())), text).expect("writes");
        }
        SpecDir(dir)
    }
}

impl Drop for SpecDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scale(c: &mut Criterion) {
    let renderer = OpenAiRenderer::chat();
    let cx = AssemblyContext::new();

    let mut group = c.benchmark_group("scale_render_set_cold");
    for n in SIZES {
        let tools = descriptors(n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &tools, |b, tools| {
            b.iter(|| {
                let rendered: Vec<_> = tools
                    .iter()
                    .map(|d| renderer.render(black_box(d), LossPolicy::Allow).expect("renders"))
                    .collect();
                json_array(&rendered)
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("scale_registry_cached_set");
    for n in SIZES {
        let registry = registry(&descriptors(n));
        let cache = RenderCache::new();
        let snapshot = registry.snapshot();
        snapshot.rendered(&renderer, &cache, LossPolicy::Allow).expect("renders");
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                let set = registry
                    .snapshot()
                    .rendered(&renderer, black_box(&cache), LossPolicy::Allow)
                    .expect("renders");
                set.json().len()
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("scale_reconcile_noop");
    group.sample_size(10);
    for n in SIZES {
        let dir = SpecDir::new(&descriptors(n));
        let registry = ToolRegistry::new();
        let ws = Workspace::new(&dir.0);
        let first = ws.reconcile(&registry).expect("reconciles");
        assert!(first.skipped.is_empty(), "every spec file loads: {:?}", first.skipped);
        assert_eq!(registry.snapshot().len(), n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| ws.reconcile(black_box(&registry)).expect("reconciles"))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("scale_assemble_filtered");
    for n in SIZES {
        let registry = Arc::new(registry(&descriptors(n)));
        let asm = Assembler::new();
        asm.add_contributor(Arc::clone(&registry));
        asm.add_interceptor(ToolFilter::new().allow("search_*").expect("a valid pattern"));
        let kept = asm.assemble(&cx).expect("assembles").tool_names().count();
        assert!(kept > 0 && kept < n, "the filter keeps some tools: {kept} of {n}");
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| asm.assemble(black_box(&cx)).expect("assembles"))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = criterion_config();
    targets = scale
}
criterion_main!(benches);
