//! Property test over generated descriptors: whatever renders conforms to botocore's service
//! model, and strict renderings keep every strict rule.

use proptest::prelude::*;
use tooldef::render::{LossPolicy, RenderRule, Renderer};
use tooldef_bedrock::{BedrockRenderer, strict_violations};
use tooldef_testkit::specs::bedrock;
use tooldef_testkit::strategy::arb_descriptor;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn renderings_conform(d in arb_descriptor()) {
        for r in [BedrockRenderer::new(), BedrockRenderer::strict()] {
            match r.render(&d, LossPolicy::Allow) {
                Ok(rendered) => {
                    let tool = rendered.to_value();
                    prop_assert!(bedrock::validate_tool(&tool).is_ok(), "{:?}", bedrock::validate_tool(&tool));
                    if r.is_strict() {
                        prop_assert_eq!(strict_violations(&tool["toolSpec"]["inputSchema"]["json"]), Vec::<String>::new());
                    }
                }
                Err(e) => prop_assert!(r.is_strict() && e.rule == RenderRule::Recursion, "unexpected error: {e}"),
            }
        }
    }
}
