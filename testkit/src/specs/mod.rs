//! Validators that check rendered provider JSON against the providers' own machine-readable wire
//! specifications, kept verbatim in `testkit/specs/` (sources, versions and licences in its README).
//!
//! Every validator takes a [`serde_json::Value`] and returns a [`SpecResult`]: `Ok(())`, or every
//! [`SpecViolation`] found, each naming the JSON pointer into the instance and what is wrong.
//! Specs are parsed and compiled once per test process, so validators are cheap to call often.
//!
//! This is test support: a missing or malformed spec file panics loudly (a test must never pass
//! because its spec could not be read), while a bad *instance* is reported as violations.
//!
//! | provider | module | spec |
//! | --- | --- | --- |
//! | OpenAI Chat Completions and Responses | [`openai`] | `openai/tool-schemas.json` (OpenAPI 3.1) |
//! | MCP | [`mcp`] | `mcp/<version>/schema.json` (JSON Schema) |
//! | Ollama | [`ollama`] | `ollama/openapi.json` (OpenAPI 3.1) |
//! | Gemini API (v1beta) | [`gemini`] | `gemini/generativelanguage-protos.json` (protobuf descriptor) |
//! | Vertex AI | [`vertex`] | `gemini/vertex-aiplatform-v1.discovery-subset.json` (discovery) |
//! | Amazon Bedrock Converse | [`bedrock`] | `bedrock/bedrock-runtime-2023-09-30.service-2.json` (botocore) |
//! | Anthropic | [`anthropic`] | none published; derived from the SDK types |
//!
//! ```
//! use serde_json::json;
//! use tooldef_testkit::specs::{assert_conforms, bedrock, openai, violation_pointers};
//!
//! let tool = json!({"type": "function", "name": "get_weather", "parameters": {"type": "object"}});
//! // The Responses `FunctionTool` schema lists `strict` as required.
//! let result = openai::validate_function_tool(&tool);
//! assert_eq!(violation_pointers(&result), [""]);
//!
//! let spec = json!({"name": "weather.get", "inputSchema": {"json": {"type": "object"}}});
//! let violations = bedrock::validate_tool_specification(&spec).unwrap_err();
//! assert_eq!(violations[0].pointer, "/name");
//!
//! assert_conforms("Responses tool", openai::validate_function_tool(&json!({
//!     "type": "function", "name": "get_weather", "parameters": {"type": "object"}, "strict": false
//! })));
//! ```

pub mod anthropic;
pub mod bedrock;
pub mod gemini;
pub mod mcp;
pub mod ollama;
pub mod openai;
pub mod vertex;

mod json_schema;
mod wire;

use serde_json::Value;
use std::fmt;
use std::path::PathBuf;

/// One way an instance breaks a provider's spec.
#[derive(Clone, PartialEq, Eq)]
pub struct SpecViolation {
    /// JSON pointer (RFC 6901) into the validated instance; `""` is the instance itself.
    pub pointer: String,
    /// What is wrong there, naming the spec rule (e.g. the schema or shape) where it helps.
    pub message: String,
}

impl SpecViolation {
    /// A violation at `pointer` described by `message`.
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self { pointer: pointer.into(), message: message.into() }
    }
}

impl fmt::Display for SpecViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() { "(root)" } else { &self.pointer };
        write!(f, "{pointer}: {}", self.message)
    }
}

// Debug prints like Display so that `result.unwrap()` in a failing test reads well.
impl fmt::Debug for SpecViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The outcome of validating one instance: `Ok(())` or every violation found.
pub type SpecResult = Result<(), Vec<SpecViolation>>;

/// The JSON pointers of a result's violations, in report order (empty when it is `Ok`).
pub fn violation_pointers(result: &SpecResult) -> Vec<&str> {
    match result {
        Ok(()) => Vec::new(),
        Err(violations) => violations.iter().map(|v| v.pointer.as_str()).collect(),
    }
}

/// Panics with every violation listed, one per line, if `result` is an error.
#[track_caller]
pub fn assert_conforms(what: &str, result: SpecResult) {
    if let Err(violations) = result {
        let lines: Vec<String> = violations.iter().map(|v| format!("  {v}")).collect();
        panic!(
            "{what} breaks the provider spec ({} violation(s)):\n{}",
            violations.len(),
            lines.join("\n")
        );
    }
}

/// The directory holding the provider specs: the `specs/` directory of this crate (in the
/// repository, `testkit/specs`). Nothing outside the repository is read.
///
/// # Panics
/// If the directory does not exist: validators must never silently skip.
pub fn specs_dir() -> PathBuf {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/specs"));
    assert!(
        dir.is_dir(),
        "provider specs directory `{}` not found; refusing to skip validation",
        dir.display()
    );
    dir
}

/// `fragment` (an object holding some top-level keys of a request body, e.g. `tools` and
/// `tool_choice`) completed with `defaults` for the required keys it lacks, so that a renderer's
/// request fragment can be checked against a whole-body schema. Keys present in `fragment` are kept
/// as they are (so violation pointers still point into it); a non-object is returned unchanged.
pub fn complete_fragment(fragment: &Value, defaults: &Value) -> Value {
    let mut body = fragment.clone();
    if let (Some(body), Some(defaults)) = (body.as_object_mut(), defaults.as_object()) {
        for (key, value) in defaults {
            if !body.contains_key(key) {
                body.insert(key.clone(), value.clone());
            }
        }
    }
    body
}

/// Reads and parses one spec file, given relative to [`specs_dir`] (e.g. `"mcp/2025-06-18/schema.json"`).
///
/// # Panics
/// If the file is missing or is not JSON.
pub fn load_spec(relative: &str) -> Value {
    let path = specs_dir().join(relative);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read provider spec `{}`: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("provider spec `{}` is not valid JSON: {e}", path.display()))
}
