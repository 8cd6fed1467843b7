//! An MCP server over tooldef's tools: [`McpServer`] serves a [`Toolbox`] (a fixed set), or a
//! [`ToolRegistry`] kept up to date by [`Workspace`]s, through the official Rust SDK (`rmcp`).
//!
//! - `tools/list` renders each tool with [`McpRenderer`](crate::McpRenderer) for the protocol version the client
//!   negotiated (titles, annotations and output schemas included), once per change of the set;
//!   with [`ServerOptions::page_size`] it pages, and `nextCursor` names the set it came from, so
//!   a cursor from before a change is refused rather than silently skipping tools. A registry
//!   server reconciles its workspaces first, so the list is what is on disk now.
//! - `tools/call` goes through dispatch: the executor checks the arguments against the schema
//!   first (an error is an `isError` result whose text names the JSON pointer), a tool that
//!   fails or panics is an `isError` result, and `structuredContent` is sent when the tool
//!   declares an output schema. An unknown tool is a protocol error (`-32602`), as MCP says.
//!   On [`serve_io`](McpServer::serve_io), [`serve_stdio`](McpServer::serve_stdio) and
//!   `serve_http` the arguments reach dispatch as the text the client wrote, so a key
//!   given twice or a value nested deeper than [`MAX_DEPTH`](tooldef::json_text::MAX_DEPTH) is
//!   an `isError` result naming its pointer, not a silently merged object or a message
//!   dropped without an answer. That text is carried by the server's own reader, never by the
//!   client: the arguments that run are the `params.arguments` the client sent, whatever its
//!   `_meta` says.
//! - `notifications/tools/list_changed`: a registry server polls its workspaces and registry
//!   every [`ServerOptions::watch_interval`] and tells each client whose last list is stale,
//!   both to sessions (`initialize`) and to 2026-07-28 `subscriptions/listen` streams.
//! - `notifications/cancelled` drops the call's future; no result is sent (a workspace
//!   command tool's process group is killed with it).
//! - On [`serve_io`](McpServer::serve_io) and [`serve_stdio`](McpServer::serve_stdio), every
//!   request gets an answer with its id, even one rmcp cannot read: a line longer than 16 MiB is
//!   never held whole (it is answered "larger than 16777216 bytes" at once), a request whose
//!   `params` is an array or a string `-32602` or `-32600`, one that nests deeper than 127
//!   levels `-32600`, a `tools/call` without a string `name` `-32602`.
//!
//! Owns the `rmcp::ServerHandler` and the listing cache; rendering is [`McpRenderer`](crate::McpRenderer)'s,
//! argument checks the executors'.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    CacheScope as SdkCacheScope, CallToolRequestParams, CallToolResponse, CallToolResult,
    CustomRequest, CustomResult, ErrorCode, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, SubscriptionFilter, Tool,
};
use rmcp::service::{NotificationContext, RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;
use tooldef::context::{CallContext, CallPeer, LogLevel};
use tooldef::dispatch::{CancelToken, CatchUnwind};
use tooldef::{Arguments, Executor, ToolRegistry, ToolResult, Toolbox, Workspace};

use crate::context::{LevelCell, McpCallPeer, level_code};
use crate::lines::{LineGuard, REFUSED_METHOD, refused};
use crate::render::McpVersion;
use crate::screen::ScreenedReader;
use crate::sdk::{into_call, into_call_result, tool_from_descriptor, version_of};

/// How an [`McpServer`] lists and watches its tools.
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// Tools per `tools/list` page; `None` (the default) lists them all at once.
    pub page_size: Option<NonZeroUsize>,
    /// How often a registry server looks for changes to tell clients about (default 1 s).
    pub watch_interval: Duration,
    /// The server's name in `initialize` and `server/discover` (default `tooldef`).
    pub name: String,
    /// The server's version (default this crate's).
    pub version: String,
    /// Instructions for the client, if any.
    pub instructions: Option<String>,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            page_size: None,
            watch_interval: Duration::from_secs(1),
            name: "tooldef".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            instructions: None,
        }
    }
}

impl ServerOptions {
    /// Pages of `n` tools.
    #[must_use]
    pub fn page_size(mut self, n: usize) -> Self {
        self.page_size = NonZeroUsize::new(n);
        self
    }

    /// The change-polling interval of a registry server.
    #[must_use]
    pub fn watch_interval(mut self, interval: Duration) -> Self {
        self.watch_interval = interval;
        self
    }

