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
