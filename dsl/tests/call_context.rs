//! A tool's `CallContext`: `#[tool]` functions that name a `&CallContext` get the host's, through
//! `Executor::execute_with` (typed tools and override wrappers alike), and the detached one
//! otherwise; the context is no parameter of the model's.

use std::sync::{Arc, Mutex};

use serde_json::json;
use tooldef::context::{
    CallContext, CallPeer, ContextError, Elicitation, ElicitationRequest, LogLevel, LogMessage,
    Progress, Role, Sampled, SamplingRequest,
};
use tooldef::dispatch::{CancelToken, block_on};
use tooldef::{BoxFuture, Content, Executor, Override, ToolCall, ToolError, Toolbox, tool};

/// A host that records what the tool sent and answers its requests.
#[derive(Default)]
struct Recorder {
    seen: Mutex<Vec<String>>,
}

impl CallPeer for Recorder {
    fn progress<'a>(&'a self, p: &'a Progress) -> BoxFuture<'a, Result<(), ContextError>> {
        self.seen.lock().unwrap().push(format!("progress {}", serde_json::to_string(p).unwrap()));
        Box::pin(async { Ok(()) })
    }

    fn log<'a>(&'a self, m: &'a LogMessage) -> BoxFuture<'a, Result<(), ContextError>> {
        self.seen.lock().unwrap().push(format!("log {}", serde_json::to_string(m).unwrap()));
        Box::pin(async { Ok(()) })
    }

    fn sample<'a>(
        &'a self,
        r: &'a SamplingRequest,
    ) -> BoxFuture<'a, Result<Sampled, ContextError>> {
        self.seen.lock().unwrap().push(format!("sample {}", serde_json::to_string(r).unwrap()));
        Box::pin(async {
            Ok(Sampled {
                role: Role::Assistant,
                content: Content::Text { text: "four".into() },
                model: "m".into(),
                stop_reason: None,
            })
        })
    }

    fn elicit<'a>(
        &'a self,
        r: &'a ElicitationRequest,
    ) -> BoxFuture<'a, Result<Elicitation, ContextError>> {
        self.seen.lock().unwrap().push(format!("elicit {}", r.message));
        Box::pin(async { Ok(Elicitation::Decline) })
    }
}

/// Adds, reporting and asking along the way.
#[tool]
async fn add(a: i64, ctx: &CallContext, b: i64) -> Result<String, ToolError> {
    ctx.progress(Progress::new(1.0).total(1.0)).await?;
    ctx.log(LogLevel::Info, "adding").await?;
    let sampled = ctx.sample(&SamplingRequest::new("2+2?", 10)).await?;
    let answer = ctx.elicit(&ElicitationRequest::new("ok?", json!({"type": "object"}))).await?;
    Ok(format!("{} {} {answer:?} cancelled={}", a + b, sampled.text(), ctx.is_cancelled()))
}

/// A synchronous tool may take the context too (by value here).
#[tool]
fn attached(ctx: CallContext) -> bool {
    ctx.is_attached()
}

fn call(name: &str, args: serde_json::Value) -> ToolCall {
    ToolCall::new("c1", name, args)
}

#[test]
fn the_context_is_no_parameter_of_the_model() {
    let toolbox = Toolbox::new().with(Add).with(Attached);
    let params: Vec<Vec<&str>> =
        toolbox.descriptors().map(|d| d.params.iter().map(|p| p.name()).collect()).collect();
    assert_eq!(params, [vec!["a", "b"], vec![]]);
}

#[test]
fn a_host_context_reaches_the_tool_and_carries_what_it_sends() {
    let toolbox = Toolbox::new().with(Add).with(Attached);
    let recorder = Arc::new(Recorder::default());
    let cancel = CancelToken::new();
    let ctx = CallContext::new(Arc::clone(&recorder) as Arc<dyn CallPeer>, cancel.clone());
    let add = toolbox.get("add").unwrap();
    let result = block_on(add.execute_with(&call("add", json!({"a": 2, "b": 3})), &ctx));
    assert_eq!(result.text(), "5 four Decline cancelled=false");
    assert_eq!(
        *recorder.seen.lock().unwrap(),
        [
            r#"progress {"progress":1.0,"total":1.0}"#,
            r#"log {"level":"info","data":"adding"}"#,
            r#"sample {"messages":[{"role":"user","content":{"type":"text","text":"2+2?"}}],"max_tokens":10}"#,
            "elicit ok?",
        ]
    );
    let attached = toolbox.get("attached").unwrap();
    assert_eq!(block_on(attached.execute_with(&call("attached", json!({})), &ctx)).text(), "true");
    cancel.cancel();
    assert!(ctx.is_cancelled());
}

#[test]
fn without_a_host_notifications_go_nowhere_and_requests_are_unsupported() {
    let toolbox = Toolbox::new().with(Add).with(Attached);
    let result = toolbox.call_blocking(&call("add", json!({"a": 2, "b": 3})));
    assert!(result.is_error);
    assert_eq!(result.text(), "the client does not support sampling");
    assert_eq!(toolbox.call_blocking(&call("attached", json!({}))).text(), "false");
    assert!(!CallContext::detached().is_cancelled());
}

#[test]
fn an_override_passes_the_context_on() {
    let toolbox = Toolbox::new().with(Add);
    let inner = Arc::clone(toolbox.get("add").unwrap());
    let renamed = Override::rename("sum").wrap(inner).unwrap();
    let recorder = Arc::new(Recorder::default());
    let ctx = CallContext::new(Arc::clone(&recorder) as Arc<dyn CallPeer>, CancelToken::new());
    let result = block_on(renamed.execute_with(&call("sum", json!({"a": 1, "b": 1})), &ctx));
    assert_eq!(result.text(), "2 four Decline cancelled=false");
    assert_eq!(recorder.seen.lock().unwrap().len(), 4);
}
