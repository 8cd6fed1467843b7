//! The Gemini API as a planning target: no strict mode (`VALIDATED` function calling is a
//! request setting, not a per-function flag), 512 function declarations per request, names of
//! 64 characters, and tooldef's `tool_search` meta-tool for deferral (sources in
//! `docs/budgets.md`).

use tooldef::assembly::{Budgets, PlanTarget};

use crate::render::GeminiRenderer;

/// The most function declarations of a request (Vertex AI's `Tool.functionDeclarations`).
const MAX_DECLARATIONS: usize = 512;

/// The budgets of one request: 512 function declarations, names of 64 characters.
pub const fn plan_budgets() -> Budgets {
    Budgets::none().max_tools(MAX_DECLARATIONS).max_name_len(crate::rules::FUNCTION_NAME.max_len)
}

/// `renderer` (`parametersJsonSchema` or the OpenAPI-subset `parameters`) as a planning target.
pub fn plan_target(renderer: GeminiRenderer) -> PlanTarget {
    PlanTarget::new("gemini", renderer).budgets(plan_budgets())
}
