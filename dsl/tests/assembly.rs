//! Prompt assembly: contributors, section and tool order, interceptors, the shipped filter and
//! progressive disclosure, thread safety.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use tooldef::assembly::{
    Assembler, AssemblyContext, AssemblyError, Bundle, Contribution, Interceptor, Next,
    PatternError, ProgressiveDisclosure, PromptAssembly, Section, SectionSource, ToolFilter,
    ToolPattern, interceptor_fn,
};
use tooldef::{Executor, ToolCall, ToolDescriptor, ToolName};

fn tool(name: &str, description: &str) -> ToolDescriptor {
    ToolDescriptor::builder(name.to_owned()).description(description.to_owned()).build().unwrap()
}

fn names(assembly: &PromptAssembly) -> Vec<&str> {
    assembly.tool_names().collect()
}

fn section_names(assembly: &PromptAssembly) -> Vec<&str> {
    assembly.sections.iter().map(|s| s.name.as_ref()).collect()
}

fn cx() -> AssemblyContext {
    AssemblyContext::new()
}

#[test]
fn sections_follow_order_key_whatever_the_registration_order() {
    let asm = Assembler::new();
    asm.add_section(SectionSource::fixed("late", 20, "C"));
    asm.add_section(SectionSource::fixed("early", -5, "A"));
    asm.add_section(SectionSource::fixed("middle", 10, "B"));
    let a = asm.assemble(&cx()).unwrap();
    assert_eq!(section_names(&a), ["early", "middle", "late"]);
    assert_eq!(a.system_text(), "A\n\nB\n\nC");
}

#[test]
fn equal_order_keys_are_ordered_by_name_not_registration() {
    let first = Assembler::new();
    first.add_section(SectionSource::fixed("zeta", 0, "Z"));
    first.add_section(SectionSource::fixed("alpha", 0, "A"));
    let second = Assembler::new();
    second.add_section(SectionSource::fixed("alpha", 0, "A"));
    second.add_section(SectionSource::fixed("zeta", 0, "Z"));
    let a = first.assemble(&cx()).unwrap();
    let b = second.assemble(&cx()).unwrap();
    assert_eq!(section_names(&a), ["alpha", "zeta"]);
    assert_eq!(a, b);
}

#[test]
fn equal_key_and_name_keep_contribution_order() {
    let asm = Assembler::new();
    asm.add_section(SectionSource::fixed("notes", 0, "one"));
    asm.add_section(SectionSource::fixed("notes", 0, "two"));
    assert_eq!(asm.assemble(&cx()).unwrap().system_text(), "one\n\ntwo");
}

#[test]
fn tools_are_sorted_by_name_whatever_the_registration_order() {
    let asm = Assembler::new();
    asm.add_contributor(Bundle::new().tool(tool("zebra", "")).tool(tool("apple", "")));
    asm.add_contributor(Bundle::new().tool(tool("mango", "")));
    let other = Assembler::new();
    other.add_contributor(Bundle::new().tool(tool("mango", "")));
    other.add_contributor(Bundle::new().tool(tool("apple", "")).tool(tool("zebra", "")));
    let a = asm.assemble(&cx()).unwrap();
    assert_eq!(names(&a), ["apple", "mango", "zebra"]);
    assert_eq!(a, other.assemble(&cx()).unwrap());
}

#[test]
fn a_duplicate_tool_name_keeps_the_first_registered_contributor() {
    let asm = Assembler::new();
    asm.add_contributor(Bundle::new().tool(tool("search", "first")));
    asm.add_contributor(Bundle::new().tool(tool("search", "second")));
    let a = asm.assemble(&cx()).unwrap();
    assert_eq!(a.tools.len(), 1);
    assert_eq!(a.tools[0].description, "first");
}

