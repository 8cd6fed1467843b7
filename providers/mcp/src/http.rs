//! Streamable HTTP, both sides (features `http-server` and `http-client`): an [`McpServer`](crate::server::McpServer)
//! served on a TCP listener through rmcp's `StreamableHttpService` (one fresh session state per
//! client session, the same tools), and [`McpClient::connect_http`](crate::client::McpClient::connect_http) to use an HTTP MCP server's
//! tools.
//!
//! The server is meant for a loopback listener (`127.0.0.1`, `[::1]`): it has no
//! authentication. It keeps rmcp's DNS-rebinding protection, which accepts only `localhost`,
//! `127.0.0.1` and `::1` as `Host` (a check of what the client says, not of who it is),
//! refuses a browser `Origin` that is not loopback (MCP's transport security; more with
//! [`HttpOptions::allow_origin`]), serves sessions to clients on the session lifecycle and
//! stateless answers to 2026-07-28 clients. Every resource a peer can hold is bounded
//! ([`HttpOptions`]): connections, sessions, and the time a connection may take to send a
//! request's head and body or may sit idle. An accept error (the process out of descriptors)
//! is logged and retried after a pause; it never stops the server.
//!
//! Owns the socket wiring and its limits (`conn` the per-connection time limits, `sessions`
//! the session cap); the protocol is `crate::server`'s and `crate::client`'s.

#[cfg(feature = "http-server")]
mod conn;
#[cfg(feature = "http-server")]
mod sessions;

#[cfg(feature = "http-server")]
pub use serve::HttpOptions;

#[cfg(feature = "http-server")]
mod serve {
    use std::convert::Infallible;
    use std::sync::Arc;
    use std::time::Duration;

    use http_body_util::combinators::BoxBody;
    use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
    use hyper::body::{Bytes, Incoming};
    use hyper::server::conn::http1;
    use hyper::service::service_fn;
    use hyper::{Method, Request, Response, StatusCode};
    use hyper_util::rt::TokioIo;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    use tokio::net::TcpStream;
    use tokio::sync::Semaphore;

    use super::conn::{TrackedBody, Watch, Watched, watched};
    use super::sessions::Sessions;
    use crate::lines::{check_request, refusal};
    use crate::screen::take_arguments;
    use crate::server::McpServer;

    /// The origins a browser page may call the server from without
    /// [`HttpOptions::allow_origin`]: loopback, over `http` or `https`, on any port.
    const LOOPBACK_ORIGINS: [&str; 6] = [
        "http://localhost:*",
        "https://localhost:*",
        "http://127.0.0.1:*",
        "https://127.0.0.1:*",
        "http://[::1]:*",
        "https://[::1]:*",
    ];

    /// Connections past [`HttpOptions::max_connections`] answered `503` at once; past these,
    /// a connection is closed without an answer.
    const MAX_REFUSALS: usize = 32;

    /// The longest pause between two failed accepts.
    const MAX_ACCEPT_PAUSE: Duration = Duration::from_secs(1);

    /// The limits and allowed origins of [`McpServer::serve_http_with`]; each bounds what
    /// peers can make the server hold. Built like [`ServerOptions`](crate::server::ServerOptions):
    /// `HttpOptions::default().max_sessions(64).allow_origin("https://app.example:443")`.
    #[derive(Clone, Debug)]
    pub struct HttpOptions {
        /// Connections served at once (default 256). Past it, a connection is answered
        /// `503 Service Unavailable` and closed.
        pub max_connections: usize,
        /// Live sessions (default 256; each holds its session state, tens of KB). Past it, an
        /// `initialize` is answered `503 Service Unavailable`; 2026-07-28 requests, which
        /// need no session, are still served.
        pub max_sessions: usize,
        /// How long a connection may stay open with no request in progress and no byte of a
        /// next one (default 60 s); then it is closed.
        pub idle_timeout: Duration,
        /// How long a request's head (request line and headers) may take from its first byte
        /// (default 10 s); then the connection is closed.
        pub header_read_timeout: Duration,
        /// How long a request's body may take from the end of its head (default 30 s); then
        /// the request is answered `408 Request Timeout` and the connection closed.
        pub body_read_timeout: Duration,
        /// How long a session may live after `initialize` without making a request or opening
        /// its event stream (default 30 s); then it is closed, and its slot freed.
        pub unused_session_timeout: Duration,
        /// How long a session may go without any message before it is closed (default 300 s).
        pub session_idle_timeout: Duration,
        /// How long the server waits before accepting again after an accept fails (default
        /// 50 ms, doubling while failures go on, to at most 1 s).
        pub accept_error_pause: Duration,
        /// Browser origins allowed besides loopback (empty by default), as
        /// `scheme://host:port`, `scheme://host:*` for any port, or `null`. A request with
        /// another `Origin` is answered `403 Forbidden`; one with none (not from a browser)
        /// is served.
        pub allowed_origins: Vec<String>,
    }

