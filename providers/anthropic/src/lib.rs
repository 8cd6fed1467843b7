//! tooldef renderer for anthropic (in progress).
