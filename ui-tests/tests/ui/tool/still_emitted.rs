/// The user's function survives an error in its attribute.
#[tooldef::tool(nmae = "x")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    // Neither the function nor the generated type is missing: only the typo is reported.
    let _ = add(1, 2);
    let _ = <Add as tooldef::Tool>::NAME;
}