#[test]
fn removing_a_contributor_removes_its_sections_and_tools() {
    let asm = Assembler::new();
    let core = asm.add_contributor(
        Bundle::new().section(SectionSource::fixed("core", 0, "Core.")).tool(tool("read", "")),
    );
    let plugin = asm.add_contributor(
        Bundle::new()
            .section(SectionSource::fixed("plugin", 5, "Plugin."))
            .tool(tool("plugin__write", ""))
            .tool(tool("plugin__list", "")),
    );
    let before = asm.assemble(&cx()).unwrap();
    assert_eq!(names(&before), ["plugin__list", "plugin__write", "read"]);
    assert_eq!(before.system_text(), "Core.\n\nPlugin.");

    assert!(asm.remove_contributor(plugin));
    assert!(!asm.remove_contributor(plugin), "a second removal finds nothing");
    let after = asm.assemble(&cx()).unwrap();
    assert_eq!(names(&after), ["read"]);
    assert_eq!(after.system_text(), "Core.");
    assert_eq!(asm.contributor_count(), 1);

    assert!(asm.remove_contributor(core));
    assert_eq!(asm.assemble(&cx()).unwrap(), PromptAssembly::new());
}

#[test]
fn a_computed_section_is_evaluated_on_every_assembly() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&calls);
    let asm = Assembler::new();
    asm.add_section(SectionSource::computed("turn", 0, move |_| {
        format!("Turn {}.", counter.fetch_add(1, Ordering::SeqCst) + 1)
    }));
    assert_eq!(asm.assemble(&cx()).unwrap().system_text(), "Turn 1.");
    assert_eq!(asm.assemble(&cx()).unwrap().system_text(), "Turn 2.");
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

struct User(&'static str);

#[test]
fn computed_sections_and_closure_contributors_read_the_context() {
    let asm = Assembler::new();
    asm.add_section(SectionSource::computed("user", 0, |cx| match cx.get::<User>() {
        Some(User(name)) => format!("The user is {name}."),
        None => String::new(),
    }));
    asm.add_contributor(|cx: &AssemblyContext, out: &mut Contribution| {
        if cx.get::<User>().is_some() {
            out.tool(tool("greet", "Greets the user."));
        }
    });
    let anonymous = asm.assemble(&cx()).unwrap();
    assert_eq!(anonymous.system_text(), "");
    assert!(anonymous.tools.is_empty());
    let known = asm.assemble(&AssemblyContext::new().with(User("Ada"))).unwrap();
    assert_eq!(known.system_text(), "The user is Ada.");
    assert_eq!(names(&known), ["greet"]);
}

#[test]
fn rendering_drops_empty_sections_and_joins_with_one_blank_line() {
    let mut a = PromptAssembly::new();
    a.push_section(Section::new("b", 2, "\n\nSecond.\n\n"));
    a.push_section(Section::new("empty", 1, ""));
    a.push_section(Section::new("blank", 3, " \n\t\n"));
    a.push_section(Section::new("a", 0, "First line.\nSecond line.  "));
    a.push_section(Section::new("code", 4, "\n    indented();\n"));
    assert_eq!(
        a.system_text(),
        "First line.\nSecond line.\n\nSecond.\n\n    indented();",
        "sorted by key, empty and blank dropped, surrounding blank lines trimmed"
    );
    assert!(a.sections[1].is_empty());
    assert_eq!(PromptAssembly::new().system_text(), "");
}

#[test]
fn interceptors_run_in_registration_order_and_see_earlier_changes() {
    let asm = Assembler::new();
    asm.add_section(SectionSource::fixed("log", 0, "start"));
    for step in ["one", "two", "three"] {
        asm.add_interceptor(interceptor_fn(step, move |mut a, next| {
            let section = a.section_mut("log").expect("the section an earlier step saw");
            section.text = format!("{} > {step}", section.text).into();
            next.run(a)
        }));
    }
    assert_eq!(asm.assemble(&cx()).unwrap().system_text(), "start > one > two > three");
}

#[test]
fn an_interceptor_can_act_after_the_rest_of_the_chain() {
    let asm = Assembler::new();
    asm.add_interceptor(interceptor_fn("outer", |a, next| {
        let mut a = next.run(a)?;
        let inner = a.section("inner").map(|s| s.text.to_string());
        a.push_section(Section::new("outer", 1, format!("outer saw {inner:?}")));
        Ok(a)
    }));
    asm.add_interceptor(interceptor_fn("inner", |mut a, next| {
        a.push_section(Section::new("inner", 0, "inner ran"));
        next.run(a)
    }));
    let a = asm.assemble(&cx()).unwrap();
    assert_eq!(a.system_text(), "inner ran\n\nouter saw Some(\"inner ran\")");
}

#[test]
fn a_short_circuiting_interceptor_stops_the_chain() {
    let later_ran = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&later_ran);
    let asm = Assembler::new();
    asm.add_contributor(Bundle::new().tool(tool("a", "")));
    asm.add_interceptor(interceptor_fn("stop", |mut a, _next| {
        a.push_section(Section::new("stopped", 0, "stopped here"));
        Ok(a)
    }));
    asm.add_interceptor(interceptor_fn("later", move |a, next| {
        seen.fetch_add(1, Ordering::SeqCst);
        next.run(PromptAssembly::new()).map(|mut empty| {
            empty.sections = a.sections;
            empty
        })
    }));
    let a = asm.assemble(&cx()).unwrap();
    assert_eq!(later_ran.load(Ordering::SeqCst), 0);
    assert_eq!(a.system_text(), "stopped here");
    assert_eq!(names(&a), ["a"]);
}

