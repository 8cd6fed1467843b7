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
//!
//! # The way back
//!
//! Give each call [`function_calls`] maps (or [`FunctionCallStream`] yields) back through the
//! render output before dispatch (`set.restore_all(calls)`, see [`tooldef::WayBack`] and the
//! contract in [`tooldef::render`]'s "The way back"). The OpenAPI `parameters` form takes enums
//! of strings only: an enum of integers, numbers or booleans is sent as the strings of its
//! values (`"enum": ["1", "2"]`) and each string is given back as its value. Its exceptions:
//!
//! - the string of an enum value reads as that value (`"2"` as `2`) unless the enum takes the
//!   string itself;
//! - an enum two of whose values would be sent as one string is written as its type with the
//!   values in the description instead (a lossy change), and dispatch checks the value.
//!
//! Both forms move what they cannot say into descriptions (bounds, formats, `oneOf` as
//! `anyOf`, a map's value type in the OpenAPI form), and dispatch still enforces it, naming the
//! pointer of the value the model sent. Names Gemini refuses (a dotted MCP name, a property
//! with a dash) render through [`render_mapped`](tooldef::render_mapped), whose
//! [`MappedSet::restore`](tooldef::MappedSet::restore) gives them back too.
//!
//! A [`request_fragment`] keeps its declarations' renderings, so `fragment.restore_all(calls)`
//! gives the calls back without rendering again; [`FunctionCallStream::repair`] matches the
//! stream's checks to dispatch's [`CallOptions::repair`](tooldef::dispatch::CallOptions::repair).

mod calls;
mod node;
mod plan;
mod render;
mod request;
mod rules;
mod stream;

pub use calls::{function_calls, function_response, function_response_content};
pub use plan::{plan_budgets, plan_target};
pub use render::{Form, GeminiRenderer, tools_json};
pub use request::request_fragment;
pub use rules::{FUNCTION_NAME, PROPERTY_NAME, parameters_violations};
pub use stream::FunctionCallStream;
pub use tooldef::CallError;
pub use tooldef::RequestFragment;
