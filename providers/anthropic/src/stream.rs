//! Streamed tool calls: Messages API stream events to [`tooldef::ToolCall`]s, checked while
//! they arrive.
//!
//! A `tool_use` block opens with `content_block_start` (its `id` and `name`; `input` is `{}`),
//! grows by `content_block_delta` events whose delta is an `input_json_delta` with a
//! `partial_json` piece, and closes with `content_block_stop`; blocks are keyed by `index`,
//! and several may be open at once. Text, thinking and server-tool blocks are not ours: their
//! events are passed over. The assembling and the early checks are
//! [`tooldef::stream::CallAssembler`]'s; this module only maps events onto it.

use serde_json::Value;
use tooldef::stream::{
    CallAssembler, EventFields, StreamError, StreamEvent, StreamLimits, ToolLookup, at,
};

/// How many blocks that are not tool calls one stream may open (bounded memory).
const MAX_OTHER_BLOCKS: usize = 4096;

/// Assembles the tool calls of a Messages stream (the JSON of each event's `data:` line).
///
/// ```
/// use serde_json::json;
/// use tooldef::stream::StreamEvent;
/// use tooldef_anthropic::ToolUseStream;
///
/// let mut stream = ToolUseStream::new();
/// let events = [
///     json!({"type": "content_block_start", "index": 1, "content_block":
///         {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}}),
///     json!({"type": "content_block_delta", "index": 1, "delta":
///         {"type": "input_json_delta", "partial_json": "{\"city\": \"Paris\"}"}}),
///     json!({"type": "content_block_stop", "index": 1}),
/// ];
/// let mut calls = Vec::new();
/// for event in &events {
///     for out in stream.push(event).unwrap() {
///         if let StreamEvent::Call(call) = out {
///             calls.push(call);
///         }
///     }
/// }
/// stream.finish().unwrap();
/// assert_eq!(calls[0].id, "toolu_1");
/// ```
#[derive(Debug, Default)]
pub struct ToolUseStream<'a> {
    calls: CallAssembler<'a>,
    /// Indexes of blocks that are not `tool_use` (their deltas and stops are passed over).
    other: Vec<u64>,
}

impl<'a> ToolUseStream<'a> {
    /// A stream assembler that checks structure only.
    pub fn new() -> Self {
        ToolUseStream::default()
    }

    /// A stream assembler that also checks arguments against `tools` while they arrive.
    pub fn with_tools(tools: &'a dyn ToolLookup) -> Self {
        ToolUseStream { calls: CallAssembler::with_tools(tools), other: Vec::new() }
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

    /// Takes one event: a call it completes, and arguments it shows to be invalid.
    ///
    /// # Errors
    ///
    /// An event of a known type not in the documented shape, an `input_json_delta` for a
    /// block never started, an `error` event, or a limit.
    pub fn push(&mut self, event: &Value) -> Result<Vec<StreamEvent>, StreamError> {
        let kind = event.get("type").and_then(Value::as_str).unwrap_or_default();
        let fields = EventFields::new(kind, event);
        let mut out = Vec::new();
        match kind {
            "content_block_start" => {
                let index = fields.integer("/index")?;
                if at(event, "/content_block/type").and_then(Value::as_str) != Some("tool_use") {
                    if self.other.len() >= MAX_OTHER_BLOCKS {
                        return Err(
                            fields.malformed("/index", "too many content blocks in one stream")
                        );
                    }
                    self.other.push(index);
                    return Ok(out);
                }
                let (id, name) =
                    (fields.string("/content_block/id")?, fields.string("/content_block/name")?);
                self.calls.start(index, id, name, &mut out)?;
                // `input` is `{}` when the arguments stream; a non-empty one came whole.
                match at(event, "/content_block/input") {
                    Some(Value::Object(m)) if !m.is_empty() => {
                        let text = Value::Object(m.clone()).to_string();
                        self.calls.append(index, &text, &mut out)?;
                    }
                    _ => {}
                }
            }
            "content_block_delta" => {
                let index = fields.integer("/index")?;
                if at(event, "/delta/type").and_then(Value::as_str) != Some("input_json_delta") {
                    return Ok(out);
                }
                if self.other.contains(&index) {
                    // A server tool's input (web search and the like) is not ours to run.
                    return Ok(out);
                }
                self.calls.append(index, fields.string("/delta/partial_json")?, &mut out)?;
            }
            "content_block_stop" => {
                let index = fields.integer("/index")?;
                if self.calls.is_open(index) {
                    out.push(StreamEvent::Call(self.calls.finish(index)?));
                } else if !self.other.contains(&index) {
                    return Err(if self.calls.is_finished(index) {
                        StreamError::AlreadyFinished { index }
                    } else {
                        StreamError::NotStarted { index }
                    });
                }
            }
            "error" => {
                let message = at(event, "/error/message")
                    .and_then(Value::as_str)
                    .map_or_else(|| event.to_string(), str::to_owned);
                return Err(StreamError::Provider { message });
            }
            _ => {}
        }
        Ok(out)
    }

    /// Ends the stream.
    ///
    /// # Errors
    ///
    /// [`StreamError::Unfinished`] when a `tool_use` block never got its `content_block_stop`.
    pub fn finish(self) -> Result<(), StreamError> {
        self.calls.end()
    }
}
