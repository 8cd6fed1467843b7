//! Every structural rule of a tool's schemas, written once as `const fn` over schema types.
//!
//! It knows the schema layer and nothing above it: [`check_tool`] takes a tool's name, its
//! parameters, what its input object accepts beyond them, its definitions and its output schema,
//! so that the descriptor's `const` builder can call it and `descriptor_rules` (the public
//! face, above the descriptor) can run it at run time. The rules themselves are listed there.
//!
//! This file holds the rules of the schemas themselves (names, bounds, enums, references, depth)
//! and the message a broken rule carries; `fits.rs` holds the one rule about values, whether a
//! default or an example is a value its schema accepts, which import also asks on its own.

// `const fn` cannot allocate, so a violation carries its message inline; it is built only on
// the failure path, where its size does not matter.
#![allow(clippy::result_large_err)]

use std::borrow::Cow;

use crate::const_text::ConstText;
use crate::literal::Literal;
use crate::schema::{
    Additional, Definition, NumberSchema, Param, ScalarRef, Schema, SchemaKind, SchemaRef, str_eq,
    text_str,
};

mod fits;

use fits::Budget;
pub(crate) use fits::{Unfit, literal_fits, name_order};

/// The rule a descriptor breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// A parameter (property) name is empty.
    EmptyParamName,
    /// Two parameters of one object share a name.
    DuplicateParam,
    /// An enum has no values.
    EmptyEnum,
    /// An enum lists a value twice.
    DuplicateEnumValue,
    /// A lower bound is above its upper bound.
    MinAboveMax,
    /// `multipleOf` is zero or negative.
    BadMultipleOf,
    /// A default or example is not of the schema's type.
    WrongType,
    /// A default or example is outside the schema's bounds.
    OutOfRange,
    /// A default or example is not among the enum's values.
    NotInEnum,
    /// A builder method was used on a kind it does not apply to.
    Misuse,
    /// A reference names no definition.
    UnknownRef,
    /// Two definitions share a name.
    DuplicateDefinition,
    /// Schemas nest deeper than [`MAX_DEPTH`].
    TooDeep,
    /// A bound, step, default or example is NaN or infinite (JSON cannot carry it).
    NotFinite,
    /// The tool name breaks the [`ToolName`](crate::ToolName) rule.
    BadName,
    /// A pattern cannot be enforced with ECMA-262's meaning (see [`crate::arg_checks::compile`]);
    /// checked at run time only (`ToolDescriptor::validate`).
    BadPattern,
    /// A tool-level input example is not an input the parameters accept; checked at run time
    /// (`ToolDescriptor::validate`), and by `#[tool(example(...))]` at compile time.
    BadInputExample,
}

/// How deep schemas may nest before validation gives up (guards against runaway recursion).
pub const MAX_DEPTH: usize = 64;

/// A broken rule with its message, built without allocation so it works in `const`.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct Violation {
    rule: Rule,
    text: ConstText,
    param_start: usize,
    param_len: usize,
}

impl Violation {
    /// The rule.
    pub const fn rule(&self) -> Rule {
        self.rule
    }

    /// The full message: tool, parameter path and what is wrong.
    pub const fn message(&self) -> &str {
        self.text.as_str()
    }

    /// The dotted path of the parameter at fault (`filter.limit`), empty for the tool itself.
    pub const fn param(&self) -> &str {
        self.text.slice(self.param_start, self.param_start + self.param_len)
    }
}

impl std::fmt::Debug for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Violation")
            .field("rule", &self.rule)
            .field("message", &self.message())
            .finish()
    }
}

/// Checks the parts of one tool: its parameters, what its input object accepts beyond them,
/// its definitions and its output schema (usable in `const`); `tool` names it in messages.
///
/// # Errors
///
/// The first broken rule.
pub(crate) const fn check_tool(
    tool: &str,
    params: &[Param],
    additional: &Additional,
    definitions: &[Definition],
    output: &Option<SchemaRef>,
) -> Result<(), Violation> {
    check_tool_in(tool, params, additional, definitions, output, true, &[])
}

