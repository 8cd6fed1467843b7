//! A named corpus of descriptors that every renderer snapshots: every schema kind and
//! constraint, nesting, recursion, all eight optional/nullable/default combinations, described
//! enums, maps, unions, output schemas, annotations, namespaced names and a zero-argument tool.
//!
//! Most entries are `static`s built with the `const` DSL; a few come from the run-time builder
//! (owned names, many parameters). The tool name is the entry's name; [`corpus`] lists them in a
//! fixed order.

use std::borrow::Cow;

use tooldef::{
    Additional, Annotations, Definition, EnumValue, Literal, Param, Schema, ToolDescriptor,
};

static CITY: Schema = Schema::string().description("A city name.");

/// The design document's weather tool.
pub static GET_WEATHER: ToolDescriptor =
    ToolDescriptor::new("get_weather").description("Get the current weather for a city.").params(
        const {
            &[
                Param::string("city").description("City name, e.g. \"Paris\"."),
                Param::enumeration("unit", &["celsius", "fahrenheit"]).default_str("celsius"),
                Param::integer("days").description("Number of days").range(1, 10).default_int(3),
                Param::list("tags", &CITY).length(0, 5).optional(),
                Param::float("ratio").range_f64(0.0, 1.0).nullable().optional(),
            ]
        },
    );

/// No parameters at all.
pub static PING: ToolDescriptor = ToolDescriptor::new("ping").description("Check the service.");

/// No parameters and no description.
pub static BARE: ToolDescriptor = ToolDescriptor::new("bare");

/// String formats (supported by every strict mode, by some, by none) and patterns.
pub static STRING_FORMATS: ToolDescriptor =
    ToolDescriptor::new("string_formats").description("Strings with formats and patterns.").params(
        const {
            &[
                Param::string("when").format("date-time"),
                Param::string("day").format("date"),
                Param::string("email").format("email"),
                Param::string("id").format("uuid"),
                Param::string("site").format("uri").description("Home page"),
                Param::string("phone").format("phone-number"),
                Param::string("slug").pattern("^[a-z0-9]+(?:-[a-z0-9]+)*$"),
                Param::string("password").pattern("^(?=.*[0-9]).{8,}$").description("Secret."),
            ]
        },
    );

/// String length bounds.
pub static STRING_LENGTHS: ToolDescriptor =
    ToolDescriptor::new("string_lengths").description("Strings with lengths.").params(
        const {
            &[
                Param::string("code").length(3, 3),
                Param::string("note").min_length(1).optional(),
                Param::string("title").max_length(80).description("Short title"),
            ]
        },
    );

/// Integer bounds of every kind.
pub static INTEGER_BOUNDS: ToolDescriptor =
    ToolDescriptor::new("integer_bounds").description("Integers with bounds.").params(
        const {
            &[
                Param::integer("count").min(0),
                Param::integer("limit").max(100),
                Param::integer("page").range(1, 50).default_int(1),
                Param::integer("offset").exclusive_range(Some(-1), Some(1000)),
                Param::integer("step").multiple_of(5),
                Param::integer("delta").range(-10, -1).default_int(-5),
            ]
        },
    );

/// Number bounds of every kind.
pub static FLOAT_BOUNDS: ToolDescriptor =
    ToolDescriptor::new("float_bounds").description("Numbers with bounds.").params(
        const {
            &[
                Param::float("ratio").range_f64(0.0, 1.0).default_float(0.5),
                Param::float("temperature").range_f64(-273.15, 1.0e6),
                Param::float("positive").exclusive_range(Some(0), None),
                Param::float("quarter").multiple_of(1),
                Param::float("any"),
            ]
        },
    );

/// Booleans with and without defaults.
pub static BOOLEANS: ToolDescriptor = ToolDescriptor::new("booleans").description("Flags.").params(
    const {
        &[
            Param::boolean("verbose").default_bool(false),
            Param::boolean("dry_run").description("Only show what would happen."),
        ]
    },
);

const UNITS: &[EnumValue] = &[
    EnumValue::described("celsius", "Degrees Celsius."),
    EnumValue::described("fahrenheit", "Degrees Fahrenheit"),
    EnumValue::new("kelvin"),
];

