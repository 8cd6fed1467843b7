//! A small local corpus used until the shared `tooldef_testkit::corpus` lands on main.
#![allow(dead_code, unreachable_pub)]

use tooldef::{
    Additional, Annotations, Definition, EnumValue, Literal, Param, Schema, ToolDescriptor,
};

static CITY: Schema = Schema::string().description("A city name");
static TAG: Schema = Schema::string();
static POINT: [Param; 2] = [Param::float("x"), Param::float("y")];
static POINT_SCHEMA: Schema = Schema::object(&POINT);
static ANY_VARIANTS: [Schema; 2] = [Schema::string(), Schema::integer()];
static SAME_VARIANTS: [Schema; 2] = [
    Schema::string().description("An ISO date"),
    Schema::string().description("A relative date like `tomorrow`"),
];
static INT: Schema = Schema::integer();

static WEATHER: ToolDescriptor = ToolDescriptor::new("get_weather")
    .title("Weather")
    .description("Get the current weather for a city.")
    .params(
        const {
            &[
                Param::new("city", Schema::string().description("City name, e.g. \"Paris\".")),
                Param::enumeration_described(
                    "unit",
                    const {
                        &[
                            EnumValue::described("celsius", "Degrees Celsius"),
                            EnumValue::new("fahrenheit"),
                        ]
                    },
                )
                .default_str("celsius")
                .optional(),
                Param::integer("days").description("Number of days").range(1, 10).default_int(3),
                Param::list("tags", &TAG).length(1, 5).unique().optional(),
                Param::float("ratio").range_f64(0.0, 1.0).nullable().optional(),
            ]
        },
    )
    .annotations(Annotations {
        title: None,
        read_only: Some(true),
        destructive: None,
        idempotent: Some(true),
        open_world: Some(true),
    });

static NO_ARGS: ToolDescriptor = ToolDescriptor::new("ping").description("Check the service.");

static NO_DESCRIPTION: ToolDescriptor =
    ToolDescriptor::new("list_files").params(const { &[Param::string("dir").optional()] });

static STRINGS: ToolDescriptor =
    ToolDescriptor::new("create_user").description("Create a user account.").params(
        const {
            &[
                Param::string("email").format("email"),
                Param::string("handle").pattern("^[a-z][a-z0-9_]{2,15}$").length(3, 16),
                Param::string("password").pattern("^(?=.*\\d).{8,}$"),
                Param::string("born").format("date-time").optional(),
                Param::string("nickname").nullable().optional(),
            ]
        },
    );

static NUMBERS: ToolDescriptor =
    ToolDescriptor::new("set_thermostat").description("Set the target temperature.").params(
        const {
            &[
                Param::float("target").range_f64(5.0, 30.0),
                Param::integer("step").exclusive_range(Some(0), Some(10)).multiple_of(2),
                Param::integer("zone").examples(&[Literal::Int(1), Literal::Int(2)]).optional(),
            ]
        },
    );

static TREE: ToolDescriptor = ToolDescriptor::new("tree__insert")
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
                )
                .description("A tree node"),
            )]
        },
    )
    .params(const { &[Param::new("root", Schema::reference("Node"))] });

static SHAPES: ToolDescriptor = ToolDescriptor::new("draw")
    .description("Draw a polyline.")
    .definitions(const { &[Definition::new("Point", Schema::object(&POINT))] })
    .params(
        const {
            &[
                Param::new("start", Schema::reference("Point")),
                Param::new("end", Schema::reference("Point").description("Where to stop"))
                    .nullable(),
                Param::list("via", &POINT_SCHEMA).optional(),
            ]
        },
    );

static UNIONS: ToolDescriptor = ToolDescriptor::new("lookup")
    .description("Look something up by name or id.")
    .params(const { &[Param::new("key", Schema::any_of(&ANY_VARIANTS))] });

static SAME_TYPE_UNION: ToolDescriptor =
    ToolDescriptor::new("schedule").description("Schedule a reminder.").params(
        const {
            &[
                Param::new("when", Schema::any_of(&SAME_VARIANTS).nullable()),
                Param::string("text").max_length(200),
            ]
        },
    );

static MAPS: ToolDescriptor =
    ToolDescriptor::new("set_labels").description("Set labels on a resource.").params(
        const {
            &[
                Param::string("resource"),
                Param::new("labels", Schema::map(&TAG)),
                Param::new("counts", Schema::map(&INT)).optional(),
            ]
        },
    );

static OPEN: ToolDescriptor = ToolDescriptor::new("log_event")
    .description("Log an event with any extra fields.")
    .params(const { &[Param::string("event")] })
    .open();

static OUTPUT: ToolDescriptor =
    ToolDescriptor::new("search_docs")
        .description("Search the documentation.")
        .params(
            const {
                &[
                    Param::string("query").min_length(1),
                    Param::integer("limit").range(1, 50).default_int(10).optional(),
                ]
            },
        )
        .output(
            const {
                &Schema::object(
                    const {
                        &[Param::list(
                            "hits",
                            const {
                                &Schema::object(
                                    const {
                                        &[
                                            Param::string("title"),
                                            Param::string("url").format("uri"),
                                        ]
                                    },
                                )
                            },
                        )]
                    },
                )
            },
        )
        .destructive(false);

static SCALAR_OUTPUT: ToolDescriptor = ToolDescriptor::new("count_words")
    .description("Count the words of a text.")
    .params(const { &[Param::string("text")] })
    .output(&INT);

static BAD_PROPERTY: ToolDescriptor = ToolDescriptor::new("http_get")
    .description("Fetch a URL.")
    .params(const { &[Param::string("url"), Param::string("x-request-id").optional()] });

static LIST_BOUNDS: ToolDescriptor = ToolDescriptor::new("pick")
    .description("Pick several items.")
    .params(const { &[Param::list("items", &TAG).length(2, 4), Param::new("home", CITY_PARAM)] });

const CITY_PARAM: Schema =
    Schema::string().description("A city name").default(Literal::str("Paris"));

/// The local corpus, by tool name.
pub fn corpus() -> Vec<ToolDescriptor> {
    let all = [
        &WEATHER,
        &NO_ARGS,
        &NO_DESCRIPTION,
        &STRINGS,
        &NUMBERS,
        &TREE,
        &SHAPES,
        &UNIONS,
        &SAME_TYPE_UNION,
        &MAPS,
        &OPEN,
        &OUTPUT,
        &SCALAR_OUTPUT,
        &BAD_PROPERTY,
        &LIST_BOUNDS,
    ];
    let out: Vec<ToolDescriptor> = all.iter().map(|d| (*d).clone()).collect();
    for d in &out {
        d.validate().unwrap_or_else(|e| panic!("corpus entry `{}` is invalid: {e}", d.name));
    }
    let _ = Additional::Closed;
    out
}
