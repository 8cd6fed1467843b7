//! The typed bridge to `async-openai` (feature `async-openai`): tools as its request types,
//! its assistant messages and output items as [`ToolCall`]s, [`ToolResult`]s as its tool
//! messages, and its stream types fed to [`ChatStream`] and [`ResponsesStream`].
//!
//! Tools go through the same renderer as the JSON path and are then read by `async-openai`'s
//! own serde, so a typed tool says exactly what the JSON says (the tests serialize it back and
//! compare). Results say the same as the JSON path too, with one difference in form:
//! `async-openai` always writes an image part's `detail`, as `"auto"` (the API's default) where
//! the JSON path leaves it out. Only `async-openai`'s type features are used (`chat-completion-types`,
//! `response-types`, no default features): no HTTP client is built.
//!
//! The way back: under strict mode, keep the renderings (render with
//! [`Renderer::render_set`], convert each with [`chat_tool`] or [`responses_tool`]) and give
//! the calls [`tool_calls`] or [`output_tool_calls`] read back through them
//! ([`WayBack::restore_all`](tooldef::WayBack::restore_all)) before dispatch, as the JSON path
//! does (see the crate docs).
//!
//! ```
//! use tooldef::{Param, LossPolicy, ToolDescriptor};
//! use tooldef_openai::{OpenAiRenderer, typed};
//!
//! static WEATHER: ToolDescriptor = ToolDescriptor::new("get_weather")
//!     .description("Get the weather.")
//!     .params(const { &[Param::string("city")] });
//!
//! let tools = typed::chat_tools(&OpenAiRenderer::chat(), &[&WEATHER], LossPolicy::Refuse).unwrap();
//! let async_openai::types::chat::ChatCompletionTools::Function(tool) = &tools[0] else {
//!     panic!()
//! };
//! assert_eq!(tool.function.name, "get_weather");
//! ```

use async_openai::types::chat::{
    ChatCompletionMessageToolCalls, ChatCompletionRequestToolMessage,
    ChatCompletionRequestToolMessageContent, ChatCompletionResponseMessage, ChatCompletionTools,
    CreateChatCompletionStreamResponse,
};
use async_openai::types::responses::{
    FunctionCallOutput, FunctionCallOutputItemParam, OutputItem, ResponseStreamEvent, Tool,
};
use tooldef::stream::{StreamError, StreamEvent};
use tooldef::{
    Arguments, Carried, Content, ContentNote, LossPolicy, RenderError, Rendered, Renderer,
    ResultMessage, ToolCall, ToolDescriptor, ToolResult,
};

use crate::calls::{chat_tool_text, responses_function_call_output};
use crate::render::{Api, OpenAiRenderer};
use crate::stream::{ChatStream, ResponsesStream};

/// Why tools could not be given as `async-openai` types.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TypedError {
    /// The tool could not be rendered.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// The renderer is for the other API (a Responses renderer for Chat tools, or the reverse).
    #[error("{function} needs a renderer for the {wanted} API; this one renders for {got}")]
    WrongApi {
        /// The function called.
        function: &'static str,
        /// The API it needs.
        wanted: &'static str,
        /// The renderer's API.
        got: &'static str,
    },
    /// `async-openai`'s types do not read the rendered JSON (a version whose types lag the API).
    #[error("async-openai's {target} does not read the rendering of {tool}: {message}")]
    Shape {
        /// The tool.
        tool: String,
        /// The `async-openai` type.
        target: &'static str,
        /// What serde said.
        message: String,
    },
}

fn api_name(api: Api) -> &'static str {
    match api {
        Api::Chat => "Chat Completions",
        Api::Responses => "Responses",
    }
}

fn read<T: serde::de::DeserializeOwned>(
    rendered: &Rendered,
    target: &'static str,
) -> Result<T, TypedError> {
    serde_json::from_str(rendered.json()).map_err(|e| TypedError::Shape {
        tool: rendered.name().to_owned(),
        target,
        message: e.to_string(),
    })
}

/// One Chat Completions tool (rendered by a Chat renderer) as `ChatCompletionTools`.
///
/// # Errors
///
/// [`TypedError::Shape`] when `async-openai` does not read it (a Responses rendering, say).
pub fn chat_tool(rendered: &Rendered) -> Result<ChatCompletionTools, TypedError> {
    read(rendered, "ChatCompletionTools")
}

