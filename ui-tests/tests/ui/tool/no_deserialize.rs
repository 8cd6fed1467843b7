#![allow(unused_variables)]

// A parameter type with a schema that serde cannot decode: the error names the type.
struct Opaque;

impl tooldef::ToolSchema for Opaque {
    fn schema(_cx: &mut tooldef::SchemaGen) -> tooldef::Schema {
        tooldef::Schema::string()
    }
}

#[tooldef::tool]
fn take(count: u8, thing: Opaque) {
    let _ = thing;
}

fn main() {}
