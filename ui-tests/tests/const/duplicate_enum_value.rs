use tooldef::{Param, ToolDescriptor};

const T: ToolDescriptor = ToolDescriptor::new("x")
    .params(const { &[Param::enumeration("unit", &["celsius", "kelvin", "celsius"])] });

fn main() {
    let _ = &T;
}
