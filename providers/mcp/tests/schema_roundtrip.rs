//! `import` from MCP then `render` for MCP gives back the same `inputSchema` and `outputSchema`
//! (JSON-equal), for generated schemas that use the keywords the IR cannot type (kept verbatim),
//! overlapping `oneOf`, objects that do not state `additionalProperties`, and enums of integers,
//! numbers, booleans and mixed scalars.
//!
//! The generated schemas are in the form tooldef writes (an object's `properties` not empty,
//! `required` in property order, a `null` only through `type`); other spellings of the same
//! schema come back normalised, which `tests/json_schema.rs` of the `tooldef` crate covers.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use tooldef::render::{LossPolicy, Renderer};
use tooldef_mcp::{McpRenderer, import_tools};

/// A schema the IR types exactly.
fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!({"type": "string"})),
        (1u64..5).prop_map(|n| json!({"type": "string", "minLength": n})),
        (-5i64..5).prop_map(|n| json!({"type": "integer", "minimum": n})),
        Just(json!({"type": "boolean"})),
        Just(json!({"type": "string", "enum": ["a", "b"]})),
        Just(json!({"type": ["number", "null"]})),
        // Enums of scalars other than strings, alone and mixed, with and without null.
        prop::collection::btree_set(-3i64..40, 1..4)
            .prop_map(|v| json!({"type": "integer", "enum": v.into_iter().collect::<Vec<_>>()})),
        Just(json!({"type": "number", "enum": [0.5, 2, -1.25]})),
        Just(json!({"type": "boolean", "enum": [true]})),
        Just(json!({"type": ["string", "integer", "boolean"], "enum": ["a", 1, false]})),
        Just(json!({"type": ["integer", "null"], "enum": [3, null]})),
    ]
}

/// Keywords the IR cannot type, for an object with `names` as its properties.
fn object_kept(
    names: Vec<String>,
    inner: BoxedStrategy<Value>,
) -> impl Strategy<Value = Map<String, Value>> {
    let first = names[0].clone();
    let last = names[names.len() - 1].clone();
    (
        proptest::option::of(inner.clone()),
        proptest::option::of(inner.clone()),
        proptest::option::of((inner.clone(), inner.clone())),
        proptest::option::of(1u64..4),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(move |(not, pattern, cond, min, names_bound, dependent)| {
            let mut m = Map::new();
            if let Some(not) = not {
                m.insert("not".into(), not);
            }
            if let Some(p) = pattern {
                m.insert("patternProperties".into(), json!({"^x-": p}));
            }
            if let Some((then, otherwise)) = cond {
                m.insert("if".into(), json!({"required": [first]}));
                m.insert("then".into(), then);
                m.insert("else".into(), otherwise);
            }
            if let Some(min) = min {
                m.insert("minProperties".into(), json!(min));
                m.insert("maxProperties".into(), json!(min + 3));
            }
            if names_bound {
                m.insert("propertyNames".into(), json!({"maxLength": 12}));
            }
            if dependent {
                m.insert("dependentRequired".into(), json!({ first.clone(): [last] }));
                m.insert("dependentSchemas".into(), json!({ last.clone(): {"required": [first]} }));
            }
            m
        })
}

fn object(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    let additional = prop_oneof![
        Just(None),
        Just(Some(json!(false))),
        Just(Some(json!(true))),
        inner.clone().prop_map(Some),
    ];
    (proptest::collection::vec((inner.clone(), any::<bool>()), 1..4), additional)
        .prop_flat_map(move |(props, additional)| {
            let names: Vec<String> = (0..props.len()).map(|i| format!("p{i}")).collect();
            (Just(props), Just(additional), object_kept(names, inner.clone()))
        })
        .prop_map(|(props, additional, kept)| {
            let mut m = Map::new();
            m.insert("type".into(), json!("object"));
            let mut properties = Map::new();
            let mut required = Vec::new();
            for (i, (schema, req)) in props.into_iter().enumerate() {
                properties.insert(format!("p{i}"), schema);
                if req {
                    required.push(json!(format!("p{i}")));
                }
            }
            m.insert("properties".into(), Value::Object(properties));
            if !required.is_empty() {
                m.insert("required".into(), Value::Array(required));
            }
            if let Some(a) = additional {
                m.insert("additionalProperties".into(), a);
            }
            m.extend(kept);
            Value::Object(m)
        })
}

fn array(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    prop_oneof![
        (inner.clone(), proptest::option::of(inner.clone())).prop_map(|(items, contains)| {
            let mut m = json!({"type": "array", "items": items});
            if let Some(c) = contains {
                m["contains"] = c;
                m["minContains"] = json!(1);
            }
            m
        }),
        (proptest::collection::vec(inner.clone(), 1..3), proptest::option::of(inner)).prop_map(
            |(prefix, rest)| {
                let mut m = json!({"type": "array", "prefixItems": prefix});
                if let Some(rest) = rest {
                    m["items"] = rest;
                }
                m
            }
        ),
    ]
}

fn schema() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 24, 3, |inner| {
        let inner = inner.boxed();
        prop_oneof![
            object(inner.clone()),
            array(inner.clone()),
            proptest::collection::vec(inner.clone(), 2..4).prop_map(|v| json!({"oneOf": v})),
            proptest::collection::vec(inner.clone(), 2..4).prop_map(|v| json!({"anyOf": v})),
            (inner.clone(), inner).prop_map(|(s, n)| {
                let mut s = s;
                s["not"] = n;
                s
            }),
        ]
    })
}

fn input_schema() -> impl Strategy<Value = Value> {
    object(schema().boxed())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn import_then_render_gives_back_the_same_schemas(input in input_schema(), output in schema()) {
        let list = json!({"tools": [{"name": "t", "inputSchema": input, "outputSchema": output}]});
        let imported = import_tools(&list).map_err(|e| TestCaseError::fail(format!("{e}\n{list:#}")))?;
        let rendered = McpRenderer::new()
            .render(&imported.tools[0], LossPolicy::Refuse)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{list:#}")))?;
        let v = rendered.to_value();
        prop_assert_eq!(&v["inputSchema"], &list["tools"][0]["inputSchema"]);
        prop_assert_eq!(&v["outputSchema"], &list["tools"][0]["outputSchema"]);
        prop_assert!(rendered.report().is_empty(), "{:?}", rendered.report());
    }
}
