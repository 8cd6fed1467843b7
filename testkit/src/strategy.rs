//! proptest strategies that generate valid descriptors, for property tests of every crate.
//!
//! Everything generated passes [`ToolDescriptor::validate`]: names are unique per object, enum
//! values unique and non-empty, bounds ordered, and every default or example is a value the
//! schema accepts (picked from values known to be valid, `null` only when nullable). Coverage:
//! every [`SchemaKind`]; string format, pattern and lengths; integer and float bounds (inclusive
//! and exclusive) and `multipleOf`; enums with and without value descriptions; lists with item
//! counts and `unique`; objects closed, open or typed, nested three levels deep; any-of unions;
//! definitions that refer to each other and to themselves (recursive types); required, nullable
//! and default in all combinations; titles, descriptions (any Unicode), examples; output schemas
//! and annotations. Property and definition names include characters that need escaping in JSON
//! pointers and `$ref`s (`/`, `~`, space).
//!
//! Two shapes are never generated because JSON Schema spells them like another shape (see
//! `tooldef::json_schema`): an any-of with a `null` variant (it is `nullable`) and a nullable
//! any-of of one variant. A nullable `Null` schema is not generated either.
//!
//! ```
//! use proptest::prelude::*;
//! use tooldef_testkit::strategy::arb_descriptor;
//!
//! proptest!(ProptestConfig::with_cases(16), |(d in arb_descriptor())| {
//!     prop_assert!(d.validate().is_ok());
//! });
//! ```
//!
//! Use at most 256 cases per property (`ProptestConfig::with_cases`), so CI stays fast.

use std::borrow::Cow;

use proptest::prelude::*;
use proptest::sample::Index;
use tooldef::{
    Additional, Annotations, Definition, EnumSchema, EnumValue, EnumValues, ListSchema, Literal,
    NumberSchema, ObjectSchema, Param, Scalar, Schema, SchemaKind, StringSchema, ToolDescriptor,
    ToolName,
};

/// The names [`arb_descriptor`] gives its definitions (some need escaping in a `$ref`).
pub const DEFINITION_NAMES: &[&str] = &["Node", "Pair", "a/b~c d"];

/// A schema of any kind, nested up to three levels, without references.
pub fn arb_schema() -> BoxedStrategy<Schema> {
    arb_schema_in(Vec::new())
}

/// A schema that may contain references to the definitions named in `definitions`.
pub fn arb_schema_in(definitions: Vec<String>) -> BoxedStrategy<Schema> {
    leaf(definitions)
        .prop_recursive(3, 24, 4, |inner| {
            prop_oneof![list(inner.clone()), object(inner.clone()), any_of(inner)]
        })
        .boxed()
}

/// A parameter (required or not) with a schema of [`arb_schema`].
pub fn arb_param() -> BoxedStrategy<Param> {
    (param_name(), arb_schema(), any::<bool>())
        .prop_map(|(name, schema, required)| make_param(name, schema, required))
        .boxed()
}

/// A valid descriptor: parameters, definitions (possibly recursive), an output schema,
/// annotations, title and description, each present or not.
pub fn arb_descriptor() -> BoxedStrategy<ToolDescriptor> {
    let defs = prop::sample::subsequence(DEFINITION_NAMES, 0..=DEFINITION_NAMES.len());
    defs.prop_flat_map(|names| {
        let names: Vec<String> = names.into_iter().map(str::to_owned).collect();
        let def_schemas = names.iter().map(|_| arb_schema_in(names.clone())).collect::<Vec<_>>();
        (
            tool_name(),
            proptest::option::of(text()),
            text(),
            params(arb_schema_in(names.clone()), 0..6),
            additional(arb_schema_in(names.clone())),
            Just(names.clone()),
            def_schemas,
            proptest::option::of(arb_schema_in(names)),
            annotations(),
        )
    })
    .prop_map(
        |(name, title, description, params, additional, names, schemas, output, annotations)| {
            ToolDescriptor {
                name,
                title: title.map(Cow::Owned),
                description: Cow::Owned(description),
                params: Cow::Owned(params),
                additional,
                definitions: Cow::Owned(
                    names.into_iter().zip(schemas).map(|(n, s)| Definition::named(n, s)).collect(),
                ),
                output: output.map(Into::into),
                annotations,
                input_kept: Vec::new(),
                extensions: tooldef::Extensions::NONE,
                grammar: None,
                input_examples: Cow::Borrowed(&[]),
                source: tooldef::SchemaSource::NONE,
            }
        },
    )
    // A safety net: construction already keeps every rule, so this rejects nothing in practice.
    .prop_filter("descriptor must validate", |d| d.validate().is_ok())
    // `Node = {"$ref": "Node"}` is well-formed but no value matches it; import refuses it.
    .prop_filter("every definition has a base case", has_base_cases)
    .boxed()
}

