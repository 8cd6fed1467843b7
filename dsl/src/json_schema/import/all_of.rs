//! `allOf` merged into one flattened `View` of a schema object: properties and `required`
//! joined, and each constraint given twice kept when equal, tightened when one bound is
//! stricter, and refused when no single value of the IR could say both.

use std::borrow::Cow;
use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::{Map, Value};

use super::Importer;
use super::typed::type_set;
use crate::json_schema::imported::{
    ImportError, ImportErrorKind, MAX_IMPORT_NODES, child, unsupported, wrong,
};
use crate::json_schema::keyword::{SchemaKeyword, Tightens, is_constraint, kept_reason};
use crate::json_schema::view::{Kw, View};

/// How many schema objects one `allOf` tree may merge (guards against pathological input).
const MAX_ALL_OF_PARTS: usize = 1024;

impl Importer {
    /// Builds the flattened view of a schema object, merging `allOf` members into it.
    pub(super) fn view<'v>(
        &mut self,
        map: &'v Map<String, Value>,
        ptr: &str,
    ) -> Result<View<'v>, ImportError> {
        let mut view =
            View { ptr: ptr.to_owned(), kws: IndexMap::new(), props: None, required: None };
        let mut parts: Vec<(&'v Map<String, Value>, String)> = vec![(map, ptr.to_owned())];
        // Where each property and required name already is, so merging stays linear.
        let mut prop_at: std::collections::HashMap<&'v str, usize> = Default::default();
        let mut required_seen: HashSet<&'v str> = HashSet::new();
        let mut i = 0;
        while i < parts.len() {
            let (part, part_ptr) = parts[i].clone();
            for (key, value) in part {
                let kptr = child(&part_ptr, key);
                match key.as_str() {
                    "allOf" => {
                        let Value::Array(members) = value else {
                            return Err(wrong(&kptr, key, "an array of schemas", value));
                        };
                        if parts.len() > MAX_ALL_OF_PARTS {
                            return Err(ImportError::at(&kptr, ImportErrorKind::TooDeep));
                        }
                        for (j, member) in members.iter().enumerate() {
                            let mptr = format!("{kptr}/{j}");
                            match member {
                                Value::Object(m) => parts.push((m, mptr)),
                                Value::Bool(true) => {}
                                other => return Err(wrong(&mptr, "schema", "an object", other)),
                            }
                        }
                    }
                    "$defs" | "definitions" => {
                        if !(i == 0 && ptr.is_empty()) {
                            self.note(
                                &kptr,
                                key,
                                "nested definitions were dropped (only root definitions are read)",
                            );
                        }
                    }
                    "properties" => {
                        let Value::Object(props) = value else {
                            return Err(wrong(&kptr, key, "an object", value));
                        };
                        let list = view.props.get_or_insert_with(Vec::new);
                        for (name, schema) in self.order.entries(&kptr, props) {
                            let pptr = child(&kptr, name);
                            if let Some(&at) = prop_at.get(name.as_str()) {
                                if list[at].1 != schema {
                                    return Err(unsupported(
                                        &pptr,
                                        "allOf",
                                        format!(
                                            "property `{name}` is defined twice with different schemas"
                                        ),
                                    ));
                                }
                                continue;
                            }
                            // Each property is a node of its own: a list this wide is past
                            // the limit before any is read (the import counts from here).
                            if self.nodes + list.len() + 1 > MAX_IMPORT_NODES {
                                return Err(ImportError::at(&pptr, ImportErrorKind::TooManyNodes));
                            }
                            prop_at.insert(name.as_str(), list.len());
                            list.push((name.as_str(), schema, pptr, i));
                        }
                    }
                    "required" => {
                        let Value::Array(names) = value else {
                            return Err(wrong(&kptr, key, "an array of strings", value));
                        };
                        let list = view.required.get_or_insert_with(Vec::new);
                        for (j, n) in names.iter().enumerate() {
                            let Value::String(n) = n else {
                                return Err(wrong(
                                    &format!("{kptr}/{j}"),
                                    key,
                                    "an array of strings",
                                    n,
                                ));
                            };
                            if required_seen.insert(n.as_str()) {
                                list.push((n.as_str(), format!("{kptr}/{j}")));
                            }
                        }
                    }
                    _ => self.merge_keyword(&mut view, key, value, kptr, i)?,
                }
            }
            i += 1;
        }
        // `additionalProperties` of one allOf member constrains keys outside that member's own
        // properties: merging is exact only when that member lists every property.
        if parts.len() > 1 {
            for (key, kw) in &view.kws {
                if *key != "additionalProperties" || kw.value.as_ref() == &Value::Bool(true) {
                    continue;
                }
                if let Some(props) = &view.props
                    && props.iter().any(|p| p.3 != kw.member)
                {
                    return Err(unsupported(
                        &kw.ptr,
                        "allOf",
                        "`additionalProperties` in one member and properties in another cannot be merged exactly",
                    ));
                }
            }
        }
        Ok(view)
    }

    fn merge_keyword<'v>(
        &mut self,
        view: &mut View<'v>,
        key: &'v str,
        value: &'v Value,
        kptr: String,
        member: usize,
    ) -> Result<(), ImportError> {
        let Some(prev) = view.kws.get_mut(key) else {
            view.kws.insert(key, Kw { value: Cow::Borrowed(value), ptr: kptr, member });
            return Ok(());
        };
        if prev.value.as_ref() == value {
            return Ok(());
        }
        if !is_constraint(key) && kept_reason(key).is_none() {
            self.note(
                &kptr,
                key,
                "differs from an earlier value in the same allOf; the first was kept",
            );
            return Ok(());
        }
        let num = |v: &Value, p: &str| v.as_f64().ok_or_else(|| wrong(p, key, "a number", v));
        let tightens = SchemaKeyword::from_wire(key).map(SchemaKeyword::tightens);
        let tighter = match tightens {
            Some(Tightens::Greater) => {
                if value.is_boolean() || prev.value.is_boolean() {
                    return Err(unsupported(
                        &kptr,
                        "allOf",
                        format!("two different `{key}` values"),
                    ));
                }
                num(value, &kptr)? > num(&prev.value, &prev.ptr)?
            }
            Some(Tightens::Smaller) => {
                if value.is_boolean() || prev.value.is_boolean() {
                    return Err(unsupported(
                        &kptr,
                        "allOf",
                        format!("two different `{key}` values"),
                    ));
                }
                num(value, &kptr)? < num(&prev.value, &prev.ptr)?
            }
            Some(Tightens::True) => value == &Value::Bool(true),
            Some(Tightens::Common) => {
                let a = type_set(&prev.value, &prev.ptr)?;
                let b = type_set(value, &kptr)?;
                let has = |set: &[String], t: &str| set.iter().any(|u| u == t);
                let mut both: Vec<Value> = Vec::new();
                for t in &a {
                    let kept = if has(&b, t) {
                        Some(t.as_str())
                    } else if (t == "integer" && has(&b, "number"))
                        || (t == "number" && has(&b, "integer"))
                    {
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
                        &kptr,
                        "allOf",
                        "the members' types have nothing in common, so no value is valid",
                    ));
                }
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
}
