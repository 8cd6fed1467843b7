//! Bedrock Converse as a planning target: plain and strict renderers, names of 64 characters
//! (`ToolName` in the service model), strict tool use's per-request budgets of the Claude models
//! it serves (20 strict tools, 24 optional and 16 union-typed parameters: Bedrock documents
//! none of its own, and the grammar is the model's), and tooldef's `tool_search` meta-tool for
//! deferral, since Converse has no deferral of its own (sources in `docs/budgets.md`).

use tooldef::assembly::{Budgets, PlanTarget};

use crate::render::BedrockRenderer;

/// The budgets of one Converse request.
pub const fn plan_budgets() -> Budgets {
    Budgets::none()
        .max_name_len(crate::rules::TOOL_NAME.max_len)
        .strict_tools(20)
        .strict_optional_params(24)
        .strict_union_params(16)
}

/// Converse as a planning target.
pub fn plan_target() -> PlanTarget {
    PlanTarget::new("bedrock", BedrockRenderer::new())
        .strict_renderer(BedrockRenderer::strict())
        .budgets(plan_budgets())
}
