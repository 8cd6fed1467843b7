//! Request fragments: the part of a `generateContent` body (Gemini API or Vertex AI) that a
//! [`PromptAssembly`] decides,
//! `{"systemInstruction":{"parts":[{"text":…}]},"tools":[{"functionDeclarations":[…]}]}`.
//! `systemInstruction` is left out when the assembly's system text is empty, and `tools` when it
//! has no tool.
//!
//! ```
//! use tooldef::{LossPolicy, PromptAssembly, Section, ToolDescriptor};
//! use tooldef_gemini::{GeminiRenderer, request_fragment};
//!
//! const SEARCH: ToolDescriptor = ToolDescriptor::new("search").description("Search the web.");
//!
//! let mut assembly = PromptAssembly::new();
//! assembly.push_section(Section::new("persona", 0, "Be brief."));
//! assembly.put_tool(SEARCH);
//!
//! let fragment = request_fragment(&assembly, &GeminiRenderer::new(), LossPolicy::Refuse, None).unwrap();
//! assert_eq!(fragment.body["systemInstruction"]["parts"][0]["text"], "Be brief.");
//! assert_eq!(fragment.body["tools"][0]["functionDeclarations"][0]["name"], "search");
//! ```

use serde_json::{Map, Value, json};
use tooldef::{LossPolicy, PromptAssembly, RenderCache, RenderError, Rendered, RequestFragment};

use crate::render::GeminiRenderer;

/// The request fragment of `assembly`; declarations come from `cache` when given.
///
/// # Errors
///
/// The renderer's set-level error, or the first tool that cannot be rendered.
pub fn request_fragment(
    assembly: &PromptAssembly,
    renderer: &GeminiRenderer,
    policy: LossPolicy,
    cache: Option<&RenderCache>,
) -> Result<RequestFragment, RenderError> {
    let rendered = assembly.rendered_tools(renderer, policy, cache)?;
    let declarations: Vec<Value> = rendered.iter().map(Rendered::to_value).collect();
    let system = assembly.system_text();
    let mut body = Map::new();
    if !system.is_empty() {
        body.insert("systemInstruction".into(), json!({"parts": [{"text": system}]}));
    }
    if !declarations.is_empty() {
        body.insert("tools".into(), json!([{"functionDeclarations": declarations}]));
    }
    Ok(RequestFragment::new(Value::Object(body), rendered))
}
