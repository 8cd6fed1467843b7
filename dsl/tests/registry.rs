//! `ToolRegistry`: last-write-wins registration, origins, workspace shadowing with stash and
//! restore, stripping, whole-batch validation, overrides that stay applied (renames and hidden
//! parameters honoured by dispatch), sorted listing, and consistent snapshots under concurrent
//! writes.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use serde_json::{Value, json};
use tooldef::{
    Arguments, Batch, BoxFuture, Constraint, Executor, Literal, Origin, Override, OverrideError,
    OverrideErrorKind, Overrides, Param, Registered, RegistryError, Schema, ToolCall,
    ToolDescriptor, ToolRegistry, ToolResult,
};

fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

/// Answers with a fixed tag (which registration ran), the call name and the arguments.
struct Tagged {
    descriptor: ToolDescriptor,
    tag: &'static str,
}

impl Executor for Tagged {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.descriptor
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let args = match &call.arguments {
                Arguments::Json(v) => v.clone(),
                Arguments::Text(t) => Value::String(t.clone()),
            };
            ToolResult::success(call, json!({"tag": self.tag, "name": call.name, "args": args}))
        })
    }
}

fn tool(name: &str, tag: &'static str) -> Arc<dyn Executor> {
    let descriptor = ToolDescriptor::builder(name.to_owned()).description(tag).build().unwrap();
    Arc::new(Tagged { descriptor, tag })
}

fn remember(tag: &'static str) -> Arc<dyn Executor> {
    let descriptor = ToolDescriptor::builder("remember")
        .description("Store a fact.")
        .param(Param::string("fact"))
        .param(Param::named(
            "category",
            Schema::enumeration_of([
                "memory:health",
                "memory:identity",
                "memory:preferences",
                "memory:other",
            ]),
        ))
        .param(Param::string("user_id"))
        .build()
        .unwrap();
    Arc::new(Tagged { descriptor, tag })
}

fn names(r: &ToolRegistry) -> Vec<String> {
    r.snapshot().entries().iter().map(|e| e.name().to_string()).collect()
}

fn active_tag(r: &ToolRegistry, name: &str) -> Option<String> {
    r.get(name).map(|e| e.descriptor().description.to_string())
}

fn call(r: &ToolRegistry, name: &str, args: Value) -> ToolResult {
    block_on(r.snapshot().call(&ToolCall::new("c1", name, args)))
}

#[test]
fn listing_is_sorted_by_name_whatever_the_registration_order() {
    let r = ToolRegistry::new();
    for n in ["zeta", "alpha", "mid", "Beta"] {
        r.register(tool(n, "core"), Origin::Core).unwrap();
    }
    assert_eq!(names(&r), ["Beta", "alpha", "mid", "zeta"]);
    let snapshot = r.snapshot();
    let listed: Vec<_> = snapshot.descriptors().map(|d| d.name.to_string()).collect();
    assert_eq!(listed, names(&r));
    let entry = r.get("mid").unwrap();
    assert_eq!(entry.origin(), Origin::Core);
    assert_eq!(entry.descriptor().name, "mid");
    assert_eq!(entry.executor().descriptor().name, "mid");
    assert!(r.get("missing").is_none());
}

#[test]
fn register_is_last_write_wins() {
    let r = ToolRegistry::new();
    assert_eq!(r.register(tool("a", "first"), Origin::Core), Ok(Registered::Active));
    assert_eq!(r.register(tool("a", "second"), Origin::Core), Ok(Registered::Active));
    assert_eq!(active_tag(&r, "a").as_deref(), Some("second"));
    assert_eq!(r.snapshot().len(), 1);
    assert_eq!(call(&r, "a", json!({})).structured.unwrap()["tag"], "second");
}

#[test]
fn invalid_descriptor_is_rejected_and_changes_nothing() {
    let r = ToolRegistry::new();
    let mut bad = ToolDescriptor::builder("bad").param(Param::integer("n")).build().unwrap();
    bad.param_mut("n").unwrap().schema.default = Some(Literal::str("x"));
    let version = r.snapshot().version();
    let err = r.register(Arc::new(Tagged { descriptor: bad, tag: "t" }), Origin::Core).unwrap_err();
    assert!(matches!(err, RegistryError::Invalid(ref e) if e.tool == "bad"), "{err:?}");
    assert!(r.snapshot().is_empty());
    assert_eq!(r.snapshot().version(), version);
}

