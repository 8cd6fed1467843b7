//! Macro-generated tools through dispatch: a `Toolbox` holding `#[tool]` functions, a
//! `#[derive(Tool)]` struct and a `#[tools]` set, called with provider-style arguments.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::json;
use tooldef::dispatch::Toolbox;
use tooldef::{Arguments, RunTool, ToolCall, ToolError, ToolSchema, ToolSet, tool, tools};

/// Temperature unit.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize, ToolSchema)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// Celsius.
    Celsius,
    /// Fahrenheit.
    Fahrenheit,
}

/// Weather.
#[derive(Debug, Serialize, ToolSchema)]
pub struct Weather {
    /// Degrees.
    pub temp: f64,
    /// The unit.
    pub unit: Unit,
}

/// Get the weather.
#[tool]
pub async fn get_weather(
    city: String,
    #[param(default = "celsius")] unit: Unit,
    #[param(range = 1..=10, default = 3)] days: u8,
) -> Result<Weather, String> {
    if city == "Atlantis" {
        return Err(format!("no weather station in {city}"));
    }
    Ok(Weather { temp: f64::from(days) * 10.0, unit })
}

/// Look below a path; its parameter's name holds the two characters a JSON pointer escapes.
#[tool]
pub fn look_below(
    #[param(name = "dir/sub~1", range = 1..=3)] depth: u8,
    #[param(name = "~tag", one_of = ["a", "b"])] tag: Option<String>,
) -> u8 {
    let _ = tag;
    depth
}

/// Echo, derived.
#[derive(Deserialize, tooldef::Tool)]
pub struct Echo {
    /// The text.
    #[param(length = 1..=5)]
    pub text: String,
}

impl RunTool for Echo {
    type Output = String;

    async fn run(self) -> Result<String, ToolError> {
        Ok(self.text)
    }
}

/// A counter shared by its tools.
#[derive(Default)]
pub struct Counter {
    n: std::sync::atomic::AtomicU64,
}

#[tools]
impl Counter {
    /// Add to the counter.
    #[tool]
    pub fn bump(&self, #[param(min = 1)] by: u64) -> u64 {
        self.n.fetch_add(by, std::sync::atomic::Ordering::SeqCst) + by
    }

    /// Read the counter.
    #[tool(read_only)]
    pub fn read(&self) -> u64 {
        self.n.load(std::sync::atomic::Ordering::SeqCst)
    }
}

fn toolbox(counter: &Arc<Counter>) -> Toolbox {
    let mut tb = Toolbox::new();
    tb.add(GetWeather).add(Echo { text: String::new() });
    Counter::add_to(counter, &mut tb);
    tb
}

fn call(tb: &Toolbox, name: &str, args: Arguments) -> tooldef::ToolResult {
    tb.call_blocking(&ToolCall { id: "1".into(), name: name.into(), arguments: args })
}

