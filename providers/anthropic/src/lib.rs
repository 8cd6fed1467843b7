//! Renders tooldef descriptors to Anthropic Messages tool JSON (plain and strict tool use),
//! and maps the other half of the loop: `tool_use` blocks to [`tooldef::ToolCall`] and
//! [`tooldef::ToolResult`] to `tool_result` blocks.
//!
//! ```
//! use tooldef::{Param, LossPolicy, Renderer, ToolDescriptor};
//! use tooldef_anthropic::AnthropicRenderer;
//!
//! static WEATHER: ToolDescriptor = ToolDescriptor::new("get_weather")
//!     .description("Get the weather.")
//!     .params(const { &[Param::integer("days").description("Number of days").range(1, 10).default_int(3)] });
//!
//! let strict = AnthropicRenderer::new().strict(true).render(&WEATHER, LossPolicy::Refuse).unwrap();
//! assert_eq!(
//!     strict.json(),
//!     r#"{"name":"get_weather","description":"Get the weather.","input_schema":{"type":"object","properties":{"days":{"type":"integer","description":"Number of days. Default: 3. Minimum: 1. Maximum: 10."}},"additionalProperties":false},"strict":true}"#
//! );
//! ```
//!
//! # The way back
//!
//! Give each call [`tool_calls`] maps (or [`ToolUseStream`] yields) back through the render
//! output before dispatch (`set.restore_all(calls)`, see [`tooldef::WayBack`] and the contract
//! in [`tooldef::render`]'s "The way back"). Strict tools keep optional parameters optional, so
//! no lowering here changes how a value is sent: the way back has nothing to undo, and the
//! constraints strict mode moves into descriptions (bounds, lengths, `maxItems`, `minItems` above
//! 1, formats and patterns it refuses) are still enforced by dispatch, naming the pointer of the
//! value the model sent. The exceptions are the lossy changes of the render's report (an open
//! object or a map closed, a `oneOf` sent as `anyOf`), refused under
//! [`LossPolicy::Refuse`](tooldef::LossPolicy::Refuse).
//!
//! A [`request_fragment`] keeps its tools' renderings, so `fragment.restore_all(calls)` gives
//! the calls back without rendering again; [`ToolUseStream::repair`] matches the stream's
//! early checks to dispatch's [`CallOptions::repair`](tooldef::dispatch::CallOptions::repair).

mod calls;
mod plan;
mod render;
mod request;
mod rules;
mod stream;

pub use calls::{tool_calls, tool_result_block, tool_result_message};
pub use plan::{
    TOOL_REFERENCE_NAME_MAX, ToolSearch, plan_budgets, plan_target, planned_tools,
    planned_tools_json, tool_reference_result,
};
pub use render::AnthropicRenderer;
pub use request::request_fragment;
pub use rules::{TOOL_NAME, strict_violations};
pub use stream::ToolUseStream;
pub use tooldef::CallError;
pub use tooldef::RequestFragment;
