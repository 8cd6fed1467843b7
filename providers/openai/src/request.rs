//! Request fragments: the part of a Chat Completions or Responses body that a
//! [`PromptAssembly`] decides, its system text and its tools.
//!
//! Chat gives `{"messages":[{"role":"system","content":…}],"tools":[…]}`, Responses gives
//! `{"instructions":…,"tools":[…]}`, following the renderer's [`Api`]. The system message (or
//! `instructions`) is left out when the assembly's system text is empty, and `tools` when it has
//! no tool. The caller merges the fragment into its body and appends the conversation.
//!
//! ```
//! use tooldef::{LossPolicy, PromptAssembly, Section, ToolDescriptor};
//! use tooldef_openai::{OpenAiRenderer, request_fragment};
//!
//! const SEARCH: ToolDescriptor = ToolDescriptor::new("search").description("Search the web.");
//!
//! let mut assembly = PromptAssembly::new();
//! assembly.push_section(Section::new("persona", 0, "Be brief."));
//! assembly.put_tool(SEARCH);
//!
//! let chat = request_fragment(&assembly, &OpenAiRenderer::chat(), LossPolicy::Refuse, None).unwrap();
//! assert_eq!(chat.body["messages"][0], serde_json::json!({"role": "system", "content": "Be brief."}));
//! assert_eq!(chat.body["tools"][0]["function"]["name"], "search");
//!
//! let responses = request_fragment(&assembly, &OpenAiRenderer::responses(), LossPolicy::Refuse, None).unwrap();
//! assert_eq!(responses.body["instructions"], "Be brief.");
//! assert_eq!(responses.body["tools"][0]["name"], "search");
//! ```

use serde_json::{Map, Value, json};
use tooldef::{LossPolicy, PromptAssembly, RenderCache, RenderError, Rendered, RequestFragment};

use crate::render::{Api, OpenAiRenderer};

/// The request fragment of `assembly` for `renderer`'s API; tools come from `cache` when given.
///
/// The fragment keeps the tools' renderings, so it is their way back: under strict mode, give
/// the model's calls back with `fragment.restore_all(calls)`
/// ([`WayBack::restore_all`](tooldef::WayBack::restore_all)) before dispatch.
///
/// # Errors
///
/// The renderer's set-level error, or the first tool that cannot be rendered.
pub fn request_fragment(
    assembly: &PromptAssembly,
    renderer: &OpenAiRenderer,
    policy: LossPolicy,
    cache: Option<&RenderCache>,
) -> Result<RequestFragment, RenderError> {
    let rendered = assembly.rendered_tools(renderer, policy, cache)?;
    let tools: Vec<Value> = rendered.iter().map(Rendered::to_value).collect();
    let system = assembly.system_text();
    let mut body = Map::new();
    if !system.is_empty() {
        match renderer.api() {
            Api::Chat => {
                body.insert("messages".into(), json!([{"role": "system", "content": system}]));
            }
            Api::Responses => {
                body.insert("instructions".into(), Value::String(system));
            }
        }
    }
    if !tools.is_empty() {
        body.insert("tools".into(), Value::Array(tools));
    }
    Ok(RequestFragment::new(Value::Object(body), rendered))
}
