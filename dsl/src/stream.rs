//! Streamed tool calls: arguments that arrive in pieces, assembled into [`ToolCall`]s and
//! checked while they arrive.
//!
//! Owns the provider-neutral half of streaming: the [`CallAssembler`] (open calls by the
//! provider's index, their argument text, the limits that keep a hostile stream bounded), the
//! incremental JSON scanner and the early checker, and the vocabulary every provider crate's
//! accumulator speaks ([`StreamEvent`], [`StreamError`], [`ToolLookup`]). How each provider's
//! events map onto `start` / `append` / `finish` lives in that provider's crate. Does not run
//! tools: a finished call goes to [`crate::Toolbox`] like any other.
//!
//! Beyond assembling, the assembler reports an argument that *already* breaks its tool's
//! schema as soon as the offending part is complete in the stream (an enum value outside the
//! set, a number out of range, text that is not JSON, nesting past the limit; a key the tool or
//! the object does not take as soon as its closing quote arrives, before its value), so a
//! host can stop the generation early instead of paying for the rest of it:
//!
//! ```
//! use tooldef::stream::{CallAssembler, StreamEvent};
//! use tooldef::{Param, ToolDescriptor};
//!
//! let tools = vec![
//!     ToolDescriptor::builder("get_weather")
//!         .param(Param::string("city"))
//!         .param(Param::enumeration("unit", &["celsius", "fahrenheit"]))
//!         .build()
//!         .unwrap(),
//! ];
//! let mut calls = CallAssembler::with_tools(&tools);
//! let mut events = Vec::new();
//! calls.start(0, "call_1", "get_weather", &mut events).unwrap();
//! for delta in [r#"{"unit": "kel"#, r#"vin", "ci"#] {
//!     calls.append(0, delta, &mut events).unwrap();
//! }
//! // The call is not finished, but its `unit` can no longer be right:
//! let [StreamEvent::Invalid(invalid)] = events.as_slice() else { panic!("{events:?}") };
//! assert_eq!(
//!     invalid.error.model_text(),
//!     r#"invalid arguments for get_weather: /unit must be one of "celsius", "fahrenheit"; got "kelvin""#
//! );
//! ```

mod early;
pub(crate) mod scan;

use std::fmt;

use crate::arg_checks::ArgErrors;
use crate::descriptor::ToolDescriptor;
use crate::dispatch::{ArgValidator, DispatchError, DispatchErrorKind, Toolbox, closest};
use crate::registry::Snapshot;
use crate::render::{Inverse, Passes, WayBack};
use crate::tool::{Arguments, ToolCall, ToolResult};
use early::{Early, Finding};
use scan::Scanner;

/// Where an assembler finds the descriptor of a tool the model names.
pub trait ToolLookup {
    /// The descriptor of the tool named `name`, if there is one.
    fn find(&self, name: &str) -> Option<&ToolDescriptor>;

    /// The names of every tool, for the "did you mean" of an unknown name.
    fn names(&self) -> Vec<&str>;
}

impl ToolLookup for [ToolDescriptor] {
    fn find(&self, name: &str) -> Option<&ToolDescriptor> {
        self.iter().find(|d| d.name.as_str() == name)
    }

    fn names(&self) -> Vec<&str> {
        self.iter().map(|d| d.name.as_str()).collect()
    }
}

impl ToolLookup for Vec<ToolDescriptor> {
    fn find(&self, name: &str) -> Option<&ToolDescriptor> {
        self.as_slice().find(name)
    }

    fn names(&self) -> Vec<&str> {
        self.as_slice().names()
    }
}

impl ToolLookup for Toolbox {
    fn find(&self, name: &str) -> Option<&ToolDescriptor> {
        self.get(name).map(|e| e.descriptor())
    }

    fn names(&self) -> Vec<&str> {
        Toolbox::names(self).collect()
    }
}

impl ToolLookup for Snapshot {
    fn find(&self, name: &str) -> Option<&ToolDescriptor> {
        self.get(name).map(|e| e.descriptor())
    }

    fn names(&self) -> Vec<&str> {
        self.descriptors().map(|d| d.name.as_str()).collect()
    }
}

/// `value.pointer(pointer)` without the allocations `serde_json` makes for each token (what
/// every event of a stream goes through); for pointers without `~` escapes, as event fields
/// are.
pub fn at<'v>(value: &'v serde_json::Value, pointer: &str) -> Option<&'v serde_json::Value> {
    pointer.split('/').skip(1).try_fold(value, |v, token| match v {
        serde_json::Value::Object(m) => m.get(token),
        serde_json::Value::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    })
}

