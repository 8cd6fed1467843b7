//! A tool's `CallContext` through `McpServer`, driven by the official Rust SDK's client: progress
//! and log notifications reach the client (logs filtered by `logging/setLevel`), sampling and
//! elicitation are requests to the client on a 2025-11-25 session and an `InputRequiredResult`
//! on a 2026-07-28 one, and a client without the capability is answered by the tool.
#![allow(deprecated)] // rmcp marks sampling and logging deprecated from 2026-07-28 on.

mod support;

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ClientConfig, CreateMessageRequestParams,
    CreateMessageResult, ElicitRequestParams, ElicitResult, LoggingMessageNotificationParam,
    ProgressNotificationParam, ProtocolVersion, SetLevelRequestParams,
};
use rmcp::service::{
    ClientLifecycleMode, NotificationContext, RequestContext, RunningService,
    serve_client_with_lifecycle,
};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceExt};
use serde_json::json;
use support::within;
use tooldef::context::{
    CallContext, Elicitation, ElicitationRequest, LogLevel, Progress, SamplingRequest,
};
use tooldef::{ToolError, Toolbox, tool};
use tooldef_mcp::server::McpServer;

/// Reports progress, logs at two levels, asks the model and then the user.
#[tool]
async fn ask(
    /// What to ask the model.
    prompt: String,
    ctx: &CallContext,
) -> Result<String, ToolError> {
    ctx.progress(Progress::new(1.0).total(2.0).message("asking")).await?;
    ctx.log(LogLevel::Debug, "details").await?;
    ctx.log(LogLevel::Warning, json!({"note": "careful"})).await?;
    let sampled = ctx.sample(&SamplingRequest::new(prompt, 50)).await?;
    let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
    let name = match ctx.elicit(&ElicitationRequest::new("Your name?", schema)).await? {
        Elicitation::Accept(values) => values["name"].as_str().unwrap_or_default().to_owned(),
        other => format!("{other:?}"),
    };
    Ok(format!("{} / {name}", sampled.text()))
}

/// What the client saw and was asked.
#[derive(Clone, Default)]
struct Host {
    /// Whether it declares sampling and elicitation.
    capable: bool,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Host {
    fn capable() -> Self {
        Host { capable: true, ..Host::default() }
    }

    fn seen(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }

    fn push(&self, what: String) {
        self.seen.lock().unwrap().push(what);
    }
}

impl ClientHandler for Host {
    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let params = serde_json::to_value(&params).unwrap();
        self.push(format!("sampling {}", params["messages"]));
        let prompt = params["messages"][0]["content"]["text"].as_str().unwrap_or_default();
        Ok(serde_json::from_value(json!({
            "role": "assistant",
            "content": {"type": "text", "text": format!("answer to {prompt}")},
            "model": "test-model",
            "stopReason": "endTurn"
        }))
        .unwrap())
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let request = serde_json::to_value(&request).unwrap();
        self.push(format!("elicitation {}", request["message"]));
        Ok(serde_json::from_value(json!({"action": "accept", "content": {"name": "Ada"}})).unwrap())
    }

    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.push(format!("progress {}", serde_json::to_value(&params).unwrap()));
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.push(format!("log {}", serde_json::to_value(&params).unwrap()));
    }

    fn get_info(&self) -> ClientConfig {
        let capabilities =
            if self.capable { json!({"sampling": {}, "elicitation": {}}) } else { json!({}) };
        serde_json::from_value(json!({
            "protocolVersion": "2025-11-25",
            "capabilities": capabilities,
            "clientInfo": {"name": "context-test", "version": "1"}
        }))
        .unwrap()
    }
}

fn server() -> McpServer {
    McpServer::from_toolbox(Toolbox::new().with(Ask))
}

async fn connect(host: Host) -> RunningService<RoleClient, Host> {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    tokio::spawn(server().serve_io(read, write));
    within("the client start", host.serve(ours)).await.expect("client starts")
}

