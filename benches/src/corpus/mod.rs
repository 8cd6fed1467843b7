//! The benchmark corpus: 100 tools of varied shapes, generated from a fixed seed, and the
//! sample arguments a model would send to each.
//!
//! Owns the shape of the corpus only; [`crate::emit`] turns it into Rust source. This file holds
//! the shape types and what both corpora share (the generator, the tool names); each corpus's
//! shape is a module of its own ([`standard`], [`wide`]), and the calls a model would send,
//! valid and invalid, are in [`calls`].

mod calls;
mod standard;
mod wide;

pub use calls::Invalid;
pub use wide::WIDE_SEED;

/// The seed of the checked-in corpus.
pub const SEED: u64 = 0x7001_DEF5;

/// How many tools the checked-in corpus has.
pub const TOOLS: usize = 100;

/// A small deterministic generator (splitmix64), so the corpus never depends on a crate's
/// random number algorithm.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    /// `true` with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One element of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The Rust type of a parameter or field.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// `String`.
    Str,
    /// `i64`.
    I64,
    /// `u8` (always with a range).
    U8,
    /// `u32` (always with a range).
    U32,
    /// `u64` (wide corpus).
    U64,
    /// `i32` (wide corpus).
    I32,
    /// `u16` (wide corpus).
    U16,
    /// `f64`.
    F64,
    /// `bool`.
    Bool,
    /// `Vec<T>` of strings or integers (and, in the wide corpus, of nested structs).
    Vec(Box<Ty>),
    /// A nested struct of the tool (index into [`ToolSpec::structs`]).
    Struct(usize),
    /// A unit enum of the tool (index into [`ToolSpec::enums`]).
    Enum(usize),
    /// `Option<T>`: the key may be absent or null.
    Opt(Box<Ty>),
}

impl Ty {
    /// The type under an `Option`, or itself.
    pub fn inner(&self) -> &Ty {
        match self {
            Ty::Opt(t) => t,
            t => t,
        }
    }

    /// Whether this is an `Option`.
    pub fn is_opt(&self) -> bool {
        matches!(self, Ty::Opt(_))
    }

    /// Whether this is an integer type.
    pub fn is_int(&self) -> bool {
        matches!(self, Ty::I64 | Ty::U8 | Ty::U32 | Ty::U64 | Ty::I32 | Ty::U16)
    }

    /// Whether this is an unsigned integer type.
    pub fn is_unsigned(&self) -> bool {
        matches!(self, Ty::U8 | Ty::U32 | Ty::U64 | Ty::U16)
    }
}

/// A default value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DefaultValue {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

/// One parameter of a tool.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpec {
    /// The name (a Rust identifier and the JSON key).
    pub name: String,
    /// The doc comment / description.
    pub doc: String,
    /// The type.
    pub ty: Ty,
    /// Inclusive integer bounds.
    pub range: Option<(i64, i64)>,
    /// Maximum string length in characters.
    pub max_len: Option<u64>,
    /// The value used when the key is absent.
    pub default: Option<DefaultValue>,
}

/// One field of a nested struct.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldSpec {
    /// The name.
    pub name: String,
    /// The doc comment / description.
    pub doc: String,
    /// The type: `Str`, `I64`, `F64`, `Bool` or `Opt(Str)`; in the wide corpus also the other
    /// integer types, `Opt(I64)`, another struct of the tool and `Vec` of one.
    pub ty: Ty,
}

/// A nested struct type.
#[derive(Clone, Debug, PartialEq)]
pub struct StructSpec {
    /// The Rust type name.
    pub name: String,
    /// The fields.
    pub fields: Vec<FieldSpec>,
}

/// A unit enum type; variants are serialized in `snake_case`.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumSpec {
    /// The Rust type name.
    pub name: String,
    /// The wire values (`snake_case`).
    pub values: Vec<String>,
    /// One doc comment per value (the wide corpus), or none at all (the standard one).
    pub docs: Vec<String>,
}