/// Enums: plain, described, nullable, with a default.
pub static ENUMS: ToolDescriptor =
    ToolDescriptor::new("enums").description("Enums of several kinds.").params(
        const {
            &[
                Param::enumeration("color", &["red", "green", "blue"]),
                Param::enumeration_described("unit", UNITS).description("Temperature unit"),
                Param::enumeration("size", &["s", "m", "l"]).nullable().optional(),
                Param::enumeration("mode", &["fast", "safe"]).default_str("safe"),
            ]
        },
    );

/// The eight combinations of required, nullable and default.
pub static OPTIONALITY: ToolDescriptor = ToolDescriptor::new("optionality")
    .description("Every combination of required, nullable and default.")
    .params(
        const {
            &[
                Param::string("req"),
                Param::string("req_null").nullable(),
                Param::string("req_def").default_str("x").required(),
                Param::string("req_null_def").nullable().default_str("x").required(),
                Param::string("opt").optional(),
                Param::string("opt_null").nullable().optional(),
                Param::string("opt_def").default_str("x"),
                Param::string("opt_null_def").nullable().default(Literal::Null),
            ]
        },
    );

static POINT: &[Param] = &[Param::float("x"), Param::float("y")];
static POINT_SCHEMA: Schema = Schema::object(POINT).description("A point.");
static STRING: Schema = Schema::string();
static LABELS: Schema = Schema::list(&STRING);

/// Lists: of scalars, of objects, of lists; item bounds and uniqueness.
pub static LISTS: ToolDescriptor =
    ToolDescriptor::new("lists").description("Lists of several kinds.").params(
        const {
            &[
                Param::list("names", &STRING).length(1, 10).unique(),
                Param::list("points", &POINT_SCHEMA).min_length(2),
                Param::list("matrix", &LABELS).description("Rows of labels"),
                Param::list("maybe", &STRING).nullable().optional(),
            ]
        },
    );

static LEVEL3: &[Param] = &[Param::string("leaf"), Param::integer("weight").optional()];
static LEVEL2: &[Param] =
    &[Param::object("inner", LEVEL3).description("Third level"), Param::boolean("flag")];

/// Objects nested three levels deep, one of them nullable.
pub static NESTED: ToolDescriptor =
    ToolDescriptor::new("nested").description("Nested objects.").params(
        const {
            &[
                Param::object("outer", LEVEL2).description("Second level"),
                Param::object("extra", LEVEL3).nullable().optional(),
            ]
        },
    );

/// A recursive tree: a definition that refers to itself through a list.
pub static TREE: ToolDescriptor =
    ToolDescriptor::new("tree__insert")
        .description("Insert a subtree.")
        .definitions(
            const {
                &[Definition::new(
                    "Node",
                    Schema::object(
                        const {
                            &[
                                Param::string("label"),
                                Param::list("children", const { &Schema::reference("Node") })
                                    .optional(),
                            ]
                        },
                    ),
                )]
            },
        )
        .params(
            const {
                &[Param::new(
                    "root",
                    Schema::reference("Node").description("The subtree to insert."),
                )]
            },
        );

/// A recursive linked list: a nullable reference to itself.
pub static LINKED_LIST: ToolDescriptor = ToolDescriptor::new("linked_list")
    .description("Store a linked list.")
    .definitions(
        const {
            &[Definition::new(
                "Cell",
                Schema::object(
                    const {
                        &[
                            Param::integer("value"),
                            Param::new("next", Schema::reference("Cell").nullable()),
                        ]
                    },
                ),
            )]
        },
    )
    .params(const { &[Param::new("head", Schema::reference("Cell"))] });

/// A shared, non-recursive definition used twice, once with sibling keywords.
pub static SHARED_DEFS: ToolDescriptor = ToolDescriptor::new("ship_parcel")
    .description("Ship a parcel.")
    .definitions(
        const {
            &[
                Definition::new(
                    "Address",
                    Schema::object(
                        const {
                            &[
                                Param::string("street"),
                                Param::string("city"),
                                Param::string("zip").pattern("^[0-9]{5}$"),
                            ]
                        },
                    )
                    .description("A postal address."),
                ),
                Definition::new("Unused", Schema::boolean()),
            ]
        },
    )
    .params(
        const {
            &[
                Param::new("from", Schema::reference("Address")),
                Param::new("to", Schema::reference("Address").description("Where it goes.")),
                Param::new("billing", Schema::reference("Address")).nullable().optional(),
            ]
        },
    );

static NUMBER: Schema = Schema::float();

