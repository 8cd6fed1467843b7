//! tooldef renderer for gemini (in progress).