/// [`check_tool`], with the pairwise duplicate checks only when `pairwise`: they are quadratic
/// (`const` cannot hash), so at run time [`run_time_rules`] does them with hash sets instead.
/// `by_name` is empty or the [`name_order`] of `definitions`, which references of defaults and
/// examples are then looked up through (`const` cannot sort, so only run time passes one).
pub(crate) const fn check_tool_in(
    tool: &str,
    params: &[Param],
    additional: &Additional,
    definitions: &[Definition],
    output: &Option<SchemaRef>,
    pairwise: bool,
    by_name: &[(u64, usize)],
) -> Result<(), Violation> {
    let cx = Cx { tool, defs: definitions, pairwise, by_name };
    let defs = cx.defs;
    let mut i = 0;
    while pairwise && i < defs.len() {
        let mut j = i + 1;
        while j < defs.len() {
            if str_eq(text_str(&defs[i].name), text_str(&defs[j].name)) {
                let mut v = cx.start(Rule::DuplicateDefinition, &Path::ROOT);
                v.s("definition `").s(text_str(&defs[i].name)).s("` is defined twice");
                return Err(v.done());
            }
            j += 1;
        }
        i += 1;
    }
    if let Err(v) = cx.params(params, &Path::ROOT) {
        return Err(v);
    }
    if let Additional::Typed(s) = additional
        && let Err(v) = cx.schema(s.get(), &Path::ROOT.push("*"))
    {
        return Err(v);
    }
    let mut i = 0;
    while i < defs.len() {
        let path = Path::ROOT.push("$defs").push(text_str(&defs[i].name));
        if let Err(v) = cx.schema(&defs[i].schema, &path) {
            return Err(v);
        }
        i += 1;
    }
    if let Some(out) = output
        && let Err(v) = cx.schema(out.get(), &Path::ROOT.push("output"))
    {
        return Err(v);
    }
    Ok(())
}

const MAX_PATH: usize = 16;

/// A parameter path kept on the stack (segments beyond [`MAX_PATH`] are elided).
#[derive(Clone, Copy)]
struct Path<'a> {
    segs: [&'a str; MAX_PATH],
    len: usize,
    depth: usize,
}

impl<'a> Path<'a> {
    const ROOT: Path<'static> = Path { segs: [""; MAX_PATH], len: 0, depth: 0 };

    const fn push(&self, seg: &'a str) -> Path<'a> {
        let mut next = *self;
        if next.len < MAX_PATH {
            next.segs[next.len] = seg;
            next.len += 1;
        }
        next.depth += 1;
        next
    }
}

struct Cx<'a> {
    tool: &'a str,
    defs: &'a [Definition],
    /// Whether names and enum values are checked for duplicates pairwise (see
    /// [`check_tool_in`]).
    pairwise: bool,
    /// The hash of each definition's name with its position in `defs`, sorted by hash
    /// ([`name_order`]), or empty, when [`Cx::find_def`] scans `defs` instead. `const` code
    /// cannot sort, so only run-time checks pass one.
    by_name: &'a [(u64, usize)],
}

