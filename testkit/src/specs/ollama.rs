//! Ollama, validated against `ollama/openapi.json`: Ollama's own OpenAPI 3.1 document
//! (`docs/openapi.yaml` in `ollama/ollama`, converted to JSON). It is documentation-grade
//! (`info.version` 0.1.0); the server's Go decoder may accept more or less.

use super::json_schema::{Compiled, rewrite_nullable};
use super::{SpecResult, complete_fragment, load_spec};
use jsonschema::Draft;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The spec file, relative to the specs directory.
pub const SPEC: &str = "ollama/openapi.json";

fn document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(|| {
        let mut doc = load_spec(SPEC);
        rewrite_nullable(&mut doc);
        doc
    })
}

fn compile(name: &str) -> Compiled {
    Compiled::new(
        SPEC,
        document(),
        &["components"],
        &format!("#/components/schemas/{name}"),
        Draft::Draft202012,
    )
}

/// A `tools[]` entry: `#/components/schemas/ToolDefinition`
/// (`{"type": "function", "function": {"name", "description"?, "parameters"}}`).
pub fn validate_tool_definition(instance: &Value) -> SpecResult {
    static COMPILED: OnceLock<Compiled> = OnceLock::new();
    COMPILED.get_or_init(|| compile("ToolDefinition")).check(instance)
}

/// A whole `POST /api/chat` body: `#/components/schemas/ChatRequest`.
pub fn validate_chat_request(instance: &Value) -> SpecResult {
    static COMPILED: OnceLock<Compiled> = OnceLock::new();
    COMPILED.get_or_init(|| compile("ChatRequest")).check(instance)
}

/// A fragment of a `POST /api/chat` body (e.g. `{"tools": [...]}`), validated as a whole body after
/// filling in a placeholder `model` and `messages` if absent.
pub fn validate_chat_fragment(fragment: &Value) -> SpecResult {
    let defaults = json!({"model": "llama3.2", "messages": [{"role": "user", "content": "hi"}]});
    validate_chat_request(&complete_fragment(fragment, &defaults))
}
