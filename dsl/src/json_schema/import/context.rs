//! The private context of one import, which every stage reads and writes: the definition names
//! of the document, the notes so far, the node count, and what the settle stage needs to know.

use std::collections::HashMap;

use indexmap::{IndexMap, IndexSet};
use serde_json::{Map, Value};

use crate::json_schema::imported::{
    ImportError, ImportErrorKind, ImportNote, MAX_IMPORT_NODES, unsupported, wrong,
};
use crate::json_text::order::KeyOrder;
use crate::pointer::JsonPointer;

/// The most steps the settle stage of one import spends checking its defaults and examples
/// against their schemas and its `oneOf` variants for overlap, all together.
///
/// Each check is bounded on its own, but a schema can hold many: 15,000 defaults each
/// checked against an `anyOf` of 8,000 references, or a `oneOf` of 40,000 variants compared
/// pair by pair, took minutes. At some tens of nanoseconds a step this is a fraction of a
/// second; what is left unchecked when it runs out is reported (a default or an example is
/// not applied, a `oneOf` is taken as one whose variants may overlap).
pub(super) const SETTLE_STEPS: usize = 1 << 21;

/// The state of one import.
pub(super) struct Cx {
    pub(super) notes: Vec<ImportNote>,
    /// The names of the root's `$defs` and of its draft-07 `definitions`.
    pub(super) defs_2020: IndexSet<String>,
    pub(super) defs_07: IndexSet<String>,
    /// The definition name of the root's copy (the target of a `$ref` to `#`), and whether a
    /// `$ref` needs it.
    pub(super) root_name: String,
    pub(super) root_used: bool,
    /// What is left of the steps the settle stage may take to check defaults and examples
    /// against their schemas and `oneOf` variants for overlap ([`SETTLE_STEPS`]).
    pub(super) settle_steps: usize,
    /// Definitions that could not be read, with why: fatal only when something refers to them.
    pub(super) failed_defs: Vec<(String, ImportError)>,
    /// Problems of the root object's properties, each property read past the one before it
    /// failed (see `lower/object.rs`); any one fails the import.
    pub(super) errors: Vec<ImportError>,
    /// The key order of the document's text, for properties, definitions and object literals.
    pub(super) order: KeyOrder,
    /// Schema nodes built so far for the tool, this import's and those of the tool's other
    /// schema read before it (at most [`MAX_IMPORT_NODES`]).
    pub(super) nodes: usize,
    /// Places of the document that `$ref`s point at, lifted into definitions
    /// (`lower/reference.rs`).
    pub(super) lifted: LiftedPlaces,
}

impl Cx {
    /// The context of an import of the document `root`, whose copy (when a `$ref` points at
    /// `#`) is the definition `root_name` or, when the document has that name, the first free
    /// `root_name_N`.
    pub(super) fn new(
        root: &Map<String, Value>,
        root_name: &str,
        order: &KeyOrder,
    ) -> Result<Cx, ImportError> {
        let mut cx = Cx {
            notes: Vec::new(),
            defs_2020: IndexSet::new(),
            defs_07: IndexSet::new(),
            root_name: String::new(),
            root_used: false,
            settle_steps: SETTLE_STEPS,
            failed_defs: Vec::new(),
            errors: Vec::new(),
            order: order.clone(),
            nodes: 0,
            lifted: LiftedPlaces::default(),
        };
        for table in ["$defs", "definitions"] {
            let at = JsonPointer::root().child(table);
            match root.get(table) {
                None => {}
                Some(Value::Object(defs)) => {
                    let entries = cx.order.entries(at.as_str(), defs);
                    // Each definition is a node of its own, read or not: a table this wide is
                    // past the limit before any is read.
                    if let Some((name, _)) = entries.get(MAX_IMPORT_NODES) {
                        return Err(ImportError::at(
                            &at.child(name),
                            ImportErrorKind::TooManyNodes,
                        ));
                    }
                    let names = entries.into_iter().map(|e| e.0.clone()).collect();
                    if table == "$defs" { cx.defs_2020 = names } else { cx.defs_07 = names }
                }
                Some(other) => return Err(wrong(&at, table, "an object", other)),
            }
        }
        for name in &cx.defs_07 {
            if cx.defs_2020.contains(name) && root["$defs"][name] != root["definitions"][name] {
                return Err(unsupported(
                    &JsonPointer::from_segments(["definitions", name.as_str()]),
                    "definitions",
                    format!("`{name}` is also in `$defs` with a different schema"),
                ));
            }
        }
        let mut name = root_name.to_owned();
        let mut n = 1;
        while cx.defs_2020.contains(&name) || cx.defs_07.contains(&name) {
            n += 1;
            name = format!("{root_name}_{n}");
        }
        cx.root_name = name;
        Ok(cx)
    }

    /// Notes what became of `keyword` at `pointer`.
    pub(super) fn note(
        &mut self,
        pointer: &JsonPointer,
        keyword: &str,
        message: impl Into<String>,
    ) {
        self.notes.push(ImportNote {
            pointer: pointer.clone(),
            keyword: keyword.to_owned(),
            message: message.into(),
        });
    }

    /// Counts `n` more schema nodes built for the tool, the first of them at `ptr`; past
    /// [`MAX_IMPORT_NODES`], the error that stops the import.
    pub(super) fn count_nodes(&mut self, n: usize, ptr: &JsonPointer) -> Result<(), ImportError> {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > MAX_IMPORT_NODES {
            return Err(ImportError::at(ptr, ImportErrorKind::TooManyNodes));
        }
        Ok(())
    }
}

/// A place of the document that `$ref`s point at, lifted into a definition.
#[derive(Debug, Clone)]
pub(super) struct Lifted {
    /// The place's JSON pointer, as written in errors and notes.
    pub(super) pointer: JsonPointer,
    /// The pointer's unescaped steps.
    pub(super) steps: Vec<String>,
    /// The first `$ref` that points there (where a dangling one is reported), and its text.
    pub(super) first_ref: (JsonPointer, String),
}

/// The places lifted into definitions, by definition name in the order first referred to, and
/// the name of each place.
#[derive(Debug, Default)]
pub(super) struct LiftedPlaces {
    pub(super) by_name: IndexMap<String, Lifted>,
    pub(super) at: HashMap<String, String>,
    /// For each name derived from a pointer, the last numeric suffix given: places whose
    /// pointers read alike take the next one, without trying every number before it.
    pub(super) suffixes: HashMap<String, usize>,
}

impl LiftedPlaces {
    /// The pointer of the place lifted as the definition `name`.
    pub(super) fn pointer(&self, name: &str) -> Option<&JsonPointer> {
        self.by_name.get(name).map(|l| &l.pointer)
    }
}
