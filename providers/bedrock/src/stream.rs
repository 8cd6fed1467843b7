//! Streamed tool calls: ConverseStream events to [`tooldef::ToolCall`]s, checked while they
//! arrive.
//!
//! A `toolUse` block opens with `contentBlockStart` (`start.toolUse` carries `toolUseId` and
//! `name`), grows by `contentBlockDelta` events whose `delta.toolUse.input` is a piece of the
//! JSON text, and closes with `contentBlockStop`; blocks are keyed by `contentBlockIndex`.
//! Text and reasoning blocks stream deltas without a start event; they are passed over.
//! Events come either wrapped as the API documents them (`{"contentBlockDelta": {…}}`, what
//! [`ConverseToolStream::push`] takes) or as an event-stream message's type and payload
//! ([`ConverseToolStream::push_typed`]). The assembling and the early checks are
//! [`tooldef::stream::CallAssembler`]'s; this module only maps events onto it.

use serde_json::Value;
use tooldef::stream::{
    CallAssembler, EventFields, StreamError, StreamEvent, StreamLimits, ToolLookup, at,
};

/// The exception events ConverseStream may send in place of a normal event.
const EXCEPTIONS: [&str; 5] = [
    "internalServerException",
    "modelStreamErrorException",
    "validationException",
    "throttlingException",
    "serviceUnavailableException",
];

/// Assembles the tool calls of a ConverseStream response.
///
/// ```
/// use serde_json::json;
/// use tooldef::stream::StreamEvent;
/// use tooldef_bedrock::ConverseToolStream;
///
/// let mut stream = ConverseToolStream::new();
/// let events = [
///     json!({"contentBlockStart": {"contentBlockIndex": 1, "start":
///         {"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather"}}}}),
///     json!({"contentBlockDelta": {"contentBlockIndex": 1, "delta":
///         {"toolUse": {"input": "{\"city\": \"Paris\"}"}}}}),
///     json!({"contentBlockStop": {"contentBlockIndex": 1}}),
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
/// assert_eq!(calls[0].id, "tooluse_1");
/// ```
#[derive(Debug, Default)]
pub struct ConverseToolStream<'a> {
    calls: CallAssembler<'a>,
}

impl<'a> ConverseToolStream<'a> {
    /// A stream assembler that checks structure only.
    pub fn new() -> Self {
        ConverseToolStream::default()
    }

    /// A stream assembler that also checks arguments against `tools` while they arrive.
    pub fn with_tools(tools: &'a dyn ToolLookup) -> Self {
        ConverseToolStream { calls: CallAssembler::with_tools(tools) }
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

    /// Takes one event in the documented wrapped form (`{"contentBlockStart": {…}}`).
    ///
    /// # Errors
    ///
    /// As [`push_typed`](Self::push_typed); also an event that is not an object with one key.
    pub fn push(&mut self, event: &Value) -> Result<Vec<StreamEvent>, StreamError> {
        match event.as_object().map(|m| (m.len(), m.iter().next())) {
            Some((1, Some((kind, payload)))) => self.push_typed(kind, payload),
            _ => Err(StreamError::Malformed {
                event: "?".into(),
                pointer: String::new(),
                message: "an event is an object with exactly one key, its type".into(),
            }),
        }
    }

    /// Takes one event given as its type (`contentBlockDelta`, …) and its payload.
    ///
    /// # Errors
    ///
    /// A tool event not in the documented shape, a `toolUse` delta for a block never
    /// started, an exception event, or a limit.
    pub fn push_typed(
        &mut self,
        kind: &str,
        payload: &Value,
    ) -> Result<Vec<StreamEvent>, StreamError> {
        let fields = EventFields::new(kind, payload);
        let mut out = Vec::new();
        match kind {
            "contentBlockStart" => {
                if at(payload, "/start/toolUse").is_none() {
                    return Ok(out);
                }
                let index = fields.integer("/contentBlockIndex")?;
                let (id, name) = (
                    fields.string("/start/toolUse/toolUseId")?,
                    fields.string("/start/toolUse/name")?,
                );
                self.calls.start(index, id, name, &mut out)?;
            }
            "contentBlockDelta" => {
                if at(payload, "/delta/toolUse").is_none() {
                    return Ok(out);
                }
                self.calls.append(
                    fields.integer("/contentBlockIndex")?,
                    fields.string("/delta/toolUse/input")?,
                    &mut out,
                )?;
            }
            "contentBlockStop" => {
                let index = fields.integer("/contentBlockIndex")?;
                if self.calls.is_open(index) {
                    out.push(StreamEvent::Call(self.calls.finish(index)?));
                } else if self.calls.is_finished(index) {
                    return Err(StreamError::AlreadyFinished { index });
                }
                // Otherwise a text block, which had no start event.
            }
            kind if EXCEPTIONS.contains(&kind) => {
                let message = payload.get("message").and_then(Value::as_str).unwrap_or(kind);
                return Err(StreamError::Provider { message: format!("{kind}: {message}") });
            }
            _ => {}
        }
        Ok(out)
    }

    /// Ends the stream.
    ///
    /// # Errors
    ///
    /// [`StreamError::Unfinished`] when a `toolUse` block never got its `contentBlockStop`.
    pub fn finish(self) -> Result<(), StreamError> {
        self.calls.end()
    }
}
