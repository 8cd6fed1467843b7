//! Argument values generated from a schema: valid ones ([`arb_value_for`], [`arb_args_for`])
//! and ones that break exactly one constraint at a known JSON pointer ([`arb_broken_args`]).
//!
//! Valid values stay small: strings of a few characters, at most three items beyond a list's
//! minimum, numbers within a thousand of zero when unbounded, recursion cut after a few levels.

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use tooldef::{
    Additional, Definition, JsonPointer, NumberSchema, Param, ScalarRef, Schema, SchemaKind,
    ToolDescriptor,
};

/// How many nested objects, lists and references a generated value goes through before it
/// sticks to what is required.
const BUDGET: u32 = 4;
/// Half-width of the range used for unbounded numbers.
const SPAN: i64 = 1000;

/// The definitions a value is generated under, with the height of each (computed once).
struct DefTable {
    defs: Vec<Definition>,
    heights: Vec<Option<u32>>,
}

type Defs = Arc<DefTable>;

impl DefTable {
    fn new(defs: &[Definition]) -> Self {
        DefTable { defs: defs.to_vec(), heights: definition_heights(defs) }
    }

    /// See [`height_with`].
    fn height(&self, schema: &Schema) -> Option<u32> {
        height_with(schema, &self.defs, &self.heights)
    }

    /// Whether `schema` has a finite value (see [`has_finite_value`]).
    fn finite(&self, schema: &Schema) -> bool {
        self.height(schema).is_some()
    }
}

/// Values valid for `schema`, resolving references in `definitions`.
pub fn arb_value_for(schema: &Schema, definitions: &[Definition]) -> BoxedStrategy<Value> {
    gen_schema(schema, &Arc::new(DefTable::new(definitions)), BUDGET)
}

/// Argument objects valid for `descriptor`.
pub fn arb_args_for(descriptor: &ToolDescriptor) -> BoxedStrategy<Value> {
    let defs: Defs = Arc::new(DefTable::new(&descriptor.definitions));
    gen_object(&descriptor.params, &descriptor.additional, &defs, BUDGET)
}

/// Which constraint a broken value breaks, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Breach {
    /// The JSON pointer at which a validator must report the error.
    pub pointer: JsonPointer,
    /// The constraint broken (`"required"`, `"type"`, `"minimum"`, `"unique"`...).
    pub constraint: &'static str,
}

/// Argument objects for `descriptor` that break exactly one constraint, with where the error
/// must be reported. Starts from a valid value of [`arb_args_for`] and picks one of the
/// constraints that value can be made to break.
pub fn arb_broken_args(descriptor: &ToolDescriptor) -> BoxedStrategy<(Value, Breach)> {
    let d = Arc::new(descriptor.clone());
    arb_args_for(descriptor)
        .prop_flat_map(move |valid| {
            let mut sites = Vec::new();
            let mut walk = Sites { defs: &d.definitions, out: &mut sites };
            walk.root(&d, &valid);
            let sites = Arc::new(sites);
            (Just(valid), 0..sites.len()).prop_map(move |(valid, i)| sites[i].apply(valid))
        })
        .boxed()
}

/// Whether `descriptor` accepts some finite argument object: false when a required property
/// leads, through non-nullable objects, non-empty lists and every variant of a union, back to
/// the definition it started from (`Node { next: Node }`), which no JSON value can satisfy.
pub fn has_finite_value(descriptor: &ToolDescriptor) -> bool {
    let table = DefTable::new(&descriptor.definitions);
    descriptor.params.iter().filter(|p| p.required).all(|p| table.finite(&p.schema))
}

