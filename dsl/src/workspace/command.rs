//! Runs the `command` of an executable workspace spec: argv without a shell, the arguments JSON
//! on stdin, stdout as the result, with a deadline and a cap on output. A command that hangs,
//! crashes or floods stdout is killed (its whole process group on unix) and reaped, and the
//! failure becomes a typed [`CommandFailure`].
//!
//! # Limits
//!
//! - **Environment**: the command does not inherit the host's environment (where secrets live).
//!   It gets the variables of [`BASE_ENV`] that the host has set, plus the ones its spec names
//!   in `"command": {"env": [...]}`, and nothing else.
//! - **Time**: past its deadline (the spec's `timeout_ms`, else the workspace's
//!   `command_timeout`, 30 s by default) the command is killed.
//! - **Output**: past the workspace's `max_output` bytes on stdout (1 MiB by default) it is
//!   killed; of stderr, the first 2 KiB are kept for the error text, with control characters
//!   (NUL included) and bidirectional-text controls escaped, and the rest drained and dropped.
//! - **Concurrency**: at most the workspace's `max_concurrent_commands` run at once (16 by
//!   default); a call past it waits for a slot, without a thread, and its deadline starts when
//!   its command does (see [`super::pool`]).
//! - **Cancellation**: a call whose future is dropped (the caller cancelled it, an MCP
//!   `notifications/cancelled`, the client gone when its session ends) kills its command at
//!   once, as does [`super::Workspace::kill_commands`] (what a server calls before it exits).
//! - **Kill**: on unix the command runs in a process group of its own and the whole group is
//!   sent `SIGKILL`. On Linux, every other process still holding one of the command's stdin,
//!   stdout or stderr pipes is killed too (found through `/proc`), which reaches a descendant
//!   that left the group with `setsid` or `setpgid` but kept its streams. Not reached: such a
//!   descendant that also closed or redirected all three streams (a daemon done properly), or
//!   one that left the group on another unix. The call still ends at its deadline either way.
//!   Contain commands that daemonize with the operating system (a service manager's cgroup, a
//!   container); tooldef is not a sandbox.
//!
//! Owns process handling only; turning outcomes into [`crate::ToolResult`]s is the caller's.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use super::lock;
use super::pool::CommandPool;

/// How much of stderr is kept for the error message.
const STDERR_KEEP: usize = 2048;

/// The host's environment variables a command gets without asking (when the host has them set):
/// where programs are found, the user's home, the locale, the time zone and the temporary
/// directory. Anything else must be named in the spec's `"command": {"env": [...]}`.
#[cfg(not(windows))]
pub const BASE_ENV: &[&str] = &["PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR"];

/// The host's environment variables a command gets without asking (when the host has them set):
/// where programs are found, the system directories programs need to start, the user's profile
/// and the temporary directory. Anything else must be named in the spec's
/// `"command": {"env": [...]}`.
#[cfg(windows)]
pub const BASE_ENV: &[&str] = &[
    "PATH",
    "PATHEXT",
    "SystemRoot",
    "SystemDrive",
    "windir",
    "ComSpec",
    "USERPROFILE",
    "TEMP",
    "TMP",
];

/// Why a command did not produce a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandFailure {
    /// The program could not be started.
    #[error("could not start `{program}`: {message}")]
    Spawn {
        /// The program (the first element of the argv).
        program: String,
        /// The operating system's message.
        message: String,
    },
    /// The command ran past its deadline and was killed.
    #[error("timed out after {} ms and was killed", timeout.as_millis())]
    Timeout {
        /// The deadline it missed.
        timeout: Duration,
    },
    /// The command wrote more than the output cap to stdout and was killed.
    #[error("wrote more than {limit} bytes to stdout and was killed")]
    OutputTooLarge {
        /// The cap.
        limit: usize,
    },
    /// The command exited unsuccessfully (non-zero status or killed by a signal).
    #[error("{status}{}", stderr_suffix(stderr))]
    Exit {
        /// The exit status, as the operating system describes it.
        status: String,
        /// The start of what it wrote to stderr.
        stderr: String,
    },
    /// The command's stdout is not UTF-8 text.
    #[error("wrote output that is not UTF-8")]
    NotUtf8,
    /// The command was killed before it finished: its call was given up, or the workspace's
    /// commands were stopped ([`super::Workspace::kill_commands`]).
    #[error("was stopped before it finished and was killed")]
    Killed,
}

fn stderr_suffix(stderr: &str) -> String {
    let s = stderr.trim();
    if s.is_empty() { String::new() } else { format!("; stderr: {s}") }
}

