//! Model profiles: what a model family needs on top of the wire API it is served over (Qwen or
//! Kimi over OpenAI's, Llama over Ollama's or an OpenAI-compatible server's, Gemini 2.0 over
//! Gemini's), chosen by model id.
//!
//! A [`ModelProfile`] is a set of the named lowering [`Pass`]es, the keywords it writes into
//! descriptions ([`Pass::KeywordsInText`]) and two limits (whether the family takes strict tool
//! definitions, and a tool-name rule of its own). The renderers that take a model
//! (`OpenAiRenderer::model`, `GeminiRenderer::model`, `OllamaRenderer::model`) run the profile's
//! passes through the same schema writer as their own, so each change is in the render's
//! [`Report`](super::Report) and undone on the way back like any other
//! ([`Rendered::restore`](super::Rendered::restore)).
//!
//! # The matching rule
//!
//! [`ModelChoice::for_id`] lowercases the id and keeps what follows its last `/` (so
//! `openrouter/qwen/qwen3-coder`, `models/gemini-2.5-flash` and `meta-llama/Llama-3.3-70B`
//! read as `qwen3-coder`, `gemini-2.5-flash` and `llama-3.3-70b`); a profile matches when the
//! rest starts with one of its prefixes, and the profile with the longest matching prefix
//! wins (`deepseek-reasoner` over `deepseek`, `gemini-2.5` over `gemini`); equal lengths go to
//! the earlier row of [`ModelProfile::ALL`]. An id no prefix matches keeps the wire API's
//! defaults, and every tool rendered for it carries a lossless report entry saying so.
//!
//! The table of profiles, what each changes and its public source is in the guide
//! ([`crate::guide`], "Model profiles"), written from [`ModelProfile::ALL`].
//!
//! ```
//! use tooldef::render::{ModelChoice, Pass};
//!
//! let qwen = ModelChoice::for_id("openrouter/qwen/Qwen3-235B-A22B").profile().unwrap();
//! assert_eq!(qwen.family(), "qwen");
//! assert!(qwen.passes().contains(Pass::InlineRefs));
//! let reasoner = ModelChoice::for_id("deepseek-reasoner").profile().unwrap();
//! assert_eq!(reasoner.family(), "deepseek-reasoner");
//! assert_eq!(ModelChoice::for_id("my-own-model"), ModelChoice::Unknown);
//! ```

use std::borrow::Cow;

use super::lowering::{self, Pass, Passes};
use super::names::NameRule;
use super::renderer::RenderCtx;
use super::report::{Change, ChangeKind, RenderError};
use super::schema_options::{Keyword, Keywords, SchemaOptions};
use crate::JsonPointer;
use crate::descriptor::ToolDescriptor;

/// What one model family needs on top of the wire API: passes, keywords written into
/// descriptions and limits, with what it changes and where the rule comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModelProfile {
    family: &'static str,
    prefixes: &'static [&'static str],
    passes: Passes,
    in_text: Keywords,
    strict_tools: bool,
    tool_name: Option<NameRule>,
    changes: &'static str,
    source: &'static str,
}

/// String constraints.
const STRING: Keywords = Keywords::NONE
    .with(Keyword::Pattern)
    .with(Keyword::Format)
    .with(Keyword::MinLength)
    .with(Keyword::MaxLength);
/// Number constraints.
const NUMBER: Keywords = Keywords::NONE
    .with(Keyword::Minimum)
    .with(Keyword::Maximum)
    .with(Keyword::ExclusiveMinimum)
    .with(Keyword::ExclusiveMaximum)
    .with(Keyword::MultipleOf);
/// Array bounds.
const ARRAY: Keywords = Keywords::NONE.with(Keyword::MinItems).with(Keyword::MaxItems);

