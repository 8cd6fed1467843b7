//! The key order of JSON text, kept beside the `serde_json::Value` parsed from it.
//!
//! tooldef does not turn on serde_json's `preserve_order` feature: Cargo unifies features, so
//! turning it on would make every other crate in the user's binary pay for an `IndexMap` behind
//! each `Map` (schemars and `jsonschema` measurably slow down). Without it, a `Map` iterates in
//! sorted key order, while the order of a spec file's `properties` is what the author wrote and
//! what the model reads. [`KeyOrder::parse`] reads text into the usual `Value` and records, for
//! each object whose keys were not already in sorted order, its keys in text order, keyed by the
//! object's JSON pointer. Import reads properties, definitions and object literals through it.
//!
//! The result does not depend on the feature: with `preserve_order` on (another crate may turn
//! it on), a `Map` already iterates in text order, which is the order the table records.
//!
//! [`KeyOrder::parse_schemas`] reads text that holds tool schemas (a spec, a provider's tool
//! list) and counts their nodes while it reads (through [`KeyOrder::parse_counting`] here, with
//! the limit import gives it), so that a schema far past
//! [`MAX_IMPORT_NODES`] is refused before it is built: a `serde_json::Value` of tiny schemas
//! takes some 30 times its text, and import would refuse it anyway. Within each schema (the
//! outermost object that has `properties`, `$defs`, `definitions`, `anyOf` or `oneOf`), each
//! member of a `properties` and each variant of an `anyOf` or `oneOf` counts as a node, and
//! each definition (with what is under it) as one of the definitions; past
//! [`MAX_IMPORT_NODES`] of either, the rest of that schema is read without being kept, the
//! schema is left `null` and refused at the pointer where the count crossed the limit. Both
//! counts are of nodes the import builds too (it counts more: `items`, copies), so a schema
//! refused here is one the import would refuse, and the rest of the document is read as
//! usual. Literals (`default`, `examples`, `enum`, `const`) and the keywords import keeps
//! verbatim are not counted.
//!
//! [`MAX_IMPORT_NODES`]: crate::json_schema::MAX_IMPORT_NODES

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::literal::{Literal, LiteralRangeError};
use crate::pointer::JsonPointer;

/// The deepest JSON tooldef reads and dispatch accepts: 127 nested arrays or objects, the
/// outermost counted (the arguments object is the first level). That is as deep as
/// `serde_json` reads text (its recursion limit stops at the 128th level), so a tool whose
/// parameters serde decodes straight from the text takes exactly what every other tool takes.
/// Text or a value built by a host that is deeper is refused with the pointer of the array or
/// object that crosses the limit.
pub const MAX_DEPTH: usize = 127;

/// The key order of the objects of one JSON document, where it differs from sorted order.
///
/// Built by [`KeyOrder::parse`]; an empty table (the [`Default`]) means "the order the `Map`
/// iterates in", which is what a `Value` built in Rust has to offer.
///
/// ```
/// use tooldef::json_schema::KeyOrder;
///
/// let (value, order) = KeyOrder::parse(br#"{"zone": 1, "city": {"b": 2, "a": 3}}"#).unwrap();
/// let keys: Vec<&str> = order.entries("", value.as_object().unwrap())
///     .into_iter()
///     .map(|(k, _)| k.as_str())
///     .collect();
/// assert_eq!(keys, ["zone", "city"]);
/// assert_eq!(order.keys("/city").unwrap(), ["b", "a"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyOrder {
    /// JSON pointer of an object to its keys in text order (first occurrence of each key).
    objects: HashMap<String, Vec<String>>,
}