/// What to run and within which limits.
#[derive(Debug, Clone)]
pub(crate) struct CommandSpec {
    /// argv; never empty (the spec parser refuses an empty array).
    pub(crate) argv: Vec<String>,
    /// Working directory (the workspace directory).
    pub(crate) cwd: PathBuf,
    /// Deadline for the whole run.
    pub(crate) timeout: Duration,
    /// Most bytes accepted on stdout.
    pub(crate) max_output: usize,
    /// Host variables passed through beyond [`BASE_ENV`].
    pub(crate) env: Vec<String>,
    /// The workspace's slots: how many commands may run at once.
    pub(crate) pool: Arc<CommandPool>,
}

/// How a running command is reached from outside its thread: the process group to kill, and
/// whether it was told to stop.
///
/// The group is killed only while the command's process is not yet reaped (its pid, the group
/// id, cannot have been reused): the runner reaps under the same lock and forgets the group.
#[derive(Debug, Default)]
pub(crate) struct Control {
    state: Mutex<ControlState>,
}

#[derive(Debug, Default)]
struct ControlState {
    /// The pid of the command (its process group's id), from its start to its reaping.
    group: Option<u32>,
    cancelled: bool,
}

impl Control {
    /// Stops the command: its process group is killed now if it runs, and the runner kills
    /// and reaps what is left (or does not start it).
    pub(crate) fn cancel(&self) {
        let mut state = lock(&self.state);
        state.cancelled = true;
        if let Some(pid) = state.group {
            kill_group(pid);
        }
    }

    fn cancelled(&self) -> bool {
        lock(&self.state).cancelled
    }

    /// Records the started command; `false` when the call was cancelled meanwhile (the caller
    /// then kills it).
    fn started(&self, pid: u32) -> bool {
        let mut state = lock(&self.state);
        if state.cancelled {
            return false;
        }
        state.group = Some(pid);
        true
    }

    /// `try_wait`, under the lock, forgetting the group once the command is reaped.
    fn try_reap(&self, child: &mut Child) -> io::Result<Option<ExitStatus>> {
        let mut state = lock(&self.state);
        let status = child.try_wait();
        if !matches!(status, Ok(None)) {
            state.group = None;
        }
        status
    }
}

