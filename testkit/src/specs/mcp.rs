//! Model Context Protocol, validated against the official `mcp/<version>/schema.json` files
//! (`modelcontextprotocol/modelcontextprotocol`, `schema/<version>/schema.json`). 2025-06-18 is
//! draft-07 (`definitions`); 2025-11-25 and 2026-07-28 are draft 2020-12 (`$defs`).

use super::json_schema::Compiled;
use super::{SpecResult, load_spec};
use jsonschema::Draft;
use serde_json::Value;
use std::fmt;
use std::sync::OnceLock;

/// A dated MCP schema version present in the specs directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum McpVersion {
    /// `2025-06-18`, the widely deployed version (draft-07).
    V2025_06_18,
    /// `2025-11-25` (draft 2020-12).
    V2025_11_25,
    /// `2026-07-28`, the latest (draft 2020-12; results carry `resultType`, list results caching fields).
    V2026_07_28,
}

impl McpVersion {
    /// Every version, oldest first.
    pub const ALL: [Self; 3] = [Self::V2025_06_18, Self::V2025_11_25, Self::V2026_07_28];

    /// The version's date, as used in the protocol and the spec path.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::V2025_06_18 => "2025-06-18",
            Self::V2025_11_25 => "2025-11-25",
            Self::V2026_07_28 => "2026-07-28",
        }
    }

    /// The spec file, relative to the specs directory.
    pub fn spec(self) -> String {
        format!("mcp/{}/schema.json", self.as_str())
    }

    const fn slot(self) -> usize {
        self as usize
    }

    const fn draft(self) -> (Draft, &'static str) {
        match self {
            Self::V2025_06_18 => (Draft::Draft7, "definitions"),
            Self::V2025_11_25 | Self::V2026_07_28 => (Draft::Draft202012, "$defs"),
        }
    }
}

impl fmt::Display for McpVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

type Slots = [OnceLock<Compiled>; 3];

fn document(version: McpVersion) -> &'static Value {
    static DOCS: [OnceLock<Value>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    DOCS[version.slot()].get_or_init(|| load_spec(&version.spec()))
}

fn compile(version: McpVersion, name: &str) -> Compiled {
    let (draft, defs) = version.draft();
    Compiled::new(&version.spec(), document(version), &[defs], &format!("#/{defs}/{name}"), draft)
}

fn check(slots: &'static Slots, version: McpVersion, name: &str, instance: &Value) -> SpecResult {
    slots[version.slot()].get_or_init(|| compile(version, name)).check(instance)
}

/// A tool definition (`Tool`: `name` and `inputSchema` with `type: "object"` required).
pub fn validate_tool(version: McpVersion, instance: &Value) -> SpecResult {
    static SLOTS: Slots = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    check(&SLOTS, version, "Tool", instance)
}

/// A `tools/call` result (`CallToolResult`).
pub fn validate_call_tool_result(version: McpVersion, instance: &Value) -> SpecResult {
    static SLOTS: Slots = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    check(&SLOTS, version, "CallToolResult", instance)
}

/// A `tools/list` result (`ListToolsResult`; 2026-07-28 also requires `resultType`, `cacheScope`, `ttlMs`).
pub fn validate_list_tools_result(version: McpVersion, instance: &Value) -> SpecResult {
    static SLOTS: Slots = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    check(&SLOTS, version, "ListToolsResult", instance)
}

/// Validates against any definition of the version's schema by name (e.g. `"ToolAnnotations"`,
/// `"CallToolRequest"`); compiled on every call, so prefer the named functions in loops.
pub fn validate_definition(version: McpVersion, name: &str, instance: &Value) -> SpecResult {
    compile(version, name).check(instance)
}
