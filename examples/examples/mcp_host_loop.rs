//! A host's loop, end to end: an MCP server started as a child process (`units_server`), its
//! tools imported into a registry beside a local `#[tool]`, one prompt assembly rendered for
//! OpenAI and for Anthropic, and a model stand-in on 127.0.0.1 that calls one tool of each in
//! the same turn. Each call is routed back through the registry: the local one to the
//! function, the MCP one through the client to the child.
//!
//! Run: `cargo build -p tooldef-examples --bin units_server &&
//!       cargo run -p tooldef-examples --example mcp_host_loop`
#![allow(clippy::print_stdout)] // an example prints what it does

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tooldef::assembly::{AssemblyContext, Contribution, SectionSource};
use tooldef::{Assembler, Origin, ToolRegistry, ToolSchema, TypedTool, tool};
use tooldef_examples::agent::{Transcript, run_anthropic, run_openai_chat};
use tooldef_examples::fake_model::{FakeModel, Script};
use tooldef_mcp::client::{ClientOptions, McpClient};

/// Sky conditions.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "lowercase")]
enum Sky {
    /// No clouds.
    Clear,
    /// Some clouds.
    Cloudy,
}

/// The weather in a city.
#[derive(Debug, Serialize, ToolSchema)]
struct Weather {
    /// The city.
    city: String,
    /// Degrees Celsius.
    celsius: f64,
    /// The sky.
    sky: Sky,
}

/// Get the current weather for a city.
#[tool(read_only)]
async fn get_weather(
    /// City name, e.g. "Paris".
    #[param(length = 1..=80)]
    city: String,
) -> Result<Weather, String> {
    Ok(Weather { city, celsius: 18.5, sky: Sky::Clear })
}

/// Where `cargo` put the `units_server` binary: beside this example's directory.
fn units_server() -> std::io::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let mut dir = exe.parent().map(PathBuf::from).unwrap_or_default();
    if dir.ends_with("examples") || dir.ends_with("deps") {
        dir.pop();
    }
    let path = dir.join(format!("units_server{}", std::env::consts::EXE_SUFFIX));
    if path.is_file() {
        Ok(path)
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "{} is missing: build it with `cargo build -p tooldef-examples --bin units_server`",
                path.display()
            ),
        ))
    }
}

/// What one run saw: the transcripts and the request bodies of both providers.
struct Run {
    openai: (Transcript, Vec<Value>),
    anthropic: (Transcript, Vec<Value>),
    server: Option<(String, String)>,
    mcp_tool: tooldef::ToolDescriptor,
}

