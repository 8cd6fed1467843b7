//! The tools of any MCP server, as tooldef executors: [`McpClient`] connects (a child process on
//! stdio, or any rmcp transport), lists the server's tools following `nextCursor`, imports them
//! as descriptors, and gives each an [`Executor`] ([`McpTool`]) that forwards the call.
//!
//! A server is never trusted to behave. Every request has a deadline
//! ([`ClientOptions::call_timeout`], [`ClientOptions::list_timeout`]); a server that hangs,
//! exits, or writes garbage (invalid JSON is dropped by the transport) makes that call an error
//! [`ToolResult`] naming the server and the tool, never a hang or a panic of the host. An
//! answer over 16 MiB (a line longer than rmcp reads) is discarded unread and, on
//! [`spawn`](McpClient::spawn) and [`connect_io`](McpClient::connect_io), fails its request at
//! once as too large. A tool list is bounded as a whole, however it is paged
//! ([`ClientOptions::max_tools`], [`ClientOptions::max_list_bytes`], [`ClientOptions::max_pages`]),
//! and a server that gives a cursor twice is refused at once. The server's text in every message
//! (its error messages, cursors, tool names) has its control characters escaped
//! ([`printable`]). A tool whose schema cannot be imported is left out and reported in
//! [`McpTools::skipped`], at its own index in the list; the others still load.
//!
//! Calls are checked against the imported schema before they are sent (the model reads the
//! same "invalid arguments" text as for local tools), and forwarded under the server's own
//! name, so an override that renames the tool in a registry keeps working.
//!
//! Owns the connection and the forwarding; the import rules are [`import_tools`](crate::import_tools)'s and
//! the conversions [`crate::sdk`]'s.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use tooldef::{ToolCall, ToolRegistry};
//! use tooldef_mcp::client::{ClientOptions, McpClient};
//!
//! let mut command = tokio::process::Command::new("npx");
//! command.args(["-y", "@modelcontextprotocol/server-everything"]);
//! let client = McpClient::spawn(command, ClientOptions::default()).await?;
//! let imported = client.import().await?;
//! for (name, why) in &imported.skipped {
//!     eprintln!("left out {name}: {why}");
//! }
//! let registry = ToolRegistry::new();
//! imported.register(&registry)?; // origin MCP, beside the application's own tools
//! let call = ToolCall::new("call_1", "echo", serde_json::json!({"message": "hi"}));
//! let result = registry.snapshot().call(&call).await; // forwarded, with a deadline
//! # Ok(()) }
//! ```

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::Tool;
use rmcp::service::{RunningService, RxJsonRpcMessage, ServiceError, TxJsonRpcMessage};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::{IntoTransport, Transport};
use rmcp::{RoleClient, ServiceExt};
use tokio::process::{ChildStdin, ChildStdout};
use tooldef::context::{Elicitation, ElicitationRequest};
use tooldef::dispatch::{ArgValidator, DispatchError, DispatchErrorKind};
use tooldef::json_schema::ImportNote;
use tooldef::{
    Arguments, Batch, BoxFuture, Executor, JsonPointer, Origin, Registered, RegistryError,
    ToolCall, ToolDescriptor, ToolName, ToolRegistry, ToolResult,
};

use crate::import::{ImportError, index};
use crate::lines::{LineGuard, MAX_LINE, is_too_large};
use crate::sdk::{descriptor_from_tool, params_from_call, result_from_call_result};

/// How an [`McpClient`] answers a server's `elicitation/create` (see
/// [`ClientOptions::on_elicitation`]).
pub type ElicitationHandler =
    Arc<dyn Fn(ElicitationRequest) -> BoxFuture<'static, Elicitation> + Send + Sync>;

/// Deadlines and limits of an [`McpClient`], and what it offers the server.
#[derive(Clone)]
pub struct ClientOptions {
    /// How long the server may take to start (the protocol's opening exchange); default 30 s.
    pub start_timeout: Duration,
    /// How long one `tools/list` page may take; default 30 s.
    pub list_timeout: Duration,
    /// How long one `tools/call` may take; default 60 s.
    pub call_timeout: Duration,
    /// The most `tools/list` pages followed (a server whose cursors never end is an error);
    /// default 1,000.
    pub max_pages: usize,
    /// The most tools one listing keeps, over all its pages; past it the listing is an error.
    /// Default [`DEFAULT_MAX_TOOLS`] (10,000).
    pub max_tools: usize,
    /// The most bytes one listing keeps, over all its pages: the tools as JSON, and the
    /// cursors; past it the listing is an error. Default [`DEFAULT_MAX_LIST_BYTES`] (16 MiB,
    /// what one page may carry).
    pub max_list_bytes: usize,
    /// The protocol version offered at `initialize` (`2025-06-18`, `2025-11-25`,
    /// `2026-07-28`); `None` (the default) offers the newest rmcp speaks. The server may answer
    /// an older one, which the session then speaks.
    pub protocol_version: Option<crate::McpVersion>,
    /// Who answers the server's `elicitation/create` requests; with one, the client declares
    /// the `elicitation` capability. `None` (the default): no capability, and a request is
    /// declined.
    pub elicitation: Option<ElicitationHandler>,
}

