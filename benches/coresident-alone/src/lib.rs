//! The co-resident bench's other half: the crates tooldef lives beside (schemars, serde_json,
//! jsonschema), built without tooldef in the dependency tree. The library is empty; the bench
//! (`benches/coresident.rs`, behind the `bench` feature) is the crate's whole point. Build it
//! alone (`-p tooldef-coresident-alone`), since cargo unifies features over the packages built
//! together.
