//! The checked-in generated sources are exactly what the generator writes, so the benchmarks
//! always run the corpus the generator describes.

use tooldef_benches::corpus::Corpus;
use tooldef_benches::emit::generated_files;

#[test]
fn checked_in_files_equal_the_generator_output() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/generated");
    for (name, expected) in generated_files(&Corpus::standard()) {
        let actual = std::fs::read_to_string(dir.join(name))
            .unwrap_or_else(|e| panic!("src/generated/{name}: {e}"));
        assert!(
            actual == expected,
            "src/generated/{name} is stale; run `cargo run -p tooldef-benches --bin gen_corpus`"
        );
    }
}
