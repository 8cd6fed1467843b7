//! tooldef's MCP server, driven by the official Rust SDK's client (`rmcp`) over an in-memory
//! byte stream: listing with pages, titles, annotations and output schemas; calls through
//! dispatch; list_changed for sessions and 2026-07-28 subscriptions; cancellation.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, ClientConfig, ClientRequest, ErrorCode,
    PaginatedRequestParams, ProtocolVersion, ServerNotification, SubscriptionFilter,
};
use rmcp::service::{
    ClientLifecycleMode, NotificationContext, PeerRequestOptions, RunningService, ServiceError,
    serve_client_with_lifecycle,
};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use support::{STEP, TempDir, echo, toolbox, weather, within};
use tokio::sync::Notify;
use tooldef::dispatch::DynamicTool;
use tooldef::{Origin, ToolDescriptor, ToolRegistry, Workspace};
use tooldef_mcp::McpVersion;
use tooldef_mcp::sdk::tool_from_descriptor;
use tooldef_mcp::server::{McpServer, ServerOptions};

/// Starts `server` on one end of a duplex stream and connects `client` to the other.
async fn connect<C: ClientHandler>(server: McpServer, client: C) -> RunningService<RoleClient, C> {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    tokio::spawn(server.serve_io(read, write));
    within("the client start", client.serve(ours)).await.expect("client starts")
}

/// [`connect`] on the 2026-07-28 lifecycle (`server/discover`, no session).
async fn connect_discover(server: McpServer) -> RunningService<RoleClient, ()> {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    tokio::spawn(server.serve_io(read, write));
    let lifecycle =
        ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    within("the client start", serve_client_with_lifecycle((), ours, lifecycle))
        .await
        .expect("client starts")
}

fn args(v: Value) -> serde_json::Map<String, Value> {
    v.as_object().unwrap().clone()
}

fn text(result: &rmcp::model::CallToolResult) -> String {
    result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.as_str()).collect()
}

