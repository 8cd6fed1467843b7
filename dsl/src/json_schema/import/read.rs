//! The read stage: one schema object read into a [`Node`], its keywords with `allOf` merged in
//! (properties and `required` joined, each constraint given twice kept when equal, tightened
//! when one bound is stricter, and refused when no single value of the IR could say both), each
//! with its [`JsonPointer`]; and the `type` keyword's names.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::context::Cx;
use crate::json_schema::imported::{
    ImportError, ImportErrorKind, MAX_IMPORT_NODES, item, unsupported, wrong,
};
use crate::json_schema::keyword::{
    SchemaKeyword, TYPE_NAMES, Tightens, is_constraint, kept_reason,
};
use crate::pointer::JsonPointer;

/// How many schema objects one `allOf` tree may merge (guards against pathological input).
const MAX_ALL_OF_PARTS: usize = 1024;

/// One keyword of a [`Node`]: its value (merged when `allOf` members gave it twice), where it
/// was written, and which member of the `allOf` tree wrote it (0 for the schema object itself).
pub(super) struct Kw<'v> {
    pub(super) value: Cow<'v, Value>,
    pub(super) ptr: JsonPointer,
    pub(super) member: usize,
}

/// One property of a [`Node`]: its name, its schema as written, where, and which member of
/// the `allOf` tree listed it.
pub(super) struct Prop<'v> {
    pub(super) name: &'v str,
    pub(super) schema: &'v Value,
    pub(super) ptr: JsonPointer,
    pub(super) member: usize,
}

/// One name of a `required` list of a [`Node`], and where it was written.
pub(super) struct Required<'v> {
    pub(super) name: &'v str,
    pub(super) ptr: JsonPointer,
}

/// A schema object as the lower stage reads it: its keywords with `allOf` merged in.
pub(super) struct Node<'v> {
    pub(super) ptr: JsonPointer,
    pub(super) kws: IndexMap<&'v str, Kw<'v>>,
    pub(super) props: Option<Vec<Prop<'v>>>,
    pub(super) required: Option<Vec<Required<'v>>>,
}

impl<'v> Node<'v> {
    /// The keyword `keyword`, when the node has it.
    pub(super) fn get(&self, keyword: &str) -> Option<&Kw<'v>> {
        self.kws.get(keyword)
    }

    /// The `type` set of the node, or `None` when absent.
    pub(super) fn types(&self) -> Result<Option<Vec<String>>, ImportError> {
        match self.get("type") {
            None => Ok(None),
            Some(kw) => type_set(&kw.value, &kw.ptr).map(Some),
        }
    }

    /// A count keyword (`minLength`, `maxItems`...): a non-negative integer, `3.0` included.
    pub(super) fn count(&self, key: &str) -> Result<Option<u64>, ImportError> {
        let Some(kw) = self.get(key) else { return Ok(None) };
        let v = &*kw.value;
        v.as_u64()
            .or_else(|| {
                v.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 1.8e19)
                    .map(|f| f as u64)
            })
            .map(Some)
            .ok_or_else(|| wrong(&kw.ptr, key, "a non-negative integer", v))
    }

    /// Whether the node says anything about what is valid.
    pub(super) fn has_validity(&self) -> bool {
        self.props.is_some()
            || self.required.is_some()
            || self.kws.keys().any(|k| is_constraint(k) || kept_reason(k).is_some())
    }
}

/// What reading one `allOf` tree keeps track of: the parts still to read, and where each
/// property and required name already is, so that merging stays linear.
struct Reading<'v> {
    node: Node<'v>,
    parts: Vec<(&'v Map<String, Value>, JsonPointer)>,
    prop_at: HashMap<&'v str, usize>,
    required_seen: HashSet<&'v str>,
}

/// Reads the schema object `map` at `ptr` into a node, merging its `allOf` members into it.
pub(super) fn read_node<'v>(
    cx: &mut Cx,
    map: &'v Map<String, Value>,
    ptr: &JsonPointer,
) -> Result<Node<'v>, ImportError> {
    let node = Node { ptr: ptr.clone(), kws: IndexMap::new(), props: None, required: None };
    let mut r = Reading {
        node,
        parts: vec![(map, ptr.clone())],
        prop_at: HashMap::new(),
        required_seen: HashSet::new(),
    };
    let mut i = 0;
    while i < r.parts.len() {
        let (part, part_ptr) = r.parts[i].clone();
        for (key, value) in part {
            let kptr = part_ptr.child(key);
            match key.as_str() {
                "allOf" => all_of_members(&mut r, key, value, &kptr)?,
                "$defs" | "definitions" => {
                    if !(i == 0 && ptr.is_empty()) {
                        let nested =
                            "nested definitions were dropped (only root definitions are read)";
                        cx.note(&kptr, key, nested);
                    }
                }
                "properties" => properties(cx, &mut r, key, value, &kptr, i)?,
                "required" => required(&mut r, key, value, &kptr)?,
                _ => merge_keyword(cx, &mut r.node, key, value, kptr, i)?,
            }
        }
        i += 1;
    }
    if r.parts.len() > 1 {
        additional_in_one_member(&r.node)?;
    }
    Ok(r.node)
}