/// Whether some finite value matches each definition: a reference cycle must pass through a
/// nullable schema, an optional property, a list that may be empty or an `anyOf` with another
/// way out. (The least fixed point, computed naively: the generator's definitions are few.)
pub fn has_base_cases(d: &ToolDescriptor) -> bool {
    fn finite(s: &Schema, d: &ToolDescriptor, known: &[bool]) -> bool {
        if s.nullable {
            return true;
        }
        match &s.kind {
            SchemaKind::Ref(r) => {
                d.definitions.iter().position(|x| x.name == r.name).is_none_or(|i| known[i])
            }
            SchemaKind::AnyOf(a) => a.variants.iter().any(|v| finite(v, d, known)),
            SchemaKind::List(l) => l.min_items.unwrap_or(0) == 0 || finite(&l.items, d, known),
            SchemaKind::Object(o) => {
                o.properties.iter().all(|p| !p.required || finite(&p.schema, d, known))
            }
            _ => true,
        }
    }
    let mut known = vec![false; d.definitions.len()];
    loop {
        let before = known.iter().filter(|k| **k).count();
        for i in 0..known.len() {
            known[i] = known[i] || finite(&d.definitions[i].schema, d, &known);
        }
        if known.iter().filter(|k| **k).count() == before {
            return known.iter().all(|k| *k);
        }
    }
}

/// A tool name that follows the common rule.
pub fn tool_name() -> impl Strategy<Value = ToolName> {
    "[a-zA-Z0-9_-]{1,64}".prop_map(|s| ToolName::parse(s).expect("the regex follows the rule"))
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof!["[a-zA-Z ,.]{0,20}", "\\PC{0,12}"]
}

fn param_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z][a-z0-9_]{0,7}",
        1 => prop::sample::select(vec!["a/b", "x~y", "with space", "ünï", "$ref", "type"])
            .prop_map(str::to_owned),
    ]
}

fn make_param(name: String, schema: Schema, required: bool) -> Param {
    // A parameter with a default is usually optional, but both are valid.
    Param::named(name, schema).with_required(required)
}

fn params(
    schema: BoxedStrategy<Schema>,
    count: std::ops::Range<usize>,
) -> impl Strategy<Value = Vec<Param>> {
    prop::collection::vec((param_name(), schema, any::<bool>()), count).prop_map(|raw| {
        let mut out: Vec<Param> = Vec::new();
        for (name, schema, required) in raw {
            if !out.iter().any(|p| p.name == name.as_str()) {
                out.push(make_param(name, schema, required));
            }
        }
        out
    })
}

fn additional(schema: BoxedStrategy<Schema>) -> impl Strategy<Value = Additional> {
    prop_oneof![
        Just(Additional::Closed),
        Just(Additional::Open),
        Just(Additional::Unstated),
        schema.prop_map(|s| Additional::Typed(s.into())),
    ]
}

fn annotations() -> impl Strategy<Value = Annotations> {
    let hint = || proptest::option::of(any::<bool>());
    (proptest::option::of(text()), hint(), hint(), hint(), hint()).prop_map(
        |(title, read_only, destructive, idempotent, open_world)| Annotations {
            title: title.map(Cow::Owned),
            read_only,
            destructive,
            idempotent,
            open_world,
        },
    )
}

/// A kind with some values it is known to accept (candidates for defaults and examples).
type KindValues = (SchemaKind, Vec<Literal>);

fn leaf(definitions: Vec<String>) -> BoxedStrategy<Schema> {
    let mut kinds: Vec<BoxedStrategy<KindValues>> = vec![
        string_kind().boxed(),
        integer_kind().boxed(),
        float_kind().boxed(),
        Just((SchemaKind::Boolean, vec![Literal::Bool(true), Literal::Bool(false)])).boxed(),
        enum_kind().boxed(),
        Just((SchemaKind::Null, vec![Literal::Null])).boxed(),
    ];
    if !definitions.is_empty() {
        let refs = prop::sample::select(definitions)
            .prop_map(|name| (Schema::reference_to(name).kind, Vec::new()));
        kinds.push(refs.boxed());
    }
    finish(proptest::strategy::Union::new(kinds))
}

