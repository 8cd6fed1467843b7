//! `ToolSchema` for std types and `#[derive(ToolSchema)]`: the schema says exactly what serde
//! accepts. Values generated from every derived schema deserialise, and serialised values of
//! the types conform to their schema (checked by a small validator over the IR).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tooldef::{Additional, Definition, Schema, SchemaKind, ToolSchema, schema_for};

// ---------------------------------------------------------------------------------------------
// a deterministic generator and a validator over the IR

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
}

fn lookup<'a>(defs: &'a [Definition], name: &str) -> &'a Schema {
    &defs.iter().find(|d| d.name == name).unwrap_or_else(|| panic!("no definition {name}")).schema
}

fn generate(s: &Schema, defs: &[Definition], rng: &mut Rng, depth: usize) -> Value {
    if s.nullable && rng.chance(4) {
        return Value::Null;
    }
    match &s.kind {
        SchemaKind::String(st) => {
            let min = st.min_length.unwrap_or(0);
            let max = st.max_length.unwrap_or(min + 6).max(min);
            let len = min + rng.below(max - min + 1);
            Value::String(
                (0..len).map(|i| char::from(b'a' + ((i + rng.below(26)) % 26) as u8)).collect(),
            )
        }
        SchemaKind::Integer(n) => {
            let lo = n.minimum.unwrap_or(-1000).max(-1000);
            let hi = n.maximum.unwrap_or(1000).min(1000).max(lo);
            json!(lo + rng.below((hi - lo) as u64 + 1) as i64)
        }
        SchemaKind::Float(n) => {
            let lo = n.minimum.unwrap_or(-1000.0);
            let hi = n.maximum.unwrap_or(1000.0);
            json!(lo + (hi - lo) * (rng.below(1000) as f64 / 1000.0))
        }
        SchemaKind::Boolean => Value::Bool(rng.chance(2)),
        SchemaKind::Null => Value::Null,
        SchemaKind::Enum(e) => e.values.get(rng.below(e.values.len() as u64) as usize).to_json(),
        SchemaKind::List(l) => {
            let min = l.min_items.unwrap_or(0);
            let max = if depth > 3 { min } else { l.max_items.unwrap_or(min + 3) };
            let len = min + rng.below(max - min + 1);
            let mut items: Vec<Value> = Vec::new();
            let mut tries = 0;
            while (items.len() as u64) < len && tries < 50 {
                tries += 1;
                let v = generate(&l.items, defs, rng, depth + 1);
                if !(l.unique && items.contains(&v)) {
                    items.push(v);
                }
            }
            Value::Array(items)
        }
        SchemaKind::Object(o) => {
            let mut map = Map::new();
            for p in o.properties.iter() {
                if p.required || rng.chance(2) {
                    map.insert(p.name.to_string(), generate(&p.schema, defs, rng, depth + 1));
                }
            }
            match &o.additional {
                Additional::Typed(t) if depth < 4 => {
                    for i in 0..rng.below(3) {
                        map.insert(format!("extra_{i}"), generate(t, defs, rng, depth + 1));
                    }
                }
                Additional::Open if rng.chance(3) => {
                    map.insert("unlisted_key".into(), json!(1));
                }
                _ => {}
            }
            Value::Object(map)
        }
        SchemaKind::AnyOf(a) => {
            let i = rng.below(a.variants.len() as u64) as usize;
            generate(&a.variants[i], defs, rng, depth + 1)
        }
        SchemaKind::Ref(r) => generate(lookup(defs, &r.name), defs, rng, depth + 1),
        SchemaKind::Any => [json!(null), json!(1), json!("x"), json!([true]), json!({"k": 1.5})]
            [rng.below(5) as usize]
            .clone(),
    }
}

