//! Whether a literal value fits a schema: the rule every default and example keeps, and what
//! import asks of a default or an example before it keeps it ([`literal_fits`]).
//!
//! The walk is `const fn`, like the structural rules that call it for the defaults and examples
//! of a `const` descriptor, and bounded twice: by [`MAX_DEPTH`] levels of value, and by
//! [`MAX_VALUE_STEPS`] schema nodes in all, since `anyOf` variants that refer back to their own
//! definition can branch at every level. [`literal_fits`] takes a smaller limit too, so that
//! import can bound the work of all its defaults and examples together, and looks references
//! up through the definitions' [`name_order`], built once for all of them.

use super::{Cx, MAX_DEPTH, Msg, Path, Rule, scalar_text, slice};
use crate::literal::{Literal, Text};
use crate::schema::{
    Additional, Broken, Definition, EnumSchema, ListSchema, NumberSchema, ObjectSchema, Schema,
    SchemaKind, str_eq, text_str,
};

/// The most schema nodes one default or example is checked against (each visit counts).
const MAX_VALUE_STEPS: usize = 1 << 20;

/// What checking one default or example has used: schema nodes visited, and references followed
/// since the walk last entered an item or a property (at the same value).
pub(super) struct Budget {
    steps: usize,
    refs: usize,
    /// The most steps this walk may take; below [`MAX_VALUE_STEPS`] only for [`literal_fits`].
    limit: usize,
    /// Whether the walk stopped at a `limit` below [`MAX_VALUE_STEPS`], so that its answer
    /// says nothing of the value.
    out_of_steps: bool,
}

impl Budget {
    /// A budget of [`MAX_VALUE_STEPS`], for the structural pass.
    pub(super) const fn new() -> Self {
        Budget { steps: 0, refs: 0, limit: MAX_VALUE_STEPS, out_of_steps: false }
    }

    /// Whether the walk must stop: out of steps, or stopped short of its limit.
    const fn spent(&self) -> bool {
        self.steps > self.limit || self.out_of_steps
    }
}

/// The hash of each definition's name with its position in `defs`, sorted by hash (a stable
/// sort, so of two definitions with one name the first comes first), for looking references up
/// by binary search.
///
/// Checking a value against a schema follows references; without this order each one scans
/// the definitions, which over 20,000 definitions made importing their defaults quadratic.
pub(crate) fn name_order(defs: &[Definition]) -> Vec<(u64, usize)> {
    let mut order: Vec<(u64, usize)> =
        defs.iter().enumerate().map(|(i, d)| (super::name_hash(text_str(&d.name)), i)).collect();
    order.sort_by_key(|&(hash, _)| hash);
    order
}

/// Why [`literal_fits`] does not keep a literal.
#[derive(Debug)]
pub(crate) enum Unfit {
    /// The schema rejects it; the text says why.
    Rejected(String),
    /// The check cannot be finished (too deep, or past [`MAX_VALUE_STEPS`]); the text says why.
    Unchecked(String),
    /// The check needed more steps than it was given, and stopped without an answer.
    OutOfSteps,
}

/// Whether `l` is a value `s` accepts (the rule of a default or an example), looking
/// definitions up through `order` ([`name_order`] of `defs`).
///
/// The walk takes at most `steps` schema nodes (and never more than [`MAX_VALUE_STEPS`]); the
/// steps it takes are subtracted from `steps`. Import uses it to leave out a default or an
/// example that its own schema rejects, under one budget for all of them.
pub(crate) fn literal_fits(
    s: &Schema,
    l: &Literal,
    defs: &[Definition],
    order: &[(u64, usize)],
    steps: &mut usize,
) -> Result<(), Unfit> {
    let cx = Cx { tool: "", defs, pairwise: true, by_name: order };
    let limit = (*steps).min(MAX_VALUE_STEPS);
    let mut budget = Budget { limit, ..Budget::new() };
    let fits = cx.value(s, l, &Path::ROOT, "", 0, &mut budget);
    *steps -= budget.steps.min(*steps);
    if budget.out_of_steps {
        return Err(Unfit::OutOfSteps);
    }
    fits.map_err(|mut m| {
        let v = m.done();
        let why = v.message().strip_prefix("tool ``: ").unwrap_or(v.message()).trim().to_owned();
        if matches!(v.rule(), Rule::TooDeep) { Unfit::Unchecked(why) } else { Unfit::Rejected(why) }
    })
}

