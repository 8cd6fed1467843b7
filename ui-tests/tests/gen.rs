//! Compile-only checks under `#![deny(warnings)]`: generated code is warning-free for every
//! kind of tool, parameter and derive, and what compiles also behaves.
#![deny(warnings)]

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tooldef::{RunTool, Tool, ToolError, ToolSchema, ToolSet, tool, tools};

/// An alias of `Option`: still optional, as serde sees it.
pub type Maybe<T> = Option<T>;

/// A unit.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, ToolSchema)]
pub enum Unit {
    /// C.
    C,
    /// F.
    F,
}

/// A nested object.
#[derive(Debug, Deserialize, Serialize, ToolSchema)]
#[serde(tag = "type")]
pub enum Shape {
    /// A circle.
    Circle {
        /// Radius.
        r: f64,
    },
    /// A square.
    Square {
        /// Side.
        side: f64,
    },
}

/// Every parameter key at once.
#[tool(
    name = "everything",
    description = "All keys.",
    title = "Everything",
    read_only,
    destructive = false,
    idempotent,
    open_world = true
)]
#[allow(clippy::too_many_arguments)] // the user's own attributes are kept
pub async fn all_keys(
    #[param(name = "q", description = "Query.", length = 1..=10, pattern = "^[a-z]+$", example = "abc")]
    query: String,
    #[param(min = 0, max = 5)] low: i32,
    #[param(range = 0.5..=2.5, default = 1.0)] ratio: f64,
    #[param(format = "email")] mail: Option<String>,
    #[param(one_of = ["x", "y"], default = "x")] pick: String,
    #[param(default = true)] flag: bool,
    #[param(default = "C")] unit: Unit,
    shape: Shape,
    tags: Vec<String>,
    extra: BTreeMap<String, u8>,
    maybe: Maybe<u8>,
    any: serde_json::Value,
) -> Result<usize, ToolError> {
    let _ = (low, ratio, mail, pick, flag, unit, shape, extra, maybe, any);
    Ok(query.len() + tags.len())
}

/// No parameters, no return value, not async.
#[tool]
pub fn nothing() {}

/// A returned value without schema is fine behind `Result`.
#[tool]
pub fn opaque() -> Result<Blob, String> {
    Ok(Blob { x: 1 })
}

/// Serializable only.
#[derive(Serialize)]
pub struct Blob {
    x: u8,
}

/// State.
pub struct Db {
    rows: Vec<String>,
}

#[tools]
impl Db {
    /// Count rows.
    #[tool(read_only)]
    pub fn count(&self) -> usize {
        self.rows.len()
    }

    /// Find rows.
    #[tool]
    pub async fn find(&self, #[param(length = 1..)] needle: String) -> Vec<String> {
        self.rows.iter().filter(|r| r.contains(&needle)).cloned().collect()
    }
}

/// Derived.
#[derive(Deserialize, tooldef::Tool)]
#[tool(name = "derived_tool", destructive)]
pub struct Derived {
    /// A value.
    #[param(range = 1..=9)]
    pub value: u8,
}

impl RunTool for Derived {
    type Output = u8;

    async fn run(self) -> Result<u8, ToolError> {
        Ok(self.value)
    }
}

/// A type of the user's own with the name `#[tool]` would pick for `lookup`.
pub struct Lookup {
    /// What to look up.
    pub key: String,
}

/// Looks a key up; the generated type is named with `type`, so it does not clash with `Lookup`.
#[tool(type = LookupTool)]
pub fn lookup(key: String) -> String {
    Lookup { key }.key
}

/// Services whose tool types are named too.
pub struct Catalog;

#[tools]
impl Catalog {
    /// Search the catalog.
    #[tool(type = CatalogSearch)]
    pub fn search(&self, query: String) -> String {
        query
    }
}

#[test]
fn type_names_the_generated_type() {
    assert_eq!(LookupTool::descriptor().name, "lookup");
    assert_eq!(<LookupTool as Tool>::NAME, "lookup");
    let toolbox = tooldef::Toolbox::new().with(LookupTool);
    let call = tooldef::ToolCall::new("c1", "lookup", serde_json::json!({"key": "k"}));
    assert_eq!(toolbox.call_blocking(&call).text(), "k");
    let search = CatalogSearch(std::sync::Arc::new(Catalog));
    assert_eq!(<CatalogSearch as Tool>::descriptor().name, "search");
    let _ = search;
}

#[test]
fn generated_code_is_warning_free_and_consistent() {
    let d = AllKeys::descriptor();
    assert_eq!(d.name, "everything");
    assert!(d.validate().is_ok(), "{:?}", d.validate());
    assert!(!d.param("maybe").unwrap().required, "an alias of Option is optional");
    let args: <AllKeys as Tool>::Args = serde_json::from_value(serde_json::json!({
        "q": "abc", "low": 1, "shape": {"type": "Circle", "r": 1.0}, "tags": [], "extra": {}, "any": null
    }))
    .unwrap();
    assert!(AllKeys::check(&args).is_ok());
    assert!(Nothing::descriptor().output.is_some(), "() has the null schema");
    assert!(Opaque::descriptor().output.is_none(), "no schema, no output schema");
    assert_eq!(Db::descriptors().len(), 2);
    assert_eq!(Derived::descriptor().annotations.destructive, Some(true));
    let _ = Db { rows: vec![] }.rows.len();
    let _ = Blob { x: 0 }.x;
}
