//! Dispatch: from a model's [`ToolCall`](crate::ToolCall) to a [`ToolResult`](crate::ToolResult).
//!
//! Owns the typed adapter ([`TypedTool`]: any [`Tool`](crate::Tool) as an
//! [`Executor`](crate::Executor), decoding straight into the typed arguments), the value
//! [`ArgValidator`] (a JSON value against a descriptor's schemas, every error with its JSON
//! pointer) and [`apply_defaults`], dynamic tools over `serde_json::Value` ([`DynamicTool`]),
//! the [`Toolbox`] that calls tools by name, and the small runtime pieces that keep a panic
//! inside the result ([`CatchUnwind`] for executors and servers that run tools themselves, [`block_on`] for
//! sync callers), and what production hosts need around a
//! call: [`CallOptions`] (a per-call timeout on a runtime-agnostic [`Timer`], a
//! [`CancelToken`], a bound on concurrent calls for [`Toolbox::call_all`] and
//! [`Snapshot::call_all`](crate::Snapshot::call_all)), `tracing` spans
//! and tool panics kept off stderr ([`set_quiet_panics`]). Messages come from
//! [`crate::arg_checks`].
//! Does not touch providers' wire formats, the registry or overrides.
//!
//! ```
//! use serde_json::json;
//! use tooldef::dispatch::{DynamicTool, Toolbox};
//! use tooldef::{Param, ToolCall, ToolDescriptor};
//!
//! let d = ToolDescriptor::builder("get_weather")
//!     .param(Param::string("city"))
//!     .param(Param::enumeration("unit", &["celsius", "fahrenheit"]).default_str("celsius"))
//!     .build()
//!     .unwrap();
//! let toolbox = Toolbox::new()
//!     .with_executor(DynamicTool::new_sync(d, |args| Ok(json!({"asked": args}))).into());
//!
//! let call = ToolCall::new("c1", "get_weather", json!({"city": "Paris", "unit": "kelvin"}));
//! let result = toolbox.call_blocking(&call);
//! assert!(result.is_error);
//! assert_eq!(
//!     result.text(),
//!     r#"invalid arguments for get_weather: /unit must be one of "celsius", "fahrenheit"; got "kelvin""#
//! );
//! ```

mod arg_validator;
mod cancel;
mod dynamic;
mod error;
mod options;
mod repair;
mod runtime;
mod timer;
mod toolbox;
mod typed;

pub use arg_validator::{
    ArgValidator, MAX_DEPTH, MAX_ERRORS, MAX_STEPS, apply_defaults, check_args,
};
pub use cancel::{CancelToken, Cancelled};
pub use dynamic::{DynamicTool, prepare_arguments};
pub(crate) use dynamic::{read_arguments, too_deep};
pub(crate) use error::closest;
pub use error::{DispatchError, DispatchErrorKind};
pub(crate) use options::BoundedJoin;
pub use options::CallOptions;
pub use repair::{Repair, RepairKind};
pub(crate) use repair::{repair, repairable};
pub use runtime::{CatchUnwind, block_on, set_quiet_panics};
pub use timer::{ThreadTimer, Timer};
pub use toolbox::Toolbox;
pub(crate) use toolbox::{PLAIN, check_repaired, dispatch, unknown_tool};
pub use typed::TypedTool;
pub(crate) use typed::unreadable;