/// Queues the members of an `allOf` to be read into the same node.
fn all_of_members<'v>(
    r: &mut Reading<'v>,
    key: &str,
    value: &'v Value,
    kptr: &JsonPointer,
) -> Result<(), ImportError> {
    let Value::Array(members) = value else {
        return Err(wrong(kptr, key, "an array of schemas", value));
    };
    if r.parts.len() > MAX_ALL_OF_PARTS {
        return Err(ImportError::at(kptr, ImportErrorKind::TooDeep));
    }
    for (j, member) in members.iter().enumerate() {
        let mptr = item(kptr, j);
        match member {
            Value::Object(m) => r.parts.push((m, mptr)),
            Value::Bool(true) => {}
            other => return Err(wrong(&mptr, "schema", "an object", other)),
        }
    }
    Ok(())
}

/// Adds the properties of one `properties` (of the member `member`) to the node.
fn properties<'v>(
    cx: &mut Cx,
    r: &mut Reading<'v>,
    key: &str,
    value: &'v Value,
    kptr: &JsonPointer,
    member: usize,
) -> Result<(), ImportError> {
    let Value::Object(props) = value else {
        return Err(wrong(kptr, key, "an object", value));
    };
    let list = r.node.props.get_or_insert_with(Vec::new);
    for (name, schema) in cx.order.entries(kptr.as_str(), props) {
        let pptr = kptr.child(name);
        if let Some(&at) = r.prop_at.get(name.as_str()) {
            if list[at].schema != schema {
                return Err(unsupported(
                    &pptr,
                    "allOf",
                    format!("property `{name}` is defined twice with different schemas"),
                ));
            }
            continue;
        }
        // Each property is a node of its own: a list this wide is past the limit before any
        // is read (the import counts from here).
        if cx.nodes + list.len() + 1 > MAX_IMPORT_NODES {
            return Err(ImportError::at(&pptr, ImportErrorKind::TooManyNodes));
        }
        r.prop_at.insert(name.as_str(), list.len());
        list.push(Prop { name: name.as_str(), schema, ptr: pptr, member });
    }
    Ok(())
}

/// Adds the names of one `required` to the node, each once.
fn required<'v>(
    r: &mut Reading<'v>,
    key: &str,
    value: &'v Value,
    kptr: &JsonPointer,
) -> Result<(), ImportError> {
    let Value::Array(names) = value else {
        return Err(wrong(kptr, key, "an array of strings", value));
    };
    let list = r.node.required.get_or_insert_with(Vec::new);
    for (j, n) in names.iter().enumerate() {
        let Value::String(n) = n else {
            return Err(wrong(&item(kptr, j), key, "an array of strings", n));
        };
        if r.required_seen.insert(n.as_str()) {
            list.push(Required { name: n.as_str(), ptr: item(kptr, j) });
        }
    }
    Ok(())
}

/// `additionalProperties` of one allOf member constrains keys outside that member's own
/// properties: merging is exact only when that member lists every property.
fn additional_in_one_member(node: &Node<'_>) -> Result<(), ImportError> {
    for (key, kw) in &node.kws {
        if *key != "additionalProperties" || kw.value.as_ref() == &Value::Bool(true) {
            continue;
        }
        if let Some(props) = &node.props
            && props.iter().any(|p| p.member != kw.member)
        {
            return Err(unsupported(
                &kw.ptr,
                "allOf",
                "`additionalProperties` in one member and properties in another cannot be merged exactly",
            ));
        }
    }
    Ok(())
}