/// Adds the annotations every kind may carry: nullable, title, description, default, examples.
fn finish(kind: impl Strategy<Value = KindValues> + 'static) -> BoxedStrategy<Schema> {
    (
        kind,
        any::<bool>(),
        proptest::option::of(text()),
        proptest::option::of(text()),
        proptest::option::of(any::<Index>()),
        0usize..3,
    )
        .prop_map(|((kind, mut values), nullable, title, description, default, examples)| {
            let nullable = nullable && !matches!(kind, SchemaKind::Null);
            if nullable {
                values.push(Literal::Null);
            }
            let default = match default {
                Some(i) if !values.is_empty() => Some(values[i.index(values.len())].clone()),
                _ => None,
            };
            let examples: Vec<Literal> = values.iter().take(examples).cloned().collect();
            Schema {
                kind,
                nullable,
                title: title.map(Cow::Owned),
                description: description.map(Cow::Owned),
                default,
                examples: Cow::Owned(examples),
                kept: Vec::new(),
            }
        })
        .boxed()
}

fn ordered(a: Option<u64>, b: Option<u64>) -> (Option<u64>, Option<u64>) {
    match (a, b) {
        (Some(x), Some(y)) if x > y => (Some(y), Some(x)),
        other => other,
    }
}

fn string_kind() -> impl Strategy<Value = KindValues> {
    let format = proptest::option::of(prop::sample::select(vec!["date-time", "email", "uuid"]));
    let pattern = proptest::option::of(Just("^[a-z]*$"));
    let len = || proptest::option::of(0u64..6);
    (format, pattern, len(), len()).prop_map(|(format, pattern, a, b)| {
        let (min_length, max_length) = ordered(a, b);
        let lo = min_length.unwrap_or(0);
        // Values match the pattern and the lengths; a format makes them meaningless, so none.
        let values = if format.is_some() {
            Vec::new()
        } else {
            let hi = max_length.unwrap_or(lo + 2);
            (lo..=hi).map(|n| Literal::Str(Cow::Owned("a".repeat(n as usize)))).collect()
        };
        let kind = SchemaKind::String(StringSchema {
            format: format.map(Cow::Borrowed),
            pattern: pattern.map(Cow::Borrowed),
            min_length,
            max_length,
        });
        (kind, values)
    })
}

fn integer_kind() -> impl Strategy<Value = KindValues> {
    let bound = || proptest::option::of(-50i64..50);
    (bound(), bound(), any::<bool>(), any::<bool>(), proptest::option::of(1i64..5)).prop_map(
        |(a, b, exclusive_lo, exclusive_hi, step)| {
            let (a, b) = match (a, b) {
                (Some(x), Some(y)) if x > y => (Some(y), Some(x)),
                other => other,
            };
            // Exclusive bounds need room between them.
            let (a, b) = match (a, b) {
                (Some(x), Some(y)) if y - x < 2 => (Some(x), Some(x + 2)),
                other => other,
            };
            let mut n = NumberSchema::NONE_I64;
            if exclusive_lo {
                n.exclusive_minimum = a
            } else {
                n.minimum = a
            }
            if exclusive_hi {
                n.exclusive_maximum = b
            } else {
                n.maximum = b
            }
            n.multiple_of = step;
            let lo = a.map_or(-60, |x| if exclusive_lo { x + 1 } else { x });
            let hi = b.map_or(60, |y| if exclusive_hi { y - 1 } else { y });
            let step = step.unwrap_or(1);
            let values = (lo..=hi).filter(|v| v % step == 0).take(3).map(Literal::Int).collect();
            (SchemaKind::Integer(n), values)
        },
    )
}

fn float_kind() -> impl Strategy<Value = KindValues> {
    let bound = || proptest::option::of((-40i32..40).prop_map(|q| f64::from(q) / 4.0));
    (bound(), bound(), any::<bool>(), proptest::option::of(prop::sample::select(vec![0.5, 2.0])))
        .prop_map(|(a, b, exclusive, step)| {
            let (a, b) = match (a, b) {
                (Some(x), Some(y)) if x > y => (Some(y), Some(x)),
                other => other,
            };
            let (a, b) = match (a, b) {
                (Some(x), Some(y)) if y - x < 1.0 => (Some(x), Some(x + 1.0)),
                other => other,
            };
            let mut n = NumberSchema::NONE_F64;
            if exclusive {
                n.exclusive_minimum = a;
                n.exclusive_maximum = b;
            } else {
                n.minimum = a;
                n.maximum = b;
            }
            n.multiple_of = step;
            // Whole multiples of 2 inside the bounds satisfy every step generated.
            let lo = match (a, b) {
                (Some(x), _) => x + 0.25,
                (None, Some(y)) => y - 1.0,
                (None, None) => 0.5,
            };
            let values = if step.is_some() {
                Vec::new()
            } else {
                vec![Literal::Float(lo), Literal::Float(lo + 0.25)]
            };
            (SchemaKind::Float(n), values)
        })
}

