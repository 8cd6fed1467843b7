//! Dispatch for production hosts: per-call timeouts and cancellation, a model turn's calls run
//! concurrently with a bound and answered in call order, and the `tracing` span of each call.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tooldef::dispatch::{
    CallOptions, CancelToken, DynamicTool, ThreadTimer, Timer, Toolbox, block_on,
};
use tooldef::{Outcome, Param, ToolCall, ToolDescriptor, ToolResult};

/// `wait`: sleeps `ms` milliseconds on the thread timer, counting how many calls are in flight.
/// `never`: never finishes. `boom`: fails with a message.
fn toolbox(in_flight: Arc<AtomicUsize>, peak: Arc<AtomicUsize>) -> Toolbox {
    let wait = ToolDescriptor::builder("wait").param(Param::integer("ms")).build().unwrap();
    let never = ToolDescriptor::builder("never").build().unwrap();
    let boom = ToolDescriptor::builder("boom").build().unwrap();
    Toolbox::new()
        .with_executor(
            DynamicTool::new(wait, move |args: Value| {
                let (in_flight, peak) = (in_flight.clone(), peak.clone());
                Box::pin(async move {
                    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(now, Ordering::SeqCst);
                    ThreadTimer.sleep(Duration::from_millis(args["ms"].as_u64().unwrap())).await;
                    in_flight.fetch_sub(1, Ordering::SeqCst);
                    Ok(args)
                })
            })
            .into(),
        )
        .with_executor(DynamicTool::new(never, |_| Box::pin(std::future::pending())).into())
        .with_executor(
            DynamicTool::new_sync(boom, |_| Err(tooldef::ToolError::new("the boom tool failed")))
                .into(),
        )
}

fn plain() -> Toolbox {
    toolbox(Arc::default(), Arc::default())
}

#[test]
fn a_call_past_its_timeout_is_stopped_with_an_error_result() {
    let toolbox = plain();
    let options = CallOptions::new().timeout(Duration::from_millis(40));
    let call = ToolCall::new("c1", "never", json!({}));
    let result = block_on(toolbox.call_with(&call, &options));
    assert_eq!(
        result,
        ToolResult::error_with(
            &call,
            Outcome::TimedOut,
            "never did not finish within 40ms and was stopped"
        )
    );
    // A call that finishes in time is not affected.
    let quick = ToolCall::new("c2", "wait", json!({"ms": 1}));
    let options = CallOptions::new().timeout(Duration::from_secs(30));
    assert!(!block_on(toolbox.call_with(&quick, &options)).is_error);
}

#[test]
fn cancelling_stops_running_calls_and_refuses_new_ones() {
    let toolbox = plain();
    let token = CancelToken::new();
    let options = CallOptions::new().cancel(token.clone()).timeout(Duration::from_secs(60));
    let call = ToolCall::new("c1", "never", json!({}));
    let canceller = {
        let token = token.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            token.cancel();
        })
    };
    let result = block_on(toolbox.call_with(&call, &options));
    canceller.join().unwrap();
    assert_eq!(
        result,
        ToolResult::error_with(
            &call,
            Outcome::Cancelled,
            "the call to never was cancelled before it finished"
        )
    );
    assert!(token.is_cancelled());
    let later = ToolCall::new("c2", "wait", json!({"ms": 1}));
    assert_eq!(
        block_on(toolbox.call_with(&later, &options)),
        ToolResult::error_with(
            &later,
            Outcome::Cancelled,
            "the call to wait was cancelled before it finished"
        )
    );
}