impl KeyOrder {
    /// Parses JSON text into a `Value` and the key order of its objects.
    ///
    /// ```
    /// use tooldef::json_schema::KeyOrder;
    ///
    /// let deep = format!("{{\"a\": {}{}}}", "[".repeat(127), "]".repeat(127));
    /// let err = KeyOrder::parse(deep.as_bytes()).unwrap_err();
    /// let pointer = format!("/a{}", "/0".repeat(126));
    /// assert_eq!(
    ///     err.to_string(),
    ///     format!("too deep: #{pointer} is nested more than 127 levels deep at line 1 column 133")
    /// );
    /// ```
    ///
    /// # Errors
    ///
    /// serde_json's error for text that is not one JSON value (with its line and column); a
    /// key given twice in one object, or an array or object nested deeper than
    /// [`MAX_DEPTH`](crate::json_text::MAX_DEPTH) levels, named by its pointer.
    pub fn parse(text: &[u8]) -> Result<(Value, KeyOrder), serde_json::Error> {
        KeyOrder::parse_noting_problem(text).map_err(|(error, _)| error)
    }

    /// As [`KeyOrder::parse`]; when the text gives a key twice or nests too deeply, the error
    /// comes with the pointer where it does.
    pub(crate) fn parse_noting_problem(
        text: &[u8],
    ) -> Result<(Value, KeyOrder), (serde_json::Error, Option<TextProblem>)> {
        KeyOrder::parse_with(text, None)
    }

    /// As [`KeyOrder::parse`], counting the nodes of the tool schemas the text holds while
    /// reading (see the module docs): each schema past `limit` nodes is left `null` in the
    /// value, with the pointer where the count crossed the limit (a pointer into the document).
    /// [`KeyOrder::parse_schemas`] reads with import's limit.
    ///
    /// # Errors
    ///
    /// As [`KeyOrder::parse`].
    pub(crate) fn parse_counting(
        text: &[u8],
        limit: usize,
    ) -> Result<(Value, KeyOrder, Vec<JsonPointer>), serde_json::Error> {
        let mut budget = Budget { limit, ..Budget::default() };
        let (value, order) =
            KeyOrder::parse_with(text, Some(&mut budget)).map_err(|(error, _)| error)?;
        Ok((value, order, budget.refused))
    }

    fn parse_with(
        text: &[u8],
        budget: Option<&mut Budget>,
    ) -> Result<(Value, KeyOrder), (serde_json::Error, Option<TextProblem>)> {
        let mut order = KeyOrder::default();
        let mut path = JsonPointer::root();
        let mut problem = None;
        let mut de = serde_json::Deserializer::from_slice(text);
        // The recorder counts levels itself and stops past `MAX_DEPTH`, where it can name the
        // pointer (serde_json's own limit stops at the same level, but says only where). What
        // a refused schema's rest is skipped with reads iteratively, with no recursion.
        de.disable_recursion_limit();
        let recorder = Recorder {
            objects: &mut order.objects,
            path: &mut path,
            depth: 0,
            problem: &mut problem,
            budget,
            ctx: Ctx::Doc,
            defs: false,
            node: false,
        };
        match recorder.deserialize(&mut de) {
            Ok(value) => {
                de.end().map_err(|e| (e, None))?;
                Ok((value, order))
            }
            Err(e) if matches!(problem, Some(TextProblem::TooDeep(_))) => {
                Err((at_the_bracket(text, e), problem))
            }
            Err(e) => Err((e, problem)),
        }
    }

