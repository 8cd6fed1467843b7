//! `tooldef import --from mcp-server [--out DIR] [--force] [--keep-going] -- CMD [ARG]...`: a
//! live MCP server's tools (started as a child on stdio) written as spec files, one per tool.
//!
//! Owns starting the server and listing its tools only; connecting and importing are
//! `tooldef_mcp::client`'s, and writing the spec files (every target checked first, a tool
//! that cannot be imported, a name listed twice or one that would not read back as a file
//! named on stderr, nothing written then unless `--keep-going`) is the same code as for a
//! file import. Everything the server wrote that reaches the terminal (tool names, its error
//! text, the notes on its schemas) has its control characters escaped.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;

use tooldef_mcp::client::{ClientOptions, McpClient, printable};

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
    /// Each tool, with where it is in the server's list (`#/tools/3`).
    pub(crate) tools: Vec<(Arc<dyn tooldef::Executor>, String)>,
    /// Each tool left out: its name and why, both printable.
    pub(crate) skipped: Vec<(String, String)>,
    /// Printable.
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
        let imported = client.import().await.map_err(|e| printable(&e.to_string()).into_owned());
        client.close();
        imported.map(|i| (client.label().to_owned(), i))
    });
    runtime.shutdown_background();
    let (label, imported) = listed?;
    let text = |s: &str| printable(s).into_owned();
    Ok(Listed {
        label: text(&label),
        tools: imported
            .tools
            .into_iter()
            .map(|t| {
                let from = format!("#/tools/{}", t.index());
                (t as Arc<dyn tooldef::Executor>, from)
            })
            .collect(),
        skipped: imported.skipped.iter().map(|(n, e)| (text(n), text(&e.to_string()))).collect(),
        notes: imported.notes.iter().map(|n| text(&n.to_string())).collect(),
    })
}