#[test]
fn a_turn_runs_concurrently_within_the_bound_and_answers_in_call_order() {
    let (in_flight, peak) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let toolbox = toolbox(in_flight, peak.clone());
    // Later calls finish first: the results must still follow the calls.
    let calls: Vec<ToolCall> = [60, 10, 40, 5, 20, 1]
        .iter()
        .enumerate()
        .map(|(i, ms)| ToolCall::new(format!("c{i}"), "wait", json!({"ms": ms})))
        .collect();
    let options = CallOptions::new().concurrency(3);
    let results = block_on(toolbox.call_all(&calls, &options));
    let ids: Vec<&str> = results.iter().map(|r| r.call_id.as_str()).collect();
    assert_eq!(ids, ["c0", "c1", "c2", "c3", "c4", "c5"]);
    assert!(results.iter().all(|r| !r.is_error));
    assert_eq!(peak.load(Ordering::SeqCst), 3, "at most three at once, and three did overlap");
    // An unknown tool, a failing one and a timed-out one in the same turn each get their result.
    let mixed = [
        ToolCall::new("a", "nope", json!({})),
        ToolCall::new("b", "boom", json!({})),
        ToolCall::new("c", "never", json!({})),
        ToolCall::new("d", "wait", json!({"ms": 1})),
    ];
    let options = CallOptions::new().timeout(Duration::from_millis(30));
    let texts: Vec<String> =
        block_on(toolbox.call_all(&mixed, &options)).iter().map(ToolResult::text).collect();
    assert_eq!(
        texts,
        [
            r#"there is no tool named "nope"; the available tools are wait, never, boom"#,
            "the boom tool failed",
            "never did not finish within 30ms and was stopped",
            r#"{"ms":1}"#,
        ]
    );
    assert_eq!(block_on(toolbox.call_all(&[], &options)), vec![]);
}

#[test]
fn a_registry_snapshot_runs_a_turn_as_a_toolbox_does_with_outcomes_to_match_on() {
    use tooldef::{Origin, ToolRegistry};
    let (in_flight, peak) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let registry = ToolRegistry::new();
    for executor in toolbox(in_flight, peak.clone()).executors() {
        registry.register(executor.clone(), Origin::Core).unwrap();
    }
    let snapshot = registry.snapshot();
    let calls: Vec<ToolCall> = [60, 10, 40, 5, 20, 1]
        .iter()
        .enumerate()
        .map(|(i, ms)| ToolCall::new(format!("c{i}"), "wait", json!({"ms": ms})))
        .collect();
    let results = block_on(snapshot.call_all(&calls, &CallOptions::new().concurrency(2)));
    let ids: Vec<&str> = results.iter().map(|r| r.call_id.as_str()).collect();
    assert_eq!(ids, ["c0", "c1", "c2", "c3", "c4", "c5"]);
    assert_eq!(peak.load(Ordering::SeqCst), 2, "at most two at once, and two did overlap");

    let mixed = [
        ToolCall::new("a", "nope", json!({})),
        ToolCall::new("b", "boom", json!({})),
        ToolCall::new("c", "never", json!({})),
        ToolCall::new("d", "wait", json!({"ms": "soon"})),
        ToolCall::new("e", "wait", json!({"ms": 1})),
    ];
    let options = CallOptions::new().timeout(Duration::from_millis(30));
    let results = block_on(snapshot.call_all(&mixed, &options));
    let seen: Vec<(Outcome, bool, String)> =
        results.iter().map(|r| (r.outcome, r.is_error, r.text())).collect();
    let expected = [
        (
            Outcome::UnknownTool,
            true,
            r#"there is no tool named "nope"; the available tools are boom, never, wait"#,
        ),
        (Outcome::ToolError, true, "the boom tool failed"),
        (Outcome::TimedOut, true, "never did not finish within 30ms and was stopped"),
        (
            Outcome::InvalidArguments,
            true,
            "invalid arguments for wait: /ms must be an integer; got \"soon\"",
        ),
        (Outcome::Success, false, r#"{"ms":1}"#),
    ];
    let expected: Vec<(Outcome, bool, String)> =
        expected.into_iter().map(|(o, e, t)| (o, e, t.to_owned())).collect();
    assert_eq!(seen, expected);

    // Cancelled before it starts: answered at once, as cancelled, not as the tool's failure.
    let token = CancelToken::new();
    token.cancel();
    let call = ToolCall::new("f", "wait", json!({"ms": 1}));
    assert_eq!(
        block_on(snapshot.call_with(&call, &CallOptions::new().cancel(token))),
        ToolResult::error_with(
            &call,
            Outcome::Cancelled,
            "the call to wait was cancelled before it finished"
        )
    );
}

/// Records the fields of every span (by span name and call id).
#[derive(Default)]
struct Spans {
    next: AtomicU64,
    fields: Mutex<BTreeMap<u64, BTreeMap<String, String>>>,
}

struct Visit<'a>(&'a mut BTreeMap<String, String>);

impl tracing::field::Visit for Visit<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

