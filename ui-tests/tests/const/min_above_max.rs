use tooldef::{Param, ToolDescriptor};

const T: ToolDescriptor =
    ToolDescriptor::new("x").params(const { &[Param::integer("days").range(10, 1)] });

fn main() {
    let _ = &T;
}