/// The fields of one provider event, read with every failure a [`StreamError::Malformed`] that
/// names the event and the JSON pointer: what each provider crate's accumulator reads its events
/// with.
#[derive(Clone, Copy, Debug)]
pub struct EventFields<'v> {
    event: &'v str,
    value: &'v serde_json::Value,
}

impl<'v> EventFields<'v> {
    /// The fields of `value`, an event the provider calls `event` (its type).
    pub fn new(event: &'v str, value: &'v serde_json::Value) -> Self {
        EventFields { event, value }
    }

    /// A [`StreamError::Malformed`] for this event at `pointer`.
    pub fn malformed(&self, pointer: &str, message: &str) -> StreamError {
        StreamError::Malformed {
            event: self.event.to_owned(),
            pointer: pointer.to_owned(),
            message: message.to_owned(),
        }
    }

    /// The non-negative integer at `pointer`.
    ///
    /// # Errors
    ///
    /// [`StreamError::Malformed`] when it is absent or not such an integer.
    pub fn integer(&self, pointer: &str) -> Result<u64, StreamError> {
        at(self.value, pointer)
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| self.malformed(pointer, "must be an integer"))
    }

    /// The string at `pointer`.
    ///
    /// # Errors
    ///
    /// [`StreamError::Malformed`] when it is absent or not a string.
    pub fn string(&self, pointer: &str) -> Result<&'v str, StreamError> {
        at(self.value, pointer)
            .and_then(serde_json::Value::as_str)
            .ok_or_else(|| self.malformed(pointer, "must be a string"))
    }
}

/// The bounds that keep one stream's memory finite whatever the provider sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct StreamLimits {
    /// Calls one stream may start.
    pub max_calls: usize,
    /// Bytes of argument text one call may carry.
    pub max_argument_bytes: usize,
    /// Bytes of argument text all calls of the stream may carry together.
    pub max_stream_bytes: usize,
    /// Bytes of a call's id or tool name.
    pub max_name_bytes: usize,
}

impl StreamLimits {
    /// 128 calls, 1 MiB of arguments per call and 8 MiB per stream, 512-byte ids and names.
    pub const DEFAULT: StreamLimits = StreamLimits {
        max_calls: 128,
        max_argument_bytes: 1 << 20,
        max_stream_bytes: 8 << 20,
        max_name_bytes: 512,
    };

    /// These limits with another number of calls.
    #[must_use]
    pub const fn max_calls(mut self, n: usize) -> Self {
        self.max_calls = n;
        self
    }

    /// These limits with another per-call argument size.
    #[must_use]
    pub const fn max_argument_bytes(mut self, n: usize) -> Self {
        self.max_argument_bytes = n;
        self
    }

    /// These limits with another per-stream argument size.
    #[must_use]
    pub const fn max_stream_bytes(mut self, n: usize) -> Self {
        self.max_stream_bytes = n;
        self
    }

    /// These limits with another bound on a call's id and tool name, in bytes.
    ///
    /// ```
    /// use tooldef::stream::{CallAssembler, StreamError, StreamLimits};
    ///
    /// let limits = StreamLimits::DEFAULT
    ///     .max_calls(2)
    ///     .max_argument_bytes(64)
    ///     .max_stream_bytes(100)
    ///     .max_name_bytes(8);
    /// assert_eq!(
    ///     (limits.max_calls, limits.max_argument_bytes, limits.max_stream_bytes, limits.max_name_bytes),
    ///     (2, 64, 100, 8)
    /// );
    /// let mut calls = CallAssembler::new().limits(limits);
    /// let mut events = Vec::new();
    /// assert_eq!(
    ///     calls.start(0, "call_1", "get_the_weather", &mut events),
    ///     Err(StreamError::TooLarge { index: 0, what: "name", limit: 8 })
    /// );
    /// assert_eq!(calls.start(0, "call_1", "search", &mut events), Ok(()));
    /// ```
    #[must_use]
    pub const fn max_name_bytes(mut self, n: usize) -> Self {
        self.max_name_bytes = n;
        self
    }
}

impl Default for StreamLimits {
    fn default() -> Self {
        StreamLimits::DEFAULT
    }
}

