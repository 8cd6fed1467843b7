//! The providers the command knows: their names, and the renderer for each.
//!
//! Owns the mapping from a provider name on the command line to a configured
//! [`tooldef::Renderer`] from the provider crates.

use tooldef::Renderer;
use tooldef_anthropic::AnthropicRenderer;
use tooldef_bedrock::BedrockRenderer;
use tooldef_gemini::GeminiRenderer;
use tooldef_mcp::McpRenderer;
use tooldef_ollama::OllamaRenderer;
use tooldef_openai::OpenAiRenderer;

/// A provider target of `render` and `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Provider {
    OpenAiChat,
    OpenAiResponses,
    Anthropic,
    Gemini,
    GeminiOpenApi,
    Ollama,
    Mcp,
    Bedrock,
}

impl Provider {
    /// Every provider, in the order `check` reports them.
    pub(crate) const ALL: [Provider; 8] = [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::GeminiOpenApi,
        Provider::Ollama,
        Provider::Mcp,
        Provider::Bedrock,
    ];

    /// The name on the command line.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Provider::OpenAiChat => "openai-chat",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
            Provider::GeminiOpenApi => "gemini-openapi",
            Provider::Ollama => "ollama",
            Provider::Mcp => "mcp",
            Provider::Bedrock => "bedrock",
        }
    }

    /// The provider named `name`.
    pub(crate) fn parse(name: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The renderer; `strict` turns on the provider's strict mode where it has one.
    pub(crate) fn renderer(self, strict: bool) -> Box<dyn Renderer> {
        match self {
            Provider::OpenAiChat => Box::new(OpenAiRenderer::chat().strict(strict)),
            Provider::OpenAiResponses => Box::new(OpenAiRenderer::responses().strict(strict)),
            Provider::Anthropic => Box::new(AnthropicRenderer::new().strict(strict)),
            // Gemini's strictness is per request (`VALIDATED` mode); per tool, only the policy.
            Provider::Gemini => Box::new(GeminiRenderer::new()),
            Provider::GeminiOpenApi => Box::new(GeminiRenderer::openapi()),
            // Ollama and MCP have no strict mode.
            Provider::Ollama => Box::new(OllamaRenderer::new()),
            Provider::Mcp => Box::new(McpRenderer::new()),
            Provider::Bedrock if strict => Box::new(BedrockRenderer::strict()),
            Provider::Bedrock => Box::new(BedrockRenderer::new()),
        }
    }
}

/// An input format of `import`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ImportFormat {
    Mcp,
    OpenAi,
    Anthropic,
    Gemini,
}

impl ImportFormat {
    /// Every format, in the order help texts list them.
    pub(crate) const ALL: [ImportFormat; 4] =
        [ImportFormat::Mcp, ImportFormat::OpenAi, ImportFormat::Anthropic, ImportFormat::Gemini];

    /// The name on the command line (`--from NAME`).
    pub(crate) fn name(self) -> &'static str {
        match self {
            ImportFormat::Mcp => "mcp",
            ImportFormat::OpenAi => "openai",
            ImportFormat::Anthropic => "anthropic",
            ImportFormat::Gemini => "gemini",
        }
    }

    /// The format named `name`.
    pub(crate) fn parse(name: &str) -> Option<ImportFormat> {
        ImportFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}
