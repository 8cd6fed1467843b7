//! Checks a JSON value against the schemas of a descriptor and fills in defaults.
//!
//! Serves dynamic tools (spec files, overridden tools, closures over `serde_json::Value`) and
//! the error path of the typed fast path, where it turns serde's first complaint into every
//! problem at once, each with its JSON pointer. The messages themselves live in
//! [`crate::arg_checks`].

use std::collections::{HashMap, HashSet};
use std::sync::RwLock;

use serde_json::{Map, Value};

use crate::arg_checks::{self, ArgError, ArgErrors};
use crate::descriptor::{Definition, Param, ToolDescriptor};
use crate::pointer::JsonPointer;
use crate::schema::{Additional, Combine, Kept, Schema, SchemaKind};

/// How many schema steps (object properties, list items, references, variants) validation
/// follows before it reports the value as nested too deeply.
pub const MAX_DEPTH: usize = 64;

/// How many errors one validation reports at most (the model needs the first few, not all).
pub const MAX_ERRORS: usize = 32;

/// The most schema nodes one check visits. A real argument against a real schema takes a few
/// per value; the bound is there for schemas whose definitions reach each other through `anyOf`
/// alone (`A = anyOf[B, B, …]`, `B = anyOf[A, A, …]`), where every variant is tried again at the
/// same value and the work would double with each level. Past it the check ends with an error
/// that says so, in bounded time, instead of running on.
pub const MAX_STEPS: usize = 1 << 20;

/// How many compiled patterns a [`ArgValidator`] keeps before it starts over.
const MAX_PATTERNS: usize = 256;

/// Checks JSON values against a descriptor's schemas, keeping the patterns it compiles.
///
/// Cheap to create; keep one per tool (as [`crate::dispatch::DynamicTool`] and
/// [`crate::dispatch::TypedTool`] do) so each pattern is compiled once.
#[derive(Debug, Default)]
pub struct ArgValidator {
    patterns: RwLock<HashMap<Box<str>, Result<arg_checks::EcmaRegex, arg_checks::PatternError>>>,
}

impl ArgValidator {
    /// A validator with an empty pattern cache.
    // Out of line: the map's hasher seeding would otherwise be copied into every typed tool's
    // constructor.
    #[inline(never)]
    pub fn new() -> Self {
        ArgValidator::default()
    }

    /// Checks the arguments of a call to `descriptor`: an object whose keys are the parameters.
    ///
    /// `null` is accepted only where the schema is nullable: a `null` for a non-nullable key is
    /// an error, not an absent key.
    ///
    /// # Errors
    ///
    /// Every problem found (at most [`MAX_ERRORS`]), in document order, each with its JSON
    /// pointer.
    pub fn check_args(&self, descriptor: &ToolDescriptor, args: &Value) -> Result<(), ArgErrors> {
        let mut walk = Walk::new(self, &descriptor.definitions);
        match args {
            Value::Object(map) => {
                walk.object(
                    &descriptor.params,
                    &descriptor.additional,
                    map,
                    Some(descriptor.name.as_str()),
                    0,
                );
                walk.kept(&descriptor.input_kept, args);
            }
            other => walk.push(arg_checks::wrong_type("an object", other, "")),
        }
        ArgErrors(walk.errors).into_result()
    }

    /// Finds the integers of `args` that no 64-bit type holds (past `i64::MAX` where the
    /// schema allows negative values, past `u64::MAX` or below `i64::MIN` anywhere), each at its
    /// pointer: why arguments the schema accepts may still not decode into a Rust type.
    pub(crate) fn out_of_64_bits(
        &self,
        descriptor: &ToolDescriptor,
        args: &Value,
    ) -> Result<(), ArgErrors> {
        let mut walk = Walk::new(self, &descriptor.definitions);
        walk.int64 = true;
        if let Value::Object(map) = args {
            walk.object(&descriptor.params, &descriptor.additional, map, None, 0);
        }
        // Only the range of integers: everything else was checked before and passed.
        walk.errors.retain(|e| e.message.starts_with(OUT_OF_64_BITS));
        ArgErrors(walk.errors).into_result()
    }