    /// The name and version the server gives.
    #[must_use]
    pub fn server_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.name = name.into();
        self.version = version.into();
        self
    }

    /// Instructions for the client.
    #[must_use]
    pub fn instructions(mut self, text: impl Into<String>) -> Self {
        self.instructions = Some(text.into());
        self
    }
}

enum Source {
    Toolbox(Toolbox),
    Registry { registry: Arc<ToolRegistry>, workspaces: Vec<Arc<Workspace>> },
}

/// The rendered tools of one version of the set, for one protocol version.
struct Listing {
    set_version: u64,
    protocol: McpVersion,
    tools: Arc<[Tool]>,
}

struct Shared {
    source: Source,
    listings: Mutex<Vec<Listing>>,
}

/// What one client has been told.
#[derive(Default)]
struct Session {
    /// The set version of the client's last `tools/list`, plus one (0: never listed).
    listed: AtomicU64,
    watching: AtomicBool,
    /// The lowest log level the client asked for (`logging/setLevel`).
    log_level: LevelCell,
}

/// An MCP server over a [`Toolbox`] or a [`ToolRegistry`]; an `rmcp::ServerHandler`, so any
/// rmcp transport serves it. See the module docs for what it answers.
///
/// ```no_run
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// use tooldef::Toolbox;
/// use tooldef_mcp::server::McpServer;
///
/// let toolbox = Toolbox::new(); // .with(MyTool) ...
/// McpServer::from_toolbox(toolbox).serve_stdio().await?;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct McpServer {
    shared: Arc<Shared>,
    options: Arc<ServerOptions>,
    session: Arc<Session>,
    /// The `_meta` key under which this server's [`ScreenedReader`] carries a call's arguments
    /// (set by `serve_io`; drawn at random for each reader, so no client can write it).
    arguments_key: Option<Arc<str>>,
}

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.shared.source {
            Source::Toolbox(t) => format!("toolbox of {} tools", t.len()),
            Source::Registry { workspaces, .. } => {
                format!("registry with {} workspaces", workspaces.len())
            }
        };
        f.debug_struct("McpServer").field("source", &kind).finish_non_exhaustive()
    }
}

/// Why [`McpServer::serve_stdio`] (or another transport) stopped with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The client never completed the protocol's start.
    #[error("the MCP session did not start: {0}")]
    Start(String),
    /// The service task failed.
    #[error("the MCP service stopped abnormally: {0}")]
    Stopped(String),
}

impl McpServer {
    fn new(source: Source) -> Self {
        McpServer {
            shared: Arc::new(Shared { source, listings: Mutex::new(Vec::new()) }),
            options: Arc::new(ServerOptions::default()),
            session: Arc::new(Session::default()),
            arguments_key: None,
        }
    }

    /// A server of a fixed set of tools.
    pub fn from_toolbox(toolbox: Toolbox) -> Self {
        McpServer::new(Source::Toolbox(toolbox))
    }

    /// A server of whatever `registry` holds when a client asks; clients are told when it
    /// changes.
    pub fn from_registry(registry: Arc<ToolRegistry>) -> Self {
        McpServer::from_workspaces(registry, [])
    }

    /// A registry server that reconciles `workspaces` into `registry` before every
    /// `tools/list` and every watch. Several workspaces must hold distinct tool names.
    pub fn from_workspaces(
        registry: Arc<ToolRegistry>,
        workspaces: impl IntoIterator<Item = Arc<Workspace>>,
    ) -> Self {
        McpServer::new(Source::Registry { registry, workspaces: workspaces.into_iter().collect() })
    }

    /// The same server with other options.
    #[must_use]
    pub fn with_options(mut self, options: ServerOptions) -> Self {
        self.options = Arc::new(options);
        self
    }

    /// The options.
    pub fn options(&self) -> &ServerOptions {
        &self.options
    }

    /// The same tools for another client: a fresh session state (what each streamable-HTTP
    /// session or each accepted connection should get).
    pub fn session(&self) -> Self {
        McpServer {
            shared: Arc::clone(&self.shared),
            options: Arc::clone(&self.options),
            session: Arc::new(Session::default()),
            arguments_key: None,
        }
    }

