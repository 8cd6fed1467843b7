//! Name mapping with Ollama, which checks no name: nothing is renamed, and calls pass through
//! the name map unchanged to the tool.

use serde_json::json;
use tooldef::render::{LossPolicy, Renderer, render_mapped};
use tooldef_ollama::{OllamaRenderer, tool_calls};
use tooldef_testkit::names::{
    assert_dispatched_under_original_names, dotted_tool, original_arguments,
};

#[test]
fn every_name_is_sent_as_it_is() {
    let tool = dotted_tool();
    let renderer = OllamaRenderer::new();
    let set = render_mapped(&renderer, &[&tool], LossPolicy::Allow).unwrap();
    assert_eq!(set.rendered()[0], renderer.render(&tool, LossPolicy::Allow).unwrap());
    assert!(set.names().is_empty());
    let message = json!({"message": {"role": "assistant", "tool_calls": [
        {"function": {"name": "weather.get", "arguments": original_arguments()}}
    ]}});
    let calls = set.names().restore_all(tool_calls(&message).unwrap());
    assert_dispatched_under_original_names(&calls[0]);
}
