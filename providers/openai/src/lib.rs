//! Renders tooldef descriptors to OpenAI's tool JSON (Chat Completions and Responses, plain and
//! strict), to the OpenAI-compatible APIs of Mistral, DeepSeek, Groq, xAI and Cohere v2, and maps
//! the other half of the loop: the model's tool calls to [`tooldef::ToolCall`] and
//! [`tooldef::ToolResult`] back to the provider's tool message.
//!
//! ```
//! use tooldef::{Param, LossPolicy, Renderer, ToolDescriptor};
//! use tooldef_openai::OpenAiRenderer;
//!
//! static WEATHER: ToolDescriptor = ToolDescriptor::new("get_weather")
//!     .description("Get the weather.")
//!     .params(const { &[Param::integer("days").description("Number of days").range(1, 10).default_int(3)] });
//!
//! let chat = OpenAiRenderer::chat().strict(true).render(&WEATHER, LossPolicy::Refuse).unwrap();
//! assert_eq!(
//!     chat.json(),
//!     r#"{"type":"function","function":{"name":"get_weather","description":"Get the weather.","parameters":{"type":"object","properties":{"days":{"type":["integer","null"],"description":"Number of days. Default: 3.","minimum":1,"maximum":10}},"required":["days"],"additionalProperties":false},"strict":true}}"#
//! );
//! // The default moved into the description, and `days` became required and nullable:
//! assert_eq!(chat.report().len(), 2);
//! ```

mod calls;
mod render;
mod request;
mod rules;
mod stream;
#[cfg(feature = "async-openai")]
pub mod typed;

pub use calls::{
    chat_tool_calls, chat_tool_message, responses_function_call_output, responses_tool_calls,
};
pub use render::{Api, OpenAiRenderer, Profile};
pub use request::request_fragment;
pub use rules::{TOOL_NAME, strict_violations};
pub use stream::{ChatStream, ResponsesStream};
pub use tooldef::CallError;
pub use tooldef::RequestFragment;
