#[tooldef::tool(name = "a_name_that_is_much_longer_than_sixty_four_characters_which_no_provider_accepts")]
fn long() {}

fn main() {}
