use tooldef::ToolDescriptor;

const T: ToolDescriptor = ToolDescriptor::new("get weather");

fn main() {
    let _ = &T;
}
