//! Request fragments: the part of a Messages request body that a [`PromptAssembly`] decides,
//! `{"system":…,"tools":[…]}`. `system` is left out when the assembly's system text is empty,
//! and `tools` when it has no tool. The renderer's set-level limits (strict mode: at most 20
//! tools, and the schema budgets over all of them) apply to the assembly's tools.
//!
//! ```
//! use tooldef::{Policy, PromptAssembly, Section, ToolDescriptor};
//! use tooldef_anthropic::{AnthropicRenderer, request_fragment};
//!
//! const SEARCH: ToolDescriptor = ToolDescriptor::new("search").description("Search the web.");
//!
//! let mut assembly = PromptAssembly::new();
//! assembly.push_section(Section::new("persona", 0, "Be brief."));
//! assembly.put_tool(SEARCH);
//!
//! let fragment = request_fragment(&assembly, &AnthropicRenderer::new(), Policy::Strict, None).unwrap();
//! assert_eq!(fragment.body["system"], "Be brief.");
//! assert_eq!(fragment.body["tools"][0]["name"], "search");
//! ```

use serde_json::{Map, Value};
use tooldef::{Policy, PromptAssembly, RenderCache, RenderError, Report};

use crate::render::AnthropicRenderer;

/// The request keys an assembly decides, with the merged report of its tools' renderings.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestFragment {
    /// A JSON object holding only the keys the assembly fills.
    pub body: Value,
    /// Every change made while rendering the tools, tool by tool in assembly order.
    pub report: Report,
}

/// The request fragment of `assembly`; tools come from `cache` when given.
///
/// # Errors
///
/// The renderer's set-level error, or the first tool that cannot be rendered.
pub fn request_fragment(
    assembly: &PromptAssembly,
    renderer: &AnthropicRenderer,
    policy: Policy,
    cache: Option<&RenderCache>,
) -> Result<RequestFragment, RenderError> {
    let rendered = match cache {
        Some(cache) => assembly.render_tools_cached(renderer, policy, cache)?,
        None => assembly.render_tools(renderer, policy)?,
    };
    let mut report = Report::default();
    let mut tools = Vec::with_capacity(rendered.len());
    for r in &rendered {
        report.extend(r.report().clone());
        tools.push(r.to_value());
    }
    let system = assembly.system_text();
    let mut body = Map::new();
    if !system.is_empty() {
        body.insert("system".into(), Value::String(system));
    }
    if !tools.is_empty() {
        body.insert("tools".into(), Value::Array(tools));
    }
    Ok(RequestFragment { body: Value::Object(body), report })
}