impl std::fmt::Debug for ClientOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientOptions")
            .field("start_timeout", &self.start_timeout)
            .field("list_timeout", &self.list_timeout)
            .field("call_timeout", &self.call_timeout)
            .field("max_pages", &self.max_pages)
            .field("max_tools", &self.max_tools)
            .field("max_list_bytes", &self.max_list_bytes)
            .field("protocol_version", &self.protocol_version)
            .field("elicitation", &self.elicitation.is_some())
            .finish()
    }
}

/// The default of [`ClientOptions::max_tools`].
pub const DEFAULT_MAX_TOOLS: usize = 10_000;

/// The default of [`ClientOptions::max_list_bytes`]: 16 MiB.
pub const DEFAULT_MAX_LIST_BYTES: usize = 16 << 20;

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            start_timeout: Duration::from_secs(30),
            list_timeout: Duration::from_secs(30),
            call_timeout: Duration::from_secs(60),
            max_pages: 1000,
            max_tools: DEFAULT_MAX_TOOLS,
            max_list_bytes: DEFAULT_MAX_LIST_BYTES,
            protocol_version: None,
            elicitation: None,
        }
    }
}

impl ClientOptions {
    /// Offers `version` at `initialize` rather than the newest.
    #[must_use]
    pub fn protocol_version(mut self, version: crate::McpVersion) -> Self {
        self.protocol_version = Some(version);
        self
    }

    /// Answers the server's `elicitation/create` requests with `handler` (and declares the
    /// `elicitation` capability).
    #[must_use]
    pub fn on_elicitation<F, Fut>(mut self, handler: F) -> Self
    where
        F: Fn(ElicitationRequest) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Elicitation> + Send + 'static,
    {
        self.elicitation = Some(Arc::new(move |request| Box::pin(handler(request))));
        self
    }

    /// Sets [`call_timeout`](Self::call_timeout).
    #[must_use]
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = timeout;
        self
    }

    /// Sets [`list_timeout`](Self::list_timeout).
    #[must_use]
    pub fn list_timeout(mut self, timeout: Duration) -> Self {
        self.list_timeout = timeout;
        self
    }

    /// Sets [`start_timeout`](Self::start_timeout).
    #[must_use]
    pub fn start_timeout(mut self, timeout: Duration) -> Self {
        self.start_timeout = timeout;
        self
    }

    /// Sets [`max_tools`](Self::max_tools).
    #[must_use]
    pub fn max_tools(mut self, n: usize) -> Self {
        self.max_tools = n;
        self
    }

    /// Sets [`max_list_bytes`](Self::max_list_bytes).
    #[must_use]
    pub fn max_list_bytes(mut self, bytes: usize) -> Self {
        self.max_list_bytes = bytes;
        self
    }
}

/// `text` from a peer as it may go into a message or reach a terminal: control characters
/// (escape sequences, NUL, line breaks) and bidirectional-text controls escaped as `\u{..}`
/// (`\n`, `\r`, `\t` and `\0` as such); borrowed when there is nothing to escape.
///
/// ```
/// use tooldef_mcp::client::printable;
///
/// assert_eq!(printable("plain"), "plain");
/// assert_eq!(printable("red\u{1b}[31m\0\n"), "red\\u{1b}[31m\\0\\n");
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    let escaped = |c: char| {
        c.is_control()
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if escaped(c) => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A peer's text for a message: [`printable`], and cut after `max` characters.
fn quoted(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}...", printable(&text[..at])),
        None => printable(text).into_owned(),
    }
}

