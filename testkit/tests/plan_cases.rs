//! The request planner's decisions on hand-picked cases, per provider, with their reasons; and
//! its stability as bounded property tests (fixed seed): the same tools in any order give the
//! same bytes, and a tool added below the others' priority changes no other tool's line and no
//! byte of the loaded prefix.

use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use serde_json::{Value, json};
use tooldef::assembly::{
    Budgets, Decision, DeferWhen, HostLimits, Limit, PlanTarget, PlanTool, Planner, Reason,
    StrictBudget,
};
use tooldef::spec::spec_from_value;
use tooldef::{LossPolicy, RenderRule, Renderer, ToolDescriptor};
use tooldef_anthropic::{AnthropicRenderer, ToolSearch};
use tooldef_openai::OpenAiRenderer;

/// A tool from its name and input schema, read as a spec file is.
fn tool(name: &str, input_schema: Value) -> Arc<ToolDescriptor> {
    let spec = json!({"name": name, "description": format!("The tool {name}."), "input_schema": input_schema});
    Arc::new(spec_from_value("case", &spec, None).expect("a valid spec").descriptor)
}

/// A tool with `n` optional string parameters.
fn optional_params(name: &str, n: usize) -> Arc<ToolDescriptor> {
    let props: serde_json::Map<String, Value> =
        (0..n).map(|i| (format!("p{i:02}"), json!({"type": "string"}))).collect();
    tool(name, json!({"type": "object", "properties": props}))
}

/// `(name, decision, reason code)` of every entry, in request order.
fn lines(plan: &tooldef::assembly::Plan) -> Vec<(String, Decision, &'static str)> {
    plan.entries().iter().map(|e| (e.name().to_owned(), e.decision, e.reason.code())).collect()
}

fn anthropic() -> Planner {
    Planner::new(tooldef_anthropic::plan_target(ToolSearch::Regex)).strict(true)
}

#[test]
fn anthropic_tools_past_the_optional_parameter_budget_go_plain_instead_of_refusing_the_set() {
    // Fourteen tools of two optional parameters each: 28 in all, over Anthropic's 24.
    let tools: Vec<_> = (0..14).map(|i| optional_params(&format!("t{i:02}"), 2)).collect();
    let strict = AnthropicRenderer::new().strict(true);
    let all: Vec<&ToolDescriptor> = tools.iter().map(|t| &**t).collect();
    let refused = strict.render_set(&all, LossPolicy::Refuse).unwrap_err();
    assert_eq!(refused.rule, RenderRule::SetLimit);

    let plan = anthropic().plan(tools.iter().cloned().map(PlanTool::new));
    let mut expected: Vec<(String, Decision, &str)> =
        (0..12).map(|i| (format!("t{i:02}"), Decision::Strict, "strict_lossless")).collect();
    expected.push(("t12".into(), Decision::Plain, "strict_budget"));
    expected.push(("t13".into(), Decision::Plain, "strict_budget"));
    assert_eq!(lines(&plan), expected);
    assert_eq!(
        plan.entry("t12").unwrap().reason,
        Reason::StrictBudget { budget: StrictBudget::OptionalParams, limit: 24 }
    );
    let strict_set: Vec<&ToolDescriptor> = plan
        .entries()
        .iter()
        .filter(|e| e.decision == Decision::Strict)
        .map(|e| &*e.tool.tool)
        .collect();
    strict.check_set(&strict_set, LossPolicy::Refuse).unwrap();
}

#[test]
fn one_fat_tool_over_the_budget_goes_plain_and_the_small_ones_stay_strict() {
    let tools =
        [optional_params("fat", 30), optional_params("small_a", 1), optional_params("small_b", 1)];
    let plan = anthropic().plan(tools.iter().cloned().map(PlanTool::new));
    assert_eq!(
        lines(&plan),
        [
            ("fat".to_owned(), Decision::Plain, "strict_budget"),
            ("small_a".to_owned(), Decision::Strict, "strict_lossless"),
            ("small_b".to_owned(), Decision::Strict, "strict_lossless"),
        ]
    );
}