/// Adds `key` to the node, merging it with the value an earlier member gave (see the keyword
/// table's [`Tightens`]).
fn merge_keyword<'v>(
    cx: &mut Cx,
    node: &mut Node<'v>,
    key: &'v str,
    value: &'v Value,
    kptr: JsonPointer,
    member: usize,
) -> Result<(), ImportError> {
    let Some(prev) = node.kws.get_mut(key) else {
        node.kws.insert(key, Kw { value: Cow::Borrowed(value), ptr: kptr, member });
        return Ok(());
    };
    if prev.value.as_ref() == value {
        return Ok(());
    }
    if !is_constraint(key) && kept_reason(key).is_none() {
        cx.note(&kptr, key, "differs from an earlier value in the same allOf; the first was kept");
        return Ok(());
    }
    let num = |v: &Value, p: &JsonPointer| v.as_f64().ok_or_else(|| wrong(p, key, "a number", v));
    let bounds = || {
        if value.is_boolean() || prev.value.is_boolean() {
            return Err(unsupported(&kptr, "allOf", format!("two different `{key}` values")));
        }
        Ok((num(value, &kptr)?, num(&prev.value, &prev.ptr)?))
    };
    let tighter = match SchemaKeyword::from_wire(key).map(SchemaKeyword::tightens) {
        Some(Tightens::Greater) => bounds().map(|(new, old)| new > old)?,
        Some(Tightens::Smaller) => bounds().map(|(new, old)| new < old)?,
        Some(Tightens::True) => value == &Value::Bool(true),
        Some(Tightens::Common) => {
            let both = common_types(&prev.value, &prev.ptr, value, &kptr)?;
            prev.value = Cow::Owned(Value::Array(both));
            return Ok(());
        }
        _ => {
            return Err(unsupported(
                &kptr,
                "allOf",
                format!("two different `{key}` values cannot be merged exactly"),
            ));
        }
    };
    if tighter {
        *prev = Kw { value: Cow::Borrowed(value), ptr: kptr, member };
    }
    Ok(())
}

/// The types two `type` keywords of one `allOf` both allow (`integer` where one says `number`).
fn common_types(
    a: &Value,
    a_ptr: &JsonPointer,
    b: &Value,
    b_ptr: &JsonPointer,
) -> Result<Vec<Value>, ImportError> {
    let a = type_set(a, a_ptr)?;
    let b = type_set(b, b_ptr)?;
    let has = |set: &[String], t: &str| set.iter().any(|u| u == t);
    let mut both: Vec<Value> = Vec::new();
    for t in &a {
        let kept = if has(&b, t) {
            Some(t.as_str())
        } else if (t == "integer" && has(&b, "number")) || (t == "number" && has(&b, "integer")) {
            Some("integer")
        } else {
            None
        };
        if let Some(k) = kept
            && !both.iter().any(|x| x == k)
        {
            both.push(Value::from(k));
        }
    }
    if both.is_empty() {
        return Err(unsupported(
            b_ptr,
            "allOf",
            "the members' types have nothing in common, so no value is valid",
        ));
    }
    Ok(both)
}

/// The type names of a `type` keyword, each once (`integer` left out beside `number`).
pub(super) fn type_set(v: &Value, ptr: &JsonPointer) -> Result<Vec<String>, ImportError> {
    let expected = "a type name or an array of type names";
    let names: Vec<&Value> = match v {
        Value::String(_) => vec![v],
        Value::Array(items) if !items.is_empty() => items.iter().collect(),
        other => return Err(wrong(ptr, "type", expected, other)),
    };
    let mut out: Vec<String> = Vec::new();
    for (i, n) in names.into_iter().enumerate() {
        match n.as_str() {
            Some(t) if TYPE_NAMES.contains(&t) => {
                if !out.iter().any(|o| o == t) {
                    out.push(t.to_owned());
                }
            }
            Some(t) => {
                let suggestion = crate::suggest::closest(t, TYPE_NAMES.iter().copied());
                let pointer = if v.is_array() { item(ptr, i) } else { ptr.clone() };
                let kind = ImportErrorKind::UnknownType { name: t.to_owned(), suggestion };
                return Err(ImportError::at(&pointer, kind));
            }
            None => return Err(wrong(ptr, "type", expected, n)),
        }
    }
    // `number` already accepts every integer.
    if out.iter().any(|t| t == "number") {
        out.retain(|t| t != "integer");
    }
    Ok(out)
}

/// The JSON type name of a value (`integer` for a number without a fractional part written).
pub(super) fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Whether the JSON type name `t` admits the value `v` (`1.0` is an integer, `1` a number).
pub(super) fn type_fits(t: &str, v: &Value) -> bool {
    let vt = json_type(v);
    let whole = matches!(v, Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0));
    t == vt || (vt == "integer" && t == "number") || (vt == "number" && whole && t == "integer")
}
