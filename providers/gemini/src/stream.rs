//! Streamed tool calls: `streamGenerateContent` responses to [`tooldef::ToolCall`]s.
//!
//! The Gemini API streams a turn as a sequence of `GenerateContentResponse` chunks; a
//! `functionCall` part arrives whole within one chunk (several calls may come in one chunk or
//! in several), so each is complete, and checked, as soon as its chunk arrives.
//!
//! Vertex AI can also stream one call's arguments (`toolConfig.functionCallingConfig.
//! streamFunctionCallArguments`): the call opens with a part carrying its `name` and
//! `willContinue: true`, its values follow in `partialArgs` (each a `PartialArg`: an RFC 9535
//! `jsonPath`, one of `stringValue` / `numberValue` / `boolValue` / `nullValue`, and
//! `willContinue` when more of the same string follows), and the first part without
//! `willContinue` closes it. The pieces are written back as argument text (`stream/partial.rs`)
//! into the same [`CallAssembler`] as every other provider's deltas, so the call comes out the
//! same and a value that breaks the schema is reported as soon as it is complete. Calls are
//! numbered in the order they arrive, which is also the order to answer them in.

mod partial;

use serde_json::{Map, Value};
use tooldef::json_text::MAX_DEPTH;
use tooldef::stream::{CallAssembler, StreamError, StreamEvent, StreamLimits, ToolLookup, at};
use tooldef::{Arguments, ToolCall};

use partial::{ArgsText, parse_path};

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
    streaming: Option<Streaming>,
}

/// The call whose arguments Vertex AI is still streaming.
#[derive(Debug)]
struct Streaming {
    index: u64,
    name: String,
    id: String,
    text: ArgsText,
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