#[test]
fn workspace_shadows_core_and_core_comes_back() {
    let r = ToolRegistry::new();
    r.register(tool("search", "core"), Origin::Core).unwrap();
    assert_eq!(r.register(tool("search", "workspace"), Origin::Workspace), Ok(Registered::Active));
    assert_eq!(active_tag(&r, "search").as_deref(), Some("workspace"));
    assert_eq!(r.get("search").unwrap().origin(), Origin::Workspace);
    assert_eq!(r.origins("search"), [Origin::Workspace, Origin::Core]);

    // A core upgrade while shadowed is kept, not lost.
    assert_eq!(r.register(tool("search", "core v2"), Origin::Core), Ok(Registered::Stashed));
    assert_eq!(active_tag(&r, "search").as_deref(), Some("workspace"));

    assert!(r.unregister("search", Origin::Workspace));
    assert_eq!(active_tag(&r, "search").as_deref(), Some("core v2"));
    assert_eq!(r.get("search").unwrap().origin(), Origin::Core);
    assert!(!r.unregister("search", Origin::Workspace), "nothing left to remove");
}

#[test]
fn extensions_stack_over_core_and_reveal_it_when_removed() {
    let r = ToolRegistry::new();
    r.register(tool("fetch", "core"), Origin::Core).unwrap();
    r.register(tool("fetch", "mcp"), Origin::Mcp).unwrap();
    assert_eq!(active_tag(&r, "fetch").as_deref(), Some("mcp"));
    assert!(r.unregister("fetch", Origin::Mcp));
    assert_eq!(active_tag(&r, "fetch").as_deref(), Some("core"));
    assert!(r.unregister("fetch", Origin::Core));
    assert!(r.get("fetch").is_none());
}

#[test]
fn stripping_hides_core_and_unstripping_restores_it() {
    let r = ToolRegistry::new();
    r.register(tool("shell", "core"), Origin::Core).unwrap();
    assert!(r.strip("shell"));
    assert!(!r.strip("shell"), "already stripped");
    assert!(r.is_stripped("shell"));
    assert!(r.get("shell").is_none());
    assert_eq!(r.register(tool("shell", "core v2"), Origin::Core), Ok(Registered::Stashed));
    assert!(r.unstrip("shell"));
    assert_eq!(active_tag(&r, "shell").as_deref(), Some("core v2"));

    // A name can be stripped before any tool has it: nothing listed changes then, but the rule
    // stands, so a core tool registered later is hidden (kept, stashed) until the unstrip.
    let listed = names(&r);
    assert!(r.strip("later"));
    assert_eq!(names(&r), listed);
    assert_eq!(r.register(tool("later", "core"), Origin::Core), Ok(Registered::Stashed));
    assert!(r.get("later").is_none());
    assert_eq!(r.origins("later"), [Origin::Core]);
    assert!(r.unstrip("later"));
    assert_eq!(active_tag(&r, "later").as_deref(), Some("core"));
}

#[test]
fn extensions_onto_workspace_owned_or_stripped_names_are_skipped() {
    let r = ToolRegistry::new();
    r.register(tool("notes", "workspace"), Origin::Workspace).unwrap();
    r.strip("shell");
    let before = r.snapshot().version();
    for origin in [Origin::Plugin, Origin::Skill, Origin::Mcp] {
        assert_eq!(r.register(tool("notes", "ext"), origin), Ok(Registered::Skipped));
        assert_eq!(r.register(tool("shell", "ext"), origin), Ok(Registered::Skipped));
    }
    assert_eq!(r.snapshot().version(), before, "skips publish nothing");
    assert_eq!(active_tag(&r, "notes").as_deref(), Some("workspace"));
    assert!(r.get("shell").is_none());
    // Once the workspace entry goes, nothing of the skipped plugin comes back.
    r.unregister("notes", Origin::Workspace);
    assert!(r.get("notes").is_none());
}

#[test]
fn workspace_entry_wins_over_a_strip() {
    let r = ToolRegistry::new();
    r.register(tool("x", "core"), Origin::Core).unwrap();
    r.strip("x");
    r.register(tool("x", "workspace"), Origin::Workspace).unwrap();
    assert_eq!(active_tag(&r, "x").as_deref(), Some("workspace"));
    r.unregister("x", Origin::Workspace);
    assert!(r.get("x").is_none(), "still stripped");
}

