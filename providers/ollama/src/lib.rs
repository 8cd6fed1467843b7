//! tooldef renderer for ollama (in progress).
