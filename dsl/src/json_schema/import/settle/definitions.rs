//! The root's definitions (`$defs` and draft-07 `definitions`): reading them, dropping those that
//! cannot be read and nothing refers to, refusing a cycle with no base case, and merging the
//! definitions of several documents.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::finite::first_without_base_case;
use crate::descriptor::Definition;
use crate::json_schema::import::context::Cx;
use crate::json_schema::import::lower::reference::lifted_definitions;
use crate::json_schema::import::lower::schema;
use crate::json_schema::imported::{ImportError, ImportErrorKind, unsupported};
use crate::json_schema::refs::{json_refs, refs_of};
use crate::pointer::JsonPointer;
use crate::schema::{Kept, Schema};

/// Adds `more` to `into`, skipping definitions already there with the same schema.
///
/// # Errors
///
/// The name of a definition present in both with different schemas.
pub fn merge_definitions(into: &mut Vec<Definition>, more: Vec<Definition>) -> Result<(), String> {
    let mut at: HashMap<String, usize> =
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

/// The definitions read so far, by name: each lookup the final passes make (a `$ref` followed,
/// a definition reached) is one hash lookup, not a scan, so an import stays linear in the number
/// of definitions.
pub(in crate::json_schema::import) struct ByName<'d> {
    list: &'d [Definition],
    at: HashMap<&'d str, usize>,
    /// The list's [`crate::rules::name_order`], built the first time a default or an example
    /// is checked.
    sorted: OnceCell<Vec<(u64, usize)>>,
}

impl<'d> ByName<'d> {
    /// Indexes `list`; of two definitions with one name the first wins, as in a scan.
    pub(in crate::json_schema::import) fn new(list: &'d [Definition]) -> Self {
        let mut at = HashMap::with_capacity(list.len());
        for (i, d) in list.iter().enumerate() {
            at.entry(&*d.name).or_insert(i);
        }
        ByName { list, at, sorted: OnceCell::new() }
    }

    /// The list's [`crate::rules::name_order`], for [`crate::rules::literal_fits`].
    pub(super) fn sorted(&self) -> &[(u64, usize)] {
        self.sorted.get_or_init(|| crate::rules::name_order(self.list))
    }

    /// The position in the list of the definition named `name`.
    pub(super) fn index(&self, name: &str) -> Option<usize> {
        self.at.get(name).copied()
    }

    /// The schema of the definition named `name`.
    pub(super) fn get(&self, name: &str) -> Option<&'d Schema> {
        self.index(name).map(|i| &self.list[i].schema)
    }

    /// Every definition, in document order.
    pub(super) fn list(&self) -> &'d [Definition] {
        self.list
    }
}

/// Reads the root's definitions (`$defs`, then `definitions`, then the places `$ref`s point at
/// outside them); one that cannot be read is kept apart (see [`drop_failed`]).
pub(in crate::json_schema::import) fn definitions(
    cx: &mut Cx,
    root: &Map<String, Value>,
) -> Result<Vec<Definition>, ImportError> {
    let mut out: Vec<Definition> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for table in ["$defs", "definitions"] {
        let Some(Value::Object(defs)) = root.get(table) else { continue };
        let at = JsonPointer::root().child(table);
        for (name, value) in cx.order.entries(at.as_str(), defs) {
            if !seen.insert(name.as_str()) {
                continue; // identical duplicate, checked in `new`
            }
            let ptr = at.child(name);
            match schema(cx, value, &ptr, 1) {
                Ok(schema) => out.push(Definition::named(name.clone(), schema)),
                // The node limit stops the import, whether or not the definition is used.
                Err(e) if e.kind == ImportErrorKind::TooManyNodes => return Err(e),
                Err(e) => cx.failed_defs.push((name.clone(), e)),
            }
        }
    }
    // Then the places `$ref`s point at outside the tables, in the order first referred to.
    lifted_definitions(cx, root, &mut out)?;
    Ok(out)
}