#[test]
fn an_interceptor_error_names_the_interceptor() {
    let asm = Assembler::new();
    asm.add_interceptor(interceptor_fn("budget", |_a, _next| {
        Err(AssemblyError::interceptor("budget", "too many tools"))
    }));
    let err = asm.assemble(&cx()).unwrap_err();
    assert_eq!(err.to_string(), "interceptor `budget` refused the assembly: too many tools");
}

#[test]
fn removing_an_interceptor_stops_it_from_running() {
    let asm = Assembler::new();
    asm.add_contributor(Bundle::new().tool(tool("a", "")).tool(tool("b", "")));
    let id = asm.add_interceptor(ToolFilter::new().deny("a").unwrap());
    assert_eq!(names(&asm.assemble(&cx()).unwrap()), ["b"]);
    assert!(asm.remove_interceptor(id));
    assert_eq!(names(&asm.assemble(&cx()).unwrap()), ["a", "b"]);
}

#[test]
fn the_result_is_put_back_in_canonical_order_after_the_chain() {
    struct Appender;
    impl Interceptor for Appender {
        fn intercept(
            &self,
            mut a: PromptAssembly,
            next: Next<'_>,
        ) -> Result<PromptAssembly, AssemblyError> {
            a.tools.push(Arc::new(tool("aardvark", "")));
            a.tools.push(Arc::new(tool("zebra", "a second zebra")));
            a.sections.push(Section::new("first", -1, "First."));
            next.run(a)
        }
    }
    let asm = Assembler::new();
    asm.add_section(SectionSource::fixed("body", 0, "Body."));
    asm.add_contributor(Bundle::new().tool(tool("zebra", "original")));
    asm.add_interceptor(Appender);
    let a = asm.assemble(&cx()).unwrap();
    assert_eq!(names(&a), ["aardvark", "zebra"]);
    assert_eq!(a.tool("zebra").unwrap().description, "original");
    assert_eq!(section_names(&a), ["first", "body"]);
}

#[test]
fn patterns_ending_in_a_star_match_by_prefix_others_exactly() {
    let prefix = ToolPattern::parse("mcp__memory__*").unwrap();
    assert!(prefix.matches("mcp__memory__read"));
    assert!(prefix.matches("mcp__memory__"));
    assert!(!prefix.matches("mcp__memoryx"));
    assert!(!prefix.matches("xmcp__memory__read"));
    let exact = ToolPattern::parse("mcp__memory").unwrap();
    assert!(exact.matches("mcp__memory"));
    assert!(!exact.matches("mcp__memory__read"), "no star, no prefix match");
    assert!(ToolPattern::parse("*").unwrap().matches("anything"));
    // Imported MCP names may hold dots, and so may patterns.
    assert!(ToolPattern::parse("github.*").unwrap().matches("github.create_issue"));
    assert_eq!(prefix.to_string(), "mcp__memory__*");
}

