//! `tooldef plan` and `tooldef render --plan`: which tools of the set go into one request for
//! the provider, in which form, and why; and that request's tools array in the provider's own
//! form.
//!
//! Owns the provider's planning target (its budgets and its deferral, from the provider crate),
//! the host limits of the options, the decision table (or `--json`, one array of
//! `{name, decision, reason, detail, bytes}`), and the planned tools array.

use std::path::PathBuf;

use serde_json::Value;
use tooldef::assembly::{
    Decision, HostLimits, Plan, PlanTarget, PlanTool, Planner, estimated_tokens,
};
use tooldef_anthropic::ToolSearch as AnthropicSearch;
use tooldef_gemini::GeminiRenderer;
use tooldef_mcp::McpRenderer;
use tooldef_ollama::OllamaRenderer;
use tooldef_openai::{OpenAiRenderer, ToolSearch as OpenAiSearch};

use crate::load::load;
use crate::providers::Provider;
use crate::{Failure, Status, out};

/// Arguments of `tooldef plan` (and of `render --plan`).
#[derive(Debug, PartialEq)]
pub(crate) struct PlanArgs {
    pub(crate) provider: Provider,
    pub(crate) strict: bool,
    /// The host's limit on tools loaded up front.
    pub(crate) max_tools: Option<usize>,
    /// The host's limit on bytes of tool definitions loaded up front.
    pub(crate) max_bytes: Option<usize>,
    /// One JSON array instead of the table.
    pub(crate) json: bool,
    /// Spec files and directories; `-` for one spec read from stdin.
    pub(crate) paths: Vec<PathBuf>,
}

/// The provider's planning target: its budgets and its deferral (the provider's tool search for
/// OpenAI Responses and Anthropic, tooldef's `tool_search` meta-tool elsewhere).
fn target(provider: Provider) -> PlanTarget {
    match provider {
        Provider::OpenAiChat => {
            tooldef_openai::plan_target(&OpenAiRenderer::chat(), OpenAiSearch::Hosted)
        }
        Provider::OpenAiResponses => {
            tooldef_openai::plan_target(&OpenAiRenderer::responses(), OpenAiSearch::Hosted)
        }
        Provider::Anthropic => tooldef_anthropic::plan_target(AnthropicSearch::Regex),
        Provider::Gemini => tooldef_gemini::plan_target(GeminiRenderer::new()),
        Provider::GeminiOpenApi => tooldef_gemini::plan_target(GeminiRenderer::openapi()),
        Provider::Ollama => PlanTarget::new("ollama", OllamaRenderer::new()),
        Provider::Mcp => PlanTarget::new("mcp", McpRenderer::new()),
        Provider::Bedrock => tooldef_bedrock::plan_target(),
    }
}

/// Loads the specs and plans them; bad files are printed and make the status 2.
fn plan(a: &PlanArgs) -> (Plan, bool) {
    let loaded = load(&a.paths);
    loaded.print_problems();
    let mut host = HostLimits::none();
    if let Some(n) = a.max_tools {
        host = host.max_tools(n);
    }
    if let Some(n) = a.max_bytes {
        host = host.max_bytes(n);
    }
    let planner = Planner::new(target(a.provider)).strict(a.strict).host(host);
    let tools = loaded.specs.descriptors().into_iter().map(|d| PlanTool::new(d.clone()));
    (planner.plan(tools), loaded.problems.is_empty())
}

/// Runs `tooldef plan`: the decisions as a table, or as JSON with `--json`.
pub(crate) fn run(a: PlanArgs) -> Result<(), Failure> {
    let (plan, ok) = plan(&a);
    let text = if a.json { json_lines(&plan) } else { table(&plan) };
    out(text.as_bytes())?;
    if !ok {
        return Err(Failure::Reported(Status::BadInput));
    }
    Ok(())
}

/// Runs `tooldef render --plan`: the planned tools array in the provider's own form.
pub(crate) fn run_render(a: PlanArgs, pretty: bool) -> Result<(), Failure> {
    let (plan, ok) = plan(&a);
    let text = match a.provider {
        Provider::OpenAiChat | Provider::OpenAiResponses => {
            tooldef_openai::planned_tools_json(&plan)
        }
        Provider::Anthropic => tooldef_anthropic::planned_tools_json(&plan, true),
        _ => target(a.provider).plain().tools_field(&plan.sent()),
    };
    let text = if pretty {
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        serde_json::to_string_pretty(&value).unwrap_or(text)
    } else {
        text
    };
    out(text.as_bytes())?;
    out(b"\n")?;
    if !ok {
        return Err(Failure::Reported(Status::BadInput));
    }
    Ok(())
}

/// One JSON array, an object per tool in request order, its keys in the documented order.
fn json_lines(plan: &Plan) -> String {
    let rows: Vec<String> = plan
        .entries()
        .iter()
        .map(|e| {
            let text = |s: &str| Value::String(s.to_owned()).to_string();
            format!(
                "  {{\"name\": {}, \"decision\": {}, \"reason\": {}, \"detail\": {}, \"bytes\": {}}}",
                text(e.name()),
                text(e.decision.as_str()),
                text(e.reason.code()),
                text(&e.reason.to_string()),
                e.bytes()
            )
        })
        .collect();
    if rows.is_empty() {
        return "[]\n".to_owned();
    }
    format!("[\n{}\n]\n", rows.join(",\n"))
}

/// The decisions as a table, then the totals.
fn table(plan: &Plan) -> String {
    let width =
        plan.entries().iter().map(|e| e.name().len()).max().unwrap_or(0).max("(search)".len());
    let mut text = format!("{:<width$}  {:<8}  {:>7}  REASON\n", "TOOL", "DECISION", "BYTES");
    for e in plan.entries() {
        text.push_str(&format!(
            "{:<width$}  {:<8}  {:>7}  {}\n",
            e.name(),
            e.decision.as_str(),
            e.bytes(),
            e.reason
        ));
    }
    if let Some(search) = plan.search() {
        text.push_str(&format!(
            "{:<width$}  {:<8}  {:>7}  the search tool for the deferred tools\n",
            "(search)",
            "loaded",
            search.json().len()
        ));
    }
    let loaded = plan.loaded_bytes();
    text.push_str(&format!(
        "{}: {} tools: {} strict, {} plain, {} deferred, {} left out; {loaded} bytes loaded up front (about {} tokens)\n",
        plan.target(),
        plan.entries().len(),
        plan.count(Decision::Strict),
        plan.count(Decision::Plain),
        plan.count(Decision::Deferred),
        plan.count(Decision::LeftOut),
        estimated_tokens(loaded),
    ));
    text
}
