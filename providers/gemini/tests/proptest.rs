//! Property test over generated descriptors: whatever renders conforms to the v1beta descriptor
//! and the Vertex discovery document, and the OpenAPI form keeps every `parameters` rule.

use proptest::prelude::*;
use tooldef::render::{LossPolicy, RenderRule, Renderer};
use tooldef_gemini::{GeminiRenderer, parameters_violations};
use tooldef_testkit::specs::{gemini, vertex};
use tooldef_testkit::strategy::arb_descriptor;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn renderings_conform(d in arb_descriptor()) {
        for r in [GeminiRenderer::new(), GeminiRenderer::openapi()] {
            match r.render(&d, LossPolicy::Allow) {
                Ok(rendered) => {
                    let decl = rendered.to_value();
                    prop_assert!(gemini::validate_function_declaration(&decl).is_ok(), "{:?}", gemini::validate_function_declaration(&decl));
                    prop_assert!(vertex::validate_function_declaration(&decl).is_ok(), "{:?}", vertex::validate_function_declaration(&decl));
                    for key in ["parameters", "response"] {
                        if let Some(schema) = decl.get(key) {
                            prop_assert_eq!(parameters_violations(schema), Vec::<String>::new());
                        }
                    }
                    let again = r.render(&d, LossPolicy::Allow).unwrap();
                    prop_assert_eq!(again.json(), rendered.json());
                }
                Err(e) => prop_assert!(
                    matches!(e.rule, RenderRule::Name | RenderRule::Recursion | RenderRule::Unsupported),
                    "unexpected error: {e}"
                ),
            }
        }
    }
}