    impl Default for HttpOptions {
        fn default() -> Self {
            HttpOptions {
                max_connections: 256,
                max_sessions: 256,
                idle_timeout: Duration::from_secs(60),
                header_read_timeout: Duration::from_secs(10),
                body_read_timeout: Duration::from_secs(30),
                unused_session_timeout: Duration::from_secs(30),
                session_idle_timeout: Duration::from_secs(300),
                accept_error_pause: Duration::from_millis(50),
                allowed_origins: Vec::new(),
            }
        }
    }

    impl HttpOptions {
        /// At most `n` connections at once.
        #[must_use]
        pub fn max_connections(mut self, n: usize) -> Self {
            self.max_connections = n;
            self
        }

        /// At most `n` live sessions.
        #[must_use]
        pub fn max_sessions(mut self, n: usize) -> Self {
            self.max_sessions = n;
            self
        }

        /// The idle limit of a connection.
        #[must_use]
        pub fn idle_timeout(mut self, limit: Duration) -> Self {
            self.idle_timeout = limit;
            self
        }

        /// The time limit of a request's head.
        #[must_use]
        pub fn header_read_timeout(mut self, limit: Duration) -> Self {
            self.header_read_timeout = limit;
            self
        }

        /// The time limit of a request's body.
        #[must_use]
        pub fn body_read_timeout(mut self, limit: Duration) -> Self {
            self.body_read_timeout = limit;
            self
        }

        /// The lifetime of a session that makes no request after `initialize`.
        #[must_use]
        pub fn unused_session_timeout(mut self, limit: Duration) -> Self {
            self.unused_session_timeout = limit;
            self
        }

        /// The idle limit of a session.
        #[must_use]
        pub fn session_idle_timeout(mut self, limit: Duration) -> Self {
            self.session_idle_timeout = limit;
            self
        }

        /// The first pause after a failed accept.
        #[must_use]
        pub fn accept_error_pause(mut self, pause: Duration) -> Self {
            self.accept_error_pause = pause;
            self
        }

        /// Also allows browser pages of `origin` (`https://app.example:443`,
        /// `https://app.example:*`, or `null`).
        #[must_use]
        pub fn allow_origin(mut self, origin: impl Into<String>) -> Self {
            self.allowed_origins.push(origin.into());
            self
        }
    }

    impl McpServer {
        /// Serves streamable HTTP on `listener` (every path) with the default [`HttpOptions`]
        /// until the future is dropped; each client session gets its own
        /// [`session`](McpServer::session). See [`serve_http_with`](McpServer::serve_http_with).
        ///
        /// # Errors
        ///
        /// None: an accept error is logged and retried. (The `Result` is kept for callers
        /// written when it stopped the server.)
        pub async fn serve_http(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
            self.serve_http_with(listener, HttpOptions::default()).await
        }