#[test]
fn patterns_that_could_never_match_are_errors() {
    assert_eq!(ToolPattern::parse(""), Err(PatternError::Empty));
    assert_eq!(
        ToolPattern::parse("mcp__*__read"),
        Err(PatternError::Wildcard { pattern: "mcp__*__read".into() })
    );
    assert_eq!(
        ToolPattern::parse("mcp/memory/*"),
        Err(PatternError::BadChar { pattern: "mcp/memory/*".into(), ch: '/' })
    );
    assert!(matches!(ToolPattern::parse(&"a".repeat(129)), Err(PatternError::TooLong { .. })));
    assert!(ToolFilter::new().deny("a b").is_err());
}

fn filtered(filter: ToolFilter) -> Vec<String> {
    let asm = Assembler::new();
    asm.add_contributor(Bundle::new().tools([
        tool("mcp__memory__read", ""),
        tool("mcp__memory__write", ""),
        tool("mcp__search__web", ""),
        tool("shell", ""),
        tool("shell_admin", ""),
    ]));
    asm.add_interceptor(filter);
    asm.assemble(&cx()).unwrap().tool_names().map(str::to_owned).collect()
}

#[test]
fn deny_list_removes_prefix_and_exact_matches() {
    assert_eq!(
        filtered(ToolFilter::new().deny_all(["mcp__memory__*", "shell"]).unwrap()),
        ["mcp__search__web", "shell_admin"]
    );
}

#[test]
fn allow_list_keeps_only_matches_and_deny_wins() {
    assert_eq!(
        filtered(ToolFilter::new().allow_all(["mcp__*", "shell"]).unwrap()),
        ["mcp__memory__read", "mcp__memory__write", "mcp__search__web", "shell"]
    );
    assert_eq!(
        filtered(ToolFilter::new().allow("mcp__*").unwrap().deny("mcp__memory__write").unwrap()),
        ["mcp__memory__read", "mcp__search__web"]
    );
    assert_eq!(filtered(ToolFilter::new()).len(), 5, "an empty filter keeps everything");
}

fn disclosure_setup(disclosure: &ProgressiveDisclosure) -> Assembler {
    let asm = Assembler::new();
    asm.add_contributor(Bundle::new().tools([
        tool("get_weather", "Get the current weather for a city."),
        tool("send_email", "Send an email to a recipient."),
        tool("read_file", "Read a file from the workspace."),
        tool("mcp__memory__recall", "Recall a stored memory about the user."),
    ]));
    asm.add_interceptor(disclosure.clone());
    asm
}

fn search(executor: &impl Executor, args: serde_json::Value) -> tooldef::ToolResult {
    let call = ToolCall::new("call_1", "tool_search", args);
    futures_lite_block_on(executor.execute(&call))
}

/// Polls a future that is ready at once (the search executor never waits).
fn futures_lite_block_on<F: std::future::Future>(fut: F) -> F::Output {
    use std::task::{Context, Poll, Waker};
    let mut fut = std::pin::pin!(fut);
    match fut.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("the search executor should complete without waiting"),
    }
}

#[test]
fn progressive_disclosure_shows_only_the_meta_tool_at_first() {
    let disclosure = ProgressiveDisclosure::new();
    let asm = disclosure_setup(&disclosure);
    let a = asm.assemble(&cx()).unwrap();
    assert_eq!(names(&a), ["tool_search"]);
    let meta = a.tool("tool_search").unwrap();
    assert_eq!(meta.params.iter().map(|p| p.name.as_ref()).collect::<Vec<_>>(), ["query", "limit"]);
    meta.validate().unwrap();
}

