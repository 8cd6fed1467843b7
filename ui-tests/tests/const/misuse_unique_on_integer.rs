use tooldef::{Param, ToolDescriptor};

const T: ToolDescriptor =
    ToolDescriptor::new("x").params(const { &[Param::integer("count").unique()] });

fn main() {
    let _ = &T;
}
