//! `tooldef serve PATH...`: the tools of workspace directories as an MCP server on stdio.
//!
//! Each directory is a [`Workspace`] reconciled into one registry on every `tools/list` (a
//! broken file is skipped, a changed file that breaks keeps its last good version); clients are
//! told with `notifications/tools/list_changed` when the set changes; `tools/call` goes through
//! dispatch (arguments checked against the schema first, a command spec runs its command, a
//! declarative spec answers with an `isError` result). A command still running when the
//! session ends (the client closed its end, or went) is killed with its process group before
//! the server exits, so that none outlives it. Owns the wiring only; the protocol is
//! `tooldef_mcp::server`'s.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use tooldef::{ToolRegistry, Workspace};
use tooldef_mcp::server::McpServer;

/// Arguments of `tooldef serve`.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ServeArgs {
    pub(crate) paths: Vec<PathBuf>,
}

/// Runs the server until the client goes.
pub(crate) fn serve(args: ServeArgs) -> Result<(), String> {
    let registry = Arc::new(ToolRegistry::new());
    let mut workspaces = Vec::with_capacity(args.paths.len());
    for path in &args.paths {
        if !path.is_dir() {
            return Err(format!(
                "{}: not a directory; serve takes workspace directories",
                path.display()
            ));
        }
        let workspace = Arc::new(Workspace::new(path));
        // The first reconcile here, so that what is wrong on disk is said once at start.
        let report = workspace.reconcile(&*registry).map_err(|e| e.to_string())?;
        let mut err = std::io::stderr().lock();
        for skipped in &report.skipped {
            let _ = writeln!(err, "warning: {}: {}", skipped.path.display(), skipped.reason);
        }
        workspaces.push(workspace);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let server = McpServer::from_workspaces(registry, workspaces.clone());
    let served = runtime.block_on(server.serve_stdio()).map_err(|e| e.to_string());
    // stdin is read by a blocking thread that may still wait for input: do not wait for it.
    // Shutting down drops the calls still in flight, which kills their commands; what any
    // other path left running is killed here, before the process exits.
    runtime.shutdown_background();
    for workspace in &workspaces {
        workspace.kill_commands();
    }
    served
}
