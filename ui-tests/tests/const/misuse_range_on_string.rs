use tooldef::{Param, ToolDescriptor};

const T: ToolDescriptor =
    ToolDescriptor::new("x").params(const { &[Param::string("city").range(1, 10)] });

fn main() {
    let _ = &T;
}
