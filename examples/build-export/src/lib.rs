//! Example: provider JSON rendered at build time (see `build.rs`) and embedded in the binary, so
//! that a program sends its tools without rendering anything at run time.

/// The tools as an OpenAI Chat Completions `tools` array.
pub const OPENAI_CHAT_TOOLS: &str =
    include_str!(concat!(env!("OUT_DIR"), "/tools.openai-chat.json"));

/// The tools as an Anthropic Messages `tools` array.
pub const ANTHROPIC_TOOLS: &str = include_str!(concat!(env!("OUT_DIR"), "/tools.anthropic.json"));

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use tooldef::{LossPolicy, Renderer};
    use tooldef_openai::OpenAiRenderer;

    fn names(json: &str, pointer: &str) -> Vec<String> {
        let tools: Vec<Value> = serde_json::from_str(json).unwrap();
        tools
            .iter()
            .map(|t| t.pointer(pointer).and_then(Value::as_str).unwrap().to_owned())
            .collect()
    }

    #[test]
    fn the_embedded_json_holds_the_crate_tools_then_the_spec_files() {
        let expected = [
            "get_forecast",
            "convert_temperature",
            "create_issue",
            "get_weather",
            "search_docs",
            "write_outline",
        ];
        assert_eq!(names(OPENAI_CHAT_TOOLS, "/function/name"), expected);
        assert_eq!(names(ANTHROPIC_TOOLS, "/name"), expected);
    }

    #[test]
    fn the_embedded_json_is_what_the_renderer_gives_at_run_time() {
        let tools: Vec<Value> = serde_json::from_str(OPENAI_CHAT_TOOLS).unwrap();
        let forecast = OpenAiRenderer::chat()
            .render(&tooldef_example_weather_tools::GET_FORECAST, LossPolicy::Allow)
            .unwrap();
        assert_eq!(tools[0], forecast.to_value());
    }
}