/// The run-time half of [`check_tool`] for a tool that passed `check_tool_in(.., false)` (so it
/// nests at most [`MAX_DEPTH`] levels): the first duplicate definition name, parameter name or
/// enum value, found with hash sets, or a pattern that `pattern` refuses (it returns why).
pub(crate) fn run_time_rules(
    tool: &str,
    params: &[Param],
    additional: &Additional,
    definitions: &[Definition],
    output: &Option<SchemaRef>,
    pattern: &dyn Fn(&str) -> Result<(), String>,
) -> Result<(), Violation> {
    use std::collections::HashSet;
    struct Run<'a, 'p> {
        cx: Cx<'a>,
        pattern: &'p dyn Fn(&str) -> Result<(), String>,
        /// The names of the definitions.
        defined: HashSet<&'a str>,
    }
    impl Run<'_, '_> {
        fn params(&self, params: &[Param], path: &Path<'_>) -> Result<(), Violation> {
            let mut seen = HashSet::with_capacity(params.len());
            for p in params {
                let name = text_str(&p.name);
                let here = path.push(name);
                if !seen.insert(name) {
                    let mut m = self.cx.start(Rule::DuplicateParam, &here);
                    m.s("duplicate parameter name `").s(name).s("`");
                    return Err(m.done());
                }
                self.schema(&p.schema, &here)?;
            }
            Ok(())
        }

        fn schema(&self, s: &Schema, path: &Path<'_>) -> Result<(), Violation> {
            match &s.kind {
                SchemaKind::String(st) => {
                    if let Some(source) = &st.pattern
                        && let Err(reason) = (self.pattern)(source)
                    {
                        let quoted = serde_json::Value::String(source.to_string()).to_string();
                        let mut m = self.cx.start(Rule::BadPattern, path);
                        m.s("pattern ").s(&quoted).s(" cannot be enforced: ").s(&reason);
                        return Err(m.done());
                    }
                }
                SchemaKind::Enum(e) => {
                    let mut seen = HashSet::with_capacity(e.values.len());
                    for i in 0..e.values.len() {
                        let a = e.values.get(i);
                        if !seen.insert(EnumKey::of(a)) {
                            let mut m = self.cx.start(Rule::DuplicateEnumValue, path);
                            m.s("enum value ");
                            scalar_text(&mut m, a);
                            m.s(" is listed twice");
                            return Err(m.done());
                        }
                    }
                }
                SchemaKind::List(l) => self.schema(l.items.get(), &path.push("[]"))?,
                SchemaKind::Object(o) => {
                    self.params(&o.properties, path)?;
                    if let Additional::Typed(t) = &o.additional {
                        self.schema(t.get(), &path.push("*"))?;
                    }
                }
                SchemaKind::AnyOf(a) => {
                    for v in a.variants.iter() {
                        self.schema(v, &path.push("anyOf"))?;
                    }
                }
                SchemaKind::Ref(r) if !self.defined.contains(text_str(&r.name)) => {
                    let mut m = self.cx.start(Rule::UnknownRef, path);
                    m.s("reference to `").s(text_str(&r.name)).s("`, which is not a definition");
                    return Err(m.done());
                }
                _ => {}
            }
            Ok(())
        }
    }
    let cx = Cx { tool, defs: definitions, pairwise: false, by_name: &[] };
    let mut seen = HashSet::with_capacity(definitions.len());
    for def in definitions {
        if !seen.insert(text_str(&def.name)) {
            let mut v = cx.start(Rule::DuplicateDefinition, &Path::ROOT);
            v.s("definition `").s(text_str(&def.name)).s("` is defined twice");
            return Err(v.done());
        }
    }
    let run = Run { cx, pattern, defined: seen };
    run.params(params, &Path::ROOT)?;
    if let Additional::Typed(s) = additional {
        run.schema(s.get(), &Path::ROOT.push("*"))?;
    }
    for def in definitions {
        run.schema(&def.schema, &Path::ROOT.push("$defs").push(text_str(&def.name)))?;
    }
    if let Some(out) = output {
        run.schema(out.get(), &Path::ROOT.push("output"))?;
    }
    Ok(())
}

/// A message under construction.
struct Msg {
    v: Violation,
}

impl Msg {
    const fn s(&mut self, s: &str) -> &mut Self {
        self.v.text.s(s);
        self
    }

    const fn int(&mut self, n: i64) -> &mut Self {
        self.v.text.int(n);
        self
    }

    const fn uint(&mut self, n: u64) -> &mut Self {
        self.v.text.uint(n);
        self
    }

    const fn float(&mut self, f: f64) -> &mut Self {
        self.v.text.float(f);
        self
    }

    const fn lit(&mut self, l: &Literal) -> &mut Self {
        self.v.text.lit(l);
        self
    }

    const fn done(&mut self) -> Violation {
        self.v
    }
}

impl<'a> Cx<'a> {
    /// Starts a message: "tool `x`: parameter `a.b`: ".
    const fn start(&self, rule: Rule, path: &Path<'_>) -> Msg {
        let mut m =
            Msg { v: Violation { rule, text: ConstText::EMPTY, param_start: 0, param_len: 0 } };
        m.s("tool `").s(self.tool).s("`: ");
        if path.len > 0 {
            m.s("parameter `");
            m.v.param_start = m.v.text.len();
            let mut i = 0;
            while i < path.len {
                if i > 0 {
                    m.s(".");
                }
                m.s(path.segs[i]);
                i += 1;
            }
            if path.depth > path.len {
                m.s("...");
            }
            m.v.param_len = m.v.text.len() - m.v.param_start;
            m.s("`: ");
        }
        m
    }