/// A stream that cannot be assembled: the provider broke its own protocol or a limit. Each
/// message names the call (by the provider's index) or the event at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// An event does not have the shape the provider documents.
    #[error("event {event}: {pointer}: {message}")]
    Malformed {
        /// Which event (the provider's event type, or its position in the stream).
        event: String,
        /// The JSON pointer of the part at fault, within the event.
        pointer: String,
        /// What is wrong.
        message: String,
    },
    /// Arguments arrived for a call that was never started.
    #[error("arguments arrived for the tool call at index {index}, which was never started")]
    NotStarted {
        /// The provider's index of the call.
        index: u64,
    },
    /// A call was started twice.
    #[error("the tool call at index {index} was started twice")]
    AlreadyStarted {
        /// The provider's index of the call.
        index: u64,
    },
    /// Arguments arrived for a call after it finished.
    #[error("arguments arrived for the tool call at index {index} after it finished")]
    AlreadyFinished {
        /// The provider's index of the call.
        index: u64,
    },
    /// More calls than [`StreamLimits::max_calls`].
    #[error("the stream started more than {limit} tool calls")]
    TooManyCalls {
        /// The limit.
        limit: usize,
    },
    /// A call's arguments, id or name, or the stream's arguments together, exceed a limit.
    #[error("the {what} of the tool call at index {index} exceeds {limit} bytes")]
    TooLarge {
        /// The provider's index of the call.
        index: u64,
        /// What is too large (`arguments`, `id`, `name`, `stream's arguments`).
        what: &'static str,
        /// The limit.
        limit: usize,
    },
    /// The stream ended while calls were still open.
    #[error("the stream ended before these tool calls were finished: {}", list(.open))]
    Unfinished {
        /// The open calls, as `index (name)`.
        open: Vec<String>,
    },
    /// The provider reported an error inside the stream.
    #[error("the provider reported an error in the stream: {message}")]
    Provider {
        /// The provider's message.
        message: String,
    },
}

fn list(items: &[String]) -> String {
    items.join(", ")
}

/// What an accumulator yields while a stream arrives.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StreamEvent {
    /// A call is complete: hand it to dispatch.
    Call(ToolCall),
    /// A call still arriving (or just completed) already fails; the host may stop early.
    Invalid(Invalid),
}

/// A call whose arguments are known to fail before the stream ends.
#[derive(Clone, Debug, PartialEq)]
pub struct Invalid {
    /// The provider's index of the call.
    pub index: u64,
    /// The call's id.
    pub call_id: String,
    /// The tool's name as the model sent it.
    pub name: String,
    /// What is wrong: unknown tool, malformed JSON, or invalid arguments (the problems found
    /// since the last report for this call). Its
    /// [`model_text`](DispatchError::model_text) is what the model reads.
    pub error: DispatchError,
}

impl Invalid {
    /// The error result answering the call, for a host that stops here.
    pub fn to_result(&self) -> ToolResult {
        let call =
            ToolCall { id: self.call_id.clone(), name: self.name.clone(), ..ToolCall::default() };
        self.error.to_result(&call)
    }
}

/// One call still arriving.
struct Open<'a> {
    index: u64,
    id: String,
    name: String,
    text: String,
    scanner: Scanner,
    early: Option<Early<'a>>,
}

/// The provider-neutral assembler under every provider's accumulator: calls opened by the
/// provider's index, argument text appended as it arrives, each call scanned and checked
/// incrementally (one pass over every byte, each completed value parsed once).
///
/// Without tools ([`CallAssembler::new`]) it only assembles and checks that the text is JSON;
/// with tools ([`CallAssembler::with_tools`]) it also checks every completed value against
/// the schema of the tool being called and reports an unknown tool at the start.
pub struct CallAssembler<'a> {
    tools: Option<&'a dyn ToolLookup>,
    way_back: Option<&'a dyn WayBack>,
    /// Whether dispatch repairs a JSON string holding the object or array its place expects
    /// ([`CallOptions::repair`](crate::dispatch::CallOptions::repair)).
    repair: bool,
    validator: ArgValidator,
    limits: StreamLimits,
    open: Vec<Open<'a>>,
    finished: Vec<u64>,
    started: usize,
    bytes: usize,
}

impl Default for CallAssembler<'_> {
    fn default() -> Self {
        CallAssembler::new()
    }
}

