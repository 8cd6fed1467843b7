use tooldef::{Param, ToolDescriptor};

const T: ToolDescriptor =
    ToolDescriptor::new("x").params(const { &[Param::enumeration("unit", &[])] });

fn main() {
    let _ = &T;
}