    const fn params(&self, params: &[Param], path: &Path<'_>) -> Result<(), Violation> {
        let mut i = 0;
        while i < params.len() {
            let p = &params[i];
            let name = text_str(&p.name);
            let here = path.push(name);
            if name.is_empty() {
                let mut m = self.start(Rule::EmptyParamName, path);
                m.s("a parameter has an empty name");
                return Err(m.done());
            }
            let mut j = i + 1;
            while self.pairwise && j < params.len() {
                if str_eq(name, text_str(&params[j].name)) {
                    let mut m = self.start(Rule::DuplicateParam, &here);
                    m.s("duplicate parameter name `").s(name).s("`");
                    return Err(m.done());
                }
                j += 1;
            }
            if let Some(misuse) = p.misuse {
                let mut m = self.start(Rule::Misuse, &here);
                m.s(misuse).s(", not to ").s(p.schema.kind.type_name());
                return Err(m.done());
            }
            if let Err(v) = self.schema(&p.schema, &here) {
                return Err(v);
            }
            i += 1;
        }
        Ok(())
    }

    const fn schema(&self, s: &Schema, path: &Path<'_>) -> Result<(), Violation> {
        if path.depth > MAX_DEPTH {
            let mut m = self.start(Rule::TooDeep, path);
            m.s("schemas nest deeper than ").int(MAX_DEPTH as i64).s(" levels");
            return Err(m.done());
        }
        match &s.kind {
            SchemaKind::String(st) => {
                if let (Some(min), Some(max)) = (st.min_length, st.max_length)
                    && min > max
                {
                    let mut m = self.start(Rule::MinAboveMax, path);
                    m.s("minimum length ").uint(min).s(" is above maximum length ").uint(max);
                    return Err(m.done());
                }
            }
            SchemaKind::Integer(n) => {
                if let Err(v) = self.int_bounds(n, path) {
                    return Err(v);
                }
            }
            SchemaKind::Float(n) => {
                if let Err(v) = self.float_bounds(n, path) {
                    return Err(v);
                }
            }
            SchemaKind::Boolean | SchemaKind::Null | SchemaKind::Any => {}
            SchemaKind::Enum(e) => {
                let values = &e.values;
                if values.is_empty() {
                    let mut m = self.start(Rule::EmptyEnum, path);
                    m.s("enum has no values");
                    return Err(m.done());
                }
                let mut i = 0;
                while i < values.len() {
                    let a = values.get(i);
                    match a {
                        ScalarRef::Float(f) if !f.is_finite() => {
                            let mut m = self.start(Rule::NotFinite, path);
                            m.s("enum value ").int(i as i64);
                            m.s(" is not a finite number; JSON cannot carry it");
                            return Err(m.done());
                        }
                        _ => {}
                    }
                    let mut j = i + 1;
                    while self.pairwise && j < values.len() {
                        if a.json_eq(values.get(j)) {
                            let mut m = self.start(Rule::DuplicateEnumValue, path);
                            m.s("enum value ");
                            scalar_text(&mut m, a);
                            m.s(" is listed twice");
                            return Err(m.done());
                        }
                        j += 1;
                    }
                    i += 1;
                }
            }
            SchemaKind::List(l) => {
                if let (Some(min), Some(max)) = (l.min_items, l.max_items)
                    && min > max
                {
                    let mut m = self.start(Rule::MinAboveMax, path);
                    m.s("minimum item count ").uint(min).s(" is above maximum ").uint(max);
                    return Err(m.done());
                }
                if let Err(v) = self.schema(l.items.get(), &path.push("[]")) {
                    return Err(v);
                }
            }
            SchemaKind::Object(o) => {
                if let Err(v) = self.params(slice(&o.properties), path) {
                    return Err(v);
                }
                if let Additional::Typed(t) = &o.additional
                    && let Err(v) = self.schema(t.get(), &path.push("*"))
                {
                    return Err(v);
                }
            }
            SchemaKind::AnyOf(a) => {
                let variants = slice(&a.variants);
                let mut i = 0;
                while i < variants.len() {
                    if let Err(v) = self.schema(&variants[i], &path.push("anyOf")) {
                        return Err(v);
                    }
                    i += 1;
                }
            }
            SchemaKind::Ref(r) => {
                // At run time (not `pairwise`), `run_time_rules` looks references up in a set:
                // a scan per reference is references times definitions.
                if self.pairwise && self.find_def(text_str(&r.name)).is_none() {
                    let mut m = self.start(Rule::UnknownRef, path);
                    m.s("reference to `").s(text_str(&r.name)).s("`, which is not a definition");
                    return Err(m.done());
                }
            }
        }
        if let Some(default) = &s.default
            && let Err(mut m) = self.value(s, default, path, "default ", 0, &mut Budget::new())
        {
            return Err(m.done());
        }
        let examples = slice(&s.examples);
        let mut i = 0;
        while i < examples.len() {
            if let Err(mut m) = self.value(s, &examples[i], path, "example ", 0, &mut Budget::new())
            {
                return Err(m.done());
            }
            i += 1;
        }
        Ok(())
    }