    /// Whether no object of the document had its keys out of sorted order.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
    }

    /// The keys of the object at `pointer` in text order, if they were not in sorted order.
    pub fn keys(&self, pointer: &str) -> Option<&[String]> {
        self.objects.get(pointer).map(Vec::as_slice)
    }

    /// The entries of `map`, the object found at `pointer`, in text order.
    ///
    /// Keys the table does not know (the value was changed after parsing) follow in the map's
    /// own order; keys the map no longer has are skipped.
    pub fn entries<'m>(
        &self,
        pointer: &str,
        map: &'m Map<String, Value>,
    ) -> Vec<(&'m String, &'m Value)> {
        let Some(keys) = self.objects.get(pointer) else { return map.iter().collect() };
        let mut out: Vec<(&'m String, &'m Value)> =
            keys.iter().filter_map(|k| map.get_key_value(k.as_str())).collect();
        if out.len() < map.len() {
            out.extend(map.iter().filter(|(k, _)| !keys.contains(k)));
        }
        out
    }

    /// The part of the table under `pointer`, with pointers relative to it.
    pub fn subtree(&self, pointer: &str) -> KeyOrder {
        if pointer.is_empty() {
            return self.clone();
        }
        let objects = self
            .objects
            .iter()
            .filter_map(|(p, keys)| {
                let rest = p.strip_prefix(pointer)?;
                (rest.is_empty() || rest.starts_with('/')).then(|| (rest.to_owned(), keys.clone()))
            })
            .collect();
        KeyOrder { objects }
    }

    /// The same table with every pointer placed under `prefix` (e.g. `/input_schema`).
    pub fn rebased(self, prefix: &str) -> KeyOrder {
        if prefix.is_empty() {
            return self;
        }
        let objects =
            self.objects.into_iter().map(|(p, keys)| (format!("{prefix}{p}"), keys)).collect();
        KeyOrder { objects }
    }

    /// Adds the entries of `other` (pointers already in this table's frame).
    pub fn extend(&mut self, other: KeyOrder) {
        self.objects.extend(other.objects);
    }

    /// Converts the value at `pointer` into a [`Literal`], its objects in text order.
    ///
    /// # Errors
    ///
    /// As [`Literal::from_json`]: an unsigned integer above `i64::MAX`.
    pub fn literal(&self, pointer: &str, value: &Value) -> Result<Literal, LiteralRangeError> {
        if self.objects.is_empty() {
            return Literal::from_json(value);
        }
        let mut path = JsonPointer::from_written(pointer);
        self.literal_at(&mut path, value)
    }

    /// Writes the value at `pointer` as compact JSON text, its objects in text order: the text
    /// the value was read from, up to whitespace and the spelling of numbers.
    ///
    /// ```
    /// use tooldef::json_schema::KeyOrder;
    ///
    /// let (value, order) = KeyOrder::parse(br#"{"s": {"b": 1, "a": [2.50, {"y": 0, "x": 1}]}}"#).unwrap();
    /// assert_eq!(order.to_text("/s", &value["s"]), r#"{"b":1,"a":[2.5,{"y":0,"x":1}]}"#);
    /// ```
    pub fn to_text(&self, pointer: &str, value: &Value) -> String {
        let mut out = Vec::new();
        if self.objects.is_empty() {
            // Every object is in the order its map iterates in.
            let _ = serde_json::to_writer(&mut out, value);
        } else {
            self.text_at(&mut JsonPointer::from_written(pointer), value, &mut out);
        }
        // serde_json writes UTF-8 only.
        String::from_utf8(out).unwrap_or_default()
    }

    fn text_at(&self, path: &mut JsonPointer, value: &Value, out: &mut Vec<u8>) {
        let len = path.len();
        match value {
            Value::Array(items) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    path.push_index(i);
                    self.text_at(path, item, out);
                    path.truncate(len);
                }
                out.push(b']');
            }
            Value::Object(map) => {
                out.push(b'{');
                for (i, (k, v)) in self.entries(path.as_str(), map).into_iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    // Writing a string or a scalar into a `Vec` cannot fail.
                    let _ = serde_json::to_writer(&mut *out, k);
                    out.push(b':');
                    path.push(k);
                    self.text_at(path, v, out);
                    path.truncate(len);
                }
                out.push(b'}');
            }
            scalar => {
                let _ = serde_json::to_writer(&mut *out, scalar);
            }
        }
    }

    fn literal_at(
        &self,
        path: &mut JsonPointer,
        value: &Value,
    ) -> Result<Literal, LiteralRangeError> {
        let len = path.len();
        Ok(match value {
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    path.push_index(i);
                    out.push(self.literal_at(path, item)?);
                    path.truncate(len);
                }
                Literal::List(Cow::Owned(out))
            }
            Value::Object(map) => {
                let mut out = Vec::with_capacity(map.len());
                for (k, v) in self.entries(path.as_str(), map) {
                    path.push(k);
                    out.push((Cow::Owned(k.clone()), self.literal_at(path, v)?));
                    path.truncate(len);
                }
                Literal::Object(Cow::Owned(out))
            }
            scalar => Literal::from_json(scalar)?,
        })
    }
}

