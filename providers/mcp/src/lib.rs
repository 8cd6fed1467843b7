//! tooldef renderer for mcp (in progress).