#[test]
fn progressive_disclosure_reveals_a_searched_tool_in_the_next_assembly() {
    let disclosure = ProgressiveDisclosure::new();
    let asm = disclosure_setup(&disclosure);
    asm.assemble(&cx()).unwrap();
    let executor = disclosure.search_executor();
    assert_eq!(executor.descriptor().name, "tool_search");

    let result = search(&executor, json!({ "query": "weather in a city" }));
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(
        result.structured,
        Some(json!({ "tools": [
            { "name": "get_weather", "description": "Get the current weather for a city." }
        ]}))
    );
    assert_eq!(disclosure.revealed(), [ToolName::new("get_weather")]);

    let a = asm.assemble(&cx()).unwrap();
    assert_eq!(names(&a), ["get_weather", "tool_search"]);
}

#[test]
fn search_ranks_name_matches_first_and_honours_the_limit() {
    let disclosure = ProgressiveDisclosure::new();
    let asm = disclosure_setup(&disclosure);
    asm.assemble(&cx()).unwrap();
    // read_file: "read" and "file" are words of its name (2 + 2); mcp__memory__recall: "user"
    // is a word of its description (1).
    let result =
        search(&disclosure.search_executor(), json!({ "query": "read file user", "limit": 1 }));
    assert_eq!(result.structured.unwrap()["tools"][0]["name"], "read_file");
    assert_eq!(names(&asm.assemble(&cx()).unwrap()), ["read_file", "tool_search"]);

    let by_text = search(&disclosure.search_executor(), json!("{\"query\": \"user memory\"}"));
    assert!(by_text.is_error, "a JSON string value is not an object");
    let call = ToolCall {
        id: "c".into(),
        name: "tool_search".into(),
        arguments: tooldef::Arguments::Text("{\"query\": \"memory\"}".into()),
    };
    let text_result = futures_lite_block_on(disclosure.search_executor().execute(&call));
    assert_eq!(text_result.structured.unwrap()["tools"][0]["name"], "mcp__memory__recall");
}

#[test]
fn the_meta_tool_disappears_once_everything_is_revealed() {
    let disclosure = ProgressiveDisclosure::new();
    let asm = Assembler::new();
    asm.add_contributor(Bundle::new().tool(tool("only", "The only tool.")));
    asm.add_interceptor(disclosure.clone());
    assert_eq!(names(&asm.assemble(&cx()).unwrap()), ["tool_search"]);
    disclosure.reveal(ToolName::new("only"));
    assert_eq!(names(&asm.assemble(&cx()).unwrap()), ["only"]);
    disclosure.reset();
    assert_eq!(names(&asm.assemble(&cx()).unwrap()), ["tool_search"]);
}

#[test]
fn pinned_tools_stay_visible_and_are_not_searched() {
    let disclosure = ProgressiveDisclosure::new().always_show("read_file").unwrap();
    let asm = disclosure_setup(&disclosure);
    assert_eq!(names(&asm.assemble(&cx()).unwrap()), ["read_file", "tool_search"]);
    let result = search(&disclosure.search_executor(), json!({ "query": "read_file" }));
    assert_eq!(result.structured, Some(json!({ "tools": [] })));
}

#[test]
fn a_filter_before_disclosure_keeps_denied_tools_unfindable() {
    let disclosure = ProgressiveDisclosure::new();
    let asm = Assembler::new();
    asm.add_contributor(Bundle::new().tools([
        tool("mcp__memory__recall", "Recall a memory."),
        tool("mcp__memory__store", "Store a memory."),
    ]));
    asm.add_interceptor(ToolFilter::new().deny("mcp__memory__store").unwrap());
    asm.add_interceptor(disclosure.clone());
    asm.assemble(&cx()).unwrap();
    let result = search(&disclosure.search_executor(), json!({ "query": "memory", "limit": 10 }));
    assert_eq!(
        result.structured.unwrap()["tools"],
        json!([{ "name": "mcp__memory__recall", "description": "Recall a memory." }])
    );
}

