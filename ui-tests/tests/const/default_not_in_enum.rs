use tooldef::{Param, ToolDescriptor};

const T: ToolDescriptor = ToolDescriptor::new("x").params(
    const { &[Param::enumeration("unit", &["celsius", "fahrenheit"]).default_str("kelvin")] },
);

fn main() {
    let _ = &T;
}
