//! `tooldef import --from mcp-server [--out DIR] [--force] -- CMD [ARG]...`: a live MCP server's
//! tools (started as a child on stdio) written as spec files, one per tool.
//!
//! Every tool is checked before anything is written; a tool that cannot be imported is named
//! on stderr and nothing is written. Owns the wiring only; connecting and importing are
//! `tooldef_mcp::client`'s.

use std::ffi::OsString;
use std::path::PathBuf;

use tooldef_mcp::client::{ClientOptions, McpClient};

/// Arguments of `tooldef import --from mcp-server`.
#[derive(Debug, PartialEq)]
pub(crate) struct McpImportArgs {
    pub(crate) command: Vec<OsString>,
    pub(crate) out: PathBuf,
    pub(crate) force: bool,
}

/// What the import produced: the paths written (for stdout) and warnings (for stderr).
pub(crate) struct Written {
    pub(crate) listing: String,
    pub(crate) warnings: Vec<String>,
}

/// Starts the server, imports its tools and writes them as spec files.
pub(crate) fn import(args: McpImportArgs) -> Result<Written, String> {
    let Some((program, rest)) = args.command.split_first() else {
        return Err("no server command given after `--`".into());
    };
    let mut command = tokio::process::Command::new(program);
    command.args(rest);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let imported = runtime.block_on(async {
        let client =
            McpClient::spawn(command, ClientOptions::default()).await.map_err(|e| e.to_string())?;
        let imported = client.import().await.map_err(|e| e.to_string());
        client.close();
        imported.map(|i| (client.label().to_owned(), i))
    });
    runtime.shutdown_background();
    let (label, imported) = imported?;
    if !imported.skipped.is_empty() {
        let lines: Vec<String> = imported
            .skipped
            .iter()
            .map(|(name, e)| format!("{label}: tool `{name}`: {e}"))
            .collect();
        return Err(lines.join("\nerror: "));
    }
    let mut warnings: Vec<String> =
        imported.notes.iter().map(|n| format!("note: {label}: {n}")).collect();
    let mut files = Vec::with_capacity(imported.tools.len());
    for tool in &imported.tools {
        let d = tooldef::Executor::descriptor(&**tool);
        let path = args.out.join(format!("{}.json", d.name));
        if !args.force && path.exists() {
            return Err(format!("{}: already exists; pass `--force` to overwrite", path.display()));
        }
        let spec = tooldef::spec_to_literal(d, None);
        let mut json = serde_json::to_string_pretty(&spec)
            .map_err(|e| format!("{label}: tool `{}`: {e}", d.name))?;
        json.push('\n');
        files.push((path, json));
    }
    if files.is_empty() {
        warnings.push(format!("warning: {label}: no tools found"));
    }
    std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
    let mut listing = String::new();
    for (path, json) in files {
        std::fs::write(&path, json).map_err(|e| format!("{}: {e}", path.display()))?;
        listing.push_str(&format!("{}\n", path.display()));
    }
    Ok(Written { listing, warnings })
}
