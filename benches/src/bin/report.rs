//! Prints the ratio table of the last criterion run (run the benches first; see `README.md`).

// A report binary: printing is its job.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use tooldef_benches::providers::providers;
use tooldef_benches::report::{comparisons, criterion_dir, table};

fn main() {
    let ids: Vec<&str> = providers().iter().map(|p| p.id).collect();
    let dir = criterion_dir();
    {
        println!("{}", table(&dir, &comparisons(&ids)));
    }
}
