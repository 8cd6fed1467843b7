//! The standard corpus: strings, a few integers and floats, flags, lists, one level of nested
//! structs and unit enums, the shape of the tools most users write.

use super::{
    Corpus, DefaultValue, EnumSpec, FieldSpec, ParamSpec, Rng, SEED, StructSpec, TOOLS, ToolSpec,
    Ty, camel, param,
};

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

impl Corpus {
    /// The checked-in corpus: [`TOOLS`] tools from [`SEED`].
    pub fn standard() -> Self {
        Corpus::generate(SEED, TOOLS)
    }

    /// `count` tools from `seed` (same seed, same corpus).
    pub fn generate(seed: u64, count: usize) -> Self {
        Corpus::named_tools(seed, count, gen_tool)
    }
}

fn gen_tool(rng: &mut Rng, name: String, description: String) -> ToolSpec {
    let n = rng.between(3, 8) as usize;
    let mut tool = ToolSpec::named(name, description);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_has_the_promised_shape() {
        let corpus = Corpus::standard();
        super::super::assert_named_once(&corpus);
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
}
