//! Property tests over generated descriptors: every rendering is accepted by the official spec,
//! strict renderings follow the strict rules, and rendering is deterministic.

use proptest::prelude::*;
use tooldef::{LossPolicy, RenderRule, Renderer};
use tooldef_openai::{OpenAiRenderer, strict_violations};
use tooldef_testkit::specs::openai as spec;
use tooldef_testkit::strategy::arb_descriptor;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn generated_descriptors_render_to_valid_openai_json(d in arb_descriptor()) {
        for renderer in [
            OpenAiRenderer::chat(),
            OpenAiRenderer::chat().strict(true),
            OpenAiRenderer::responses().strict(true),
        ] {
            let r = match renderer.render(&d, LossPolicy::Allow) {
                Ok(r) => r,
                Err(e) => {
                    // Only documented strict limits may refuse a valid descriptor.
                    prop_assert!(renderer.is_strict() && e.rule == RenderRule::Limit, "{e}");
                    continue;
                }
            };
            let again = renderer.render(&d, LossPolicy::Allow).unwrap();
            prop_assert_eq!(r.json(), again.json());
            let wire = r.to_value();
            let (shape, params) = match renderer.api() {
                tooldef_openai::Api::Chat => {
                    (spec::validate_chat_completion_tool(&wire), &wire["function"]["parameters"])
                }
                tooldef_openai::Api::Responses => {
                    (spec::validate_function_tool(&wire), &wire["parameters"])
                }
            };
            prop_assert!(shape.is_ok(), "{}: {:?}", r.json(), shape);
            if renderer.is_strict() {
                let problems = strict_violations(params);
                prop_assert!(problems.is_empty(), "{}: {:#?}", r.json(), problems);
                prop_assert!(!has_default_keyword(params, false), "{}", r.json());
            }
            // `Refuse` policy agrees with the report.
            let strict = renderer.render(&d, LossPolicy::Refuse);
            prop_assert_eq!(strict.is_ok(), r.report().is_lossless());
        }
    }
}

/// Whether a schema uses the `default` keyword (a property named `default` does not count).
fn has_default_keyword(v: &serde_json::Value, is_property_map: bool) -> bool {
    match v {
        serde_json::Value::Object(m) => m.iter().any(|(k, sub)| {
            (!is_property_map && k == "default")
                || has_default_keyword(sub, !is_property_map && (k == "properties" || k == "$defs"))
        }),
        serde_json::Value::Array(a) => a.iter().any(|x| has_default_keyword(x, false)),
        _ => false,
    }
}