/// Why talking to an MCP server failed (a single tool's call never fails this way: it becomes
/// an error result).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The command could not be started.
    #[error("cannot start the MCP server `{command}`: {message}")]
    Spawn {
        /// The command line.
        command: String,
        /// The operating system's message.
        message: String,
    },
    /// The server did not complete the protocol's opening exchange.
    #[error("MCP server `{server}` did not start: {message}")]
    Start {
        /// The server (its command, or the label given).
        server: String,
        /// What went wrong.
        message: String,
    },
    /// A request failed or timed out.
    #[error("MCP server `{server}`: {method} failed: {message}")]
    Request {
        /// The server.
        server: String,
        /// The method (`tools/list`).
        method: &'static str,
        /// What went wrong.
        message: String,
    },
}

type Service = RunningService<RoleClient, Handler>;

struct Connection {
    label: String,
    service: Service,
    options: ClientOptions,
}

impl Connection {
    fn request_error(&self, method: &'static str, message: impl Into<String>) -> ClientError {
        ClientError::Request { server: self.label.clone(), method, message: message.into() }
    }

    /// The message of a failed request: the server's error text made printable, and an answer
    /// too large to read said as such.
    fn service_error(&self, method: &'static str, e: &ServiceError) -> ClientError {
        let message = match e {
            ServiceError::McpError(e) if is_too_large(e) => too_large(),
            ServiceError::McpError(e) => {
                format!("the server answered with error {}: {}", e.code.0, quoted(&e.message, 1000))
            }
            other => quoted(&other.to_string(), 1000),
        };
        self.request_error(method, message)
    }
}

/// What a request whose answer was over the line limit failed with.
fn too_large() -> String {
    format!(
        "the answer is larger than {MAX_LINE} bytes, the most one message may be; it was discarded unread"
    )
}

/// A connection to one MCP server. Cheap to clone; the connection closes when the last clone
/// and the last [`McpTool`] from it are dropped, or on [`close`](Self::close).
#[derive(Clone)]
pub struct McpClient {
    conn: Arc<Connection>,
}

impl fmt::Debug for McpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpClient").field("server", &self.conn.label).finish_non_exhaustive()
    }
}

/// The tools a server offered, imported.
#[derive(Debug)]
pub struct McpTools {
    /// The tools that imported, in the server's order.
    pub tools: Vec<Arc<McpTool>>,
    /// Tools left out: the server's name for each, and why.
    pub skipped: Vec<(String, ImportError)>,
    /// What the import dropped or inferred, per tool (pointers `/tools/N/...` in list order).
    pub notes: Vec<ImportNote>,
}

impl McpTools {
    /// The executors, for a `Toolbox` or a registry.
    pub fn executors(&self) -> impl Iterator<Item = Arc<dyn Executor>> + '_ {
        self.tools.iter().map(|t| Arc::clone(t) as Arc<dyn Executor>)
    }

    /// Registers every tool in `registry` with origin MCP, as one batch.
    ///
    /// # Errors
    ///
    /// The registry refused the batch (a name another extension owns, ...); nothing changed.
    pub fn register(
        &self,
        registry: &ToolRegistry,
    ) -> Result<Vec<(ToolName, Registered)>, RegistryError> {
        let batch = self.executors().fold(Batch::new(), |batch, e| batch.register(e, Origin::Mcp));
        registry.apply(batch)
    }
}

