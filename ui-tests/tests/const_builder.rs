//! Every rule of the `const` builder DSL is a compile error with a message naming the tool, the
//! parameter and the rule; each case in `tests/const/` pins one rule and its `.stderr`.

#[test]
fn const_builder_rules_are_compile_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/const/*.rs");
}
