//! The root's definitions (`$defs` and draft-07 `definitions`): reading them, dropping those that
//! cannot be read and nothing refers to, refusing a cycle with no base case, and merging the
//! definitions of several documents.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::Importer;
use super::refs::{json_refs, refs_of};
use crate::descriptor::Definition;
use crate::json_schema::finite::first_without_base_case;
use crate::json_schema::imported::{ImportError, child, unsupported};
use crate::schema::{Kept, Schema};

/// Adds `more` to `into`, skipping definitions already there with the same schema.
///
/// # Errors
///
/// The name of a definition present in both with different schemas.
pub fn merge_definitions(into: &mut Vec<Definition>, more: Vec<Definition>) -> Result<(), String> {
    let mut at: std::collections::HashMap<String, usize> =
        into.iter().enumerate().map(|(i, d)| (d.name.to_string(), i)).collect();
    for d in more {
        match at.get(&*d.name) {
            Some(&i) if into[i].schema == d.schema => {}
            Some(_) => return Err(d.name.into_owned()),
            None => {
                at.insert(d.name.to_string(), into.len());
                into.push(d);
            }
        }
    }
    Ok(())
}

impl Importer {
    pub(super) fn definitions(
        &mut self,
        root: &Map<String, Value>,
    ) -> Result<Vec<Definition>, ImportError> {
        let mut out: Vec<Definition> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        for table in ["$defs", "definitions"] {
            let Some(Value::Object(defs)) = root.get(table) else { continue };
            let at = child("", table);
            for (name, value) in self.order.entries(&at, defs) {
                if !seen.insert(name.as_str()) {
                    continue; // identical duplicate, checked in `new`
                }
                let ptr = child(&at, name);
                match self.schema(value, &ptr, 1) {
                    Ok(schema) => out.push(Definition::named(name.clone(), schema)),
                    Err(e) => self.failed_defs.push((name.clone(), e)),
                }
            }
        }
        Ok(out)
    }
    /// Refuses a referenced definition that no finite value matches (a `$ref` cycle without a
    /// base case), naming its pointer.
    pub(super) fn check_base_cases(
        &self,
        definitions: &[Definition],
        roots: &[&Schema],
    ) -> Result<(), ImportError> {
        let Some((name, next)) = first_without_base_case(definitions, roots) else {
            return Ok(());
        };
        let pointer = if name == self.root_name {
            String::new()
        } else if self.defs_2020.contains(name) {
            child("/$defs", name)
        } else {
            child("/definitions", name)
        };
        let reason = if next == name {
            format!("`{name}` refers to itself with no base case: no finite value matches it")
        } else {
            format!(
                "`{name}` refers to `{next}` in a cycle with no base case (no concrete type, \
                 optional property, null or empty list on the way round): no finite value \
                 matches it"
            )
        };
        Err(unsupported(&pointer, "$ref", reason))
    }
    /// Definitions that could not be read block the import only when something refers to them;
    /// the others are dropped with a note, and so is every definition that refers to a dropped one.
    pub(super) fn drop_failed(
        &mut self,
        roots: &[&Schema],
        kept: &[Kept],
        definitions: &mut Vec<Definition>,
    ) -> Result<(), ImportError> {
        if self.failed_defs.is_empty() {
            return Ok(());
        }
        let mut reached: Vec<String> = Vec::new();
        for r in roots {
            refs_of(r, &mut reached);
        }
        for k in kept {
            json_refs(&k.value, &mut reached);
        }
        let mut i = 0;
        while i < reached.len() {
            if let Some(d) = definitions.iter().find(|d| d.name == reached[i].as_str()) {
                let mut more = Vec::new();
                refs_of(&d.schema, &mut more);
                for m in more {
                    if !reached.contains(&m) {
                        reached.push(m);
                    }
                }
            }
            i += 1;
        }
        let failed = std::mem::take(&mut self.failed_defs);
        for (name, e) in &failed {
            if reached.contains(name) {
                return Err(e.clone());
            }
        }
        for (name, e) in failed {
            let ptr = e.pointer.clone();
            self.note(
                &ptr,
                "$defs",
                format!("definition `{name}` is not referred to and could not be read ({}); it was dropped", e.kind),
            );
        }
        // Drop what refers to a definition that is gone, until nothing does.
        loop {
            let names: Vec<String> = definitions.iter().map(|d| d.name.to_string()).collect();
            let before = definitions.len();
            let mut gone = Vec::new();
            definitions.retain(|d| {
                let mut refs = Vec::new();
                refs_of(&d.schema, &mut refs);
                let ok = refs.iter().all(|r| names.contains(r));
                if !ok {
                    gone.push(d.name.to_string());
                }
                ok
            });
            for name in gone {
                self.note(
                    "",
                    "$defs",
                    format!("definition `{name}` is not referred to and refers to a dropped definition; it was dropped"),
                );
            }
            if definitions.len() == before {
                break;
            }
        }
        Ok(())
    }
}
