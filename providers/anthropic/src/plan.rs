//! Planned requests: the [`PlanTarget`] of the Messages API (its budgets and its tool search),
//! the tools array of a [`Plan`] in Anthropic's own form, and the `tool_reference` blocks that
//! answer a client-side search.
//!
//! The array is the loaded tools (strict ones with `"strict": true`), then the search tool,
//! then the deferred tools with `"defer_loading": true`. With `cache` on, the last entry before
//! the deferred tools carries `"cache_control": {"type": "ephemeral"}`: everything the model sees
//! up front is one cached prefix, and deferred tools after it never move it.
//!
//! ```
//! use tooldef::ToolDescriptor;
//! use tooldef::assembly::{DeferWhen, PlanTool, Planner};
//! use tooldef_anthropic::{ToolSearch, plan_target, planned_tools_json};
//!
//! const A: ToolDescriptor = ToolDescriptor::new("alpha").description("First.");
//! const B: ToolDescriptor = ToolDescriptor::new("beta").description("Second.");
//!
//! // Defer every tool that is not pinned.
//! let planner = Planner::new(plan_target(ToolSearch::Regex)).defer(DeferWhen::AllButPinned);
//! let plan = planner.plan([PlanTool::new(A).pinned(), PlanTool::new(B)]);
//! assert_eq!(
//!     planned_tools_json(&plan, true),
//!     concat!(
//!         r#"[{"name":"alpha","description":"First.","input_schema":{"type":"object","properties":{},"additionalProperties":false}},"#,
//!         r#"{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex","cache_control":{"type":"ephemeral"}},"#,
//!         r#"{"name":"beta","description":"Second.","input_schema":{"type":"object","properties":{},"additionalProperties":false},"defer_loading":true}]"#,
//!     )
//! );
//! ```

use serde_json::{Value, json};
use tooldef::LossPolicy;
use tooldef::Renderer;
use tooldef::assembly::{Budgets, Deferral, Plan, PlanTarget, ProgressiveDisclosure};

use crate::render::{AnthropicRenderer, MAX_OPTIONAL, MAX_STRICT_TOOLS, MAX_UNIONS};

/// The longest tool name the API takes (`rules::TOOL_NAME`).
const MAX_NAME: usize = 128;
/// The longest name a `tool_reference` block takes, so the longest name of a deferred tool.
pub const TOOL_REFERENCE_NAME_MAX: usize = 64;
/// The most tools a tool search catalogue holds.
const MAX_DEFERRED: usize = 10_000;

/// How the model searches deferred tools.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ToolSearch {
    /// The hosted regex search, `tool_search_tool_regex_20251119`.
    #[default]
    Regex,
    /// The hosted BM25 search, `tool_search_tool_bm25_20251119`.
    Bm25,
    /// A client-side search: tooldef's `tool_search` meta-tool as a custom tool, answered with
    /// [`tool_reference_result`].
    Client,
}

/// The hosted search tool's wire JSON.
fn hosted(search: ToolSearch) -> Option<&'static str> {
    match search {
        ToolSearch::Regex => {
            Some(r#"{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"}"#)
        }
        ToolSearch::Bm25 => {
            Some(r#"{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}"#)
        }
        ToolSearch::Client => None,
    }
}

/// The budgets of one Messages request (sources in `docs/budgets.md`): names of 128
/// characters, deferred tools' names of 64 (`tool_reference`), 10,000 deferred tools, and
/// strict tool use's 20 tools, 24 optional and 16 union-typed parameters.
pub const fn plan_budgets() -> Budgets {
    Budgets::none()
        .max_name_len(MAX_NAME)
        .deferred_name_len(TOOL_REFERENCE_NAME_MAX)
        .max_deferred(MAX_DEFERRED)
        .strict_tools(MAX_STRICT_TOOLS)
        .strict_optional_params(MAX_OPTIONAL)
        .strict_union_params(MAX_UNIONS)
}

/// The Messages API as a planning target: plain and strict renderers, [`plan_budgets`], and
/// deferral through `search`.
pub fn plan_target(search: ToolSearch) -> PlanTarget {
    let plain = AnthropicRenderer::new();
    let search_json = match hosted(search) {
        Some(json) => json.to_owned(),
        None => {
            let meta = ProgressiveDisclosure::new();
            match plain.render(meta.meta_tool(), LossPolicy::Allow) {
                Ok(r) => r.json().to_owned(),
                // The meta-tool is a constant the renderer always takes; without it, defer
                // through tooldef's own meta-tool path.
                Err(_) => {
                    return PlanTarget::new("anthropic", plain)
                        .strict_renderer(AnthropicRenderer::new().strict(true))
                        .budgets(plan_budgets());
                }
            }
        }
    };
    PlanTarget::new("anthropic", plain)
        .strict_renderer(AnthropicRenderer::new().strict(true))
        .budgets(plan_budgets())
        .deferral(Deferral::Native { search: search_json })
}

/// The request's `tools` array for `plan` as JSON text, in Anthropic's form: the loaded tools
/// (strict ones with `"strict": true`), then the search tool, then the deferred tools with
/// `"defer_loading": true`. With `cache`, the last entry before the deferred tools carries
/// `"cache_control": {"type": "ephemeral"}`, so everything loaded up front is one cached prefix.
/// Each tool is its rendering's text, so the bytes are the planner's.
pub fn planned_tools_json(plan: &Plan, cache: bool) -> String {
    let mut out: Vec<String> =
        plan.loaded().filter_map(|e| e.rendered.as_ref()).map(|r| r.json().to_owned()).collect();
    if let Some(search) = plan.search() {
        out.push(search.json().to_owned());
    }
    if cache && let Some(last) = out.last_mut() {
        *last = with_key(last, "cache_control", r#"{"type":"ephemeral"}"#);
    }
    if plan.defers_natively() {
        for entry in plan.deferred() {
            if let Some(r) = &entry.rendered {
                out.push(with_key(r.json(), "defer_loading", "true"));
            }
        }
    }
    format!("[{}]", out.join(","))
}

/// [`planned_tools_json`] as JSON values.
pub fn planned_tools(plan: &Plan, cache: bool) -> Vec<Value> {
    match serde_json::from_str(&planned_tools_json(plan, cache)) {
        Ok(Value::Array(tools)) => tools,
        // The text is joined from renderings, which are valid JSON objects.
        _ => Vec::new(),
    }
}

/// `object` (compact JSON object text) with `"key": value` appended.
pub(crate) fn with_key(object: &str, key: &str, value: &str) -> String {
    let body = object.trim_end().strip_suffix('}').unwrap_or(object);
    let sep = if body.trim_end().ends_with('{') { "" } else { "," };
    format!("{body}{sep}\"{key}\":{value}}}")
}

/// The `tool_result` block answering a client-side search call `tool_use_id` with the tools
/// named `names`: `{"type":"tool_result","tool_use_id":…,"content":[{"type":"tool_reference",
/// "tool_name":…}…]}`. Names longer than [`TOOL_REFERENCE_NAME_MAX`] cannot be referenced and
/// are skipped (the planner never defers such a tool).
pub fn tool_reference_result<'a>(
    tool_use_id: &str,
    names: impl IntoIterator<Item = &'a str>,
) -> Value {
    let content: Vec<Value> = names
        .into_iter()
        .filter(|n| n.chars().count() <= TOOL_REFERENCE_NAME_MAX)
        .map(|n| json!({"type": "tool_reference", "tool_name": n}))
        .collect();
    json!({"type": "tool_result", "tool_use_id": tool_use_id, "content": content})
}