#[test]
fn function_tools_decode_text_and_json_and_apply_defaults() {
    let tb = toolbox(&Arc::new(Counter::default()));
    let r = call(&tb, "get_weather", Arguments::Text(r#"{"city":"Paris"}"#.into()));
    assert!(!r.is_error, "{}", r.text());
    assert_eq!(r.structured, Some(json!({"temp": 30.0, "unit": "celsius"})));
    let r =
        call(&tb, "get_weather", json!({"city": "Oslo", "unit": "fahrenheit", "days": 1}).into());
    assert_eq!(r.structured, Some(json!({"temp": 10.0, "unit": "fahrenheit"})));
}

#[test]
fn bad_arguments_and_failures_are_error_results() {
    let tb = toolbox(&Arc::new(Counter::default()));
    let r = call(&tb, "get_weather", json!({"city": "Paris", "days": 11}).into());
    assert!(r.is_error);
    assert_eq!(r.text(), "invalid arguments for get_weather: /days must be at most 10; got 11");
    let r = call(&tb, "get_weather", json!({"city": "Paris", "unit": "kelvin"}).into());
    assert!(r.is_error);
    // serde refuses the value; the validator explains it against the generated schema.
    assert!(
        r.text().starts_with("invalid arguments for get_weather: /unit must be one of"),
        "{}",
        r.text()
    );
    let r = call(&tb, "get_weather", json!({"city": "Atlantis"}).into());
    assert!(r.is_error);
    assert_eq!(r.text(), "no weather station in Atlantis");
    let r = call(&tb, "echo", json!({"text": "too long"}).into());
    assert!(r.is_error);
    assert_eq!(
        r.text(),
        "invalid arguments for echo: /text must be at most 5 characters long; got a string of 8 characters"
    );
}

#[test]
fn a_tool_set_shares_its_instance() {
    let counter = Arc::new(Counter::default());
    let tb = toolbox(&counter);
    assert_eq!(tb.len(), 4);
    let names: Vec<_> = tb.names().collect();
    assert!(names.contains(&"bump") && names.contains(&"read"), "{names:?}");
    assert_eq!(call(&tb, "bump", json!({"by": 2}).into()).structured, Some(json!(2)));
    assert_eq!(call(&tb, "bump", Arguments::Text(r#"{"by":3}"#.into())).structured, Some(json!(5)));
    assert_eq!(call(&tb, "read", Arguments::Text(String::new())).structured, Some(json!(5)));
    assert!(call(&tb, "bump", json!({"by": 0}).into()).is_error);
    assert_eq!(counter.read(), 5);
    let executors = Counter::executors(&counter);
    assert_eq!(executors.len(), 2);
    assert_eq!(executors[1].descriptor().name, "read");
}

#[test]
fn pointers_escape_slash_and_tilde_in_parameter_names() {
    let mut tb = Toolbox::new();
    tb.add(LookBelow);
    let r = call(&tb, "look_below", json!({"dir/sub~1": 2}).into());
    assert_eq!((r.is_error, r.structured), (false, Some(json!(2))));
    // The generated checks, with the pointer the macro escaped.
    let r = call(&tb, "look_below", json!({"dir/sub~1": 4, "~tag": "c"}).into());
    assert_eq!(
        r.text(),
        "invalid arguments for look_below:\n- /dir~1sub~01 must be at most 3; got 4\n\
         - /~0tag must be one of \"a\", \"b\"; got \"c\""
    );
    // A value serde refuses: dispatch's validator walks the schema and escapes at run time.
    let r = call(&tb, "look_below", json!({"dir/sub~1": "deep", "~tag": 1}).into());
    assert_eq!(
        r.text(),
        "invalid arguments for look_below:\n- /dir~1sub~01 must be an integer; got \"deep\"\n\
         - /~0tag must be one of \"a\", \"b\"; got 1"
    );
}

/// Echo the integers.
#[tool]
pub fn widths(signed: i64, unsigned: Option<u64>, list: Option<Vec<i64>>) -> i64 {
    let _ = (unsigned, list);
    signed
}

#[test]
fn an_integer_past_64_bits_is_refused_at_its_pointer_as_out_of_range() {
    let mut tb = Toolbox::new();
    tb.add(Widths);
    let signed = "must be an integer from -9223372036854775808 to 9223372036854775807";
    let cases = [
        (r#"{"signed": 1e20}"#, format!("/signed is out of range for a 64-bit integer: {signed}; got 1e+20")),
        (
            r#"{"signed": 9223372036854775808}"#,
            format!("/signed is out of range for a 64-bit integer: {signed}; got 9223372036854775808"),
        ),
        (
            r#"{"signed": -9223372036854775809}"#,
            format!("/signed is out of range for a 64-bit integer: {signed}; got -9.223372036854776e+18"),
        ),
        (
            r#"{"signed": 1, "unsigned": 18446744073709551616}"#,
            "/unsigned is out of range for a 64-bit integer: must be an integer from 0 to 18446744073709551615; got 1.8446744073709552e+19".to_owned(),
        ),
        (
            // In range, but written as a float past what a float holds exactly.
            r#"{"signed": 1, "unsigned": 1e19}"#,
            "/unsigned is out of range for a 64-bit integer: must be an integer from 0 to 18446744073709551615; got 1e+19".to_owned(),
        ),
        (
            r#"{"signed": 1, "list": [1, 92233720368547758070]}"#,
            format!("/list/1 is out of range for a 64-bit integer: {signed}; got 9.223372036854776e+19"),
        ),
    ];
    for (text, error) in cases {
        let expected = format!("invalid arguments for widths: {error}");
        let r = call(&tb, "widths", Arguments::Text(text.into()));
        assert_eq!((r.is_error, r.text()), (true, expected.clone()), "text {text}");
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let r = call(&tb, "widths", value.into());
        assert_eq!((r.is_error, r.text()), (true, expected), "value {text}");
    }
    let r = call(
        &tb,
        "widths",
        json!({"signed": 9223372036854775807_i64, "unsigned": u64::MAX}).into(),
    );
    assert_eq!((r.is_error, r.text()), (false, "9223372036854775807".to_owned()));
}
