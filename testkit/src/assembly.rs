//! A small prompt assembly that the providers' request-fragment tests share: two sections
//! contributed in the reverse of their order keys, and three tools (one without parameters).

use tooldef::{
    Assembler, AssemblyContext, Bundle, Param, PromptAssembly, SectionSource, ToolDescriptor,
};

/// A tool with a required string and an optional bounded integer.
pub const SEARCH: ToolDescriptor = ToolDescriptor::new("search")
    .description("Search the web.")
    .params(const { &[Param::string("query"), Param::integer("limit").range(1, 50).optional()] });

/// A tool with one required string.
pub const WEATHER: ToolDescriptor = ToolDescriptor::new("get_weather")
    .description("Get the weather.")
    .params(const { &[Param::string("city")] });

/// A tool without parameters.
pub const CLOCK: ToolDescriptor = ToolDescriptor::new("clock").description("Tell the time.");

/// The system text of [`sample`]: its sections in order-key order, joined by a blank line.
pub const SYSTEM: &str = "You are a careful assistant.\n\nToday is Monday.";

/// The sample assembly: sections `persona` (order 10) and `date` (order 20), added in reverse,
/// and the tools [`WEATHER`], [`SEARCH`] and [`CLOCK`] (listed by name after assembly).
pub fn sample() -> PromptAssembly {
    let assembler = Assembler::new();
    assembler.add_contributor(
        Bundle::new()
            .section(SectionSource::fixed("date", 20, "Today is Monday."))
            .section(SectionSource::fixed("persona", 10, "You are a careful assistant."))
            .tool(WEATHER)
            .tool(SEARCH)
            .tool(CLOCK),
    );
    assembler.assemble(&AssemblyContext::new()).expect("the sample assembly has no interceptor")
}
