//! MCP servers side by side: tooldef's `McpServer` over a `Toolbox` against an rmcp
//! `#[tool_router]` server, both serving the same 1,000 tools (the 100-tool corpus and nine
//! renamed copies of it), both driven by rmcp's client over the newline-delimited JSON
//! transport rmcp uses for stdio (here on an in-memory byte stream, so that the pipe and the
//! scheduler of a second process are not in the figure).
//!
//! - `mcp_list_1000`: one `tools/list` answering all 1,000 tools (one page on both sides).
//! - `mcp_call`: one `tools/call` round trip of a typical call to the first tool.
//! - `mcp_parts`: where the time goes: the list result's JSON written and read back (each side
//!   writes its own list; the client reads it), and tooldef's handler work for one call
//!   without the transport (dispatch and the mapping to `CallToolResult`).
//!
//! The rmcp handler is what `#[tool_handler]` writes for a router (it cannot be used on a
//! wrapper type: the generated router is `ToolRouter<CorpusServer>`, so the three methods are
//! spelled out the same way here).
//!
//! `cargo bench -p tooldef-benches --features bench --bench mcp -- --warm-up-time 1 --measurement-time 3`
#![allow(clippy::print_stderr)] // the list sizes, beside criterion's own output

use std::borrow::Cow;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ResultType, ServerCapabilities, ServerConfig, Tool as SdkTool,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{ErrorData, RoleClient, RoleServer, ServerHandler, ServiceExt};
use std::sync::Arc;
use tooldef::dispatch::TypedTool;
use tooldef::{BoxFuture, Executor, Tool, ToolCall, ToolDescriptor, ToolName, ToolResult, Toolbox};
use tooldef_benches::ToolVisitor;
use tooldef_benches::corpus::{Corpus, SEED};
use tooldef_benches::generated::rmcp_router::{self, CorpusServer};
use tooldef_benches::generated::tooldef_const::visit_tools;
use tooldef_mcp::server::McpServer;

/// Copies of the corpus beyond the first (10 × 100 = 1,000 tools).
const COPIES: usize = 9;

fn copy_name(name: &str, copy: usize) -> String {
    format!("{name}_c{copy}")
}

/// The rmcp side: the generated router, extended with the renamed copies.
#[derive(Clone)]
struct RmcpCorpus {
    router: Arc<ToolRouter<CorpusServer>>,
}

impl RmcpCorpus {
    fn new() -> Self {
        let mut router = rmcp_router::router();
        let originals: Vec<_> = router.map.values().cloned().collect();
        for copy in 1..=COPIES {
            for route in &originals {
                let mut route = route.clone();
                route.attr.name = Cow::Owned(copy_name(&route.attr.name, copy));
                router.add_route(route);
            }
        }
        RmcpCorpus { router: Arc::new(router) }
    }
}

impl ServerHandler for RmcpCorpus {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let hints = context.protocol_version().is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
        Ok(ListToolsResult {
            result_type: Some(ResultType::COMPLETE),
            tools: self.router.list_all(),
            meta: None,
            next_cursor: None,
            ttl_ms: hints.then_some(0),
            cache_scope: hints.then_some(CacheScope::Public),
        })
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.router.call(ToolCallContext::new(&CorpusServer, request, context)).await
    }

    fn get_tool(&self, name: &str) -> Option<SdkTool> {
        self.router.get(name).cloned()
    }
}

/// A corpus tool under a copy's name: the same typed tool, another descriptor.
struct Renamed {
    descriptor: ToolDescriptor,
    inner: Arc<dyn Executor>,
}

impl Executor for Renamed {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.descriptor
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        self.inner.execute(call)
    }
}

/// The tooldef side: the const-DSL corpus tools and their renamed copies, sorted by name as
/// rmcp lists them.
struct Collect(Vec<Arc<dyn Executor>>);

impl ToolVisitor for Collect {
    fn visit<T: Tool + Default>(&mut self, _index: usize) {
        self.0.push(TypedTool::shared(T::default()));
    }
}

