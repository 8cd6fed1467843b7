//! Property tests over generated descriptors: plain renderings have the tool shape, strict ones
//! follow the strict rules or fail for recursion only.

use proptest::prelude::*;
use tooldef::{LossPolicy, RenderRule, Renderer};
use tooldef_anthropic::{AnthropicRenderer, strict_violations};
use tooldef_testkit::specs::anthropic as spec;
use tooldef_testkit::strategy::arb_descriptor;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn generated_descriptors_render_to_valid_anthropic_json(d in arb_descriptor()) {
        let plain = AnthropicRenderer::new().render(&d, LossPolicy::Allow).unwrap();
        prop_assert!(spec::validate_tool(&plain.to_value()).is_ok(), "{}", plain.json());
        prop_assert!(!plain.json().contains("\"type\":["));

        match AnthropicRenderer::new().strict(true).render(&d, LossPolicy::Allow) {
            Ok(r) => {
                let wire = r.to_value();
                prop_assert!(spec::validate_tool(&wire).is_ok(), "{}", r.json());
                let problems = strict_violations(&wire["input_schema"]);
                prop_assert!(problems.is_empty(), "{}: {:#?}", r.json(), problems);
            }
            Err(e) => prop_assert_eq!(e.rule, RenderRule::Recursion, "{}", e),
        }
    }
}
