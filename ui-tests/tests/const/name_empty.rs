use tooldef::ToolDescriptor;

const T: ToolDescriptor = ToolDescriptor::new("");

fn main() {
    let _ = &T;
}
