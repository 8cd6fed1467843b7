//! Renders tooldef descriptors to Amazon Bedrock Converse tool specifications (plain and
//! strict), builds the request's `toolConfig`, and maps the other half of the loop: `toolUse`
//! blocks to [`tooldef::ToolCall`], [`tooldef::ToolResult`] to `toolResult` blocks.
//!
//! ```
//! use tooldef::{Param, LossPolicy, Renderer, ToolDescriptor};
//! use tooldef_bedrock::{BedrockRenderer, tool_config};
//!
//! static WEATHER: ToolDescriptor = ToolDescriptor::new("get_weather")
//!     .description("Get the weather.")
//!     .params(const { &[Param::integer("days").range(1, 10)] });
//!
//! let strict = BedrockRenderer::strict().render(&WEATHER, LossPolicy::Refuse).unwrap();
//! assert_eq!(
//!     strict.json(),
//!     r#"{"toolSpec":{"name":"get_weather","description":"Get the weather.","inputSchema":{"json":{"type":"object","properties":{"days":{"type":"integer","description":"Minimum: 1. Maximum: 10."}},"required":["days"],"additionalProperties":false}},"strict":true}}"#
//! );
//! assert_eq!(strict.report().len(), 2); // the two bounds, moved into the description
//! assert!(tool_config([&strict]).unwrap().starts_with(r#"{"tools":[{"toolSpec""#));
//! ```
//!
//! # The way back
//!
//! Give each call [`tool_uses`] maps (or [`ConverseToolStream`] yields) back through the render
//! output before dispatch (`set.restore_all(calls)`, see [`tooldef::WayBack`] and the contract
//! in [`tooldef::render`]'s "The way back"). Strict tools keep optional parameters optional, so
//! no lowering here changes how a value is sent: the way back has nothing to undo, and the
//! bounds strict mode moves into descriptions are still enforced by dispatch, naming the pointer
//! of the value the model sent. The exceptions are the lossy changes of the render's report (an
//! open object or a map closed, a `oneOf` sent as `anyOf`), refused under
//! [`LossPolicy::Refuse`](tooldef::LossPolicy::Refuse).
//!
//! A [`request_fragment`] keeps its tools' renderings, so `fragment.restore_all(calls)` gives
//! the calls back without rendering again; [`ConverseToolStream::repair`] matches the stream's
//! early checks to dispatch's [`CallOptions::repair`](tooldef::dispatch::CallOptions::repair).

mod calls;
mod plan;
mod render;
mod request;
mod rules;
mod stream;

pub use calls::{tool_result_block, tool_result_message, tool_uses};
pub use plan::{plan_budgets, plan_target};
pub use render::{BedrockRenderer, tool_config};
pub use request::request_fragment;
pub use rules::{TOOL_NAME, strict_violations};
pub use stream::ConverseToolStream;
pub use tooldef::CallError;
pub use tooldef::RequestFragment;