#[test]
fn a_tool_the_target_cannot_render_is_quarantined_and_the_others_are_sent() {
    // Anthropic's names take no dots; MCP names may have them.
    let tools = [optional_params("fine", 1), optional_params("mcp.broken", 1)];
    let plan = anthropic().plan(tools.iter().cloned().map(PlanTool::new));
    assert_eq!(
        lines(&plan),
        [
            ("fine".to_owned(), Decision::Strict, "strict_lossless"),
            ("mcp.broken".to_owned(), Decision::LeftOut, "quarantined"),
        ]
    );
    let Reason::Quarantined(e) = &plan.entry("mcp.broken").unwrap().reason else {
        panic!("not quarantined")
    };
    assert_eq!(e.rule, RenderRule::Name);
    assert_eq!(
        tooldef_anthropic::planned_tools(&plan, false),
        [json!({
            "name": "fine",
            "description": "The tool fine.",
            "input_schema": {"type": "object", "properties": {"p00": {"type": "string"}}, "additionalProperties": false},
            "strict": true
        })]
    );
}

#[test]
fn an_open_object_goes_plain_with_the_lossy_change_named() {
    let open = tool(
        "open",
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": true}),
    );
    let plan = anthropic().plan([PlanTool::new(open)]);
    let entry = plan.entry("open").unwrap();
    assert_eq!((entry.decision, entry.reason.code()), (Decision::Plain, "strict_lossy"));
    let Reason::StrictLossy(e) = &entry.reason else { panic!("not lossy") };
    assert_eq!(e.rule, RenderRule::Lossy);
    assert_eq!(
        entry.rendered.as_ref().unwrap().to_value()["input_schema"]["additionalProperties"],
        true
    );
}

/// A name of `n` characters.
fn long_name(n: usize) -> String {
    "n".repeat(n)
}

#[test]
fn a_65_character_prefixed_name_is_handled_per_provider() {
    let prefix = "mcp__srv__";
    let name = long_name(65 - prefix.len());
    let host = HostLimits::none().name_prefix(prefix);
    let one = || [PlanTool::new(optional_params(&name, 1))];

    // OpenAI counts 64 characters: left out, named.
    let openai = tooldef_openai::plan_target(
        &OpenAiRenderer::responses(),
        tooldef_openai::ToolSearch::Hosted,
    );
    let plan = Planner::new(openai).strict(true).host(host.clone()).plan(one());
    assert_eq!(plan.entries()[0].decision, Decision::LeftOut);
    assert_eq!(plan.entries()[0].reason, Reason::NameTooLong { len: 65, max: 64 });

    // Gemini too.
    let gemini = tooldef_gemini::plan_target(tooldef_gemini::GeminiRenderer::new());
    let plan = Planner::new(gemini).host(host.clone()).plan(one());
    assert_eq!(plan.entries()[0].reason, Reason::NameTooLong { len: 65, max: 64 });

    // Anthropic takes 128: loaded, strict.
    let plan = anthropic().host(host.clone()).plan(one());
    assert_eq!(lines(&plan), [(name.clone(), Decision::Strict, "strict_lossless")]);

    // Deferred, its own name (55 characters) fits a `tool_reference` (64)...
    let plan = anthropic().host(host).defer(DeferWhen::AllButPinned).plan(one());
    assert_eq!(lines(&plan), [(name, Decision::Deferred, "defer_asked")]);

    // ...while a tool whose own name has 65 characters cannot be deferred: it is loaded while it
    // fits, and left out past a limit, with the reason.
    let long = long_name(65);
    let tools = || {
        [PlanTool::new(optional_params("a", 1)).pinned(), PlanTool::new(optional_params(&long, 1))]
    };
    let plan = anthropic().defer(DeferWhen::AllButPinned).plan(tools());
    assert_eq!(
        lines(&plan),
        [
            ("a".to_owned(), Decision::Strict, "strict_lossless"),
            (long.clone(), Decision::Strict, "strict_lossless")
        ]
    );
    let plan = anthropic().host(HostLimits::none().max_tools(1)).plan(tools());
    assert_eq!(plan.entry(&long).unwrap().reason, Reason::CannotDefer { len: 65, max: 64 });
}