    /// Checks `value` against `schema`, resolving references in `definitions`; pointers in the
    /// errors start at `pointer` ([`JsonPointer::root`] for a value that stands alone).
    ///
    /// # Errors
    ///
    /// Every problem found (at most [`MAX_ERRORS`]).
    pub fn check_value(
        &self,
        schema: &Schema,
        definitions: &[Definition],
        value: &Value,
        pointer: &JsonPointer,
    ) -> Result<(), ArgErrors> {
        let mut walk = Walk::new(self, definitions);
        walk.pointer.clone_from(pointer);
        walk.schema(schema, value, 0);
        ArgErrors(walk.errors).into_result()
    }

    fn pattern(&self, source: &str, value: &str, pointer: &str) -> Result<(), ArgError> {
        let cached = {
            let map = self.patterns.read().unwrap_or_else(|e| e.into_inner());
            map.get(source).cloned()
        };
        let compiled = match cached {
            Some(compiled) => compiled,
            None => {
                let compiled = arg_checks::compile(source);
                let mut map = self.patterns.write().unwrap_or_else(|e| e.into_inner());
                if map.len() >= MAX_PATTERNS {
                    map.clear();
                }
                map.insert(source.into(), compiled.clone());
                compiled
            }
        };
        arg_checks::matches(compiled.as_ref(), source, value, pointer)
    }
}

/// Checks the arguments of a call to `descriptor` with a fresh [`ArgValidator`] (patterns are
/// compiled on every call; keep a `ArgValidator` on hot paths).
///
/// # Errors
///
/// Every problem found, each with its JSON pointer.
pub fn check_args(descriptor: &ToolDescriptor, args: &Value) -> Result<(), ArgErrors> {
    ArgValidator::new().check_args(descriptor, args)
}

/// Fills every absent parameter that has a default with that default, recursively inside
/// present objects and lists (not inside `anyOf`, where the variant is ambiguous). A key that is
/// present, even as `null`, is left alone. Does nothing when `args` is not an object.
pub fn apply_defaults(descriptor: &ToolDescriptor, args: &mut Value) {
    if let Value::Object(map) = args {
        let defs = Defs::new(&descriptor.definitions);
        fill_object(&descriptor.params, &descriptor.additional, &defs, map, 0);
    }
}

fn fill_object(
    params: &[Param],
    additional: &Additional,
    defs: &Defs<'_>,
    map: &mut Map<String, Value>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for p in params {
        match map.get_mut(p.name()) {
            Some(v) => fill(&p.schema, defs, v, depth + 1),
            None => {
                if let Some(d) = &p.schema.default {
                    map.insert(p.name().to_owned(), d.to_json());
                }
            }
        }
    }
    if let Additional::Typed(schema) = additional {
        let names = ParamNames::new(params);
        for (k, v) in map.iter_mut() {
            if !names.contains(k) {
                fill(schema, defs, v, depth + 1);
            }
        }
    }
}

fn fill(schema: &Schema, defs: &Defs<'_>, value: &mut Value, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match (&schema.kind, value) {
        (SchemaKind::Object(o), Value::Object(map)) => {
            fill_object(&o.properties, &o.additional, defs, map, depth);
        }
        (SchemaKind::List(l), Value::Array(items)) => {
            for item in items {
                fill(&l.items, defs, item, depth + 1);
            }
        }
        (SchemaKind::Ref(r), value) => {
            if let Some(target) = defs.get(&r.name) {
                fill(target, defs, value, depth + 1);
            }
        }
        _ => {}
    }
}

/// Above this many definitions, lookups go through a hash map built once per check.
const SCAN_DEFS: usize = 16;

/// A descriptor's definitions by name, for one check: a few are scanned, more are indexed
/// once, so that a check costs the size of the schema and the value, not references times
/// definitions. The first definition of a name wins, as in a scan.
struct Defs<'d> {
    list: &'d [Definition],
    by_name: Option<HashMap<&'d str, usize>>,
}

impl<'d> Defs<'d> {
    fn new(list: &'d [Definition]) -> Self {
        let by_name = (list.len() > SCAN_DEFS).then(|| {
            let mut map = HashMap::with_capacity(list.len());
            for (i, d) in list.iter().enumerate() {
                map.entry(&*d.name).or_insert(i);
            }
            map
        });
        Defs { list, by_name }
    }

    /// The definition called `name`, with its name borrowed from the definitions.
    fn named(&self, name: &str) -> Option<(&'d str, &'d Schema)> {
        let d = match &self.by_name {
            Some(map) => map.get(name).map(|&i| &self.list[i]),
            None => self.list.iter().find(|d| d.name == name),
        }?;
        Some((&*d.name, &d.schema))
    }

