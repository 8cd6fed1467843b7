//! The precondition of the co-resident bench: a build holding tooldef and every provider crate
//! leaves serde_json's `preserve_order` feature off, so the serde_json, schemars and jsonschema
//! code of the program they live in runs as it would without tooldef.

use serde_json::{Map, Value};

#[test]
fn serde_json_maps_stay_sorted_beside_tooldef_and_every_provider() {
    // This crate depends on tooldef and every provider; use them so they are linked.
    let providers = tooldef_benches::providers::providers();
    assert_eq!(providers.len(), 7);
    let mut map = Map::new();
    map.insert("b".to_owned(), Value::Null);
    map.insert("a".to_owned(), Value::Null);
    let keys: Vec<&str> = map.keys().map(String::as_str).collect();
    assert_eq!(keys, ["a", "b"], "serde_json's preserve_order is on in this build");
}
