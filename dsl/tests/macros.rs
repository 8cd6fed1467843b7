//! `#[tool]`, `#[tools]` and `#[derive(Tool)]` as a user sees them: descriptors, argument
//! decoding (through serde, as dispatch does it), constraint checks and calls.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::json;
use tooldef::{
    Literal, RunTool, SchemaKind, Tool, ToolDescriptor, ToolError, ToolSchema, ToolSet,
    ToolVisitor, tool, tools,
};

/// Temperature unit.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize, ToolSchema)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Degrees Celsius.
    Celsius,
    /// Degrees Fahrenheit.
    Fahrenheit,
}

/// A forecast.
#[derive(Debug, PartialEq, Serialize, Deserialize, ToolSchema)]
pub struct Forecast {
    /// The city.
    pub city: String,
    /// Temperatures, one per day.
    pub temps: Vec<f64>,
}

/// Get the current weather for a city.
///
/// Uses the free forecast service.
#[tool(read_only, open_world = false, title = "Weather")]
pub async fn get_weather(
    /// City name, e.g. "Paris".
    city: String,
    /// Temperature unit.
    #[param(default = "celsius")]
    unit: Unit,
    #[param(range = 1..=10, default = 3, description = "How many days.")] days: u8,
    #[param(one_of = ["metric", "imperial"])] system: Option<String>,
) -> Result<Forecast, String> {
    if city.is_empty() {
        return Err("city must not be empty".into());
    }
    let base = if unit == Unit::Celsius { 20.0 } else { 68.0 };
    let _ = system;
    Ok(Forecast { city, temps: (0..days).map(|d| base + f64::from(d)).collect() })
}

/// Pick a separator.
#[tool]
pub fn separator(#[param(one_of = ["", ",", ";"])] sep: String) -> String {
    sep
}

/// Add two numbers.
#[tool(name = "math__add", idempotent, destructive = false)]
pub fn add(
    a: i64,
    #[param(name = "second", min = -100, max = 100, example = [1, 2])] b: i64,
) -> i64 {
    a + b
}

/// Shout.
#[tool]
pub fn shout(
    #[param(length = 1..=8, pattern = "^[a-z]+$", format = "word")] word: String,
    #[param(length = ..=3)] tags: Vec<String>,
    #[param(range = 0.0..=1.0)] ratio: Option<f64>,
) -> String {
    format!("{}!{}{}", word.to_uppercase(), tags.len(), ratio.unwrap_or_default())
}

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    // The futures here never pend: poll once with a no-op waker.
    let mut f = std::pin::pin!(f);
    let waker = std::task::Waker::noop();
    match f.as_mut().poll(&mut std::task::Context::from_waker(waker)) {
        std::task::Poll::Ready(v) => v,
        std::task::Poll::Pending => panic!("pending"),
    }
}

fn decode<T: Tool>(args: serde_json::Value) -> Result<T::Args, String> {
    let args: T::Args = serde_json::from_value(args).map_err(|e| e.to_string())?;
    T::check(&args).map_err(|e| e.to_string())?;
    Ok(args)
}

fn run<T: Tool>(tool: &T, args: serde_json::Value) -> Result<serde_json::Value, String> {
    let args = decode::<T>(args)?;
    let out = block_on(tool.call(args)).map_err(|e| e.to_string())?;
    Ok(serde_json::to_value(out).unwrap())
}

#[test]
fn descriptor_of_a_function() {
    let d: &ToolDescriptor = GetWeather::descriptor();
    assert_eq!(GetWeather::NAME, "get_weather");
    assert_eq!(d.name, "get_weather");
    assert_eq!(d.title.as_deref(), Some("Weather"));
    assert_eq!(
        d.description,
        "Get the current weather for a city.\n\nUses the free forecast service."
    );
    assert_eq!(d.annotations.read_only, Some(true));
    assert_eq!(d.annotations.open_world, Some(false));
    assert_eq!(d.annotations.destructive, None);
    let names: Vec<_> = d.params.iter().map(|p| p.name()).collect();
    assert_eq!(names, ["city", "unit", "days", "system"]);

    let city = d.param("city").unwrap();
    assert!(city.required && !city.is_nullable());
    assert_eq!(city.description_text(), Some("City name, e.g. \"Paris\"."));

    let unit = d.param("unit").unwrap();
    assert!(!unit.required);
    assert_eq!(unit.default_value(), Some(&Literal::str("celsius")));
    let SchemaKind::Enum(e) = &unit.schema.kind else { panic!("enum") };
    assert_eq!(
        e.values.iter_described().map(|(v, d)| (v.as_str().unwrap(), d)).collect::<Vec<_>>(),
        [("celsius", Some("Degrees Celsius.")), ("fahrenheit", Some("Degrees Fahrenheit."))]
    );
    assert_eq!(unit.description_text(), Some("Temperature unit."));

    let days = d.param("days").unwrap();
    assert_eq!(days.description_text(), Some("How many days."));
    let SchemaKind::Integer(n) = &days.schema.kind else { panic!("integer") };
    assert_eq!((n.minimum, n.maximum), (Some(1), Some(10)));
    assert_eq!(days.default_value(), Some(&Literal::Int(3)));

    let system = d.param("system").unwrap();
    assert!(!system.required && system.is_nullable());
    let SchemaKind::Enum(e) = &system.schema.kind else { panic!("enum") };
    assert_eq!(e.values.iter().collect::<Vec<_>>(), ["metric", "imperial"]);

    let out = d.output.as_ref().expect("Forecast has a schema");
    let SchemaKind::Object(o) = &out.kind else { panic!("object") };
    assert_eq!(o.properties.len(), 2);
    assert_eq!(out.description.as_deref(), Some("A forecast."));
    assert!(d.validate().is_ok(), "{:?}", d.validate());
    assert!(std::ptr::eq(d, GetWeather::descriptor()), "built once");
}

