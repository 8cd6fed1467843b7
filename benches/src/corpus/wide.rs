//! The wide corpus: 64-bit integers, structs inside structs, documented enum variants.

use super::{
    Corpus, DefaultValue, EnumSpec, FieldSpec, ParamSpec, Rng, StructSpec, TOOLS, ToolSpec, Ty,
    camel, param,
};

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
    let n = rng.between(4, 8) as usize;
    let mut tool = ToolSpec::named(name, description);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wide_corpus_has_the_promised_shape() {
        let corpus = Corpus::wide();
        super::super::assert_named_once(&corpus);
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
}
