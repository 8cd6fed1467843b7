//! The real-world corpus rendered for each model profile over its wire APIs: no official-spec
//! or provider-rule failure, the strict policy agreeing with the report, nothing dropped
//! without a report entry, no rendering the profile changed without saying so, and the
//! family's own rules kept (see `tooldef_testkit::real::models`).

use tooldef::render::ModelProfile;
use tooldef_testkit::real::{self, models};

fn profile(family: &str) -> &'static ModelProfile {
    ModelProfile::ALL.iter().find(|p| p.family() == family).expect("a profile of that family")
}

fn holds(family: &str) {
    let tools = real::load();
    let p = profile(family);
    let run = models::run(&tools, p);
    let failures: Vec<String> = run.failures.iter().map(ToString::to_string).collect();
    assert_eq!(failures, Vec::<String>::new(), "{family}");
    let rendered: usize = run.rendered.values().map(|(n, _)| n).sum();
    assert!(rendered >= run.imported, "{family}: {rendered} renderings of {}", run.imported);
    assert_eq!(models::unreported(&tools, p), Vec::<String>::new(), "{family}");
}

macro_rules! corpus_per_profile {
    ($($test:ident => $family:literal,)*) => {
        $(
            #[test]
            fn $test() {
                holds($family);
            }
        )*

        #[test]
        fn every_profile_has_its_corpus_test() {
            let tested = [$($family),*];
            let all: Vec<&str> = ModelProfile::ALL.iter().map(|p| p.family()).collect();
            assert_eq!(tested.as_slice(), all.as_slice());
        }
    };
}

corpus_per_profile! {
    qwen => "qwen",
    qwen3_coder => "qwen3-coder",
    kimi => "kimi",
    deepseek => "deepseek",
    deepseek_reasoner => "deepseek-reasoner",
    glm => "glm",
    minimax => "minimax",
    llama => "llama",
    gemini => "gemini",
    gemini_2_0 => "gemini-2.0",
    gemini_2_5 => "gemini-2.5",
    gemini_3 => "gemini-3",
    openai_reasoning => "openai-reasoning",
}