#[test]
fn batch_with_a_duplicate_is_rejected_whole() {
    let r = ToolRegistry::new();
    r.register(tool("keep", "core"), Origin::Core).unwrap();
    let before: Vec<_> = names(&r);
    let version = r.snapshot().version();
    let err = r
        .apply(
            Batch::new()
                .register(tool("a", "1"), Origin::Plugin)
                .unregister("keep", Origin::Core)
                .register(tool("a", "2"), Origin::Plugin),
        )
        .unwrap_err();
    assert_eq!(err, RegistryError::DuplicateInBatch { name: "a".into() });
    assert_eq!(names(&r), before);
    assert_eq!(r.snapshot().version(), version);
}

#[test]
fn batch_with_a_conflicting_owner_is_rejected_whole() {
    let r = ToolRegistry::new();
    r.register(tool("fetch", "mcp"), Origin::Mcp).unwrap();
    let err = r
        .apply(
            Batch::new()
                .register(tool("other", "plugin"), Origin::Plugin)
                .register(tool("fetch", "plugin"), Origin::Plugin),
        )
        .unwrap_err();
    assert_eq!(
        err,
        RegistryError::ConflictingOwner {
            name: "fetch".into(),
            origin: Origin::Plugin,
            owner: Origin::Mcp
        }
    );
    assert_eq!(names(&r), ["fetch"]);
    assert_eq!(active_tag(&r, "fetch").as_deref(), Some("mcp"));
    // The same origin may replace its own tools, and a single register is last-write-wins.
    r.apply(Batch::new().register(tool("fetch", "mcp v2"), Origin::Mcp)).unwrap();
    assert_eq!(active_tag(&r, "fetch").as_deref(), Some("mcp v2"));
    assert_eq!(r.register(tool("fetch", "plugin"), Origin::Plugin), Ok(Registered::Active));
}

#[test]
fn batch_applies_in_order_and_publishes_once() {
    let r = ToolRegistry::new();
    r.register(tool("search", "core"), Origin::Core).unwrap();
    r.register(tool("shell", "core"), Origin::Core).unwrap();
    r.register(tool("notes", "workspace"), Origin::Workspace).unwrap();
    let version = r.snapshot().version();
    let outcomes = r
        .apply(
            Batch::new()
                .register(tool("search", "workspace"), Origin::Workspace)
                .strip("shell")
                .unregister("notes", Origin::Workspace)
                .register(tool("notes", "plugin"), Origin::Plugin)
                .register(tool("shell", "skill"), Origin::Skill),
        )
        .unwrap();
    let outcomes: Vec<_> = outcomes.iter().map(|(n, o)| (n.to_string(), *o)).collect();
    assert_eq!(
        outcomes,
        [
            ("search".to_owned(), Registered::Active),
            ("notes".to_owned(), Registered::Active),
            ("shell".to_owned(), Registered::Skipped),
        ]
    );
    assert_eq!(r.snapshot().version(), version + 1);
    assert_eq!(names(&r), ["notes", "search"]);
    assert_eq!(active_tag(&r, "notes").as_deref(), Some("plugin"));
}

#[test]
fn override_of_absent_tool_is_skipped_then_present_one_applied() {
    let r = ToolRegistry::new();
    r.register(tool("present", "core"), Origin::Core).unwrap();
    let report = r.apply_overrides(
        Overrides::new()
            .for_name("absent", Override::description("a"))
            .for_name("present", Override::description("p")),
    );
    assert_eq!(report.skipped, ["absent"]);
    assert_eq!(report.applied, ["present"]);
    assert!(report.failed.is_empty());
    assert_eq!(active_tag(&r, "present").as_deref(), Some("p"));
    // The skipped override waits for its tool.
    r.register(tool("absent", "plugin"), Origin::Plugin).unwrap();
    assert_eq!(active_tag(&r, "absent").as_deref(), Some("a"));
}

#[test]
fn overrides_stay_applied_across_reregistration_and_compose_in_order() {
    let r = ToolRegistry::new();
    r.register(tool("t", "base"), Origin::Core).unwrap();
    r.apply_overrides(Overrides::new().for_name("t", Override::description("x")));
    r.apply_overrides(
        Overrides::new()
            .for_name("t", Override::append_description("y"))
            .for_name("t", Override::append_description("z")),
    );
    assert_eq!(active_tag(&r, "t").as_deref(), Some("xyz"));
    r.register(tool("t", "upgraded"), Origin::Core).unwrap();
    assert_eq!(active_tag(&r, "t").as_deref(), Some("xyz"));
    assert!(r.get("t").unwrap().is_overridden());
    // The executor stays the registered one.
    assert_eq!(call(&r, "t", json!({})).structured.unwrap()["tag"], "upgraded");
    r.clear_overrides();
    assert_eq!(active_tag(&r, "t").as_deref(), Some("upgraded"));
    assert!(!r.get("t").unwrap().is_overridden());
}