/// `err`, the error of an array or object nested too deeply, placed at its opening bracket.
///
/// serde_json places a visitor's error where it stands once the container is left, past the
/// whitespace and the one closing bracket or comma that follow, so the position would depend
/// on what follows. The bracket is the last one before that position (only whitespace, `]`,
/// `}` or `,` lie between), and reading the text up to it alone ends there, with the same
/// error.
fn at_the_bracket(text: &[u8], err: serde_json::Error) -> serde_json::Error {
    // serde_json's column counts the bytes read on the error's line.
    let line_start = match err.line() {
        0 | 1 => Some(0),
        n => text.iter().enumerate().filter(|(_, b)| **b == b'\n').nth(n - 2).map(|(i, _)| i + 1),
    };
    let Some(read) = line_start.map(|s| (s + err.column()).min(text.len())) else { return err };
    let Some(bracket) = text[..read].iter().rposition(|b| matches!(b, b'[' | b'{')) else {
        return err;
    };
    if bracket + 1 == read {
        return err;
    }
    match KeyOrder::parse_noting_problem(&text[..=bracket]) {
        Err((placed, Some(TextProblem::TooDeep(_)))) => placed,
        _ => err,
    }
}

/// Text that is JSON but that tooldef does not read, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TextProblem {
    /// A key given twice in one object: the key's pointer.
    DuplicateKey(JsonPointer),
    /// An array or object nested deeper than [`MAX_DEPTH`]: its
    /// pointer.
    TooDeep(JsonPointer),
}

/// The schema nodes counted so far while reading (see [`KeyOrder::parse_schemas`]).
#[derive(Default)]
struct Budget {
    /// The depth (pointer length) of the schema being counted, if one is.
    root: Option<usize>,
    /// Its nodes outside its definitions, and within them.
    nodes: usize,
    def_nodes: usize,
    /// Past the limit: the rest of the schema is read without being kept.
    skipping: bool,
    /// The most nodes of either kind.
    limit: usize,
    /// Where each schema past the limit crossed it.
    refused: Vec<JsonPointer>,
}

/// What the value being read is, as far as counting schema nodes goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// Outside any schema known as such (a tool list, a tool, a spec).
    Doc,
    /// A schema.
    Schema,
    /// A `properties`, `$defs` or `definitions` object: each member a schema node.
    Members,
    /// An `anyOf` or `oneOf` array: each element a schema node.
    Variants,
    /// An `allOf` array: each element a schema merged into its owner (not a node of its own).
    Merged,
    /// A literal, or a keyword import keeps verbatim: nothing below is counted.
    Other,
}

/// Deserializes one JSON value as `serde_json::Value` does, recording object key order (and,
/// with a budget, counting schema nodes).
struct Recorder<'a> {
    objects: &'a mut HashMap<String, Vec<String>>,
    /// The JSON pointer of the value being read.
    path: &'a mut JsonPointer,
    /// How many arrays or objects hold the value being read.
    depth: usize,
    /// Set when a key is given twice or a value nests too deeply.
    problem: &'a mut Option<TextProblem>,
    /// Schema nodes counted, when reading schemas.
    budget: Option<&'a mut Budget>,
    ctx: Ctx,
    /// Whether the value is within a `$defs` or `definitions`.
    defs: bool,
    /// Whether the value is a schema node to count (a member of `properties`, a variant), as
    /// it starts (an array's end is not an element).
    node: bool,
}

