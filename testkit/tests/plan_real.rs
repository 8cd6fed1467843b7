//! The request planner over the real-world corpus: every tool of the corpus offered at once to
//! one request per target, under one host's limits (100 tools and 200,000 bytes loaded up
//! front). Each planned tools array is held to the provider's official wire spec (the whole
//! request body where the spec has one), each strict tool to the provider's strict rules, and
//! every budget of `docs/budgets.md` to its limit. Every tool is accounted for exactly once.
//!
//! `cargo test -p tooldef-testkit --test plan_real -- --nocapture` prints the figures per target.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use serde_json::{Value, json};
use tooldef::ToolDescriptor;
use tooldef::assembly::{
    Decision, HostLimits, Namespace, Plan, PlanTarget, PlanTool, Planner, StrictCost,
};
use tooldef_openai::{Api, OpenAiRenderer};
use tooldef_testkit::real;
use tooldef_testkit::specs::{self, SpecResult};

const MAX_TOOLS: usize = 100;
const MAX_BYTES: usize = 200_000;

/// Every tool of the corpus that imports, with its source file (for namespaces).
fn corpus() -> &'static [(String, Arc<ToolDescriptor>)] {
    static TOOLS: OnceLock<Vec<(String, Arc<ToolDescriptor>)>> = OnceLock::new();
    TOOLS.get_or_init(|| {
        real::load()
            .iter()
            .filter_map(|t| {
                let imported = real::import(t).ok()?;
                Some((t.file.clone(), Arc::new(imported.descriptor)))
            })
            .collect()
    })
}

