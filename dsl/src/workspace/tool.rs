//! The executor of a workspace spec: [`WorkspaceTool`], declarative or backed by a `command`
//! (run on a thread of its own so that an async caller is never blocked).
//!
//! Owns turning a call into a command run and its outcome into a [`ToolResult`]; running the
//! process is [`super::command`]'s.

use std::fmt;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use serde_json::Value;

use crate::descriptor::ToolDescriptor;
use crate::dispatch::{ArgValidator, prepare_arguments};
use crate::tool::{BoxFuture, Content, Executor, ToolCall, ToolResult};

use super::{command, lock};

/// A tool defined by a workspace spec file: declarative, or backed by a `command`.
pub struct WorkspaceTool {
    pub(super) descriptor: ToolDescriptor,
    pub(super) path: PathBuf,
    pub(super) command: Option<command::CommandSpec>,
}

impl fmt::Debug for WorkspaceTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkspaceTool")
            .field("name", &self.descriptor.name)
            .field("path", &self.path)
            .field("command", &self.command())
            .finish()
    }
}

impl WorkspaceTool {
    /// The spec file it came from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The argv it runs, if it is executable.
    pub fn command(&self) -> Option<&[String]> {
        self.command.as_ref().map(|c| c.argv.as_slice())
    }

    /// Runs the call on this thread, blocking until the command ends (or is killed).
    pub fn call_blocking(&self, call: &ToolCall) -> ToolResult {
        let name = &self.descriptor.name;
        let Some(cmd) = &self.command else {
            return ToolResult::error(call, format!("workspace tool {name} has no implementation"));
        };
        // The command gets the arguments as the schema promises them: checked, defaults filled.
        let input = match prepare_arguments(&self.descriptor, &ArgValidator::new(), &call.arguments)
        {
            Ok(value) => value.to_string().into_bytes(),
            Err(err) => return err.to_result(call),
        };
        match cmd.run(&input) {
            Ok(stdout) => {
                let text = stdout.strip_suffix('\n').unwrap_or(&stdout).to_owned();
                let structured = serde_json::from_str::<Value>(&text).ok();
                ToolResult {
                    call_id: call.id.clone(),
                    name: call.name.clone(),
                    content: vec![Content::Text { text }],
                    structured,
                    is_error: false,
                    repairs: Vec::new(),
                }
            }
            Err(failure) => ToolResult::error(call, format!("workspace tool {name} {failure}")),
        }
    }
}

impl Executor for WorkspaceTool {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.descriptor
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        if self.command.is_none() {
            let result = self.call_blocking(call);
            return Box::pin(std::future::ready(result));
        }
        // The command blocks: run it on its own thread and wake the caller when it is done.
        let shared = Arc::new(Mutex::new(Slot { value: None, waker: None }));
        let tool = WorkspaceTool {
            descriptor: self.descriptor.clone(),
            path: self.path.clone(),
            command: self.command.clone(),
        };
        let call_owned = call.clone();
        let writer = Arc::clone(&shared);
        let spawned =
            std::thread::Builder::new().name("tooldef-workspace-tool".into()).spawn(move || {
                let result = tool.call_blocking(&call_owned);
                let waker = {
                    let mut slot = lock(&writer);
                    slot.value = Some(result);
                    slot.waker.take()
                };
                if let Some(w) = waker {
                    w.wake();
                }
            });
        if let Err(e) = spawned {
            let result = ToolResult::error(
                call,
                format!("workspace tool {} could not start: {e}", self.descriptor.name),
            );
            return Box::pin(std::future::ready(result));
        }
        Box::pin(ThreadResult { shared })
    }
}

struct Slot {
    value: Option<ToolResult>,
    waker: Option<Waker>,
}

/// The result of a call running on another thread.
struct ThreadResult {
    shared: Arc<Mutex<Slot>>,
}

impl Future for ThreadResult {
    type Output = ToolResult;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolResult> {
        let mut slot = lock(&self.shared);
        match slot.value.take() {
            Some(v) => Poll::Ready(v),
            None => {
                slot.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}