    /// Serves one client on this process's stdin and stdout until it disconnects.
    ///
    /// # Errors
    ///
    /// [`ServeError`] when the session does not start or stops abnormally.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        self.serve_io(tokio::io::stdin(), tokio::io::stdout()).await
    }

    /// Serves one client over a byte stream pair (a pipe, a socket half, a `tokio::io::duplex`)
    /// until it disconnects.
    ///
    /// # Errors
    ///
    /// [`ServeError`] when the session does not start or stops abnormally.
    pub async fn serve_io<R, W>(mut self, read: R, write: W) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        // Each line is bounded before the screen holds it, and checked after, where rmcp reads.
        let screened = ScreenedReader::new(LineGuard::server(read));
        self.arguments_key = Some(Arc::clone(screened.key()));
        let read = LineGuard::server_checked(screened);
        let running =
            self.serve((read, write)).await.map_err(|e| ServeError::Start(e.to_string()))?;
        running.waiting().await.map(drop).map_err(|e| ServeError::Stopped(e.to_string()))
    }

    fn dynamic(&self) -> bool {
        matches!(self.shared.source, Source::Registry { .. })
    }

    /// Reconciles the workspaces (on the blocking pool) and returns the set's version.
    async fn refresh(&self) -> u64 {
        let Source::Registry { registry, workspaces } = &self.shared.source else { return 0 };
        if !workspaces.is_empty() {
            let registry = Arc::clone(registry);
            let workspaces = workspaces.clone();
            let job = tokio::task::spawn_blocking(move || {
                for ws in &workspaces {
                    if let Err(e) = ws.reconcile(&*registry) {
                        tracing::warn!(dir = %ws.dir().display(), error = %e, "reconcile failed");
                    }
                }
            });
            if let Err(e) = job.await {
                tracing::warn!(error = %e, "reconcile task failed");
            }
        }
        registry.snapshot().version()
    }

    /// The executor the model's name `name` calls now.
    fn executor(&self, name: &str) -> Option<Arc<dyn Executor>> {
        match &self.shared.source {
            Source::Toolbox(t) => t.get(name).cloned(),
            Source::Registry { registry, .. } => {
                registry.snapshot().get(name).map(|e| Arc::clone(e.executor()))
            }
        }
    }

    /// The rendered tools of the current set for `protocol`, rendered once per set version.
    fn listing(&self, protocol: McpVersion) -> (u64, Arc<[Tool]>) {
        let (set_version, descriptors) = match &self.shared.source {
            Source::Toolbox(t) => {
                if let Some(hit) = self.cached(0, protocol) {
                    return (0, hit);
                }
                (0, t.descriptors().cloned().collect::<Vec<_>>())
            }
            Source::Registry { registry, .. } => {
                let snapshot = registry.snapshot();
                let v = snapshot.version();
                if let Some(hit) = self.cached(v, protocol) {
                    return (v, hit);
                }
                (v, snapshot.descriptors().cloned().collect())
            }
        };
        let tools: Arc<[Tool]> = descriptors
            .iter()
            .filter_map(|d| match tool_from_descriptor(d, protocol) {
                Ok(t) => Some(t),
                Err(e) => {
                    tracing::warn!(tool = %d.name, error = %e, "tool left out of tools/list");
                    None
                }
            })
            .collect();
        let mut listings = self.shared.listings.lock().unwrap_or_else(PoisonError::into_inner);
        listings.retain(|l| l.set_version == set_version);
        listings.push(Listing { set_version, protocol, tools: Arc::clone(&tools) });
        (set_version, tools)
    }

    fn cached(&self, set_version: u64, protocol: McpVersion) -> Option<Arc<[Tool]>> {
        let listings = self.shared.listings.lock().unwrap_or_else(PoisonError::into_inner);
        listings
            .iter()
            .find(|l| l.set_version == set_version && l.protocol == protocol)
            .map(|l| Arc::clone(&l.tools))
    }

    /// Waits until the set differs from what this session listed last; `None` when the
    /// `stop` future wins.
    ///
    /// Each watcher (the session's, and each `subscriptions/listen` stream) keeps its own
    /// `known` mark (a set version plus one; 0: nothing known yet), so that one watcher telling
    /// its client of a change never swallows the change for another. A `tools/list` by the
    /// client moves every watcher's mark forward.
    async fn next_change(
        &self,
        known: &mut u64,
        stop: impl std::future::Future<Output = ()>,
    ) -> Option<()> {
        let mut stop = std::pin::pin!(stop);
        loop {
            tokio::select! {
                () = &mut stop => return None,
                () = tokio::time::sleep(self.options.watch_interval) => {}
            }
            let version = self.refresh().await;
            *known = (*known).max(self.session.listed.load(Ordering::Acquire));
            if *known != 0 && *known != version + 1 {
                *known = version + 1;
                return Some(());
            }
        }
    }

    fn watch_session(&self, peer: rmcp::Peer<RoleServer>) {
        if !self.dynamic() || self.session.watching.swap(true, Ordering::AcqRel) {
            return;
        }
        let server = self.clone();
        tokio::spawn(async move {
            let closed = {
                let peer = peer.clone();
                async move {
                    while !peer.is_transport_closed() {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                }
            };
            let mut closed = std::pin::pin!(closed);
            let mut known = 0;
            while server.next_change(&mut known, &mut closed).await.is_some() {
                if let Err(e) = peer.notify_tool_list_changed().await {
                    tracing::debug!(error = %e, "list_changed not delivered; watch ends");
                    break;
                }
            }
        });
    }
}

