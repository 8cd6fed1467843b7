//! Tool-level input examples ([`ToolDescriptor::input_examples`]) for the providers without a
//! field for them: written into the tool's description, as a reported change.

use std::borrow::Cow;

use super::renderer::RenderCtx;
use super::report::{Change, ChangeKind, RenderError};
use crate::JsonPointer;
use crate::descriptor::ToolDescriptor;

/// The text the examples add to a description: `Example inputs: {"city":"Paris"}; {...}.`
/// (compact JSON, in order); `None` without examples.
pub fn input_examples_text(tool: &ToolDescriptor) -> Option<String> {
    if tool.input_examples.is_empty() {
        return None;
    }
    let shown: Vec<String> = tool.input_examples.iter().map(super::literal_text).collect();
    let label = if shown.len() == 1 { "Example input" } else { "Example inputs" };
    Some(format!("{label}: {}.", shown.join("; ")))
}

/// `description` with the tool's input examples appended ([`input_examples_text`]), the change
/// recorded at `pointer` (where the description is written) as lossless: the model reads the
/// same examples, in the text.
///
/// # Errors
///
/// None in practice (the change is lossless); the `Result` is [`RenderCtx::record`]'s.
pub fn fold_input_examples<'d>(
    tool: &ToolDescriptor,
    description: &'d str,
    ctx: &mut RenderCtx,
    pointer: &JsonPointer,
) -> Result<Cow<'d, str>, RenderError> {
    let Some(text) = input_examples_text(tool) else {
        return Ok(Cow::Borrowed(description));
    };
    ctx.record(
        Change::lossless(ChangeKind::MovedToDescription, "input_examples")
            .at(pointer.clone())
            .detail("the tool's input examples written into its description: the provider has no field for them"),
    )?;
    let description = description.trim_end();
    Ok(Cow::Owned(if description.is_empty() { text } else { format!("{description} {text}") }))
}
