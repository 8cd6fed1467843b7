//! The checked-in generated sources are exactly what the generator writes, so the benchmarks
//! always run the corpora the generator describes (the standard one and the wide one).

use tooldef_benches::emit::all_generated_files;

#[test]
fn checked_in_files_equal_the_generator_output() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/generated");
    for (name, expected) in all_generated_files() {
        let actual = std::fs::read_to_string(dir.join(name))
            .unwrap_or_else(|e| panic!("src/generated/{name}: {e}"));
        assert!(
            actual == expected,
            "src/generated/{name} is stale; run `cargo run -p tooldef-benches --bin gen_corpus`"
        );
    }
}
