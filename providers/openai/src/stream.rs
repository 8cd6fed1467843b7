//! Streamed tool calls: Chat Completions chunks ([`ChatStream`]) and Responses events
//! ([`ResponsesStream`]) to [`ToolCall`]s, checked while they arrive.
//!
//! Chat Completions streams each call as `choices[].delta.tool_calls[]` pieces keyed by
//! `index`: the first piece carries `id` and `function.name`, later ones only more
//! `function.arguments` text; a choice's `finish_reason` ends its calls. Responses streams a
//! `function_call` item as `response.output_item.added`, then
//! `response.function_call_arguments.delta` pieces and `response.function_call_arguments.done`
//! (with the whole text), keyed by `output_index`; a `custom_tool_call` item (a grammar tool,
//! see `tooldef::grammar`) the same way with `response.custom_tool_call_input.delta` / `.done`,
//! its text assembled as the arguments `{"input": <text>}`. The assembling and the early checks are
//! [`tooldef::stream::CallAssembler`]'s; this module only maps events onto it.

use serde_json::Value;
use tooldef::stream::{
    CallAssembler, EventFields, StreamError, StreamEvent, StreamLimits, ToolLookup, at,
};

/// Assembles the tool calls of a Chat Completions stream (`chat.completion.chunk` objects).
///
/// ```
/// use serde_json::json;
/// use tooldef::stream::StreamEvent;
/// use tooldef_openai::ChatStream;
///
/// let mut stream = ChatStream::new();
/// let chunks = [
///     json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
///         "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}}]}),
///     json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0,
///         "function": {"arguments": "{\"city\": \"Paris\"}"}}]}}]}),
///     json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}),
/// ];
/// let mut calls = Vec::new();
/// for chunk in &chunks {
///     for event in stream.push(chunk).unwrap() {
///         if let StreamEvent::Call(call) = event {
///             calls.push(call);
///         }
///     }
/// }
/// stream.finish().unwrap();
/// assert_eq!(calls[0].name, "get_weather");
/// ```
#[derive(Debug, Default)]
pub struct ChatStream<'a> {
    calls: CallAssembler<'a>,
    chunks: u64,
}

/// Chat calls of different choices (`n > 1`) are told apart by the choice in the high bits.
const CHOICE_SHIFT: u32 = 32;

impl<'a> ChatStream<'a> {
    /// A stream assembler that checks structure only.
    pub fn new() -> Self {
        ChatStream::default()
    }

    /// A stream assembler that also checks arguments against `tools` while they arrive.
    pub fn with_tools(tools: &'a dyn ToolLookup) -> Self {
        ChatStream { calls: CallAssembler::with_tools(tools), ..ChatStream::default() }
    }

    /// These limits instead of [`StreamLimits::DEFAULT`].
    #[must_use]
    pub fn limits(mut self, limits: StreamLimits) -> Self {
        self.calls = self.calls.limits(limits);
        self
    }

    /// Reads the calls as the rendering `way_back` says (a [`RenderedSet`](tooldef::RenderedSet),
    /// a [`MappedSet`](tooldef::MappedSet)...): the early checks take a value as its way back
    /// will (a strict mode's `null` for a parameter left out is no error), and each call is
    /// given back by [`WayBack::restore`](tooldef::WayBack::restore) when it completes.
    #[must_use]
    pub fn way_back(mut self, way_back: &'a dyn tooldef::WayBack) -> Self {
        self.calls = self.calls.way_back(way_back);
        self
    }

    /// Whether the checks read a JSON string holding the object or array its place expects as
    /// that value, as dispatch does with
    /// [`CallOptions::repair`](tooldef::dispatch::CallOptions::repair) on (the default). Set it
    /// as the calls will be dispatched: off, such a string is reported invalid, as dispatch
    /// will refuse it.
    #[must_use]
    pub fn repair(mut self, on: bool) -> Self {
        self.calls = self.calls.repair(on);
        self
    }