impl McpClient {
    /// Starts `command` as a child process and speaks MCP on its stdin and stdout (its stderr
    /// is inherited). The child is killed when the connection closes.
    ///
    /// # Errors
    ///
    /// [`ClientError::Spawn`] or [`ClientError::Start`].
    pub async fn spawn(
        mut command: tokio::process::Command,
        options: ClientOptions,
    ) -> Result<Self, ClientError> {
        let label = command_line(command.as_std());
        let spawn_error = |e: std::io::Error| ClientError::Spawn {
            command: label.clone(),
            message: e.to_string(),
        };
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).kill_on_drop(true);
        let mut child = command.spawn().map_err(spawn_error)?;
        let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
            return Err(spawn_error(std::io::Error::other("the child's stdio was not piped")));
        };
        let transport = ChildTransport {
            child: Some(child),
            io: AsyncRwTransport::new(LineGuard::client(stdout), stdin),
        };
        McpClient::connect(label, transport, options).await
    }

    /// Speaks MCP over a pair of async byte streams (a pipe, a socket's halves, a
    /// `tokio::io::duplex`); `label` names the server in messages. Unlike a pair given to
    /// [`connect`](Self::connect), an answer over 16 MiB fails its request at once as too
    /// large rather than at its deadline.
    ///
    /// # Errors
    ///
    /// [`ClientError::Start`] when the opening exchange fails or times out.
    pub async fn connect_io<R, W>(
        label: impl Into<String>,
        read: R,
        write: W,
        options: ClientOptions,
    ) -> Result<Self, ClientError>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        let transport = AsyncRwTransport::<RoleClient, _, _>::new(LineGuard::client(read), write);
        McpClient::connect(label, transport, options).await
    }

    /// Speaks MCP over any rmcp transport (a `(read, write)` pair of async byte streams, a
    /// streamable-HTTP client transport, ...); `label` names the server in messages.
    ///
    /// # Errors
    ///
    /// [`ClientError::Start`] when the opening exchange fails or times out.
    pub async fn connect<T, E, A>(
        label: impl Into<String>,
        transport: T,
        options: ClientOptions,
    ) -> Result<Self, ClientError>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let label = label.into();
        let start = |message: String| ClientError::Start { server: label.clone(), message };
        let handler = Handler {
            protocol_version: options.protocol_version,
            elicitation: options.elicitation.clone(),
        };
        let service = match tokio::time::timeout(options.start_timeout, handler.serve(transport))
            .await
        {
            Ok(Ok(service)) => service,
            Ok(Err(e)) => return Err(start(quoted(&e.to_string(), 1000))),
            Err(_) => {
                return Err(start(format!("no answer within {}", seconds(options.start_timeout))));
            }
        };
        Ok(McpClient { conn: Arc::new(Connection { label, service, options }) })
    }

    /// The server's label (its command line, or the label given to [`connect`](Self::connect)).
    pub fn label(&self) -> &str {
        &self.conn.label
    }

    /// The name and version the server gave, if it gave them.
    pub fn server_info(&self) -> Option<(String, String)> {
        let info = self.conn.service.peer().peer_info()?;
        let implementation = info.server_info.as_ref()?;
        Some((implementation.name.clone(), implementation.version.clone()))
    }

    /// Every tool the server lists, following `nextCursor` (at most
    /// [`ClientOptions::max_pages`] pages, each within [`ClientOptions::list_timeout`], and at
    /// most [`ClientOptions::max_tools`] tools and [`ClientOptions::max_list_bytes`] bytes in
    /// all).
    ///
    /// # Errors
    ///
    /// [`ClientError::Request`] when a page fails, times out or is too large, the list passes
    /// a limit, a cursor comes twice, or the cursors do not end.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ClientError> {
        let conn = &self.conn;
        let options = &conn.options;
        let mut tools = Vec::new();
        let mut bytes = 0usize;
        let mut cursors: HashSet<String> = HashSet::new();
        let mut cursor: Option<String> = None;
        for page in 1..=options.max_pages {
            let params = rmcp::model::PaginatedRequestParams::default().with_cursor(cursor.take());
            let answer = tokio::time::timeout(
                options.list_timeout,
                conn.service.peer().list_tools(Some(params)),
            )
            .await
            .map_err(|_| {
                conn.request_error(
                    "tools/list",
                    format!("no answer within {}", seconds(options.list_timeout)),
                )
            })?
            .map_err(|e| conn.service_error("tools/list", &e))?;
            for tool in answer.tools {
                bytes = bytes.saturating_add(json_len(&tool));
                tools.push(tool);
                if tools.len() > options.max_tools {
                    return Err(conn.request_error(
                        "tools/list",
                        format!(
                            "the server lists more than {} tools (page {page}); giving up \
                             (ClientOptions::max_tools)",
                            options.max_tools
                        ),
                    ));
                }
                if bytes > options.max_list_bytes {
                    return Err(conn.request_error(
                        "tools/list",
                        format!(
                            "the server's tools take more than {} bytes (page {page}); giving up \
                             (ClientOptions::max_list_bytes)",
                            options.max_list_bytes
                        ),
                    ));
                }
            }
            let Some(next) = answer.next_cursor else { return Ok(tools) };
            bytes = bytes.saturating_add(next.len());
            if bytes > options.max_list_bytes {
                return Err(conn.request_error(
                    "tools/list",
                    format!(
                        "the server's tools and cursors take more than {} bytes (page {page}); \
                         giving up (ClientOptions::max_list_bytes)",
                        options.max_list_bytes
                    ),
                ));
            }
            if !cursors.insert(next.clone()) {
                return Err(conn.request_error(
                    "tools/list",
                    format!(
                        "page {page} gives the cursor `{}` again; the list would never end",
                        quoted(&next, 80)
                    ),
                ));
            }
            cursor = Some(next);
        }
        Err(conn.request_error(
            "tools/list",
            format!("still more pages after {}; giving up", options.max_pages),
        ))
    }

    /// The server's tools, imported, each with an executor that forwards its calls here.
    ///
    /// # Errors
    ///
    /// As [`list_tools`](Self::list_tools). A tool that cannot be imported is not an error:
    /// it is in [`McpTools::skipped`].
    pub async fn import(&self) -> Result<McpTools, ClientError> {
        let listed = self.list_tools().await?;
        let mut out = McpTools { tools: Vec::new(), skipped: Vec::new(), notes: Vec::new() };
        for (i, tool) in listed.iter().enumerate() {
            match descriptor_from_tool(tool) {
                Ok(mut imported) => {
                    // Imported as a list of one: `/tools/0` is `/tools/{i}` of the server's list.
                    let tools = JsonPointer::from_segments(["tools"]);
                    let (alone, listed) = (index(&tools, 0), index(&tools, i));
                    out.notes.extend(imported.notes.into_iter().map(|mut n| {
                        if let Some(p) = n.pointer.rebased(&alone, &listed) {
                            n.pointer = p;
                        }
                        n
                    }));
                    let Some(descriptor) = imported.tools.pop() else { continue };
                    out.tools.push(Arc::new(McpTool {
                        remote_name: tool.name.to_string(),
                        index: i,
                        descriptor,
                        validator: ArgValidator::new(),
                        conn: Arc::clone(&self.conn),
                    }));
                }
                Err(mut e) => {
                    // Imported as a list of one: point at the tool's own place in the list.
                    let tools = JsonPointer::from_segments(["tools"]);
                    if let Some(p) = e.pointer.rebased(&index(&tools, 0), &index(&tools, i)) {
                        e.pointer = p;
                    }
                    tracing::warn!(server = %self.conn.label, tool = %printable(&tool.name),
                        error = %printable(&e.to_string()), "MCP tool left out");
                    out.skipped.push((tool.name.to_string(), e));
                }
            }
        }
        Ok(out)
    }

    /// Forwards one call to the server under the tool name `remote_name`; every failure
    /// (timeout, a closed connection, a protocol error) is an error result.
    pub async fn call(&self, remote_name: &str, call: &ToolCall) -> ToolResult {
        forward(&self.conn, remote_name, call).await
    }

    /// Closes the connection (and ends the child process) now; tools from it answer with an
    /// error result afterwards.
    pub fn close(&self) {
        self.conn.service.cancellation_token().cancel();
    }
}