/// Every schema of `descriptor`, outermost first: parameters and what they nest, typed
/// additional properties, definitions and the output schema.
pub fn schemas(descriptor: &ToolDescriptor) -> Vec<&Schema> {
    fn push<'a>(schema: &'a Schema, out: &mut Vec<&'a Schema>) {
        out.push(schema);
        match &schema.kind {
            SchemaKind::List(l) => push(&l.items, out),
            SchemaKind::Object(o) => {
                o.properties.iter().for_each(|p| push(&p.schema, out));
                if let Additional::Typed(s) = &o.additional {
                    push(s, out);
                }
            }
            SchemaKind::AnyOf(a) => a.variants.iter().for_each(|v| push(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    descriptor.params.iter().for_each(|p| push(&p.schema, &mut out));
    if let Additional::Typed(s) = &descriptor.additional {
        push(s, &mut out);
    }
    descriptor.definitions.iter().for_each(|d| push(&d.schema, &mut out));
    if let Some(o) = &descriptor.output {
        push(o, &mut out);
    }
    out
}

/// Whether `schema` refers to a definition anywhere inside.
fn has_ref(schema: &Schema) -> bool {
    match &schema.kind {
        SchemaKind::Ref(_) => true,
        SchemaKind::List(l) => has_ref(&l.items),
        SchemaKind::Object(o) => {
            o.properties.iter().any(|p| has_ref(&p.schema))
                || matches!(&o.additional, Additional::Typed(s) if has_ref(s))
        }
        SchemaKind::AnyOf(a) => a.variants.iter().any(has_ref),
        _ => false,
    }
}

/// How deep the shallowest value of each definition nests (`None`: no finite value), by
/// relaxation to a fixed point.
fn definition_heights(defs: &[Definition]) -> Vec<Option<u32>> {
    let mut heights = vec![None; defs.len()];
    for _ in 0..=defs.len() * 4 + 4 {
        let mut changed = false;
        for (i, d) in defs.iter().enumerate() {
            let h = height_with(&d.schema, defs, &heights);
            if h.is_some() && (heights[i].is_none() || h < heights[i]) {
                heights[i] = h;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    heights
}

/// How deep the shallowest valid value of `schema` nests; `None` when it has none (endless
/// recursion through required properties, empty numeric ranges, too few distinct values for a
/// unique list). Along the shallowest choice the height falls at every object and list, which
/// is what makes generation from it end.
fn height_with(schema: &Schema, defs: &[Definition], heights: &[Option<u32>]) -> Option<u32> {
    if schema.nullable { Some(0) } else { kind_height(schema, defs, heights) }
}

/// [`height_with`] of the schema without its `null`.
fn kind_height(schema: &Schema, defs: &[Definition], heights: &[Option<u32>]) -> Option<u32> {
    match &schema.kind {
        SchemaKind::List(l) => {
            let min = l.min_items.unwrap_or(0);
            if l.unique && domain_size(&l.items).is_some_and(|n| n < min) {
                return None;
            }
            if min == 0 { Some(0) } else { height_with(&l.items, defs, heights).map(|h| h + 1) }
        }
        SchemaKind::Object(o) => o
            .properties
            .iter()
            .filter(|p| p.required)
            .try_fold(0, |acc, p| Some(acc.max(height_with(&p.schema, defs, heights)? + 1))),
        SchemaKind::AnyOf(a) => {
            a.variants.iter().filter_map(|v| height_with(v, defs, heights)).min()
        }
        SchemaKind::Ref(r) => defs.iter().position(|d| d.name == r.name).and_then(|i| heights[i]),
        SchemaKind::Integer(n) => int_steps(n).map(|_| 0),
        SchemaKind::Float(n) => float_steps(n).map(|_| 0),
        _ => Some(0),
    }
}

/// How many distinct values `schema` accepts, when that is a small known number (what a list
/// of unique items can hold at most); `None` when large or unknown.
fn domain_size(schema: &Schema) -> Option<u64> {
    let base = match &schema.kind {
        SchemaKind::Boolean => 2,
        SchemaKind::Null => 1,
        SchemaKind::Enum(e) => e.values.len() as u64,
        SchemaKind::String(s) if s.max_length == Some(0) => 1,
        SchemaKind::Integer(n) => {
            let lo = n.minimum.or(n.exclusive_minimum.map(|x| x.saturating_add(1)))?;
            let hi = n.maximum.or(n.exclusive_maximum.map(|x| x.saturating_sub(1)))?;
            let step = n.multiple_of.filter(|s| *s > 0).unwrap_or(1);
            u64::try_from((hi.saturating_sub(lo)) / step).ok()?.saturating_add(1)
        }
        SchemaKind::AnyOf(a) => {
            a.variants.iter().map(domain_size).try_fold(0u64, |n, v| Some(n.saturating_add(v?)))?
        }
        _ => return None,
    };
    Some(base + u64::from(schema.nullable))
}

fn find_def<'d>(defs: &'d [Definition], name: &str) -> Option<&'d Schema> {
    defs.iter().find(|d| d.name == name).map(|d| &d.schema)
}

fn gen_schema(schema: &Schema, defs: &Defs, budget: u32) -> BoxedStrategy<Value> {
    thread_local!(static NESTING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) });
    // A definition that requires itself has no finite value; stop instead of overflowing.
    if NESTING.get() > 32 {
        return Just(Value::Null).boxed();
    }
    NESTING.set(NESTING.get() + 1);
    let out = gen_nullable(schema, defs, budget);
    NESTING.set(NESTING.get() - 1);
    out
}

fn gen_nullable(schema: &Schema, defs: &Defs, budget: u32) -> BoxedStrategy<Value> {
    if schema.nullable && (budget == 0 || kind_height(schema, &defs.defs, &defs.heights).is_none())
    {
        // The shortest way out of recursive definitions, and the only value when the rest of
        // the schema has none.
        return Just(Value::Null).boxed();
    }
    let base = gen_kind(schema, defs, budget);
    if schema.nullable { prop_oneof![1 => Just(Value::Null), 4 => base].boxed() } else { base }
}

fn gen_kind(schema: &Schema, defs: &Defs, budget: u32) -> BoxedStrategy<Value> {
    match &schema.kind {
        SchemaKind::String(s) => {
            let min = s.min_length.unwrap_or(0);
            let max = s.max_length.unwrap_or(min + 8).min(min + 8);
            match &s.pattern {
                // The generator produces whole matches and knows no anchors.
                Some(p) => match proptest::string::string_regex(unanchored(p)) {
                    Ok(strategy) => strategy
                        .prop_filter("length bounds", move |v| {
                            let n = v.chars().count() as u64;
                            n >= min && n <= max
                        })
                        .prop_map(Value::String)
                        .boxed(),
                    Err(_) => Just(Value::String("a".repeat(min as usize))).boxed(),
                },
                None => proptest::string::string_regex(&format!("[a-zA-Z0-9 _é]{{{min},{max}}}"))
                    .map(|s| s.prop_map(Value::String).boxed())
                    .unwrap_or_else(|_| Just(Value::String(String::new())).boxed()),
            }
        }
        SchemaKind::Integer(n) => match int_steps(n) {
            Some((klo, khi, step)) => (klo..=khi).prop_map(move |k| json!(k * step)).boxed(),
            None => Just(json!(n.minimum.unwrap_or(0))).boxed(),
        },
        SchemaKind::Float(n) => match float_steps(n) {
            Some((klo, khi, step)) => (klo..=khi).prop_map(move |k| json!(k as f64 * step)).boxed(),
            None => Just(json!(n.minimum.unwrap_or(0.0))).boxed(),
        },
        SchemaKind::Boolean => any::<bool>().prop_map(Value::Bool).boxed(),
        SchemaKind::Null => Just(Value::Null).boxed(),
        SchemaKind::Any => {
            proptest::sample::select(vec![json!(1), json!("x"), json!(true), json!([]), json!({})])
                .boxed()
        }
        SchemaKind::Enum(e) => {
            let values: Vec<Value> = e.values.iter().map(|v| v.to_json()).collect();
            proptest::sample::select(values).boxed()
        }
        SchemaKind::List(l) => {
            let min = l.min_items.unwrap_or(0) as usize;
            let extra = if budget == 0 { 0 } else { 3 };
            let max = l.max_items.map_or(min + extra, |m| (m as usize).min(min + extra));
            if max == 0 || (min == 0 && !defs.finite(&l.items)) {
                return Just(json!([])).boxed();
            }
            let item = gen_schema(&l.items, defs, budget.saturating_sub(1));
            let unique = l.unique;
            proptest::collection::vec(item, min..=max.max(min))
                .prop_map(move |mut items| {
                    if unique {
                        let mut seen: Vec<Value> = Vec::new();
                        items.retain(|v| {
                            let fresh = !seen.contains(v);
                            if fresh {
                                seen.push(v.clone());
                            }
                            fresh
                        });
                    }
                    items
                })
                .prop_filter("enough distinct items", move |items| items.len() >= min)
                .prop_map(Value::Array)
                .boxed()
        }
        SchemaKind::Object(o) => gen_object(&o.properties, &o.additional, defs, budget),
        SchemaKind::AnyOf(a) => {
            // Out of budget: one variant, without references when there is one, so that
            // recursive definitions end.
            if budget == 0 {
                let pick = a
                    .variants
                    .iter()
                    .filter_map(|v| defs.height(v).map(|h| (h, has_ref(v), v)))
                    .min_by_key(|(h, with_ref, _)| (*h, *with_ref))
                    .map(|(_, _, v)| v);
                if let Some(v) = pick.or(a.variants.first()) {
                    return gen_schema(v, defs, 0);
                }
            }
            // Variants without a finite value (endless recursion) are never picked.
            let mut variants: Vec<_> = a
                .variants
                .iter()
                .filter(|v| defs.finite(v))
                .map(|v| gen_schema(v, defs, budget))
                .collect();
            if variants.is_empty() {
                variants = a.variants.iter().map(|v| gen_schema(v, defs, budget)).collect();
            }
            proptest::strategy::Union::new(variants).boxed()
        }
        SchemaKind::Ref(r) => match find_def(&defs.defs, &r.name) {
            Some(target) => {
                let target = target.clone();
                gen_schema(&target, defs, budget.saturating_sub(1))
            }
            None => Just(Value::Null).boxed(),
        },
    }
}

/// The multiples `klo..=khi` of `step` that an integer schema's values are drawn from; `None`
/// when its bounds leave no value.
fn int_steps(n: &NumberSchema<i64>) -> Option<(i64, i64, i64)> {
    let mut lo = n.minimum.unwrap_or(i64::MIN);
    let mut hi = n.maximum.unwrap_or(i64::MAX);
    if let Some(x) = n.exclusive_minimum {
        lo = lo.max(x.saturating_add(1));
    }
    if let Some(x) = n.exclusive_maximum {
        hi = hi.min(x.saturating_sub(1));
    }
    let (lo, hi) = clamp_span(lo, hi);
    let step = n.multiple_of.filter(|s| *s > 0).unwrap_or(1);
    let (klo, khi) = (div_ceil(lo, step), lo.max(hi).div_euclid(step));
    (klo <= khi && hi >= lo).then_some((klo, khi, step))
}

/// The multiples `klo..=khi` of `step` that a float schema's values are drawn from (a quarter
/// when no `multipleOf` is given); `None` when its bounds leave no such value.
fn float_steps(n: &NumberSchema<f64>) -> Option<(i64, i64, f64)> {
    let step = n.multiple_of.filter(|s| *s > 0.0).unwrap_or(0.25);
    let lo = n.minimum.unwrap_or(-(SPAN as f64));
    let hi = n.maximum.unwrap_or(lo.max(0.0) + SPAN as f64);
    let mut klo = (lo / step).ceil() as i64;
    let mut khi = (hi / step).floor() as i64;
    if let Some(x) = n.exclusive_minimum {
        klo = klo.max((x / step).floor() as i64);
        while klo as f64 * step <= x {
            klo += 1;
        }
    }
    if let Some(x) = n.exclusive_maximum {
        khi = khi.min((x / step).ceil() as i64);
        while khi as f64 * step >= x {
            khi -= 1;
        }
    }
    (klo <= khi).then_some((klo, khi, step))
}

fn unanchored(pattern: &str) -> &str {
    let body = pattern.strip_prefix('^').unwrap_or(pattern);
    body.strip_suffix('$').unwrap_or(body)
}

fn clamp_span(lo: i64, hi: i64) -> (i64, i64) {
    match (lo == i64::MIN, hi == i64::MAX) {
        (true, true) => (-SPAN, SPAN),
        (true, false) => (hi.saturating_sub(2 * SPAN), hi),
        (false, true) => (lo, lo.saturating_add(2 * SPAN)),
        (false, false) => (lo, hi),
    }
}

fn div_ceil(a: i64, b: i64) -> i64 {
    let q = a.div_euclid(b);
    if q * b < a { q + 1 } else { q }
}

fn gen_object(
    params: &[Param],
    additional: &Additional,
    defs: &Defs,
    budget: u32,
) -> BoxedStrategy<Value> {
    let inner = budget.saturating_sub(1);
    let mut fields: Vec<BoxedStrategy<Option<(String, Value)>>> = Vec::new();
    for p in params {
        let name = p.name().to_owned();
        if p.required {
            let value = gen_schema(&p.schema, defs, inner);
            fields.push(value.prop_map(move |v| Some((name.clone(), v))).boxed());
        } else if budget > 0 && defs.finite(&p.schema) {
            let value = gen_schema(&p.schema, defs, inner);
            fields.push(
                proptest::option::of(value).prop_map(move |v| v.map(|v| (name.clone(), v))).boxed(),
            );
        }
    }
    match additional {
        Additional::Typed(schema) if budget > 0 && defs.finite(schema) => {
            for i in 0..2 {
                let key = fresh_key(params, &format!("extra_{i}"));
                let value = gen_schema(schema, defs, inner);
                fields.push(
                    proptest::option::of(value)
                        .prop_map(move |v| v.map(|v| (key.clone(), v)))
                        .boxed(),
                );
            }
        }
        Additional::Open | Additional::Unstated if budget > 0 => {
            let key = fresh_key(params, "extra_open");
            fields
                .push(any::<bool>().prop_map(move |b| b.then(|| (key.clone(), json!(1)))).boxed());
        }
        _ => {}
    }
    fields
        .prop_map(|fields| Value::Object(fields.into_iter().flatten().collect::<Map<_, _>>()))
        .boxed()
}

fn fresh_key(params: &[Param], base: &str) -> String {
    let mut key = base.to_owned();
    while params.iter().any(|p| p.name() == key) {
        key.push('_');
    }
    key
}

/// One way to break a valid value.
#[derive(Debug, Clone)]
struct Site {
    breach: Breach,
    edit: Edit,
}

#[derive(Debug, Clone)]
enum Edit {
    /// Replace the value at the pointer.
    Replace(JsonPointer, Value),
    /// Remove the key at the end of the pointer.
    Remove(JsonPointer),
    /// Insert `key: value` into the object at the pointer.
    Insert(JsonPointer, String, Value),
}

impl Site {
    fn apply(&self, mut value: Value) -> (Value, Breach) {
        match &self.edit {
            Edit::Replace(at, v) => {
                if let Some(slot) = value.pointer_mut(at.as_str()) {
                    *slot = v.clone();
                }
            }
            Edit::Remove(at) => {
                let mut parent = at.clone();
                if let (Some(key), true) = (at.segments().last(), parent.pop())
                    && let Some(Value::Object(map)) = value.pointer_mut(parent.as_str())
                {
                    map.remove(key.as_ref());
                }
            }
            Edit::Insert(at, key, v) => {
                if let Some(Value::Object(map)) = value.pointer_mut(at.as_str()) {
                    map.insert(key.clone(), v.clone());
                }
            }
        }
        (value, self.breach.clone())
    }
}

struct Sites<'a> {
    defs: &'a [Definition],
    out: &'a mut Vec<Site>,
}

impl Sites<'_> {
    fn add(&mut self, pointer: &JsonPointer, constraint: &'static str, edit: Edit) {
        self.out.push(Site { breach: Breach { pointer: pointer.clone(), constraint }, edit });
    }

    fn replace(&mut self, pointer: &JsonPointer, constraint: &'static str, value: Value) {
        self.add(pointer, constraint, Edit::Replace(pointer.clone(), value));
    }

    fn root(&mut self, d: &ToolDescriptor, valid: &Value) {
        let root = JsonPointer::root();
        self.replace(&root, "type", json!([]));
        if let Value::Object(map) = valid {
            self.object(&d.params, &d.additional, map, &root, 0);
        }
    }

    fn object(
        &mut self,
        params: &[Param],
        additional: &Additional,
        map: &Map<String, Value>,
        at: &JsonPointer,
        depth: u32,
    ) {
        for p in params {
            let pointer = at.child(p.name());
            if let Some(v) = map.get(p.name()) {
                self.schema(&p.schema, v, &pointer, false, depth + 1);
                if p.required {
                    self.add(&pointer, "required", Edit::Remove(pointer.clone()));
                }
            }
        }
        match additional {
            Additional::Closed => {
                let key = fresh_key(params, "zz_unknown");
                let pointer = at.child(&key);
                self.add(&pointer, "closed", Edit::Insert(at.clone(), key, json!(1)));
            }
            Additional::Typed(schema) => {
                if let Some(bad) = wrong_type_value(schema, self.defs, false) {
                    let key = fresh_key(params, "zz_extra");
                    let taken = map.contains_key(&key);
                    let pointer = at.child(&key);
                    if !taken {
                        self.add(&pointer, "additional", Edit::Insert(at.clone(), key, bad));
                    }
                }
            }
            Additional::Open | Additional::Unstated => {}
        }
    }

    fn schema(
        &mut self,
        schema: &Schema,
        value: &Value,
        at: &JsonPointer,
        nullable: bool,
        depth: u32,
    ) {
        if depth > 16 {
            return;
        }
        let nullable = nullable || schema.nullable;
        if let SchemaKind::Ref(r) = &schema.kind {
            if let Some(target) = find_def(self.defs, &r.name) {
                self.schema(target, value, at, nullable, depth + 1);
            }
            return;
        }
        if let SchemaKind::AnyOf(_) = &schema.kind {
            if let Some(bad) = wrong_type_value(schema, self.defs, nullable) {
                self.replace(at, "anyOf", bad);
            }
            return;
        }
        if value.is_null() {
            // A null accepted by a nullable schema has no constraints left to break but its type.
            if let Some(bad) = wrong_type_value(schema, self.defs, nullable) {
                self.replace(at, "type", bad);
            }
            return;
        }
        if !nullable && !matches!(schema.kind, SchemaKind::Null | SchemaKind::Any) {
            self.replace(at, "nullable", Value::Null);
        }
        if let Some(bad) = wrong_type_value(schema, self.defs, nullable) {
            self.replace(at, "type", bad);
        }
        match (&schema.kind, value) {
            (SchemaKind::String(s), Value::String(_)) => {
                if let Some(min) = s.min_length.filter(|m| *m > 0) {
                    self.replace(at, "minLength", json!("a".repeat(min as usize - 1)));
                }
                if let Some(max) = s.max_length {
                    self.replace(at, "maxLength", json!("a".repeat(max as usize + 1)));
                }
                if let Some(p) = &s.pattern
                    && let Ok(re) = regex::Regex::new(p)
                    && let Some(bad) =
                        ["", "!", "~~~~", "0", "A", "zz"].into_iter().find(|c| !re.is_match(c))
                {
                    self.replace(at, "pattern", json!(bad));
                }
            }
            (SchemaKind::Integer(n), Value::Number(_)) => {
                if let Some(v) = n.minimum.and_then(|m| m.checked_sub(1)) {
                    self.replace(at, "minimum", json!(v));
                }
                if let Some(v) = n.maximum.and_then(|m| m.checked_add(1)) {
                    self.replace(at, "maximum", json!(v));
                }
                if let Some(v) = n.exclusive_minimum {
                    self.replace(at, "exclusiveMinimum", json!(v));
                }
                if let Some(v) = n.exclusive_maximum {
                    self.replace(at, "exclusiveMaximum", json!(v));
                }
                if let (true, Some(v)) = (n.multiple_of.is_some_and(|s| s > 1), value.as_i64()) {
                    self.replace(at, "multipleOf", json!(v + 1));
                }
            }
            (SchemaKind::Float(n), Value::Number(num)) => {
                if let Some(m) = n.minimum {
                    self.replace(at, "minimum", json!(m - 1.0));
                }
                if let Some(m) = n.maximum {
                    self.replace(at, "maximum", json!(m + 1.0));
                }
                if let Some(m) = n.exclusive_minimum {
                    self.replace(at, "exclusiveMinimum", json!(m));
                }
                if let Some(m) = n.exclusive_maximum {
                    self.replace(at, "exclusiveMaximum", json!(m));
                }
                if let (Some(step), Some(v)) = (n.multiple_of, num.as_f64()) {
                    self.replace(at, "multipleOf", json!(v + step / 2.0));
                }
            }
            (SchemaKind::Enum(e), _) => {
                let mut bad = String::from("zz_not_a_value");
                while e.values.contains(&bad) {
                    bad.push('_');
                }
                self.replace(at, "enum", json!(bad));
            }
            (SchemaKind::List(l), Value::Array(items)) => {
                if let Some(min) = l.min_items.filter(|m| *m > 0) {
                    let fewer: Vec<Value> = items.iter().take(min as usize - 1).cloned().collect();
                    self.replace(at, "minItems", Value::Array(fewer));
                }
                if let (Some(max), Some(first)) = (l.max_items, items.first()) {
                    let mut more = items.clone();
                    more.resize(max as usize + 1, first.clone());
                    self.replace(at, "maxItems", Value::Array(more));
                }
                if let (true, Some(first)) = (l.unique, items.first())
                    && l.max_items.is_none_or(|m| items.len() < m as usize)
                {
                    let mut dup = items.clone();
                    dup.push(first.clone());
                    self.replace(at, "uniqueItems", Value::Array(dup));
                }
                let mut item_at = at.clone();
                for (i, item) in items.iter().enumerate() {
                    item_at.truncate(at.len());
                    item_at.push_index(i);
                    self.schema(&l.items, item, &item_at, false, depth + 1);
                }
            }
            (SchemaKind::Object(o), Value::Object(map)) => {
                self.object(&o.properties, &o.additional, map, at, depth + 1);
            }
            _ => {}
        }
    }
}

