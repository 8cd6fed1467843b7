struct S;

impl S {
    #[tooldef::tool]
    fn f(&self) {}
}

fn main() {}
