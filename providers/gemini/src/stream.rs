//! Streamed tool calls: `streamGenerateContent` responses to [`tooldef::ToolCall`]s.
//!
//! The Gemini API streams a turn as a sequence of `GenerateContentResponse` chunks; a
//! `functionCall` part always arrives whole within one chunk (several calls may come in one
//! chunk or in several), so each is complete, and checked, as soon as its chunk arrives.
//! Vertex AI's incremental `partialArgs` / `willContinue` parts (not offered by the Gemini
//! API) are refused with a clear error rather than assembled wrongly. Calls are numbered in
//! the order they arrive, which is also the order to answer them in.

use serde_json::{Map, Value};
use tooldef::stream::{CallAssembler, StreamError, StreamEvent, StreamLimits, ToolLookup, at};
use tooldef::{Arguments, ToolCall};

/// Takes the chunks of a `streamGenerateContent` stream and yields each function call.
///
/// ```
/// use serde_json::json;
/// use tooldef::stream::StreamEvent;
/// use tooldef_gemini::FunctionCallStream;
///
/// let mut stream = FunctionCallStream::new();
/// let chunk = json!({"candidates": [{"content": {"role": "model", "parts": [
///     {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}}]});
/// let events = stream.push(&chunk).unwrap();
/// let [StreamEvent::Call(call)] = events.as_slice() else { panic!() };
/// assert_eq!(call.name, "get_weather");
/// ```
#[derive(Debug, Default)]
pub struct FunctionCallStream<'a> {
    checks: CallAssembler<'a>,
    limits: StreamLimits,
    calls: usize,
    chunks: u64,
}

impl<'a> FunctionCallStream<'a> {
    /// A stream reader that checks structure only.
    pub fn new() -> Self {
        FunctionCallStream::default()
    }

    /// A stream reader that also checks each call's arguments against `tools`.
    pub fn with_tools(tools: &'a dyn ToolLookup) -> Self {
        FunctionCallStream {
            checks: CallAssembler::with_tools(tools),
            ..FunctionCallStream::default()
        }
    }

    /// These limits instead of [`StreamLimits::DEFAULT`] (only the number of calls and the
    /// size of ids and names apply: the arguments arrive already parsed).
    #[must_use]
    pub fn limits(mut self, limits: StreamLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Reads the calls as the rendering `way_back` says (a [`RenderedSet`](tooldef::RenderedSet),
    /// a [`MappedSet`](tooldef::MappedSet)...): each call is given back by
    /// [`WayBack::restore`](tooldef::WayBack::restore) (the OpenAPI form's enum strings typed
    /// again, mapped names the originals) before it is checked and yielded.
    #[must_use]
    pub fn way_back(mut self, way_back: &'a dyn tooldef::WayBack) -> Self {
        self.checks = self.checks.way_back(way_back);
        self
    }

    /// Whether the checks read a JSON string holding the object or array its place expects as
    /// that value, as dispatch does with
    /// [`CallOptions::repair`](tooldef::dispatch::CallOptions::repair) on (the default). Set it
    /// as the calls will be dispatched: off, such a string is reported invalid, as dispatch
    /// will refuse it.
    #[must_use]
    pub fn repair(mut self, on: bool) -> Self {
        self.checks = self.checks.repair(on);
        self
    }

    /// Takes one chunk (the JSON of one `data:` line): the calls in its first candidate, in
    /// order, each preceded by an [`StreamEvent::Invalid`] when its arguments fail.
    ///
    /// # Errors
    ///
    /// A chunk not in the documented shape, an `error` chunk, streamed `partialArgs`, or
    /// more calls than the limit.
    pub fn push(&mut self, chunk: &Value) -> Result<Vec<StreamEvent>, StreamError> {
        let n = self.chunks;
        self.chunks += 1;
        let malformed = |pointer: String, message: &str| StreamError::Malformed {
            event: format!("chunk {n}"),
            pointer,
            message: message.to_owned(),
        };
        if let Some(e) = chunk.get("error") {
            let message = e.get("message").and_then(Value::as_str);
            return Err(StreamError::Provider {
                message: message.map_or_else(|| e.to_string(), str::to_owned),
            });
        }
        let mut out = Vec::new();
        let Some(parts) = at(chunk, "/candidates/0/content/parts") else { return Ok(out) };
        let Value::Array(parts) = parts else {
            return Err(malformed("/candidates/0/content/parts".into(), "must be an array"));
        };
        for (i, part) in parts.iter().enumerate() {
            let Some(call) = part.get("functionCall") else { continue };
            let at = format!("/candidates/0/content/parts/{i}/functionCall");
            if call.get("partialArgs").is_some() || call.get("willContinue").is_some() {
                return Err(malformed(
                    format!("{at}/partialArgs"),
                    "streamed function call arguments (`partialArgs`) are not supported; \
                     leave `streamFunctionCallArguments` off",
                ));
            }
            let name = call
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| malformed(format!("{at}/name"), "must be a string"))?;
            let id = call.get("id").and_then(Value::as_str).unwrap_or_default();
            let index = self.calls as u64;
            if self.calls >= self.limits.max_calls {
                return Err(StreamError::TooManyCalls { limit: self.limits.max_calls });
            }
            for (what, text) in [("name", name), ("id", id)] {
                if text.len() > self.limits.max_name_bytes {
                    return Err(StreamError::TooLarge {
                        index,
                        what,
                        limit: self.limits.max_name_bytes,
                    });
                }
            }
            let args = match call.get("args") {
                None | Some(Value::Null) => Value::Object(Map::new()),
                Some(v @ Value::Object(_)) => v.clone(),
                Some(_) => return Err(malformed(format!("{at}/args"), "must be an object")),
            };
            self.calls += 1;
            let call = ToolCall {
                id: id.to_owned(),
                name: name.to_owned(),
                arguments: Arguments::Json(args),
            };
            let call = self.checks.restore(call);
            self.checks.check_whole(index, &call, &mut out);
            out.push(StreamEvent::Call(call));
        }
        Ok(out)
    }

    /// Ends the stream. Gemini calls arrive whole, so none can be left open; this exists so
    /// that every provider's stream ends the same way.
    ///
    /// # Errors
    ///
    /// None today.
    pub fn finish(self) -> Result<(), StreamError> {
        Ok(())
    }
}
