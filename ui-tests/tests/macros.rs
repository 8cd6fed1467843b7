//! Compile-time checks of the macros, pinned by trybuild: one concern per file, grouped by
//! macro. Run with `TRYBUILD=overwrite` to write new `.stderr` files, then read each one.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/tool/*.rs");
    t.compile_fail("tests/ui/tools/*.rs");
    t.compile_fail("tests/ui/derive/*.rs");
}
