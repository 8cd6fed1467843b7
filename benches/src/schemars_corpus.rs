//! The schemars form of the corpus as data the benchmarks iterate over: per tool, its name,
//! description, `schema_for!` and typed decoding functions.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::ArgsVisitor;
use crate::generated::schemars_args::visit_args;

/// One tool of the schemars form.
#[derive(Clone, Copy)]
pub struct SchemarsTool {
    /// The tool name.
    pub name: &'static str,
    /// The tool description.
    pub description: &'static str,
    /// `schemars::schema_for!(Args)`: what a schemars user calls to describe the tool.
    pub schema: fn() -> schemars::Schema,
    /// `serde_json::from_value::<Args>(v).is_ok()`.
    pub from_value: fn(Value) -> bool,
    /// `serde_json::from_str::<Args>(s).is_ok()`.
    pub from_str: fn(&str) -> bool,
}

fn schema_of<A: schemars::JsonSchema>() -> schemars::Schema {
    schemars::schema_for!(A)
}

fn from_value_of<A: DeserializeOwned>(v: Value) -> bool {
    serde_json::from_value::<A>(v).is_ok()
}

fn from_str_of<A: DeserializeOwned>(s: &str) -> bool {
    serde_json::from_str::<A>(s).is_ok()
}

struct Collect(Vec<SchemarsTool>);

impl ArgsVisitor for Collect {
    fn visit<A>(&mut self, _index: usize, name: &'static str, description: &'static str)
    where
        A: DeserializeOwned + schemars::JsonSchema + 'static,
    {
        self.0.push(SchemarsTool {
            name,
            description,
            schema: schema_of::<A>,
            from_value: from_value_of::<A>,
            from_str: from_str_of::<A>,
        });
    }
}

/// Every tool of the schemars form, in corpus order.
/// What a schemars user sends: `schema_for!` per tool, wrapped in the provider's envelope,
/// the list written with `serde_json::to_string` (the baseline of the cold render).
pub fn schemars_json(tools: &[SchemarsTool], envelope: crate::providers::Envelope) -> String {
    let wire: Vec<Value> = tools
        .iter()
        .map(|t| {
            let schema = serde_json::to_value((t.schema)()).expect("schema serializes");
            envelope.wrap(t.name, t.description, schema)
        })
        .collect();
    serde_json::to_string(&wire).expect("serializes")
}

/// The standard corpus's tools in their schemars form.
pub fn schemars_tools() -> Vec<SchemarsTool> {
    let mut c = Collect(Vec::new());
    visit_args(&mut c);
    c.0
}

/// Every tool of the wide corpus's schemars form, in corpus order.
/// The wide corpus's tools in their schemars form.
pub fn wide_schemars_tools() -> Vec<SchemarsTool> {
    let mut c = Collect(Vec::new());
    crate::generated::wide_schemars_args::visit_args(&mut c);
    c.0
}