fn tooldef_toolbox() -> Toolbox {
    let mut collect = Collect(Vec::new());
    visit_tools(&mut collect);
    let mut all = collect.0.clone();
    for copy in 1..=COPIES {
        for inner in &collect.0 {
            let mut descriptor = inner.descriptor().clone();
            let name = copy_name(descriptor.name.as_str(), copy);
            descriptor.name = ToolName::parse(name).expect("a valid name");
            all.push(Arc::new(Renamed { descriptor, inner: Arc::clone(inner) }));
        }
    }
    all.sort_by(|a, b| a.descriptor().name.cmp(&b.descriptor().name));
    all.into_iter().collect()
}

type Client = RunningService<RoleClient, ()>;

fn connect<S: ServerHandler>(rt: &tokio::runtime::Runtime, server: S) -> Client {
    let (ours, theirs) = tokio::io::duplex(1 << 20);
    rt.spawn(async move {
        if let Ok(running) = server.serve(theirs).await {
            let _ = running.waiting().await;
        }
    });
    rt.block_on(().serve(ours)).expect("the client starts")
}

fn mcp(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let tooldef = connect(&rt, McpServer::from_toolbox(tooldef_toolbox()));
    let rmcp = connect(&rt, RmcpCorpus::new());

    let corpus = Corpus::standard();
    let first = &corpus.tools[0];
    let args: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&first.sample_args(SEED)).expect("sample arguments");
    let call = CallToolRequestParams::new(first.name.clone()).with_arguments(args);

    // Both answer the same 1,000 names and the call succeeds on both.
    let listed = |client: &Client| rt.block_on(client.list_tools(None)).expect("tools/list");
    let (a, b) = (listed(&tooldef), listed(&rmcp));
    let names =
        |l: &ListToolsResult| l.tools.iter().map(|t| t.name.to_string()).collect::<Vec<_>>();
    assert_eq!(names(&a), names(&b));
    assert_eq!(a.tools.len(), 100 * (COPIES + 1));
    let bytes = |l: &ListToolsResult| serde_json::to_string(l).map(|s| s.len()).unwrap_or(0);
    eprintln!("tools/list bytes: tooldef {}, rmcp {}", bytes(&a), bytes(&b));
    for client in [&tooldef, &rmcp] {
        let r = rt.block_on(client.call_tool(call.clone())).expect("tools/call");
        assert_eq!(r.is_error, Some(false), "{r:?}");
    }

    let toolbox = tooldef_toolbox();
    let tool_call = tooldef_mcp::sdk::into_call(call.clone(), "1");
    let mut group = c.benchmark_group("mcp_parts");
    for (name, list) in [("tooldef_list", &a), ("rmcp_list", &b)] {
        let text = serde_json::to_vec(list).expect("serializes");
        group.bench_function(format!("{name}_to_json"), |bench| {
            bench.iter(|| black_box(serde_json::to_vec(black_box(list)).expect("serializes")))
        });
        group.bench_function(format!("{name}_from_json"), |bench| {
            bench.iter(|| {
                black_box(serde_json::from_slice::<ListToolsResult>(&text).expect("parses"))
            })
        });
    }
    group.bench_function("tooldef_dispatch_only", |bench| {
        bench.iter(|| {
            let result = rt.block_on(toolbox.call(black_box(&tool_call)));
            black_box(tooldef_mcp::sdk::into_call_result(
                result,
                tooldef_mcp::McpVersion::default(),
                true,
            ))
        })
    });
    group.finish();

    let mut group = c.benchmark_group("mcp_list_1000");
    group.bench_function("tooldef_server", |b| {
        b.iter(|| black_box(rt.block_on(tooldef.list_tools(None)).expect("list")))
    });
    group.bench_function("rmcp_tool_router", |b| {
        b.iter(|| black_box(rt.block_on(rmcp.list_tools(None)).expect("list")))
    });
    group.finish();

    let mut group = c.benchmark_group("mcp_call");
    group.bench_function("tooldef_server", |b| {
        b.iter(|| black_box(rt.block_on(tooldef.call_tool(call.clone())).expect("call")))
    });
    group.bench_function("rmcp_tool_router", |b| {
        b.iter(|| black_box(rt.block_on(rmcp.call_tool(call.clone())).expect("call")))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = tooldef_benches::criterion_config();
    targets = mcp
}
criterion_main!(benches);