    const fn int_bounds(&self, n: &NumberSchema<i64>, path: &Path<'_>) -> Result<(), Violation> {
        let lo = match (n.minimum, n.exclusive_minimum) {
            (Some(a), Some(b)) => Some(if a > b { a } else { b }),
            (Some(a), None) | (None, Some(a)) => Some(a),
            (None, None) => None,
        };
        let hi = match (n.maximum, n.exclusive_maximum) {
            (Some(a), Some(b)) => Some(if a < b { a } else { b }),
            (Some(a), None) | (None, Some(a)) => Some(a),
            (None, None) => None,
        };
        if let (Some(lo), Some(hi)) = (lo, hi)
            && lo > hi
        {
            let mut m = self.start(Rule::MinAboveMax, path);
            m.s("minimum ").int(lo).s(" is above maximum ").int(hi);
            return Err(m.done());
        }
        // An exclusive bound admits the integers past it: `exclusiveMinimum 0` from 1 on.
        let first = match (n.minimum, n.exclusive_minimum) {
            (Some(a), Some(b)) => Some(max_i128(a as i128, b as i128 + 1)),
            (Some(a), None) => Some(a as i128),
            (None, Some(b)) => Some(b as i128 + 1),
            (None, None) => None,
        };
        let last = match (n.maximum, n.exclusive_maximum) {
            (Some(a), Some(b)) => Some(min_i128(a as i128, b as i128 - 1)),
            (Some(a), None) => Some(a as i128),
            (None, Some(b)) => Some(b as i128 - 1),
            (None, None) => None,
        };
        if let (Some(first), Some(last)) = (first, last)
            && first > last
        {
            let mut m = self.start(Rule::MinAboveMax, path);
            m.s("the bounds ");
            let bounds = [
                ("minimum ", n.minimum),
                ("exclusive minimum ", n.exclusive_minimum),
                ("maximum ", n.maximum),
                ("exclusive maximum ", n.exclusive_maximum),
            ];
            let mut i = 0;
            let mut listed = false;
            while i < bounds.len() {
                if let Some(b) = bounds[i].1 {
                    if listed {
                        m.s(", ");
                    }
                    m.s(bounds[i].0).int(b);
                    listed = true;
                }
                i += 1;
            }
            m.s(" leave no integer");
            return Err(m.done());
        }
        if let Some(step) = n.multiple_of
            && step <= 0
        {
            let mut m = self.start(Rule::BadMultipleOf, path);
            m.s("multipleOf must be positive; got ").int(step);
            return Err(m.done());
        }
        Ok(())
    }

    const fn float_bounds(&self, n: &NumberSchema<f64>, path: &Path<'_>) -> Result<(), Violation> {
        let all = [n.minimum, n.maximum, n.exclusive_minimum, n.exclusive_maximum, n.multiple_of];
        let mut i = 0;
        while i < all.len() {
            if let Some(v) = all[i]
                && !v.is_finite()
            {
                let mut m = self.start(Rule::NotFinite, path);
                m.s("a bound or step is ").float(v).s("; JSON numbers must be finite");
                return Err(m.done());
            }
            i += 1;
        }
        let lo = match (n.minimum, n.exclusive_minimum) {
            (Some(a), Some(b)) => Some(if a > b { a } else { b }),
            (Some(a), None) | (None, Some(a)) => Some(a),
            (None, None) => None,
        };
        let hi = match (n.maximum, n.exclusive_maximum) {
            (Some(a), Some(b)) => Some(if a < b { a } else { b }),
            (Some(a), None) | (None, Some(a)) => Some(a),
            (None, None) => None,
        };
        if let (Some(lo), Some(hi)) = (lo, hi)
            && lo > hi
        {
            let mut m = self.start(Rule::MinAboveMax, path);
            m.s("minimum ").float(lo).s(" is above maximum ").float(hi);
            return Err(m.done());
        }
        // Equal bounds admit their number only if both are inclusive.
        if let (Some(lo), Some(hi)) = (lo, hi)
            && lo == hi
        {
            let lo_exclusive = match n.exclusive_minimum {
                Some(e) => e == lo,
                None => false,
            };
            let hi_exclusive = match n.exclusive_maximum {
                Some(e) => e == hi,
                None => false,
            };
            if lo_exclusive || hi_exclusive {
                let mut m = self.start(Rule::MinAboveMax, path);
                m.s("the bounds meet at ").float(lo);
                m.s(" and one of them is exclusive, which leaves no number");
                return Err(m.done());
            }
        }
        if let Some(step) = n.multiple_of
            && (step.is_nan() || step <= 0.0)
        {
            let mut m = self.start(Rule::BadMultipleOf, path);
            m.s("multipleOf must be positive; got ").float(step);
            return Err(m.done());
        }
        Ok(())
    }

