//! Planned requests: the [`PlanTarget`] of an OpenAI API (its budgets and, on Responses, its
//! tool search), the tools array of a [`Plan`] in OpenAI's own form, `tool_choice`'s
//! `allowed_tools`, and the way back of a client-executed tool search.
//!
//! On Responses (OpenAI itself) the array is the loaded tools (strict ones with
//! `"strict": true`), then the `tool_search` tool, then the deferred tools with
//! `"defer_loading": true`: first those without a namespace, by name, then one
//! `{"type":"namespace",...}` entry per namespace, by name, holding its deferred tools. Elsewhere
//! (Chat Completions, the OpenAI-compatible providers) deferred tools are not sent and tooldef's
//! `tool_search` meta-tool finds them ([`Plan::disclosure`]).
//!
//! ```
//! use tooldef::ToolDescriptor;
//! use tooldef::assembly::{DeferWhen, Namespace, PlanTool, Planner};
//! use tooldef_openai::{OpenAiRenderer, ToolSearch, plan_target, planned_tools_json};
//!
//! const A: ToolDescriptor = ToolDescriptor::new("alpha").description("First.");
//! const B: ToolDescriptor = ToolDescriptor::new("beta").description("Second.");
//!
//! let target = plan_target(&OpenAiRenderer::responses(), ToolSearch::Hosted);
//! // Defer every tool that is not pinned.
//! let planner = Planner::new(target).defer(DeferWhen::AllButPinned);
//! let crm = Namespace::new("crm", "Customer records.");
//! let plan = planner.plan([PlanTool::new(A).pinned(), PlanTool::new(B).namespace(crm)]);
//! assert_eq!(
//!     planned_tools_json(&plan),
//!     concat!(
//!         r#"[{"type":"function","name":"alpha","description":"First.","parameters":{"type":"object","properties":{},"additionalProperties":false},"strict":false},"#,
//!         r#"{"type":"tool_search"},"#,
//!         r#"{"type":"namespace","name":"crm","description":"Customer records.","tools":["#,
//!         r#"{"type":"function","name":"beta","description":"Second.","parameters":{"type":"object","properties":{},"additionalProperties":false},"strict":false,"defer_loading":true}]}]"#,
//!     )
//! );
//! ```

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use tooldef::assembly::{Budgets, Deferral, Plan, PlanTarget, ProgressiveDisclosure};
use tooldef::{LossPolicy, Renderer};

use crate::render::{Api, OpenAiRenderer, Profile};

/// The longest function name (`rules::TOOL_NAME`).
const MAX_NAME: usize = 64;
/// The most tools of a request, as API errors stated it (sources in `docs/budgets.md`).
const MAX_TOOLS: usize = 128;

/// How the model searches deferred tools on Responses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ToolSearch {
    /// OpenAI runs the search: `{"type":"tool_search"}`.
    #[default]
    Hosted,
    /// The client runs it: `{"type":"tool_search","execution":"client",...}`; the model's
    /// `tool_search_call` items are read with [`tool_search_calls`] and answered with
    /// [`tool_search_output`].
    Client,
}

/// The budgets of one request for `renderer`'s API and profile (sources in
/// `docs/budgets.md`): names of 64 characters and, for OpenAI itself, 128 tools loaded.
pub fn plan_budgets(renderer: &OpenAiRenderer) -> Budgets {
    let budgets = Budgets::none().max_name_len(MAX_NAME);
    match renderer.provider() {
        Profile::OpenAi => budgets.max_tools(MAX_TOOLS),
        _ => budgets,
    }
}

/// Whether `renderer`'s API and profile defer natively (OpenAI's Responses API).
fn native(renderer: &OpenAiRenderer) -> bool {
    renderer.api() == Api::Responses && renderer.provider() == Profile::OpenAi
}

