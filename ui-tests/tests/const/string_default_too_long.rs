use tooldef::{Param, ToolDescriptor};

const T: ToolDescriptor = ToolDescriptor::new("x")
    .params(const { &[Param::string("code").length(2, 3).default_str("abcd")] });

fn main() {
    let _ = &T;
}