/// One Responses tool (rendered by a Responses renderer) as `responses::Tool`.
///
/// # Errors
///
/// [`TypedError::Shape`] when `async-openai` does not read it.
pub fn responses_tool(rendered: &Rendered) -> Result<Tool, TypedError> {
    read(rendered, "responses::Tool")
}

/// The tools of one Chat Completions request, for `CreateChatCompletionRequest::tools`.
///
/// # Errors
///
/// The renderer is not a Chat one, a tool fails to render (or the set breaks a limit), or
/// [`TypedError::Shape`].
pub fn chat_tools(
    renderer: &OpenAiRenderer,
    tools: &[&ToolDescriptor],
    policy: LossPolicy,
) -> Result<Vec<ChatCompletionTools>, TypedError> {
    if renderer.api() != Api::Chat {
        return Err(TypedError::WrongApi {
            function: "chat_tools",
            wanted: api_name(Api::Chat),
            got: api_name(renderer.api()),
        });
    }
    renderer.render_set(tools, policy)?.iter().map(chat_tool).collect()
}

/// The tools of one Responses request, for `CreateResponse::tools`.
///
/// # Errors
///
/// The renderer is not a Responses one, a tool fails to render, or [`TypedError::Shape`].
pub fn responses_tools(
    renderer: &OpenAiRenderer,
    tools: &[&ToolDescriptor],
    policy: LossPolicy,
) -> Result<Vec<Tool>, TypedError> {
    if renderer.api() != Api::Responses {
        return Err(TypedError::WrongApi {
            function: "responses_tools",
            wanted: api_name(Api::Responses),
            got: api_name(renderer.api()),
        });
    }
    renderer.render_set(tools, policy)?.iter().map(responses_tool).collect()
}

/// The tool calls of a Chat Completions assistant message, in order; a custom tool call gives
/// the arguments `{"input": <text>}`, as [`chat_tool_calls`](crate::chat_tool_calls) does.
pub fn tool_calls(message: &ChatCompletionResponseMessage) -> Vec<ToolCall> {
    message.tool_calls.as_deref().map(tool_calls_of).unwrap_or_default()
}

/// [`tool_calls`] for a bare list of `ChatCompletionMessageToolCalls` (what an assistant
/// request message carries).
pub fn tool_calls_of(calls: &[ChatCompletionMessageToolCalls]) -> Vec<ToolCall> {
    calls
        .iter()
        .map(|c| match c {
            ChatCompletionMessageToolCalls::Function(f) => ToolCall {
                id: f.id.clone(),
                name: f.function.name.clone(),
                arguments: Arguments::Text(f.function.arguments.clone()),
            },
            ChatCompletionMessageToolCalls::Custom(c) => crate::custom::custom_call(
                c.id.clone(),
                c.custom_tool.name.clone(),
                c.custom_tool.input.clone(),
            ),
        })
        .collect()
}

/// The `function_call` items of a Responses output, in order; the id is the `call_id` the
/// output item must echo.
pub fn output_tool_calls(output: &[OutputItem]) -> Vec<ToolCall> {
    output
        .iter()
        .filter_map(|item| match item {
            OutputItem::FunctionCall(f) => Some(ToolCall {
                id: f.call_id.clone(),
                name: f.name.clone(),
                arguments: Arguments::Text(f.arguments.clone()),
            }),
            _ => None,
        })
        .collect()
}

/// The Chat Completions tool message answering a call (what
/// [`chat_tool_message`](crate::chat_tool_message) writes as JSON), with the same notes.
pub fn tool_message(result: &ToolResult) -> ResultMessage<ChatCompletionRequestToolMessage> {
    chat_tool_text(result).map(|text| ChatCompletionRequestToolMessage {
        content: ChatCompletionRequestToolMessageContent::Text(text),
        tool_call_id: result.call_id.clone(),
    })
}

