//! Renders tooldef descriptors to Ollama's native `/api/chat` tool definitions, keeping only
//! the JSON Schema keys Ollama's server decodes (everything else goes into descriptions, with a
//! report entry), and maps the other half of the loop: `message.tool_calls` to
//! [`tooldef::ToolCall`], [`tooldef::ToolResult`] to `tool` messages.
//!
//! ```
//! use tooldef::{Param, LossPolicy, Renderer, ToolDescriptor};
//! use tooldef_ollama::OllamaRenderer;
//!
//! static WEATHER: ToolDescriptor = ToolDescriptor::new("get_weather")
//!     .description("Get the weather.")
//!     .params(const { &[Param::integer("days").range(1, 10).default_int(3)] });
//!
//! let tool = OllamaRenderer::new().render(&WEATHER, LossPolicy::Refuse).unwrap();
//! assert_eq!(
//!     tool.json(),
//!     r#"{"type":"function","function":{"name":"get_weather","description":"Get the weather.","parameters":{"type":"object","properties":{"days":{"type":"integer","description":"Default: 3. Minimum: 1. Maximum: 10."}}}}}"#
//! );
//! // The three constraints moved into the description, and the closed root not written.
//! assert_eq!(tool.report().len(), 4);
//! ```
//!
//! # The way back
//!
//! Give each call [`tool_calls`] maps back through the render output before dispatch
//! (`set.restore_all(calls)`, see [`tooldef::WayBack`] and the contract in
//! [`tooldef::render`]'s "The way back"). Ollama's server keeps a fixed subset of JSON Schema,
//! so defaults, bounds, formats, patterns, a map's value type and inlined references are in
//! descriptions only: none changes how a value is sent, and dispatch still applies the defaults
//! and enforces the rest, naming the pointer of the value the model sent. The exceptions are
//! the lossy changes of the render's report (a root map's value type dropped, keywords import
//! kept verbatim), refused under [`LossPolicy::Refuse`](tooldef::LossPolicy::Refuse).
//!
//! A [`request_fragment`] keeps its tools' renderings, so `fragment.restore_all(calls)` gives
//! the calls back without rendering again.

mod calls;
mod render;
mod request;

pub use calls::{tool_calls, tool_message};
pub use render::{OllamaRenderer, dropped_keys};
pub use request::request_fragment;
pub use tooldef::CallError;
pub use tooldef::RequestFragment;