/// Maps (typed additional properties), an open object and a map of objects.
pub static MAPS: ToolDescriptor =
    ToolDescriptor::new("maps").description("Maps and open objects.").params(
        const {
            &[
                Param::new("scores", Schema::map(&NUMBER)).description("Score per player"),
                Param::new("places", Schema::map(&POINT_SCHEMA)).optional(),
                Param::new(
                    "metadata",
                    Schema::of(tooldef::SchemaKind::Object(tooldef::ObjectSchema {
                        properties: Cow::Borrowed(&[]),
                        additional: Additional::Open,
                    })),
                )
                .optional(),
            ]
        },
    );

/// A tool whose input object is open (accepts extra keys).
pub static OPEN_ROOT: ToolDescriptor = ToolDescriptor::new("open_root")
    .description("Accepts any extra argument.")
    .open()
    .params(const { &[Param::string("query")] });

static ID_VARIANTS: &[Schema] = &[Schema::string(), Schema::integer()];
static SHAPES: &[Schema] = &[
    Schema::object(const { &[Param::float("radius")] }).title("Circle"),
    Schema::object(const { &[Param::float("width"), Param::float("height")] }).title("Rect"),
];
static WITH_NULL: &[Schema] = &[Schema::boolean(), Schema::null()];

/// Unions: of scalars, of objects, nullable, and one that already admits null.
pub static UNIONS: ToolDescriptor =
    ToolDescriptor::new("unions").description("Unions of several kinds.").params(
        const {
            &[
                Param::new("id", Schema::any_of(ID_VARIANTS)).description("Name or number"),
                Param::new("shape", Schema::any_of(SHAPES)),
                Param::new("maybe_id", Schema::any_of(ID_VARIANTS)).nullable().optional(),
                Param::new("toggle", Schema::any_of(WITH_NULL)).optional(),
            ]
        },
    );

static FORECAST: Schema = Schema::object(
    const {
        &[
            Param::float("temperature").description("Degrees"),
            Param::enumeration("sky", &["clear", "cloudy", "rain"]),
        ]
    },
);

/// A tool with an output schema.
pub static WITH_OUTPUT: ToolDescriptor = ToolDescriptor::new("forecast")
    .description("Forecast for tomorrow.")
    .output(&FORECAST)
    .params(const { &[Param::string("city")] });

static SCALAR_OUT: Schema = Schema::list(&STRING);

/// A tool whose output is not an object.
pub static LIST_OUTPUT: ToolDescriptor = ToolDescriptor::new("list_files")
    .description("List files.")
    .output(&SCALAR_OUT)
    .params(const { &[Param::string("dir").default_str(".")] });

/// A tool with a title and every annotation.
pub static ANNOTATED: ToolDescriptor = ToolDescriptor::new("delete_file")
    .title("Delete file")
    .description("Delete a file.")
    .annotations(Annotations {
        title: Some(Cow::Borrowed("Delete a file")),
        read_only: Some(false),
        destructive: Some(true),
        idempotent: Some(true),
        open_world: Some(false),
    })
    .params(const { &[Param::string("path")] });

/// A read-only tool with one hint.
pub static READ_ONLY: ToolDescriptor = ToolDescriptor::new("read_file")
    .description("Read a file.")
    .read_only()
    .params(const { &[Param::string("path"), Param::integer("max_bytes").min(1).optional()] });

/// A namespaced name (`ns__local`).
pub static NAMESPACED: ToolDescriptor =
    ToolDescriptor::new("github__create_issue").description("Create an issue.").params(
        const {
            &[
                Param::string("repo").description("owner/name"),
                Param::string("title"),
                Param::string("body").optional(),
            ]
        },
    );

/// Titles and examples on parameters.
pub static TITLES_EXAMPLES: ToolDescriptor =
    ToolDescriptor::new("search").description("Search documents.").params(
        const {
            &[
                Param::string("query")
                    .title("Query")
                    .examples(const { &[Literal::str("rust"), Literal::str("serde json")] }),
                Param::integer("top_k")
                    .title("Results")
                    .range(1, 50)
                    .default_int(10)
                    .examples(const { &[Literal::Int(5)] }),
            ]
        },
    );