fn conforms(v: &Value, s: &Schema, defs: &[Definition]) -> Result<(), String> {
    if v.is_null() && s.nullable {
        return Ok(());
    }
    let fail = |what: &str| Err(format!("{v} is not {what}"));
    match (&s.kind, v) {
        (SchemaKind::String(st), Value::String(text)) => {
            let n = text.chars().count() as u64;
            if st.min_length.is_some_and(|m| n < m) || st.max_length.is_some_and(|m| n > m) {
                return fail("of the right length");
            }
            Ok(())
        }
        (SchemaKind::Integer(b), Value::Number(n)) => {
            let Some(i) = n.as_i64() else { return fail("an i64") };
            if b.minimum.is_some_and(|m| i < m) || b.maximum.is_some_and(|m| i > m) {
                return fail("in range");
            }
            Ok(())
        }
        (SchemaKind::Float(b), Value::Number(n)) => {
            let f = n.as_f64().unwrap();
            if b.minimum.is_some_and(|m| f < m) || b.maximum.is_some_and(|m| f > m) {
                return fail("in range");
            }
            Ok(())
        }
        (SchemaKind::Boolean, Value::Bool(_))
        | (SchemaKind::Null, Value::Null)
        | (SchemaKind::Any, _) => Ok(()),
        (SchemaKind::Enum(e), Value::String(text)) if e.values.contains(text) => Ok(()),
        (SchemaKind::List(l), Value::Array(items)) => {
            let n = items.len() as u64;
            if l.min_items.is_some_and(|m| n < m) || l.max_items.is_some_and(|m| n > m) {
                return fail("of the right item count");
            }
            items.iter().try_for_each(|i| conforms(i, &l.items, defs))
        }
        (SchemaKind::Object(o), Value::Object(map)) => {
            for p in o.properties.iter() {
                match map.get(p.name.as_ref()) {
                    Some(x) => conforms(x, &p.schema, defs)?,
                    None if p.required => return fail(&format!("an object with `{}`", p.name)),
                    None => {}
                }
            }
            for (k, x) in map {
                if o.properties.iter().any(|p| p.name == *k) {
                    continue;
                }
                match &o.additional {
                    Additional::Closed => return fail(&format!("an object without `{k}`")),
                    Additional::Open | Additional::Unstated => {}
                    Additional::Typed(t) => conforms(x, t, defs)?,
                }
            }
            Ok(())
        }
        (SchemaKind::AnyOf(a), _) => {
            if a.variants.iter().any(|s| conforms(v, s, defs).is_ok()) {
                Ok(())
            } else {
                fail("any variant")
            }
        }
        (SchemaKind::Ref(r), _) => conforms(v, lookup(defs, &r.name), defs),
        _ => fail(s.type_name()),
    }
}

/// Every generated value deserialises into `T`, and re-serialises to a conforming value.
fn round_trip<T: ToolSchema + DeserializeOwned + Serialize>(
    cases: u64,
) -> (Schema, Vec<Definition>) {
    let (schema, defs) = schema_for::<T>();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..cases {
        let v = generate(&schema, &defs, &mut rng, 0);
        let t: T = serde_json::from_value(v.clone()).unwrap_or_else(|e| {
            panic!("{} rejects {v} generated from its schema: {e}", std::any::type_name::<T>())
        });
        let back = serde_json::to_value(&t).unwrap();
        conforms(&back, &schema, &defs)
            .unwrap_or_else(|e| panic!("serialised {back} does not conform: {e}"));
    }
    (schema, defs)
}

fn object_of(s: &Schema) -> &tooldef::ObjectSchema {
    match &s.kind {
        SchemaKind::Object(o) => o,
        other => panic!("expected an object, got {other:?}"),
    }
}

fn props(s: &Schema) -> Vec<(String, bool)> {
    object_of(s).properties.iter().map(|p| (p.name.to_string(), p.required)).collect()
}

// ---------------------------------------------------------------------------------------------
// std types