/// `renderer`'s API and profile as a planning target: the plain and strict renderers (none
/// for Cohere, whose strictness is per request), [`plan_budgets`], and deferral through the
/// `tool_search` tool on Responses, through tooldef's meta-tool elsewhere.
pub fn plan_target(renderer: &OpenAiRenderer, search: ToolSearch) -> PlanTarget {
    let plain = renderer.clone().strict(false);
    let name = plain.name().trim_end_matches("-strict").to_owned();
    let mut target = PlanTarget::new(name, plain.clone()).budgets(plan_budgets(renderer));
    if renderer.provider() != Profile::Cohere {
        target = target.strict_renderer(renderer.clone().strict(true));
    }
    if native(renderer) {
        let json = match search {
            ToolSearch::Hosted => Some(r#"{"type":"tool_search"}"#.to_owned()),
            ToolSearch::Client => client_search_tool(&plain),
        };
        if let Some(search) = json {
            target = target.deferral(Deferral::Native { search });
        }
    }
    target
}

/// The client-executed `tool_search` tool: the meta-tool's description and parameters.
fn client_search_tool(plain: &OpenAiRenderer) -> Option<String> {
    let meta = ProgressiveDisclosure::new();
    let rendered = plain.render(meta.meta_tool(), LossPolicy::Allow).ok()?.to_value();
    Some(format!(
        r#"{{"type":"tool_search","execution":"client","description":{},"parameters":{}}}"#,
        rendered.get("description")?,
        rendered.get("parameters")?,
    ))
}

/// The request's `tools` array for `plan` as JSON text, in OpenAI's form. On Responses: the
/// loaded tools (strict ones with `"strict": true`), the `tool_search` tool, then the deferred
/// tools with `"defer_loading": true`, those without a namespace first, then one `namespace`
/// entry per namespace, by name. Elsewhere: the loaded tools and tooldef's `tool_search`
/// meta-tool ([`Plan::disclosure`] searches the deferred tools). Each tool is its rendering's
/// text, so the bytes are the planner's.
pub fn planned_tools_json(plan: &Plan) -> String {
    let mut out: Vec<String> =
        plan.loaded().filter_map(|e| e.rendered.as_ref()).map(|r| r.json().to_owned()).collect();
    if let Some(search) = plan.search() {
        out.push(search.json().to_owned());
    }
    if plan.defers_natively() {
        let mut spaces: BTreeMap<&str, (&str, Vec<String>)> = BTreeMap::new();
        for entry in plan.deferred() {
            let Some(r) = &entry.rendered else { continue };
            let tool = with_key(r.json(), "defer_loading", "true");
            match &entry.tool.namespace {
                None => out.push(tool),
                Some(ns) => {
                    spaces
                        .entry(ns.name.as_str())
                        .or_insert_with(|| (ns.description.as_str(), Vec::new()))
                        .1
                        .push(tool);
                }
            }
        }
        for (name, (description, tools)) in spaces {
            out.push(format!(
                r#"{{"type":"namespace","name":{},"description":{},"tools":[{}]}}"#,
                Value::String(name.to_owned()),
                Value::String(description.to_owned()),
                tools.join(",")
            ));
        }
    }
    format!("[{}]", out.join(","))
}

/// [`planned_tools_json`] as JSON values.
pub fn planned_tools(plan: &Plan) -> Vec<Value> {
    match serde_json::from_str(&planned_tools_json(plan)) {
        Ok(Value::Array(tools)) => tools,
        // The text is joined from renderings, which are valid JSON objects.
        _ => Vec::new(),
    }
}

/// `object` (compact JSON object text) with `"key": value` appended.
fn with_key(object: &str, key: &str, value: &str) -> String {
    let body = object.trim_end().strip_suffix('}').unwrap_or(object);
    let sep = if body.trim_end().ends_with('{') { "" } else { "," };
    format!("{body}{sep}\"{key}\":{value}}}")
}

/// Whether the model must call a tool of an [`allowed_tools`] choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AllowedMode {
    /// The model may call one of them or answer.
    #[default]
    Auto,
    /// The model must call one or more of them.
    Required,
}