fn enum_kind() -> impl Strategy<Value = KindValues> {
    prop_oneof![3 => string_enum_kind(), 1 => scalar_enum_kind()]
}

fn string_enum_kind() -> impl Strategy<Value = KindValues> {
    let values = prop::collection::btree_set("[a-z][a-z_]{0,5}|Ünï|a b", 1..5);
    let descriptions = prop::collection::vec(proptest::option::of(text()), 5);
    (values, descriptions, any::<bool>()).prop_map(|(values, descriptions, described)| {
        let list: Vec<EnumValue> = values
            .iter()
            .zip(descriptions)
            .map(|(v, d)| EnumValue {
                value: Scalar::Str(Cow::Owned(v.clone())),
                description: if described { d.map(Cow::Owned) } else { None },
            })
            .collect();
        let literals = values.into_iter().map(|v| Literal::Str(Cow::Owned(v))).collect();
        (SchemaKind::Enum(EnumSchema { values: EnumValues::owned(list) }), literals)
    })
}

/// Enums of integers, numbers and booleans, alone or mixed with strings (no two values equal
/// under JSON Schema: the float is never whole).
fn scalar_enum_kind() -> impl Strategy<Value = KindValues> {
    let strings = prop::collection::btree_set("[a-z]{1,4}", 0..3);
    let ints = prop::collection::btree_set(-5i64..200, 0..4);
    let float = proptest::option::of(prop_oneof![Just(2.5), Just(-0.125), Just(1e-3)]);
    let boolean = proptest::option::of(any::<bool>());
    let descriptions = prop::collection::vec(proptest::option::of(text()), 10);
    (ints, strings, float, boolean, descriptions, any::<bool>())
        .prop_filter("an enum has a value", |(i, s, f, b, _, _)| {
            !i.is_empty() || !s.is_empty() || f.is_some() || b.is_some()
        })
        .prop_map(|(ints, strings, float, boolean, descriptions, described)| {
            let mut values: Vec<Scalar> = ints.into_iter().map(Scalar::Int).collect();
            values.extend(float.map(Scalar::Float));
            values.extend(strings.into_iter().map(|s| Scalar::Str(Cow::Owned(s))));
            values.extend(boolean.map(Scalar::Bool));
            let literals = values.iter().map(|v| v.as_ref().to_literal()).collect();
            let list: Vec<EnumValue> = values
                .into_iter()
                .zip(descriptions)
                .map(|(value, d)| EnumValue {
                    value,
                    description: if described { d.map(Cow::Owned) } else { None },
                })
                .collect();
            (SchemaKind::Enum(EnumSchema { values: EnumValues::owned(list) }), literals)
        })
}

fn list(inner: BoxedStrategy<Schema>) -> BoxedStrategy<Schema> {
    let count = || proptest::option::of(0u64..4);
    let kind = (inner, count(), count(), any::<bool>()).prop_map(|(items, a, b, unique)| {
        let (min_items, max_items) = ordered(a, b);
        let values = if min_items.unwrap_or(0) == 0 {
            vec![Literal::List(Cow::Owned(Vec::new()))]
        } else {
            Vec::new()
        };
        let kind =
            SchemaKind::List(ListSchema { items: items.into(), min_items, max_items, unique });
        (kind, values)
    });
    finish(kind)
}

fn object(inner: BoxedStrategy<Schema>) -> BoxedStrategy<Schema> {
    let kind = (params(inner.clone(), 0..4), additional(inner)).prop_map(|(params, additional)| {
        let values = if params.iter().all(|p| !p.required) {
            vec![Literal::Object(Cow::Owned(Vec::new()))]
        } else {
            Vec::new()
        };
        (SchemaKind::Object(ObjectSchema { properties: Cow::Owned(params), additional }), values)
    });
    finish(kind)
}

fn any_of(inner: BoxedStrategy<Schema>) -> BoxedStrategy<Schema> {
    let variant = inner.prop_filter("no null variant", |s| !matches!(s.kind, SchemaKind::Null));
    let kind = prop::collection::vec(variant, 2..4)
        .prop_map(|variants| (Schema::any_of_owned(variants).kind, Vec::new()));
    finish(kind)
}
