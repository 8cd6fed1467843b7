//! The flattened view of one schema object that import reads: its keywords, with `allOf`
//! parts merged in.

use std::borrow::Cow;

use indexmap::IndexMap;
use serde_json::Value;

use super::keyword::{is_constraint, kept_reason};

pub(super) struct Kw<'v> {
    pub(super) value: Cow<'v, Value>,
    pub(super) ptr: String,
    pub(super) member: usize,
}

pub(super) struct View<'v> {
    pub(super) ptr: String,
    pub(super) kws: IndexMap<&'v str, Kw<'v>>,
    pub(super) props: Option<Vec<(&'v str, &'v Value, String, usize)>>,
    pub(super) required: Option<Vec<(&'v str, String)>>,
}

impl<'v> View<'v> {
    pub(super) fn get(&self, keyword: &str) -> Option<&Kw<'v>> {
        self.kws.get(keyword)
    }

    pub(super) fn has_validity(&self) -> bool {
        self.props.is_some()
            || self.required.is_some()
            || self.kws.keys().any(|k| is_constraint(k) || kept_reason(k).is_some())
    }
}