impl Cx<'_> {
    /// Checks that `l` is a value `s` accepts; `what` is "default " or "example ".
    pub(super) const fn value(
        &self,
        s: &Schema,
        l: &Literal,
        path: &Path<'_>,
        what: &str,
        depth: usize,
        b: &mut Budget,
    ) -> Result<(), Msg> {
        if let Err(m) = self.step(path, what, depth, b) {
            return Err(m);
        }
        if let Literal::Null = l
            && (s.nullable || matches!(s.kind, SchemaKind::Null))
        {
            return Ok(());
        }
        match (&s.kind, l) {
            (SchemaKind::String(st), Literal::Str(v)) => {
                let len = char_count(text_str(v));
                if let Some(min) = st.min_length
                    && len < min
                {
                    let mut m = self.start(Rule::OutOfRange, path);
                    m.s(what).lit(l).s(" is shorter than the minimum length ").uint(min);
                    return Err(m);
                }
                if let Some(max) = st.max_length
                    && len > max
                {
                    let mut m = self.start(Rule::OutOfRange, path);
                    m.s(what).lit(l).s(" is longer than the maximum length ").uint(max);
                    return Err(m);
                }
                Ok(())
            }
            (SchemaKind::Integer(n), Literal::Int(v)) => self.int_in(n, *v, l, path, what),
            (SchemaKind::Float(n), Literal::Int(v)) => self.float_in(n, *v as f64, l, path, what),
            (SchemaKind::Float(_), Literal::Float(v)) if !v.is_finite() => {
                let mut m = self.start(Rule::NotFinite, path);
                m.s(what).lit(l).s(" is not a finite number; JSON cannot carry it");
                Err(m)
            }
            (SchemaKind::Float(n), Literal::Float(v)) => self.float_in(n, *v, l, path, what),
            (SchemaKind::Boolean, Literal::Bool(_)) => Ok(()),
            (SchemaKind::Any, _) => Ok(()),
            (
                SchemaKind::Enum(e),
                l @ (Literal::Str(_) | Literal::Int(_) | Literal::Float(_) | Literal::Bool(_)),
            ) => self.enum_value(e, l, path, what),
            (SchemaKind::List(list), Literal::List(items)) => {
                self.list_value(list, slice(items), path, what, depth, b)
            }
            (SchemaKind::Object(o), Literal::Object(entries)) => {
                // Each property is a new value: references followed so far do not count there.
                let refs = b.refs;
                b.refs = 0;
                let r = self.object_value(o, slice(entries), path, what, depth, b);
                b.refs = refs;
                r
            }
            (SchemaKind::AnyOf(a), _) => {
                self.any_of_value(slice(&a.variants), l, path, what, depth, b)
            }
            (SchemaKind::Ref(r), _) => self.ref_value(text_str(&r.name), l, path, what, depth, b),
            _ => Err(self.wrong_kind(s, l, path, what)),
        }
    }

    /// Counts one schema node of the walk, and stops it past its budget or its depth.
    const fn step(
        &self,
        path: &Path<'_>,
        what: &str,
        depth: usize,
        b: &mut Budget,
    ) -> Result<(), Msg> {
        // `anyOf` variants that refer back to their own definition branch at every level:
        // without a bound the paths to try grow as 2^depth.
        b.steps += 1;
        if b.steps > b.limit && b.limit < MAX_VALUE_STEPS {
            b.out_of_steps = true;
            return Err(self.start(Rule::TooDeep, path));
        }
        if b.steps > MAX_VALUE_STEPS {
            let mut m = self.start(Rule::TooDeep, path);
            m.s(what).s("takes more than ").uint(MAX_VALUE_STEPS as u64);
            m.s(" steps to check against its schema (definitions that refer to each other through `anyOf` alone?)");
            return Err(m);
        }
        if depth > MAX_DEPTH {
            let mut m = self.start(Rule::TooDeep, path);
            m.s(what).s("nests deeper than the schema can be followed");
            return Err(m);
        }
        Ok(())
    }

    /// A scalar against the values of an enum.
    const fn enum_value(
        &self,
        e: &EnumSchema,
        l: &Literal,
        path: &Path<'_>,
        what: &str,
    ) -> Result<(), Msg> {
        let mut i = 0;
        while i < e.values.len() {
            if e.values.get(i).matches_literal(l) {
                return Ok(());
            }
            i += 1;
        }
        let mut m = self.start(Rule::NotInEnum, path);
        m.s(what).lit(l).s(" is not one of ");
        let mut i = 0;
        while i < e.values.len() {
            if i > 0 {
                m.s(", ");
            }
            scalar_text(&mut m, e.values.get(i));
            i += 1;
        }
        Err(m)
    }

    /// A list against its item count and its items' schema.
    const fn list_value(
        &self,
        list: &ListSchema,
        items: &[Literal],
        path: &Path<'_>,
        what: &str,
        depth: usize,
        b: &mut Budget,
    ) -> Result<(), Msg> {
        let n = items.len() as u64;
        if let Some(min) = list.min_items
            && n < min
        {
            let mut m = self.start(Rule::OutOfRange, path);
            m.s(what).s("has ").uint(n).s(" items; the minimum is ").uint(min);
            return Err(m);
        }
        if let Some(max) = list.max_items
            && n > max
        {
            let mut m = self.start(Rule::OutOfRange, path);
            m.s(what).s("has ").uint(n).s(" items; the maximum is ").uint(max);
            return Err(m);
        }
        // Each item is a new value: references followed so far do not count there.
        let refs = b.refs;
        b.refs = 0;
        let mut i = 0;
        while i < items.len() {
            if let Err(m) =
                self.value(list.items.get(), &items[i], &path.push("[]"), what, depth + 1, b)
            {
                b.refs = refs;
                return Err(m);
            }
            i += 1;
        }
        b.refs = refs;
        Ok(())
    }

    /// A value against each variant of an `anyOf` in turn, until one takes it.
    const fn any_of_value(
        &self,
        variants: &[Schema],
        l: &Literal,
        path: &Path<'_>,
        what: &str,
        depth: usize,
        b: &mut Budget,
    ) -> Result<(), Msg> {
        let mut i = 0;
        while i < variants.len() {
            match self.value(&variants[i], l, path, what, depth + 1, b) {
                Ok(()) => return Ok(()),
                // Out of steps: say so, not that no variant matched.
                Err(m) if b.spent() => return Err(m),
                Err(_) => {}
            }
            i += 1;
        }
        let mut m = self.start(Rule::WrongType, path);
        m.s(what).lit(l).s(" matches none of the anyOf variants");
        Err(m)
    }

    /// A value against the definition named `name`.
    const fn ref_value(
        &self,
        name: &str,
        l: &Literal,
        path: &Path<'_>,
        what: &str,
        depth: usize,
        b: &mut Budget,
    ) -> Result<(), Msg> {
        // More references than definitions at one value went round a loop: a value that
        // matches does so without it, so this path fails at once.
        if b.refs >= self.defs.len() {
            let mut m = self.start(Rule::WrongType, path);
            m.s(what).lit(l).s(" matches no definition without going round a loop");
            return Err(m);
        }
        match self.find_def(name) {
            Some(target) => {
                b.refs += 1;
                let r = self.value(target, l, path, what, depth + 1, b);
                b.refs -= 1;
                r
            }
            None => Ok(()), // reported as UnknownRef by the structural pass
        }
    }

    /// A value of another kind than its schema's.
    const fn wrong_kind(&self, s: &Schema, l: &Literal, path: &Path<'_>, what: &str) -> Msg {
        let mut m = self.start(Rule::WrongType, path);
        m.s(what).lit(l).s(" is ");
        m.s(article(l.type_name())).s(l.type_name()).s(", but the parameter is ");
        if s.nullable {
            m.s("a nullable ");
        } else {
            m.s(article(s.kind.type_name()));
        }
        m.s(s.kind.type_name());
        m
    }

    const fn object_value(
        &self,
        o: &ObjectSchema,
        entries: &[(Text, Literal)],
        path: &Path<'_>,
        what: &str,
        depth: usize,
        b: &mut Budget,
    ) -> Result<(), Msg> {
        let (props, additional) = (slice(&o.properties), &o.additional);
        let mut i = 0;
        while i < props.len() {
            let p = &props[i];
            let name = text_str(&p.name);
            let mut found = false;
            let mut j = 0;
            while j < entries.len() {
                if str_eq(text_str(&entries[j].0), name) {
                    found = true;
                    if let Err(m) =
                        self.value(&p.schema, &entries[j].1, &path.push(name), what, depth + 1, b)
                    {
                        return Err(m);
                    }
                }
                j += 1;
            }
            if !found && p.required {
                let mut m = self.start(Rule::WrongType, path);
                m.s(what).s("lacks the required key `").s(name).s("`");
                return Err(m);
            }
            i += 1;
        }
        let mut j = 0;
        while j < entries.len() {
            let key = text_str(&entries[j].0);
            let mut listed = false;
            let mut i = 0;
            while i < props.len() {
                if str_eq(text_str(&props[i].name), key) {
                    listed = true;
                }
                i += 1;
            }
            if !listed {
                match additional {
                    Additional::Closed => {
                        let mut m = self.start(Rule::WrongType, path);
                        m.s(what)
                            .s("has the key `")
                            .s(key)
                            .s("`, which the object does not accept");
                        return Err(m);
                    }
                    Additional::Open | Additional::Unstated => {}
                    Additional::Typed(t) => {
                        if let Err(m) =
                            self.value(t.get(), &entries[j].1, &path.push(key), what, depth + 1, b)
                        {
                            return Err(m);
                        }
                    }
                }
            }
            j += 1;
        }
        Ok(())
    }

    const fn int_in(
        &self,
        n: &NumberSchema<i64>,
        v: i64,
        l: &Literal,
        path: &Path<'_>,
        what: &str,
    ) -> Result<(), Msg> {
        let broken = match n.bounds().int_broken(v as i128) {
            // `multipleOf` is positive (a structural rule); another is not judged here.
            Some(Broken::MultipleOf(step)) if step <= 0 => return Ok(()),
            Some(broken) => broken,
            None => return Ok(()),
        };
        let mut m = self.start(Rule::OutOfRange, path);
        m.s(what).lit(l);
        match broken {
            Broken::Minimum(b) => m.s(" is below the minimum ").int(b),
            Broken::Maximum(b) => m.s(" is above the maximum ").int(b),
            Broken::ExclusiveMinimum(b) => m.s(" is not above the exclusive minimum ").int(b),
            Broken::ExclusiveMaximum(b) => m.s(" is not below the exclusive maximum ").int(b),
            Broken::MultipleOf(b) => m.s(" is not a multiple of ").int(b),
        };
        Err(m)
    }

    /// A fractional `multipleOf` is not judged here: its tolerance needs rounding, which is not
    /// `const`.
    const fn float_in(
        &self,
        n: &NumberSchema<f64>,
        v: f64,
        l: &Literal,
        path: &Path<'_>,
        what: &str,
    ) -> Result<(), Msg> {
        let Some(broken) = n.bounds().float_bounds(v) else { return Ok(()) };
        let mut m = self.start(Rule::OutOfRange, path);
        m.s(what).lit(l);
        match broken {
            Broken::Minimum(b) => m.s(" is below the minimum ").float(b),
            Broken::Maximum(b) => m.s(" is above the maximum ").float(b),
            Broken::ExclusiveMinimum(b) => m.s(" is not above the exclusive minimum ").float(b),
            Broken::ExclusiveMaximum(b) => m.s(" is not below the exclusive maximum ").float(b),
            Broken::MultipleOf(b) => m.s(" is not a multiple of ").float(b),
        };
        Err(m)
    }
}

