//! Request fragments: the part of an `/api/chat` body that a [`PromptAssembly`] decides,
//! `{"messages":[{"role":"system","content":…}],"tools":[…]}`. The system message is left out
//! when the assembly's system text is empty, and `tools` when it has no tool; the caller appends
//! the conversation to `messages`.
//!
//! ```
//! use tooldef::{LossPolicy, PromptAssembly, Section, ToolDescriptor};
//! use tooldef_ollama::{OllamaRenderer, request_fragment};
//!
//! const SEARCH: ToolDescriptor = ToolDescriptor::new("search").description("Search the web.");
//!
//! let mut assembly = PromptAssembly::new();
//! assembly.push_section(Section::new("persona", 0, "Be brief."));
//! assembly.put_tool(SEARCH);
//!
//! let fragment = request_fragment(&assembly, &OllamaRenderer::new(), LossPolicy::Refuse, None).unwrap();
//! assert_eq!(fragment.body["messages"][0], serde_json::json!({"role": "system", "content": "Be brief."}));
//! assert_eq!(fragment.body["tools"][0]["function"]["name"], "search");
//! ```

use serde_json::{Map, Value, json};
use tooldef::{LossPolicy, PromptAssembly, RenderCache, RenderError, Rendered, RequestFragment};

use crate::render::OllamaRenderer;

/// The request fragment of `assembly`; tools come from `cache` when given.
///
/// # Errors
///
/// The renderer's set-level error, or the first tool that cannot be rendered.
pub fn request_fragment(
    assembly: &PromptAssembly,
    renderer: &OllamaRenderer,
    policy: LossPolicy,
    cache: Option<&RenderCache>,
) -> Result<RequestFragment, RenderError> {
    let rendered = assembly.rendered_tools(renderer, policy, cache)?;
    let tools: Vec<Value> = rendered.iter().map(Rendered::to_value).collect();
    let system = assembly.system_text();
    let mut body = Map::new();
    if !system.is_empty() {
        body.insert("messages".into(), json!([{"role": "system", "content": system}]));
    }
    if !tools.is_empty() {
        body.insert("tools".into(), Value::Array(tools));
    }
    Ok(RequestFragment::new(Value::Object(body), rendered))
}
