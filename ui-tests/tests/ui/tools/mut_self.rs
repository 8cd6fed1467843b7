struct S;

#[tooldef::tools]
impl S {
    #[tool]
    fn f(&mut self) {}
}

fn main() {}