/// One tool of an MCP server: its imported descriptor, and calls forwarded to the server.
pub struct McpTool {
    remote_name: String,
    index: usize,
    descriptor: ToolDescriptor,
    validator: ArgValidator,
    conn: Arc<Connection>,
}

impl fmt::Debug for McpTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpTool")
            .field("name", &self.remote_name)
            .field("server", &self.conn.label)
            .finish_non_exhaustive()
    }
}

impl McpTool {
    /// The name the server gave the tool (what calls are forwarded under).
    pub fn remote_name(&self) -> &str {
        &self.remote_name
    }

    /// The tool's index in the server's list (over all its pages), as in `/tools/3`.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The server's label.
    pub fn server(&self) -> &str {
        &self.conn.label
    }
}

impl Executor for McpTool {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.descriptor
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let value = match &call.arguments {
                Arguments::Json(v) => Cow::Borrowed(v),
                Arguments::Text(t) if t.trim().is_empty() => {
                    Cow::Owned(serde_json::Value::Object(serde_json::Map::new()))
                }
                Arguments::Text(t) => match serde_json::from_str(t) {
                    Ok(v) => Cow::Owned(v),
                    Err(e) => {
                        return DispatchError::new(
                            self.descriptor.name.to_string(),
                            DispatchErrorKind::MalformedJson { message: e.to_string() },
                        )
                        .to_result(call);
                    }
                },
            };
            if let Err(errors) = self.validator.check_args(&self.descriptor, &value) {
                return DispatchError::new(
                    self.descriptor.name.to_string(),
                    DispatchErrorKind::InvalidArguments { errors },
                )
                .to_result(call);
            }
            let forwarded =
                ToolCall { arguments: Arguments::Json(value.into_owned()), ..call.clone() };
            forward(&self.conn, &self.remote_name, &forwarded).await
        })
    }
}

