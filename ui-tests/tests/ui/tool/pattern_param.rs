#[tooldef::tool]
fn pair((a, b): (u8, u8)) {
    let _ = (a, b);
}

fn main() {}
