//! Streamable HTTP, both sides (features `http-server` and `http-client`): an [`McpServer`](crate::server::McpServer)
//! served on a TCP listener through rmcp's `StreamableHttpService` (one fresh session state per
//! client session, the same tools), and [`McpClient::connect_http`](crate::client::McpClient::connect_http) to use an HTTP MCP server's
//! tools.
//!
//! The server keeps rmcp's defaults: DNS-rebinding protection that accepts only `localhost`,
//! `127.0.0.1` and `::1` as `Host`, sessions for clients on the session lifecycle, stateless
//! answers for 2026-07-28 clients. Owns only the socket wiring; the protocol is
//! `crate::server`'s and `crate::client`'s.

#[cfg(feature = "http-server")]
mod serve {
    use std::sync::Arc;

    use std::convert::Infallible;

    use http_body_util::combinators::BoxBody;
    use http_body_util::{BodyExt, Full, LengthLimitError, Limited};
    use hyper::body::{Bytes, Incoming};
    use hyper::server::conn::http1;
    use hyper::service::service_fn;
    use hyper::{Request, Response, StatusCode};
    use hyper_util::rt::TokioIo;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };

    use crate::screen::take_arguments;
    use crate::server::McpServer;

    impl McpServer {
        /// Serves streamable HTTP on `listener` (every path) until the future is dropped;
        /// each client session gets its own [`session`](McpServer::session).
        ///
        /// # Errors
        ///
        /// Accepting a connection failed.
        pub async fn serve_http(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
            let server = self;
            let config = StreamableHttpServerConfig::default();
            let max_body = config.max_request_body_bytes;
            let service = StreamableHttpService::new(
                move || Ok(server.session()),
                Arc::new(LocalSessionManager::default()),
                config,
            );
            loop {
                let (stream, peer) = listener.accept().await?;
                let service = service.clone();
                let handler = service_fn(move |request: Request<Incoming>| {
                    let service = service.clone();
                    async move {
                        Ok::<_, Infallible>(match screened(request, max_body).await {
                            Ok(request) => service.handle(request).await,
                            Err(refusal) => refusal,
                        })
                    }
                });
                tokio::spawn(async move {
                    let served = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), handler)
                        .with_upgrades()
                        .await;
                    if let Err(e) = served {
                        tracing::debug!(%peer, error = %e, "HTTP connection ended with an error");
                    }
                });
            }
        }
    }

    /// `request` with its body read (at most `max_body` bytes, rmcp's own limit) and a
    /// `tools/call`'s arguments taken out of it into the request's extensions, as the text the
    /// client wrote (`crate::screen`); a body over the limit or cut short is answered here.
    async fn screened(
        request: Request<Incoming>,
        max_body: usize,
    ) -> Result<Request<Full<Bytes>>, Response<BoxBody<Bytes, Infallible>>> {
        let (parts, body) = request.into_parts();
        let bytes = match Limited::new(body, max_body).collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(e) => {
                let (status, text) = if e.is::<LengthLimitError>() {
                    (
                        StatusCode::PAYLOAD_TOO_LARGE,
                        format!("Payload Too Large: request body exceeds {max_body} bytes"),
                    )
                } else {
                    (
                        StatusCode::BAD_REQUEST,
                        format!("Bad Request: the body could not be read: {e}"),
                    )
                };
                let mut response = Response::new(Full::new(Bytes::from(text)).boxed());
                *response.status_mut() = status;
                return Err(response);
            }
        };
        let (mut parts, bytes) = (parts, bytes);
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
