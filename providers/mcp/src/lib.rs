//! Renders tooldef descriptors to Model Context Protocol `Tool` definitions (2026-07-28 by
//! default, 2025-06-18 and 2025-11-25 on request), builds `tools/list` results, imports them
//! back into descriptors, and maps the call half: `tools/call` requests to
//! [`tooldef::ToolCall`], [`tooldef::ToolResult`] to `CallToolResult`.
//!
//! ```
//! use tooldef::{Param, LossPolicy, Renderer, ToolDescriptor};
//! use tooldef_mcp::{ListOptions, McpRenderer, McpVersion, import_tools, list_tools_result};
//!
//! static PING: ToolDescriptor = ToolDescriptor::new("ping").description("Check the service.");
//! let tool = McpRenderer::new().render(&PING, LossPolicy::Refuse).unwrap();
//! assert_eq!(
//!     tool.json(),
//!     r#"{"name":"ping","description":"Check the service.","inputSchema":{"type":"object","additionalProperties":false}}"#
//! );
//! let list = list_tools_result([&tool], McpVersion::V2026_07_28, &ListOptions::default());
//! assert_eq!(
//!     list,
//!     format!(r#"{{"tools":[{}],"resultType":"complete","cacheScope":"private","ttlMs":0}}"#, tool.json())
//! );
//! let back = import_tools(&serde_json::from_str(&list).unwrap()).unwrap();
//! assert_eq!(back.tools, [PING.clone()]);
//! ```
//!
//! # The way back
//!
//! MCP takes any JSON Schema 2020-12: the renderer sends a descriptor's schema as it is (an
//! imported one byte for byte), so no lowering changes how a value is sent and a call
//! [`tool_call`] maps needs nothing given back (a render output's
//! [`WayBack::restore`](tooldef::WayBack::restore) returns it unchanged). There is no
//! exception: a client that obeys the schema is never refused for it. The contract is in
//! [`tooldef::render`]'s "The way back".

//!
//! With features, the real protocol through the official Rust SDK (`rmcp`): `rmcp` adds typed
//! bridges to its model ([`sdk`]), `server` an MCP server over a `Toolbox` or a `ToolRegistry`
//! ([`server`]), `client` the tools of any MCP server as executors in a registry ([`client`]).

mod calls;
#[cfg(feature = "client")]
pub mod client;
#[cfg(feature = "server")]
mod context;
#[cfg(any(feature = "http-server", feature = "http-client"))]
pub mod http;
mod import;
#[cfg(any(feature = "server", feature = "client"))]
mod lines;
mod render;
mod rules;
#[cfg(feature = "server")]
mod screen;
#[cfg(feature = "rmcp")]
pub mod sdk;
#[cfg(feature = "server")]
pub mod server;

pub use calls::{call_tool_result, tool_call};
pub use import::{
    ImportError, ImportedEach, ImportedTools, import_each, import_each_ordered, import_each_text,
    import_tools, import_tools_ordered, import_tools_text,
};
pub use render::{
    CacheScope, EXTENSION_NAMESPACE, ListOptions, McpRenderer, McpVersion, list_tools_result,
};
pub use rules::TOOL_NAME;
pub use tooldef::CallError;