fn letter_or_underscore(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn word_or_dash(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// Kimi's tool names: OpenAI's rule, and a letter or `_` first.
const KIMI_TOOL_NAME: NameRule = NameRule {
    pattern: "^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$",
    max_len: 64,
    allowed: word_or_dash,
    first: letter_or_underscore,
};

const fn row(family: &'static str, prefixes: &'static [&'static str]) -> ModelProfile {
    ModelProfile {
        family,
        prefixes,
        passes: Passes::NONE,
        in_text: Keywords::NONE,
        strict_tools: true,
        tool_name: None,
        changes: "",
        source: "",
    }
}

const GOOGLE_CHANGES: &str = "string and number constraints (pattern, format, lengths, bounds, multipleOf) written into the description";
const GOOGLE_SOURCE: &str = "Mastra `packages/schema-compat/src/provider-compats/google.ts` (the models do not respect these keywords but do respect them in the description); pydantic-ai `profiles/google.py` (string formats moved into the description, exclusive bounds removed)";

impl ModelProfile {
    /// Every profile, the order ties are broken in.
    pub const ALL: &'static [ModelProfile] = &[
        ModelProfile {
            passes: Passes::NONE.with(Pass::InlineRefs),
            changes: "`$defs` inlined (a recursive type is then refused)",
            source: "pydantic-ai `profiles/qwen.py` (InlineDefsJsonSchemaTransformer for every Qwen model)",
            ..row("qwen", &["qwen", "qwq"])
        },
        ModelProfile {
            passes: Passes::NONE.with(Pass::InlineRefs),
            strict_tools: false,
            changes: "`$defs` inlined; no strict tool definitions (strict mode is turned off and reported)",
            source: "pydantic-ai `profiles/qwen.py` (qwen3-coder: no strict tool definition, no `tool_choice: required`)",
            ..row("qwen3-coder", &["qwen3-coder", "qwen-3-coder"])
        },
        ModelProfile {
            passes: Passes::NONE
                .with(Pass::OneOfAsAnyOf)
                .with(Pass::KeptInText)
                .with(Pass::OpenAnyMaps)
                .with(Pass::DropNeverVariants),
            strict_tools: false,
            tool_name: Some(KIMI_TOOL_NAME),
            changes: "no `additionalProperties: {}` (written `true`), no `anyOf` variant that accepts nothing (zod's `{\"not\": {}}`), no keyword kept verbatim (`not`, a root `anyOf` beside `type`) and no `oneOf`; tool names start with a letter or `_`; no strict tool definitions; `$schema` is never written",
            source: "CloudBase-AI-Toolkit#626 (`additionalProperties: {}`, `anyOf: [{\"not\": {}}, X]` and `$schema` refused); MoonshotAI/kimi-cli#2531 and FTShare-Lab/FTShare-MCP#7 (\"type should be defined in anyOf items instead of the parent schema\", names starting with a digit refused); pydantic/pydantic-ai#2211 (strict tool validation unsupported per Moonshot's docs)",
            ..row("kimi", &["kimi", "moonshot"])
        },
        ModelProfile {
            passes: Passes::NONE.with(Pass::KeywordsInText),
            in_text: STRING.union(ARRAY),
            changes: "string constraints and array bounds written into the description",
            source: "Mastra `packages/schema-compat/src/provider-compats/deepseek.ts` (applied to DeepSeek models other than R1)",
            ..row("deepseek", &["deepseek"])
        },
        ModelProfile {
            changes: "nothing beyond the wire API",
            source: "Mastra `packages/schema-compat/src/provider-compats/deepseek.ts` (\"Deepseek R1 performs perfectly without this compat layer\")",
            ..row("deepseek-reasoner", &["deepseek-reasoner", "deepseek-r1"])
        },
        ModelProfile {
            changes: "nothing beyond the wire API (the profile differs only in how thinking is sent back)",
            source: "pydantic-ai `profiles/zai.py` (GLM: only the `reasoning_content` thinking field)",
            ..row("glm", &["glm", "zai-glm", "chatglm"])
        },
        ModelProfile {
            changes: "nothing beyond the wire API (no JSON-schema output mode, which tool definitions do not use)",
            source: "pydantic-ai `profiles/minimax.py`",
            ..row("minimax", &["minimax", "abab"])
        },
        ModelProfile {
            passes: Passes::NONE.with(Pass::KeywordsInText),
            in_text: STRING.union(NUMBER).union(ARRAY),
            changes: "string and number constraints and array bounds written into the description",
            source: "Mastra `packages/schema-compat/src/provider-compats/meta.ts` (Meta models, over any host)",
            ..row("llama", &["llama", "meta-llama", "codellama"])
        },
        ModelProfile {
            passes: Passes::NONE.with(Pass::KeywordsInText),
            in_text: STRING.union(NUMBER),
            changes: GOOGLE_CHANGES,
            source: GOOGLE_SOURCE,
            ..row("gemini", &["gemini", "gemma"])
        },
        ModelProfile {
            passes: Passes::NONE.with(Pass::KeywordsInText),
            in_text: STRING.union(NUMBER),
            strict_tools: false,
            changes: "as Gemini; no strict tool definitions (schema-enforced `VALIDATED` calling starts with 2.5)",
            source: "pydantic-ai `profiles/google.py` (`VALIDATED` mode only for Gemini 2.5 and newer); Mastra `google.ts`",
            ..row("gemini-2.0", &["gemini-2.0", "gemini-1.5"])
        },
        ModelProfile {
            passes: Passes::NONE.with(Pass::KeywordsInText),
            in_text: STRING.union(NUMBER),
            changes: GOOGLE_CHANGES,
            source: GOOGLE_SOURCE,
            ..row("gemini-2.5", &["gemini-2.5"])
        },
        ModelProfile {
            passes: Passes::NONE.with(Pass::KeywordsInText),
            in_text: STRING.union(NUMBER),
            changes: GOOGLE_CHANGES,
            source: GOOGLE_SOURCE,
            ..row("gemini-3", &["gemini-3"])
        },
        ModelProfile {
            passes: Passes::NONE.with(Pass::NullForAbsent),
            changes: "every property required, an optional one nullable (`null` read back as absent)",
            source: "Mastra `packages/schema-compat/src/provider-compats/openai-reasoning.ts` (o1, o3 and o4 models: `.optional()` becomes `.nullable()`, `null` transformed back to undefined)",
            ..row("openai-reasoning", &["o1", "o3", "o4"])
        },
    ];

    /// The family's name (`qwen`, `deepseek-reasoner`).
    pub const fn family(&self) -> &'static str {
        self.family
    }

    /// The id prefixes that choose it (lowercase, after the id's last `/`).
    pub const fn prefixes(&self) -> &'static [&'static str] {
        self.prefixes
    }

    /// The lowering passes it adds to the wire API's.
    pub const fn passes(&self) -> Passes {
        self.passes
    }

    /// The keywords it writes into descriptions instead of the schema.
    pub const fn keywords_in_text(&self) -> Keywords {
        self.in_text
    }

    /// Whether the family takes strict tool definitions; when not, a strict renderer renders
    /// without them and reports it.
    pub const fn strict_tools(&self) -> bool {
        self.strict_tools
    }

    /// The family's own rule for tool names, checked besides the wire API's.
    pub const fn tool_name(&self) -> Option<&NameRule> {
        self.tool_name.as_ref()
    }

    /// What it changes, in words.
    pub const fn changes(&self) -> &'static str {
        self.changes
    }

    /// Where the rule comes from (provider docs, SDK or framework source, issue threads).
    pub const fn source(&self) -> &'static str {
        self.source
    }

    /// `opts` with the profile's passes run and its keywords written into descriptions.
    #[must_use]
    pub const fn apply(&self, opts: SchemaOptions) -> SchemaOptions {
        let mut opts = opts.with_passes(self.passes);
        opts.keywords = opts.keywords.difference(self.in_text);
        opts
    }
}

