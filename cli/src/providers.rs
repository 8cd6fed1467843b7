//! The providers and import formats the command knows, one row each.
//!
//! Owns the mapping from a name on the command line to a configured [`tooldef::Renderer`] from
//! the provider crates (`--provider`), and to an input format of `import` (`--from`). A new
//! provider or format is one row here: its variant, its name and its renderer or help; the
//! usage lines, help texts, "did you mean" and `check`'s default list all read the rows.

use tooldef::Renderer;
use tooldef_anthropic::AnthropicRenderer;
use tooldef_bedrock::BedrockRenderer;
use tooldef_gemini::GeminiRenderer;
use tooldef_mcp::McpRenderer;
use tooldef_ollama::OllamaRenderer;
use tooldef_openai::OpenAiRenderer;

/// Declares an enum of things named on the command line from one row per value,
/// `Variant = "name" => column,`: the enum, `ALL` (the rows' order, which help texts and `check`
/// follow), `name`, `parse`, `names`, and the accessor named in the header for the last column.
macro_rules! named {
    (
        $(#[$meta:meta])*
        enum $Enum:ident {
            $vis:vis fn $column:ident -> $Column:ty;
            $($Variant:ident = $name:literal => $value:expr,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum $Enum {
            $(#[doc = concat!("`", $name, "`")] $Variant,)+
        }

        impl $Enum {
            /// Every value, in the order of the rows.
            pub(crate) const ALL: &'static [$Enum] = &[$($Enum::$Variant),+];

            /// The name on the command line.
            pub(crate) fn name(self) -> &'static str {
                match self {
                    $($Enum::$Variant => $name,)+
                }
            }

            /// The value named `name`.
            pub(crate) fn parse(name: &str) -> Option<$Enum> {
                Self::ALL.iter().copied().find(|v| v.name() == name)
            }

            /// Every name, in the order of the rows.
            pub(crate) fn names() -> Vec<&'static str> {
                Self::ALL.iter().map(|v| v.name()).collect()
            }

            /// The row's last column.
            $vis fn $column(self) -> $Column {
                match self {
                    $($Enum::$Variant => $value,)+
                }
            }
        }
    };
}

/// Builds a provider's renderer; the argument turns on its strict mode where it has one.
type MakeRenderer = fn(bool) -> Box<dyn Renderer>;

named! {
    /// A provider target of `render` and `check`.
    enum Provider {
        fn make -> MakeRenderer;
        OpenAiChat = "openai-chat" => |strict| Box::new(OpenAiRenderer::chat().strict(strict)),
        OpenAiResponses = "openai-responses" =>
            |strict| Box::new(OpenAiRenderer::responses().strict(strict)),
        Anthropic = "anthropic" => |strict| Box::new(AnthropicRenderer::new().strict(strict)),
        // Gemini's strictness is per request (`VALIDATED` mode); per tool, only the policy.
        Gemini = "gemini" => |_| Box::new(GeminiRenderer::new()),
        GeminiOpenApi = "gemini-openapi" => |_| Box::new(GeminiRenderer::openapi()),
        // Ollama and MCP have no strict mode.
        Ollama = "ollama" => |_| Box::new(OllamaRenderer::new()),
        Mcp = "mcp" => |_| Box::new(McpRenderer::new()),
        Bedrock = "bedrock" => |strict| match strict {
            true => Box::new(BedrockRenderer::strict()),
            false => Box::new(BedrockRenderer::new()),
        },
    }
}

impl Provider {
    /// The renderer; `strict` turns on the provider's strict mode where it has one.
    pub(crate) fn renderer(self, strict: bool) -> Box<dyn Renderer> {
        (self.make())(strict)
    }
}

named! {
    /// An input format of `import` (`--from`), with what `import --help` says it accepts
    /// (lines, without their indentation).
    enum ImportFormat {
        pub(crate) fn help -> &'static str;
        Mcp = "mcp" => "\
a `tools/list` result ({\"tools\": [...]}), the JSON-RPC response holding it, or
an array of tools",
        OpenAi = "openai" => "\
a `tools` array in the Chat Completions or the Responses shape (or {\"tools\": [...]})",
        Anthropic = "anthropic" => "\
a `tools` array (or {\"tools\": [...]}); server tools are skipped with a warning",
        Gemini = "gemini" => "\
a `functionDeclarations` array, {\"functionDeclarations\": [...]}, or a `tools`
array or wrapper of such objects; `parameters` (OpenAPI subset) and
`parametersJsonSchema` are both read",
    }
}