/// A `tool_choice` that restricts the model to the tools named `names` without changing the
/// tools array (so the prompt cache holds): `{"type":"allowed_tools","mode",…,"tools":[…]}` on
/// Responses, `{"type":"allowed_tools","allowed_tools":{"mode",…,"tools":[…]}}` on Chat.
/// Names the plan does not send (left out, or deferred through the meta-tool) are skipped: the
/// API refuses a choice naming a tool it was not given.
pub fn allowed_tools<'a>(
    plan: &Plan,
    api: Api,
    names: impl IntoIterator<Item = &'a str>,
    mode: AllowedMode,
) -> Value {
    let mode = match mode {
        AllowedMode::Auto => "auto",
        AllowedMode::Required => "required",
    };
    let sent = |name: &str| {
        plan.entry(name).is_some_and(|e| {
            e.decision.is_loaded()
                || (plan.defers_natively() && e.decision == tooldef::assembly::Decision::Deferred)
        })
    };
    let tools: Vec<Value> = names
        .into_iter()
        .filter(|n| sent(n))
        .map(|n| match api {
            Api::Responses => json!({"type": "function", "name": n}),
            Api::Chat => json!({"type": "function", "function": {"name": n}}),
        })
        .collect();
    match api {
        Api::Responses => json!({"type": "allowed_tools", "mode": mode, "tools": tools}),
        Api::Chat => {
            json!({"type": "allowed_tools", "allowed_tools": {"mode": mode, "tools": tools}})
        }
    }
}

/// A client-executed `tool_search_call` of a Responses output.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchCall {
    /// The call's id, which the output item answers.
    pub call_id: String,
    /// The arguments the model sent (`{"query": …, "limit": …}` for tooldef's search tool).
    pub arguments: Value,
}

/// The client-executed `tool_search_call` items of a Responses response (`{"output":[…]}`) or
/// of an output array, in order; hosted ones (the server answered them) are skipped.
pub fn tool_search_calls(response: &Value) -> Vec<SearchCall> {
    let items = match response {
        Value::Array(items) => items.as_slice(),
        Value::Object(m) => {
            m.get("output").and_then(Value::as_array).map_or(&[][..], Vec::as_slice)
        }
        _ => &[],
    };
    items
        .iter()
        .filter(|i| i.get("type").and_then(Value::as_str) == Some("tool_search_call"))
        .filter(|i| i.get("execution").and_then(Value::as_str) == Some("client"))
        .filter_map(|i| {
            Some(SearchCall {
                call_id: i.get("call_id")?.as_str()?.to_owned(),
                arguments: i.get("arguments").cloned().unwrap_or_else(|| Value::Object(Map::new())),
            })
        })
        .collect()
}

/// The `tool_search_output` item answering `call`: runs `disclosure`'s search (a
/// [`Plan::disclosure`] of `plan`) with the call's `query` and `limit` (default 5, at most 50),
/// and loads the tools found, as `plan` renders them. An empty or missing query finds nothing.
pub fn tool_search_output(
    plan: &Plan,
    disclosure: &ProgressiveDisclosure,
    call: &SearchCall,
) -> Value {
    let query = call.arguments.get("query").and_then(Value::as_str).unwrap_or("");
    let limit = call.arguments.get("limit").and_then(Value::as_u64).map_or(5, |n| n.clamp(1, 50));
    let found = if query.trim().is_empty() {
        Vec::new()
    } else {
        disclosure.search(query, usize::try_from(limit).unwrap_or(5))
    };
    let tools: Vec<Value> = found
        .iter()
        .filter_map(|t| plan.entry(t.name.as_str()))
        .filter_map(|e| e.rendered.as_ref().map(tooldef::Rendered::to_value))
        .collect();
    json!({
        "type": "tool_search_output",
        "call_id": call.call_id,
        "execution": "client",
        "tools": tools,
    })
}