impl fmt::Debug for CallAssembler<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallAssembler")
            .field("open", &self.open.iter().map(|o| o.index).collect::<Vec<_>>())
            .field("finished", &self.finished)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl<'a> CallAssembler<'a> {
    /// An assembler that does not know the tools (structure checks only).
    pub fn new() -> Self {
        CallAssembler {
            tools: None,
            way_back: None,
            repair: true,
            validator: ArgValidator::new(),
            limits: StreamLimits::DEFAULT,
            open: Vec::new(),
            finished: Vec::new(),
            started: 0,
            bytes: 0,
        }
    }

    /// An assembler that checks arguments against the tools' schemas while they arrive.
    pub fn with_tools(tools: &'a dyn ToolLookup) -> Self {
        CallAssembler { tools: Some(tools), ..CallAssembler::new() }
    }

    /// These limits instead of [`StreamLimits::DEFAULT`].
    #[must_use]
    pub fn limits(mut self, limits: StreamLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Reads the calls as the rendering `way_back` says (a [`RenderedSet`](crate::RenderedSet),
    /// a [`MappedSet`](crate::MappedSet)...): the early checks take a value as its way back
    /// will (a strict mode's `null` for a parameter left out is no error), and each finished
    /// call is given back by [`WayBack::restore`].
    #[must_use]
    pub fn way_back(mut self, way_back: &'a dyn WayBack) -> Self {
        self.way_back = Some(way_back);
        self
    }

    /// Whether the checks read a JSON string holding the object or array its place expects as
    /// that value, as dispatch does with [`CallOptions::repair`](crate::dispatch::CallOptions::repair)
    /// on (the default). Set it as the calls will be dispatched: off, such a string is an early
    /// error, as dispatch will refuse it.
    #[must_use]
    pub fn repair(mut self, on: bool) -> Self {
        self.repair = on;
        self
    }

    /// Whether the call at `index` is open (started, not finished).
    pub fn is_open(&self, index: u64) -> bool {
        self.open.iter().any(|o| o.index == index)
    }

    /// Whether the call at `index` has finished.
    pub fn is_finished(&self, index: u64) -> bool {
        self.finished.contains(&index)
    }

    /// The indexes of the open calls, in the order they started.
    pub fn open_indexes(&self) -> impl ExactSizeIterator<Item = u64> + '_ {
        self.open.iter().map(|o| o.index)
    }

    /// Whether no call is open.
    pub fn is_idle(&self) -> bool {
        self.open.is_empty()
    }

    /// Opens the call at `index`. An unknown tool is reported at once as an
    /// [`StreamEvent::Invalid`] pushed on `out` (the call is still assembled).
    ///
    /// # Errors
    ///
    /// The index was already used, too many calls, or an id or name beyond the limits.
    pub fn start(
        &mut self,
        index: u64,
        id: &str,
        name: &str,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        if self.is_open(index) || self.is_finished(index) {
            return Err(StreamError::AlreadyStarted { index });
        }
        if self.started >= self.limits.max_calls {
            return Err(StreamError::TooManyCalls { limit: self.limits.max_calls });
        }
        let limit = self.limits.max_name_bytes;
        if id.len() > limit {
            return Err(StreamError::TooLarge { index, what: "id", limit });
        }
        if name.len() > limit {
            return Err(StreamError::TooLarge { index, what: "name", limit });
        }
        self.started += 1;
        let mut early = None;
        if let Some(tools) = self.tools {
            // A mapped set's tool is found under its original name, and its arguments are read
            // under the names the model was sent.
            let original = self.way_back.map_or(name, |w| w.original_name(name));
            match tools.find(original) {
                Some(d) => {
                    let (d, passes) = match self.way_back {
                        Some(w) => (
                            w.wire_descriptor(name).unwrap_or(d),
                            w.inverse_of(name).map_or(Passes::NONE, Inverse::passes),
                        ),
                        None => (d, Passes::NONE),
                    };
                    early = Some(Early::new(d, passes, self.repair));
                }
                None => {
                    let names = tools.names();
                    out.push(StreamEvent::Invalid(Invalid {
                        index,
                        call_id: id.to_owned(),
                        name: name.to_owned(),
                        error: DispatchError::new(
                            name.to_owned(),
                            DispatchErrorKind::UnknownTool {
                                suggestion: closest(name, names.iter().copied()).map(str::to_owned),
                                available: names.into_iter().map(str::to_owned).collect(),
                            },
                        ),
                    }));
                }
            }
        }
        self.open.push(Open {
            index,
            id: id.to_owned(),
            name: name.to_owned(),
            text: String::new(),
            scanner: Scanner::default(),
            early,
        });
        Ok(())
    }

    /// Appends argument text to the open call at `index`, scans it, and pushes on `out` an
    /// [`StreamEvent::Invalid`] for what it already breaks.
    ///
    /// # Errors
    ///
    /// The call was never started or has finished, or the text goes beyond the limits.
    pub fn append(
        &mut self,
        index: u64,
        delta: &str,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        let Some(at) = self.open.iter().position(|o| o.index == index) else {
            return Err(self.not_open(index));
        };
        let limits = self.limits;
        let call = &mut self.open[at];
        if call.text.len() + delta.len() > limits.max_argument_bytes {
            return Err(StreamError::TooLarge {
                index,
                what: "arguments",
                limit: limits.max_argument_bytes,
            });
        }
        if self.bytes + delta.len() > limits.max_stream_bytes {
            return Err(StreamError::TooLarge {
                index,
                what: "stream's arguments",
                limit: limits.max_stream_bytes,
            });
        }
        self.bytes += delta.len();
        call.text.push_str(delta);
        scan(call, &self.validator, out);
        Ok(())
    }

    /// Replaces the argument text of the open call at `index` (a provider that sends the whole
    /// arguments at the end, or in one piece), then scans it like [`append`](Self::append).
    ///
    /// # Errors
    ///
    /// As [`append`](Self::append).
    pub fn replace(
        &mut self,
        index: u64,
        text: &str,
        out: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        let Some(at) = self.open.iter().position(|o| o.index == index) else {
            return Err(self.not_open(index));
        };
        let call = &mut self.open[at];
        if call.text == text {
            return Ok(());
        }
        if !text.starts_with(call.text.as_str()) {
            // Not a continuation: start the scan over (nothing reported is taken back).
            tracing::debug!(index, "tool call arguments replaced by a different text");
            self.bytes -= call.text.len();
            call.text.clear();
            call.scanner = Scanner::default();
        }
        let rest = &text[call.text.len()..];
        self.append(index, rest, out)
    }

    /// Finishes the call at `index` and returns it. Its arguments are the text as it arrived
    /// (`{}` when none arrived), for dispatch to decode straight into the typed parameters.
    ///
    /// # Errors
    ///
    /// The call was never started or has already finished.
    pub fn finish(&mut self, index: u64) -> Result<ToolCall, StreamError> {
        let Some(at) = self.open.iter().position(|o| o.index == index) else {
            return Err(self.not_open(index));
        };
        let call = self.open.remove(at);
        self.finished.push(index);
        let text = if call.scanner.is_blank() { "{}".to_owned() } else { call.text };
        Ok(self.restore(ToolCall {
            id: call.id,
            name: call.name,
            arguments: Arguments::Text(text),
        }))
    }

    /// Finishes every open call, in the order they started.
    pub fn finish_all(&mut self) -> Vec<ToolCall> {
        let indexes: Vec<u64> = self.open.iter().map(|o| o.index).collect();
        indexes.into_iter().filter_map(|i| self.finish(i).ok()).collect()
    }

    /// Checks that no call is left open (at the end of a stream whose provider closes each
    /// call explicitly).
    ///
    /// # Errors
    ///
    /// [`StreamError::Unfinished`] naming the open calls.
    pub fn end(&self) -> Result<(), StreamError> {
        if self.open.is_empty() {
            return Ok(());
        }
        let open = self.open.iter().map(|o| format!("{} ({})", o.index, o.name)).collect();
        Err(StreamError::Unfinished { open })
    }

    /// `call` as the [`way_back`](Self::way_back) gives it back (unchanged without one): what a
    /// provider whose calls arrive whole yields, and checks with
    /// [`check_whole`](Self::check_whole).
    pub fn restore(&self, call: ToolCall) -> ToolCall {
        match self.way_back {
            Some(way_back) => way_back.restore(call),
            None => call,
        }
    }

    /// Checks a call that arrived whole (a provider that does not stream arguments) the way
    /// streamed ones are checked, pushing an [`StreamEvent::Invalid`] when it fails. Give it the
    /// call as [`restore`](Self::restore) gives it back.
    pub fn check_whole(&self, index: u64, call: &ToolCall, out: &mut Vec<StreamEvent>) {
        let Some(tools) = self.tools else { return };
        let invalid = |error| {
            StreamEvent::Invalid(Invalid {
                index,
                call_id: call.id.clone(),
                name: call.name.clone(),
                error,
            })
        };
        let Some(d) = tools.find(&call.name) else {
            let names = tools.names();
            out.push(invalid(DispatchError::new(
                call.name.clone(),
                DispatchErrorKind::UnknownTool {
                    suggestion: closest(&call.name, names.iter().copied()).map(str::to_owned),
                    available: names.into_iter().map(str::to_owned).collect(),
                },
            )));
            return;
        };
        // Read as dispatch reads them: a key given twice or nesting past the limit is an
        // argument error at its pointer, in the same words.
        let value = match &call.arguments {
            Arguments::Json(v) => {
                match crate::json_text::depth_exceeds(v, crate::json_text::MAX_DEPTH) {
                    None => std::borrow::Cow::Borrowed(v),
                    Some(pointer) => {
                        out.push(invalid(crate::dispatch::too_deep(call.name.clone(), pointer)));
                        return;
                    }
                }
            }
            Arguments::Text(t) if t.trim().is_empty() => {
                std::borrow::Cow::Owned(serde_json::Value::Object(serde_json::Map::new()))
            }
            Arguments::Text(t) => match crate::json_text::parse_arguments(t.as_bytes()) {
                Ok(v) => std::borrow::Cow::Owned(v),
                Err(problem) => {
                    out.push(invalid(crate::dispatch::unreadable(d, problem)));
                    return;
                }
            },
        };
        if let Err(errors) = self.validator.check_args(d, &value) {
            // What dispatch reads as the object or array a string holds is no error, where it
            // repairs.
            if self.repair
                && crate::dispatch::repair(d, call).is_some_and(|(c, _)| {
                    self.validator.check_args(d, &json_of(&c.arguments)).is_ok()
                })
            {
                return;
            }
            out.push(invalid(DispatchError::new(
                call.name.clone(),
                DispatchErrorKind::InvalidArguments { errors },
            )));
        }
    }

    fn not_open(&self, index: u64) -> StreamError {
        if self.is_finished(index) {
            StreamError::AlreadyFinished { index }
        } else {
            StreamError::NotStarted { index }
        }
    }
}

/// The arguments as a JSON value (`null` for text that is not JSON).
fn json_of(arguments: &Arguments) -> std::borrow::Cow<'_, serde_json::Value> {
    match arguments {
        Arguments::Json(v) => std::borrow::Cow::Borrowed(v),
        Arguments::Text(t) => std::borrow::Cow::Owned(
            crate::json_text::parse_arguments(t.as_bytes()).unwrap_or(serde_json::Value::Null),
        ),
    }
}