/// The model a renderer renders for: none named (the wire API's defaults), a [`ModelProfile`],
/// or an id no profile matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ModelChoice {
    /// No model named: the wire API's defaults.
    #[default]
    WireApi,
    /// A model whose family has a profile.
    Profile(&'static ModelProfile),
    /// A model id no profile matches: the wire API's defaults, reported on every tool.
    Unknown,
}

impl ModelChoice {
    /// The profile for `id`, by [the matching rule](crate::guide#model-families-over-another-familys-wire-api):
    /// lowercased, read after its last `/`, the longest matching prefix wins.
    pub fn for_id(id: &str) -> ModelChoice {
        let id = id.rsplit('/').next().unwrap_or(id).to_ascii_lowercase();
        let mut best: Option<(&'static ModelProfile, usize)> = None;
        for profile in ModelProfile::ALL {
            for prefix in profile.prefixes {
                if id.starts_with(prefix) && best.is_none_or(|(_, len)| prefix.len() > len) {
                    best = Some((profile, prefix.len()));
                }
            }
        }
        best.map_or(ModelChoice::Unknown, |(p, _)| ModelChoice::Profile(p))
    }

    /// The profile, when a model with one was named.
    pub const fn profile(&self) -> Option<&'static ModelProfile> {
        match self {
            ModelChoice::Profile(p) => Some(p),
            _ => None,
        }
    }