/// A value whose JSON type `schema` does not accept (nor `null` when `nullable`).
fn wrong_type_value(schema: &Schema, defs: &[Definition], nullable: bool) -> Option<Value> {
    let candidates =
        [json!(true), json!("s"), json!(1), json!(1.5), json!([]), json!({}), json!(null)];
    candidates
        .into_iter()
        .find(|c| !(accepts_type(schema, defs, c, 0) || (c.is_null() && nullable)))
}

fn accepts_type(schema: &Schema, defs: &[Definition], value: &Value, depth: u32) -> bool {
    if depth > 32 {
        return true;
    }
    if value.is_null() && schema.nullable {
        return true;
    }
    match (&schema.kind, value) {
        (SchemaKind::Enum(e), v) => e.values.iter().any(|m| {
            matches!(
                (m, v),
                (ScalarRef::Str(_), Value::String(_))
                    | (ScalarRef::Bool(_), Value::Bool(_))
                    | (ScalarRef::Int(_) | ScalarRef::Float(_), Value::Number(_))
            )
        }),
        (SchemaKind::String(_), Value::String(_))
        | (SchemaKind::Float(_), Value::Number(_))
        | (SchemaKind::Boolean, Value::Bool(_))
        | (SchemaKind::Null, Value::Null)
        | (SchemaKind::Any, _)
        | (SchemaKind::List(_), Value::Array(_))
        | (SchemaKind::Object(_), Value::Object(_)) => true,
        (SchemaKind::Integer(_), Value::Number(n)) => n.is_i64() || n.is_u64(),
        (SchemaKind::AnyOf(a), v) => a.variants.iter().any(|s| accepts_type(s, defs, v, depth + 1)),
        (SchemaKind::Ref(r), v) => {
            find_def(defs, &r.name).is_none_or(|s| accepts_type(s, defs, v, depth + 1))
        }
        _ => false,
    }
}
