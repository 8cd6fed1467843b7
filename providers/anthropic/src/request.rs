//! Request fragments: the part of a Messages request body that a [`PromptAssembly`] decides,
//! `{"system":…,"tools":[…]}`. `system` is left out when the assembly's system text is empty,
//! and `tools` when it has no tool. The renderer's set-level limits (strict mode: at most 20
//! tools, and the schema budgets over all of them) apply to the assembly's tools.
//!
//! ```
//! use tooldef::{LossPolicy, PromptAssembly, Section, ToolDescriptor};
//! use tooldef_anthropic::{AnthropicRenderer, request_fragment};
//!
//! const SEARCH: ToolDescriptor = ToolDescriptor::new("search").description("Search the web.");
//!
//! let mut assembly = PromptAssembly::new();
//! assembly.push_section(Section::new("persona", 0, "Be brief."));
//! assembly.put_tool(SEARCH);
//!
//! let fragment = request_fragment(&assembly, &AnthropicRenderer::new(), LossPolicy::Refuse, None).unwrap();
//! assert_eq!(fragment.body["system"], "Be brief.");
//! assert_eq!(fragment.body["tools"][0]["name"], "search");
//! ```

use serde_json::{Map, Value};
use tooldef::{LossPolicy, PromptAssembly, RenderCache, RenderError, Rendered, RequestFragment};

use crate::render::AnthropicRenderer;

/// The request fragment of `assembly`; tools come from `cache` when given.
///
/// # Errors
///
/// The renderer's set-level error, or the first tool that cannot be rendered.
pub fn request_fragment(
    assembly: &PromptAssembly,
    renderer: &AnthropicRenderer,
    policy: LossPolicy,
    cache: Option<&RenderCache>,
) -> Result<RequestFragment, RenderError> {
    let rendered = assembly.rendered_tools(renderer, policy, cache)?;
    let tools: Vec<Value> = rendered.iter().map(Rendered::to_value).collect();
    let system = assembly.system_text();
    let mut body = Map::new();
    if !system.is_empty() {
        body.insert("system".into(), Value::String(system));
    }
    if !tools.is_empty() {
        body.insert("tools".into(), Value::Array(tools));
    }
    Ok(RequestFragment::new(Value::Object(body), rendered))
}