#[test]
fn integers_have_their_natural_bounds() {
    let bounds = |s: Schema| match s.kind {
        SchemaKind::Integer(n) => (n.minimum, n.maximum),
        other => panic!("{other:?}"),
    };
    assert_eq!(bounds(schema_for::<u8>().0), (Some(0), Some(255)));
    assert_eq!(bounds(schema_for::<i8>().0), (Some(-128), Some(127)));
    assert_eq!(bounds(schema_for::<u16>().0), (Some(0), Some(65535)));
    assert_eq!(
        bounds(schema_for::<i32>().0),
        (Some(i64::from(i32::MIN)), Some(i64::from(i32::MAX)))
    );
    // The 64-bit limits restate the type and inform no model: left out (the decoder still
    // refuses a value out of range); an unsigned type's `0` is kept.
    assert_eq!(bounds(schema_for::<i64>().0), (None, None));
    assert_eq!(bounds(schema_for::<isize>().0), (None, None));
    assert_eq!(bounds(schema_for::<u32>().0), (Some(0), Some(i64::from(u32::MAX))));
    assert_eq!(bounds(schema_for::<u64>().0), (Some(0), None));
    assert_eq!(bounds(schema_for::<usize>().0), (Some(0), None));
    assert_eq!(bounds(schema_for::<i128>().0), (None, None));
    assert_eq!(bounds(schema_for::<std::num::NonZeroU8>().0), (Some(1), Some(255)));
}

#[test]
fn scalars_and_wrappers() {
    assert!(matches!(schema_for::<String>().0.kind, SchemaKind::String(_)));
    assert!(matches!(schema_for::<&str>().0.kind, SchemaKind::String(_)));
    assert!(matches!(schema_for::<bool>().0.kind, SchemaKind::Boolean));
    assert!(matches!(schema_for::<f32>().0.kind, SchemaKind::Float(_)));
    assert!(matches!(schema_for::<f64>().0.kind, SchemaKind::Float(_)));
    assert!(matches!(schema_for::<()>().0.kind, SchemaKind::Null));
    let SchemaKind::String(c) = schema_for::<char>().0.kind else { panic!() };
    assert_eq!((c.min_length, c.max_length), (Some(1), Some(1)));
    for s in [schema_for::<Box<u8>>().0, schema_for::<Arc<u8>>().0, schema_for::<Rc<u8>>().0] {
        assert_eq!(s, schema_for::<u8>().0);
    }
    let opt = schema_for::<Option<String>>().0;
    assert!(opt.nullable && matches!(opt.kind, SchemaKind::String(_)));
    const { assert!(<Option<u8> as ToolSchema>::OPTIONAL) };
    const { assert!(!<u8 as ToolSchema>::OPTIONAL) };
    const { assert!(<Box<Option<u8>> as ToolSchema>::OPTIONAL) };
}

#[test]
fn collections() {
    let SchemaKind::List(l) = schema_for::<Vec<u8>>().0.kind else { panic!() };
    assert!(!l.unique && l.min_items.is_none());
    let SchemaKind::List(l) = schema_for::<[bool; 3]>().0.kind else { panic!() };
    assert_eq!((l.min_items, l.max_items), (Some(3), Some(3)));
    for s in [schema_for::<HashSet<String>>().0, schema_for::<BTreeSet<String>>().0] {
        let SchemaKind::List(l) = s.kind else { panic!() };
        assert!(l.unique);
    }
    for s in [schema_for::<HashMap<String, u8>>().0, schema_for::<BTreeMap<String, u8>>().0] {
        let o = object_of(&s);
        assert!(o.properties.is_empty());
        let Additional::Typed(t) = &o.additional else { panic!("typed") };
        assert!(matches!(t.kind, SchemaKind::Integer(_)));
    }
    round_trip::<Vec<Option<u8>>>(64);
    round_trip::<[i8; 2]>(64);
    round_trip::<BTreeSet<u8>>(64);
    round_trip::<BTreeMap<String, Vec<bool>>>(64);
}

#[test]
fn any_json_value_is_any() {
    let (schema, defs) = round_trip::<Value>(64);
    assert_eq!(schema, Schema::any());
    assert!(defs.is_empty());
}