    /// Takes one chunk (the JSON of one `data:` line): calls it completes, in index order, and
    /// arguments it shows to be invalid.
    ///
    /// # Errors
    ///
    /// A chunk not in the documented shape, a piece for a call never started, or a limit.
    pub fn push(&mut self, chunk: &Value) -> Result<Vec<StreamEvent>, StreamError> {
        let n = self.count_chunk();
        let malformed = |pointer: String, message: &str| StreamError::Malformed {
            event: format!("chunk {n}"),
            pointer,
            message: message.to_owned(),
        };
        let mut out = Vec::new();
        let Some(choices) = chunk.get("choices") else {
            if let Some(e) = chunk.get("error") {
                return Err(StreamError::Provider { message: provider_message(e) });
            }
            return Err(malformed(String::new(), "a chunk has a `choices` array"));
        };
        let Value::Array(choices) = choices else {
            return Err(malformed("/choices".into(), "must be an array"));
        };
        for (c, choice) in choices.iter().enumerate() {
            let [index, delta, finish_reason] = fields(choice, ["index", "delta", "finish_reason"]);
            let choice_index = match index {
                None => 0,
                Some(v) => v.as_u64().filter(|i| *i < 1 << 16).ok_or_else(|| {
                    malformed(format!("/choices/{c}/index"), "must be a small integer")
                })?,
            };
            match delta.and_then(|d| d.get("tool_calls")) {
                None | Some(Value::Null) => {}
                Some(Value::Array(pieces)) => {
                    for (p, piece) in pieces.iter().enumerate() {
                        self.piece(choice_index, piece, &mut out).map_err(|e| match e {
                            Piece::Shape(field, message) => malformed(
                                format!("/choices/{c}/delta/tool_calls/{p}{field}"),
                                message,
                            ),
                            Piece::Stream(e) => e,
                        })?;
                    }
                }
                Some(_) => {
                    return Err(malformed(
                        format!("/choices/{c}/delta/tool_calls"),
                        "must be an array",
                    ));
                }
            }
            if finish_reason.is_some_and(|r| !r.is_null()) {
                self.finish_choice(choice_index, &mut out)?;
            }
        }
        Ok(out)
    }

    fn piece(
        &mut self,
        choice: u64,
        piece: &Value,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), Piece> {
        let [index, id, function] = fields(piece, ["index", "id", "function"]);
        let index =
            index.and_then(Value::as_u64).ok_or(Piece::Shape("/index", "must be an integer"))?;
        let [name, arguments] = function.map_or([None, None], |f| fields(f, ["name", "arguments"]));
        let arguments = text(arguments, "/function/arguments")?;
        let key = (choice << CHOICE_SHIFT) | index;
        if index < 1 << CHOICE_SHIFT && self.calls.is_open(key) {
            // The usual piece: more text for a call already named (its id and name, if
            // repeated, are the ones it started with).
            return match arguments.filter(|a| !a.is_empty()) {
                Some(delta) => self.calls.append(key, delta, out).map_err(Piece::Stream),
                None => Ok(()),
            };
        }
        let parts = (text(id, "/id")?, text(name, "/function/name")?, arguments);
        self.piece_parts(choice, index, parts, out).map_err(Piece::Stream)
    }

    /// One `tool_calls` piece, by its fields: `(id, function.name, function.arguments)`.
    pub(crate) fn piece_parts(
        &mut self,
        choice: u64,
        index: u64,
        (id, name, arguments): (Option<&str>, Option<&str>, Option<&str>),
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        if index >= 1 << CHOICE_SHIFT {
            return Err(StreamError::Malformed {
                event: format!("chunk {}", self.chunks.saturating_sub(1)),
                pointer: "/choices/delta/tool_calls/index".into(),
                message: "must be below 2^32".into(),
            });
        }
        let key = (choice << CHOICE_SHIFT) | index;
        if !self.calls.is_open(key) {
            if self.calls.is_finished(key) {
                return Err(StreamError::AlreadyFinished { index: key });
            }
            // The first piece of a call names it; anything else is a piece of nothing.
            let (Some(id), Some(name)) = (id, name) else {
                return Err(StreamError::NotStarted { index: key });
            };
            self.calls.start(key, id, name, out)?;
        }
        if let Some(delta) = arguments.filter(|a| !a.is_empty()) {
            self.calls.append(key, delta, out)?;
        }
        Ok(())
    }