#[test]
fn failing_override_is_reported_and_keeps_earlier_ones() {
    let r = ToolRegistry::new();
    r.register(remember("core"), Origin::Core).unwrap();
    r.apply_overrides(Overrides::new().for_name("remember", Override::title("Memory")));
    let report = r.apply_overrides(Overrides::new().for_name(
        "remember",
        Override::constrain("category", Constraint::one_of(["memory:work"])),
    ));
    assert!(report.applied.is_empty());
    assert_eq!(report.failed.len(), 1);
    assert!(matches!(report.failed[0].kind(), OverrideErrorKind::WidensEnum { .. }));
    let d = r.get("remember").unwrap();
    assert_eq!(d.descriptor().title.as_deref(), Some("Memory"));
}

#[test]
fn overriding_one_tool_leaves_a_sibling_byte_identical() {
    let r = ToolRegistry::new();
    r.register(remember("core"), Origin::Core).unwrap();
    r.register(tool("recall", "core"), Origin::Core).unwrap();
    let before = serde_json::to_string(r.get("recall").unwrap().descriptor()).unwrap();
    let report = r.apply_overrides(
        Overrides::new().for_name(
            "remember",
            Override::description("changed")
                .then(Override::hide("user_id", "u"))
                .then(Override::set_namespace("mem")),
        ),
    );
    assert_eq!(report.applied, ["remember"]);
    let after = serde_json::to_string(r.get("recall").unwrap().descriptor()).unwrap();
    assert_eq!(before, after);
    assert!(!r.get("recall").unwrap().is_overridden());
}

#[test]
fn rename_moves_the_tool_and_routes_to_the_registered_executor() {
    let r = ToolRegistry::new();
    r.register(remember("core"), Origin::Core).unwrap();
    r.apply_overrides(Overrides::new().for_name(
        "remember",
        Override::rename("store_fact").then(Override::hide("user_id", "u-7")),
    ));
    assert_eq!(names(&r), ["store_fact"]);
    assert!(r.get("remember").is_none(), "the original name is no longer a tool");
    let entry = r.get("store_fact").unwrap();
    assert_eq!(entry.registered_name(), "remember");

    let res = call(&r, "store_fact", json!({"fact": "f", "category": "memory:health"}));
    assert!(!res.is_error, "{}", res.text());
    assert_eq!(res.name, "store_fact");
    assert_eq!(
        res.structured.unwrap(),
        json!({"tag": "core", "name": "remember", "args": {"fact": "f", "category": "memory:health", "user_id": "u-7"}})
    );
    let res = call(&r, "remember", json!({}));
    assert!(res.is_error);
    // The same message as the Toolbox gives.
    assert_eq!(
        res.text(),
        r#"there is no tool named "remember"; the available tools are store_fact"#
    );

    // Removal addresses the registered name.
    assert!(r.unregister("remember", Origin::Core));
    assert!(r.snapshot().is_empty());
}

#[test]
fn namespace_only_override_is_a_rename() {
    let r = ToolRegistry::new();
    r.register(tool("search", "core"), Origin::Core).unwrap();
    r.apply_overrides(Overrides::new().for_name("search", Override::set_namespace("web")));
    assert_eq!(names(&r), ["web__search"]);
    let res = call(&r, "web__search", json!({}));
    assert_eq!(res.structured.unwrap()["name"], "search");
}

/// `rate(stars)`, a tool that checks its own arguments.
fn rate() -> Arc<dyn Executor> {
    let d = ToolDescriptor::builder("rate").param(Param::integer("stars")).build().unwrap();
    Arc::new(tooldef::DynamicTool::new_sync(d, Ok))
}

