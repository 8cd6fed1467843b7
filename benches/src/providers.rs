//! The providers the benchmarks cover: each tooldef renderer with the wire envelope a
//! schemars user wraps around `schema_for!` to send the same tool to the same API.

use serde_json::{Value, json};
use tooldef::Renderer;
use tooldef_anthropic::AnthropicRenderer;
use tooldef_bedrock::BedrockRenderer;
use tooldef_gemini::GeminiRenderer;
use tooldef_mcp::McpRenderer;
use tooldef_ollama::OllamaRenderer;
use tooldef_openai::OpenAiRenderer;

/// How a provider wraps a tool's name, description and parameter schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Envelope {
    /// `{"type":"function","function":{name, description, parameters}}`.
    OpenAiChat,
    /// `{"type":"function", name, description, parameters, "strict": false}` (an absent
    /// `strict` makes the Responses API try strict mode, so tooldef always writes it).
    OpenAiResponses,
    /// `{name, description, input_schema}`.
    Anthropic,
    /// Gemini function declaration: `{name, description, parametersJsonSchema}`.
    Gemini,
    /// Ollama: the OpenAI Chat shape.
    Ollama,
    /// MCP `Tool`: `{name, description, inputSchema}` (what rmcp lists).
    Mcp,
    /// Bedrock Converse: `{"toolSpec": {name, description, "inputSchema": {"json": ...}}}`.
    Bedrock,
}

impl Envelope {
    /// The wire object of one tool.
    pub fn wrap(self, name: &str, description: &str, schema: Value) -> Value {
        match self {
            Envelope::OpenAiChat => json!({
                "type": "function",
                "function": {"name": name, "description": description, "parameters": schema},
            }),
            Envelope::OpenAiResponses => json!({
                "type": "function",
                "name": name,
                "description": description,
                "parameters": schema,
                "strict": false,
            }),
            Envelope::Anthropic => {
                json!({"name": name, "description": description, "input_schema": schema})
            }
            Envelope::Gemini => {
                json!({"name": name, "description": description, "parametersJsonSchema": schema})
            }
            Envelope::Ollama => Envelope::OpenAiChat.wrap(name, description, schema),
            Envelope::Mcp => {
                json!({"name": name, "description": description, "inputSchema": schema})
            }
            Envelope::Bedrock => json!({
                "toolSpec": {"name": name, "description": description, "inputSchema": {"json": schema}},
            }),
        }
    }

    /// The parameter schema inside one wire object of this envelope.
    pub fn parameters(self, tool: &Value) -> Option<&Value> {
        match self {
            Envelope::OpenAiChat | Envelope::Ollama => tool.pointer("/function/parameters"),
            Envelope::OpenAiResponses => tool.get("parameters"),
            Envelope::Anthropic => tool.get("input_schema"),
            Envelope::Gemini => tool.get("parametersJsonSchema"),
            Envelope::Mcp => tool.get("inputSchema"),
            Envelope::Bedrock => tool.pointer("/toolSpec/inputSchema/json"),
        }
    }
}

/// One provider: an id for benchmark names, tooldef's renderer, the schemars envelope.
pub struct Provider {
    /// Used in benchmark and report names (`openai_chat`).
    pub id: &'static str,
    /// tooldef's renderer (non-strict).
    pub renderer: Box<dyn Renderer + Send + Sync>,
    /// The envelope for the schemars baseline.
    pub envelope: Envelope,
}

/// Every provider tooldef renders for (non-strict; Gemini in its `parametersJsonSchema` form).
pub fn providers() -> Vec<Provider> {
    vec![
        Provider {
            id: "openai_chat",
            renderer: Box::new(OpenAiRenderer::chat()),
            envelope: Envelope::OpenAiChat,
        },
        Provider {
            id: "openai_responses",
            renderer: Box::new(OpenAiRenderer::responses()),
            envelope: Envelope::OpenAiResponses,
        },
        Provider {
            id: "anthropic",
            renderer: Box::new(AnthropicRenderer::new()),
            envelope: Envelope::Anthropic,
        },
        Provider {
            id: "gemini",
            renderer: Box::new(GeminiRenderer::new()),
            envelope: Envelope::Gemini,
        },
        Provider {
            id: "ollama",
            renderer: Box::new(OllamaRenderer::new()),
            envelope: Envelope::Ollama,
        },
        Provider { id: "mcp", renderer: Box::new(McpRenderer::new()), envelope: Envelope::Mcp },
        Provider {
            id: "bedrock",
            renderer: Box::new(BedrockRenderer::new()),
            envelope: Envelope::Bedrock,
        },
    ]
}