    /// These limits instead of [`StreamLimits::DEFAULT`] (the argument sizes apply to streamed
    /// `partialArgs`, as the text they are written back as; whole calls arrive already parsed).
    #[must_use]
    pub fn limits(mut self, limits: StreamLimits) -> Self {
        self.limits = limits;
        self.checks = self.checks.limits(limits);
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

    /// Takes one chunk (the JSON of one `data:` line): the calls in its first candidate that
    /// it completes, in order, with an [`StreamEvent::Invalid`] for arguments that fail (for a
    /// streamed call, as soon as the failing value is complete).
    ///
    /// # Errors
    ///
    /// A chunk not in the documented shape (a `jsonPath` that does not name one value, or that
    /// goes back into a value already written, is named with the reason), an `error` chunk, a
    /// new call while a streamed one is open, or more calls or argument bytes than the limits.
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
            let continues = match call.get("willContinue") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => {
                    return Err(malformed(format!("{at}/willContinue"), "must be a boolean"));
                }
            };
            if self.streaming.is_some() || continues || call.get("partialArgs").is_some() {
                self.streamed(call, &at, continues, &malformed, &mut out)?;
                continue;
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

    /// One part of a call whose arguments are streamed: opens it (the first part), writes its
    /// `partialArgs` (and any whole `args`) into it, and closes it when `willContinue` is off.
    fn streamed(
        &mut self,
        call: &Value,
        at: &str,
        continues: bool,
        malformed: &dyn Fn(String, &str) -> StreamError,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        let name = match call.get("name") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.as_str()),
            Some(_) => return Err(malformed(format!("{at}/name"), "must be a string")),
        };
        let id = match call.get("id") {
            None | Some(Value::Null) => "",
            Some(Value::String(s)) => s.as_str(),
            Some(_) => return Err(malformed(format!("{at}/id"), "must be a string")),
        };
        let mut streaming = match self.streaming.take() {
            Some(open) => {
                let other_name = name.is_some_and(|n| n != open.name);
                if other_name || (!id.is_empty() && id != open.id) {
                    return Err(malformed(
                        at.to_owned(),
                        &format!(
                            "a new function call began while the call to `{}` was still \
                             streaming its arguments (its last part had `willContinue: true`)",
                            open.name
                        ),
                    ));
                }
                open
            }
            None => {
                let name = name.ok_or_else(|| {
                    malformed(format!("{at}/name"), "must be a string (the call's first part)")
                })?;
                if self.calls >= self.limits.max_calls {
                    return Err(StreamError::TooManyCalls { limit: self.limits.max_calls });
                }
                let index = self.calls as u64;
                self.checks.start(index, id, name, out)?;
                self.calls += 1;
                Streaming {
                    index,
                    name: name.to_owned(),
                    id: id.to_owned(),
                    text: ArgsText::default(),
                }
            }
        };
        let index = streaming.index;
        match call.get("args") {
            None | Some(Value::Null) => {}
            Some(Value::Object(args)) => {
                for (key, value) in args {
                    let step = [partial::Step::Key(key.clone())];
                    let text = streaming
                        .text
                        .write(&step, value, false)
                        .map_err(|m| malformed(format!("{at}/args"), &format!("`{key}` {m}")))?;
                    self.checks.append(index, &text, out)?;
                }
            }
            Some(_) => return Err(malformed(format!("{at}/args"), "must be an object")),
        }
        match call.get("partialArgs") {
            None | Some(Value::Null) => {}
            Some(Value::Array(pieces)) => {
                for (j, piece) in pieces.iter().enumerate() {
                    let at = format!("{at}/partialArgs/{j}");
                    let text = self.piece(&mut streaming, piece, &at, malformed)?;
                    self.checks.append(index, &text, out)?;
                }
            }
            Some(_) => return Err(malformed(format!("{at}/partialArgs"), "must be an array")),
        }
        if continues {
            self.streaming = Some(streaming);
        } else {
            self.checks.append(index, &streaming.text.close(), out)?;
            out.push(StreamEvent::Call(self.checks.finish(index)?));
        }
        Ok(())
    }

    /// The argument text one `PartialArg` stands for.
    fn piece(
        &self,
        streaming: &mut Streaming,
        piece: &Value,
        at: &str,
        malformed: &dyn Fn(String, &str) -> StreamError,
    ) -> Result<String, StreamError> {
        let path = match piece.get("jsonPath") {
            Some(Value::String(s)) => s.as_str(),
            _ => return Err(malformed(format!("{at}/jsonPath"), "must be a string")),
        };
        if path.len() > self.limits.max_argument_bytes {
            return Err(StreamError::TooLarge {
                index: streaming.index,
                what: "argument path",
                limit: self.limits.max_argument_bytes,
            });
        }
        let steps = parse_path(path, MAX_DEPTH).map_err(|m| {
            malformed(format!("{at}/jsonPath"), &format!("the JSON path `{path}` {m}"))
        })?;
        let continues = match piece.get("willContinue") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(malformed(format!("{at}/willContinue"), "must be a boolean")),
        };
        let mut values = Vec::new();
        for (field, value) in [
            ("stringValue", piece.get("stringValue").filter(|v| v.is_string())),
            ("numberValue", piece.get("numberValue").filter(|v| v.is_number())),
            ("boolValue", piece.get("boolValue").filter(|v| v.is_boolean())),
            ("nullValue", piece.get("nullValue").map(|_| &Value::Null)),
        ] {
            match (piece.get(field), value) {
                (None, _) => {}
                (Some(_), Some(v)) => values.push(v),
                (Some(_), None) => {
                    return Err(malformed(
                        format!("{at}/{field}"),
                        "is not of its documented type",
                    ));
                }
            }
        }
        let empty = Value::String(String::new());
        let value = match values.as_slice() {
            [v] => *v,
            // A last piece with no value closes the string it continues.
            [] if streaming.text.is_open_string(&steps) => &empty,
            [] => {
                return Err(malformed(
                    at.to_owned(),
                    "carries no value (one of `stringValue`, `numberValue`, `boolValue`, \
                     `nullValue`)",
                ));
            }
            _ => return Err(malformed(at.to_owned(), "carries more than one value")),
        };
        streaming.text.write(&steps, value, continues).map_err(|m| {
            malformed(format!("{at}/jsonPath"), &format!("the JSON path `{path}` {m}"))
        })
    }

    /// Ends the stream.
    ///
    /// # Errors
    ///
    /// [`StreamError::Unfinished`] when a streamed call's last part still said `willContinue`.
    pub fn finish(self) -> Result<(), StreamError> {
        self.checks.end()
    }
}
