//! tooldef's client against tooldef's server: pages followed, descriptors back unchanged,
//! calls answered through dispatch on the far side.

mod support;

use serde_json::json;
use support::{toolbox, within};
use tooldef::{Executor, ToolCall, ToolDescriptor};
use tooldef_mcp::client::{ClientOptions, McpClient};
use tooldef_mcp::server::{McpServer, ServerOptions};

#[tokio::test]
async fn every_page_is_followed_and_descriptors_come_back_unchanged() {
    let local = toolbox(10);
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    let server =
        McpServer::from_toolbox(local.clone()).with_options(ServerOptions::default().page_size(4));
    tokio::spawn(server.serve_io(read, write));
    let client = within("connect", McpClient::connect("tooldef", ours, ClientOptions::default()))
        .await
        .unwrap();
    assert_eq!(client.server_info(), Some(("tooldef".into(), env!("CARGO_PKG_VERSION").into())));

    let imported = within("import", client.import()).await.unwrap();
    let back: Vec<&ToolDescriptor> = imported.tools.iter().map(|t| t.descriptor()).collect();
    let sent: Vec<&ToolDescriptor> = local.descriptors().collect();
    assert_eq!(back, sent);

    let weather = &imported.tools[0];
    let result = within(
        "call",
        weather.execute(&ToolCall::new("c1", "get_weather", json!({"city": "Oslo"}))),
    )
    .await;
    assert_eq!((result.is_error, result.structured), (false, Some(json!({"temp": 21.5}))));
}