#[test]
fn calls_decode_defaults_options_and_errors() {
    let v = run(&GetWeather, json!({"city": "Paris"})).unwrap();
    assert_eq!(v, json!({"city": "Paris", "temps": [20.0, 21.0, 22.0]}));
    let v =
        run(&GetWeather, json!({"city": "Oslo", "unit": "fahrenheit", "days": 1, "system": null}))
            .unwrap();
    assert_eq!(v, json!({"city": "Oslo", "temps": [68.0]}));
    let err = run(&GetWeather, json!({"city": ""})).unwrap_err();
    assert_eq!(err, "city must not be empty");
    let err = run(&GetWeather, json!({"city": "x", "days": 11})).unwrap_err();
    assert_eq!(err, "/days must be at most 10; got 11");
    let err = run(&GetWeather, json!({"city": "x", "system": "si"})).unwrap_err();
    assert_eq!(err, r#"/system must be one of "metric", "imperial"; got "si""#);
    let err = run(&GetWeather, json!({"city": "x", "unit": "kelvin"})).unwrap_err();
    assert!(err.starts_with("parameter `unit`: unknown variant `kelvin`"), "{err}");
    let err = run(&GetWeather, json!({"city": "x", "extra": 1})).unwrap_err();
    assert!(err.starts_with("unknown field `extra`"), "{err}");
    let err = run(&GetWeather, json!({})).unwrap_err();
    assert_eq!(err, "missing field `city`");
}

#[test]
fn renames_bounds_examples_and_hints() {
    let d = Add::descriptor();
    assert_eq!(d.name, "math__add");
    assert_eq!(d.namespace(), Some("math"));
    assert_eq!(d.annotations.idempotent, Some(true));
    assert_eq!(d.annotations.destructive, Some(false));
    let b = d.param("second").unwrap();
    assert_eq!(&*b.schema.examples, &[Literal::Int(1), Literal::Int(2)]);
    let SchemaKind::Integer(n) = &b.schema.kind else { panic!() };
    assert_eq!((n.minimum, n.maximum), (Some(-100), Some(100)));
    let SchemaKind::Integer(n) = &d.param("a").unwrap().schema.kind else { panic!() };
    // An `i64`'s own limits inform no model: not stated, and still enforced by the decoder.
    assert_eq!((n.minimum, n.maximum), (None, None));
    let err = run(&Add, json!({"a": u64::MAX, "second": 3})).unwrap_err();
    assert!(err.contains("parameter `a`") && err.contains("expected i64"), "{err}");
    assert_eq!(run(&Add, json!({"a": 2, "second": 3})).unwrap(), json!(5));
    assert_eq!(
        run(&Add, json!({"a": 2, "second": -101})).unwrap_err(),
        "/second must be at least -100; got -101"
    );
    let out = d.output.as_ref().unwrap();
    assert!(matches!(out.kind, SchemaKind::Integer(_)));
    assert_eq!(d.description, "Add two numbers.");
}

#[test]
fn lengths_patterns_formats_and_float_ranges() {
    let d = Shout::descriptor();
    let SchemaKind::String(s) = &d.param("word").unwrap().schema.kind else { panic!() };
    assert_eq!((s.min_length, s.max_length), (Some(1), Some(8)));
    assert_eq!(s.pattern.as_deref(), Some("^[a-z]+$"));
    assert_eq!(s.format.as_deref(), Some("word"));
    let SchemaKind::List(l) = &d.param("tags").unwrap().schema.kind else { panic!() };
    assert_eq!((l.min_items, l.max_items), (None, Some(3)));
    let ratio = d.param("ratio").unwrap();
    let SchemaKind::Float(f) = &ratio.schema.kind else { panic!() };
    assert_eq!((f.minimum, f.maximum), (Some(0.0), Some(1.0)));
    assert!(!ratio.required);

    assert_eq!(run(&Shout, json!({"word": "hey", "tags": []})).unwrap(), json!("HEY!00"));
    let err = run(&Shout, json!({"word": "Hey!", "tags": ["a", "b", "c", "d"], "ratio": 1.5}))
        .unwrap_err();
    assert_eq!(
        err,
        r#"/word must match the pattern ^[a-z]+$; got "Hey!"; /tags must have at most 3 items; got an array of 4 items; /ratio must be at most 1; got 1.5"#
    );
    let err = run(&Shout, json!({"word": "", "tags": []})).unwrap_err();
    assert_eq!(
        err,
        "/word must be at least 1 character long; got a string of 0 characters; /word must match the pattern ^[a-z]+$; got \"\""
    );
}

/// A shared client.
pub struct Service {
    prefix: String,
}

#[tools]
impl Service {
    /// Greet someone.
    #[tool(read_only)]
    pub async fn greet(&self, #[param(length = 1..=20)] who: String) -> Result<String, ToolError> {
        Ok(format!("{}{who}", self.prefix))
    }

    /// Count calls (sync).
    #[tool(name = "prefix_len")]
    pub fn prefix_len(&self) -> usize {
        self.prefix.len()
    }

    /// Not a tool.
    pub fn helper(&self) -> &str {
        &self.prefix
    }
}

struct Names(Vec<(String, serde_json::Value)>);

impl ToolVisitor for Names {
    fn visit<T: Tool>(&mut self, tool: T) {
        let args: T::Args = serde_json::from_value(json!({"who": "Ada"}))
            .or_else(|_| serde_json::from_value(json!({})))
            .unwrap();
        let out = block_on(tool.call(args)).unwrap();
        self.0.push((T::NAME.to_owned(), serde_json::to_value(out).unwrap()));
    }
}

#[test]
fn tools_share_one_instance() {
    let service = Arc::new(Service { prefix: "hello ".into() });
    let names: Vec<_> = Service::descriptors().iter().map(|d| d.name.to_string()).collect();
    assert_eq!(names, ["greet", "prefix_len"]);
    let mut seen = Names(Vec::new());
    Service::visit_tools(&service, &mut seen);
    assert_eq!(
        seen.0,
        [("greet".to_owned(), json!("hello Ada")), ("prefix_len".to_owned(), json!(6))]
    );
    assert_eq!(Greet::descriptor().annotations.read_only, Some(true));
    assert_eq!(
        run(&Greet(service.clone()), json!({"who": ""})).unwrap_err(),
        "/who must be at least 1 character long; got a string of 0 characters"
    );
    // The generated check and the validator over the descriptor word it alike.
    let d = Greet::descriptor();
    let by_schema = tooldef::ArgValidator::new().check_args(d, &json!({"who": ""})).unwrap_err();
    assert_eq!(
        by_schema.to_string(),
        "/who must be at least 1 character long; got a string of 0 characters"
    );
    assert_eq!(service.helper(), "hello ");
}

/// Search the index.
#[derive(Debug, Deserialize, tooldef::Tool)]
#[tool(read_only)]
#[serde(rename_all = "camelCase")]
pub struct SearchIndex {
    /// What to look for.
    #[param(length = 1..=50)]
    pub query_text: String,
    /// How many hits.
    #[param(range = 1..=20, default = 5)]
    #[serde(default = "five")]
    pub max_hits: u32,
    /// Only exact matches.
    pub exact: Option<bool>,
}

fn five() -> u32 {
    5
}

impl RunTool for SearchIndex {
    type Output = Vec<String>;

    async fn run(self) -> Result<Vec<String>, ToolError> {
        Ok((0..self.max_hits).map(|i| format!("{}#{i}", self.query_text)).collect())
    }
}

#[test]
fn derived_tool() {
    let d = SearchIndex::descriptor();
    assert_eq!(d.name, "search_index");
    assert_eq!(d.description, "Search the index.");
    let names: Vec<_> = d.params.iter().map(|p| (p.name(), p.required)).collect();
    assert_eq!(names, [("queryText", true), ("maxHits", false), ("exact", false)]);
    assert_eq!(d.param("maxHits").unwrap().default_value(), Some(&Literal::Int(5)));
    let tool = SearchIndex { query_text: String::new(), max_hits: 0, exact: None };
    assert_eq!(run(&tool, json!({"queryText": "q", "maxHits": 2})).unwrap(), json!(["q#0", "q#1"]));
    assert_eq!(run(&tool, json!({"queryText": "q"})).unwrap().as_array().unwrap().len(), 5);
    assert_eq!(
        run(&tool, json!({"queryText": "q", "maxHits": 21})).unwrap_err(),
        "/maxHits must be at most 20; got 21"
    );
    let out = d.output.as_ref().unwrap();
    assert!(matches!(out.kind, SchemaKind::List(_)));
}

/// The empty string is a `one_of` value like any other (a compile error before), as for the
/// builder and import: it is written as it is and accepted at dispatch.
#[test]
fn the_empty_string_is_a_one_of_value() {
    let d = Separator::descriptor();
    let SchemaKind::Enum(e) = &d.param("sep").unwrap().schema.kind else { panic!("enum") };
    assert_eq!(e.values.iter().collect::<Vec<_>>(), ["", ",", ";"]);
    assert_eq!(run(&Separator, serde_json::json!({"sep": ""})), Ok(serde_json::json!("")));
}
