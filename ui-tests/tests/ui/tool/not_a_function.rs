#[tooldef::tool]
struct Search;

fn main() {}
