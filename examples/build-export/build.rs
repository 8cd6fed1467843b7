//! Renders the tools of `tooldef-example-weather-tools` (defined with the const DSL) and the
//! spec files of `examples/tools/` and `examples/tools/recursive/` to OpenAI Chat and Anthropic
//! JSON in `OUT_DIR`, once per build; the crate includes the files with `include_str!`.
#![allow(clippy::print_stdout)] // cargo reads a build script's directives from stdout

use std::path::Path;

use tooldef::export::{Target, export_to_out_dir, load_specs};
use tooldef_anthropic::AnthropicRenderer;
use tooldef_openai::OpenAiRenderer;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools");
    // `recursive/` is a subdirectory, so it is named too: OpenAI and Anthropic take it.
    let specs = load_specs(&[dir.clone(), dir.join("recursive")])?;
    for line in specs.rerun_if_changed() {
        println!("{line}");
    }
    for skipped in &specs.skipped {
        println!("cargo:warning={skipped}");
    }
    let mut tools = tooldef_example_weather_tools::tools().to_vec();
    tools.extend(specs.descriptors());

    let openai = OpenAiRenderer::chat();
    let anthropic = AnthropicRenderer::new();
    let written = export_to_out_dir(
        &tools,
        &[
            Target::new(&openai, "tools.openai-chat.json"),
            Target::new(&anthropic, "tools.anthropic.json"),
        ],
    )?;
    for file in &written {
        // Lossy changes are worth a look; lossless ones (a title the wire format has no field
        // for) are not worth a warning on every build.
        for change in file.report.lossy() {
            println!("cargo:warning={}: {change}", file.renderer);
        }
    }
    Ok(())
}
