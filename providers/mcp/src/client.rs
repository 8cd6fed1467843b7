//! The tools of any MCP server, as tooldef executors: [`McpClient`] connects (a child process on
//! stdio, or any rmcp transport), lists the server's tools following `nextCursor`, imports them
//! as descriptors, and gives each an [`Executor`] ([`McpTool`]) that forwards the call.
//!
//! A server is never trusted to behave. Every request has a deadline
//! ([`ClientOptions::call_timeout`], [`ClientOptions::list_timeout`]); a server that hangs,
//! exits, or writes garbage (invalid JSON is dropped by the transport, a line over 16 MiB is
//! discarded unread) makes that call an error [`ToolResult`] naming the server and the tool,
//! never a hang or a panic of the host. A tool whose schema cannot be imported is left out and
//! reported in [`McpTools::skipped`]; the others still load.
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
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::Tool;
use rmcp::service::{RunningService, ServiceError};
use rmcp::transport::{IntoTransport, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use tooldef::dispatch::{ArgValidator, DispatchError, DispatchErrorKind};
use tooldef::json_schema::ImportNote;
use tooldef::{
    Arguments, Batch, BoxFuture, Executor, JsonPointer, Origin, Registered, RegistryError,
    ToolCall, ToolDescriptor, ToolName, ToolRegistry, ToolResult,
};

use crate::import::{ImportError, index};
use crate::sdk::{descriptor_from_tool, params_from_call, result_from_call_result};

/// Deadlines and limits of an [`McpClient`].
#[derive(Clone, Debug)]
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
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            start_timeout: Duration::from_secs(30),
            list_timeout: Duration::from_secs(30),
            call_timeout: Duration::from_secs(60),
            max_pages: 1000,
        }
    }
}

impl ClientOptions {
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

type Service = RunningService<RoleClient, ()>;

struct Connection {
    label: String,
    service: Service,
    options: ClientOptions,
}

impl Connection {
    fn request_error(&self, method: &'static str, message: impl Into<String>) -> ClientError {
        ClientError::Request { server: self.label.clone(), method, message: message.into() }
    }
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
        command: tokio::process::Command,
        options: ClientOptions,
    ) -> Result<Self, ClientError> {
        let label = command_line(command.as_std());
        let transport = TokioChildProcess::new(command)
            .map_err(|e| ClientError::Spawn { command: label.clone(), message: e.to_string() })?;
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
        let service = match tokio::time::timeout(options.start_timeout, ().serve(transport)).await {
            Ok(Ok(service)) => service,
            Ok(Err(e)) => return Err(start(e.to_string())),
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
    /// [`ClientOptions::max_pages`] pages, each within [`ClientOptions::list_timeout`]).
    ///
    /// # Errors
    ///
    /// [`ClientError::Request`] when a page fails, times out, or the cursors do not end.
    pub async fn list_tools(&self) -> Result<Vec<Tool>, ClientError> {
        let conn = &self.conn;
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..conn.options.max_pages {
            let params = rmcp::model::PaginatedRequestParams::default().with_cursor(cursor.take());
            let page = tokio::time::timeout(
                conn.options.list_timeout,
                conn.service.peer().list_tools(Some(params)),
            )
            .await
            .map_err(|_| {
                conn.request_error(
                    "tools/list",
                    format!("no answer within {}", seconds(conn.options.list_timeout)),
                )
            })?
            .map_err(|e| conn.request_error("tools/list", e.to_string()))?;
            tools.extend(page.tools);
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return Ok(tools),
            }
        }
        Err(conn.request_error(
            "tools/list",
            format!("still more pages after {}; giving up", conn.options.max_pages),
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
                        descriptor,
                        validator: ArgValidator::new(),
                        conn: Arc::clone(&self.conn),
                    }));
                }
                Err(e) => {
                    tracing::warn!(server = %self.conn.label, tool = %tool.name, error = %e,
                        "MCP tool left out");
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
        Ok(Err(ServiceError::McpError(e))) => {
            failed(format!("the server refused the call: {}", e.message))
        }
        Ok(Err(ServiceError::TransportClosed | ServiceError::TransportSend(_))) => {
            failed("the server is gone (its connection closed)".into())
        }
        Ok(Err(e)) => failed(e.to_string()),
        Err(_) => failed(format!("no answer within {}", seconds(timeout))),
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