/// The subscriber side of [`Spans`], shared with the test that reads it.
struct Recorder(Arc<Spans>);

impl tracing::Subscriber for Recorder {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, attrs: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let id = self.0.next.fetch_add(1, Ordering::SeqCst) + 1;
        let mut fields = BTreeMap::new();
        fields.insert("name".to_owned(), attrs.metadata().name().to_owned());
        attrs.record(&mut Visit(&mut fields));
        self.0.fields.lock().unwrap().insert(id, fields);
        tracing::span::Id::from_u64(id)
    }
    fn record(&self, span: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        if let Some(f) = self.0.fields.lock().unwrap().get_mut(&span.into_u64()) {
            values.record(&mut Visit(f));
        }
    }
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, _: &tracing::Event<'_>) {}
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

#[test]
fn each_call_runs_in_a_span_with_its_tool_id_outcome_and_duration() {
    let spans = Arc::new(Spans::default());
    let toolbox = plain();
    let calls = [
        ToolCall::new("c1", "wait", json!({"ms": 1})),
        ToolCall::new("c2", "wait", json!({"ms": "soon"})),
        ToolCall::new("c3", "never", json!({})),
    ];
    let options = CallOptions::new().timeout(Duration::from_millis(20));
    tracing::subscriber::with_default(Recorder(spans.clone()), || {
        block_on(toolbox.call_all(&calls, &options));
    });
    let recorded = spans.fields.lock().unwrap();
    let mut seen: Vec<Vec<(String, String)>> = recorded
        .values()
        .filter(|f| f["name"] == "tooldef.dispatch")
        .map(|f| {
            assert!(f["duration_ms"].parse::<f64>().unwrap() >= 0.0, "{f:?}");
            f.iter()
                .filter(|(k, _)| *k != "duration_ms" && *k != "name")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .collect();
    seen.sort();
    let fields = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    };
    assert_eq!(
        seen,
        vec![
            fields(&[("call_id", "c1"), ("outcome", "success"), ("tool", "wait")]),
            fields(&[("call_id", "c2"), ("outcome", "invalid_arguments"), ("tool", "wait")]),
            fields(&[("call_id", "c3"), ("outcome", "timed_out"), ("tool", "never")]),
        ]
    );
}

#[test]
fn rendering_runs_in_spans_naming_the_renderer_and_the_tool() {
    use tooldef::{LossPolicy, RenderCache, Renderer};
    let spans = Arc::new(Spans::default());
    let d = ToolDescriptor::builder("get_weather").param(Param::string("city")).build().unwrap();
    let renderer = tooldef_openai::OpenAiRenderer::chat();
    let cache = RenderCache::default();
    tracing::subscriber::with_default(Recorder(spans.clone()), || {
        renderer.render_set(&[&d], LossPolicy::Allow).unwrap();
        cache.get(&renderer, &d, LossPolicy::Allow).unwrap();
        cache.get(&renderer, &d, LossPolicy::Allow).unwrap(); // a hit: no second span
    });
    let recorded = spans.fields.lock().unwrap();
    let seen: Vec<String> = recorded
        .values()
        .map(|f| f.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        seen,
        [
            "name=tooldef.render_set renderer=openai-chat tools=1",
            "name=tooldef.render policy=Allow renderer=openai-chat tool=get_weather",
        ]
    );
}

#[test]
fn a_repair_is_recorded_in_the_span_of_its_call() {
    let spans = Arc::new(Spans::default());
    let d = ToolDescriptor::builder("search")
        .param(Param::named("filter", tooldef::Schema::object_of(vec![Param::integer("limit")])))
        .build()
        .unwrap();
    let toolbox = Toolbox::new().with_executor(DynamicTool::new_sync(d, Ok).into());
    let call = ToolCall::from_text("c1", "search", r#"{"filter": "{\"limit\": 5}"}"#);
    tracing::subscriber::with_default(Recorder(spans.clone()), || {
        toolbox.call_blocking(&call);
    });
    let recorded = spans.fields.lock().unwrap();
    let span = recorded.values().find(|f| f["name"] == "tooldef.dispatch").unwrap();
    assert_eq!(span["repairs"], "/filter: a JSON string read as the object it holds");
    assert_eq!(span["outcome"], "success");
}