    /// A choice's `finish_reason` arrived: its open calls are complete.
    pub(crate) fn finish_choice(
        &mut self,
        choice: u64,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        let due: Vec<u64> =
            self.calls.open_indexes().filter(|key| key >> CHOICE_SHIFT == choice).collect();
        for key in due {
            out.push(StreamEvent::Call(self.calls.finish(key)?));
        }
        Ok(())
    }

    /// Counts a chunk (for messages naming it).
    pub(crate) fn count_chunk(&mut self) -> u64 {
        self.chunks += 1;
        self.chunks - 1
    }

    /// Ends the stream. A call still open is an error: its choice never sent a
    /// `finish_reason`, so the stream was cut short and the call may be incomplete.
    ///
    /// # Errors
    ///
    /// [`StreamError::Unfinished`].
    pub fn finish(self) -> Result<(), StreamError> {
        self.calls.end()
    }
}

/// The fields `names` of an object, in one pass over its entries (cheaper than one hashed
/// lookup per field for the few-key objects a stream is made of).
fn fields<'v, const N: usize>(value: &'v Value, names: [&str; N]) -> [Option<&'v Value>; N] {
    let mut out = [None; N];
    if let Value::Object(m) = value {
        for (k, v) in m {
            if let Some(i) = names.iter().position(|n| *n == k) {
                out[i] = Some(v);
            }
        }
    }
    out
}

/// An optional string field of a piece.
fn text<'v>(v: Option<&'v Value>, field: &'static str) -> Result<Option<&'v str>, Piece> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(_) => Err(Piece::Shape(field, "must be a string")),
    }
}

enum Piece {
    /// The field at fault (a pointer within the piece) and what is wrong with it.
    Shape(&'static str, &'static str),
    Stream(StreamError),
}

/// Assembles the function calls of a Responses stream (the JSON of each server-sent event).
#[derive(Debug, Default)]
pub struct ResponsesStream<'a> {
    calls: CallAssembler<'a>,
}

impl<'a> ResponsesStream<'a> {
    /// A stream assembler that checks structure only.
    pub fn new() -> Self {
        ResponsesStream::default()
    }

    /// A stream assembler that also checks arguments against `tools` while they arrive.
    pub fn with_tools(tools: &'a dyn ToolLookup) -> Self {
        ResponsesStream { calls: CallAssembler::with_tools(tools) }
    }

    /// These limits instead of [`StreamLimits::DEFAULT`].
    #[must_use]
    pub fn limits(mut self, limits: StreamLimits) -> Self {
        self.calls = self.calls.limits(limits);
        self
    }

    /// Reads the calls as the rendering `way_back` says (a [`RenderedSet`](tooldef::RenderedSet),
    /// a [`MappedSet`](tooldef::MappedSet)...): the early checks take a value as its way back
    /// will (a strict mode's `null` for a parameter left out is no error), and each call is
    /// given back by [`WayBack::restore`](tooldef::WayBack::restore) when it completes.
    #[must_use]
    pub fn way_back(mut self, way_back: &'a dyn tooldef::WayBack) -> Self {
        self.calls = self.calls.way_back(way_back);
        self
    }

    /// Whether the checks read a JSON string holding the object or array its place expects as
    /// that value, as dispatch does with
    /// [`CallOptions::repair`](tooldef::dispatch::CallOptions::repair) on (the default). Set it
    /// as the calls will be dispatched: off, such a string is reported invalid, as dispatch
    /// will refuse it.
    #[must_use]
    pub fn repair(mut self, on: bool) -> Self {
        self.calls = self.calls.repair(on);
        self
    }

