#![allow(unused_variables)]

struct Words;

#[tooldef::tools]
impl Words {
    /// Finds a doubled word.
    #[tool]
    fn doubled(&self, #[param(pattern = r"^(\w+) \1$")] text: String) {}
}

fn main() {}
