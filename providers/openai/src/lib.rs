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
//!
//! # The way back
//!
//! Give each call [`chat_tool_calls`] or [`responses_tool_calls`] maps (or a stream yields)
//! back through the render output before dispatch: `set.restore_all(calls)` with the
//! [`RenderedSet`](tooldef::RenderedSet), [`Rendered`](tooldef::Rendered) or
//! [`MappedSet`](tooldef::MappedSet) the tools came from ([`WayBack`](tooldef::WayBack); streams:
//! [`ChatStream::way_back`], [`ResponsesStream::way_back`]). Then a model that obeys the schema
//! it was sent is never refused for it, and the tool receives what the descriptor means: the
//! contract of [`tooldef::render`]'s "The way back".
//!
//! Strict mode (OpenAI, Mistral, DeepSeek, Groq, xAI) runs the null-for-absent pass: every
//! optional parameter is required and nullable, and a `null` is read back as absent (the
//! default applies, an `Option` is `None`). Its exceptions, documented and tested:
//!
//! - an optional parameter that takes `null` itself keeps its `null`: the model cannot leave
//!   it out, and its default is not applied;
//! - `null` for an optional parameter that does not take `null` is read as absent, not refused.
//!
//! Strict mode also closes every object and sends `oneOf` as `anyOf`; closing an open object
//! or a map, and a `oneOf` whose variants may overlap, are lossy changes of the render's report
//! (refused under [`LossPolicy::Refuse`](tooldef::LossPolicy::Refuse)), and dispatch still
//! refuses a value that matches two `oneOf` variants. Defaults, formats, patterns and bounds the
//! strict dialect moves into descriptions are still enforced by dispatch, naming the pointer
//! of the value the model sent. Cohere's `strict_tools` keeps optional parameters optional; the
//! non-strict dialects change nothing a value needs given back.
//!
//! A [`request_fragment`] keeps its tools' renderings ([`RequestFragment::tools`](tooldef::RequestFragment::tools)),
//! so `fragment.restore_all(calls)` gives the calls back without rendering again. The stream
//! accumulators read a call to a tool of a [`MappedSet`](tooldef::MappedSet) by its original
//! name and its arguments under the names the model was sent; set their
//! [`repair`](ChatStream::repair) as the calls will be dispatched, so that a JSON string
//! holding an object is an early error exactly when dispatch will refuse it.

mod calls;
mod custom;
mod plan;
mod render;
mod request;
mod rules;
mod stream;
#[cfg(feature = "async-openai")]
pub mod typed;

pub use calls::{
    chat_tool_calls, chat_tool_message, responses_function_call_output, responses_tool_calls,
};
pub use plan::{
    AllowedMode, SearchCall, ToolSearch, allowed_tools, plan_budgets, plan_target, planned_tools,
    planned_tools_json, tool_search_calls, tool_search_output,
};
pub use render::{Api, OpenAiRenderer, Profile};
pub use request::request_fragment;
pub use rules::{TOOL_NAME, strict_violations};
pub use stream::{ChatStream, ResponsesStream};
pub use tooldef::CallError;
pub use tooldef::RequestFragment;
