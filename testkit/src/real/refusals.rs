//! The refusals file of the real-world run (`refusals.json`): every tool a stage refuses, with a
//! hand judgement per reason category of whether the provider itself would refuse it.
//!
//! [`Refusals`] reads the file, rewrites it from a [`Run`] keeping the judgements, and lists the
//! differences between a run and the file.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::{Value, json};

use super::Run;

/// The judged refusals file: per category a judgement, and every refusal a run must see.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Refusals {
    /// Per `(stage, category)`: `"right"` (the provider itself would refuse it) or `"wrong"`
    /// (a tooldef limitation), and why.
    pub judgements: BTreeMap<(String, String), (String, String)>,
    /// Every refusal: (tool, name, stage, category, judgement, message).
    pub entries: Vec<RefusalEntry>,
}

/// One line of `refusals.json`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefusalEntry {
    /// The tool (`file#index`).
    pub tool: String,
    /// The tool's name.
    pub name: String,
    /// `import` or the target's name.
    pub stage: String,
    /// The reason category.
    pub category: String,
    /// `right`, `wrong`, or `unjudged` for a category nobody has judged yet.
    pub judgement: String,
    /// The whole message, for the reader.
    pub message: String,
}

impl RefusalEntry {
    /// What identifies a refusal across runs: tool, stage and category.
    pub fn key(&self) -> (&str, &str, &str) {
        (&self.tool, &self.stage, &self.category)
    }
}

/// Judgement text of a category nobody has judged yet.
pub const UNJUDGED: &str = "unjudged";

impl Refusals {
    /// Reads `refusals.json` (an absent file is an empty one).
    ///
    /// # Panics
    ///
    /// A file that exists but is not the format [`Refusals::to_json`] writes.
    pub fn load(path: &Path) -> Refusals {
        let Ok(text) = std::fs::read_to_string(path) else { return Refusals::default() };
        let root: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("`{}` is not JSON: {e}", path.display()));
        let s =
            |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut out = Refusals::default();
        for g in root.get("categories").and_then(Value::as_array).into_iter().flatten() {
            out.judgements
                .insert((s(g, "stage"), s(g, "category")), (s(g, "judgement"), s(g, "why")));
        }
        for e in root.get("refusals").and_then(Value::as_array).into_iter().flatten() {
            out.entries.push(RefusalEntry {
                tool: s(e, "tool"),
                name: s(e, "name"),
                stage: s(e, "stage"),
                category: s(e, "category"),
                judgement: s(e, "judgement"),
                message: s(e, "message"),
            });
        }
        out
    }

    /// The file for the refusals of `run`, keeping every judgement `self` already holds: an
    /// entry's own, else its category's; a new category is [`UNJUDGED`].
    pub fn rewritten(&self, run: &Run) -> Refusals {
        let own: BTreeMap<_, _> = self
            .entries
            .iter()
            .map(|e| ((e.tool.clone(), e.stage.clone(), e.category.clone()), e.judgement.clone()))
            .collect();
        let mut out = Refusals::default();
        for r in &run.refusals {
            let group = (r.stage().to_owned(), r.category.clone());
            let (judgement, why) = self
                .judgements
                .get(&group)
                .cloned()
                .unwrap_or_else(|| (UNJUDGED.to_owned(), String::new()));
            let key = (r.tool.clone(), group.0.clone(), group.1.clone());
            let entry_judgement = own
                .get(&key)
                .filter(|j| j.as_str() != UNJUDGED)
                .cloned()
                .unwrap_or_else(|| judgement.clone());
            out.judgements.entry(group.clone()).or_insert((judgement, why));
            out.entries.push(RefusalEntry {
                tool: r.tool.clone(),
                name: r.name.clone(),
                stage: group.0,
                category: group.1,
                judgement: entry_judgement,
                message: r.message.clone(),
            });
        }
        out
    }

    /// The file's text: categories (sorted, each with its count) then refusals in corpus order.
    pub fn to_json(&self) -> String {
        let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for e in &self.entries {
            *counts.entry((&e.stage, &e.category)).or_default() += 1;
        }
        let categories: Vec<Value> = self
            .judgements
            .iter()
            .map(|((stage, category), (judgement, why))| {
                json!({
                    "stage": stage,
                    "category": category,
                    "count": counts.get(&(stage.as_str(), category.as_str())).copied().unwrap_or(0),
                    "judgement": judgement,
                    "why": why,
                })
            })
            .collect();
        let refusals: Vec<Value> = self
            .entries
            .iter()
            .map(|e| {
                json!({
                    "tool": e.tool,
                    "name": e.name,
                    "stage": e.stage,
                    "category": e.category,
                    "judgement": e.judgement,
                    "message": e.message,
                })
            })
            .collect();
        let mut text = serde_json::to_string_pretty(&json!({
            "categories": categories,
            "refusals": refusals,
        }))
        .expect("JSON values serialize");
        text.push('\n');
        text
    }

    /// Every difference between the refusals of `run` and this file: refusals the file lacks,
    /// entries that no longer happen, and entries without a judgement.
    pub fn differences(&self, run: &Run) -> Vec<String> {
        let seen: BTreeSet<(String, String, String)> = run
            .refusals
            .iter()
            .map(|r| (r.tool.clone(), r.stage().to_owned(), r.category.clone()))
            .collect();
        let listed: BTreeSet<(String, String, String)> = self
            .entries
            .iter()
            .map(|e| (e.tool.clone(), e.stage.clone(), e.category.clone()))
            .collect();
        let mut out = Vec::new();
        for r in &run.refusals {
            let key = (r.tool.clone(), r.stage().to_owned(), r.category.clone());
            if !listed.contains(&key) {
                out.push(format!(
                    "not in refusals.json: {} `{}` [{}]: {}",
                    r.tool,
                    r.name,
                    r.stage(),
                    r.message
                ));
            }
        }
        for e in &self.entries {
            let key = (e.tool.clone(), e.stage.clone(), e.category.clone());
            if !seen.contains(&key) {
                out.push(format!(
                    "no longer happens: {} `{}` [{}]: {}",
                    e.tool, e.name, e.stage, e.category
                ));
            }
            if e.judgement != "right" && e.judgement != "wrong" {
                out.push(format!(
                    "not judged: {} `{}` [{}]: {}",
                    e.tool, e.name, e.stage, e.category
                ));
            }
        }
        out
    }
}