    fn get(&self, name: &str) -> Option<&'d Schema> {
        self.named(name).map(|(_, s)| s)
    }
}

/// Whether `key` is the name of one of `params`: a scan for a few, a set for many.
struct ParamNames<'p> {
    params: &'p [Param],
    set: Option<HashSet<&'p str>>,
}

impl<'p> ParamNames<'p> {
    fn new(params: &'p [Param]) -> Self {
        let set = (params.len() > SCAN_DEFS).then(|| params.iter().map(Param::name).collect());
        ParamNames { params, set }
    }

    fn contains(&self, key: &str) -> bool {
        match &self.set {
            Some(set) => set.contains(key),
            None => self.params.iter().any(|p| p.name() == key),
        }
    }
}

/// One validation: the definitions in scope, the current pointer and the errors so far.
struct Walk<'a> {
    validator: &'a ArgValidator,
    defs: Defs<'a>,
    pointer: JsonPointer,
    errors: Vec<ArgError>,
    /// Schema nodes visited so far (see [`MAX_STEPS`]).
    steps: usize,
    /// Whether integers are also checked against the range of a 64-bit type.
    int64: bool,
    /// The definitions being checked right now, each with the value it is checked against: a
    /// reference back to one of them at the same value describes nothing new (a value that
    /// matches does so without going round the loop), so that branch fails at once.
    open: Vec<(&'a str, *const Value)>,
}

impl<'a> Walk<'a> {
    fn new(validator: &'a ArgValidator, defs: &'a [Definition]) -> Self {
        Walk {
            validator,
            defs: Defs::new(defs),
            pointer: JsonPointer::root(),
            errors: Vec::new(),
            steps: 0,
            int64: false,
            open: Vec::new(),
        }
    }

    /// Whether the check has used up [`MAX_STEPS`].
    fn exhausted(&self) -> bool {
        self.steps > MAX_STEPS
    }