#[test]
fn host_limits_keep_pinned_and_higher_priority_tools_and_defer_the_rest() {
    let t = |n: &str| optional_params(n, 0);
    let tools = [
        PlanTool::new(t("a")),
        PlanTool::new(t("b")),
        PlanTool::new(t("c")).priority(5),
        PlanTool::new(t("d")),
        PlanTool::new(t("e")).pinned(),
    ];
    // Three loaded slots: the search tool takes one once anything is deferred.
    let plan = anthropic().host(HostLimits::none().max_tools(3)).plan(tools.clone());
    let limit = Reason::OverLimit { limit: Limit::HostTools, max: 3 };
    assert_eq!(
        plan.entries().iter().map(|e| (e.name(), e.decision, e.reason.clone())).collect::<Vec<_>>(),
        [
            ("c", Decision::Strict, Reason::StrictLossless),
            ("e", Decision::Strict, Reason::StrictLossless),
            ("a", Decision::Deferred, limit.clone()),
            ("b", Decision::Deferred, limit.clone()),
            ("d", Decision::Deferred, limit),
        ]
    );
    // No deferral: the same tools are left out.
    let plan =
        anthropic().host(HostLimits::none().max_tools(2)).defer(DeferWhen::Never).plan(tools);
    assert_eq!(plan.count(Decision::LeftOut), 3);
    assert_eq!(plan.search().map(|s| s.json().to_owned()), None);
}

#[test]
fn a_byte_limit_counts_the_wire_json_loaded_up_front() {
    let tools: Vec<_> =
        (0..6).map(|i| PlanTool::new(optional_params(&format!("t{i}"), 3))).collect();
    let bytes = anthropic().plan(tools.clone()).loaded_bytes();
    let plan = anthropic().host(HostLimits::none().max_bytes(bytes / 2)).plan(tools);
    assert!(plan.loaded_bytes() <= bytes / 2);
    assert!(plan.count(Decision::Deferred) > 0);
    for e in plan.deferred() {
        assert_eq!(e.reason.code(), "over_limit");
    }
}

#[test]
fn a_name_offered_twice_keeps_the_first_offer() {
    let first = optional_params("same", 1);
    let second = optional_params("same", 2);
    let plan = anthropic().plan([PlanTool::new(Arc::clone(&first)), PlanTool::new(second)]);
    assert_eq!(
        lines(&plan),
        [
            ("same".to_owned(), Decision::Strict, "strict_lossless"),
            ("same".to_owned(), Decision::LeftOut, "duplicate_name")
        ]
    );
    assert!(Arc::ptr_eq(&plan.entries()[0].tool.tool, &first));
}

#[test]
fn openai_client_search_maps_the_call_and_its_output() {
    let target = tooldef_openai::plan_target(
        &OpenAiRenderer::responses(),
        tooldef_openai::ToolSearch::Client,
    );
    let tools = [
        PlanTool::new(optional_params("get_weather", 1)),
        PlanTool::new(optional_params("send_mail", 1)),
    ];
    let plan = Planner::new(target).defer(DeferWhen::AllButPinned).plan(tools);
    let response = json!({"output": [
        {"type": "tool_search_call", "call_id": "call_1", "execution": "client", "arguments": {"query": "weather"}},
        {"type": "tool_search_call", "call_id": "call_2", "execution": "server", "arguments": {}}
    ]});
    let calls = tooldef_openai::tool_search_calls(&response);
    assert_eq!(
        calls,
        [tooldef_openai::SearchCall {
            call_id: "call_1".into(),
            arguments: json!({"query": "weather"})
        }]
    );
    let output = tooldef_openai::tool_search_output(&plan, &plan.disclosure(), &calls[0]);
    assert_eq!(
        output,
        json!({
            "type": "tool_search_output",
            "call_id": "call_1",
            "execution": "client",
            "tools": [{
                "type": "function",
                "name": "get_weather",
                "description": "The tool get_weather.",
                "parameters": {"type": "object", "properties": {"p00": {"type": "string"}}},
                "strict": false
            }]
        })
    );
    tooldef_testkit::specs::assert_conforms(
        "ToolSearchOutputItemParam",
        tooldef_testkit::specs::openai::validate_component("ToolSearchOutputItemParam", &output),
    );
}

