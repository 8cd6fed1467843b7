use tooldef::ToolDescriptor;

const T: ToolDescriptor =
    ToolDescriptor::new("a_name_that_is_far_too_long_for_any_provider_to_accept_as_a_tool_x");

fn main() {
    let _ = &T;
}
