struct S;

#[tooldef::tools]
impl S {
    #[tool(name = "same")]
    fn f(&self) {}

    #[tool(name = "same")]
    fn g(&self) {}
}

fn main() {}