    /// Takes one event: a call it completes, and arguments it shows to be invalid. Events
    /// that are not about function calls (text, reasoning, lifecycle) give nothing.
    ///
    /// # Errors
    ///
    /// An event of a known type not in the documented shape, a delta for an item never
    /// added, an `error` or `response.failed` event, or a limit.
    pub fn push(&mut self, event: &Value) -> Result<Vec<StreamEvent>, StreamError> {
        let kind = event.get("type").and_then(Value::as_str).unwrap_or_default();
        let fields = EventFields::new(kind, event);
        let mut out = Vec::new();
        let is_call = || at(event, "/item/type").and_then(Value::as_str) == Some("function_call");
        let is_custom =
            || at(event, "/item/type").and_then(Value::as_str) == Some("custom_tool_call");
        match kind {
            "response.output_item.added" if is_custom() => {
                let (id, name) = (fields.string("/item/call_id")?, fields.string("/item/name")?);
                let index = fields.integer("/output_index")?;
                crate::custom::stream_added(&mut self.calls, index, id, name, &mut out)?;
            }
            "response.custom_tool_call_input.delta" => {
                let index = fields.integer("/output_index")?;
                let delta = fields.string("/delta")?;
                crate::custom::stream_delta(&mut self.calls, index, delta, &mut out)?;
            }
            "response.custom_tool_call_input.done" => {
                let index = fields.integer("/output_index")?;
                let input = fields.string("/input")?;
                crate::custom::stream_done(&mut self.calls, index, input, &mut out)?;
            }
            "response.output_item.done" if is_custom() => {
                let index = fields.integer("/output_index")?;
                if !self.calls.is_finished(index) {
                    if !self.calls.is_open(index) {
                        return Err(StreamError::NotStarted { index });
                    }
                    let input = fields.string("/item/input")?;
                    crate::custom::stream_done(&mut self.calls, index, input, &mut out)?;
                }
            }
            "response.output_item.added" if is_call() => {
                let arguments = at(event, "/item/arguments").and_then(Value::as_str);
                let (id, name) = (fields.string("/item/call_id")?, fields.string("/item/name")?);
                self.added(fields.integer("/output_index")?, id, name, arguments, &mut out)?;
            }
            "response.function_call_arguments.delta" => {
                self.delta(fields.integer("/output_index")?, fields.string("/delta")?, &mut out)?;
            }
            "response.function_call_arguments.done" => {
                self.done(
                    fields.integer("/output_index")?,
                    fields.string("/arguments")?,
                    &mut out,
                )?;
            }
            "response.output_item.done" if is_call() => {
                self.item_done(
                    fields.integer("/output_index")?,
                    fields.string("/item/arguments")?,
                    &mut out,
                )?;
            }
            "error" | "response.failed" => {
                let e = event.get("error").or_else(|| at(event, "/response/error"));
                return Err(StreamError::Provider {
                    message: e.map_or_else(|| kind.to_owned(), provider_message),
                });
            }
            _ => {}
        }
        Ok(out)
    }

    /// `response.output_item.added` for a `function_call` item.
    pub(crate) fn added(
        &mut self,
        index: u64,
        call_id: &str,
        name: &str,
        arguments: Option<&str>,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        self.calls.start(index, call_id, name, out)?;
        match arguments {
            Some(text) if !text.is_empty() => self.calls.append(index, text, out),
            _ => Ok(()),
        }
    }

    /// `response.function_call_arguments.delta`.
    pub(crate) fn delta(
        &mut self,
        index: u64,
        delta: &str,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        self.calls.append(index, delta, out)
    }

    /// `response.function_call_arguments.done`: the whole text, and the call is complete.
    pub(crate) fn done(
        &mut self,
        index: u64,
        arguments: &str,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        self.calls.replace(index, arguments, out)?;
        out.push(StreamEvent::Call(self.calls.finish(index)?));
        Ok(())
    }

    /// `response.output_item.done` for a `function_call` item: normally finished by `.done`
    /// already; the item's last word otherwise.
    pub(crate) fn item_done(
        &mut self,
        index: u64,
        arguments: &str,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        if self.calls.is_finished(index) {
            return Ok(());
        }
        if !self.calls.is_open(index) {
            return Err(StreamError::NotStarted { index });
        }
        self.done(index, arguments, out)
    }

    /// Ends the stream.
    ///
    /// # Errors
    ///
    /// [`StreamError::Unfinished`] when an item was added and never done.
    pub fn finish(self) -> Result<(), StreamError> {
        self.calls.end()
    }
}

fn provider_message(error: &Value) -> String {
    match error.get("message").and_then(Value::as_str) {
        Some(m) => m.to_owned(),
        None => error.to_string(),
    }
}