#[test]
fn anthropic_client_search_answers_with_tool_references() {
    let answer =
        tooldef_anthropic::tool_reference_result("toolu_1", ["get_weather", &long_name(65)]);
    assert_eq!(
        answer,
        json!({"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "tool_reference", "tool_name": "get_weather"}]})
    );
    tooldef_testkit::specs::assert_conforms(
        "tool_reference result",
        tooldef_testkit::specs::anthropic::validate_tool_reference_result(&answer),
    );
}

/// A set of distinct tools with priorities, from a fixed pool of shapes.
fn arb_tools() -> impl Strategy<Value = Vec<PlanTool>> {
    prop::collection::btree_map(
        "[a-z]{1,6}",
        (0usize..5, -2i32..3, prop::bool::weighted(0.1)),
        1..25,
    )
    .prop_map(|m| {
        m.into_iter()
            .map(|(name, (params, priority, pinned))| {
                let t = PlanTool::new(optional_params(&name, params)).priority(priority);
                if pinned { t.pinned() } else { t }
            })
            .collect()
    })
}

fn planner_with_limits() -> Planner {
    anthropic().host(HostLimits::none().max_tools(8).max_bytes(2_000))
}

fn config() -> Config {
    Config {
        cases: 48,
        rng_seed: RngSeed::Fixed(0x9_1a45),
        failure_persistence: None,
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_same_tools_in_any_order_give_the_same_bytes(tools in arb_tools(), seed in any::<u64>()) {
        let planner = planner_with_limits();
        let a = planner.plan(tools.clone());
        let mut shuffled = tools;
        // A deterministic shuffle from the seed.
        let n = shuffled.len();
        for i in (1..n).rev() {
            let j = usize::try_from(seed.rotate_left(u32::try_from(i % 64).unwrap_or(0)) % (i as u64 + 1)).unwrap_or(0);
            shuffled.swap(i, j);
        }
        let b = planner.plan(shuffled);
        prop_assert_eq!(tooldef_anthropic::planned_tools_json(&a, true), tooldef_anthropic::planned_tools_json(&b, true));
        prop_assert_eq!(lines(&a), lines(&b));
    }

    #[test]
    fn a_tool_added_below_every_priority_changes_no_other_line_nor_the_loaded_prefix(tools in arb_tools()) {
        let planner = planner_with_limits();
        let before = planner.plan(tools.clone());
        let mut more = tools;
        more.push(PlanTool::new(optional_params("zzzzzzz", 1)).priority(-10));
        let after = planner.plan(more);
        let others: Vec<_> = lines(&after).into_iter().filter(|(n, ..)| n != "zzzzzzz").collect();
        let added = after.entry("zzzzzzz").unwrap().decision;
        // When the added tool is deferred and a search tool was already there, nothing the model
        // sees up front moves; when it is the first deferred tool, the search tool takes a slot.
        if added == Decision::Deferred && before.search().is_some() {
            prop_assert_eq!(&others, &lines(&before));
            let prefix = |p: &tooldef::assembly::Plan| p.loaded().map(|e| e.rendered.as_ref().unwrap().json().to_owned()).collect::<Vec<_>>();
            prop_assert_eq!(prefix(&after), prefix(&before));
        }
        if added == Decision::LeftOut || (added.is_loaded() && before.search().is_none() && after.search().is_none()) {
            // Loaded where everything else was loaded too, or left out: the others keep their
            // decisions (a strict budget may only be spent by those before it).
            let decisions = |l: &[(String, Decision, &str)]| l.iter().map(|(n, d, _)| (n.clone(), *d)).collect::<Vec<_>>();
            prop_assert_eq!(decisions(&others), decisions(&lines(&before)));
        }
    }

    #[test]
    fn deferred_tools_come_after_everything_loaded(tools in arb_tools()) {
        let plan = planner_with_limits().plan(tools);
        let text = tooldef_anthropic::planned_tools_json(&plan, false);
        let values: Vec<Value> = serde_json::from_str(&text).unwrap();
        let first_deferred = values.iter().position(|v| v.get("defer_loading").is_some()).unwrap_or(values.len());
        prop_assert!(values[first_deferred..].iter().all(|v| v.get("defer_loading").is_some()));
        prop_assert_eq!(first_deferred, plan.loaded().count() + usize::from(plan.search().is_some()));
    }
}

#[test]
fn a_budgetless_target_loads_everything() {
    let target = PlanTarget::new("plain", OpenAiRenderer::chat()).budgets(Budgets::none());
    let plan = Planner::new(target)
        .plan((0..5).map(|i| PlanTool::new(optional_params(&format!("t{i}"), 1))));
    assert_eq!(plan.count(Decision::Plain), 5);
    assert!(plan.search().is_none());
}