impl Recorder<'_> {
    fn child(&mut self, ctx: Ctx, defs: bool, node: bool) -> Recorder<'_> {
        Recorder {
            objects: self.objects,
            path: self.path,
            depth: self.depth + 1,
            problem: self.problem,
            budget: self.budget.as_deref_mut(),
            ctx,
            defs,
            node,
        }
    }

    /// Refuses the array or object being entered when it is one level too many.
    fn enter<E: serde::de::Error>(&mut self) -> Result<(), E> {
        let max = MAX_DEPTH;
        if self.depth < max {
            return Ok(());
        }
        *self.problem = Some(TextProblem::TooDeep(self.path.clone()));
        Err(E::custom(format_args!(
            "too deep: #{} is nested more than {max} levels deep",
            self.path
        )))
    }

    fn skipping(&self) -> bool {
        self.budget.as_ref().is_some_and(|b| b.skipping)
    }

    /// Counts one node at the current pointer; past the limit, starts skipping.
    fn count(&mut self, defs: bool) {
        let Some(budget) = self.budget.as_deref_mut() else { return };
        if budget.root.is_none() {
            return;
        }
        let n = if defs { &mut budget.def_nodes } else { &mut budget.nodes };
        *n += 1;
        if *n > budget.limit {
            budget.skipping = true;
            budget.refused.push(self.path.clone());
        }
    }

    /// What the member `key` of this object is; makes this object the schema being counted
    /// when `key` shows it is one and none is.
    fn member(&mut self, key: &str, depth: usize, root_here: &mut bool) -> (Ctx, bool) {
        match self.ctx {
            Ctx::Other | Ctx::Variants | Ctx::Merged => (Ctx::Other, self.defs),
            Ctx::Members => (Ctx::Schema, self.defs),
            Ctx::Doc | Ctx::Schema => {
                let (ctx, defs) = match key {
                    "properties" => (Ctx::Members, self.defs),
                    "$defs" | "definitions" => (Ctx::Members, true),
                    "anyOf" | "oneOf" => (Ctx::Variants, self.defs),
                    "allOf" => (Ctx::Merged, self.defs),
                    "items" | "additionalProperties" if self.ctx == Ctx::Schema => {
                        (Ctx::Schema, self.defs)
                    }
                    "default" | "examples" | "enum" | "const" => (Ctx::Other, self.defs),
                    _ if self.ctx == Ctx::Doc => (Ctx::Doc, self.defs),
                    _ => (Ctx::Other, self.defs),
                };
                if matches!(ctx, Ctx::Members | Ctx::Variants | Ctx::Merged) {
                    if let Some(budget) = self.budget.as_deref_mut()
                        && budget.root.is_none()
                    {
                        budget.root = Some(depth);
                        *root_here = true;
                    }
                    self.ctx = Ctx::Schema;
                }
                (ctx, defs)
            }
        }
    }

    /// Ends the schema being counted, when it is this object: `true` if it was refused.
    fn end_root(&mut self) -> bool {
        let Some(budget) = self.budget.as_deref_mut() else { return false };
        let refused = budget.skipping;
        *budget = Budget {
            limit: budget.limit,
            refused: std::mem::take(&mut budget.refused),
            ..Budget::default()
        };
        refused
    }
}