/// The Responses `function_call_output` input item answering a call (what
/// [`responses_function_call_output`] writes as JSON), with the same notes.
///
/// `async-openai` writes an image part's `detail` always: `"auto"`, the API's default, where
/// the JSON path leaves it out (the same request, one field longer).
pub fn function_call_output(result: &ToolResult) -> ResultMessage<FunctionCallOutputItemParam> {
    let json = responses_function_call_output(result);
    let mut notes = json.notes;
    let output = match serde_json::from_value::<FunctionCallOutput>(json.message["output"].clone())
    {
        Ok(output) => output,
        // Text, image and file parts are what async-openai's content types hold; should a
        // version refuse them, the text alone still answers the call, and each other piece is
        // reported as not carried.
        Err(e) => {
            tracing::warn!(tool = %result.name, error = %e, "function call output sent as text only");
            for (i, c) in result.content.iter().enumerate() {
                if !matches!(c, Content::Text { .. })
                    && !notes.iter().any(|n| n.index == i && n.carried == Carried::NotCarried)
                {
                    notes.retain(|n| n.index != i);
                    let reason = format!("async-openai's output types refused it: {e}");
                    notes.push(ContentNote::new(result, i, Carried::NotCarried, reason));
                }
            }
            notes.sort_by_key(|n| n.index);
            FunctionCallOutput::Text(result.text())
        }
    };
    let item = FunctionCallOutputItemParam {
        call_id: Some(result.call_id.clone()),
        output,
        id: None,
        status: None,
        name: None,
        caller: None,
        namespace: None,
    };
    ResultMessage::new(item, notes)
}

impl ChatStream<'_> {
    /// [`push`](Self::push) for an `async-openai` stream chunk.
    ///
    /// # Errors
    ///
    /// As [`push`](Self::push).
    pub fn push_chunk(
        &mut self,
        chunk: &CreateChatCompletionStreamResponse,
    ) -> Result<Vec<StreamEvent>, StreamError> {
        self.count_chunk();
        let mut out = Vec::new();
        for choice in &chunk.choices {
            let choice_index = u64::from(choice.index);
            for piece in choice.delta.tool_calls.iter().flatten() {
                let function = piece.function.as_ref();
                let parts = (
                    piece.id.as_deref(),
                    function.and_then(|f| f.name.as_deref()),
                    function.and_then(|f| f.arguments.as_deref()),
                );
                self.piece_parts(choice_index, u64::from(piece.index), parts, &mut out)?;
            }
            if choice.finish_reason.is_some() {
                self.finish_choice(choice_index, &mut out)?;
            }
        }
        Ok(out)
    }
}

impl ResponsesStream<'_> {
    /// [`push`](Self::push) for an `async-openai` Responses stream event.
    ///
    /// # Errors
    ///
    /// As [`push`](Self::push).
    pub fn push_event(
        &mut self,
        event: &ResponseStreamEvent,
    ) -> Result<Vec<StreamEvent>, StreamError> {
        let mut out = Vec::new();
        match event {
            ResponseStreamEvent::ResponseOutputItemAdded(e) => {
                if let OutputItem::FunctionCall(f) = &e.item {
                    let index = u64::from(e.output_index);
                    self.added(index, &f.call_id, &f.name, Some(&f.arguments), &mut out)?;
                }
            }
            ResponseStreamEvent::ResponseFunctionCallArgumentsDelta(e) => {
                self.delta(u64::from(e.output_index), &e.delta, &mut out)?;
            }
            ResponseStreamEvent::ResponseFunctionCallArgumentsDone(e) => {
                self.done(u64::from(e.output_index), &e.arguments, &mut out)?;
            }
            ResponseStreamEvent::ResponseOutputItemDone(e) => {
                if let OutputItem::FunctionCall(f) = &e.item {
                    self.item_done(u64::from(e.output_index), &f.arguments, &mut out)?;
                }
            }
            ResponseStreamEvent::ResponseError(e) => {
                return Err(StreamError::Provider { message: e.message.clone() });
            }
            ResponseStreamEvent::ResponseFailed(e) => {
                let message = e
                    .response
                    .error
                    .as_ref()
                    .map_or_else(|| "the response failed".to_owned(), |err| err.message.clone());
                return Err(StreamError::Provider { message });
            }
            _ => {}
        }
        Ok(out)
    }
}