#[test]
fn an_overridden_tool_answers_a_call_and_a_check_with_one_text() {
    // Each override changes what the call must hold (a parameter's range, a hidden one) or
    // only the name (the arguments reach the registered tool as they came).
    let cases = [
        (
            Override::constrain("stars", Constraint::range(1, 3)),
            "rate",
            json!({"stars": 4}),
            "invalid arguments for rate: /stars must be at most 3; got 4",
        ),
        (
            Override::constrain("stars", Constraint::range(1, 3)),
            "rate",
            json!("4 stars"),
            r#"invalid arguments for rate: the arguments must be an object; got "4 stars""#,
        ),
        (
            Override::constrain("stars", Constraint::range(1, 3)),
            "rate",
            json!({"stars": 2, "stars_": 1}),
            "invalid arguments for rate: /stars_ is not a parameter of rate; the parameters are stars",
        ),
        (
            Override::rename_param("stars", "score"),
            "rate",
            json!({"stars": 2}),
            "invalid arguments for rate: /stars is not a parameter of rate; the parameters are score",
        ),
        (
            Override::rename("rank"),
            "rank",
            json!({"stars": "four"}),
            r#"invalid arguments for rank: /stars must be an integer; got "four""#,
        ),
        (
            Override::rename("rank"),
            "rank",
            json!({}),
            "invalid arguments for rank: /stars is required",
        ),
    ];
    for (patch, name, arguments, want) in cases {
        let r = ToolRegistry::new();
        r.register(rate(), Origin::Core).unwrap();
        r.apply_overrides(Overrides::new().for_name("rate", patch));
        let call = ToolCall::new("c1", name, arguments);
        let snapshot = r.snapshot();
        let result = snapshot.call_blocking(&call);
        assert!(result.is_error, "{}", result.text());
        assert_eq!(result.text(), want);
        assert_eq!(snapshot.check(&call).unwrap_err().model_text(), want);
    }
}

#[test]
fn rename_onto_a_taken_name_fails_for_that_tool() {
    let r = ToolRegistry::new();
    r.register(tool("a", "a"), Origin::Core).unwrap();
    r.register(tool("b", "b"), Origin::Core).unwrap();
    let report = r.apply_overrides(
        Overrides::new().for_name("a", Override::rename("b")).for_name("b", Override::title("B")),
    );
    assert_eq!(report.applied, ["b"]);
    assert_eq!(
        report.failed,
        [OverrideError::new("a", OverrideErrorKind::NameTaken { name: "b".into() })]
    );
    assert_eq!(names(&r), ["a", "b"]);
    assert_eq!(active_tag(&r, "a").as_deref(), Some("a"));
}

#[test]
fn hidden_parameter_sent_by_the_model_is_an_error_result() {
    let r = ToolRegistry::new();
    r.register(remember("core"), Origin::Core).unwrap();
    r.apply_overrides(Overrides::new().for_name("remember", Override::hide("user_id", "u")));
    let res =
        call(&r, "remember", json!({"fact": "f", "category": "memory:health", "user_id": "x"}));
    assert!(res.is_error);
    assert_eq!(
        res.text(),
        "invalid arguments for remember: /user_id is not a parameter of remember; the parameters are fact, category"
    );
}

#[test]
fn remember_category_constrained_through_the_registry() {
    let r = ToolRegistry::new();
    r.register(remember("core"), Origin::Core).unwrap();
    let allowed = ["memory:health", "memory:identity", "memory:preferences"];
    r.apply_overrides(
        Overrides::new()
            .for_name("remember", Override::constrain("category", Constraint::one_of(allowed))),
    );
    let entry = r.get("remember").unwrap();
    let category = entry.descriptor().param("category").unwrap();
    assert_eq!(category.schema, Schema::enumeration_of(allowed));
    let res =
        call(&r, "remember", json!({"fact": "f", "category": "memory:other", "user_id": "u"}));
    assert!(res.is_error);
    assert_eq!(
        res.text(),
        r#"invalid arguments for remember: /category must be one of "memory:health", "memory:identity", "memory:preferences"; got "memory:other""#
    );
}