#[tokio::test]
async fn tools_list_pages_and_carries_titles_annotations_and_output_schemas() {
    let server =
        McpServer::from_toolbox(toolbox(4)).with_options(ServerOptions::default().page_size(3));
    let client = connect(server, ()).await;

    let first = within("first page", client.list_tools(None)).await.unwrap();
    let names: Vec<_> = first.tools.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(names, ["get_weather", "echo", "fail"]);
    assert_eq!(first.next_cursor.as_deref(), Some("0:3"));
    let expected = tool_from_descriptor(&weather(), McpVersion::V2026_07_28).unwrap();
    assert_eq!(first.tools[0], expected);
    assert_eq!(first.tools[0].title.as_deref(), Some("Weather"));
    assert_eq!(first.tools[0].annotations.as_ref().unwrap().read_only_hint, Some(true));
    assert!(first.tools[0].output_schema.is_some());

    let all = within("every page", client.list_all_tools()).await.unwrap();
    let names: Vec<_> = all.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(
        names,
        ["get_weather", "echo", "fail", "numbered_0", "numbered_1", "numbered_2", "numbered_3"]
    );

    let bad = PaginatedRequestParams::default().with_cursor(Some("nonsense".into()));
    let Err(ServiceError::McpError(e)) = within("bad cursor", client.list_tools(Some(bad))).await
    else {
        panic!("a foreign cursor must be refused");
    };
    assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
    assert_eq!(e.message, "cursor `nonsense` is not one this server gave");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn tools_call_goes_through_dispatch() {
    let client = connect(McpServer::from_toolbox(toolbox(0)), ()).await;

    let call =
        CallToolRequestParams::new("get_weather").with_arguments(args(json!({"city": "Paris"})));
    let ok = within("call", client.call_tool(call)).await.unwrap();
    assert_eq!(ok.is_error, Some(false));
    assert_eq!(ok.structured_content, Some(json!({"temp": 21.5})));
    assert_eq!(text(&ok), r#"{"temp":21.5}"#);

    // No output schema: no structuredContent.
    let call = CallToolRequestParams::new("echo").with_arguments(args(json!({"text": "hi"})));
    let ok = within("call", client.call_tool(call)).await.unwrap();
    assert_eq!((text(&ok), ok.structured_content), ("hi".to_owned(), None));

    let call = CallToolRequestParams::new("get_weather")
        .with_arguments(args(json!({"city": "Paris", "unit": "kelvin"})));
    let bad = within("call", client.call_tool(call)).await.unwrap();
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(
        text(&bad),
        r#"invalid arguments for get_weather: /unit must be one of "celsius", "fahrenheit"; got "kelvin""#
    );
    assert_eq!(bad.structured_content, None);

    let failed =
        within("call", client.call_tool(CallToolRequestParams::new("fail"))).await.unwrap();
    assert_eq!((failed.is_error, text(&failed)), (Some(true), "the backend is down".to_owned()));

    let Err(ServiceError::McpError(e)) =
        within("call", client.call_tool(CallToolRequestParams::new("nope"))).await
    else {
        panic!("an unknown tool is a protocol error");
    };
    assert_eq!((e.code, e.message.as_ref()), (ErrorCode::INVALID_PARAMS, "unknown tool `nope`"));
    client.cancel().await.unwrap();
}

/// A client on the 2025-11-25 session lifecycle that counts `tools/list_changed`.
#[derive(Clone, Default)]
struct Counting(Arc<Notify>);

impl ClientHandler for Counting {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::default().with_protocol_version(ProtocolVersion::LATEST_WITH_INITIALIZE)
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.0.notify_one();
    }
}

const SPEC: &str = r#"{"description": "Added later.", "input_schema": {"type": "object"}}"#;

fn watched(dir: &TempDir) -> McpServer {
    let registry = Arc::new(ToolRegistry::new());
    registry
        .register(DynamicTool::new_sync(echo(), |a: Value| Ok(a)).into(), Origin::Core)
        .unwrap();
    let workspace = Arc::new(Workspace::new(dir.path()));
    McpServer::from_workspaces(registry, [workspace])
        .with_options(ServerOptions::default().watch_interval(Duration::from_millis(20)))
}

#[tokio::test]
async fn a_session_is_told_when_the_workspace_changes() {
    let dir = TempDir::new();
    let handler = Counting::default();
    let notified = Arc::clone(&handler.0);
    let client = connect(watched(&dir), handler).await;

    let before = within("list", client.list_all_tools()).await.unwrap();
    assert_eq!(before.iter().map(|t| t.name.as_ref()).collect::<Vec<_>>(), ["echo"]);
    dir.write("added.json", SPEC);
    within("list_changed", notified.notified()).await;
    let after = within("list", client.list_all_tools()).await.unwrap();
    assert_eq!(after.iter().map(|t| t.name.as_ref()).collect::<Vec<_>>(), ["added", "echo"]);
    assert_eq!(after[0].description.as_deref(), Some("Added later."));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_2026_subscription_is_told_when_the_workspace_changes() {
    let dir = TempDir::new();
    let client = connect_discover(watched(&dir)).await;
    let filter = SubscriptionFilter::builder().tools_list_changed().build();
    let mut subscription = within("listen", client.peer().listen(filter)).await.unwrap();
    assert_eq!(subscription.acknowledged().tools_list_changed, Some(true));

    within("list", client.list_all_tools()).await.unwrap();
    dir.write("added.json", SPEC);
    let note = within("list_changed", subscription.next()).await.unwrap();
    assert!(
        matches!(note, Some(ServerNotification::ToolListChangedNotification(_))),
        "expected tools/list_changed, got {note:?}"
    );
    let after = within("list", client.list_all_tools()).await.unwrap();
    assert_eq!(after.len(), 2);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn every_2026_subscription_is_told_of_the_same_change() {
    // Two streams of one connection: one stream hearing of a change must not use it up for
    // the other.
    let dir = TempDir::new();
    let client = connect_discover(watched(&dir)).await;
    let filter = || SubscriptionFilter::builder().tools_list_changed().build();
    let mut first = within("listen", client.peer().listen(filter())).await.unwrap();
    let mut second = within("listen", client.peer().listen(filter())).await.unwrap();

    within("list", client.list_all_tools()).await.unwrap();
    dir.write("added.json", SPEC);
    for (which, subscription) in [("first", &mut first), ("second", &mut second)] {
        let note = within("list_changed", subscription.next()).await.unwrap();
        assert!(
            matches!(note, Some(ServerNotification::ToolListChangedNotification(_))),
            "the {which} stream expected tools/list_changed, got {note:?}"
        );
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_toolbox_server_does_not_promise_list_changed() {
    let client = connect(McpServer::from_toolbox(toolbox(0)), ()).await;
    let info = client.peer().peer_info().expect("server info");
    let tools = info.capabilities.tools.clone().expect("tools capability");
    assert_eq!(tools.list_changed, None);
    assert_eq!(info.server_info.as_ref().map(|i| i.name.as_str()), Some("tooldef"));
    client.cancel().await.unwrap();
}

/// Sets its flag when dropped: proves that a cancelled call's future is dropped.
struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[tokio::test]
async fn a_cancelled_call_is_dropped() {
    let started = Arc::new(Notify::new());
    let dropped = Arc::new(AtomicBool::new(false));
    let (s, d) = (Arc::clone(&started), Arc::clone(&dropped));
    let slow = DynamicTool::new(
        ToolDescriptor::builder("slow").description("Never ends.").build().unwrap(),
        move |_| {
            let (s, flag) = (Arc::clone(&s), DropFlag(Arc::clone(&d)));
            Box::pin(async move {
                let _flag = flag;
                s.notify_one();
                tokio::time::sleep(STEP * 10).await;
                Ok(json!("too late"))
            })
        },
    );
    let server = McpServer::from_toolbox(tooldef::Toolbox::new().with_executor(slow.into()));
    let client = connect(server, ()).await;
    let request =
        ClientRequest::CallToolRequest(CallToolRequest::new(CallToolRequestParams::new("slow")));
    let handle = within(
        "send",
        client.peer().send_cancellable_request(request, PeerRequestOptions::no_options()),
    )
    .await
    .unwrap();
    within("tool start", started.notified()).await;
    within("cancel", handle.cancel(Some("user pressed stop".into()))).await.unwrap();
    within("the tool's future to drop", async {
        while !dropped.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    // The server is still there for the next call.
    let call = CallToolRequestParams::new("slow");
    let next = client.peer().send_request_with_option(
        ClientRequest::CallToolRequest(CallToolRequest::new(call)),
        PeerRequestOptions::with_timeout(Duration::from_millis(100)),
    );
    let outcome = within("second call", async { next.await?.await_response().await }).await;
    assert!(matches!(outcome, Err(ServiceError::Timeout { .. })), "got {outcome:?}");
    client.cancel().await.unwrap();
}

/// A client that offers `version` at `initialize`.
struct Offers(&'static str);

impl ClientHandler for Offers {
    fn get_info(&self) -> ClientConfig {
        serde_json::from_value(json!({
            "protocolVersion": self.0,
            "capabilities": {},
            "clientInfo": {"name": "offers", "version": "1"}
        }))
        .unwrap()
    }
}

#[tokio::test]
async fn tools_list_carries_exactly_the_fields_of_the_sessions_version() {
    for (version, cache_fields) in [("2025-06-18", None), ("2025-11-25", None)] {
        let client = connect(McpServer::from_toolbox(toolbox(0)), Offers(version)).await;
        let list = within("tools/list", client.list_tools(None)).await.unwrap();
        assert_eq!((list.ttl_ms, list.cache_scope.is_some()), (cache_fields, false), "{version}");
        client.cancel().await.unwrap();
    }
    let client = connect_discover(McpServer::from_toolbox(toolbox(0))).await;
    let list = within("tools/list", client.list_tools(None)).await.unwrap();
    assert_eq!((list.ttl_ms, list.cache_scope.is_some()), (Some(0), true));
    client.cancel().await.unwrap();
}
