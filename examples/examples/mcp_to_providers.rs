//! Converting an MCP server's tool list to Gemini and to OpenAI strict mode, with the report of
//! every change printed: the example starts a fake MCP server on 127.0.0.1 (JSON-RPC over HTTP
//! POST), asks it for `tools/list`, imports the tools, and renders them for both providers.
//!
//! Run: `cargo run -p tooldef-examples --example mcp_to_providers`
#![allow(clippy::print_stdout)] // an example prints what it does

use serde_json::{Value, json};
use tooldef::{LossPolicy, Renderer, Report, ToolDescriptor, render_json};
use tooldef_examples::http::{Response, Server, post_json};
use tooldef_gemini::GeminiRenderer;
use tooldef_openai::OpenAiRenderer;

/// What a filesystem-style MCP server lists (the shape of `tools/list` results in the wild:
/// optional parameters, defaults, an output schema, annotations, `_meta`).
fn server_tools() -> Value {
    json!({
        "tools": [
            {
                "name": "read_file",
                "title": "Read file",
                "description": "Read a text file.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "path": { "type": "string", "description": "Path inside the root." },
                        "head": { "type": "integer", "minimum": 1, "description": "Only the first N lines." },
                        "encoding": { "type": "string", "enum": ["utf-8", "latin-1"], "default": "utf-8" }
                    },
                    "required": ["path"]
                },
                "outputSchema": {
                    "type": "object",
                    "properties": { "content": { "type": "string" } },
                    "required": ["content"]
                },
                "annotations": { "readOnlyHint": true },
                "_meta": { "example.com/cost": 1 }
            },
            {
                "name": "search_files",
                "description": "Find files whose names match a glob.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "pattern": { "type": "string" },
                        "exclude": { "type": "array", "items": { "type": "string" }, "maxItems": 20 }
                    },
                    "required": ["pattern"],
                    "additionalProperties": false
                }
            }
        ]
    })
}

/// A fake MCP server answering `tools/list` (JSON-RPC 2.0 over HTTP POST).
fn start_server() -> std::io::Result<Server> {
    Server::start(|req| {
        let Ok(body) = req.json() else { return Response::error(400, "not JSON") };
        match body["method"].as_str() {
            Some("tools/list") => Response::json(
                &json!({ "jsonrpc": "2.0", "id": body["id"], "result": server_tools() }),
            ),
            _ => Response::json(&json!({
                "jsonrpc": "2.0", "id": body["id"],
                "error": { "code": -32601, "message": "method not found" }
            })),
        }
    })
}

/// Each provider's tools JSON and the report of what rendering changed.
struct Converted {
    gemini: (String, Report),
    openai_strict: (String, Report),
    tools: Vec<ToolDescriptor>,
}

fn run() -> Result<Converted, Box<dyn std::error::Error>> {
    let server = start_server()?;
    let request = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {} });
    let list = post_json(server.addr(), "/mcp", &[], &request)?;
    let imported = tooldef_mcp::import_tools(&list)?;
    for note in &imported.notes {
        println!("import note: {note}");
    }
    let tools: Vec<&ToolDescriptor> = imported.tools.iter().collect();
    let gemini = render_json(&GeminiRenderer::new(), &tools, LossPolicy::Allow, true)?;
    let openai_strict =
        render_json(&OpenAiRenderer::chat().strict(true), &tools, LossPolicy::Allow, true)?;
    Ok(Converted { gemini, openai_strict, tools: imported.tools })
}

fn print(provider: &dyn Renderer, (json, report): &(String, Report)) {
    println!("== {} ==\n{json}", provider.name());
    if report.is_empty() {
        println!("(no changes)");
    }
    for change in report {
        println!("  {change}");
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let converted = run()?;
    let names: Vec<&str> = converted.tools.iter().map(|t| t.name.as_str()).collect();
    println!("imported from MCP: {}", names.join(", "));
    print(&GeminiRenderer::new(), &converted.gemini);
    print(&OpenAiRenderer::chat().strict(true), &converted.openai_strict);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tooldef::ChangeKind;
    use tooldef_testkit::specs::{gemini, openai};

    #[test]
    fn the_mcp_tools_become_valid_gemini_and_openai_strict_tools_with_a_report() {
        let converted = run().unwrap();
        assert_eq!(
            converted.tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
            ["read_file", "search_files"]
        );

        let declarations: Vec<Value> = serde_json::from_str(&converted.gemini.0).unwrap();
        for d in &declarations {
            gemini::validate_function_declaration(d).unwrap();
        }
        let tools: Vec<Value> = serde_json::from_str(&converted.openai_strict.0).unwrap();
        for t in &tools {
            openai::validate_chat_completion_tool(t).unwrap();
            assert_eq!(t["function"]["strict"], true);
        }
        // Strict mode: every property required, the optional ones nullable, and it says so.
        let read = &tools[0]["function"]["parameters"];
        // Tools listed by an MCP server come through rmcp's `Value`s, whose key order is the
        // `Map`'s (sorted unless serde_json's `preserve_order` is on): compare as a set.
        let mut required: Vec<&str> =
            read["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        required.sort_unstable();
        assert_eq!(required, ["encoding", "head", "path"]);
        assert_eq!(read["properties"]["head"]["type"], json!(["integer", "null"]));
        let report = &converted.openai_strict.1;
        let made_required: Vec<&str> = report
            .iter()
            .filter(|c| c.kind == ChangeKind::MadeRequired)
            .map(|c| c.param.as_str())
            .collect::<Vec<_>>();
        let mut made_required = made_required;
        made_required.sort_unstable();
        assert_eq!(made_required, ["encoding", "exclude", "head"]);
        assert!(!converted.gemini.1.is_empty());
    }
}