const fn article(type_name: &str) -> &'static str {
    match type_name.as_bytes() {
        [b'a' | b'e' | b'i' | b'o' | b'u', ..] => "an ",
        [b'$', ..] => "a ",
        _ => "a ",
    }
}

/// Length in Unicode scalar values, as JSON Schema counts string length.
const fn char_count(s: &str) -> u64 {
    let bytes = s.as_bytes();
    let mut n = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] & 0xC0 != 0x80 {
            n += 1;
        }
        i += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;

    /// Names out of order, one not ASCII and one a prefix of another, so that the binary search
    /// meets every kind of comparison.
    static NAMES: [&str; 6] = ["m", "b", "zz", "z", "\u{e9}", "A"];

    /// A list of `n` copies of `value`.
    fn list(value: &'static str, n: usize) -> Literal {
        list_ending(value, n, value)
    }

    /// A list of `n - 1` copies of `value`, then `last` (which the walk meets after every
    /// other item's reference).
    fn list_ending(value: &'static str, n: usize, last: &'static str) -> Literal {
        let mut items = vec![Literal::Str(Cow::Borrowed(value)); n - 1];
        items.push(Literal::Str(Cow::Borrowed(last)));
        Literal::List(Cow::Owned(items))
    }

    /// Each definition accepts only its own name.
    fn definitions() -> Vec<Definition> {
        NAMES
            .iter()
            .map(|name| Definition::new(name, Schema::enumeration(std::slice::from_ref(name))))
            .collect()
    }

    /// [`literal_fits`] with all the steps it may take, and its refusal as text.
    fn fits(
        s: &Schema,
        l: &Literal,
        defs: &[Definition],
        order: &[(u64, usize)],
    ) -> Result<(), String> {
        let mut steps = usize::MAX;
        match literal_fits(s, l, defs, order, &mut steps) {
            Ok(()) => Ok(()),
            Err(Unfit::Rejected(why) | Unfit::Unchecked(why)) => Err(why),
            Err(Unfit::OutOfSteps) => Err("out of steps".to_owned()),
        }
    }

    #[test]
    fn references_find_their_definition_by_scan_and_by_index() {
        let defs = definitions();
        for order in [Vec::new(), name_order(&defs)] {
            for n in [1, 40] {
                for (i, name) in NAMES.iter().enumerate() {
                    let items = Schema::list_of(Schema::reference_to(*name));
                    assert_eq!(fits(&items, &list(name, n), &defs, &order), Ok(()), "{name} x{n}");
                    let other = NAMES[(i + 1) % NAMES.len()];
                    assert_eq!(
                        fits(&items, &list_ending(name, n, other), &defs, &order),
                        Err(format!("parameter `[]`: \"{other}\" is not one of \"{name}\"")),
                        "{other} against {name} x{n}, order {order:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_first_of_two_definitions_of_a_name_is_the_one_followed() {
        let defs = vec![
            Definition::new("twice", Schema::integer()),
            Definition::new("twice", Schema::string()),
            Definition::new("other", Schema::boolean()),
        ];
        let items = Schema::list_of(Schema::reference_to("twice"));
        for order in [Vec::new(), name_order(&defs)] {
            let ints = Literal::List(Cow::Owned(vec![Literal::Int(1); 3]));
            assert_eq!(fits(&items, &ints, &defs, &order), Ok(()));
            let last_text = Literal::List(Cow::Owned(vec![
                Literal::Int(1),
                Literal::Str(Cow::Borrowed("text")),
            ]));
            assert_eq!(
                fits(&items, &last_text, &defs, &order),
                Err("parameter `[]`: \"text\" is a string, but the parameter is an integer"
                    .to_owned()),
                "order {order:?}"
            );
        }
    }

    /// Definitions whose `loop` branches in two at each level and never ends.
    fn endless() -> Vec<Definition> {
        static BOTH: [Schema; 2] = [Schema::reference("loop"), Schema::reference("loop")];
        // More definitions than levels, so that the depth limit, not the loop guard, ends each
        // path.
        let mut defs: Vec<Definition> = (0..2 * MAX_DEPTH)
            .map(|i| Definition::named(format!("d{i}"), Schema::null()))
            .collect();
        defs.push(Definition::new("loop", Schema::any_of(&BOTH)));
        defs
    }

    #[test]
    fn a_walk_that_runs_out_of_steps_says_so() {
        let defs = endless();
        let value = Literal::Str(Cow::Borrowed("x"));
        let why = fits(&Schema::reference("loop"), &value, &defs, &name_order(&defs)).unwrap_err();
        assert_eq!(
            why,
            format!(
                "takes more than {MAX_VALUE_STEPS} steps to check against its schema \
                 (definitions that refer to each other through `anyOf` alone?)"
            )
        );
    }

    #[test]
    fn a_walk_given_fewer_steps_stops_without_an_answer_and_spends_them() {
        let defs = endless();
        let order = name_order(&defs);
        let value = Literal::Str(Cow::Borrowed("x"));
        let mut steps = 1_000;
        let got = literal_fits(&Schema::reference("loop"), &value, &defs, &order, &mut steps);
        assert!(matches!(got, Err(Unfit::OutOfSteps)), "{got:?}");
        assert_eq!(steps, 0);
        // What needs fewer steps than it is given is answered, and pays only for its own.
        let mut steps = 1_000;
        let got = literal_fits(&Schema::string(), &value, &defs, &order, &mut steps);
        assert!(got.is_ok(), "{got:?}");
        assert_eq!(steps, 999);
    }
}
