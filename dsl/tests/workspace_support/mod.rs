//! Helpers shared by the workspace tests: a temporary directory, a tiny registry, `block_on`.

#![allow(dead_code)]

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{SystemTime, UNIX_EPOCH};

use tooldef::{
    BoxFuture, Executor, ToolCall, ToolDescriptor, ToolName, ToolResult, WorkspaceOp,
    WorkspaceTarget,
};
use tooldef::{Origin, ToolRegistry};

/// A directory under the system temp dir, removed on drop.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new() -> Self {
        static N: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
        let name = format!(
            "tooldef-ws-{}-{}-{nanos}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        std::fs::create_dir(&path).unwrap();
        TempDir(path)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }

    pub(crate) fn write(&self, name: &str, text: &str) {
        std::fs::write(self.0.join(name), text).unwrap();
    }

    pub(crate) fn remove(&self, name: &str) {
        std::fs::remove_file(self.0.join(name)).unwrap();
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A core tool for the test registry.
struct Core(ToolDescriptor);

impl Executor for Core {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.0
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        Box::pin(std::future::ready(ToolResult::success(call, "core".into())))
    }
}

/// The real registry with core tools, counting the batches a workspace sends it.
pub(crate) struct Reg {
    pub(crate) registry: ToolRegistry,
    batches: AtomicU64,
}

impl Reg {
    pub(crate) fn with_core(names: &[&str]) -> Self {
        let registry = ToolRegistry::new();
        for n in names {
            let name = ToolName::parse(n.to_string()).unwrap();
            let mut d = ToolDescriptor::with_name(name);
            d.description = format!("core {n}").into();
            registry.register(Arc::new(Core(d)), Origin::Core).unwrap();
        }
        Reg { registry, batches: AtomicU64::new(0) }
    }

    pub(crate) fn get(&self, name: &str) -> Option<Arc<dyn Executor>> {
        self.registry.get(name).map(|e| Arc::clone(e.executor()))
    }

    pub(crate) fn live(&self) -> Vec<String> {
        let snap = self.registry.snapshot();
        let mut out: Vec<String> = snap.entries().iter().map(|e| e.name().to_string()).collect();
        out.sort();
        out
    }

    pub(crate) fn batches(&self) -> u64 {
        self.batches.load(Ordering::Relaxed)
    }
}

impl WorkspaceTarget for Reg {
    fn apply_workspace(&self, ops: &[WorkspaceOp]) -> Result<(), String> {
        self.batches.fetch_add(1, Ordering::Relaxed);
        self.registry.apply_workspace(ops)
    }

    fn in_effect(&self, op: &WorkspaceOp) -> bool {
        self.registry.in_effect(op)
    }

    fn has_tool(&self, name: &ToolName) -> bool {
        self.registry.has_tool(name)
    }
}

struct Unpark(std::thread::Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }
}

/// Runs a future to completion on this thread.
pub(crate) fn block_on<F: Future>(fut: F) -> F::Output {
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let mut fut = std::pin::pin!(fut);
    loop {
        match fut.as_mut().poll(&mut cx) {
            Poll::Ready(v) => return v,
            Poll::Pending => std::thread::park(),
        }
    }
}