#[test]
fn bad_search_arguments_are_error_results_the_model_can_fix() {
    let disclosure = ProgressiveDisclosure::new();
    let executor = disclosure.search_executor();
    let cases = [
        (json!({}), "`query` is required: a few words to look for"),
        (json!({ "query": 3 }), "`query` must be a string"),
        (
            json!({ "query": " -- the " }),
            "`query` must contain at least one word that is not a common word like `the`",
        ),
        (json!({ "query": "x", "limit": 0 }), "`limit` must be an integer from 1 to 50; got 0"),
        (
            json!({ "query": "x", "limit": "2" }),
            "`limit` must be an integer from 1 to 50; got \"2\"",
        ),
    ];
    for (args, message) in cases {
        let result = search(&executor, args.clone());
        assert!(result.is_error, "{args}");
        assert_eq!(result.text(), message, "{args}");
    }
}

#[test]
fn the_meta_tool_can_be_renamed() {
    let disclosure = ProgressiveDisclosure::new().with_tool_name(ToolName::new("find_tools"));
    let asm = disclosure_setup(&disclosure);
    assert_eq!(names(&asm.assemble(&cx()).unwrap()), ["find_tools"]);
    assert_eq!(disclosure.search_executor().descriptor().name, "find_tools");
}

#[test]
fn the_assembler_is_send_and_sync_and_assembles_concurrently() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Assembler>();
    assert_send_sync::<PromptAssembly>();
    assert_send_sync::<ProgressiveDisclosure>();

    let asm = Arc::new(Assembler::new());
    asm.add_section(SectionSource::fixed("persona", 0, "Persona."));
    asm.add_contributor(Bundle::new().tools((0..20).map(|i| tool(&format!("tool_{i:02}"), ""))));
    asm.add_interceptor(ToolFilter::new().deny("tool_1*").unwrap());
    let expected = asm.assemble(&cx()).unwrap();
    assert_eq!(expected.tools.len(), 10);

    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let asm = Arc::clone(&asm);
                scope.spawn(move || {
                    let mut out = Vec::new();
                    for i in 0..50 {
                        // Registrations come and go while other threads assemble.
                        let id =
                            asm.add_section(SectionSource::fixed(format!("temp_{t}_{i}"), 100, ""));
                        out.push(asm.assemble(&cx()).unwrap());
                        asm.remove_contributor(id);
                    }
                    out
                })
            })
            .collect();
        for handle in handles {
            for assembly in handle.join().unwrap() {
                assert_eq!(assembly.system_text(), expected.system_text());
                assert_eq!(assembly.tools, expected.tools);
            }
        }
    });
}

mod rendering {
    use super::*;
    use tooldef::render::{
        JsonWriter, LossPolicy, RenderCache, RenderCtx, RenderError, RenderRule, Rendered, Renderer,
    };

    /// `{"name": ...}` per tool; refuses sets of more than `max` tools.
    struct NameOnly {
        max: usize,
    }

    impl Renderer for NameOnly {
        fn name(&self) -> &str {
            "name-only"
        }

        fn cache_key(&self) -> std::borrow::Cow<'_, str> {
            format!("name-only max={}", self.max).into()
        }

        fn render(
            &self,
            tool: &ToolDescriptor,
            policy: LossPolicy,
        ) -> Result<Rendered, RenderError> {
            let ctx = RenderCtx::new(tool, policy);
            let mut out = JsonWriter::new();
            out.begin_object();
            out.key("name");
            out.string(tool.name.as_str());
            out.end_object();
            Ok(ctx.finish(out))
        }

