//! Overrides: composable patches of one descriptor ([`Override`]), sets of them keyed by tool
//! ([`Overrides`]), and the executor wrapper that makes dispatch honour what a patch changed
//! ([`OverriddenExecutor`]).
//!
//! Owns patching and call rewriting. It never mutates a registered descriptor (every patch runs
//! on a clone) and never decides which tools exist (that is [`crate::registry`]).
//!
//! Decisions the design leaves open:
//! - **Renames.** A patch that renames a tool moves it: the tool is listed and called under the
//!   new name only, and the old name is no longer a tool. Calls to the new name reach the
//!   registered executor with the call's `name` rewritten back to the registered name, and the
//!   result carries the new name again. Overrides, registrations and removals keep addressing
//!   the *registered* name.
//! - **Namespaces.** A patch that only sets the namespace is a rename like any other:
//!   `set_namespace("mem")` turns `remember` into `mem__remember` (and `old__remember` into
//!   `mem__remember`: the namespace is replaced, never stacked); `clear_namespace` strips it.
//! - **What the model is shown is what dispatch accepts.** Once a patch touches parameters,
//!   every call is checked against the *patched* schema (errors name the model's pointers) and
//!   absent parameters get the *patched* defaults before the registered executor runs. Values
//!   of parameters the registered tool does not take (added by [`Override::add_param`], or a
//!   replacement input schema) are handed on only when the registered tool's input is open
//!   (or a map whose value schema they match); otherwise they are kept back, so a typed
//!   executor never fails on them. Either way [`Override::on_call`] hooks read them in
//!   [`OverrideCall::extra`].
//! - **One wording.** An overridden tool's argument errors read as any tool's, in the name the
//!   model calls (`invalid arguments for rate: /stars must be at most 3; got 4`), a hidden
//!   parameter or the old name of a renamed one sent anyway included, and
//!   [`Executor::check_arguments`](crate::Executor::check_arguments) (what
//!   [`Snapshot::check`](crate::registry::Snapshot::check) asks) gives the text a call answers
//!   with.
//! - **Narrowing only.** A constraint may narrow what a parameter accepts (an enum, a range, a
//!   string turned enum), never widen it; and a patch may not let the model leave out a
//!   parameter the tool requires unless it supplies the value (a default, or a hidden value).
//!   Both are [`OverrideError`]s when the patch is applied, not argument errors at call time.
//!   Closures ([`Override::edit`]) and replacement schemas are trusted: only the requirement
//!   rule is checked after them.

mod apply;
mod constraint;
mod error;
mod executor;
mod patch;
mod set;

pub(crate) use apply::Patched;
pub use constraint::Constraint;
pub use error::{OverrideError, OverrideErrorKind};
pub use executor::OverriddenExecutor;
pub use patch::{Override, OverrideCall};
pub use set::{OverrideReport, Overrides};