impl McpServer {
    /// A call's arguments as the text the client wrote, when the server's own reader carried
    /// them (`crate::screen`): in the HTTP request's extensions, or in `_meta` under this
    /// server's random key (removed, so that the tool never sees it). `None` for a call that
    /// came another way; it runs with the `arguments` rmcp read.
    fn screened_arguments(
        &self,
        request: &mut CallToolRequestParams,
        context: &mut RequestContext<RoleServer>,
    ) -> Option<String> {
        #[cfg(feature = "http-server")]
        if let Some(text) = context
            .extensions
            .get_mut::<hyper::http::request::Parts>()
            .and_then(|parts| parts.extensions.remove::<crate::screen::ArgumentsText>())
        {
            return Some(text.0);
        }
        let key = self.arguments_key.as_deref()?;
        // rmcp moves a request's `_meta` into the context; look in both places.
        let text = context
            .meta
            .remove(key)
            .or_else(|| request.meta.as_mut().and_then(|meta| meta.remove(key)));
        match text? {
            Value::String(text) => Some(text),
            // Only the reader writes this key, and always as text.
            _ => None,
        }
    }
}

/// What is wrong with the `params` of a `tools/call` that does not read as one.
fn bad_call(params: Option<&Value>) -> String {
    let kind = tooldef::arg_checks::kind;
    let Some(params) = params.filter(|p| !p.is_null()) else {
        return "tools/call needs `params` with the `name` of the tool to call".into();
    };
    match params.get("name") {
        _ if !params.is_object() => format!("`params` must be an object; got {}", kind(params)),
        None => "tools/call needs `params.name`, the name of the tool to call".into(),
        Some(Value::String(_)) => {
            match serde_json::from_value::<CallToolRequestParams>(params.clone()) {
                Err(e) => format!("`params` is not a tools/call request: {e}"),
                Ok(_) => "`params` is not a tools/call request".into(),
            }
        }
        Some(other) => {
            format!("`params.name` must be a string, the name of a tool; got {}", kind(other))
        }
    }
}

fn parse_cursor(cursor: &str) -> Option<(u64, usize)> {
    let (v, offset) = cursor.split_once(':')?;
    Some((v.parse().ok()?, offset.parse().ok()?))
}

