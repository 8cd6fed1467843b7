//! Reconciling a workspace directory of 1,000 tool files against the bare cost of one
//! directory read plus 1,000 `stat` calls (the least any mtime-based loader must do).
//!
//! `cargo bench -p tooldef-benches --features bench --bench workspace -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use tooldef::ToolRegistry;
use tooldef::workspace::Workspace;

const FILES: usize = 1000;
const SPEC_A: &str = r#"{"description":"Changed.","input_schema":{"type":"object"}}"#;
const SPEC_B: &str = r#"{"description":"Changed again.","input_schema":{"type":"object"}}"#;

/// A fresh directory of `FILES` small spec files, removed on drop.
struct Dir(PathBuf);

impl Dir {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("tooldef-ws-bench-{}", std::process::id()));
        let tools = dir.join("tools");
        std::fs::create_dir_all(&tools).expect("temp dir");
        for i in 0..FILES {
            let spec = format!(
                r#"{{"description":"Tool number {i}.","input_schema":{{"type":"object","properties":{{"query":{{"type":"string"}},"limit":{{"type":"integer","minimum":1,"maximum":100}}}},"required":["query"]}}}}"#
            );
            std::fs::write(tools.join(format!("tool_{i:04}.json")), spec).expect("write spec");
        }
        Dir(dir)
    }

    fn tools(&self) -> PathBuf {
        self.0.join("tools")
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One `read_dir` and one `stat` per entry.
fn dir_read_and_stats(dir: &Path) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("read_dir").flatten() {
        if std::fs::metadata(entry.path()).is_ok() {
            n += 1;
        }
    }
    n
}

fn workspace(c: &mut Criterion) {
    let dir = Dir::new();
    let tools = dir.tools();
    assert_eq!(dir_read_and_stats(&tools), FILES);
    let registry = ToolRegistry::new();
    let ws = Workspace::new(&tools);
    let first = ws.reconcile(&registry).expect("reconciles");
    assert!(first.skipped.is_empty(), "every generated spec loads");
    assert_eq!(registry.snapshot().len(), FILES);
    let before = ws.stats();
    ws.reconcile(&registry).expect("reconciles");
    assert_eq!(ws.stats().files_read, before.files_read, "a no-op reconcile reads no file");

    let mut group = c.benchmark_group("workspace_1000_files");
    group.bench_function("dir_read_and_1000_stats", |b| {
        b.iter(|| dir_read_and_stats(black_box(&tools)))
    });
    group.bench_function("reconcile_noop", |b| {
        b.iter(|| ws.reconcile(black_box(&registry)).expect("reconciles"))
    });
    // One file rewritten per iteration (alternating sizes, so the change is always visible);
    // the write is part of the measured time.
    let changed = tools.join("tool_0500.json");
    let mut flip = false;
    group.bench_function("reconcile_one_change", |b| {
        b.iter(|| {
            flip = !flip;
            let text = if flip { SPEC_A } else { SPEC_B };
            std::fs::write(&changed, text).expect("rewrite");
            ws.reconcile(black_box(&registry)).expect("reconciles")
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = tooldef_benches::criterion_config();
    targets = workspace
}
criterion_main!(benches);