#[test]
fn readers_see_consistent_snapshots_while_writers_work() {
    const GENERATIONS: usize = 300;
    const TOOLS: [&str; 4] = ["a", "b", "c", "d"];
    let r = Arc::new(ToolRegistry::new());
    let tags: Vec<&'static str> =
        (0..GENERATIONS).map(|g| &*Box::leak(format!("gen{g}").into_boxed_str())).collect();
    let writer = {
        let r = Arc::clone(&r);
        let tags = tags.clone();
        std::thread::spawn(move || {
            for tag in tags {
                let batch =
                    TOOLS.iter().fold(Batch::new(), |b, n| b.register(tool(n, tag), Origin::Core));
                r.apply(batch).unwrap();
            }
        })
    };
    let readers: Vec<_> = (0..3)
        .map(|_| {
            let r = Arc::clone(&r);
            std::thread::spawn(move || {
                let mut last_version = 0;
                let mut seen = 0;
                loop {
                    let s = r.snapshot();
                    assert!(s.version() >= last_version, "versions never go back");
                    last_version = s.version();
                    if !s.is_empty() {
                        assert_eq!(s.len(), TOOLS.len(), "a batch is seen whole or not at all");
                        let first = &s.entries()[0].descriptor().description;
                        assert!(
                            s.descriptors().all(|d| &d.description == first),
                            "one generation per snapshot"
                        );
                        seen += 1;
                        if first == "gen299" {
                            return seen;
                        }
                    }
                    std::thread::yield_now();
                }
            })
        })
        .collect();
    writer.join().unwrap();
    for reader in readers {
        assert!(reader.join().unwrap() >= 1);
    }
    assert_eq!(r.snapshot().version(), GENERATIONS as u64);
}

#[test]
fn a_held_snapshot_does_not_change() {
    let r = ToolRegistry::new();
    r.register(tool("a", "one"), Origin::Core).unwrap();
    let held = r.snapshot();
    r.register(tool("a", "two"), Origin::Core).unwrap();
    r.register(tool("b", "two"), Origin::Core).unwrap();
    assert_eq!(held.len(), 1);
    assert_eq!(held.get("a").unwrap().descriptor().description, "one");
    assert_eq!(r.snapshot().len(), 2);
}

/// A capability's tool, built in `const`, with an open nested object.
static SAVE_NOTE: ToolDescriptor =
    ToolDescriptor::new("save_note").description("Save a note.").params(
        const {
            &[
                Param::string("text").description("The note."),
                Param::enumeration("folder", &["inbox", "work", "home", "archive"]),
                Param::integer("priority").range(1, 5),
                Param::string("owner"),
                Param::open_object("metadata", const { &[Param::string("source").optional()] })
                    .description("Anything else worth keeping.")
                    .optional(),
            ]
        },
    );

