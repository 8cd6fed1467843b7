//! Benchmarks of tooldef against what users would otherwise pick: a generated corpus of 100
//! tools written as tooldef tools, as `serde` + `schemars` argument structs and as rmcp
//! `#[tool_router]` methods, and the pieces the criterion benches and report binaries share.
//!
//! Owns the corpus ([`corpus`]), its source emitters ([`emit`]) and the checked-in generated
//! sources ([`generated`]); does not touch tooldef's own modules. The heavy comparison crates
//! (criterion, schemars, rmcp, jsonschema) are behind the `bench` feature, so `cargo test
//! --workspace` builds only the generator and the tooldef form of the corpus. See `README.md`.

pub mod args;
pub mod corpus;
pub mod emit;
pub mod providers;
pub mod report;
#[cfg(feature = "bench")]
pub mod schemars_corpus;

/// The corpus as checked-in Rust source (written by the `gen_corpus` binary; never formatted,
/// so that the files stay byte-equal to the generator's output).
#[rustfmt::skip]
pub mod generated {
    /// The tooldef form as users write it: `#[tool]` functions.
    pub mod tooldef_macro;
    /// The tooldef form: const-DSL descriptors and hand-written `Tool` impls.
    pub mod tooldef_const;
    /// The `serde` + `schemars::JsonSchema` form.
    #[cfg(feature = "bench")]
    pub mod schemars_args;
    /// The rmcp `#[tool_router]` form (over the schemars structs).
    #[cfg(feature = "bench")]
    pub mod rmcp_router;
    /// The wide corpus as `#[tool]` functions.
    pub mod wide_tooldef_macro;
    /// The wide corpus in the `serde` + `schemars::JsonSchema` form.
    #[cfg(feature = "bench")]
    pub mod wide_schemars_args;
}

/// The descriptors of every `#[tool]` a `visit_tools` function of [`generated`] visits, in
/// corpus order (`macro_descriptors(generated::wide_tooldef_macro::visit_tools)`).
pub fn macro_descriptors(
    visit_tools: fn(&mut MacroDescriptors),
) -> Vec<&'static tooldef::ToolDescriptor> {
    let mut collect = MacroDescriptors(Vec::new());
    visit_tools(&mut collect);
    collect.0
}

/// Collects the descriptors of the `#[tool]`s it visits (see [`macro_descriptors`]).
#[derive(Debug, Default)]
pub struct MacroDescriptors(pub Vec<&'static tooldef::ToolDescriptor>);

impl ToolValueVisitor for MacroDescriptors {
    fn visit<T: tooldef::Tool>(&mut self, _tool: T, _index: usize) {
        self.0.push(T::descriptor());
    }
}

/// Receives every tooldef tool type of the corpus ([`generated::tooldef_const::visit_tools`]).
pub trait ToolVisitor {
    /// Called once per tool, with its index in the corpus.
    fn visit<T: tooldef::Tool + Default>(&mut self, index: usize);
}

/// Receives every `#[tool]` of the corpus, as a value
/// ([`generated::tooldef_macro::visit_tools`]; the generated types derive nothing).
pub trait ToolValueVisitor {
    /// Called once per tool, with its index in the corpus.
    fn visit<T: tooldef::Tool>(&mut self, tool: T, index: usize);
}

/// Receives every schemars argument type of the corpus
/// (`generated::schemars_args::visit_args`, with the `bench` feature).
#[cfg(feature = "bench")]
pub trait ArgsVisitor {
    /// Called once per tool, with its index, name and description.
    fn visit<A>(&mut self, index: usize, name: &'static str, description: &'static str)
    where
        A: serde::de::DeserializeOwned + schemars::JsonSchema + 'static;
}

/// The criterion settings every bench in `benches/` runs with: short warm-up and measurement,
/// 30 samples, so that the whole suite fits a shared 2-core machine.
#[cfg(feature = "bench")]
pub fn criterion_config() -> criterion::Criterion {
    criterion::Criterion::default()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3))
        .sample_size(30)
}
