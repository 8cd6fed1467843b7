//! Grammar tools on providers without them: the one change every such renderer reports.

use super::{Change, ChangeKind, RenderCtx, RenderError};
use crate::descriptor::ToolDescriptor;

/// For a grammar tool ([`ToolDescriptor::grammar`]) rendered by a provider that has no grammar
/// tools: records that it goes as a function tool with the one string parameter `input`, whose
/// description holds the grammar. A lossy change (the provider no longer holds the model to the
/// grammar; the way back still parses the text with it), so [`LossPolicy::Refuse`](super::LossPolicy::Refuse)
/// refuses it. Nothing for any other tool.
///
/// Every renderer of a provider without grammar tools calls it once, right after
/// [`RenderCtx::new`]; a renderer written outside tooldef should too.
///
/// # Errors
///
/// The change under [`LossPolicy::Refuse`](super::LossPolicy::Refuse).
pub fn grammar_as_function(ctx: &mut RenderCtx, tool: &ToolDescriptor) -> Result<(), RenderError> {
    let Some(grammar) = &tool.grammar else { return Ok(()) };
    let detail = match grammar.syntax {
        crate::grammar::GrammarSyntax::Lark => {
            "a grammar tool (Lark) sent as a function tool with one string parameter `input`, the \
             grammar in its description; the provider does not hold the model to it"
        }
        crate::grammar::GrammarSyntax::Regex => {
            "a grammar tool (regex) sent as a function tool with one string parameter `input`, \
             the grammar in its description; the provider does not hold the model to it"
        }
    };
    ctx.record(
        Change::lossy(ChangeKind::MovedToDescription, "format")
            .param(crate::grammar::INPUT)
            .detail(detail),
    )
}
