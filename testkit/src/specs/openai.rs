//! OpenAI Chat Completions and Responses, validated against `openai/tool-schemas.json`: the subset
//! of OpenAI's published OpenAPI 3.1 document (`openai/openai-openapi`) reachable from the tool and
//! request-body schemas. OpenAPI 3.0 `nullable: true` leftovers are rewritten to 2020-12 first;
//! `discriminator`, `x-*` and `example` are annotations the validator ignores.

use super::json_schema::{Compiled, rewrite_nullable};
use super::{SpecResult, complete_fragment, load_spec};
use jsonschema::Draft;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// The spec file, relative to the specs directory.
pub const SPEC: &str = "openai/tool-schemas.json";

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

macro_rules! root {
    ($(#[$doc:meta])* $fn:ident => $name:literal) => {
        $(#[$doc])*
        pub fn $fn(instance: &Value) -> SpecResult {
            static COMPILED: OnceLock<Compiled> = OnceLock::new();
            COMPILED.get_or_init(|| compile($name)).check(instance)
        }
    };
}

root!(
    /// A Chat Completions `tools[]` entry: `#/components/schemas/ChatCompletionTool`
    /// (`{"type": "function", "function": {"name", "description"?, "parameters"?, "strict"?}}`).
    validate_chat_completion_tool => "ChatCompletionTool"
);
root!(
    /// A Chat Completions `function` object on its own: `#/components/schemas/FunctionObject`.
    validate_function_object => "FunctionObject"
);
root!(
    /// A Responses `tools[]` function entry: `#/components/schemas/FunctionTool` (flat; `type`, `name`,
    /// `parameters` and `strict` required, the last two nullable).
    validate_function_tool => "FunctionTool"
);
root!(
    /// A whole `POST /chat/completions` body: `#/components/schemas/CreateChatCompletionRequest`.
    validate_create_chat_completion_request => "CreateChatCompletionRequest"
);
root!(
    /// A whole `POST /responses` body: `#/components/schemas/CreateResponse`.
    validate_create_response => "CreateResponse"
);

/// Validates against any schema of the subset by name (e.g. `"ToolChoiceOptions"`); compiled on
/// every call, so prefer the named functions in loops.
pub fn validate_component(name: &str, instance: &Value) -> SpecResult {
    compile(name).check(instance)
}

/// A fragment of a `POST /chat/completions` body (e.g. `{"tools": [...], "tool_choice": ...}`),
/// validated as a whole body after filling in a placeholder `model` and `messages` if absent.
pub fn validate_chat_completion_fragment(fragment: &Value) -> SpecResult {
    let defaults = json!({"model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}]});
    validate_create_chat_completion_request(&complete_fragment(fragment, &defaults))
}
