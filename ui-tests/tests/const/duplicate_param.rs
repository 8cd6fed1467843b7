use tooldef::{Param, ToolDescriptor};

const T: ToolDescriptor = ToolDescriptor::new("x")
    .params(const { &[Param::string("city"), Param::integer("city")] });

fn main() {
    let _ = &T;
}