    /// `opts` with the profile applied ([`ModelProfile::apply`]); unchanged without one.
    #[must_use]
    pub const fn schema_options(&self, opts: SchemaOptions) -> SchemaOptions {
        match self {
            ModelChoice::Profile(p) => p.apply(opts),
            _ => opts,
        }
    }

    /// Whether strict tool definitions may be sent.
    pub const fn strict_tools(&self) -> bool {
        match self {
            ModelChoice::Profile(p) => p.strict_tools,
            _ => true,
        }
    }

    /// What a renderer does for the model before writing `tool`: checks the family's tool-name
    /// rule, reports an unknown model, and runs the passes that rewrite the descriptor
    /// ([`Pass::OpenAnyMaps`], [`Pass::DropNeverVariants`]), each change recorded at
    /// `parameters` (where the tool's parameters are written). `strict` says whether the
    /// renderer was asked for strict mode; when the family takes no strict tool definitions
    /// that is reported as a lossy change (the caller then renders without them).
    ///
    /// # Errors
    ///
    /// A name the family's rule refuses ([`RenderRule::Name`](super::RenderRule::Name)), or a
    /// lossy change under [`LossPolicy::Refuse`](super::LossPolicy::Refuse).
    pub fn prepare<'t>(
        &self,
        tool: &'t ToolDescriptor,
        ctx: &mut RenderCtx,
        parameters: &JsonPointer,
        strict: bool,
    ) -> Result<Cow<'t, ToolDescriptor>, RenderError> {
        let profile = match self {
            ModelChoice::WireApi => return Ok(Cow::Borrowed(tool)),
            ModelChoice::Unknown => {
                ctx.record(Change::lossless(ChangeKind::Rewritten, "model").detail(
                    "no model profile matches the model id: the wire API's defaults apply",
                ))?;
                return Ok(Cow::Borrowed(tool));
            }
            ModelChoice::Profile(p) => p,
        };
        if let Some(rule) = &profile.tool_name {
            ctx.check_name(rule)?;
        }
        if strict && !profile.strict_tools {
            ctx.record(Change::lossy(ChangeKind::Dropped, "strict").detail(format!(
                "strict mode off: the {} models take no strict tool definitions",
                profile.family
            )))?;
        }
        lowering::rewrite::run(profile.passes, tool, ctx, parameters)
    }
}

#[cfg(test)]
mod tests;
