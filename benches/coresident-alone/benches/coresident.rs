//! The co-resident bench without tooldef in the dependency tree: the same source as
//! `tooldef-benches`'s `coresident` bench (`benches/benches/coresident_shared/mod.rs`).
//!
//! `cargo bench -p tooldef-coresident-alone --features bench --bench coresident`

use criterion::{Criterion, criterion_group, criterion_main};

#[path = "../../benches/coresident_shared/mod.rs"]
mod shared;

use shared::ArgsVisitor;

fn coresident(c: &mut Criterion) {
    shared::bench(c, "coresident_alone");
}

criterion_group! {
    name = benches;
    config = shared::config();
    targets = coresident
}
criterion_main!(benches);
