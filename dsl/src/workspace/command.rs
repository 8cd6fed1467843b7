//! Runs the `command` of an executable workspace spec: argv without a shell, the arguments JSON
//! on stdin, stdout as the result, with a deadline and a cap on output. A command that hangs,
//! crashes or floods stdout is killed (its whole process group on unix) and reaped, and the
//! failure becomes a typed [`CommandFailure`].
//!
//! Owns process handling only; turning outcomes into [`crate::ToolResult`]s is the caller's.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// How much of stderr is kept for the error message.
const STDERR_KEEP: usize = 2048;

/// Why a command did not produce a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CommandFailure {
    /// The program could not be started.
    #[error("could not start `{program}`: {message}")]
    Spawn {
        /// The program (argv[0]).
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
}

impl CommandSpec {
    /// Runs the command with `input` on stdin and returns its stdout.
    pub(crate) fn run(&self, input: &[u8]) -> Result<String, CommandFailure> {
        let program = self.argv.first().map(String::as_str).unwrap_or_default();
        let mut cmd = Command::new(program);
        cmd.args(self.argv.iter().skip(1))
            .current_dir(&self.cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
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
            Some(rx) => match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Pumped { bytes, overflow: false }) => bytes,
                Ok(Pumped { overflow: true, .. }) => {
                    kill_and_reap(&mut child);
                    return Err(CommandFailure::OutputTooLarge { limit: self.max_output });
                }
                Err(_) => {
                    kill_and_reap(&mut child);
                    return Err(CommandFailure::Timeout { timeout: self.timeout });
                }
            },
            None => Vec::new(),
        };
        let status = match wait_until(&mut child, deadline) {
            Some(status) => status,
            None => {
                kill_and_reap(&mut child);
                return Err(CommandFailure::Timeout { timeout: self.timeout });
            }
        };
        if !status.success() {
            let stderr = err_rx
                .and_then(|rx| rx.recv_timeout(Duration::from_millis(100)).ok())
                .map(|p| String::from_utf8_lossy(&p.bytes).into_owned())
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
        let _ = tx.send(Pumped { bytes, overflow: overflow && is_stdout });
    });
    if spawned.is_err() {
        // No thread, no reader: report an empty stream rather than hang.
        let (tx, rx) = mpsc::channel();
        let _ = tx.send(Pumped { bytes: Vec::new(), overflow: false });
        return rx;
    }
    rx
}

/// Polls the child until it exits or the deadline passes.
fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    let mut nap = Duration::from_micros(200);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) => {}
            Err(_) => return None,
        }
        let now = Instant::now();
        if now >= deadline {
            return None;
        }
        thread::sleep(nap.min(deadline - now));
        nap = (nap * 2).min(Duration::from_millis(10));
    }
}

/// Kills the child and everything in its process group, then reaps the child. The group is
/// killed before the reap, while the child's pid (the group id) cannot yet be reused.
fn kill_and_reap(child: &mut Child) {
    #[cfg(unix)]
    {
        if let Some(pid) = i32::try_from(child.id()).ok().and_then(rustix::process::Pid::from_raw) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
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