    fn push(&mut self, e: ArgError) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(e);
        }
    }

    fn check(&mut self, r: Result<(), ArgError>) {
        if let Err(e) = r {
            self.push(e);
        }
    }

    /// Runs `f` with `segment` appended to the pointer.
    fn at<R>(&mut self, segment: &str, f: impl FnOnce(&mut Self) -> R) -> R {
        let len = self.pointer.len();
        self.pointer.push(segment);
        let r = f(self);
        self.pointer.truncate(len);
        r
    }

    /// Runs `f` with `index` appended to the pointer.
    fn at_index<R>(&mut self, index: usize, f: impl FnOnce(&mut Self) -> R) -> R {
        let len = self.pointer.len();
        self.pointer.push_index(index);
        let r = f(self);
        self.pointer.truncate(len);
        r
    }

    fn object(
        &mut self,
        params: &[Param],
        additional: &Additional,
        map: &Map<String, Value>,
        tool: Option<&str>,
        depth: usize,
    ) {
        for p in params {
            match map.get(p.name()) {
                Some(v) => self.at(p.name(), |w| w.schema(&p.schema, v, depth + 1)),
                None if p.required => self.at(p.name(), |w| {
                    let e = arg_checks::required(w.pointer.as_str());
                    w.push(e);
                }),
                None => {}
            }
        }
        // Unstated reads as JSON Schema reads it: other keys are accepted.
        if matches!(additional, Additional::Open | Additional::Unstated) || map.is_empty() {
            return;
        }
        let names = ParamNames::new(params);
        for (k, v) in map {
            if names.contains(k) {
                continue;
            }
            match additional {
                Additional::Typed(schema) => self.at(k, |w| w.schema(schema, v, depth + 1)),
                _ => self.at(k, |w| {
                    let e = arg_checks::unknown_key(
                        w.pointer.as_str(),
                        tool,
                        params.iter().map(Param::name),
                    );
                    w.push(e);
                }),
            }
        }
    }

    fn schema(&mut self, schema: &Schema, value: &Value, depth: usize) {
        self.steps += 1;
        if self.exhausted() {
            if self.steps == MAX_STEPS + 1 {
                let e = ArgError::new(
                    &self.pointer,
                    format!(
                        "cannot be checked: the tool's schema takes more than {MAX_STEPS} steps \
                         for this value (definitions that refer to each other through `anyOf` alone?)"
                    ),
                );
                self.push(e);
            }
            return;
        }
        if depth > MAX_DEPTH {
            let e = ArgError::new(&self.pointer, "is nested too deeply to be checked");
            self.push(e);
            return;
        }
        if value.is_null() && schema.nullable {
            return;
        }
        let p = self.pointer.as_str();
        match (&schema.kind, value) {
            (SchemaKind::String(s), Value::String(v)) => {
                let r1 = arg_checks::length(v, s.min_length, s.max_length, p);
                let r2 = match &s.pattern {
                    Some(source) => self.validator.pattern(source, v, p),
                    None => Ok(()),
                };
                self.check(r1);
                self.check(r2);
            }
            (SchemaKind::Integer(n), Value::Number(num)) => {
                let Some(v) = whole_number(num) else {
                    let e = arg_checks::wrong_type(&expected(schema, &self.defs), value, p);
                    return self.push(e);
                };
                let r1 = arg_checks::int_range(v, n.minimum, n.maximum, p);
                let r2 = arg_checks::int_exclusive(v, n.exclusive_minimum, n.exclusive_maximum, p);
                let r3 =
                    n.multiple_of.map_or(Ok(()), |step| arg_checks::int_multiple_of(v, step, p));
                let r4 = if self.int64 {
                    int64_range(v, n.minimum.is_some_and(|m| m >= 0), num, &self.pointer)
                } else {
                    Ok(())
                };
                self.check(r1);
                self.check(r2);
                self.check(r3);
                self.check(r4);
            }
            (SchemaKind::Float(n), Value::Number(num)) => {
                let r = arg_checks::float_range(num.as_f64().unwrap_or(f64::NAN), n, p);
                self.check(r);
            }
            (SchemaKind::Boolean, Value::Bool(_)) | (SchemaKind::Null, Value::Null) => {}
            (SchemaKind::Any, _) => {}
            (SchemaKind::Enum(e), value) => {
                if !e.values.contains_json(value) {
                    let e = arg_checks::not_in_enum(value, e.values.iter(), p);
                    self.push(e);
                }
            }
            (SchemaKind::List(l), Value::Array(items)) => {
                let r1 = arg_checks::items(items.len(), l.min_items, l.max_items, p);
                let r2 = if l.unique { arg_checks::unique(items, p) } else { Ok(()) };
                self.check(r1);
                self.check(r2);
                for (i, item) in items.iter().enumerate() {
                    self.at_index(i, |w| w.schema(&l.items, item, depth + 1));
                }
            }
            (SchemaKind::Object(o), Value::Object(map)) => {
                self.object(&o.properties, &o.additional, map, None, depth);
            }
            (SchemaKind::AnyOf(a), value) if a.combine == Combine::OneOf => {
                self.one_of(schema, &a.variants, value, depth);
            }
            (SchemaKind::AnyOf(a), value) => self.any_of(schema, &a.variants, value, depth),
            (SchemaKind::Ref(r), value) => match self.defs.named(&r.name) {
                Some((name, _)) if self.open.contains(&(name, std::ptr::from_ref(value))) => {
                    let e = ArgError::new(
                        &self.pointer,
                        format!("does not match `{name}`, which refers back to itself here"),
                    );
                    self.push(e);
                }
                Some((name, target)) => {
                    self.open.push((name, std::ptr::from_ref(value)));
                    self.schema(target, value, depth + 1);
                    self.open.pop();
                }
                None => {
                    let e = ArgError::new(
                        &self.pointer,
                        format!(
                            "cannot be checked: the tool's schema refers to the undefined `{}`",
                            r.name
                        ),
                    );
                    self.push(e);
                }
            },
            (_, other) => {
                let e = arg_checks::wrong_type(&expected(schema, &self.defs), other, p);
                self.push(e);
            }
        }
        if !schema.kept.is_empty() {
            self.kept(&schema.kept, value);
        }
    }

    /// Checks the kept keywords dispatch enforces (see [`crate::json_schema`] for the list):
    /// `minProperties`, `maxProperties`, and `dependentRequired` (or draft-07 `dependencies`
    /// with an array). The others are the provider's and the tool's to enforce.
    fn kept(&mut self, kept: &[Kept], value: &Value) {
        let Value::Object(map) = value else { return };
        for k in kept {
            match (k.keyword.as_ref(), &k.value) {
                ("minProperties", v) => {
                    if let Some(min) = v.as_u64()
                        && (map.len() as u64) < min
                    {
                        let e = arg_checks::property_count(
                            map.len(),
                            Some(min),
                            None,
                            self.pointer.as_str(),
                        );
                        self.push(e);
                    }
                }
                ("maxProperties", v) => {
                    if let Some(max) = v.as_u64()
                        && (map.len() as u64) > max
                    {
                        let e = arg_checks::property_count(
                            map.len(),
                            None,
                            Some(max),
                            self.pointer.as_str(),
                        );
                        self.push(e);
                    }
                }
                ("dependentRequired" | "dependencies", Value::Object(deps)) => {
                    for (key, needs) in deps {
                        let Value::Array(needs) = needs else { continue };
                        if !map.contains_key(key) {
                            continue;
                        }
                        for need in needs.iter().filter_map(Value::as_str) {
                            if !map.contains_key(need) {
                                let e = arg_checks::dependent_required(
                                    key,
                                    need,
                                    self.pointer.as_str(),
                                );
                                self.push(e);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// A value matches a `oneOf` whose variants may overlap when it matches exactly one.
    fn one_of(&mut self, whole: &Schema, variants: &[Schema], value: &Value, depth: usize) {
        let mut matched = Vec::new();
        for (i, v) in variants.iter().enumerate() {
            let outer = std::mem::take(&mut self.errors);
            self.schema(v, value, depth + 1);
            let found = std::mem::replace(&mut self.errors, outer);
            if self.exhausted() {
                for e in found {
                    self.push(e);
                }
                return;
            }
            if found.is_empty() {
                matched.push(i);
                if matched.len() == 2 {
                    break;
                }
            }
        }
        match matched.as_slice() {
            [] => self.any_of(whole, variants, value, depth),
            [_] => {}
            [a, b, ..] => {
                let e = arg_checks::one_of_twice(*a, *b, self.pointer.as_str());
                self.push(e);
            }
        }
    }

    /// A value matches `anyOf` when it matches one variant. Otherwise the errors reported are
    /// those of the variant that fits the value's type (the one with the fewest errors when
    /// several do), or one error listing what is accepted when none does.
    fn any_of(&mut self, whole: &Schema, variants: &[Schema], value: &Value, depth: usize) {
        let mut best: Option<Vec<ArgError>> = None;
        for v in variants {
            let outer = std::mem::take(&mut self.errors);
            self.schema(v, value, depth + 1);
            let found = std::mem::replace(&mut self.errors, outer);
            if found.is_empty() {
                return;
            }
            if self.exhausted() {
                // The step bound's own error is among `found`: report it, not a variant's.
                for e in found {
                    self.push(e);
                }
                return;
            }
            if accepts_type(v, &self.defs, value, depth)
                && best.as_ref().is_none_or(|b| found.len() < b.len())
            {
                best = Some(found);
            }
        }
        match best {
            Some(errors) => {
                for e in errors {
                    self.push(e);
                }
            }
            None => {
                let e = arg_checks::wrong_type(
                    &expected(whole, &self.defs),
                    value,
                    self.pointer.as_str(),
                );
                self.push(e);
            }
        }
    }
}

/// How [`ArgValidator::out_of_64_bits`]'s messages start.
const OUT_OF_64_BITS: &str = "is out of range for a 64-bit integer";

/// Whether the whole number `v` (written `num`) decodes into a 64-bit integer: unsigned when
/// the schema allows no negative value, signed otherwise. A number written as a float is read
/// exactly only below 9.2e18 (the arguments are respelled as integers up to there): past it,
/// whatever its value, it does not decode.
fn int64_range(
    v: i128,
    unsigned: bool,
    num: &serde_json::Number,
    pointer: &JsonPointer,
) -> Result<(), ArgError> {
    let (min, max) = if unsigned {
        (0, i128::from(u64::MAX))
    } else {
        (i128::from(i64::MIN), i128::from(i64::MAX))
    };
    let inexact = num.is_f64() && num.as_f64().is_some_and(|f| f.abs() >= 9.2e18);
    if (min..=max).contains(&v) && !inexact {
        return Ok(());
    }
    Err(ArgError::new(
        pointer,
        format!("{OUT_OF_64_BITS}: must be an integer from {min} to {max}; got {num}"),
    ))
}

/// A number as the integer JSON Schema reads it: any number with a zero fractional part
/// (`3`, `3.0`, `3e0`, `-0`), within the range an `i128` holds exactly.
fn whole_number(n: &serde_json::Number) -> Option<i128> {
    if let Some(i) = n.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = n.as_u64() {
        return Some(i128::from(u));
    }
    let f = n.as_f64()?;
    (f.is_finite() && f.fract() == 0.0 && f.abs() < 1e38).then_some(f as i128)
}

/// Whether `value`'s JSON type is one `schema` accepts (constraints aside).
fn accepts_type(schema: &Schema, defs: &Defs<'_>, value: &Value, depth: usize) -> bool {
    accepts_type_in(schema, defs, value, depth, &mut HashSet::new())
}

/// [`accepts_type`], with the definitions already tried for this value: a second visit can
/// find nothing the first did not (the answer is an `or` over the same value), so each
/// definition is tried once and the work stays linear in the schema.
fn accepts_type_in<'d>(
    schema: &'d Schema,
    defs: &Defs<'d>,
    value: &Value,
    depth: usize,
    tried: &mut HashSet<&'d str>,
) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    if value.is_null() && schema.nullable {
        return true;
    }
    match (&schema.kind, value) {
        (SchemaKind::String(_) | SchemaKind::Enum(_), Value::String(_))
        | (SchemaKind::Float(_), Value::Number(_))
        | (SchemaKind::Boolean, Value::Bool(_))
        | (SchemaKind::Null, Value::Null)
        | (SchemaKind::Any, _)
        | (SchemaKind::List(_), Value::Array(_))
        | (SchemaKind::Object(_), Value::Object(_)) => true,
        (SchemaKind::Integer(_), Value::Number(n)) => whole_number(n).is_some(),
        (SchemaKind::AnyOf(a), v) => {
            a.variants.iter().any(|s| accepts_type_in(s, defs, v, depth + 1, tried))
        }
        (SchemaKind::Ref(r), v) => {
            if !tried.insert(&r.name) {
                return false;
            }
            defs.get(&r.name).is_some_and(|s| accepts_type_in(s, defs, v, depth + 1, tried))
        }
        _ => false,
    }
}

/// What a schema accepts, as a phrase for messages (`an integer`, `a string or null`).
fn expected(schema: &Schema, defs: &Defs<'_>) -> String {
    let mut phrases = Vec::new();
    phrases_of(schema, defs, &mut phrases, 0, &mut HashSet::new());
    if schema.nullable && !phrases.iter().any(|p| p == "null") {
        phrases.push("null".to_owned());
    }
    match phrases.len() {
        0 => "a valid value".to_owned(),
        1 => phrases.remove(0),
        n => {
            let last = phrases.remove(n - 1);
            format!("{} or {last}", phrases.join(", "))
        }
    }
}

/// Adds what `schema` accepts to `out`, each definition followed once (`seen`), so that
/// definitions referring to each other cost their size, not the number of paths between them.
fn phrases_of<'d>(
    schema: &'d Schema,
    defs: &Defs<'d>,
    out: &mut Vec<String>,
    depth: usize,
    seen: &mut HashSet<&'d str>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let phrase = match &schema.kind {
        SchemaKind::String(_) => "a string".to_owned(),
        SchemaKind::Integer(_) => "an integer".to_owned(),
        SchemaKind::Float(_) => "a number".to_owned(),
        SchemaKind::Boolean => "a boolean".to_owned(),
        SchemaKind::Null => "null".to_owned(),
        SchemaKind::Any => "any JSON value".to_owned(),
        SchemaKind::Enum(e) => arg_checks::one_of_values_phrase(e.values.iter()),
        SchemaKind::List(_) => "an array".to_owned(),
        SchemaKind::Object(_) => "an object".to_owned(),
        SchemaKind::AnyOf(a) => {
            for v in a.variants.iter() {
                phrases_of(v, defs, out, depth + 1, seen);
                if v.nullable && !out.iter().any(|p| p == "null") {
                    out.push("null".to_owned());
                }
            }
            return;
        }
        SchemaKind::Ref(r) => {
            if !seen.insert(&r.name) {
                return;
            }
            if let Some(target) = defs.get(&r.name) {
                phrases_of(target, defs, out, depth + 1, seen);
            }
            return;
        }
    };
    if !out.contains(&phrase) {
        out.push(phrase);
    }
}
