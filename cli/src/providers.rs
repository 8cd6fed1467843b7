//! The providers the command knows: their names, and the renderer for each.
//!
//! Owns the mapping from a provider name on the command line to a configured
//! [`tooldef::Renderer`] from the provider crates.

use tooldef::Renderer;
use tooldef_anthropic::AnthropicRenderer;
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
    pub(crate) fn renderer(self, strict: bool) -> Result<Box<dyn Renderer>, String> {
        Ok(match self {
            Provider::OpenAiChat => Box::new(OpenAiRenderer::chat().strict(strict)),
            Provider::OpenAiResponses => Box::new(OpenAiRenderer::responses().strict(strict)),
            Provider::Anthropic => Box::new(AnthropicRenderer::new().strict(strict)),
            other => return Err(format!("provider `{}` is not built in yet", other.name())),
        })
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
    /// The format named `name`.
    pub(crate) fn parse(name: &str) -> Option<ImportFormat> {
        match name {
            "mcp" => Some(ImportFormat::Mcp),
            "openai" => Some(ImportFormat::OpenAi),
            "anthropic" => Some(ImportFormat::Anthropic),
            "gemini" => Some(ImportFormat::Gemini),
            _ => None,
        }
    }
}