#[test]
fn a_patched_tool_is_assembled_rendered_and_dispatched_as_the_model_was_shown() {
    use std::sync::Mutex;
    use tooldef::assembly::{Assembler, AssemblyContext, SectionSource};
    use tooldef::dispatch::DynamicTool;
    use tooldef::{LossPolicy, OverrideCall, RenderCache};
    use tooldef_openai::{OpenAiRenderer, chat_tool_calls};

    // The capability registers its tool; its executor checks strictly and echoes.
    let registry = Arc::new(ToolRegistry::new());
    let capability: Arc<dyn Executor> = Arc::new(DynamicTool::new_sync(SAVE_NOTE.clone(), Ok));
    registry.register(Arc::clone(&capability), Origin::Plugin).unwrap();

    // The application patches it.
    let extras = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&extras);
    let report = registry.apply_overrides(
        Overrides::new().for_name(
            "save_note",
            Override::set_namespace("notes")
                .then(Override::rename_param("text", "body"))
                .then(Override::constrain("folder", Constraint::one_of(["inbox", "work"])))
                .then(Override::constrain("priority", Constraint::range(1, 3)))
                .then(Override::constrain("priority", Constraint::default(3i64)))
                .then(Override::hide("owner", "u-7"))
                .then(Override::add_param(
                    Param::string("tag").with_description("A label.").optional(),
                ))
                .then(Override::on_call(move |c: &OverrideCall<'_>| {
                    seen.lock().unwrap().push(Value::Object(c.extra().clone()));
                    Ok(())
                })),
        ),
    );
    assert!(report.is_ok() && report.applied == ["save_note"], "{report:?}");

    // One prompt assembly: a section and the registry's tools.
    let assembler = Assembler::new();
    assembler.add_section(SectionSource::fixed("persona", 0, "You keep notes."));
    assembler.add_contributor(Arc::clone(&registry));
    let assembly = assembler.assemble(&AssemblyContext::new()).unwrap();
    assert_eq!(assembly.tool_names().collect::<Vec<_>>(), ["notes__save_note"]);

    // Rendered for one provider: the model is shown the patched tool.
    let cache = RenderCache::new();
    let (tools, _) =
        assembly.tool_values(&OpenAiRenderer::chat(), LossPolicy::Allow, Some(&cache)).unwrap();
    let function = &tools[0]["function"];
    assert_eq!(function["name"], "notes__save_note");
    let parameters = &function["parameters"];
    let properties = parameters["properties"].as_object().unwrap();
    // A `Value` keeps key order only under serde_json's `preserve_order`: read the order from
    // the assembled tool, which the renderer writes in.
    let order: Vec<&str> = assembly.tools[0].params.iter().map(|p| p.name.as_ref()).collect();
    assert_eq!(order, ["body", "folder", "priority", "metadata", "tag"]);
    let mut keys: Vec<&str> = properties.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["body", "folder", "metadata", "priority", "tag"]);
    assert_eq!(parameters["required"], json!(["body", "folder"]));
    assert_eq!(properties["folder"]["enum"], json!(["inbox", "work"]));
    assert_eq!(
        (&properties["priority"]["minimum"], &properties["priority"]["maximum"]),
        (&json!(1), &json!(3))
    );
    assert_eq!(properties["metadata"]["additionalProperties"], json!(true));

    // The model calls it as it was shown, leaving out the defaulted `priority`.
    let message = json!({"role": "assistant", "tool_calls": [{
        "id": "call_1", "type": "function",
        "function": {
            "name": "notes__save_note",
            "arguments": r#"{"body": "buy milk", "folder": "work", "tag": "errand", "metadata": {"source": "chat", "mood": "fine"}}"#
        }
    }]});
    let calls = chat_tool_calls(&message).unwrap();
    let snapshot = registry.snapshot();
    let result = snapshot.call_blocking(&calls[0]);
    assert!(!result.is_error, "{}", result.text());
    assert_eq!((result.name.as_str(), result.call_id.as_str()), ("notes__save_note", "call_1"));
    // The capability's executor got its own names: renamed back, default filled, hidden value
    // injected, the open object handed on whole, the added `tag` kept back ...
    assert_eq!(
        result.structured.unwrap(),
        json!({
            "text": "buy milk", "folder": "work", "priority": 3, "owner": "u-7",
            "metadata": {"source": "chat", "mood": "fine"}
        })
    );
    // ... and handed to the hook instead.
    assert_eq!(*extras.lock().unwrap(), [json!({"tag": "errand"})]);

    // What the model was not shown is refused, each at its pointer.
    let refused = |arguments: Value| {
        let call = ToolCall::new("call_2", "notes__save_note", arguments);
        snapshot.call_blocking(&call).text()
    };
    assert_eq!(
        refused(json!({"body": "b", "folder": "home"})),
        r#"invalid arguments for notes__save_note: /folder must be one of "inbox", "work"; got "home""#
    );
    assert_eq!(
        refused(json!({"body": "b", "folder": "work", "priority": 4})),
        "invalid arguments for notes__save_note: /priority must be at most 3; got 4"
    );
    assert_eq!(
        refused(json!({"text": "b", "folder": "work"})),
        "invalid arguments for notes__save_note: /text is not a parameter of notes__save_note; the parameters are body, folder, priority, metadata, tag"
    );
    assert_eq!(
        refused(json!({"body": "b", "folder": "work", "owner": "me"})),
        "invalid arguments for notes__save_note: /owner is not a parameter of notes__save_note; the parameters are body, folder, priority, metadata, tag"
    );
    assert_eq!(
        refused(json!({"folder": "work"})),
        "invalid arguments for notes__save_note: /body is required"
    );
    assert_eq!(
        snapshot.call_blocking(&ToolCall::new("call_3", "save_note", json!({}))).text(),
        r#"there is no tool named "save_note" (did you mean "notes__save_note"?); the available tools are notes__save_note"#
    );

    // The capability's executor is untouched.
    assert_eq!(*capability.descriptor(), SAVE_NOTE);
    let direct = block_on(capability.execute(&ToolCall::new(
        "c",
        "save_note",
        json!({"text": "t", "folder": "work"}),
    )));
    assert_eq!(
        direct.text(),
        "invalid arguments for save_note:\n- /priority is required\n- /owner is required"
    );

    // The next assembly hands out the same descriptor, so its rendering is reused.
    let again = assembler.assemble(&AssemblyContext::new()).unwrap();
    assert!(Arc::ptr_eq(&assembly.tools[0], &again.tools[0]));
}
