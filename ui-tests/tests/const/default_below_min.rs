use tooldef::{Param, ToolDescriptor};

const T: ToolDescriptor = ToolDescriptor::new("x")
    .params(const { &[Param::integer("days").range(1, 10).default_int(0)] });

fn main() {
    let _ = &T;
}
