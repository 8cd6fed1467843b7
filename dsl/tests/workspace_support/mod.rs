//! Helpers shared by the workspace tests: a temporary directory, a tiny registry, `block_on`.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{SystemTime, UNIX_EPOCH};

use tooldef::{
    BoxFuture, Executor, ToolCall, ToolDescriptor, ToolName, ToolResult, WorkspaceOp,
    WorkspaceTarget,
};

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

#[derive(Default)]
struct State {
    core: BTreeMap<ToolName, Arc<dyn Executor>>,
    workspace: BTreeMap<ToolName, Arc<dyn Executor>>,
    stripped: std::collections::BTreeSet<ToolName>,
}

/// A minimal registry: core tools, workspace tools shadowing them, stripped names.
pub(crate) struct Reg {
    state: Mutex<State>,
    batches: AtomicU64,
}

impl Reg {
    pub(crate) fn with_core(names: &[&str]) -> Self {
        let mut state = State::default();
        for n in names {
            let name = ToolName::parse(n.to_string()).unwrap();
            let mut d = ToolDescriptor::with_name(name.clone());
            d.description = format!("core {n}").into();
            state.core.insert(name, Arc::new(Core(d)));
        }
        Reg { state: Mutex::new(state), batches: AtomicU64::new(0) }
    }

    pub(crate) fn get(&self, name: &str) -> Option<Arc<dyn Executor>> {
        let s = self.state.lock().unwrap();
        s.workspace
            .get(name)
            .cloned()
            .or_else(|| if s.stripped.contains(name) { None } else { s.core.get(name).cloned() })
    }

    pub(crate) fn live(&self) -> Vec<String> {
        let s = self.state.lock().unwrap();
        let mut out: Vec<String> = s.workspace.keys().map(|n| n.to_string()).collect();
        for n in s.core.keys() {
            if !s.stripped.contains(n) && !s.workspace.contains_key(n) {
                out.push(n.to_string());
            }
        }
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
        let mut s = self.state.lock().unwrap();
        for op in ops {
            match op {
                WorkspaceOp::Register(e) => {
                    s.workspace.insert(e.descriptor().name.clone(), Arc::clone(e));
                }
                WorkspaceOp::Unregister(n) => {
                    s.workspace.remove(n);
                }
                WorkspaceOp::Strip(n) => {
                    s.stripped.insert(n.clone());
                }
                WorkspaceOp::Unstrip(n) => {
                    s.stripped.remove(n);
                }
                other => return Err(format!("unknown op {other:?}")),
            }
        }
        Ok(())
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
