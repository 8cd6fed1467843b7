//! Shared pieces of the providers' streamed-tool-call tests: the tool the fixtures call, a call
//! as an accumulator yields it, and a driver that records what each event produced.

use serde_json::Value;
use tooldef::stream::{StreamError, StreamEvent};
use tooldef::{Arguments, Param, ToolCall, ToolDescriptor};

/// The error text dispatch gives for the fixtures' `"unit": "kelvin"`.
pub const KELVIN: &str = r#"invalid arguments for get_weather: /unit must be one of "celsius", "fahrenheit"; got "kelvin""#;

/// `get_weather(location: string, unit: "celsius" | "fahrenheit")`, the tool every fixture calls.
pub fn weather_tool() -> ToolDescriptor {
    ToolDescriptor::builder("get_weather")
        .param(Param::string("location"))
        .param(Param::enumeration("unit", &["celsius", "fahrenheit"]))
        .build()
        .expect("a valid descriptor")
}

/// A `get_weather` call with its arguments as the text the stream carried.
pub fn weather_call(id: &str, args: &str) -> ToolCall {
    ToolCall { id: id.into(), name: "get_weather".into(), arguments: Arguments::Text(args.into()) }
}

/// What each event produced, in order: (the event's position, the call or the error's text).
///
/// # Panics
///
/// When `push` fails or yields anything but a call or an invalid-arguments report.
pub fn run_events(
    events: &[Value],
    mut push: impl FnMut(&Value) -> Result<Vec<StreamEvent>, StreamError>,
) -> Vec<(usize, Result<ToolCall, String>)> {
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        for ev in push(e).unwrap() {
            out.push((
                i,
                match ev {
                    StreamEvent::Call(c) => Ok(c),
                    StreamEvent::Invalid(inv) => Err(inv.error.model_text()),
                    other => panic!("unexpected {other:?}"),
                },
            ));
        }
    }
    out
}
