//! The benchmark corpus: 100 tools of varied shapes, generated from a fixed seed, and the
//! sample arguments a model would send to each.
//!
//! Owns the shape of the corpus only; [`crate::emit`] turns it into Rust source.

use serde_json::{Map, Value, json};

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

const STRINGS: &[(&str, &str)] = &[
    ("query", "Free-text search query."),
    ("city", "City name, e.g. \"Paris\"."),
    ("email", "Email address of the account owner."),
    ("title", "Short title shown in lists."),
    ("body", "Full text body in Markdown."),
    ("notes", "Internal notes, never shown to customers."),
    ("region", "Cloud region, e.g. \"eu-west-1\"."),
    ("language", "BCP 47 language tag of the answer."),
    ("path", "Path of the file relative to the project root."),
    ("author", "Login of the author."),
    ("customer_id", "Identifier of the customer."),
    ("timezone", "IANA time zone name, e.g. \"Europe/Paris\"."),
];

const INTS: &[(&str, &str)] = &[
    ("limit", "Maximum number of results to return."),
    ("offset", "Number of results to skip."),
    ("days", "Number of days to cover."),
    ("page", "Page number, starting at 1."),
    ("year", "Calendar year."),
    ("quantity", "How many units."),
    ("retries", "How many times to retry on failure."),
    ("timeout_secs", "Timeout in seconds."),
    ("priority_level", "Priority from low to high."),
    ("max_depth", "How deep to follow links."),
];

const FLOATS: &[(&str, &str)] = &[
    ("amount", "Amount in the account currency."),
    ("radius_km", "Search radius in kilometres."),
    ("threshold", "Minimum similarity score."),
    ("latitude", "Latitude in decimal degrees."),
    ("longitude", "Longitude in decimal degrees."),
    ("budget", "Budget ceiling in euros."),
];

const BOOLS: &[(&str, &str)] = &[
    ("verbose", "Include every detail in the answer."),
    ("include_archived", "Also return archived items."),
    ("dry_run", "Report what would change without changing anything."),
    ("recursive", "Descend into sub-folders."),
    ("notify", "Send a notification to the owner."),
    ("case_sensitive", "Match letter case exactly."),
];

const LISTS: &[(&str, &str)] = &[
    ("tags", "Tags to attach."),
    ("labels", "Labels that must all be present."),
    ("ids", "Identifiers of the items."),
    ("recipients", "Who receives the message."),
    ("fields", "Fields to include in each result."),
    ("keywords", "Keywords that boost matching results."),
];

const STRUCTS: &[(&str, &str)] = &[
    ("filter", "Restricts which items are considered."),
    ("options", "Advanced options."),
    ("address", "Postal address."),
    ("window", "Time window to consider."),
    ("location", "Where to look."),
    ("pagination", "How to page through results."),
];

const FIELDS: &[(&str, &str, u8)] = &[
    ("name", "Display name.", b's'),
    ("street", "Street and number.", b's'),
    ("country", "ISO 3166-1 alpha-2 country code.", b's'),
    ("since", "Start date, ISO 8601.", b's'),
    ("until", "End date, ISO 8601.", b'o'),
    ("owner", "Owner login.", b'o'),
    ("min_score", "Lowest score to keep.", b'f'),
    ("max_items", "Largest number of items.", b'i'),
    ("strict", "Reject partial matches.", b'b'),
    ("cursor", "Opaque cursor from the previous page.", b'o'),
];

const ENUMS: &[(&str, &str, &[&str])] = &[
    ("unit", "Unit of the returned values.", &["celsius", "fahrenheit", "kelvin"]),
    ("sort", "Sort order of the results.", &["newest", "oldest", "relevance"]),
    ("status", "Only items in this state.", &["open", "pending", "closed", "merged"]),
    ("priority", "How urgent the item is.", &["low", "normal", "high"]),
    ("format", "Output format.", &["json", "csv", "markdown"]),
    ("mode", "How to match.", &["fast", "thorough"]),
];