/// Sends `SIGKILL` to the process group `pid` (unix; elsewhere the runner kills the child).
fn kill_group(pid: u32) {
    #[cfg(unix)]
    {
        if let Some(pid) = i32::try_from(pid).ok().and_then(rustix::process::Pid::from_raw) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// How often a runner looks whether its call was cancelled while it waits on the command.
const CANCEL_POLL: Duration = Duration::from_millis(20);

impl CommandSpec {
    /// Runs the command with `input` on stdin and returns its stdout; `control` stops it.
    pub(crate) fn run(&self, input: &[u8], control: &Control) -> Result<String, CommandFailure> {
        if control.cancelled() {
            return Err(CommandFailure::Killed);
        }
        let program = self.argv.first().map(String::as_str).unwrap_or_default();
        let mut cmd = Command::new(program);
        cmd.args(self.argv.iter().skip(1))
            .current_dir(&self.cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_clear();
        for name in BASE_ENV.iter().copied().chain(self.env.iter().map(String::as_str)) {
            if let Some(value) = std::env::var_os(name) {
                cmd.env(name, value);
            }
        }
        #[cfg(unix)]
        {
            // Its own process group, so that a timeout can kill everything it started.
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|e| CommandFailure::Spawn {
            program: program.to_owned(),
            message: e.to_string(),
        })?;
        let deadline = Instant::now() + self.timeout;
        let pipes = Pipes::of(&child);
        if !control.started(child.id()) {
            kill_and_reap(&mut child, &pipes, control);
            return Err(CommandFailure::Killed);
        }

        // Feed stdin from a thread: a child that never reads must not block us.
        if let Some(mut stdin) = child.stdin.take() {
            let input = input.to_vec();
            let _ = thread::Builder::new().name("tooldef-cmd-stdin".into()).spawn(move || {
                // A child that exits without reading closes the pipe: not our error.
                let _ = stdin.write_all(&input);
            });
        }
        let out_rx = child.stdout.take().map(|s| pump(s, self.max_output, "tooldef-cmd-stdout"));
        let err_rx = child.stderr.take().map(|s| pump(s, STDERR_KEEP, "tooldef-cmd-stderr"));

        let stdout = match out_rx {
            Some(rx) => match wait_for_output(&rx, deadline, control) {
                Waited::Output(Pumped { bytes, overflow: false }) => bytes,
                Waited::Output(Pumped { overflow: true, .. }) => {
                    kill_and_reap(&mut child, &pipes, control);
                    return Err(CommandFailure::OutputTooLarge { limit: self.max_output });
                }
                Waited::Deadline => {
                    kill_and_reap(&mut child, &pipes, control);
                    return Err(CommandFailure::Timeout { timeout: self.timeout });
                }
                Waited::Cancelled => {
                    kill_and_reap(&mut child, &pipes, control);
                    return Err(CommandFailure::Killed);
                }
            },
            None => Vec::new(),
        };
        let status = match wait_until(&mut child, deadline, control) {
            Waited::Output(status) => status,
            Waited::Deadline => {
                kill_and_reap(&mut child, &pipes, control);
                return Err(CommandFailure::Timeout { timeout: self.timeout });
            }
            Waited::Cancelled => {
                kill_and_reap(&mut child, &pipes, control);
                return Err(CommandFailure::Killed);
            }
        };
        if control.cancelled() && !status.success() {
            // Killed from outside (the group was sent `SIGKILL`) between two looks.
            return Err(CommandFailure::Killed);
        }
        if !status.success() {
            let stderr = err_rx
                .and_then(|rx| rx.recv_timeout(Duration::from_millis(100)).ok())
                .map(|p| sanitize(&p.bytes, p.overflow))
                .unwrap_or_default();
            return Err(CommandFailure::Exit { status: describe(status), stderr });
        }
        String::from_utf8(stdout).map_err(|_| CommandFailure::NotUtf8)
    }
}

struct Pumped {
    bytes: Vec<u8>,
    overflow: bool,
}

/// Reads `src` to its end on a thread, keeping at most `keep` bytes. For stdout (`keep` is the
/// cap) it stops at the first byte past the cap; for stderr it drains the rest so the child
/// never blocks on a full pipe.
fn pump<R: Read + Send + 'static>(mut src: R, keep: usize, name: &str) -> mpsc::Receiver<Pumped> {
    let (tx, rx) = mpsc::channel();
    let is_stdout = name.ends_with("stdout");
    let spawned = thread::Builder::new().name(name.into()).spawn(move || {
        let mut bytes = Vec::new();
        let mut buf = [0u8; 8192];
        let mut overflow = false;
        loop {
            match src.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    let room = keep.saturating_sub(bytes.len());
                    bytes.extend_from_slice(&buf[..n.min(room)]);
                    if n > room {
                        overflow = true;
                        if is_stdout {
                            break;
                        }
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = tx.send(Pumped { bytes, overflow });
    });
    if spawned.is_err() {
        // No thread, no reader: report an empty stream rather than hang.
        let (tx, rx) = mpsc::channel();
        let _ = tx.send(Pumped { bytes: Vec::new(), overflow: false });
        return rx;
    }
    rx
}

/// What a wait on the command ended with.
enum Waited<T> {
    Output(T),
    Deadline,
    Cancelled,
}

/// Waits for the stdout pump until the deadline, looking every [`CANCEL_POLL`] whether the
/// call was cancelled. A pump that went away without a word counts as the deadline (as it
/// always has: the command is killed).
fn wait_for_output(
    rx: &mpsc::Receiver<Pumped>,
    deadline: Instant,
    control: &Control,
) -> Waited<Pumped> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left.min(CANCEL_POLL)) {
            Ok(pumped) => return Waited::Output(pumped),
            Err(mpsc::RecvTimeoutError::Disconnected) => return Waited::Deadline,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if control.cancelled() {
            return Waited::Cancelled;
        }
        if Instant::now() >= deadline {
            return Waited::Deadline;
        }
    }
}

/// Polls the child until it exits, the deadline passes or the call is cancelled.
fn wait_until(child: &mut Child, deadline: Instant, control: &Control) -> Waited<ExitStatus> {
    let mut nap = Duration::from_micros(200);
    loop {
        match control.try_reap(child) {
            Ok(Some(status)) => return Waited::Output(status),
            Ok(None) => {}
            Err(_) => return Waited::Deadline,
        }
        if control.cancelled() {
            return Waited::Cancelled;
        }
        let now = Instant::now();
        if now >= deadline {
            return Waited::Deadline;
        }
        thread::sleep(nap.min(deadline - now));
        nap = (nap * 2).min(Duration::from_millis(10));
    }
}

/// The pipes a command was given, by identity, to find the processes that still hold them.
struct Pipes {
    /// The inodes of the stdin, stdout and stderr pipes (Linux; empty elsewhere).
    #[cfg(target_os = "linux")]
    inodes: Vec<u64>,
}

impl Pipes {
    fn of(child: &Child) -> Self {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsFd;
            let mut inodes = Vec::with_capacity(3);
            let fds = [
                child.stdin.as_ref().map(|p| p.as_fd()),
                child.stdout.as_ref().map(|p| p.as_fd()),
                child.stderr.as_ref().map(|p| p.as_fd()),
            ];
            for fd in fds.into_iter().flatten() {
                if let Ok(stat) = rustix::fs::fstat(fd) {
                    inodes.push(stat.st_ino);
                }
            }
            Pipes { inodes }
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = child;
            Pipes {}
        }
    }

    /// Kills every other process that holds one of the pipes: descendants that left the
    /// process group (`setsid`) but kept their standard streams. Reads `/proc`; a process of
    /// another user, or one that closed or redirected its streams, is not found.
    #[cfg(target_os = "linux")]
    fn kill_holders(&self) {
        use std::os::unix::ffi::OsStrExt;
        if self.inodes.is_empty() {
            return;
        }
        let wanted: Vec<String> = self.inodes.iter().map(|i| format!("pipe:[{i}]")).collect();
        let me = std::process::id();
        let Ok(procs) = std::fs::read_dir("/proc") else { return };
        for entry in procs.flatten() {
            let Some(pid) = std::str::from_utf8(entry.file_name().as_bytes())
                .ok()
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|&pid| pid != me)
            else {
                continue;
            };
            // A child of this host is either the command itself (killed with its group) or
            // another command caught between fork and exec, still holding copies of every
            // pipe: never a `setsid` escapee, whose parent is the command or init.
            if parent_of(&entry.path()) == Some(me) {
                continue;
            }
            let Ok(fds) = std::fs::read_dir(entry.path().join("fd")) else { continue };
            let holds = fds.flatten().any(|fd| {
                std::fs::read_link(fd.path()).is_ok_and(|link| {
                    wanted.iter().any(|w| link.as_os_str().as_bytes() == w.as_bytes())
                })
            });
            if holds
                && let Some(pid) = i32::try_from(pid).ok().and_then(rustix::process::Pid::from_raw)
            {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
        }
    }
}

/// The parent pid of the process whose `/proc` directory is `dir` (the field after the
/// command name in `stat`, which may itself hold spaces and parentheses).
#[cfg(target_os = "linux")]
fn parent_of(dir: &std::path::Path) -> Option<u32> {
    let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// Kills the child and everything in its process group, and (on Linux) every process still
/// holding one of its pipes, then reaps the child. The group is killed before the reap, while
/// the child's pid (the group id) cannot yet be reused; the reap goes through `control`, so a
/// kill from outside never reaches a reused pid either.
fn kill_and_reap(child: &mut Child, pipes: &Pipes, control: &Control) {
    kill_group(child.id());
    #[cfg(target_os = "linux")]
    pipes.kill_holders();
    #[cfg(not(target_os = "linux"))]
    let _ = pipes;
    let _ = child.kill();
    // `SIGKILL` cannot be caught: the child is gone in a moment.
    let mut nap = Duration::from_micros(100);
    while let Ok(None) = control.try_reap(child) {
        thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(10));
    }
}

/// stderr as it may go into an error text: lossy UTF-8, trimmed, on one line, with control
/// characters (NUL, escape sequences, line breaks) and bidirectional-text controls escaped, and
/// a mark when more was written than kept.
fn sanitize(bytes: &[u8], truncated: bool) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::with_capacity(text.len());
    for c in text.trim().chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() || is_bidi_control(c) => {
                out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    if truncated {
        out.push_str(" [truncated]");
    }
    out
}

/// Characters that reorder the text around them when displayed (the "trojan source" ones).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

fn describe(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exited with status {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("was killed by signal {sig}");
        }
    }
    format!("failed ({status})")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_is_escaped_onto_one_line_and_marked_when_cut() {
        assert_eq!(
            sanitize(b"  bad\0input\x1b[31m\nline two\t\xff\xe2\x80\xae  \n", false),
            "bad\\0input\\u{1b}[31m\\nline two\\t\u{fffd}\\u{202e}"
        );
        assert_eq!(sanitize(b"oops", true), "oops [truncated]");
        assert_eq!(sanitize(b" \n ", false), "");
    }
}
