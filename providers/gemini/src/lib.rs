//! Renders tooldef descriptors to Gemini `FunctionDeclaration`s (Gemini API and Vertex AI), in
//! the `parametersJsonSchema` form (default) or the OpenAPI-subset `parameters` form for the Live
//! API and older models, and maps the other half of the loop: `functionCall` parts to
//! [`tooldef::ToolCall`], [`tooldef::ToolResult`] to `functionResponse` parts.
//!
//! ```
//! use tooldef::{Param, LossPolicy, Renderer, ToolDescriptor};
//! use tooldef_gemini::{GeminiRenderer, tools_json};
//!
//! static WEATHER: ToolDescriptor = ToolDescriptor::new("get_weather")
//!     .description("Get the weather.")
//!     .params(const { &[
//!         Param::string("city"),
//!         Param::integer("days").range(1, 10).default_int(3).optional(),
//!     ] });
//!
//! let live = GeminiRenderer::openapi().render(&WEATHER, LossPolicy::Refuse).unwrap();
//! assert_eq!(
//!     live.json(),
//!     r#"{"name":"get_weather","description":"Get the weather.","parameters":{"type":"OBJECT","properties":{"city":{"type":"STRING"},"days":{"type":"INTEGER","minimum":1,"maximum":10,"default":3}},"required":["city"],"propertyOrdering":["city","days"]}}"#
//! );
//! assert_eq!(tools_json([&live]), format!(r#"[{{"functionDeclarations":[{}]}}]"#, live.json()));
//! ```

mod calls;
mod node;
mod render;
mod request;
mod rules;
mod stream;

pub use calls::{function_calls, function_response, function_response_content};
pub use render::{Form, GeminiRenderer, tools_json};
pub use request::request_fragment;
pub use rules::{FUNCTION_NAME, PROPERTY_NAME, parameters_violations};
pub use stream::FunctionCallStream;
pub use tooldef::CallError;
pub use tooldef::RequestFragment;