const WORDS: &[&str] = &[
    "alpha",
    "Paris",
    "quarterly report",
    "urgent",
    "blue",
    "Lyon",
    "db-migration",
    "42 Rue Cler",
    "retro",
    "Berlin",
    "release notes",
    "eu-west-1",
    "fr",
    "ada",
    "Europe/Paris",
    "spring sale",
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
    /// The checked-in corpus: [`TOOLS`] tools from [`SEED`].
    pub fn standard() -> Self {
        Corpus::generate(SEED, TOOLS)
    }

    /// `count` tools from `seed` (same seed, same corpus).
    pub fn generate(seed: u64, count: usize) -> Self {
        Corpus::named_tools(seed, count, gen_tool)
    }

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

fn gen_tool(rng: &mut Rng, name: String, description: String) -> ToolSpec {
    let camel_name = camel(&name);
    let n = rng.between(3, 8) as usize;
    let mut tool = ToolSpec {
        name,
        camel: camel_name,
        description,
        params: Vec::new(),
        structs: Vec::new(),
        enums: Vec::new(),
    };
    let mut attempts = 0;
    while tool.params.len() < n && attempts < 100 {
        attempts += 1;
        // Scalars dominate, as in real tools; structured kinds appear in most tools.
        let kind = rng.below(20);
        let param = match kind {
            0..=5 => {
                let (name, doc) = *rng.pick(STRINGS);
                let max_len = rng.chance(30).then(|| *rng.pick(&[64_u64, 128, 256, 500]));
                param(name, doc, Ty::Str).max_len(max_len)
            }
            6..=9 => {
                let (name, doc) = *rng.pick(INTS);
                let (ty, range) = match rng.below(3) {
                    0 => (Ty::U8, Some((rng.between(0, 1), rng.between(5, 100)))),
                    1 => (Ty::U32, Some((0, rng.between(100, 10_000)))),
                    _ => (
                        Ty::I64,
                        rng.chance(40).then(|| (rng.between(-100, 0), rng.between(1, 1000))),
                    ),
                };
                let default = match range {
                    Some((lo, hi)) if rng.chance(35) => {
                        Some(DefaultValue::Int(rng.between(lo, hi)))
                    }
                    _ => None,
                };
                ParamSpec { range, default, ..param(name, doc, ty) }
            }
            10..=11 => {
                let (name, doc) = *rng.pick(FLOATS);
                param(name, doc, Ty::F64)
            }
            12..=14 => {
                let (name, doc) = *rng.pick(BOOLS);
                let default = rng.chance(30).then(|| DefaultValue::Bool(rng.chance(50)));
                ParamSpec { default, ..param(name, doc, Ty::Bool) }
            }
            15..=16 => {
                let (name, doc) = *rng.pick(LISTS);
                let item = if rng.chance(70) { Ty::Str } else { Ty::I64 };
                param(name, doc, Ty::Vec(Box::new(item)))
            }
            17 => {
                let (name, doc) = *rng.pick(STRUCTS);
                let index = tool.structs.len();
                tool.structs.push(gen_struct(rng, format!("{}{}", tool.camel, camel(name))));
                param(name, doc, Ty::Struct(index))
            }
            _ => {
                let (name, doc, values) = *rng.pick(ENUMS);
                let index = tool.enums.len();
                tool.enums.push(EnumSpec {
                    name: format!("{}{}", tool.camel, camel(name)),
                    values: values.iter().map(|v| (*v).to_owned()).collect(),
                    docs: Vec::new(),
                });
                param(name, doc, Ty::Enum(index))
            }
        };
        if tool.params.iter().any(|p| p.name == param.name) {
            // Roll back a type added for a duplicate name.
            match param.ty {
                Ty::Struct(_) => drop(tool.structs.pop()),
                Ty::Enum(_) => drop(tool.enums.pop()),
                _ => {}
            }
            continue;
        }
        let param = if param.default.is_none() && rng.chance(25) {
            ParamSpec { ty: Ty::Opt(Box::new(param.ty.clone())), ..param }
        } else {
            param
        };
        tool.params.push(param);
    }
    tool
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

fn gen_struct(rng: &mut Rng, name: String) -> StructSpec {
    let n = rng.between(2, 3) as usize;
    let mut fields: Vec<FieldSpec> = Vec::new();
    while fields.len() < n {
        let (fname, doc, kind) = *rng.pick(FIELDS);
        if fields.iter().any(|f| f.name == fname) {
            continue;
        }
        let ty = match kind {
            b's' => Ty::Str,
            b'o' => Ty::Opt(Box::new(Ty::Str)),
            b'f' => Ty::F64,
            b'i' => Ty::I64,
            _ => Ty::Bool,
        };
        fields.push(FieldSpec { name: fname.to_owned(), doc: doc.to_owned(), ty });
    }
    StructSpec { name, fields }
}

impl ToolSpec {
    /// Typical arguments a model sends: every required key, about half of the optional ones,
    /// every value valid. Compact JSON text, deterministic for a given `seed`.
    pub fn sample_args(&self, seed: u64) -> String {
        let mut rng = Rng::new(seed ^ self.name.len() as u64 ^ u64::from(self.name.as_bytes()[0]));
        let mut obj = Map::new();
        for p in &self.params {
            let optional = p.ty.is_opt() || p.default.is_some();
            if optional && rng.chance(50) {
                continue;
            }
            let value = if p.ty.is_opt() && rng.chance(20) {
                Value::Null
            } else {
                self.sample_value(&mut rng, p.ty.inner(), p.range, p.max_len)
            };
            obj.insert(p.name.clone(), value);
        }
        Value::Object(obj).to_string()
    }

    fn sample_value(
        &self,
        rng: &mut Rng,
        ty: &Ty,
        range: Option<(i64, i64)>,
        max_len: Option<u64>,
    ) -> Value {
        match ty {
            Ty::Str => {
                let mut s = (*rng.pick(WORDS)).to_owned();
                if let Some(max) = max_len {
                    s.truncate(max as usize);
                }
                Value::String(s)
            }
            Ty::I64 | Ty::U8 | Ty::U32 | Ty::I32 => {
                let (lo, hi) = range.unwrap_or((-50, 5000));
                json!(rng.between(lo, hi))
            }
            Ty::U64 | Ty::U16 => {
                let (lo, hi) = range.unwrap_or((0, 5000));
                json!(rng.between(lo, hi))
            }
            Ty::F64 => json!(rng.between(-9000, 9000) as f64 / 100.0),
            Ty::Bool => json!(rng.chance(50)),
            Ty::Vec(item) => {
                let n = rng.between(0, 4);
                Value::Array((0..n).map(|_| self.sample_value(rng, item, None, None)).collect())
            }
            Ty::Struct(i) => {
                let mut obj = Map::new();
                for f in &self.structs[*i].fields {
                    if f.ty.is_opt() && rng.chance(50) {
                        continue;
                    }
                    obj.insert(f.name.clone(), self.sample_value(rng, f.ty.inner(), None, None));
                }
                Value::Object(obj)
            }
            Ty::Enum(i) => Value::String(rng.pick(&self.enums[*i].values).clone()),
            Ty::Opt(inner) => self.sample_value(rng, inner, range, max_len),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The wide corpus: 64-bit integers, structs inside structs, documented enum variants
// ---------------------------------------------------------------------------------------------

/// The seed of the checked-in wide corpus ([`Corpus::wide`]).
pub const WIDE_SEED: u64 = 0x0D15_EA5E;

const WIDE_INTS: &[(&str, &str)] = &[
    ("account_id", "Numeric identifier of the account."),
    ("since_ms", "Start of the range, milliseconds since the Unix epoch."),
    ("until_ms", "End of the range, milliseconds since the Unix epoch."),
    ("offset_bytes", "Byte offset into the object."),
    ("size_bytes", "Size of the object in bytes."),
    ("balance_cents", "Balance in cents; negative when overdrawn."),
    ("sequence", "Sequence number of the first event to return."),
    ("limit", "Maximum number of results to return."),
    ("ttl_secs", "Time to live in seconds."),
    ("shard", "Shard the request is routed to."),
    ("port", "TCP port of the service."),
    ("delta", "Signed change to apply to the counter."),
];

const WIDE_STRINGS: &[(&str, &str)] = &[
    ("query", "Free-text search query."),
    ("bucket", "Name of the storage bucket."),
    ("cluster", "Name of the cluster."),
    ("metric", "Name of the metric, e.g. \"cpu.load\"."),
    ("note", "Free-text note kept with the change."),
];

const WIDE_BOOLS: &[(&str, &str)] = &[
    ("dry_run", "Report what would change without changing anything."),
    ("force", "Proceed even when checks fail."),
    ("include_deleted", "Also return deleted items."),
];

const WIDE_STRUCTS: &[(&str, &str)] = &[
    ("range", "Range of values to consider."),
    ("target", "Where the change applies."),
    ("quota", "Limits to enforce."),
    ("source", "Where the data comes from."),
    ("retention", "How long data is kept."),
];

const WIDE_LISTS: &[(&str, &str)] = &[
    ("rules", "Rules applied in order; the first match wins."),
    ("steps", "Steps of the plan, in order."),
    ("targets", "Every place the change applies."),
];

const WIDE_FIELDS: &[(&str, &str, u8)] = &[
    ("id", "Numeric identifier.", b'I'),
    ("start", "First value, inclusive.", b'I'),
    ("end", "Last value, inclusive.", b'I'),
    ("bytes", "Size in bytes.", b'U'),
    ("count", "Number of items.", b'j'),
    ("weight", "Relative weight.", b'j'),
    ("name", "Display name.", b's'),
    ("region", "Cloud region, e.g. \"eu-west-1\".", b's'),
    ("owner", "Owner login.", b'o'),
    ("parent_id", "Identifier of the parent, when there is one.", b'O'),
    ("enabled", "Whether it is in effect.", b'b'),
];

const WIDE_NESTED: &[(&str, &str)] =
    &[("limits", "Bounds applied within it."), ("origin", "Where it was first seen.")];

const WIDE_NESTED_LISTS: &[(&str, &str)] =
    &[("entries", "Entries, in order."), ("children", "Items nested under it.")];

type Variants = &'static [(&'static str, &'static str)];

const WIDE_ENUMS: &[(&str, &str, Variants)] = &[
    (
        "units",
        "Unit system of the returned values.",
        &[("metric", "Metric units."), ("imperial", "Imperial units.")],
    ),
    (
        "consistency",
        "Read consistency.",
        &[
            ("eventual", "Any replica may answer; fastest."),
            ("session", "Reads see the caller's own writes."),
            ("strong", "Reads see every committed write."),
        ],
    ),
    (
        "granularity",
        "Width of each bucket of the series.",
        &[
            ("minute", "One point per minute."),
            ("hour", "One point per hour."),
            ("day", "One point per day."),
            ("week", "One point per week, starting Monday."),
        ],
    ),
    (
        "compression",
        "How the payload is compressed.",
        &[("none", "Stored as sent."), ("gzip", "Gzip, level 6."), ("zstd", "Zstandard, level 3.")],
    ),
    (
        "severity",
        "Lowest severity to report.",
        &[
            ("debug", "Everything, including diagnostics."),
            ("info", "Routine events and above."),
            ("warning", "Problems that did not stop the work."),
            ("error", "Failures only."),
        ],
    ),
];

impl Corpus {
    /// The checked-in wide corpus: [`TOOLS`] tools from [`WIDE_SEED`], of a different shape
    /// from [`Corpus::standard`] (see [`Corpus::generate_wide`]).
    pub fn wide() -> Self {
        Corpus::generate_wide(WIDE_SEED, TOOLS)
    }

    /// `count` tools from `seed` in the wide shape: integers are mostly `i64` (some `u64`,
    /// `i32`, `u16`), often bounded and with defaults; nested structs of integers, some holding
    /// another struct or a `Vec` of one; `Vec`s of structs; unit enums whose variants carry doc
    /// comments; `Option`s.
    pub fn generate_wide(seed: u64, count: usize) -> Self {
        Corpus::named_tools(seed, count, gen_wide_tool)
    }
}

/// An integer type and bounds in the wide shape (mostly `i64`).
fn wide_int(rng: &mut Rng) -> (Ty, Option<(i64, i64)>) {
    match rng.below(20) {
        0..=11 => {
            let range = rng
                .chance(60)
                .then(|| (rng.between(-1_000_000, 0), rng.between(1_000, 9_000_000_000_000)));
            (Ty::I64, range)
        }
        12..=14 => (Ty::U64, rng.chance(60).then(|| (0, rng.between(1_000, 1_000_000_000_000)))),
        15..=17 => {
            (Ty::I32, rng.chance(50).then(|| (rng.between(-100_000, 0), rng.between(1, 100_000))))
        }
        _ => (Ty::U16, Some((rng.between(0, 1), rng.between(100, 65_535)))),
    }
}

fn gen_wide_tool(rng: &mut Rng, name: String, description: String) -> ToolSpec {
    let camel_name = camel(&name);
    let n = rng.between(4, 8) as usize;
    let mut tool = ToolSpec {
        name,
        camel: camel_name,
        description,
        params: Vec::new(),
        structs: Vec::new(),
        enums: Vec::new(),
    };
    let mut attempts = 0;
    while tool.params.len() < n && attempts < 100 {
        attempts += 1;
        let kind = rng.below(20);
        let (pname, doc) = match kind {
            0..=7 => *rng.pick(WIDE_INTS),
            8..=9 => *rng.pick(WIDE_STRINGS),
            10 => *rng.pick(WIDE_BOOLS),
            11..=13 => *rng.pick(WIDE_STRUCTS),
            14..=15 => *rng.pick(WIDE_LISTS),
            16..=18 => {
                let (n, d, _) = *rng.pick(WIDE_ENUMS);
                (n, d)
            }
            _ => ("weights", "Weights of the items, in order."),
        };
        // Names are checked before any type is generated, so nothing needs rolling back.
        if tool.params.iter().any(|p| p.name == pname) {
            continue;
        }
        let param = match kind {
            0..=7 => {
                let (ty, range) = wide_int(rng);
                let default = match range {
                    Some((lo, hi)) if rng.chance(35) => {
                        Some(DefaultValue::Int(rng.between(lo.max(0), hi.min(1_000_000))))
                    }
                    _ => None,
                };
                ParamSpec { range, default, ..param(pname, doc, ty) }
            }
            8..=9 => {
                let max_len = rng.chance(40).then(|| *rng.pick(&[64_u64, 256, 1024]));
                param(pname, doc, Ty::Str).max_len(max_len)
            }
            10 => {
                let default = rng.chance(50).then(|| DefaultValue::Bool(rng.chance(50)));
                ParamSpec { default, ..param(pname, doc, Ty::Bool) }
            }
            11..=13 => {
                let index = gen_wide_struct(rng, &mut tool, camel(pname), true);
                param(pname, doc, Ty::Struct(index))
            }
            14..=15 => {
                let index = gen_wide_struct(rng, &mut tool, camel(pname), true);
                param(pname, doc, Ty::Vec(Box::new(Ty::Struct(index))))
            }
            16..=18 => {
                let &(_, _, variants) =
                    WIDE_ENUMS.iter().find(|e| e.0 == pname).unwrap_or(&WIDE_ENUMS[0]);
                tool.enums.push(EnumSpec {
                    name: format!("{}{}", tool.camel, camel(pname)),
                    values: variants.iter().map(|v| v.0.to_owned()).collect(),
                    docs: variants.iter().map(|v| v.1.to_owned()).collect(),
                });
                param(pname, doc, Ty::Enum(tool.enums.len() - 1))
            }
            _ => param(pname, doc, Ty::Vec(Box::new(Ty::I64))),
        };
        let param = if param.default.is_none() && rng.chance(25) {
            ParamSpec { ty: Ty::Opt(Box::new(param.ty.clone())), ..param }
        } else {
            param
        };
        tool.params.push(param);
    }
    tool
}

/// Adds a struct named `<Tool><suffix>` (and, when `outer`, maybe a struct or a `Vec` of one
/// inside it) to `tool`; returns its index.
fn gen_wide_struct(rng: &mut Rng, tool: &mut ToolSpec, suffix: String, outer: bool) -> usize {
    let name = format!("{}{suffix}", tool.camel);
    let n = rng.between(2, 4) as usize;
    let mut fields: Vec<FieldSpec> = Vec::new();
    while fields.len() < n {
        let (fname, doc, kind) = *rng.pick(WIDE_FIELDS);
        if fields.iter().any(|f| f.name == fname) {
            continue;
        }
        let ty = match kind {
            b'I' => Ty::I64,
            b'U' => Ty::U64,
            b'j' => Ty::I32,
            b's' => Ty::Str,
            b'o' => Ty::Opt(Box::new(Ty::Str)),
            b'O' => Ty::Opt(Box::new(Ty::I64)),
            _ => Ty::Bool,
        };
        fields.push(FieldSpec { name: fname.to_owned(), doc: doc.to_owned(), ty });
    }
    if outer {
        if rng.chance(35) {
            let (fname, doc) = *rng.pick(WIDE_NESTED);
            let inner = gen_wide_struct(rng, tool, format!("{suffix}{}", camel(fname)), false);
            fields.push(FieldSpec {
                name: fname.to_owned(),
                doc: doc.to_owned(),
                ty: Ty::Struct(inner),
            });
        } else if rng.chance(25) {
            let (fname, doc) = *rng.pick(WIDE_NESTED_LISTS);
            let inner = gen_wide_struct(rng, tool, format!("{suffix}{}", camel(fname)), false);
            fields.push(FieldSpec {
                name: fname.to_owned(),
                doc: doc.to_owned(),
                ty: Ty::Vec(Box::new(Ty::Struct(inner))),
            });
        }
    }
    tool.structs.push(StructSpec { name, fields });
    tool.structs.len() - 1
}

/// What an invalid call of [`ToolSpec::invalid_args`] gets wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// A bounded integer one past its maximum.
    OutOfRange,
    /// An enum parameter holding a value that is none of its variants.
    UnknownVariant,
}

impl ToolSpec {
    /// Calls that must be refused, each the valid [`ToolSpec::sample_args`] with one value
    /// made wrong: the first bounded integer parameter one past its maximum (when the tool has
    /// one), and the first enum parameter set to a value that is none of its variants (when it
    /// has one).
    pub fn invalid_args(&self, seed: u64) -> Vec<(Invalid, String)> {
        let valid: Value = serde_json::from_str(&self.sample_args(seed)).unwrap_or(Value::Null);
        let Value::Object(base) = valid else { return Vec::new() };
        let mut out = Vec::new();
        let with = |key: &str, value: Value| {
            let mut obj = base.clone();
            obj.insert(key.to_owned(), value);
            Value::Object(obj).to_string()
        };
        if let Some(p) = self.params.iter().find(|p| p.range.is_some()) {
            let (_, hi) = p.range.unwrap_or_default();
            out.push((Invalid::OutOfRange, with(&p.name, json!(hi + 1))));
        }
        if let Some(p) = self.params.iter().find(|p| matches!(p.ty.inner(), Ty::Enum(_))) {
            out.push((Invalid::UnknownVariant, with(&p.name, json!("not_a_variant"))));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_has_the_promised_shape() {
        let corpus = Corpus::standard();
        assert_eq!(corpus.tools.len(), TOOLS);
        let mut names: Vec<_> = corpus.tools.iter().map(|t| t.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TOOLS, "tool names are unique");
        for t in &corpus.tools {
            assert!((3..=8).contains(&t.params.len()), "{} has {} params", t.name, t.params.len());
        }
        let all =
            |f: fn(&Ty) -> bool| corpus.tools.iter().flat_map(|t| &t.params).any(|p| f(&p.ty));
        assert!(all(|t| matches!(t.inner(), Ty::Struct(_))));
        assert!(all(|t| matches!(t.inner(), Ty::Enum(_))));
        assert!(all(|t| matches!(t.inner(), Ty::Vec(_))));
        assert!(all(|t| matches!(t.inner(), Ty::F64)));
        assert!(all(|t| matches!(t.inner(), Ty::Bool)));
        assert!(all(Ty::is_opt));
    }

    #[test]
    fn the_wide_corpus_has_the_promised_shape() {
        let corpus = Corpus::wide();
        assert_eq!(corpus.tools.len(), TOOLS);
        let mut names: Vec<_> = corpus.tools.iter().map(|t| t.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TOOLS, "tool names are unique");
        let params = || corpus.tools.iter().flat_map(|t| &t.params);
        let fields = || corpus.tools.iter().flat_map(|t| &t.structs).flat_map(|s| &s.fields);
        let count = |ty: Ty| params().filter(|p| *p.ty.inner() == ty).count();
        let ints = params().filter(|p| p.ty.inner().is_int()).count();
        assert!(count(Ty::I64) * 2 > ints, "most integers are i64");
        for ty in [Ty::U64, Ty::I32, Ty::U16] {
            assert!(count(ty.clone()) > 0, "{ty:?} appears");
        }
        assert!(fields().any(|f| matches!(f.ty, Ty::Struct(_))), "a struct inside a struct");
        assert!(
            fields().any(|f| matches!(&f.ty, Ty::Vec(t) if matches!(**t, Ty::Struct(_)))),
            "a Vec of structs inside a struct"
        );
        assert!(
            params().any(|p| matches!(p.ty.inner(), Ty::Vec(t) if matches!(**t, Ty::Struct(_))))
        );
        let enums: Vec<_> = corpus.tools.iter().flat_map(|t| &t.enums).collect();
        assert!(!enums.is_empty());
        assert!(enums.iter().all(|e| e.docs.len() == e.values.len()), "every variant documented");
        assert!(params().any(|p| p.ty.is_opt()));
        assert!(params().any(|p| p.default.is_some()));
    }

    #[test]
    fn every_tool_with_a_bound_or_an_enum_has_an_invalid_call() {
        for corpus in [Corpus::standard(), Corpus::wide()] {
            for (i, t) in corpus.tools.iter().enumerate() {
                let expected = usize::from(t.params.iter().any(|p| p.range.is_some()))
                    + usize::from(t.params.iter().any(|p| matches!(p.ty.inner(), Ty::Enum(_))));
                assert_eq!(t.invalid_args(SEED + i as u64).len(), expected, "{}", t.name);
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_corpus() {
        assert_eq!(Corpus::generate_wide(7, 20), Corpus::generate_wide(7, 20));
        assert_eq!(Corpus::generate(7, 20), Corpus::generate(7, 20));
        assert_ne!(Corpus::generate(7, 20), Corpus::generate(8, 20));
    }
}