/// Text that needs escaping: quotes, backslashes, newlines, control characters, non-ASCII.
pub static ESCAPING: ToolDescriptor = ToolDescriptor::new("escaping")
    .description("Say \"hi\"\\n to C:\\temp\nsecond line\ttab \u{1} é 😀")
    .params(
        const {
            &[Param::string("text")
                .description("Quote: \"; backslash: \\; unicode: ü")
                .default_str("a \"b\"")]
        },
    );

static DEEP1: &[Param] = &[Param::string("v")];
static DEEP2: &[Param] = &[Param::object("l11", DEEP1)];
static DEEP3: &[Param] = &[Param::object("l10", DEEP2)];
static DEEP4: &[Param] = &[Param::object("l9", DEEP3)];
static DEEP5: &[Param] = &[Param::object("l8", DEEP4)];
static DEEP6: &[Param] = &[Param::object("l7", DEEP5)];
static DEEP7: &[Param] = &[Param::object("l6", DEEP6)];
static DEEP8: &[Param] = &[Param::object("l5", DEEP7)];
static DEEP9: &[Param] = &[Param::object("l4", DEEP8)];
static DEEP10: &[Param] = &[Param::object("l3", DEEP9)];

/// Objects nested eleven levels deep (beyond OpenAI strict's ten).
pub static TOO_DEEP: ToolDescriptor = ToolDescriptor::new("too_deep")
    .description("Eleven levels of objects.")
    .params(const { &[Param::object("l2", DEEP10)] });

/// A required parameter whose default is null-free and an optional object with a default.
pub static OBJECT_DEFAULT: ToolDescriptor = ToolDescriptor::new("object_default")
    .description("An object parameter with a default.")
    .params(
        const {
            &[Param::object("paging", const { &[Param::integer("size"), Param::integer("page")] })
                .default(Literal::Object(Cow::Borrowed(
                    const {
                        &[
                            (Cow::Borrowed("size"), Literal::Int(20)),
                            (Cow::Borrowed("page"), Literal::Int(1)),
                        ]
                    },
                )))]
        },
    );

/// A list of described enums, nullable items.
pub static ENUM_LIST: ToolDescriptor =
    ToolDescriptor::new("enum_list").description("A list of enum values.").params(
        const {
            &[
                Param::list("units", const { &Schema::enumeration_described(UNITS) }).unique(),
                Param::list("flags", const { &Schema::boolean().nullable() }).optional(),
            ]
        },
    );

static ANY: Schema = Schema::any();
static STRING_OR_ANY: &[Schema] = &[Schema::string(), Schema::any()];

/// Schemas of any value (`{}`: no `type`): an array without `items`, a union variant and a
/// parameter, which every strict mode must lower.
pub static UNTYPED: ToolDescriptor =
    ToolDescriptor::new("untyped").description("Values of any type.").params(
        const {
            &[
                Param::list("values", &ANY).description("Anything, one by one"),
                Param::new("key", Schema::any_of(STRING_OR_ANY)),
                Param::new("payload", Schema::any()).description("Passed on as it is").optional(),
            ]
        },
    );

/// A tool built at run time, with owned names and many parameters.
pub fn many_params() -> ToolDescriptor {
    let mut b = ToolDescriptor::builder(format!("many_{}", "params"))
        .description("Thirty parameters built at run time.");
    for i in 0..30 {
        let p = match i % 3 {
            0 => Param::named(format!("s{i:02}"), Schema::string()),
            1 => Param::named(format!("n{i:02}"), Schema::integer()).with_default(i as i64),
            _ => {
                Param::named(format!("b{i:02}"), Schema::boolean().nullable()).with_required(false)
            }
        };
        b = b.param(p);
    }
    b.build().unwrap_or_else(|e| panic!("corpus entry many_params: {e}"))
}

/// A tool built at run time with a run-time enum and a definition.
pub fn dynamic() -> ToolDescriptor {
    let values: Vec<String> = ["alpha", "beta", "gamma"].iter().map(|s| s.to_string()).collect();
    ToolDescriptor::builder("dynamic_tool")
        .title("Dynamic")
        .description("Built from data.")
        .definition(Definition::named(
            "Pair",
            Schema::object_of(vec![
                Param::named("key", Schema::string()),
                Param::named(
                    "value",
                    Schema::any_of_owned(vec![Schema::string(), Schema::float()]),
                ),
            ]),
        ))
        .param(Param::named("stage", Schema::enumeration_of(values)).with_default("beta"))
        .param(Param::named("pairs", Schema::list_of(Schema::reference_to("Pair"))))
        .output(Schema::object_of(vec![Param::named("ok", Schema::boolean())]))
        .build()
        .unwrap_or_else(|e| panic!("corpus entry dynamic_tool: {e}"))
}

