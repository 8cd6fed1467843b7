//! Writes the benchmark corpora (standard and wide) into `benches/src/generated/` (deterministic: same seed, same
//! bytes). Run after changing the generator: `cargo run -p tooldef-benches --bin gen_corpus`.

// A report binary: printing is its job.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::Path;

use tooldef_benches::emit::all_generated_files;

fn main() -> std::io::Result<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/generated");
    std::fs::create_dir_all(&dir)?;
    for (name, text) in all_generated_files() {
        std::fs::write(dir.join(name), text)?;
        {
            println!("wrote src/generated/{name}");
        }
    }
    Ok(())
}