        /// Serves streamable HTTP on `listener` (every path) within `options`' limits until
        /// the future is dropped.
        ///
        /// Bind a loopback address (`127.0.0.1:PORT`): the server has no authentication, and
        /// its `Host` check (only `localhost`, `127.0.0.1`, `::1`) guards against DNS
        /// rebinding, not against whoever can reach the port; put anything wider behind a proxy
        /// that authenticates. Browser pages are refused unless their `Origin` is loopback or
        /// allowed by [`HttpOptions::allow_origin`].
        ///
        /// An accept error (out of descriptors, say) is logged through `tracing` and retried
        /// after [`HttpOptions::accept_error_pause`]; connections already open go on.
        ///
        /// # Errors
        ///
        /// None: the future runs until dropped. (The `Result` matches
        /// [`serve_http`](McpServer::serve_http).)
        pub async fn serve_http_with(
            self,
            listener: tokio::net::TcpListener,
            options: HttpOptions,
        ) -> std::io::Result<()> {
            let server = self;
            let options = Arc::new(options);
            let config = StreamableHttpServerConfig::default()
                .with_allowed_origins(
                    LOOPBACK_ORIGINS
                        .iter()
                        .map(|o| (*o).to_owned())
                        .chain(options.allowed_origins.iter().cloned()),
                )
                .enforce_origin_validation();
            let max_body = config.max_request_body_bytes;
            let sessions = Arc::new(Sessions::new(
                options.max_sessions,
                options.session_idle_timeout,
                options.unused_session_timeout,
            ));
            let service =
                StreamableHttpService::new(move || Ok(server.session()), sessions, config);
            let connections = Arc::new(Semaphore::new(options.max_connections));
            let refusals = Arc::new(Semaphore::new(MAX_REFUSALS));
            let mut pause = options.accept_error_pause;
            let mut failing = false;
            loop {
                let (stream, peer) = match listener.accept().await {
                    Ok(accepted) => {
                        if failing {
                            tracing::info!("accepting connections again");
                        }
                        failing = false;
                        pause = options.accept_error_pause;
                        accepted
                    }
                    Err(e) if per_connection(&e) => {
                        tracing::debug!(error = %e, "a connection failed before it was accepted");
                        continue;
                    }
                    Err(e) => {
                        if failing {
                            tracing::debug!(error = %e, "accept failed again; retrying");
                        } else {
                            tracing::warn!(error = %e, pause = ?pause, "accept failed; retrying after a pause");
                        }
                        failing = true;
                        tokio::time::sleep(pause).await;
                        pause = (pause * 2).min(MAX_ACCEPT_PAUSE.max(options.accept_error_pause));
                        continue;
                    }
                };
                // An answer is written in pieces (an event stream's priming event, then the
                // message): without this, each later piece waits for the client's delayed ACK
                // (about 40 ms a call on Linux loopback).
                if let Err(e) = stream.set_nodelay(true) {
                    tracing::debug!(%peer, error = %e, "TCP_NODELAY not set");
                }
                let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else {
                    refuse(stream, &refusals, &options);
                    continue;
                };
                let service = service.clone();
                let options = Arc::clone(&options);
                tokio::spawn(async move {
                    let _permit = permit;
                    serve_connection(stream, peer, service, max_body, &options).await;
                });
            }
        }
    }

    type Service = StreamableHttpService<McpServer, Sessions>;

    /// Serves one accepted connection within the time limits.
    async fn serve_connection(
        stream: TcpStream,
        peer: std::net::SocketAddr,
        service: Service,
        max_body: usize,
        options: &HttpOptions,
    ) {
        let watch = Watch::new();
        let body_timeout = options.body_read_timeout;
        let handler = {
            let watch = Arc::clone(&watch);
            service_fn(move |request: Request<Incoming>| {
                let in_flight = watch.begin();
                let service = service.clone();
                async move {
                    let response = handle(&service, request, max_body, body_timeout).await;
                    Ok::<_, Infallible>(response.map(|body| TrackedBody::new(body, in_flight)))
                }
            })
        };
        // No hyper header timer: `watched` times a head from its first byte and an idle
        // connection apart (hyper's timer would count the idle wait into the head's time).
        let connection = http1::Builder::new()
            .header_read_timeout(None)
            .serve_connection(TokioIo::new(Watched::new(stream, Arc::clone(&watch))), handler)
            .with_upgrades();
        match watched(connection, &watch, options.idle_timeout, options.header_read_timeout).await {
            Some(Ok(())) => {}
            Some(Err(e)) => {
                tracing::debug!(%peer, error = %e, "HTTP connection ended with an error");
            }
            None => tracing::debug!(%peer, "HTTP connection closed: idle, or its head too slow"),
        }
    }

    /// One request: its body read and screened, then rmcp's answer (a session refused for
    /// the cap answered `503`).
    async fn handle(
        service: &Service,
        request: Request<Incoming>,
        max_body: usize,
        body_timeout: Duration,
    ) -> Response<BoxBody<Bytes, Infallible>> {
        let request = match screened(request, max_body, body_timeout).await {
            Ok(request) => request,
            Err(refusal) => return refusal,
        };
        let (response, refused) = Sessions::watch(service.handle(request)).await;
        if refused {
            return text_response(
                StatusCode::SERVICE_UNAVAILABLE,
                "Service Unavailable: the server holds its limit of sessions; close one or try \
                 again later"
                    .to_owned(),
            );
        }
        response
    }

    /// Whether an accept error belongs to one connection (the next accept may well succeed)
    /// rather than to the listener or the process.
    fn per_connection(e: &std::io::Error) -> bool {
        use std::io::ErrorKind::{ConnectionAborted, ConnectionReset, Interrupted};
        matches!(e.kind(), ConnectionAborted | ConnectionReset | Interrupted)
    }

