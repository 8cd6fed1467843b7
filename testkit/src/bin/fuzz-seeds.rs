//! Writes the seed corpora of the cargo-fuzz targets from the testkit's generators:
//! `cargo run -p tooldef-testkit --bin fuzz-seeds -- fuzz/corpus [COUNT]` fills
//! `fuzz/corpus/spec/` and `fuzz/corpus/call/` with COUNT inputs each (default 256), the same
//! ones on every run.
#![allow(clippy::print_stderr)]

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next().map(PathBuf::from) else {
        eprintln!("usage: fuzz-seeds DIR [COUNT]");
        return ExitCode::from(2);
    };
    let count = match args.next().map(|c| c.parse::<usize>()) {
        None => 256,
        Some(Ok(n)) => n,
        Some(Err(e)) => {
            eprintln!("fuzz-seeds: COUNT: {e}");
            return ExitCode::from(2);
        }
    };
    let targets = [
        ("spec", tooldef_testkit::fuzz::seed_specs(count, 1)),
        ("call", tooldef_testkit::fuzz::seed_calls(count, 2)),
    ];
    for (target, inputs) in targets {
        let out = dir.join(target);
        if let Err(e) = std::fs::create_dir_all(&out) {
            eprintln!("fuzz-seeds: {}: {e}", out.display());
            return ExitCode::FAILURE;
        }
        for (i, bytes) in inputs.iter().enumerate() {
            let path = out.join(format!("seed-{i:04}"));
            if let Err(e) = std::fs::write(&path, bytes) {
                eprintln!("fuzz-seeds: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
        eprintln!("fuzz-seeds: {} inputs in {}", inputs.len(), out.display());
    }
    ExitCode::SUCCESS
}