    /// The schema of the first definition named `name`, in the order of `defs`.
    const fn find_def(&self, name: &str) -> Option<&'a Schema> {
        if !self.by_name.is_empty() {
            return self.find_def_sorted(name);
        }
        let mut i = 0;
        while i < self.defs.len() {
            if str_eq(text_str(&self.defs[i].name), name) {
                return Some(&self.defs[i].schema);
            }
            i += 1;
        }
        None
    }

    /// [`Cx::find_def`] by binary search over `by_name` for the first entry of `name`'s hash,
    /// then along the entries of that hash: the first of them named `name` is the first
    /// definition of that name, since the sort kept their order.
    const fn find_def_sorted(&self, name: &str) -> Option<&'a Schema> {
        let (order, defs) = (self.by_name, self.defs);
        let hash = name_hash(name);
        let (mut lo, mut hi) = (0, order.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if order[mid].0 < hash {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        while lo < order.len() && order[lo].0 == hash {
            let def = &defs[order[lo].1];
            if str_eq(text_str(&def.name), name) {
                return Some(&def.schema);
            }
            lo += 1;
        }
        None
    }
}

/// The larger of `a` and `b` (`Ord::max` is not usable in `const`).
const fn max_i128(a: i128, b: i128) -> i128 {
    if a > b { a } else { b }
}

/// The smaller of `a` and `b` (`Ord::min` is not usable in `const`).
const fn min_i128(a: i128, b: i128) -> i128 {
    if a < b { a } else { b }
}

/// A 64-bit FNV-1a hash of a definition name, the key of [`name_order`] (usable in `const`).
const fn name_hash(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        h ^= bytes[i] as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    h
}

// `Cow` derefs to a slice only through a non-const trait, hence the explicit match.
#[allow(clippy::ptr_arg)]
pub(crate) const fn slice<'a, T: Clone>(c: &'a Cow<'static, [T]>) -> &'a [T] {
    match c {
        Cow::Borrowed(s) => s,
        Cow::Owned(v) => v.as_slice(),
    }
}

/// An enum value as a hash key under JSON Schema equality: a whole float is its integer.
#[derive(PartialEq, Eq, Hash)]
enum EnumKey<'a> {
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(&'a str),
}

impl<'a> EnumKey<'a> {
    fn of(v: ScalarRef<'a>) -> Self {
        match v {
            ScalarRef::Bool(b) => EnumKey::Bool(b),
            ScalarRef::Int(i) => EnumKey::Int(i),
            ScalarRef::Float(f) if ScalarRef::Int(f as i64).json_eq(v) => EnumKey::Int(f as i64),
            // `-0.0` equals `0.0` and is whole, so it took the branch above.
            ScalarRef::Float(f) => EnumKey::Float(f.to_bits()),
            ScalarRef::Str(s) => EnumKey::Str(s),
        }
    }
}

/// Writes an enum value as messages show literals: strings quoted, numbers and booleans bare.
const fn scalar_text(m: &mut Msg, v: ScalarRef<'_>) {
    match v {
        ScalarRef::Str(s) => {
            m.s("\"").s(s).s("\"");
        }
        ScalarRef::Int(i) => {
            m.int(i);
        }
        ScalarRef::Float(f) => {
            m.float(f);
        }
        ScalarRef::Bool(b) => {
            m.s(if b { "true" } else { "false" });
        }
    }
}
