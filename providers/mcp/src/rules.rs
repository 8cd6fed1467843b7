//! MCP's rules: the tool-name rule the renderer checks (and name mapping fits).

use tooldef::render::{NameRule, NameRules};

fn mcp_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// MCP's tool-name rule: 1 to 128 characters of `A-Za-z0-9_.-`.
pub const TOOL_NAME: NameRule = NameRule {
    pattern: "^[A-Za-z0-9_.-]{1,128}$",
    max_len: 128,
    allowed: mcp_name_byte,
    first: mcp_name_byte,
};

/// What the renderer checks: tool names only (property names are any JSON Schema key).
pub(crate) const NAME_RULES: NameRules = NameRules::tools(TOOL_NAME);