impl ServerHandler for McpServer {
    // Logging is deprecated from 2026-07-28 on; tools log to clients of the versions before.
    #[allow(deprecated)]
    fn get_info(&self) -> ServerConfig {
        let caps = if self.dynamic() {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_logging()
                .build()
        } else {
            ServerCapabilities::builder().enable_tools().enable_logging().build()
        };
        let o = &self.options;
        let mut config = ServerConfig::new(caps)
            .with_server_info(Implementation::new(o.name.clone(), o.version.clone()));
        if let Some(text) = &o.instructions {
            config = config.with_instructions(text.clone());
        }
        config
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let protocol = version_of(context.protocol_version().as_ref());
        if matches!(protocol, McpVersion::V2025_06_18 | McpVersion::V2025_11_25) {
            // Sessions of 2026-07-28 hear of changes only through `subscriptions/listen`.
            self.watch_session(context.peer.clone());
        }
        self.refresh().await;
        let (set_version, tools) = self.listing(protocol);
        let start = match request.as_ref().and_then(|r| r.cursor.as_deref()) {
            None => 0,
            Some(cursor) => match parse_cursor(cursor) {
                Some((v, offset)) if v == set_version && offset <= tools.len() => offset,
                Some((v, _)) if v == set_version => {
                    return Err(ErrorData::invalid_params(
                        format!(
                            "cursor `{cursor}` points past the end of the list ({} tools); list \
                             again without a cursor",
                            tools.len()
                        ),
                        None,
                    ));
                }
                Some(_) => {
                    return Err(ErrorData::invalid_params(
                        format!(
                            "cursor `{cursor}` is from a tool list that has changed since; list \
                             again without a cursor"
                        ),
                        None,
                    ));
                }
                None => {
                    return Err(ErrorData::invalid_params(
                        format!("cursor `{cursor}` is not one this server gave"),
                        None,
                    ));
                }
            },
        };
        let end = match self.options.page_size {
            Some(n) => start.saturating_add(n.get()).min(tools.len()),
            None => tools.len(),
        };
        let next_cursor = (end < tools.len()).then(|| format!("{set_version}:{end}"));
        if next_cursor.is_none() {
            self.session.listed.store(set_version + 1, Ordering::Release);
        }
        Ok(ListToolsResult {
            result_type: None,
            meta: None,
            next_cursor,
            // Fields of 2026-07-28 only: an older client's list carries exactly its version's.
            ttl_ms: protocol.has_result_type().then_some(0),
            cache_scope: protocol.has_result_type().then_some(SdkCacheScope::Private),
            tools: tools[start..end].to_vec(),
        })
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(executor) = self.executor(&request.name) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{}`", request.name),
                None,
            ));
        };
        let protocol = version_of(context.protocol_version().as_ref());
        let text = self.screened_arguments(&mut request, &mut context);
        let responses =
            McpCallPeer::answers(request.request_state.as_deref(), request.input_responses.take());
        let peer = Arc::new(McpCallPeer::new(
            context.peer.clone(),
            context.meta.get_progress_token(),
            protocol,
            Arc::clone(&self.session.log_level),
            responses,
        ));
        let cancel = CancelToken::new();
        let ctx = CallContext::new(Arc::clone(&peer) as Arc<dyn CallPeer>, cancel.clone());
        let mut call = into_call(request, context.id.to_string());
        if let Some(text) = text {
            call.arguments = Arguments::Text(text);
        }
        let with_structured = executor.descriptor().output.is_some();
        let run = async {
            match CatchUnwind::new(executor.execute_with(&call, &ctx)).await {
                Ok(result) => result,
                Err(panic) => {
                    ToolResult::error(&call, format!("tool {} panicked: {panic}", call.name))
                }
            }
        };
        let result = tokio::select! {
            result = run => result,
            () = context.ct.cancelled() => {
                cancel.cancel();
                tracing::debug!(tool = %call.name, "call cancelled by the client");
                return Err(ErrorData::internal_error("the call was cancelled", None));
            }
        };
        if let Some(asked) = peer.input_required() {
            // The tool asked the client things a 2026-07-28 session cannot be asked mid-call:
            // the answer is the questions; the client's retry brings the answers.
            return Ok(CallToolResponse::InputRequired(asked));
        }
        let out: CallToolResult = into_call_result(result, protocol, with_structured);
        Ok(CallToolResponse::Complete(out))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(match request.method.as_str() {
            // A line the server's reader refused: its error, for the id it had.
            REFUSED_METHOD => refused(request.params.as_ref()),
            // A `tools/call` rmcp could not read as one.
            "tools/call" => ErrorData::invalid_params(bad_call(request.params.as_ref()), None),
            other => ErrorData::new(ErrorCode::METHOD_NOT_FOUND, other.to_owned(), None),
        })
    }

    #[allow(deprecated)] // Logging is deprecated from 2026-07-28 on; older clients set it.
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let level: LogLevel = serde_json::to_value(request.level)
            .and_then(serde_json::from_value)
            .map_err(|e| ErrorData::invalid_params(format!("unknown log level: {e}"), None))?;
        self.session.log_level.store(level_code(level), Ordering::Relaxed);
        Ok(())
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let (_, tools) = self.listing(McpVersion::default());
        tools.iter().find(|t| t.name == name).cloned()
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        self.watch_session(context.peer);
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::default();
        if self.dynamic() && requested.tools_list_changed == Some(true) {
            accepted.tools_list_changed = Some(true);
        }
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        if context.accepted().tools_list_changed != Some(true) {
            context.cancelled().await;
            return Ok(());
        }
        let mut known = 0;
        let mut cancelled = std::pin::pin!(context.cancelled());
        while self.next_change(&mut known, &mut cancelled).await.is_some() {
            if let Err(e) = context.sink().notify_tool_list_changed().await {
                tracing::debug!(error = %e, "list_changed not delivered; subscription ends");
                break;
            }
        }
        Ok(())
    }
}
