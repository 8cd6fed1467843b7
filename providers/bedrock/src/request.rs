//! Request fragments: the part of a Converse request body that a [`PromptAssembly`] decides,
//! `{"system":[{"text":…}],"toolConfig":{"tools":[…]}}`. `system` is left out when the
//! assembly's system text is empty. Converse rejects a `toolConfig` without tools, so an assembly
//! with no tool gives no `toolConfig` (rather than the renderer's empty-set error); any other
//! set-level check of the renderer applies.
//!
//! ```
//! use tooldef::{LossPolicy, PromptAssembly, Section, ToolDescriptor};
//! use tooldef_bedrock::{BedrockRenderer, request_fragment};
//!
//! const SEARCH: ToolDescriptor = ToolDescriptor::new("search").description("Search the web.");
//!
//! let mut assembly = PromptAssembly::new();
//! assembly.push_section(Section::new("persona", 0, "Be brief."));
//! assembly.put_tool(SEARCH);
//!
//! let fragment = request_fragment(&assembly, &BedrockRenderer::new(), LossPolicy::Refuse, None).unwrap();
//! assert_eq!(fragment.body["system"], serde_json::json!([{"text": "Be brief."}]));
//! assert_eq!(fragment.body["toolConfig"]["tools"][0]["toolSpec"]["name"], "search");
//!
//! assembly.tools.clear();
//! let fragment = request_fragment(&assembly, &BedrockRenderer::new(), LossPolicy::Refuse, None).unwrap();
//! assert_eq!(fragment.body.get("toolConfig"), None);
//! ```

use serde_json::{Map, Value, json};
use tooldef::{LossPolicy, PromptAssembly, RenderCache, RenderError, Rendered, RequestFragment};

use crate::render::BedrockRenderer;

/// The request fragment of `assembly`; tool specifications come from `cache` when given.
///
/// # Errors
///
/// The renderer's set-level error, or the first tool that cannot be rendered.
pub fn request_fragment(
    assembly: &PromptAssembly,
    renderer: &BedrockRenderer,
    policy: LossPolicy,
    cache: Option<&RenderCache>,
) -> Result<RequestFragment, RenderError> {
    let mut body = Map::new();
    let system = assembly.system_text();
    if !system.is_empty() {
        body.insert("system".into(), json!([{"text": system}]));
    }
    let mut rendered = Vec::new();
    // Bedrock requires at least one tool in a `toolConfig`: with none, the key is left out.
    if !assembly.tools.is_empty() {
        rendered = assembly.rendered_tools(renderer, policy, cache)?;
        let tools: Vec<Value> = rendered.iter().map(Rendered::to_value).collect();
        body.insert("toolConfig".into(), json!({"tools": tools}));
    }
    Ok(RequestFragment::new(Value::Object(body), rendered))
}
