//! A `tools/` directory reconciled while an agent loop runs: the model calls `install_tool`,
//! which writes a spec file into the workspace directory; the next turn's assembly reconciles the
//! directory into the registry (one `stat` per file when nothing changed), so the new tool is in
//! the very next request, with no restart.
//!
//! Run: `cargo run -p tooldef-examples --example workspace_reload`
#![allow(clippy::print_stdout)] // an example prints what it does

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};
use tooldef::assembly::{Assembler, AssemblyContext, Contribution, Contributor};
use tooldef::{
    DynamicTool, Origin, Param, Schema, ToolDescriptor, ToolError, ToolName, ToolRegistry,
    Workspace,
};
use tooldef_examples::agent::{Transcript, run_openai_chat};
use tooldef_examples::fake_model::{FakeModel, Script};

static INSTALL_TOOL: ToolDescriptor = ToolDescriptor::new("install_tool")
    .description("Install a declarative tool into the workspace from a spec.")
    .params(
        const {
            &[
                Param::string("name").description("The tool's name (the file stem)."),
                Param::new("spec", Schema::any()).description("The spec file's JSON."),
            ]
        },
    );

/// `install_tool`: writes `dir/NAME.json`, refusing names that are not tool names (so no path
/// can escape the directory).
fn installer(dir: PathBuf) -> DynamicTool {
    DynamicTool::new_sync(INSTALL_TOOL.clone(), move |args: Value| {
        let name = ToolName::parse(args["name"].as_str().unwrap_or_default().to_owned())
            .map_err(ToolError::from_display)?;
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, args["spec"].to_string()).map_err(ToolError::from_display)?;
        Ok(json!({ "installed": name.as_str() }))
    })
}

fn run(dir: &Path) -> Result<(Transcript, Vec<Value>), Box<dyn std::error::Error>> {
    let registry = Arc::new(ToolRegistry::new());
    registry.register(Arc::new(installer(dir.to_owned())), Origin::Core)?;
    let workspace = Arc::new(Workspace::new(dir));

    let assembler = Assembler::new();
    let (reg, ws) = (Arc::clone(&registry), Arc::clone(&workspace));
    assembler.add_contributor(move |cx: &AssemblyContext, out: &mut Contribution| {
        // Reconcile before listing: a bad file is reported and skipped, never fatal.
        if let Err(e) = ws.reconcile(&*reg) {
            note(&e.to_string());
        }
        // Then the registry contributes its tools, as the model must see them.
        reg.contribute(cx, out);
    });

    let model = FakeModel::openai_chat(Script {
        tool: "install_tool".into(),
        arguments: json!({
            "name": "lookup_order",
            "spec": {
                "description": "Look up an order by its number.",
                "input_schema": {
                    "type": "object",
                    "properties": { "order": { "type": "string", "pattern": "^[0-9]{6}$" } },
                    "required": ["order"]
                }
            }
        }),
    })?;
    let dispatch = |call: &tooldef::ToolCall| registry.snapshot().call_blocking(call);
    let transcript =
        run_openai_chat(model.addr(), &assembler, &dispatch, "Add an order lookup tool.")?;
    Ok((transcript, model.requests()))
}

/// Examples print; libraries would log through `tracing`.
fn note(message: &str) {
    println!("reconcile: {message}");
}

fn temp_tools_dir(tag: &str) -> std::io::Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("tooldef-example-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = temp_tools_dir("workspace")?;
    let (transcript, requests) = run(&dir)?;
    for (i, request) in requests.iter().enumerate() {
        let names: Vec<&str> = request["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| t["function"]["name"].as_str())
            .collect();
        println!("request {}: tools {names:?}", i + 1);
    }
    println!("answer: {}", transcript.answer);
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_written_during_the_loop_is_offered_on_the_next_turn() {
        let dir = temp_tools_dir("workspace-test").unwrap();
        let (transcript, requests) = run(&dir).unwrap();
        let names = |i: usize| -> Vec<String> {
            requests[i]["tools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(names(0), ["install_tool"]);
        assert_eq!(names(1), ["install_tool", "lookup_order"]);
        let lookup = &requests[1]["tools"][1]["function"];
        assert_eq!(lookup["description"], "Look up an order by its number.");
        assert_eq!(lookup["parameters"]["properties"]["order"]["pattern"], "^[0-9]{6}$");
        assert!(!transcript.results[0].is_error, "{}", transcript.results[0].text());
        assert!(dir.join("lookup_order.json").is_file());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