fn run() -> Result<Run, Box<dyn std::error::Error>> {
    // The MCP side needs an async runtime; the host loop itself stays synchronous and blocks on
    // the runtime only to dispatch a call.
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let command = tokio::process::Command::new(units_server()?);
    // Every exchange with the child has a deadline: a stuck server fails the run, never hangs it.
    let deadline = std::time::Duration::from_secs(20);
    let options = ClientOptions::default()
        .start_timeout(deadline)
        .list_timeout(deadline)
        .call_timeout(deadline);
    let client = runtime.block_on(McpClient::spawn(command, options))?;
    let imported = runtime.block_on(client.import())?;

    let registry = Arc::new(ToolRegistry::new());
    registry.register(TypedTool::shared(GetWeather), Origin::Core)?;
    imported.register(&registry)?;

    // One assembly: a persona section and whatever the registry holds when it is asked.
    let assembler = Assembler::new();
    assembler.add_contributor(SectionSource::fixed(
        "persona",
        0,
        "You are a travel assistant. Use the tools.",
    ));
    let tools = Arc::clone(&registry);
    assembler.add_contributor(move |_: &AssemblyContext, out: &mut Contribution| {
        out.tools(tools.snapshot().descriptors().cloned());
    });

    let dispatch = |call: &tooldef::ToolCall| runtime.block_on(registry.snapshot().call(call));
    let script = || {
        vec![
            Script { tool: "get_weather".into(), arguments: json!({ "city": "Lisbon" }) },
            Script {
                tool: "convert_length".into(),
                arguments: json!({ "value": 10, "from": "mile", "to": "metre" }),
            },
        ]
    };
    let question = "Weather in Lisbon, and how far is 10 miles in metres?";

    let model = FakeModel::openai_chat_calls(script())?;
    let openai = run_openai_chat(model.addr(), &assembler, &dispatch, question)?;
    let openai = (openai, model.requests());

    let model = FakeModel::anthropic_calls(script())?;
    let anthropic = run_anthropic(model.addr(), &assembler, &dispatch, question)?;
    let anthropic = (anthropic, model.requests());

    let server = client.server_info();
    let mcp_tool = registry.get("convert_length").ok_or("convert_length is not registered")?;
    client.close();
    Ok(Run { openai, anthropic, server, mcp_tool: mcp_tool.descriptor().clone() })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let run = run()?;
    if let Some((name, version)) = &run.server {
        println!("MCP server: {name} {version}, tool `{}` imported", run.mcp_tool.name);
    }
    for (provider, (transcript, requests)) in
        [("OpenAI", &run.openai), ("Anthropic", &run.anthropic)]
    {
        println!("{provider} tools: {}", serde_json::to_string(&requests[0]["tools"])?);
        for result in &transcript.results {
            println!("  `{}` returned {}", result.name, result.text());
        }
        println!("  answer: {}", transcript.answer);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tooldef::{LossPolicy, Renderer};
    use tooldef_anthropic::AnthropicRenderer;
    use tooldef_openai::OpenAiRenderer;

    #[test]
    fn both_providers_call_a_local_and_an_mcp_tool_and_each_call_is_routed_back() {
        let run = run().unwrap();
        assert_eq!(run.server, Some(("tooldef".into(), env!("CARGO_PKG_VERSION").into())));
        let weather = json!({ "city": "Lisbon", "celsius": 18.5, "sky": "clear" });
        let length = json!({ "value": 16093.44, "unit": "metre" });
        for (transcript, requests) in [&run.openai, &run.anthropic] {
            assert_eq!(transcript.turns, 2);
            let got: Vec<_> = transcript
                .results
                .iter()
                .map(|r| (r.name.as_str(), r.is_error, r.structured.clone()))
                .collect();
            assert_eq!(
                got,
                [
                    ("get_weather", false, Some(weather.clone())),
                    ("convert_length", false, Some(length.clone())),
                ]
            );
            assert_eq!(
                transcript.answer,
                format!(
                    "The tool answered: {} | {}",
                    transcript.results[0].text(),
                    transcript.results[1].text()
                )
            );
            // Both requests offered both tools, sorted by name as the registry lists them.
            assert_eq!(requests.len(), 2);
        }
        // The MCP tool went out exactly as its server described it, rendered per provider.
        let imported: Vec<Value> = run.openai.1[0]["tools"].as_array().unwrap().clone();
        let names: Vec<&str> =
            imported.iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["convert_length", "get_weather"]);
        let anthropic_names: Vec<&str> = run.anthropic.1[0]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap())
            .collect();
        assert_eq!(anthropic_names, ["convert_length", "get_weather"]);
        let local = <GetWeather as tooldef::Tool>::descriptor();
        let wire = OpenAiRenderer::chat().render(local, LossPolicy::Allow).unwrap().to_value();
        assert_eq!(imported[1], wire);
        let wire = AnthropicRenderer::new().render(local, LossPolicy::Allow).unwrap().to_value();
        assert_eq!(run.anthropic.1[0]["tools"][1], wire);
        // The MCP tool crossed the process boundary whole (annotations included) and was
        // rendered from its imported descriptor like any local tool.
        let mcp = &run.mcp_tool;
        assert_eq!(
            (mcp.annotations.read_only, mcp.annotations.idempotent),
            (Some(true), Some(true))
        );
        // Listed through rmcp's `Value`s, whose key order is the `Map`'s (sorted unless
        // serde_json's `preserve_order` is on): compare as a set.
        let mut params: Vec<&str> = mcp.params.iter().map(|p| &*p.name).collect();
        params.sort_unstable();
        assert_eq!(params, ["from", "to", "value"]);
        let wire = OpenAiRenderer::chat().render(mcp, LossPolicy::Allow).unwrap().to_value();
        assert_eq!(imported[0], wire);
    }
}
