//! `tooldef import --from mcp-server [--out DIR] [--force] [--keep-going] -- CMD [ARG]...`: a
//! live MCP server's tools (started as a child on stdio) written as spec files, one per tool.
//!
//! Owns starting the server and listing its tools only; connecting and importing are
//! `tooldef_mcp::client`'s, and writing the spec files (every target checked first, a tool
//! that cannot be imported named on stderr, nothing written then unless `--keep-going`) is
//! the same code as for a file import.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;

use tooldef_mcp::client::{ClientOptions, McpClient};

/// Arguments of `tooldef import --from mcp-server`.
#[derive(Debug, PartialEq)]
pub(crate) struct McpImportArgs {
    pub(crate) command: Vec<OsString>,
    pub(crate) out: PathBuf,
    pub(crate) force: bool,
    pub(crate) keep_going: bool,
}

/// A server's tools as listed: those imported, those that could not be (name, why), and notes.
pub(crate) struct Listed {
    /// How the server is named in messages (its command line).
    pub(crate) label: String,
    pub(crate) tools: Vec<Arc<dyn tooldef::Executor>>,
    pub(crate) skipped: Vec<(String, String)>,
    pub(crate) notes: Vec<String>,
}

/// Starts the server `command`, lists every page of its tools and imports each one.
pub(crate) fn list(command: &[OsString]) -> Result<Listed, String> {
    let Some((program, rest)) = command.split_first() else {
        return Err("no server command given after `--`".into());
    };
    let mut command = tokio::process::Command::new(program);
    command.args(rest);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let listed = runtime.block_on(async {
        let client =
            McpClient::spawn(command, ClientOptions::default()).await.map_err(|e| e.to_string())?;
        let imported = client.import().await.map_err(|e| e.to_string());
        client.close();
        imported.map(|i| (client.label().to_owned(), i))
    });
    runtime.shutdown_background();
    let (label, imported) = listed?;
    Ok(Listed {
        label,
        tools: imported.tools.into_iter().map(|t| t as Arc<dyn tooldef::Executor>).collect(),
        skipped: imported.skipped.into_iter().map(|(n, e)| (n, e.to_string())).collect(),
        notes: imported.notes.iter().map(ToString::to_string).collect(),
    })
}