// ---------------------------------------------------------------------------------------------
// derived types

/// A point.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all = "camelCase")]
struct Point {
    /// Horizontal.
    x_pos: i32,
    #[serde(rename = "Y")]
    y_pos: i32,
    #[serde(default)]
    label_text: String,
    note: Option<String>,
    #[serde(skip)]
    cache: u8,
    #[serde(skip_deserializing)]
    computed: u8,
    #[serde(alias = "colour")]
    color: Option<String>,
}

#[test]
fn struct_fields_follow_serde() {
    let (s, defs) = round_trip::<Point>(128);
    assert!(defs.is_empty());
    assert_eq!(s.description.as_deref(), Some("A point."));
    assert_eq!(
        props(&s),
        [
            ("xPos".into(), true),
            ("Y".into(), true),
            ("labelText".into(), false),
            ("note".into(), false),
            ("color".into(), false)
        ]
    );
    assert_eq!(object_of(&s).properties[0].schema.description.as_deref(), Some("Horizontal."));
    // Serde ignores unknown keys: the schema does not state `additionalProperties`, so a
    // strict renderer may close it without loss and a lenient one writes nothing.
    assert_eq!(object_of(&s).additional, Additional::Unstated);
    let p: Point =
        serde_json::from_value(json!({"xPos": 1, "Y": 2, "colour": "red", "other": 1})).unwrap();
    assert_eq!(p.color.as_deref(), Some("red"));
    let _ = (p.cache, p.computed);
}

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(deny_unknown_fields, default, rename_all = "SCREAMING-KEBAB-CASE")]
struct Settings {
    max_items: u8,
    verbose_mode: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { max_items: 3, verbose_mode: false }
    }
}

#[test]
fn closed_objects_and_container_defaults() {
    let (s, _) = round_trip::<Settings>(64);
    assert_eq!(props(&s), [("MAX-ITEMS".into(), false), ("VERBOSE-MODE".into(), false)]);
    assert_eq!(object_of(&s).additional, Additional::Closed);
    assert!(serde_json::from_value::<Settings>(json!({"other": 1})).is_err());
}

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Paging {
    page: u32,
    per_page: Option<u8>,
}

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Query {
    text: String,
    #[serde(flatten)]
    paging: Paging,
}

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Labels {
    id: u8,
    #[serde(flatten)]
    rest: BTreeMap<String, String>,
}

#[test]
fn flatten_merges_properties_and_maps() {
    let (s, _) = round_trip::<Query>(128);
    assert_eq!(
        props(&s),
        [("text".into(), true), ("page".into(), true), ("per_page".into(), false)]
    );
    let (s, _) = round_trip::<Labels>(128);
    assert_eq!(props(&s), [("id".into(), true)]);
    assert!(matches!(object_of(&s).additional, Additional::Typed(_)));
}

/// Where to send it.
#[derive(Debug, Serialize, Deserialize, ToolSchema, PartialEq)]
#[serde(rename_all = "kebab-case")]
enum Channel {
    /// By e-mail.
    EMail,
    /// By text message.
    TextMessage,
    #[serde(skip)]
    #[allow(dead_code)]
    Internal,
    #[serde(rename = "pigeon")]
    Bird,
}

#[test]
fn unit_enums_are_enums_with_described_values() {
    let (s, _) = round_trip::<Channel>(64);
    let SchemaKind::Enum(e) = &s.kind else { panic!() };
    assert_eq!(
        e.values.iter_described().map(|(v, d)| (v.as_str().unwrap(), d)).collect::<Vec<_>>(),
        [
            ("e-mail", Some("By e-mail.")),
            ("text-message", Some("By text message.")),
            ("pigeon", None)
        ]
    );
    assert_eq!(s.description.as_deref(), Some("Where to send it."));
    const { assert!(matches!(<Channel as ToolSchema>::SHAPE, tooldef::Shape::Enum(_))) };
}

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
enum External {
    Stop,
    Move { x: i32, y: i32 },
    Say(String),
}

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "kind", rename_all = "snake_case", rename_all_fields = "camelCase")]
enum Internal {
    Stop,
    Move { dx_value: i32 },
    Wrap(Paging),
}

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "t", content = "c")]
enum Adjacent {
    Stop,
    Move { x: i32 },
    Say(String),
}

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(untagged)]
enum Untagged {
    Flag(bool),
    Pair { left: String, right: String },
    Nothing,
}

