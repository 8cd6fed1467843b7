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

    use hyper::server::conn::http1;
    use hyper_util::rt::TokioIo;
    use hyper_util::service::TowerToHyperService;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };

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
            let service = StreamableHttpService::new(
                move || Ok(server.session()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            );
            loop {
                let (stream, peer) = listener.accept().await?;
                let service = TowerToHyperService::new(service.clone());
                tokio::spawn(async move {
                    let served = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .with_upgrades()
                        .await;
                    if let Err(e) = served {
                        tracing::debug!(%peer, error = %e, "HTTP connection ended with an error");
                    }
                });
            }
        }
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
