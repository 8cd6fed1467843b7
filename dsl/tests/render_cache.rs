//! `RenderCache`: each tool and each whole set is rendered once per renderer key and policy,
//! set limits are checked before a set is cached, and errors are never cached.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tooldef::render::json_array;
use tooldef::{
    Change, ChangeKind, JsonWriter, LossPolicy, Param, RenderCache, RenderCtx, RenderError,
    RenderRule, Rendered, Renderer, ToolDescriptor,
};

/// Writes `{"name":…,"n":<params>}` (reporting an omission for tools without parameters),
/// counts its calls, and refuses sets longer than `max`.
struct Counting {
    key: &'static str,
    max: usize,
    renders: AtomicUsize,
    set_checks: AtomicUsize,
}

impl Counting {
    fn new(key: &'static str, max: usize) -> Self {
        Counting { key, max, renders: AtomicUsize::new(0), set_checks: AtomicUsize::new(0) }
    }

    fn renders(&self) -> usize {
        self.renders.load(Ordering::Relaxed)
    }

    fn set_checks(&self) -> usize {
        self.set_checks.load(Ordering::Relaxed)
    }
}

impl Renderer for Counting {
    fn name(&self) -> &str {
        self.key
    }

    fn render(&self, tool: &ToolDescriptor, policy: LossPolicy) -> Result<Rendered, RenderError> {
        self.renders.fetch_add(1, Ordering::Relaxed);
        let mut ctx = RenderCtx::new(tool, policy);
        if tool.params.is_empty() {
            ctx.record(
                Change::lossless(ChangeKind::Omitted, "parameters").detail("no parameters"),
            )?;
        }
        if tool.name == "broken" {
            return Err(ctx.error(
                tooldef::JsonPointer::root(),
                "",
                RenderRule::Unsupported,
                "cannot be rendered",
            ));
        }
        let mut out = JsonWriter::new();
        out.begin_object();
        out.key("name");
        out.string(tool.name.as_str());
        out.key("n");
        out.uint(tool.params.len() as u64);
        out.end_object();
        Ok(ctx.finish(out))
    }

    fn check_set(&self, tools: &[&ToolDescriptor], _: LossPolicy) -> Result<(), RenderError> {
        self.set_checks.fetch_add(1, Ordering::Relaxed);
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

static SEARCH: ToolDescriptor = ToolDescriptor::new("search")
    .description("Search.")
    .params(const { &[Param::string("query")] });
static PING: ToolDescriptor = ToolDescriptor::new("ping").description("Ping.");
static BROKEN: ToolDescriptor = ToolDescriptor::new("broken").description("Never renders.");

#[test]
fn a_static_set_is_rendered_and_checked_once() {
    let cache = RenderCache::new();
    let r = Counting::new("counting", 10);
    let first = cache.get_static_set(&r, &[&SEARCH, &PING], LossPolicy::Allow).unwrap();
    assert_eq!(first.json(), r#"[{"name":"search","n":1},{"name":"ping","n":0}]"#);
    assert_eq!(first.json(), json_array(first.tools()));
    assert_eq!((r.renders(), r.set_checks()), (2, 1));

    for _ in 0..3 {
        let again = cache.get_static_set(&r, &[&SEARCH, &PING], LossPolicy::Allow).unwrap();
        assert_eq!(again, first);
    }
    assert_eq!((r.renders(), r.set_checks()), (2, 1), "hits render and check nothing");
    assert_eq!(cache.set_count(), 1);

    // Another order is another set; its tools come from the per-tool cache.
    let swapped = cache.get_static_set(&r, &[&PING, &SEARCH], LossPolicy::Allow).unwrap();
    assert_eq!(swapped.json(), r#"[{"name":"ping","n":0},{"name":"search","n":1}]"#);
    assert_eq!((r.renders(), r.set_checks()), (2, 2));
    // Another policy is another key.
    cache.get_static_set(&r, &[&SEARCH, &PING], LossPolicy::Refuse).unwrap();
    assert_eq!((r.renders(), r.set_checks()), (4, 3));
    assert_eq!(cache.set_count(), 3);

    cache.clear();
    assert_eq!((cache.set_count(), cache.len()), (0, 0));
    cache.get_static_set(&r, &[&SEARCH, &PING], LossPolicy::Allow).unwrap();
    assert_eq!((r.renders(), r.set_checks()), (6, 4));
}

#[test]
fn refused_sets_and_failing_tools_are_not_cached() {
    let cache = RenderCache::new();
    let r = Counting::new("counting", 1);
    for _ in 0..2 {
        let e = cache.get_static_set(&r, &[&SEARCH, &PING], LossPolicy::Allow).unwrap_err();
        assert_eq!((e.rule, e.tool.as_str()), (RenderRule::SetLimit, "ping"));
    }
    assert_eq!((r.set_checks(), r.renders(), cache.set_count()), (2, 0, 0));

    let r = Counting::new("counting", 10);
    for _ in 0..2 {
        let e = cache.get_static_set(&r, &[&SEARCH, &BROKEN], LossPolicy::Allow).unwrap_err();
        assert_eq!((e.rule, e.tool.as_str()), (RenderRule::Unsupported, "broken"));
    }
    assert_eq!(cache.set_count(), 0);
    // The tool that rendered was kept; the failing one is tried again each time.
    assert_eq!(r.renders(), 3);
}

#[test]
fn renderers_with_different_keys_do_not_share_sets() {
    let cache = RenderCache::new();
    let wide = Counting::new("wide", 10);
    let narrow = Counting::new("narrow", 1);
    cache.get_static_set(&wide, &[&SEARCH, &PING], LossPolicy::Allow).unwrap();
    let e = cache.get_static_set(&narrow, &[&SEARCH, &PING], LossPolicy::Allow).unwrap_err();
    assert_eq!(e.rule, RenderRule::SetLimit);
}

#[test]
fn a_shared_set_keeps_its_arcs_alive_and_misses_on_new_arcs() {
    let cache = RenderCache::new();
    let r = Counting::new("counting", 10);
    let tools = vec![Arc::new(SEARCH.clone()), Arc::new(PING.clone())];
    let first = cache.get_shared_set(&r, &tools, LossPolicy::Allow).unwrap();
    assert_eq!(Arc::strong_count(&tools[0]), 3, "held by the tool entry and the set entry");
    assert_eq!(cache.get_shared_set(&r, &tools, LossPolicy::Allow).unwrap(), first);
    assert_eq!(r.set_checks(), 1);

    // Equal content in new allocations is another set (identity is the key).
    let copies = vec![Arc::new(SEARCH.clone()), Arc::new(PING.clone())];
    let second = cache.get_shared_set(&r, &copies, LossPolicy::Allow).unwrap();
    assert_eq!(second.json(), first.json());
    assert_eq!((r.set_checks(), cache.set_count()), (2, 2));
}

#[test]
fn set_changes_list_every_tools_report() {
    let cache = RenderCache::new();
    let r = Counting::new("counting", 10);
    let set = cache.get_static_set(&r, &[&SEARCH, &PING], LossPolicy::Allow).unwrap();
    assert_eq!(set.len(), 2);
    assert!(!set.is_empty());
    let changed: Vec<&str> = set.changes().map(|c| c.tool.as_str()).collect();
    assert_eq!(changed, ["ping"]);
    let names: Vec<&str> = set.tools().iter().map(Rendered::name).collect();
    assert_eq!(names, ["search", "ping"]);
}
