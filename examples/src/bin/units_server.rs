//! A small MCP server on stdio, written with tooldef: one `#[tool]` that converts lengths,
//! served by `tooldef_mcp::server::McpServer`. The `mcp_host_loop` example starts it as a
//! child process, as a host starts any MCP server.
//!
//! Run by hand: `cargo run -p tooldef-examples --bin units_server` (then speak MCP on stdin).

use serde::{Deserialize, Serialize};
use tooldef::{ToolSchema, Toolbox, tool};
use tooldef_mcp::server::McpServer;

/// A unit of length.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToolSchema)]
#[serde(rename_all = "lowercase")]
enum Length {
    /// Metres.
    Metre,
    /// Feet.
    Foot,
    /// Miles.
    Mile,
}

impl Length {
    fn metres(self) -> f64 {
        match self {
            Length::Metre => 1.0,
            Length::Foot => 0.3048,
            Length::Mile => 1609.344,
        }
    }
}

/// A converted length.
#[derive(Debug, Serialize, ToolSchema)]
struct Converted {
    /// The value in the target unit, rounded to three decimals.
    value: f64,
    /// The target unit.
    unit: Length,
}

/// Convert a length between metres, feet and miles.
#[tool(read_only, idempotent)]
async fn convert_length(
    /// The length to convert.
    #[param(min = 0)]
    value: f64,
    /// Its unit.
    from: Length,
    /// The unit wanted.
    to: Length,
) -> Result<Converted, String> {
    let value = (value * from.metres() / to.metres() * 1000.0).round() / 1000.0;
    Ok(Converted { value, unit: to })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let server = McpServer::from_toolbox(Toolbox::new().with(ConvertLength));
    runtime.block_on(server.serve_stdio())?;
    // The stdin reader may still be blocked in a read: do not wait for it.
    runtime.shutdown_background();
    Ok(())
}