    /// Answers a connection past the cap `503` and closes it, within the head's time limit;
    /// past [`MAX_REFUSALS`] refusals at once, closes it at once.
    fn refuse(stream: TcpStream, refusals: &Arc<Semaphore>, options: &HttpOptions) {
        let Ok(permit) = Arc::clone(refusals).try_acquire_owned() else {
            tracing::debug!("connection closed unanswered: the connection limit is reached");
            return;
        };
        tracing::warn!(
            max = options.max_connections,
            "connection refused: the connection limit is reached"
        );
        let text = format!(
            "Service Unavailable: the server holds its limit of {} connections; try again later",
            options.max_connections
        );
        let limit = options.header_read_timeout;
        tokio::spawn(async move {
            let _permit = permit;
            let handler = service_fn(move |_: Request<Incoming>| {
                let text = text.clone();
                async move { Ok::<_, Infallible>(text_response(StatusCode::SERVICE_UNAVAILABLE, text)) }
            });
            let connection = http1::Builder::new()
                .keep_alive(false)
                .header_read_timeout(None)
                .serve_connection(TokioIo::new(stream), handler);
            let _ = tokio::time::timeout(limit, connection).await;
        });
    }

    fn text_response(status: StatusCode, text: String) -> Response<BoxBody<Bytes, Infallible>> {
        let mut response = Response::new(Full::new(Bytes::from(text)).boxed());
        *response.status_mut() = status;
        response
    }

    /// `request` with its body read (at most `max_body` bytes, rmcp's own limit, within
    /// `timeout`) and a `tools/call`'s arguments taken out of it into the request's
    /// extensions, as the text the client wrote (`crate::screen`); a body over the limit, cut
    /// short or too slow is answered here.
    async fn screened(
        request: Request<Incoming>,
        max_body: usize,
        timeout: Duration,
    ) -> Result<Request<Full<Bytes>>, Response<BoxBody<Bytes, Infallible>>> {
        let (mut parts, body) = request.into_parts();
        if parts.method == Method::GET || parts.method == Method::DELETE {
            // rmcp reads no body of these; do not wait for one.
            return Ok(Request::from_parts(parts, Full::new(Bytes::new())));
        }
        let read = tokio::time::timeout(timeout, Limited::new(body, max_body).collect()).await;
        let bytes = match read {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(e)) if e.is::<LengthLimitError>() => {
                return Err(text_response(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("Payload Too Large: request body exceeds {max_body} bytes"),
                ));
            }
            Ok(Err(e)) => {
                return Err(text_response(
                    StatusCode::BAD_REQUEST,
                    format!("Bad Request: the body could not be read: {e}"),
                ));
            }
            Err(_) => {
                return Err(text_response(
                    StatusCode::REQUEST_TIMEOUT,
                    format!("Request Timeout: the body did not arrive within {timeout:?}"),
                ));
            }
        };
        // A request rmcp would refuse at the HTTP level (`params` an array or a string, a
        // `tools/call` without a string `name`) goes on as the stdio reader sends it on: as
        // the request of its refusal, which the server answers with a JSON-RPC error for its id.
        let refused = match check_request(bytes.trim_ascii()) {
            Some((id, code, message)) if parts.method == Method::POST => {
                tracing::debug!(id, message, "a request rmcp cannot read was refused");
                let mut body = Vec::new();
                refusal(&mut body, id, code, &message);
                Some(body)
            }
            _ => None,
        };
        let bytes = refused.map_or(bytes, Bytes::from);
        let bytes = match take_arguments(bytes.trim_ascii()) {
            Some((screened, arguments)) => {
                // Beside the message, where no byte of the request can write.
                parts.extensions.insert(arguments);
                Bytes::from(screened)
            }
            None => bytes,
        };
        Ok(Request::from_parts(parts, Full::new(bytes)))
    }
}

#[cfg(feature = "http-client")]
mod connect {
    use rmcp::transport::StreamableHttpClientTransport;

    use crate::client::{ClientError, ClientOptions, McpClient};

    impl McpClient {
        /// Speaks MCP to the streamable-HTTP endpoint at `url` (`http://127.0.0.1:8080/mcp`).
        ///
        /// # Errors
        ///
        /// [`ClientError::Start`] when the opening exchange fails or times out.
        pub async fn connect_http(url: &str, options: ClientOptions) -> Result<Self, ClientError> {
            let transport = StreamableHttpClientTransport::from_uri(url.to_owned());
            McpClient::connect(url, transport, options).await
        }
    }
}