/// One tool.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSpec {
    /// The tool name (`snake_case`, also the Rust function name).
    pub name: String,
    /// The tool name in `CamelCase` (the `#[tool]` type, the args struct prefix).
    pub camel: String,
    /// What the tool does.
    pub description: String,
    /// The parameters, in order.
    pub params: Vec<ParamSpec>,
    /// Nested struct types used by the parameters.
    pub structs: Vec<StructSpec>,
    /// Enum types used by the parameters.
    pub enums: Vec<EnumSpec>,
}

impl ToolSpec {
    /// A tool with no parameters yet, its `CamelCase` name derived from `name`.
    fn named(name: String, description: String) -> Self {
        ToolSpec {
            camel: camel(&name),
            name,
            description,
            params: Vec::new(),
            structs: Vec::new(),
            enums: Vec::new(),
        }
    }
}

/// Asserts that `corpus` holds [`TOOLS`] tools, each name once (both corpora promise it).
#[cfg(test)]
fn assert_named_once(corpus: &Corpus) {
    assert_eq!(corpus.tools.len(), TOOLS);
    let mut names: Vec<_> = corpus.tools.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), TOOLS, "tool names are unique");
}

/// The whole corpus.
#[derive(Clone, Debug, PartialEq)]
pub struct Corpus {
    /// The tools, in order.
    pub tools: Vec<ToolSpec>,
}

const VERBS: &[(&str, &str)] = &[
    ("get", "Get the current {} for the given criteria."),
    ("list", "List {} visible to the caller, newest first."),
    ("search", "Search {} matching a free-text query and return the best matches."),
    ("create", "Create a new {} and return its identifier."),
    ("update", "Update an existing {}; fields left out stay unchanged."),
    ("delete", "Delete a {} permanently. This cannot be undone."),
    ("summarize", "Summarize recent {} in a few sentences."),
    ("export", "Export {} to a downloadable file."),
    ("count", "Count {} matching the filter."),
    ("archive", "Archive old {} so they no longer appear in lists."),
    ("schedule", "Schedule a {} for later delivery."),
    ("validate", "Check that a {} is well formed before it is saved."),
];

const NOUNS: &[&str] = &[
    "weather",
    "orders",
    "invoices",
    "users",
    "tickets",
    "repositories",
    "events",
    "flights",
    "hotels",
    "documents",
    "messages",
    "payments",
    "shipments",
    "products",
    "reviews",
    "contacts",
    "tasks",
    "alerts",
    "deployments",
    "notes",
];

/// `snake_case` to `CamelCase`.
pub fn camel(snake: &str) -> String {
    snake
        .split('_')
        .map(|part| {
            let mut c = part.chars();
            match c.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

impl Corpus {
    /// `count` tools from `seed`, each named `verb_noun` (a repeat gets `_v2`, `_v3`...) and
    /// shaped by `shape` from the same random stream.
    fn named_tools(
        seed: u64,
        count: usize,
        shape: fn(&mut Rng, String, String) -> ToolSpec,
    ) -> Self {
        let mut rng = Rng::new(seed);
        let mut names = Vec::new();
        let mut tools = Vec::with_capacity(count);
        while tools.len() < count {
            let (verb, template) = *rng.pick(VERBS);
            let noun = *rng.pick(NOUNS);
            let mut name = format!("{verb}_{noun}");
            if names.contains(&name) {
                name = format!(
                    "{name}_v{}",
                    names.iter().filter(|n| n.starts_with(&name)).count() + 1
                );
            }
            names.push(name.clone());
            tools.push(shape(&mut rng, name, template.replace("{}", noun)));
        }
        Corpus { tools }
    }
}

fn param(name: &str, doc: &str, ty: Ty) -> ParamSpec {
    ParamSpec {
        name: name.to_owned(),
        doc: doc.to_owned(),
        ty,
        range: None,
        max_len: None,
        default: None,
    }
}

impl ParamSpec {
    fn max_len(self, max_len: Option<u64>) -> Self {
        ParamSpec { max_len, ..self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_corpus() {
        assert_eq!(Corpus::generate_wide(7, 20), Corpus::generate_wide(7, 20));
        assert_eq!(Corpus::generate(7, 20), Corpus::generate(7, 20));
        assert_ne!(Corpus::generate(7, 20), Corpus::generate(8, 20));
    }
}