#[test]
fn data_enums_are_unions_in_serde_tagging() {
    let (s, _) = round_trip::<External>(128);
    let SchemaKind::AnyOf(a) = &s.kind else { panic!() };
    assert_eq!(a.variants.len(), 3);
    assert!(matches!(a.variants[0].kind, SchemaKind::Enum(_)));
    assert_eq!(props(&a.variants[1]), [("Move".into(), true)]);
    assert_eq!(object_of(&a.variants[1]).additional, Additional::Closed);

    let (s, _) = round_trip::<Internal>(128);
    let SchemaKind::AnyOf(a) = &s.kind else { panic!() };
    assert_eq!(props(&a.variants[0]), [("kind".into(), true)]);
    assert_eq!(props(&a.variants[1]), [("kind".into(), true), ("dxValue".into(), true)]);
    assert_eq!(
        props(&a.variants[2]),
        [("kind".into(), true), ("page".into(), true), ("per_page".into(), false)]
    );

    let (s, _) = round_trip::<Adjacent>(128);
    let SchemaKind::AnyOf(a) = &s.kind else { panic!() };
    assert_eq!(props(&a.variants[0]), [("t".into(), true)]);
    assert_eq!(props(&a.variants[2]), [("t".into(), true), ("c".into(), true)]);

    let (s, _) = round_trip::<Untagged>(128);
    let SchemaKind::AnyOf(a) = &s.kind else { panic!() };
    assert!(matches!(a.variants[0].kind, SchemaKind::Boolean));
    assert!(matches!(a.variants[2].kind, SchemaKind::Null));
}

/// A tree.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Tree {
    label: String,
    children: Vec<Tree>,
}

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Forest {
    trees: Vec<Tree>,
    biggest: Option<Box<Tree>>,
}

#[test]
fn recursive_types_use_definitions() {
    let (s, defs) = round_trip::<Tree>(64);
    assert_eq!(s, Schema::reference_to("Tree"));
    assert_eq!(defs.len(), 1);
    assert_eq!(props(&defs[0].schema), [("label".into(), true), ("children".into(), true)]);
    let (s, defs) = round_trip::<Forest>(64);
    assert_eq!(defs.len(), 1, "Tree is defined once and referenced twice");
    assert_eq!(props(&s), [("trees".into(), true), ("biggest".into(), false)]);
}

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Meters(f64);

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(transparent)]
struct Maybe {
    inner: Option<u8>,
}

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Marker;

#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Wrapper<T> {
    value: T,
    values: Vec<T>,
}

#[test]
fn newtypes_transparent_unit_and_generic_structs() {
    let (s, _) = round_trip::<Meters>(32);
    assert!(matches!(s.kind, SchemaKind::Float(_)));
    let (s, _) = round_trip::<Maybe>(32);
    assert!(s.nullable);
    const { assert!(<Maybe as ToolSchema>::OPTIONAL) };
    const { assert!(!<Meters as ToolSchema>::OPTIONAL) };
    let (s, _) = round_trip::<Marker>(8);
    assert!(matches!(s.kind, SchemaKind::Null));
    let (s, _) = round_trip::<Wrapper<Channel>>(64);
    assert_eq!(props(&s), [("value".into(), true), ("values".into(), true)]);
    round_trip::<Wrapper<Tree>>(32);
}

#[test]
fn generation_is_deterministic() {
    let a = serde_json::to_string(&schema_for::<Forest>()).unwrap();
    let b = serde_json::to_string(&schema_for::<Forest>()).unwrap();
    assert_eq!(a, b);
}