impl<'de> DeserializeSeed<'de> for Recorder<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(mut self, deserializer: D) -> Result<Value, D::Error> {
        if self.node {
            self.count(self.defs);
        }
        if self.skipping() {
            deserializer.deserialize_ignored_any(IgnoredAny)?;
            return Ok(Value::Null);
        }
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Recorder<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        self.enter()?;
        let len = self.path.len();
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        let item_ctx = match self.ctx {
            Ctx::Doc => Ctx::Doc,
            Ctx::Variants | Ctx::Merged => Ctx::Schema,
            _ => Ctx::Other,
        };
        loop {
            if self.skipping() {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                break;
            }
            self.path.push_index(items.len());
            let (defs, node) = (self.defs, self.ctx == Ctx::Variants);
            let item = seq.next_element_seed(self.child(item_ctx, defs, node))?;
            self.path.truncate(len);
            match item {
                Some(v) => items.push(v),
                None => break,
            }
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut access: A) -> Result<Value, A::Error> {
        self.enter()?;
        let len = self.path.len();
        let mut map = Map::new();
        let mut keys: Vec<String> = Vec::new();
        let mut root_here = false;
        loop {
            if self.skipping() {
                while access.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                break;
            }
            let Some(key) = access.next_key::<String>()? else { break };
            self.path.push(&key);
            // A key given twice is refused with its pointer, as `json_text::parse` does.
            if map.contains_key(&key) {
                *self.problem = Some(TextProblem::DuplicateKey(self.path.clone()));
                return Err(serde::de::Error::custom(format_args!(
                    "duplicate key: #{} is given twice",
                    self.path
                )));
            }
            let (ctx, defs) = if self.budget.is_some() {
                self.member(&key, len, &mut root_here)
            } else {
                (Ctx::Doc, false)
            };
            let node = self.ctx == Ctx::Members;
            let value = access.next_value_seed(self.child(ctx, defs, node))?;
            self.path.truncate(len);
            map.insert(key.clone(), value);
            keys.push(key);
        }
        if root_here && self.end_root() {
            // Refused: what was kept of it goes, and nothing of its key order is recorded.
            let under = self.path.as_str().to_owned();
            self.objects
                .retain(|p, _| !(p.starts_with(&under) && p[under.len()..].starts_with('/')));
            return Ok(Value::Null);
        }
        if !keys.is_sorted() {
            self.objects.insert(self.path.as_str().to_owned(), keys);
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn keys_of(order: &KeyOrder, pointer: &str, value: &Value) -> Vec<String> {
        let map = value.pointer(pointer).and_then(Value::as_object).unwrap();
        order.entries(pointer, map).into_iter().map(|(k, _)| k.clone()).collect()
    }

    #[test]
    fn parse_gives_the_value_serde_json_gives_and_the_text_order() {
        let text = br#"{"z": [1, {"y~/": true, "b": null}], "a": {"k": 2.5, "m": "s"}}"#;
        let (value, order) = KeyOrder::parse(text).unwrap();
        assert_eq!(value, serde_json::from_slice::<Value>(text).unwrap());
        assert_eq!(keys_of(&order, "", &value), ["z", "a"]);
        assert_eq!(keys_of(&order, "/z/1", &value), ["y~/", "b"]);
        // Already sorted: nothing recorded, the map's order is the text order.
        assert_eq!(order.keys("/a"), None);
        assert_eq!(keys_of(&order, "/a", &value), ["k", "m"]);
        assert_eq!(order.keys("/z/1").unwrap(), ["y~/", "b"]);
        assert!(KeyOrder::parse(b"[1, 2]").unwrap().1.is_empty());
    }

    #[test]
    fn a_repeated_key_is_refused_with_its_pointer() {
        let e = KeyOrder::parse(br#"{"x": {"b": 1, "a": 2, "b": 3}}"#).unwrap_err();
        assert_eq!(e.to_string(), "duplicate key: #/x/b is given twice at line 1 column 26");
    }

    #[test]
    fn bad_text_is_serde_jsons_error_with_its_position() {
        let err = KeyOrder::parse(b"{\"a\": 1,\n \"b\": }").unwrap_err();
        assert_eq!(err.to_string(), "expected value at line 2 column 7");
        let err = KeyOrder::parse(b"{} {}").unwrap_err();
        assert_eq!(err.to_string(), "trailing characters at line 1 column 4");
        // Nesting past the limit is named by its pointer, at the bracket that crosses it.
        let deep = "[".repeat(200) + &"]".repeat(200);
        let err = KeyOrder::parse(deep.as_bytes()).unwrap_err();
        let pointer = "/0".repeat(127);
        assert_eq!(
            err.to_string(),
            format!(
                "too deep: #{pointer} is nested more than 127 levels deep at line 1 column 128"
            )
        );
        // Wherever the bracket is followed by, and on any line.
        for (text, column) in [
            ("[".repeat(128) + &"]".repeat(128), 128),
            ("[".repeat(127) + "[ \n ]" + &"]".repeat(127), 128),
            (" ".repeat(5) + &"[".repeat(127) + "{}" + &"]".repeat(127), 133),
        ] {
            let err = KeyOrder::parse(text.as_bytes()).unwrap_err();
            assert_eq!((err.line(), err.column()), (1, column), "{text}");
        }
        let text = "[\n".repeat(127) + "  [ ]" + &"]".repeat(127);
        let err = KeyOrder::parse(text.as_bytes()).unwrap_err();
        assert_eq!((err.line(), err.column()), (128, 3));
        // Exactly at the limit is read.
        let at_limit = "[".repeat(127) + &"]".repeat(127);
        assert!(KeyOrder::parse(at_limit.as_bytes()).is_ok());
    }

    #[test]
    fn subtree_and_rebased_move_pointers_between_frames() {
        let (_, order) = KeyOrder::parse(
            br#"{"input_schema": {"properties": {"b": {}, "a": {}}}, "x": {"d": 1, "c": 2}}"#,
        )
        .unwrap();
        let sub = order.subtree("/input_schema");
        assert_eq!(sub.keys("/properties").unwrap(), ["b", "a"]);
        assert_eq!(sub.keys("/d"), None);
        // `/x` is not under `/input_schema` even though `/input_schema` does not start with it.
        assert_eq!(order.subtree("/in").keys("put_schema/properties"), None);
        let back = sub.rebased("/inputSchema");
        assert_eq!(back.keys("/inputSchema/properties").unwrap(), ["b", "a"]);
    }

    #[test]
    fn entries_survive_a_changed_value() {
        let (mut value, order) = KeyOrder::parse(br#"{"c": 1, "b": 2, "a": 3}"#).unwrap();
        let map = value.as_object_mut().unwrap();
        map.remove("b");
        map.insert("aa".into(), json!(4));
        let keys: Vec<&str> = order.entries("", map).into_iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["c", "a", "aa"]);
    }

    #[test]
    fn literals_keep_text_order_at_any_depth() {
        let (value, order) =
            KeyOrder::parse(br#"{"default": [{"z": 1, "a": {"y": 2, "b": 3}}]}"#).unwrap();
        let literal = order.literal("/default", &value["default"]).unwrap();
        let expected = Literal::List(Cow::Owned(vec![Literal::Object(Cow::Owned(vec![
            (Cow::Borrowed("z"), Literal::Int(1)),
            (
                Cow::Borrowed("a"),
                Literal::Object(Cow::Owned(vec![
                    (Cow::Borrowed("y"), Literal::Int(2)),
                    (Cow::Borrowed("b"), Literal::Int(3)),
                ])),
            ),
        ]))]));
        assert_eq!(literal, expected);
        let err = order.literal("", &json!({"b": u64::MAX, "a": 1})).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("integer {} is outside the range of a 64-bit signed integer", u64::MAX)
        );
    }

    #[test]
    fn without_a_budget_nothing_is_counted() {
        let wide = 64 * 1024 + 1;
        let props = (0..wide).map(|i| format!(r#""p{i}":{{}}"#)).collect::<Vec<_>>().join(",");
        let text = format!(r#"{{"properties":{{{props}}}}}"#);
        let (value, _) = KeyOrder::parse(text.as_bytes()).unwrap();
        assert_eq!(value["properties"].as_object().map(Map::len), Some(wide));
    }
}