/// The pointer of the definition named `name`: the root for the root's copy, the place a
/// lifted one was read from, else its entry in `$defs` or `definitions`.
pub(super) fn definition_pointer(cx: &Cx, name: &str) -> JsonPointer {
    if name == cx.root_name {
        JsonPointer::root()
    } else if let Some(at) = cx.lifted.pointer(name) {
        at.clone()
    } else if cx.defs_2020.contains(name) {
        JsonPointer::from_segments(["$defs", name])
    } else {
        JsonPointer::from_segments(["definitions", name])
    }
}
/// Refuses a referenced definition that no finite value matches (a `$ref` cycle without a
/// base case), naming its pointer.
pub(in crate::json_schema::import) fn check_base_cases(
    cx: &Cx,
    definitions: &[Definition],
    roots: &[&Schema],
) -> Result<(), ImportError> {
    let Some((name, next)) = first_without_base_case(definitions, roots) else {
        return Ok(());
    };
    let pointer = definition_pointer(cx, name);
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
///
/// Linear in the size of the definitions: what the roots reach is one walk that visits each
/// definition once, and the definitions dropped for referring to a dropped one are found
/// through who-refers-to-whom, round by round (one round per link of a chain, each round
/// only looking at the referrers of the round before), not by rescanning every definition.
/// The root's own copy (the target of a `$ref` to `#`) is added after this step, so a
/// reference to it never counts as one to a dropped definition.
pub(in crate::json_schema::import) fn drop_failed(
    cx: &mut Cx,
    roots: &[&Schema],
    kept: &[Kept],
    definitions: &mut Vec<Definition>,
) -> Result<(), ImportError> {
    if cx.failed_defs.is_empty() {
        return Ok(());
    }
    let by_name = ByName::new(definitions);
    let mut reached: HashSet<String> = HashSet::new();
    let mut todo: Vec<String> = Vec::new();
    for r in roots {
        refs_of(r, &mut todo);
    }
    for k in kept {
        json_refs(&k.value, &mut todo);
    }
    while let Some(name) = todo.pop() {
        if let Some(schema) = by_name.get(&name)
            && !reached.contains(&name)
        {
            refs_of(schema, &mut todo);
        }
        reached.insert(name);
    }
    let failed = std::mem::take(&mut cx.failed_defs);
    if let Some((_, e)) = failed.iter().find(|(name, _)| reached.contains(name)) {
        return Err(e.clone());
    }
    for (name, e) in failed {
        cx.note(
            &e.pointer,
            "$defs",
            format!(
                "definition `{name}` is not referred to and could not be read ({}); it was dropped",
                e.kind
            ),
        );
    }
    let dropped = dropped_referrers(cx, &by_name, definitions);
    let mut i = 0;
    definitions.retain(|_| {
        i += 1;
        !dropped[i - 1]
    });
    Ok(())
}

/// Which definitions to drop, each with a note: those that refer to a name that is not a
/// definition (a failed one, or a `$ref` inside a kept keyword that points nowhere), and those
/// that refer to one dropped, round by round (see [`drop_failed`]).
fn dropped_referrers(cx: &mut Cx, by_name: &ByName<'_>, definitions: &[Definition]) -> Vec<bool> {
    // Who refers to whom, and the first round.
    let mut referrers: Vec<Vec<usize>> = vec![Vec::new(); definitions.len()];
    let mut round: Vec<usize> = Vec::new();
    let mut refs = Vec::new();
    for (i, d) in definitions.iter().enumerate() {
        refs.clear();
        refs_of(&d.schema, &mut refs);
        let mut gone = false;
        for r in &refs {
            match by_name.index(r) {
                Some(j) if referrers[j].last() != Some(&i) => referrers[j].push(i),
                Some(_) => {}
                // The root's own copy joins the definitions after this step.
                None => gone |= *r != cx.root_name,
            }
        }
        if gone {
            round.push(i);
        }
    }
    let mut dropped = vec![false; definitions.len()];
    for &i in &round {
        dropped[i] = true;
    }
    let mut names_gone: Vec<String> = Vec::new();
    while !round.is_empty() {
        let mut next = Vec::new();
        for &i in &round {
            names_gone.push(definitions[i].name.to_string());
            for &j in &referrers[i] {
                if !dropped[j] {
                    dropped[j] = true;
                    next.push(j);
                }
            }
        }
        // Each round is noted in document order, as a rescan would find it.
        next.sort_unstable();
        round = next;
    }
    for name in names_gone {
        cx.note(
            &JsonPointer::root(),
            "$defs",
            format!("definition `{name}` is not referred to and refers to a dropped definition; it was dropped"),
        );
    }
    dropped
}