/// The `static` corpus descriptors, in a fixed order.
pub static STATICS: &[&ToolDescriptor] = &[
    &GET_WEATHER,
    &PING,
    &BARE,
    &STRING_FORMATS,
    &STRING_LENGTHS,
    &INTEGER_BOUNDS,
    &FLOAT_BOUNDS,
    &BOOLEANS,
    &ENUMS,
    &OPTIONALITY,
    &LISTS,
    &NESTED,
    &TREE,
    &LINKED_LIST,
    &SHARED_DEFS,
    &MAPS,
    &OPEN_ROOT,
    &UNIONS,
    &WITH_OUTPUT,
    &LIST_OUTPUT,
    &ANNOTATED,
    &READ_ONLY,
    &NAMESPACED,
    &TITLES_EXAMPLES,
    &ESCAPING,
    &TOO_DEEP,
    &OBJECT_DEFAULT,
    &ENUM_LIST,
    &UNTYPED,
];

/// Every corpus descriptor (the statics, then the run-time built ones), in a fixed order; the
/// tool names are unique.
pub fn corpus() -> Vec<ToolDescriptor> {
    let mut all: Vec<ToolDescriptor> = STATICS.iter().map(|d| (*d).clone()).collect();
    all.push(many_params());
    all.push(dynamic());
    all
}

/// The corpus descriptor named `name`.
pub fn get(name: &str) -> Option<ToolDescriptor> {
    corpus().into_iter().find(|d| d.name == name)
}

/// The snapshot of `renderer` over the whole corpus under `policy`: a pretty JSON object keyed
/// by tool name, each entry `{"wire": <rendered JSON>, "report": [<change>...]}` or
/// `{"error": <message>}`. Deterministic, so it can be compared byte for byte.
pub fn snapshot<R: tooldef::Renderer + ?Sized>(
    renderer: &R,
    policy: tooldef::LossPolicy,
) -> String {
    use crate::ordered::Json;
    use indexmap::IndexMap;
    let mut all = IndexMap::new();
    for tool in corpus() {
        let mut entry = IndexMap::new();
        match renderer.render(&tool, policy) {
            Ok(r) => {
                let wire = Json::parse(r.json()).unwrap_or_else(|e| Json::string(e.to_string()));
                entry.insert("wire".to_owned(), wire);
                let report = r.report().iter().map(|c| Json::string(c.to_string())).collect();
                entry.insert("report".to_owned(), Json::Array(report));
            }
            Err(e) => {
                entry.insert("error".to_owned(), Json::string(e.to_string()));
            }
        }
        all.insert(tool.name.as_str().to_owned(), Json::Object(entry));
    }
    let mut text = serde_json::to_string_pretty(&Json::Object(all)).unwrap_or_default();
    text.push('\n');
    text
}

/// Compares `actual` with the golden file at `path` byte for byte; with `TOOLDEF_BLESS=1` in
/// the environment, writes `actual` to `path` instead.
///
/// # Panics
///
/// When the file differs (or is missing) and blessing is off; the message names the file, the
/// first differing line and how to bless.
#[track_caller]
pub fn assert_snapshot(path: &std::path::Path, actual: &str) {
    if std::env::var_os("TOOLDEF_BLESS").is_some_and(|v| v == "1") {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
        }
        std::fs::write(path, actual)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "cannot read snapshot {}: {e}; run with TOOLDEF_BLESS=1 to create it",
            path.display()
        )
    });
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        let show = |text: &str| text.lines().nth(line).unwrap_or("<end of file>").to_owned();
        panic!(
            "snapshot {} differs at line {}:\n  expected: {}\n  actual:   {}\nrun with TOOLDEF_BLESS=1 to accept the new output",
            path.display(),
            line + 1,
            show(&expected),
            show(actual)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_valid_and_named_once() {
        let all = corpus();
        assert!(all.len() >= 30, "{} entries", all.len());
        for d in &all {
            d.validate().unwrap_or_else(|e| panic!("{}: {e}", d.name));
        }
        let mut names: Vec<&str> = all.iter().map(|d| d.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
    }
}
