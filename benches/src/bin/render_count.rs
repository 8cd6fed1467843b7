//! Renders the 100-tool corpus for OpenAI Chat, cold, a given number of times: a fixed amount
//! of work to count instructions on (`valgrind --tool=callgrind`), which, unlike time, repeats
//! exactly on a busy machine.
//!
//! `cargo build --release -p tooldef-benches --bin render_count`, then
//! `valgrind --tool=callgrind target/release/render_count [standard|wide] [N] [MODE]` (default
//! `standard 100 tooldef`); `callgrind_annotate` reads the profile. With `strict`, it renders for
//! OpenAI's strict mode instead; with `all`, for every renderer and mode (OpenAI Chat and
//! Responses, plain and strict; Anthropic and Bedrock, plain and strict; both Gemini forms;
//! Ollama; MCP), each render counted once per pass over the corpus. With `value`, it writes a
//! prebuilt `serde_json::Value` of the same JSON `N` times instead (the per-byte baseline); with
//! `schemars` (built with `--features bench`), it does what the cold render's baseline does,
//! `schema_for!` per tool in the Chat envelope and `serde_json::to_string` of the list. Run
//! each with `N` and with 0 and subtract, since the setup is counted too: the differences
//! divided by `N` are instructions per render, a ratio of them is noise-free.

// A measuring binary: printing its result is its job.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hint::black_box;

use tooldef::render::json_array;
use tooldef::{LossPolicy, Renderer, ToolDescriptor};
use tooldef_anthropic::AnthropicRenderer;
use tooldef_bedrock::BedrockRenderer;
use tooldef_benches::generated::{tooldef_const, wide_tooldef_macro};
use tooldef_benches::macro_descriptors;
use tooldef_gemini::GeminiRenderer;
use tooldef_mcp::McpRenderer;
use tooldef_ollama::OllamaRenderer;
use tooldef_openai::OpenAiRenderer;

fn main() {
    let mut args = std::env::args().skip(1);
    let corpus = args.next().unwrap_or_else(|| "standard".to_owned());
    let times: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100);
    let descriptors: Vec<&'static ToolDescriptor> = match corpus.as_str() {
        "standard" => tooldef_const::DESCRIPTORS.to_vec(),
        "wide" => macro_descriptors(wide_tooldef_macro::visit_tools),
        other => {
            eprintln!("unknown corpus {other:?}: standard or wide");
            std::process::exit(2);
        }
    };
    let mode = args.next();
    // `strict`: the same cold render in OpenAI's strict mode (every optional parameter made
    // required and nullable, each rendering keeping its way back).
    let renderer = OpenAiRenderer::chat().strict(mode.as_deref() == Some("strict"));
    let known: &[&str] = if cfg!(feature = "bench") {
        &["tooldef", "strict", "all", "value", "schemars"]
    } else {
        &["tooldef", "strict", "all", "value"]
    };
    if let Some(other) = mode.as_deref().filter(|m| !known.contains(m)) {
        eprintln!("unknown mode {other:?}: one of {known:?} (schemars needs --features bench)");
        std::process::exit(2);
    }
    #[cfg(feature = "bench")]
    if mode.as_deref() == Some("schemars") {
        use tooldef_benches::providers::Envelope;
        use tooldef_benches::schemars_corpus::{
            schemars_json, schemars_tools, wide_schemars_tools,
        };
        let tools = if corpus == "wide" { wide_schemars_tools() } else { schemars_tools() };
        let mut bytes = 0;
        for _ in 0..times {
            bytes = black_box(schemars_json(black_box(&tools), Envelope::OpenAiChat)).len();
        }
        println!(
            "{corpus}: {times} schema_for! renders of {} tools, {bytes} bytes each",
            tools.len()
        );
        return;
    }
    if mode.as_deref() == Some("value") {
        let rendered: Vec<_> = descriptors
            .iter()
            .map(|d| renderer.render(d, LossPolicy::Allow).expect("the corpus renders"))
            .collect();
        let value: serde_json::Value =
            serde_json::from_str(&json_array(&rendered)).expect("tooldef writes JSON");
        let mut bytes = 0;
        for _ in 0..times {
            bytes = black_box(serde_json::to_string(black_box(&value)).expect("serializes")).len();
        }
        println!("{corpus}: {times} writes of the prebuilt value, {bytes} bytes each");
        return;
    }
    if mode.as_deref() == Some("all") {
        let renderers = every_renderer();
        let mut bytes = 0;
        for _ in 0..times {
            for r in &renderers {
                let rendered: Vec<_> = black_box(&descriptors)
                    .iter()
                    .filter_map(|d| r.render(d, LossPolicy::Allow).ok())
                    .collect();
                bytes += black_box(json_array(&rendered)).len();
            }
        }
        println!(
            "{corpus}: {times} renders of {} tools by {} renderers, {bytes} bytes in all",
            descriptors.len(),
            renderers.len()
        );
        return;
    }
    let mut bytes = 0;
    for _ in 0..times {
        let rendered: Vec<_> = black_box(&descriptors)
            .iter()
            .map(|d| renderer.render(d, LossPolicy::Allow).expect("the corpus renders"))
            .collect();
        bytes = black_box(json_array(&rendered)).len();
    }
    println!("{corpus}: {times} renders of {} tools, {bytes} bytes each", descriptors.len());
}

/// Every renderer and mode `all` counts.
fn every_renderer() -> Vec<Box<dyn Renderer>> {
    vec![
        Box::new(OpenAiRenderer::chat()),
        Box::new(OpenAiRenderer::chat().strict(true)),
        Box::new(OpenAiRenderer::responses()),
        Box::new(OpenAiRenderer::responses().strict(true)),
        Box::new(AnthropicRenderer::new()),
        Box::new(AnthropicRenderer::new().strict(true)),
        Box::new(BedrockRenderer::new()),
        Box::new(BedrockRenderer::strict()),
        Box::new(GeminiRenderer::new()),
        Box::new(GeminiRenderer::openapi()),
        Box::new(OllamaRenderer::new()),
        Box::new(McpRenderer::new()),
    ]
}
