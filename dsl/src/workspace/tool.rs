//! The executor of a workspace spec: [`WorkspaceTool`], declarative or backed by a `command`
//! (run on a thread of its own so that an async caller is never blocked, once the workspace's
//! cap of running commands leaves it a slot; a call dropped before its command ends kills it).
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

use crate::descriptor::{ToolDescriptor, ToolName};
use crate::dispatch::{ArgValidator, prepare_arguments};
use crate::tool::{BoxFuture, Content, Executor, ToolCall, ToolResult};

use super::{command, lock, pool};

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

    /// Runs the call on this thread, blocking until the command ends (or is killed). Past the
    /// workspace's cap of commands running at once, it first waits for a slot.
    pub fn call_blocking(&self, call: &ToolCall) -> ToolResult {
        let (cmd, input) = match self.prepare(call) {
            Ok(job) => job,
            Err(result) => return *result,
        };
        let mut slot = cmd.pool.ticket().wait_blocking();
        let control = Arc::new(command::Control::default());
        slot.track(&control);
        let outcome = cmd.run(&input, &control);
        drop(slot);
        outcome_result(&self.descriptor.name, call, outcome)
    }

    /// The command and its stdin for `call`, or the result that answers it at once (no
    /// command, arguments that do not fit the schema).
    fn prepare(
        &self,
        call: &ToolCall,
    ) -> Result<(&command::CommandSpec, Vec<u8>), Box<ToolResult>> {
        let name = &self.descriptor.name;
        let Some(cmd) = &self.command else {
            return Err(Box::new(ToolResult::error(
                call,
                format!("workspace tool {name} has no implementation"),
            )));
        };
        // The command gets the arguments as the schema promises them: checked, defaults filled.
        match prepare_arguments(&self.descriptor, &ArgValidator::new(), &call.arguments) {
            Ok(value) => Ok((cmd, value.to_string().into_bytes())),
            Err(err) => Err(Box::new(err.to_result(call))),
        }
    }
}

/// A command's outcome as the call's result.
fn outcome_result(
    name: &ToolName,
    call: &ToolCall,
    outcome: Result<String, command::CommandFailure>,
) -> ToolResult {
    match outcome {
        Ok(stdout) => {
            let text = stdout.strip_suffix('\n').unwrap_or(&stdout).to_owned();
            let structured = serde_json::from_str::<Value>(&text).ok();
            ToolResult {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content: vec![Content::Text { text }],
                structured,
                is_error: false,
                outcome: crate::Outcome::Success,
                repairs: Vec::new(),
            }
        }
        // A command killed at its deadline is a timeout, as a call timeout is.
        Err(failure @ command::CommandFailure::Timeout { .. }) => ToolResult::error_with(
            call,
            crate::Outcome::TimedOut,
            format!("workspace tool {name} {failure}"),
        ),
        Err(failure) => ToolResult::error(call, format!("workspace tool {name} {failure}")),
    }
}

impl Executor for WorkspaceTool {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.descriptor
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        let (cmd, input) = match self.prepare(call) {
            Ok(job) => job,
            Err(result) => return Box::pin(std::future::ready(*result)),
        };
        Box::pin(CommandCall {
            state: State::Waiting(cmd.pool.ticket()),
            job: Some(Job { cmd: cmd.clone(), input, call: call.clone() }),
            name: self.descriptor.name.clone(),
        })
    }
}

/// What a command call's thread needs.
struct Job {
    cmd: command::CommandSpec,
    input: Vec<u8>,
    call: ToolCall,
}

/// A call of a command tool: it waits for a slot, runs the command on a thread of its own
/// (the process blocks; the caller must not), and kills the command if dropped before it ends.
struct CommandCall {
    state: State,
    job: Option<Job>,
    name: ToolName,
}

enum State {
    Waiting(pool::Ticket),
    Running { shared: Arc<Mutex<Handoff>>, control: Arc<command::Control> },
    Done,
}

impl Future for CommandCall {
    type Output = ToolResult;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<ToolResult> {
        let this = &mut *self;
        loop {
            match &mut this.state {
                State::Waiting(ticket) => {
                    let Poll::Ready(slot) = ticket.poll_slot(cx) else { return Poll::Pending };
                    let Some(job) = this.job.take() else {
                        this.state = State::Done;
                        return Poll::Pending;
                    };
                    match start(job, slot, &this.name) {
                        Ok((shared, control)) => this.state = State::Running { shared, control },
                        Err(result) => {
                            this.state = State::Done;
                            return Poll::Ready(*result);
                        }
                    }
                }
                State::Running { shared, .. } => {
                    let mut handoff = lock(shared);
                    return match handoff.value.take() {
                        Some(v) => {
                            drop(handoff);
                            this.state = State::Done;
                            Poll::Ready(v)
                        }
                        None => {
                            handoff.waker = Some(cx.waker().clone());
                            Poll::Pending
                        }
                    };
                }
                State::Done => return Poll::Pending,
            }
        }
    }
}

impl Drop for CommandCall {
    fn drop(&mut self) {
        // Given up while its command runs: kill it now (its thread reaps it and lets the slot
        // go). Given up while waiting: the ticket leaves the line as it drops.
        if let State::Running { control, .. } = &self.state {
            control.cancel();
        }
    }
}

/// Starts `job`'s command on a thread holding `slot`; the error result when no thread could
/// be had.
fn start(job: Job, mut slot: pool::Slot, name: &ToolName) -> Result<Started, Box<ToolResult>> {
    let shared = Arc::new(Mutex::new(Handoff { value: None, waker: None }));
    let control = Arc::new(command::Control::default());
    slot.track(&control);
    let writer = Arc::clone(&shared);
    let runner = Arc::clone(&control);
    let call = job.call.clone();
    let tool = name.clone();
    let spawned =
        std::thread::Builder::new().name("tooldef-workspace-tool".into()).spawn(move || {
            let outcome = job.cmd.run(&job.input, &runner);
            // The process is reaped: its slot is free for the next call.
            drop(slot);
            let result = outcome_result(&tool, &job.call, outcome);
            let waker = {
                let mut handoff = lock(&writer);
                handoff.value = Some(result);
                handoff.waker.take()
            };
            if let Some(w) = waker {
                w.wake();
            }
        });
    match spawned {
        Ok(_) => Ok((shared, control)),
        Err(e) => {
            let message = format!("workspace tool {name} could not start: {e}");
            Err(Box::new(ToolResult::error(&call, message)))
        }
    }
}

/// A started command: where its result will be, and how to stop it.
type Started = (Arc<Mutex<Handoff>>, Arc<command::Control>);

/// Where the thread leaves the result, and the waker of the call waiting for it.
struct Handoff {
    value: Option<ToolResult>,
    waker: Option<Waker>,
}