/// Scans what was appended to `call`, pushing what the early checker finds.
fn scan(call: &mut Open<'_>, validator: &ArgValidator, out: &mut Vec<StreamEvent>) {
    if call.scanner.error().is_some() {
        return;
    }
    let Open { index, id, name, text, scanner, early } = call;
    let mut found: Option<DispatchError> = None;
    let mut errors = ArgErrors::default();
    let result = scanner.advance(text, &mut |s, done| {
        let Some(early) = early.as_mut() else { return };
        if found.is_some() {
            return;
        }
        match early.check(validator, s, text, &done) {
            None => {}
            Some(Finding::Invalid(e)) => errors.0.extend(e),
            Some(Finding::Malformed(message)) => {
                found = Some(DispatchError::new(
                    name.clone(),
                    DispatchErrorKind::MalformedJson { message },
                ));
            }
        }
    });
    if let Err(e) = result {
        found = Some(if e.too_deep {
            // Well-formed so far: the array or object that crosses the limit is an argument
            // error at its pointer, worded as dispatch words it.
            crate::dispatch::too_deep(name.clone(), early::frames_pointer(scanner.frames(), text))
        } else {
            DispatchError::new(
                name.clone(),
                DispatchErrorKind::MalformedJson {
                    message: format!("{} at byte {}", e.message, e.at),
                },
            )
        });
    }
    let mut report = |error| {
        out.push(StreamEvent::Invalid(Invalid {
            index: *index,
            call_id: id.clone(),
            name: name.clone(),
            error,
        }));
    };
    if !errors.0.is_empty() {
        report(DispatchError::new(name.clone(), DispatchErrorKind::InvalidArguments { errors }));
    }
    if let Some(error) = found {
        report(error);
    }
}

#[cfg(test)]
mod tests;