        fn check_set(&self, tools: &[&ToolDescriptor], _: LossPolicy) -> Result<(), RenderError> {
            match tools.get(self.max) {
                Some(t) => Err(RenderError::new(
                    t.name.as_str(),
                    tooldef::JsonPointer::root(),
                    "",
                    RenderRule::SetLimit,
                    format!("at most {} tools", self.max),
                )),
                None => Ok(()),
            }
        }
    }

    fn assembler() -> Assembler {
        let asm = Assembler::new();
        asm.add_contributor(Bundle::new().tools([tool("beta", ""), tool("alpha", "")]));
        asm
    }

    #[test]
    fn tools_render_in_assembly_order() {
        let a = assembler().assemble(&cx()).unwrap();
        let rendered = a.render_tools(&NameOnly { max: 10 }, LossPolicy::Allow).unwrap();
        let json: Vec<&str> = rendered.iter().map(Rendered::json).collect();
        assert_eq!(json, [r#"{"name":"alpha"}"#, r#"{"name":"beta"}"#]);
        let err = a.render_tools(&NameOnly { max: 1 }, LossPolicy::Allow).unwrap_err();
        assert_eq!(err.rule, RenderRule::SetLimit);
        assert_eq!(err.tool, "beta");
    }

    #[test]
    fn cached_rendering_hits_across_assemblies() {
        let asm = assembler();
        let cache = RenderCache::new();
        let renderer = NameOnly { max: 10 };
        let first =
            asm.assemble(&cx()).unwrap().render_tools_cached(&renderer, LossPolicy::Allow, &cache);
        assert_eq!(cache.len(), 2);
        let second =
            asm.assemble(&cx()).unwrap().render_tools_cached(&renderer, LossPolicy::Allow, &cache);
        assert_eq!(cache.len(), 2, "the second assembly shares the bundle's Arcs");
        assert_eq!(first.unwrap(), second.unwrap());
        assert!(
            asm.assemble(&cx())
                .unwrap()
                .render_tools_cached(&NameOnly { max: 1 }, LossPolicy::Allow, &cache)
                .is_err()
        );
    }
}

#[test]
fn a_tool_named_like_the_meta_tool_does_not_duplicate_it() {
    let disclosure = ProgressiveDisclosure::new();
    let asm = Assembler::new();
    asm.add_contributor(
        Bundle::new().tool(tool("tool_search", "A user tool.")).tool(tool("x", "")),
    );
    asm.add_interceptor(disclosure.clone());
    let a = asm.assemble(&cx()).unwrap();
    assert_eq!(names(&a), ["tool_search"]);
    assert_eq!(a.tools[0], *disclosure.meta_tool());
}

#[test]
fn the_registry_contributes_its_current_tools_as_patched() {
    use tooldef::dispatch::DynamicTool;
    use tooldef::{Origin, Override, Overrides, ToolRegistry};

    let registry = Arc::new(ToolRegistry::new());
    let search: Arc<dyn Executor> =
        Arc::new(DynamicTool::new_sync(tool("search", "Search the web."), Ok));
    registry.register(search, Origin::Core).unwrap();
    let asm = Assembler::new();
    asm.add_contributor(Bundle::new().tool(tool("local_note", "A note.")));
    asm.add_contributor(Arc::clone(&registry));
    asm.add_interceptor(ToolFilter::new().deny("mcp__*").unwrap());

    let first = asm.assemble(&cx()).unwrap();
    assert_eq!(names(&first), ["local_note", "search"]);
    // No write in between: the very same descriptor, so renderings cached by address hit.
    let second = asm.assemble(&cx()).unwrap();
    assert!(Arc::ptr_eq(first.tool("search").unwrap(), second.tool("search").unwrap()));

    // Writes show in the next assembly: an override, a new tool (filtered), a removal.
    registry.apply_overrides(
        Overrides::new()
            .for_name("search", Override::set_namespace("web").then(Override::title("Web"))),
    );
    let memory: Arc<dyn Executor> =
        Arc::new(DynamicTool::new_sync(tool("mcp__memory__recall", "Recall."), Ok));
    registry.register(memory, Origin::Mcp).unwrap();
    let third = asm.assemble(&cx()).unwrap();
    assert_eq!(names(&third), ["local_note", "web__search"]);
    assert_eq!(third.tool("web__search").unwrap().title.as_deref(), Some("Web"));
    assert!(registry.unregister("search", Origin::Core));
    assert_eq!(names(&asm.assemble(&cx()).unwrap()), ["local_note"]);

    // A snapshot contributes what it holds, whatever the registry does later.
    let held = registry.snapshot();
    let frozen = Assembler::new();
    frozen.add_contributor(Arc::clone(&held));
    registry
        .register(Arc::new(DynamicTool::new_sync(tool("later", "Later."), Ok)), Origin::Core)
        .unwrap();
    assert_eq!(names(&frozen.assemble(&cx()).unwrap()), ["mcp__memory__recall"]);
}