/// The MCP server (or other source) of a corpus file, as a namespace.
fn namespace(file: &str) -> Arc<Namespace> {
    let stem = file.rsplit('/').next().unwrap_or(file).trim_end_matches(".json");
    Namespace::new(stem, format!("The tools of {stem}."))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Case {
    ResponsesHosted,
    ResponsesClient,
    Chat,
    AnthropicRegex,
    AnthropicClient,
    Bedrock,
    Gemini,
    GeminiOpenApi,
}

impl Case {
    const ALL: [Case; 8] = [
        Case::ResponsesHosted,
        Case::ResponsesClient,
        Case::Chat,
        Case::AnthropicRegex,
        Case::AnthropicClient,
        Case::Bedrock,
        Case::Gemini,
        Case::GeminiOpenApi,
    ];

    fn name(self) -> &'static str {
        match self {
            Case::ResponsesHosted => "openai-responses --strict (hosted tool_search)",
            Case::ResponsesClient => "openai-responses --strict (client tool_search)",
            Case::Chat => "openai-chat --strict (tooldef tool_search)",
            Case::AnthropicRegex => "anthropic --strict (tool_search_tool_regex)",
            Case::AnthropicClient => "anthropic --strict (client search, tool_reference)",
            Case::Bedrock => "bedrock --strict (tooldef tool_search)",
            Case::Gemini => "gemini (tooldef tool_search)",
            Case::GeminiOpenApi => "gemini-openapi (tooldef tool_search)",
        }
    }

    fn target(self) -> PlanTarget {
        match self {
            Case::ResponsesHosted => tooldef_openai::plan_target(
                &OpenAiRenderer::responses(),
                tooldef_openai::ToolSearch::Hosted,
            ),
            Case::ResponsesClient => tooldef_openai::plan_target(
                &OpenAiRenderer::responses(),
                tooldef_openai::ToolSearch::Client,
            ),
            Case::Chat => tooldef_openai::plan_target(
                &OpenAiRenderer::chat(),
                tooldef_openai::ToolSearch::Hosted,
            ),
            Case::AnthropicRegex => {
                tooldef_anthropic::plan_target(tooldef_anthropic::ToolSearch::Regex)
            }
            Case::AnthropicClient => {
                tooldef_anthropic::plan_target(tooldef_anthropic::ToolSearch::Client)
            }
            Case::Bedrock => tooldef_bedrock::plan_target(),
            Case::Gemini => tooldef_gemini::plan_target(tooldef_gemini::GeminiRenderer::new()),
            Case::GeminiOpenApi => {
                tooldef_gemini::plan_target(tooldef_gemini::GeminiRenderer::openapi())
            }
        }
    }

    fn plan(self) -> Plan {
        let tools = corpus()
            .iter()
            .map(|(file, d)| PlanTool::new(Arc::clone(d)).namespace(namespace(file)));
        Planner::new(self.target())
            .strict(true)
            .host(HostLimits::none().max_tools(MAX_TOOLS).max_bytes(MAX_BYTES))
            .plan(tools)
    }

    /// The request's tools field as the provider's own form, as JSON text.
    fn tools_text(self, plan: &Plan) -> String {
        match self {
            Case::ResponsesHosted | Case::ResponsesClient | Case::Chat => {
                tooldef_openai::planned_tools_json(plan)
            }
            Case::AnthropicRegex | Case::AnthropicClient => {
                tooldef_anthropic::planned_tools_json(plan, true)
            }
            Case::Bedrock => tooldef_bedrock::tool_config(&plan.sent()).unwrap_or_default(),
            Case::Gemini | Case::GeminiOpenApi => self.target().plain().tools_field(&plan.sent()),
        }
    }

    /// Every way the planned request breaks the provider's official spec or its strict rules.
    fn violations(self, plan: &Plan, tools: &Value) -> Vec<String> {
        let mut out = Vec::new();
        let mut spec = |what: &str, result: SpecResult| {
            if let Err(violations) = result {
                out.extend(violations.iter().map(|v| format!("{what}: {v}")));
            }
        };
        match self {
            Case::ResponsesHosted | Case::ResponsesClient => {
                let names: Vec<&str> = plan.loaded().map(|e| e.name()).take(3).collect();
                let choice = tooldef_openai::allowed_tools(
                    plan,
                    Api::Responses,
                    names,
                    tooldef_openai::AllowedMode::Auto,
                );
                let body = json!({"model": "gpt-5.4", "input": "hi", "tools": tools, "tool_choice": choice});
                spec("CreateResponse", specs::openai::validate_create_response(&body));
            }
            Case::Chat => {
                let names: Vec<&str> = plan.loaded().map(|e| e.name()).take(3).collect();
                let choice = tooldef_openai::allowed_tools(
                    plan,
                    Api::Chat,
                    names,
                    tooldef_openai::AllowedMode::Auto,
                );
                spec(
                    "CreateChatCompletionRequest",
                    specs::openai::validate_chat_completion_fragment(
                        &json!({"tools": tools, "tool_choice": choice}),
                    ),
                );
            }
            Case::AnthropicRegex | Case::AnthropicClient => {
                for (i, tool) in tools.as_array().into_iter().flatten().enumerate() {
                    spec(&format!("tools[{i}]"), specs::anthropic::validate_tools_entry(tool));
                }
                let names = plan.deferred().map(|e| e.name()).take(5);
                let answer = tooldef_anthropic::tool_reference_result("toolu_1", names);
                spec(
                    "tool_reference result",
                    specs::anthropic::validate_tool_reference_result(&answer),
                );
            }
            Case::Bedrock => {
                for (i, tool) in tools["tools"].as_array().into_iter().flatten().enumerate() {
                    spec(&format!("tools[{i}]"), specs::bedrock::validate_tool(tool));
                }
            }
            Case::Gemini | Case::GeminiOpenApi => {
                spec(
                    "GenerateContentRequest",
                    specs::gemini::validate_generate_content_fragment(&json!({"tools": tools})),
                );
            }
        }
        for entry in plan.entries().iter().filter(|e| e.decision == Decision::Strict) {
            let wire = entry.rendered.as_ref().map(tooldef::Rendered::to_value).unwrap_or_default();
            let rules = match self {
                Case::ResponsesHosted | Case::ResponsesClient => {
                    tooldef_openai::strict_violations(&wire["parameters"])
                }
                Case::Chat => tooldef_openai::strict_violations(&wire["function"]["parameters"]),
                Case::AnthropicRegex | Case::AnthropicClient => {
                    tooldef_anthropic::strict_violations(&wire["input_schema"])
                }
                Case::Bedrock => {
                    tooldef_bedrock::strict_violations(&wire["toolSpec"]["inputSchema"]["json"])
                }
                Case::Gemini | Case::GeminiOpenApi => vec!["a strict tool on Gemini".to_owned()],
            };
            out.extend(rules.into_iter().map(|r| format!("`{}` strict rules: {r}", entry.name())));
        }
        out
    }
}