async fn forward(conn: &Connection, remote_name: &str, call: &ToolCall) -> ToolResult {
    let failed = |message: String| {
        ToolResult::error(
            call,
            format!("MCP server `{}`: tool {remote_name}: {message}", conn.label),
        )
    };
    if tokio::runtime::Handle::try_current().is_err() {
        return failed("MCP tools must be called from within a tokio runtime".into());
    }
    let mut params = match params_from_call(call) {
        Ok(p) => p,
        Err(e) => return failed(e.to_string()),
    };
    params.name = remote_name.to_owned().into();
    let timeout = conn.options.call_timeout;
    match tokio::time::timeout(timeout, conn.service.peer().call_tool(params)).await {
        Ok(Ok(result)) => result_from_call_result(&result, call),
        Ok(Err(ServiceError::McpError(e))) if is_too_large(&e) => failed(too_large()),
        Ok(Err(ServiceError::McpError(e))) => {
            failed(format!("the server refused the call: {}", quoted(&e.message, 1000)))
        }
        Ok(Err(ServiceError::TransportClosed | ServiceError::TransportSend(_))) => {
            failed("the server is gone (its connection closed)".into())
        }
        Ok(Err(e)) => failed(quoted(&e.to_string(), 1000)),
        Err(_) => failed(format!("no answer within {}", seconds(timeout))),
    }
}

/// The length of `tool` as compact JSON, counted without writing it anywhere.
fn json_len(tool: &Tool) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // A `Tool` always serializes; a failure would only undercount.
    let _ = serde_json::to_writer(&mut count, tool);
    count.0
}

/// A child process speaking MCP on its stdin and stdout, its answers read through a
/// [`LineGuard`]. Closing follows MCP's stdio shutdown: stdin closed, then (each after 3 s)
/// `SIGTERM` on unix and a kill; dropped without closing, the child is killed.
struct ChildTransport {
    child: Option<tokio::process::Child>,
    io: AsyncRwTransport<RoleClient, LineGuard<ChildStdout>, ChildStdin>,
}

/// How long a closing child gets at each step before the next.
const CHILD_GRACE: Duration = Duration::from_secs(3);

impl Transport<RoleClient> for ChildTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.io.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.io.receive()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.io.close().await?;
        let Some(child) = self.child.as_mut() else { return Ok(()) };
        if tokio::time::timeout(CHILD_GRACE, child.wait()).await.is_ok() {
            self.child = None;
            return Ok(());
        }
        #[cfg(unix)]
        if let Some(pid) = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .and_then(rustix::process::Pid::from_raw)
        {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
            if tokio::time::timeout(CHILD_GRACE, child.wait()).await.is_ok() {
                self.child = None;
                return Ok(());
            }
        }
        let killed = child.kill().await;
        self.child = None;
        killed
    }
}

fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) { format!("{} s", ms / 1000) } else { format!("{ms} ms") }
}

fn command_line(command: &std::process::Command) -> String {
    let mut out = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        out.push(' ');
        out.push_str(&arg.to_string_lossy());
    }
    out
}

/// The client side of the protocol: what [`ClientOptions`] offers, and the answers to the
/// server's requests.
struct Handler {
    protocol_version: Option<crate::McpVersion>,
    elicitation: Option<ElicitationHandler>,
}

impl rmcp::ClientHandler for Handler {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        let mut info = serde_json::to_value(rmcp::model::ClientConfig::default())
            .unwrap_or(serde_json::Value::Null);
        if let Some(version) = self.protocol_version {
            info["protocolVersion"] = serde_json::Value::from(version.as_str());
        }
        if self.elicitation.is_some() {
            info["capabilities"]["elicitation"] = serde_json::json!({});
        }
        serde_json::from_value(info).unwrap_or_default()
    }

    async fn create_elicitation(
        &self,
        request: rmcp::model::ElicitRequestParams,
        _context: rmcp::service::RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, rmcp::ErrorData> {
        let decline = || serde_json::json!({"action": "decline"});
        let answer = match (&self.elicitation, serde_json::to_value(&request)) {
            (Some(handler), Ok(params)) => {
                let message = params["message"].as_str().unwrap_or_default().to_owned();
                let schema = params.get("requestedSchema").cloned().unwrap_or_default();
                match handler(ElicitationRequest::new(message, schema)).await {
                    Elicitation::Accept(values) => {
                        serde_json::json!({"action": "accept", "content": values})
                    }
                    Elicitation::Decline => decline(),
                    Elicitation::Cancel => serde_json::json!({"action": "cancel"}),
                }
            }
            _ => decline(),
        };
        serde_json::from_value(answer)
            .map_err(|e| rmcp::ErrorData::internal_error(e.to_string(), None))
    }
}
