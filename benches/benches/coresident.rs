//! The co-resident bench with tooldef and every provider crate linked into the binary (see
//! `coresident_shared/mod.rs`; `coresident-alone` runs the same source without tooldef).
//!
//! `cargo bench -p tooldef-benches --features bench --bench coresident`
//! `cargo bench -p tooldef-coresident-alone --features bench --bench coresident`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tooldef::LossPolicy;

#[path = "coresident_shared/mod.rs"]
mod shared;

use shared::ArgsVisitor;

fn coresident(c: &mut Criterion) {
    // Use tooldef and every provider once, as an application holding both kinds of tools does.
    for p in tooldef_benches::providers::providers() {
        let d = tooldef_benches::generated::tooldef_const::DESCRIPTORS[0];
        black_box(p.renderer.render(d, LossPolicy::Allow).expect("renders"));
    }
    shared::bench(c, "coresident_with_tooldef");
}

criterion_group! {
    name = benches;
    config = shared::config();
    targets = coresident
}
criterion_main!(benches);