fn call(prompt: &str) -> CallToolRequestParams {
    serde_json::from_value(json!({
        "name": "ask",
        "arguments": {"prompt": prompt},
        "_meta": {"progressToken": "p1"}
    }))
    .unwrap()
}

fn text(result: &rmcp::model::CallToolResult) -> String {
    result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.as_str()).collect()
}

#[tokio::test]
async fn a_session_client_gets_progress_logs_and_the_requests_of_the_call() {
    let host = Host::capable();
    let client = connect(host.clone()).await;
    let result = within("the call", client.call_tool(call("2+2"))).await.unwrap();
    assert_eq!((text(&result), result.is_error), ("answer to 2+2 / Ada".to_owned(), Some(false)));
    // The notifications and the requests, in the order the tool made them (rmcp's client
    // numbers the call's progress token itself).
    assert_eq!(
        host.seen(),
        [
            r#"progress {"message":"asking","progress":1.0,"progressToken":0,"total":2.0}"#,
            r#"log {"data":"details","level":"debug"}"#,
            r#"log {"data":{"note":"careful"},"level":"warning"}"#,
            r#"sampling [{"content":{"text":"2+2","type":"text"},"role":"user"}]"#,
            r#"elicitation "Your name?""#,
        ]
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn logs_below_the_level_the_client_set_are_not_sent() {
    let host = Host::capable();
    let client = connect(host.clone()).await;
    let level = serde_json::from_value::<SetLevelRequestParams>(json!({"level": "info"})).unwrap();
    within("setLevel", client.set_level(level)).await.unwrap();
    within("the call", client.call_tool(call("x"))).await.unwrap();
    let logs: Vec<String> = host.seen().into_iter().filter(|s| s.starts_with("log")).collect();
    assert_eq!(logs, [r#"log {"data":{"note":"careful"},"level":"warning"}"#]);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_client_without_the_capability_gets_the_tools_answer() {
    let host = Host::default();
    let client = connect(host.clone()).await;
    let result = within("the call", client.call_tool(call("x"))).await.unwrap();
    assert_eq!(
        (text(&result), result.is_error),
        ("the client does not support sampling".to_owned(), Some(true))
    );
    assert!(host.seen().iter().all(|s| !s.starts_with("sampling")), "{:?}", host.seen());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_2026_07_28_client_is_answered_input_required_and_its_retry_completes() {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    tokio::spawn(server().serve_io(read, write));
    let host = Host::capable();
    let lifecycle =
        ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    let client =
        within("the client start", serve_client_with_lifecycle(host.clone(), ours, lifecycle))
            .await
            .expect("client starts");

    // One round by hand: the first request the tool makes comes back as the question.
    let once = within("one round", client.call_tool_once(call("3+3"))).await.unwrap();
    let CallToolResponse::InputRequired(asked) = once else {
        panic!("not input_required: {once:?}")
    };
    let asked = serde_json::to_value(&asked).unwrap();
    assert_eq!(
        asked,
        json!({
            "resultType": "input_required",
            "inputRequests": {"1": {
                "method": "sampling/createMessage",
                "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "3+3"}}], "maxTokens": 50}
            }}
        })
    );

    // The SDK's own loop answers each round through the handler and retries.
    let result = within("the rounds", client.call_tool(call("3+3"))).await.unwrap();
    assert_eq!((text(&result), result.is_error), ("answer to 3+3 / Ada".to_owned(), Some(false)));
    let asked: Vec<String> = host
        .seen()
        .into_iter()
        .filter(|s| !s.starts_with("progress") && !s.starts_with("log"))
        .collect();
    assert_eq!(
        asked,
        [
            r#"sampling [{"content":{"text":"3+3","type":"text"},"role":"user"}]"#,
            r#"elicitation "Your name?""#,
        ]
    );
    client.cancel().await.unwrap();
}