/// Every budget of the target and the host, checked on the plan; one line per budget broken.
fn budgets_broken(case: Case, plan: &Plan) -> Vec<String> {
    let target = case.target();
    let b = target.get_budgets();
    let mut out = Vec::new();
    let loaded = plan.loaded().count() + usize::from(plan.search().is_some());
    let mut check = |what: &str, n: usize, max: Option<usize>| {
        if let Some(max) = max
            && n > max
        {
            out.push(format!("{what}: {n} > {max}"));
        }
    };
    check("loaded tools (host)", loaded, Some(MAX_TOOLS));
    check("loaded tools (provider)", loaded, b.max_tools);
    check("loaded bytes (host)", plan.loaded_bytes(), Some(MAX_BYTES));
    let deferred = if plan.defers_natively() { plan.count(Decision::Deferred) } else { 0 };
    check("deferred tools", deferred, b.max_deferred);
    let strict: Vec<_> = plan.entries().iter().filter(|e| e.decision == Decision::Strict).collect();
    check("strict tools", strict.len(), b.strict_tools);
    let cost = strict.iter().fold(StrictCost::default(), |mut sum, e| {
        let c = StrictCost::of(
            &e.rendered.as_ref().map(tooldef::Rendered::to_value).unwrap_or_default(),
        );
        sum.optional_params += c.optional_params;
        sum.union_params += c.union_params;
        sum
    });
    check("strict optional parameters", cost.optional_params, b.strict_optional_params);
    check("strict union parameters", cost.union_params, b.strict_union_params);
    for e in plan.entries().iter().filter(|e| e.decision != Decision::LeftOut) {
        check(&format!("name `{}`", e.name()), e.name().chars().count(), b.max_name_len);
    }
    if plan.defers_natively() {
        for e in plan.deferred() {
            check(
                &format!("deferred name `{}`", e.name()),
                e.name().chars().count(),
                b.deferred_name_len,
            );
        }
    }
    // The renderers' own set checks accept the sets.
    let set = |d: Decision| -> Vec<&ToolDescriptor> {
        plan.entries().iter().filter(|e| e.decision == d).map(|e| &*e.tool.tool).collect()
    };
    if let Some(strict) = target.strict() {
        let tools = set(Decision::Strict);
        if !tools.is_empty()
            && let Err(e) = strict.check_set(&tools, tooldef::LossPolicy::Refuse)
        {
            out.push(format!("the strict set check: {e}"));
        }
    }
    out
}

fn plans() -> &'static BTreeMap<Case, Plan> {
    static PLANS: OnceLock<BTreeMap<Case, Plan>> = OnceLock::new();
    PLANS.get_or_init(|| Case::ALL.into_iter().map(|c| (c, c.plan())).collect())
}

#[test]
fn every_planned_request_conforms_to_the_official_spec_and_holds_every_budget() {
    let mut problems = Vec::new();
    for (case, plan) in plans() {
        let text = case.tools_text(plan);
        let tools: Value = serde_json::from_str(&text).expect("the tools field is JSON");
        problems.extend(
            case.violations(plan, &tools).into_iter().map(|v| format!("[{}] {v}", case.name())),
        );
        problems.extend(
            budgets_broken(*case, plan).into_iter().map(|v| format!("[{}] {v}", case.name())),
        );
    }
    let shown: Vec<&String> = problems.iter().take(20).collect();
    assert!(problems.is_empty(), "{} problems, the first: {shown:#?}", problems.len());
}

#[test]
fn every_tool_is_decided_once_and_the_corpus_is_not_refused_as_a_whole() {
    for (case, plan) in plans() {
        assert_eq!(plan.entries().len(), corpus().len(), "[{}]", case.name());
        let mut names: Vec<(&str, Decision)> =
            plan.entries().iter().map(|e| (e.name(), e.decision)).collect();
        names.sort();
        // Several corpus tools share a name; the first is decided, the others are left out.
        let sent: Vec<&str> =
            names.iter().filter(|(_, d)| *d != Decision::LeftOut).map(|(n, _)| *n).collect();
        let mut unique = sent.clone();
        unique.dedup();
        assert_eq!(sent.len(), unique.len(), "[{}] a name is sent twice", case.name());
        assert!(plan.loaded().count() > 0, "[{}] nothing loaded", case.name());
    }
}

#[test]
#[allow(clippy::print_stderr, reason = "the figures are this test's report (`--nocapture`)")]
fn the_figures_per_target() {
    for (case, plan) in plans() {
        let text = case.tools_text(plan);
        let mut reasons: BTreeMap<(Decision, &str), usize> = BTreeMap::new();
        for e in plan.entries() {
            *reasons.entry((e.decision, e.reason.code())).or_default() += 1;
        }
        let reasons: Vec<String> =
            reasons.iter().map(|((d, r), n)| format!("{d}/{r} {n}")).collect();
        eprintln!(
            "{}: {} tools: strict {} plain {} deferred {} left out {}; request tools field {} bytes, loaded {} bytes; reasons: {}",
            case.name(),
            plan.entries().len(),
            plan.count(Decision::Strict),
            plan.count(Decision::Plain),
            plan.count(Decision::Deferred),
            plan.count(Decision::LeftOut),
            text.len(),
            plan.loaded_bytes(),
            reasons.join(", "),
        );
        let counted: usize =
            [Decision::Strict, Decision::Plain, Decision::Deferred, Decision::LeftOut]
                .into_iter()
                .map(|d| plan.count(d))
                .sum();
        assert_eq!(counted, corpus().len());
    }
}
