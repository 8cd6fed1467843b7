use tooldef::{Param, ToolDescriptor};

const T: ToolDescriptor =
    ToolDescriptor::new("x").params(const { &[Param::integer("days").default_str("three")] });

fn main() {
    let _ = &T;
}
