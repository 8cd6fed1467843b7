struct S;

#[tooldef::tool]
impl S {
    fn f(&self) {}
}

fn main() {}
