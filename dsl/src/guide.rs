//! The user's guide: from `Cargo.toml` to a request body and back, one runnable example per step.
//!
//! This module holds no code; it is documentation, and every example in it runs as a test.
//!
//! 1. [Install](#install)
//! 2. [A tool from a function](#a-tool-from-a-function)
//! 3. [Async tools](#async-tools)
//! 4. [Tools with state: `#[tools]` on an `impl`](#tools-with-state-tools-on-an-impl)
//! 5. [A tool from a struct: `#[derive(Tool)]`](#a-tool-from-a-struct-derivetool)
//! 6. [Argument types: `#[derive(ToolSchema)]`](#argument-types-derivetoolschema)
//! 7. [Without macros: the `const` builder](#without-macros-the-const-builder)
//! 8. [The request: the `tools` array, or a whole prompt](#the-request-the-tools-array-or-a-whole-prompt)
//! 9. [The model's tool calls, and the results](#the-models-tool-calls-and-the-results)
//! 10. [Tools from files and from other providers](#tools-from-files-and-from-other-providers)
//! 11. [The attribute reference](#the-attribute-reference)
//!
//! Between 9 and 10: [the way back](#the-way-back-what-the-model-sends-as-the-descriptor-means-it)
//! [model families over another family's wire API](#model-families-over-another-familys-wire-api)
//! and [whole example inputs](#whole-example-inputs).
//!
//! # Install
//!
//! ```toml
//! [dependencies]
//! tooldef = "0.1"           # the IR, macros, dispatch, registry, workspace
//! tooldef-openai = "0.1"    # one crate per provider you send tools to
//! serde = { version = "1", features = ["derive"] }
//! serde_json = "1"
//! ```
//!
//! Features of `tooldef`: `macros` (default: `#[tool]`, `#[tools]`, `#[derive(Tool)]`,
//! `#[derive(ToolSchema)]`); `chrono`, `uuid`, `url` (`ToolSchema` for those crates' types, with
//! the matching `format`). The provider crates are `tooldef-openai` (Chat Completions, Responses,
//! and the OpenAI-compatible profiles), `tooldef-anthropic`, `tooldef-gemini`, `tooldef-ollama`,
//! `tooldef-mcp` and `tooldef-bedrock`. The minimum Rust version is the workspace's
//! `rust-version`.
//!
//! # A tool from a function
//!
//! `#[tool]` turns a function into a tool. The doc comment is the description, each
//! parameter's doc comment is its description, and the parameter types decide the schema. The
//! macro generates one type named after the function in `UpperCamelCase` (`get_weather` →
//! `GetWeather`), which implements [`Tool`](crate::Tool).
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::{Tool, ToolSchema, tool};
//!
//! #[derive(serde::Deserialize, ToolSchema)]
//! #[serde(rename_all = "lowercase")]
//! pub enum Unit { Celsius, Fahrenheit }
//!
//! /// Get the current weather for a city.
//! #[tool(read_only)]
//! fn get_weather(
//!     /// City name, e.g. "Paris".
//!     city: String,
//!     #[param(default = "celsius")] unit: Unit,
//!     /// How many days to forecast.
//!     #[param(range = 1..=10, default = 3)] days: u8,
//!     /// Only needed for ambiguous names.
//!     country: Option<String>,
//! ) -> String {
//!     let _ = (unit, country);
//!     format!("{days} sunny days in {city}")
//! }
//!
//! let d = GetWeather::descriptor();
//! assert_eq!(d.name, "get_weather");
//! assert_eq!(d.description, "Get the current weather for a city.");
//! let days = d.param("days").unwrap();
//! assert!(!days.required); // a default makes the key optional
//! assert!(!d.param("country").unwrap().required); // so does `Option`
//! assert!(d.param("city").unwrap().required);
//! ```
//!
//! Mistakes the compiler can see are compile errors on your tokens: a name providers refuse, two
//! parameters with one wire name, a default outside its range or of the wrong type, `min > max`,
//! an unknown attribute key (with "did you mean"), a parameter type with no schema.
//!
//! # Async tools
//!
//! An `async fn` is a tool the same way. [`Toolbox::call`](crate::Toolbox::call) returns a
//! future that any executor can drive (tooldef needs no async runtime of its own);
//! [`Toolbox::call_blocking`](crate::Toolbox::call_blocking) drives it on the current thread, for
//! tools that do not need a runtime's reactor. A tool may return `Result<T, E>`: with `E:
//! Display`, the error's text is what the model reads.
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::{ToolCall, Toolbox, tool};
//!
//! /// Look a word up in the dictionary.
//! #[tool]
//! async fn define(word: String) -> Result<String, String> {
//!     match word.as_str() {
//!         "tool" => Ok("an implement used to carry out a function".into()),
//!         other => Err(format!("no entry for `{other}`")),
//!     }
//! }
//!
//! let toolbox = Toolbox::new().with(Define);
//! let ok = toolbox.call_blocking(&ToolCall::new("1", "define", serde_json::json!({"word": "tool"})));
//! assert!(!ok.is_error);
//! let missing = toolbox.call_blocking(&ToolCall::new("2", "define", serde_json::json!({"word": "x"})));
//! assert!(missing.is_error);
//! assert_eq!(missing.text(), "no entry for `x`");
//! ```
//!
//! With tokio (or any runtime), `toolbox.call(&call).await` runs the same tool inside the
//! runtime, so the tool body may await the runtime's I/O.
//!
//! # Talking back while a tool runs: `&CallContext`
//!
//! A tool that reports progress, writes log messages for the client, notices cancellation, or
//! asks the client something (a completion by its model, values from its user) names a
//! [`&CallContext`](crate::context::CallContext) parameter. It is no argument of the model's
//! and not in the schema; the other tools stay as they are. The host passes the context:
//! `tooldef-mcp`'s server carries it as MCP's progress and log notifications,
//! `sampling/createMessage` and `elicitation/create` (or, to a 2026-07-28 client, an
//! `InputRequiredResult` whose answers come back with the client's retry, so a tool that asks
//! must not do before asking what it cannot do twice). Without a host (`call_blocking`,
//! another provider's loop) notifications go nowhere and requests return
//! [`ContextError::Unsupported`](crate::context::ContextError::Unsupported), which the tool
//! answers as it sees fit.
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::context::{CallContext, ContextError, LogLevel, Progress, SamplingRequest};
//! use tooldef::{ToolCall, ToolError, Toolbox, tool};
//!
//! /// Summarise a text, with the client's model when it lends it.
//! #[tool]
//! async fn summarise(text: String, ctx: &CallContext) -> Result<String, ToolError> {
//!     ctx.progress(Progress::new(0.0).total(1.0)).await?;
//!     ctx.log(LogLevel::Debug, format!("{} bytes", text.len())).await?;
//!     let prompt = format!("Summarise in five words: {text}");
//!     match ctx.sample(&SamplingRequest::new(prompt, 20)).await {
//!         Ok(answer) => Ok(answer.text().to_owned()),
//!         Err(ContextError::Unsupported { .. }) => Ok(text.chars().take(20).collect()),
//!         Err(other) => Err(other.into()),
//!     }
//! }
//!
//! let toolbox = Toolbox::new().with(Summarise);
//! let call = ToolCall::new("1", "summarise", serde_json::json!({"text": "a very long text indeed"}));
//! assert_eq!(toolbox.call_blocking(&call).text(), "a very long text ind");
//! ```
//!
//! # Tools with state: `#[tools]` on an `impl`
//!
//! Methods taking `&self` become tools under `#[tools]`. Each `#[tool]` method gets its own
//! generated type holding an `Arc` of the state, and the `impl`'s type gets
//! [`ToolSet`](crate::ToolSet) (its descriptors, and `add_to` to put every tool in a
//! [`Toolbox`](crate::Toolbox)).
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use std::sync::Arc;
//! use std::sync::atomic::{AtomicU64, Ordering};
//! use tooldef::{ToolCall, ToolSet, Toolbox, tools};
//!
//! #[derive(Default)]
//! pub struct Counter { n: AtomicU64 }
//!
//! #[tools]
//! impl Counter {
//!     /// Add to the counter and return the new value.
//!     #[tool]
//!     pub fn bump(&self, #[param(min = 1)] by: u64) -> u64 {
//!         self.n.fetch_add(by, Ordering::SeqCst) + by
//!     }
//!
//!     /// Read the counter.
//!     #[tool(read_only)]
//!     pub fn read(&self) -> u64 {
//!         self.n.load(Ordering::SeqCst)
//!     }
//! }
//!
//! let counter = Arc::new(Counter::default());
//! let mut toolbox = Toolbox::new();
//! Counter::add_to(&counter, &mut toolbox);
//! assert_eq!(Counter::descriptors().len(), 2);
//!
//! toolbox.call_blocking(&ToolCall::new("1", "bump", serde_json::json!({"by": 2})));
//! let read = toolbox.call_blocking(&ToolCall::new("2", "read", serde_json::json!({})));
//! assert_eq!(read.text(), "2");
//! // The schema's `min = 1` is enforced before the method runs.
//! let zero = toolbox.call_blocking(&ToolCall::new("3", "bump", serde_json::json!({"by": 0})));
//! assert!(zero.is_error);
//! assert_eq!(counter.n.load(Ordering::SeqCst), 2);
//! ```
//!
//! # A tool from a struct: `#[derive(Tool)]`
//!
//! The struct's fields are the parameters; serde decodes it, and
//! [`RunTool`](crate::RunTool) is the call.
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::{RunTool, Tool, ToolCall, ToolError, Toolbox};
//!
//! /// Add two numbers.
//! #[derive(serde::Deserialize, Tool)]
//! struct Add { a: i64, b: i64 }
//!
//! impl RunTool for Add {
//!     type Output = i64;
//!     async fn run(self) -> Result<i64, ToolError> {
//!         self.a.checked_add(self.b).ok_or_else(|| ToolError::new("the sum overflows"))
//!     }
//! }
//!
//! assert_eq!(Add::NAME, "add");
//! // The struct is added by a value of it; each call decodes a fresh one from the arguments.
//! let toolbox = Toolbox::new().with(Add { a: 0, b: 0 });
//! let sum = toolbox.call_blocking(&ToolCall::new("1", "add", serde_json::json!({"a": 2, "b": 3})));
//! assert_eq!(sum.text(), "5");
//! let overflow = serde_json::json!({"a": i64::MAX, "b": 1});
//! assert_eq!(toolbox.call_blocking(&ToolCall::new("2", "add", overflow)).text(), "the sum overflows");
//! ```
//!
//! # Argument types: `#[derive(ToolSchema)]`
//!
//! Structs become objects, unit enums become enums (variant docs describe the values), data enums
//! become `anyOf` in serde's tagging. The serde attributes that change the wire shape (`rename`,
//! `rename_all`, `default`, `skip`, `flatten`, `tag`, `content`, `untagged`) are honoured, so the
//! schema says what serde accepts.
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::{SchemaKind, ToolSchema, schema_for};
//!
//! /// Where to send the parcel.
//! #[derive(serde::Deserialize, ToolSchema)]
//! #[serde(rename_all = "camelCase")]
//! struct Address {
//!     street_line: String,
//!     #[serde(default)]
//!     post_code: Option<String>,
//! }
//!
//! let (schema, _definitions) = schema_for::<Address>();
//! let SchemaKind::Object(object) = &schema.kind else { panic!("an object") };
//! let names: Vec<&str> = object.properties.iter().map(|p| &*p.name).collect();
//! assert_eq!(names, ["streetLine", "postCode"]);
//! ```
//!
//! # Without macros: the `const` builder
//!
//! [`ToolDescriptor`](crate::ToolDescriptor) and [`Param`](crate::Param) build in `const`, where
//! their checks are compile errors; the same builder works at run time on owned data and returns
//! a `Result` ([`ToolBuilder`](crate::ToolBuilder)). The parameter slice is written `const { &[...] }`
//! (or held in a `static`), because a `Param` owns text and Rust promotes only drop-free values
//! to `'static` on its own.
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::{Param, ToolDescriptor};
//!
//! const WEATHER: ToolDescriptor = ToolDescriptor::new("get_weather")
//!     .description("Get the current weather for a city.")
//!     .params(const {
//!         &[
//!             Param::string("city").description("City name"),
//!             Param::enumeration("unit", &["celsius", "fahrenheit"]).default_str("celsius"),
//!             Param::integer("days").range(1, 10).optional(),
//!         ]
//!     });
//!
//! assert_eq!(WEATHER.params.len(), 3);
//! assert!(WEATHER.param("days").is_some_and(|days| !days.required));
//! ```
//!
//! A descriptor held by a [`DynamicTool`](crate::DynamicTool) (a descriptor plus a closure over
//! the checked JSON arguments) dispatches like a typed tool.
//!
//! # The request: the `tools` array, or a whole prompt
//!
//! Every provider crate has a [`Renderer`](crate::Renderer). [`tools_json`](crate::tools_json)
//! renders a set of descriptors to the provider's `tools` array, as JSON text ready to splice
//! into a request body, or fails naming the first tool it cannot render.
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::{Param, LossPolicy, ToolDescriptor, tools_json};
//! use tooldef_openai::OpenAiRenderer;
//!
//! const SEARCH: ToolDescriptor = ToolDescriptor::new("search")
//!     .description("Search the web.")
//!     .params(const { &[Param::string("query")] });
//!
//! let tools = tools_json(&OpenAiRenderer::chat(), [&SEARCH], LossPolicy::Allow).unwrap();
//! let body = format!(r#"{{"model":"gpt-5","messages":[],"tools":{tools}}}"#);
//! let body: serde_json::Value = serde_json::from_str(&body).unwrap();
//! assert_eq!(body["tools"][0]["function"]["name"], "search");
//! ```
//!
//! [`LossPolicy::Refuse`](crate::LossPolicy) refuses any change that loses meaning; `LossPolicy::Allow`
//! makes it and reports it. Each [`Rendered`](crate::Rendered) carries the
//! [`Report`](crate::Report) of what was changed for the provider. Rendering the same descriptor
//! twice is cached by [`RenderCache`](crate::RenderCache).
//!
//! For the system text and the tools together, a [`PromptAssembly`](crate::PromptAssembly)
//! gathers sections and tools (from contributors such as a registry), runs interceptors, and a
//! provider crate's `request_fragment` turns it into the part of the body it decides:
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::{LossPolicy, PromptAssembly, Section, ToolDescriptor};
//! use tooldef_openai::{OpenAiRenderer, request_fragment};
//!
//! const SEARCH: ToolDescriptor = ToolDescriptor::new("search").description("Search the web.");
//!
//! let mut assembly = PromptAssembly::new();
//! assembly.push_section(Section::new("persona", 0, "Be brief."));
//! assembly.put_tool(SEARCH);
//! let fragment = request_fragment(&assembly, &OpenAiRenderer::chat(), LossPolicy::Refuse, None).unwrap();
//! assert_eq!(fragment.body["messages"][0]["content"], "Be brief.");
//! assert_eq!(fragment.body["tools"][0]["function"]["name"], "search");
//! ```
//!
//! # Many tools in one request: the planner
//!
//! A request is a *set* of tools, and providers budget sets: Anthropic's strict tool use takes
//! 20 strict tools and 24 optional parameters per request, OpenAI counts tools and name
//! lengths, hosts cap tools and bytes. A [`Planner`](crate::assembly::Planner) decides per tool
//! what one request carries, each with a [`Reason`](crate::assembly::Reason): *strict* where
//! strict mode is lossless and within budget, *plain* where strict would lose meaning (an open
//! object) or a budget is spent, *deferred* (the provider's `defer_loading` and tool search, or
//! tooldef's `tool_search` meta-tool elsewhere) past the host's limits, and *left out* with the
//! renderer's error when a tool cannot be rendered at all, never sinking the others. Each
//! provider crate gives its target (`plan_target`) and writes the planned array in its own form
//! (`planned_tools_json`); the budgets and their sources are in the repository's
//! `docs/budgets.md`, and `tooldef plan` prints the decisions.
//!
//! ```
//! use tooldef::assembly::{Decision, HostLimits, PlanTool, Planner};
//! use tooldef::spec::spec_from_value;
//! use tooldef_openai::{OpenAiRenderer, ToolSearch, plan_target, planned_tools_json};
//!
//! let spec = |name: &str, schema: serde_json::Value| {
//!     let json = serde_json::json!({"name": name, "description": "A tool.", "input_schema": schema});
//!     PlanTool::new(spec_from_value("guide", &json, None).unwrap().descriptor)
//! };
//! let empty = || serde_json::json!({"type": "object", "properties": {}});
//! let tools = [
//!     spec("lookup", serde_json::json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]})).priority(1),
//!     // An open object: strict mode would close it, so this one goes plain.
//!     spec("store", serde_json::json!({"type": "object", "properties": {"data": {"type": "object", "additionalProperties": true}}})).priority(1),
//!     spec("archive", empty()),
//!     spec("zip", empty()),
//! ];
//! let target = plan_target(&OpenAiRenderer::responses(), ToolSearch::Hosted);
//! // The host shows at most three tools up front: the search tool takes one once any is deferred.
//! let planner = Planner::new(target).strict(true).host(HostLimits::none().max_tools(3));
//! let plan = planner.plan(tools);
//! let decided: Vec<_> = plan.entries().iter().map(|e| (e.name(), e.decision, e.reason.code())).collect();
//! // Request order: the loaded tools by name, then the deferred ones (after the search tool).
//! assert_eq!(decided, [
//!     ("lookup", Decision::Strict, "strict_lossless"),
//!     ("store", Decision::Plain, "strict_lossy"),
//!     ("archive", Decision::Deferred, "over_limit"),
//!     ("zip", Decision::Deferred, "over_limit"),
//! ]);
//! let tools = planned_tools_json(&plan);
//! assert!(tools.contains(r#"{"type":"tool_search"}"#) && tools.contains(r#""defer_loading":true"#));
//! ```
//!
//! # The model's tool calls, and the results
//!
//! Each provider crate maps its assistant message to neutral [`ToolCall`](crate::ToolCall)s and a
//! [`ToolResult`](crate::ToolResult) back to its tool-result message. A
//! [`Toolbox`](crate::Toolbox) decodes and checks the arguments against the schema before the
//! tool runs; bad arguments, an unknown tool, a failing or panicking tool all become an error
//! result whose text tells the model what to fix.
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::{ToolSchema, Toolbox, tool};
//! use tooldef_openai::{chat_tool_calls, chat_tool_message};
//!
//! #[derive(serde::Deserialize, ToolSchema)]
//! #[serde(rename_all = "lowercase")]
//! pub enum Unit { Celsius, Fahrenheit }
//!
//! /// Get the current weather for a city.
//! #[tool]
//! fn get_weather(city: String, unit: Unit) -> String {
//!     let _ = unit;
//!     format!("sunny in {city}")
//! }
//!
//! let toolbox = Toolbox::new().with(GetWeather);
//! let assistant = serde_json::json!({"role": "assistant", "tool_calls": [{
//!     "id": "call_1", "type": "function",
//!     "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\",\"unit\":\"kelvin\"}"}
//! }]});
//! let calls = chat_tool_calls(&assistant).unwrap();
//! let result = toolbox.call_blocking(&calls[0]);
//! assert!(result.is_error);
//! assert_eq!(
//!     result.text(),
//!     r#"invalid arguments for get_weather: /unit must be one of "celsius", "fahrenheit"; got "kelvin""#
//! );
//!
//! let message = chat_tool_message(&result);
//! assert!(message.notes.is_empty()); // every piece of content went through as it was
//! assert_eq!(message.message["role"], "tool");
//! assert_eq!(message.message["tool_call_id"], "call_1");
//! ```
//!
//! # Results of every kind: images, audio, resources, links
//!
//! A [`ToolResult`](crate::ToolResult)'s content holds what an MCP tool can return:
//! [`Content`](crate::Content) text, images, audio, embedded resources
//! ([`ResourceContents`](crate::ResourceContents), text or base64 bytes, with a URI and a MIME
//! type) and [`ResourceLink`](crate::ResourceLink)s; `structured` holds the tool's output value
//! beside them. Each provider crate maps every kind to its tool-result message and returns a
//! [`ResultMessage`](crate::ResultMessage): the message, and a [`ContentNote`](crate::ContentNote)
//! for each piece it had to change or could not carry. Nothing is dropped silently: what a
//! provider has no place for leaves a note in the message (so the model knows something is
//! missing), a `tracing` warning, and a note the host can act on (fetch a link itself, switch
//! API, tell the user).
//!
//! | kind | Anthropic | OpenAI Chat | OpenAI Responses | Gemini | Bedrock | Ollama | MCP |
//! | --- | --- | --- | --- | --- | --- | --- | --- |
//! | text | carried | carried | carried | carried | carried | carried | carried |
//! | image | carried (JPEG, PNG, GIF, WebP) | **not carried** | carried | carried (PNG, JPEG, WebP) | carried (PNG, JPEG, GIF, WebP) | carried | carried |
//! | audio | **not carried** | **not carried** | **not carried** | **not carried** | **not carried** | **not carried** | carried |
//! | text resource | changed: a text document titled with its URI (changed only when not `text/plain`) | changed: text | changed: text | changed: a `text/plain` part | changed: a document named after its URI | changed: text | carried |
//! | binary resource | PDF: a document; image: changed (no URI); else **not carried** | **not carried** | changed: an image, or a file named after its URI | changed for images, PDF, plain text (no URI); else **not carried** | changed for images and documents (PDF, CSV, DOC(X), XLS(X), HTML, TXT, MD); else **not carried** | image: changed (no URI); else **not carried** | carried |
//! | resource link | changed: text | changed: text | changed: text | changed: a `text/plain` part | changed: text | changed: text | carried |
//!
//! The MCP column is the JSON of `tooldef_mcp::call_tool_result` and, both ways, the rmcp
//! bridge (`tooldef_mcp::sdk`): a result read from an MCP server and served again is the same.
//!
//! ```
//! use serde_json::json;
//! use tooldef::{Carried, Content, ContentKind, ResourceContents, ToolCall, ToolResult};
//! use tooldef_openai::{chat_tool_message, responses_function_call_output};
//!
//! let call = ToolCall::new("call_1", "get_report", json!({}));
//! let mut result = ToolResult::success(&call, json!("Report attached."));
//! result.content.push(Content::audio("UklGRg==", "audio/wav"));
//! result.content.push(Content::resource(
//!     ResourceContents::blob("file:///q3.pdf", "JVBERi0=").mime_type("application/pdf"),
//! ));
//!
//! // Chat tool messages carry text only: both are reported, with a note left in the text.
//! let chat = chat_tool_message(&result);
//! let lost: Vec<ContentKind> = chat.not_carried().map(|n| n.kind).collect();
//! assert_eq!(lost, [ContentKind::Audio, ContentKind::BlobResource]);
//! assert_eq!(
//!     chat.message["content"],
//!     "Report attached.\n\
//!      [audio of type audio/wav not sent: Chat Completions tool messages carry text only]\n\
//!      [binary resource of type application/pdf not sent: Chat Completions tool messages carry text only]"
//! );
//!
//! // Responses carries the PDF as a file part; only the audio is reported.
//! let responses = responses_function_call_output(&result);
//! assert_eq!(responses.message["output"][2]["type"], "input_file");
//! let notes: Vec<(ContentKind, Carried)> = responses.notes.iter().map(|n| (n.kind, n.carried)).collect();
//! assert_eq!(
//!     notes,
//!     [(ContentKind::Audio, Carried::NotCarried), (ContentKind::BlobResource, Carried::Changed)]
//! );
//! ```
//!
//! # Calls in production: timeouts, cancellation, a whole turn at once
//!
//! [`CallOptions`](crate::dispatch::CallOptions) sets a per-call timeout, a
//! [`CancelToken`](crate::dispatch::CancelToken) and how many calls of one model turn run at
//! once; [`Toolbox::call_with`](crate::Toolbox::call_with) /
//! [`call_all`](crate::Toolbox::call_all) and a registry snapshot's
//! [`Snapshot::call_with`](crate::Snapshot::call_with) / [`call_all`](crate::Snapshot::call_all)
//! take them, on the same dispatch path. Results come in the order of the calls. A call that
//! times out or is cancelled is still an error result the model can read, and its
//! [`Outcome`](crate::Outcome) says which, so a host can tell it from the tool's own failure
//! (the same name is the `outcome` field of the call's `tooldef.dispatch` span).
//!
//! ```
//! use std::sync::Arc;
//! use std::time::Duration;
//! use serde_json::json;
//! use tooldef::dispatch::{CallOptions, DynamicTool, block_on};
//! use tooldef::{Origin, Outcome, Param, ToolCall, ToolDescriptor, ToolError, ToolRegistry};
//!
//! let registry = ToolRegistry::new();
//! let add = ToolDescriptor::builder("add")
//!     .param(Param::integer("a"))
//!     .param(Param::integer("b"))
//!     .build()
//!     .unwrap();
//! let sum = |args: serde_json::Value| Ok(json!(args["a"].as_i64().unwrap_or(0) + args["b"].as_i64().unwrap_or(0)));
//! let add = DynamicTool::new_sync(add, sum);
//! registry.register(Arc::new(add), Origin::Core).unwrap();
//! let fail = ToolDescriptor::builder("fail").build().unwrap();
//! let fail = DynamicTool::new_sync(fail, |_| Err(ToolError::new("the disk is full")));
//! registry.register(Arc::new(fail), Origin::Plugin).unwrap();
//! let hang = ToolDescriptor::builder("hang").build().unwrap();
//! let hang = DynamicTool::new(hang, |_| Box::pin(std::future::pending()));
//! registry.register(Arc::new(hang), Origin::Mcp).unwrap();
//!
//! let turn = [
//!     ToolCall::new("1", "hang", json!({})),
//!     ToolCall::new("2", "add", json!({"a": 2, "b": 3})),
//!     ToolCall::new("3", "fail", json!({})),
//!     ToolCall::new("4", "add", json!({"a": "two"})),
//! ];
//! let options = CallOptions::new().timeout(Duration::from_millis(50)).concurrency(4);
//! let results = block_on(registry.snapshot().call_all(&turn, &options));
//! let outcomes: Vec<Outcome> = results.iter().map(|r| r.outcome).collect();
//! assert_eq!(
//!     outcomes,
//!     [Outcome::TimedOut, Outcome::Success, Outcome::ToolError, Outcome::InvalidArguments]
//! );
//! assert_eq!(results[0].text(), "hang did not finish within 50ms and was stopped");
//! assert_eq!(results[1].text(), "5");
//! ```
//!
//! # The way back: what the model sends, as the descriptor means it
//!
//! A provider's dialect changes some tools on the way out: OpenAI's strict mode makes every
//! optional parameter required and nullable ("send null for absent"), Gemini's OpenAPI form
//! sends an enum of numbers as strings, [`render_mapped`](crate::render_mapped) renames what a
//! provider refuses. The rendering keeps the way back of each such change: give every call back
//! through the render output ([`WayBack::restore`](crate::WayBack::restore), on a
//! [`Rendered`](crate::Rendered), a [`RenderedSet`](crate::RenderedSet), a
//! [`MappedSet`](crate::MappedSet)) before dispatch, and the tool receives what the descriptor
//! means: the `null` for a parameter left out reads as absent, so its default applies.
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use tooldef::{LossPolicy, RenderCache, ToolSchema, Toolbox, tool};
//! use tooldef_openai::{OpenAiRenderer, chat_tool_calls};
//!
//! #[derive(Debug, serde::Deserialize, ToolSchema)]
//! #[serde(rename_all = "lowercase")]
//! pub enum Unit { Celsius, Fahrenheit }
//!
//! /// Forecast the weather.
//! #[tool]
//! fn forecast(city: String, #[param(default = 3, range = 1..=10)] days: u8, unit: Option<Unit>) -> String {
//!     format!("{city}: {days} days, unit {unit:?}")
//! }
//!
//! let toolbox = Toolbox::new().with(Forecast);
//! let cache = RenderCache::new();
//! let strict = OpenAiRenderer::chat().strict(true);
//! let set = toolbox.rendered(&strict, &cache, LossPolicy::Refuse).unwrap();
//! // The request's `tools` is `set.json()`; strict mode told the model to send null for absent.
//! let assistant = serde_json::json!({"role": "assistant", "tool_calls": [{
//!     "id": "call_1", "type": "function",
//!     "function": {"name": "forecast", "arguments": "{\"city\":\"Paris\",\"days\":null,\"unit\":null}"}
//! }]});
//! let calls = set.restore_all(chat_tool_calls(&assistant).unwrap());
//! assert_eq!(toolbox.call_blocking(&calls[0]).text(), "Paris: 3 days, unit None");
//! ```
//!
//! The contract, with its few documented exceptions (a parameter that takes `null` itself
//! cannot be left out under strict mode), is in [`render`](crate::render)'s "The way back";
//! each provider crate says what it means there. The stream accumulators take the same output
//! (`ChatStream::with_tools(&toolbox).way_back(&set)`), so that their early checks read a value
//! as the way back will. Dispatch also reads an object or array that a model sent as a JSON
//! string where the schema expects one as the value it holds, when the schema then accepts it;
//! each such repair is in [`ToolResult::repairs`](crate::ToolResult::repairs), and
//! [`CallOptions::repair`](crate::dispatch::CallOptions::repair) turns it off.
//!
//! # Grammar tools: input text in a grammar
//!
//! Some inputs are text in a small language rather than a JSON object: a unit, a product code,
//! a query. OpenAI's custom tools take a grammar (Lark or a regex) and hold the model to it.
//! `#[derive(ToolGrammar)]` makes a Rust type that text: an enum of unit variants (each a
//! literal), a newtype with `#[grammar(regex = "...")]`, or one with `#[grammar(lark = "...")]`;
//! the grammar is checked at compile time. [`ToolDescriptor::grammar_tool`](crate::ToolDescriptor::grammar_tool)
//! makes the tool, and a typed tool takes [`GrammarInput<T>`](crate::GrammarInput) as its
//! `Args`. OpenAI gets a custom tool; every other provider a function tool with one string
//! parameter `input` whose description holds the grammar, reported as a lossy change. A custom
//! tool call and that function call both come back as `{"input": <text>}`, parsed into the type
//! on dispatch; text outside the grammar is an error naming what was expected at which byte.
//! Details in [`grammar`](crate::grammar).
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use std::sync::LazyLock;
//! use tooldef::{BoxFuture, GrammarInput, LossPolicy, Renderer, Tool, ToolDescriptor, ToolError, Toolbox};
//! use tooldef_openai::{OpenAiRenderer, responses_tool_calls};
//!
//! #[derive(Debug, tooldef::ToolGrammar)]
//! enum Unit { Celsius, Fahrenheit }
//!
//! struct SetUnit;
//!
//! impl Tool for SetUnit {
//!     const NAME: &'static str = "set_unit";
//!     type Args = GrammarInput<Unit>;
//!     type Output = String;
//!     fn descriptor() -> &'static ToolDescriptor {
//!         static D: LazyLock<ToolDescriptor> = LazyLock::new(|| {
//!             ToolDescriptor::grammar_tool::<Unit>("set_unit", "Set the unit.").unwrap()
//!         });
//!         &D
//!     }
//!     fn call(&self, args: Self::Args) -> BoxFuture<'_, Result<String, ToolError>> {
//!         Box::pin(async move { Ok(format!("{:?}", args.into_inner())) })
//!     }
//! }
//!
//! let rendered = OpenAiRenderer::responses().render(SetUnit::descriptor(), LossPolicy::Refuse).unwrap();
//! assert_eq!(
//!     rendered.json(),
//!     r#"{"type":"custom","name":"set_unit","description":"Set the unit.","format":{"type":"grammar","syntax":"lark","definition":"start: \"celsius\" | \"fahrenheit\""}}"#
//! );
//!
//! let toolbox = Toolbox::new().with(SetUnit);
//! let response = serde_json::json!({"output": [
//!     {"type": "custom_tool_call", "call_id": "call_1", "name": "set_unit", "input": "fahrenheit"},
//!     {"type": "custom_tool_call", "call_id": "call_2", "name": "set_unit", "input": "kelvin"},
//! ]});
//! let calls = responses_tool_calls(&response).unwrap();
//! assert_eq!(toolbox.call_blocking(&calls[0]).text(), "Fahrenheit");
//! assert_eq!(
//!     toolbox.call_blocking(&calls[1]).text(),
//!     r#"invalid arguments for set_unit: the arguments could not be decoded: /input: expected one of "celsius", "fahrenheit" at byte 0; got "kelvin""#
//! );
//! ```
//!
//! # Model families over another family's wire API
//!
#![doc = include_str!("guide/models.md")]
//!
//! ```
//! use tooldef::render::{LossPolicy, Renderer, WayBack};
//! use tooldef::{Arguments, Definition, Param, Schema, ToolCall, ToolDescriptor};
//! use tooldef_openai::OpenAiRenderer;
//!
//! static SEND: ToolDescriptor = ToolDescriptor::new("send")
//!     .definitions(const {
//!         &[Definition::new("Address", Schema::object(const { &[Param::string("city")] }))]
//!     })
//!     .params(const { &[
//!         Param::new("to", Schema::reference("Address")),
//!         Param::integer("priority").optional(),
//!     ] });
//!
//! // Qwen over OpenAI's Chat Completions: definitions inlined.
//! let qwen = OpenAiRenderer::chat().model("Qwen/Qwen2.5-72B-Instruct");
//! let rendered = qwen.render(&SEND, LossPolicy::Refuse).unwrap();
//! assert_eq!(
//!     rendered.to_value()["function"]["parameters"]["properties"]["to"],
//!     serde_json::json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": false})
//! );
//!
//! // Kimi takes no strict tool definitions: asked for strict mode, it renders without and says so.
//! let kimi = OpenAiRenderer::chat().strict(true).model("kimi-k2-0905-preview");
//! let rendered = kimi.render(&SEND, LossPolicy::Allow).unwrap();
//! assert_eq!(rendered.to_value()["function"].get("strict"), None);
//! assert_eq!(
//!     rendered.report().lossy().map(ToString::to_string).collect::<Vec<_>>(),
//!     ["tool `send`: strict mode off: the kimi models take no strict tool definitions (lossy)"]
//! );
//!
//! // An OpenAI reasoning model: `priority` is sent as required and nullable, and its `null`
//! // comes back as absent.
//! let o3 = OpenAiRenderer::chat().model("o3-mini");
//! let rendered = o3.render(&SEND, LossPolicy::Refuse).unwrap();
//! let call = ToolCall::from_text("c1", "send", r#"{"to":{"city":"Oslo"},"priority":null}"#);
//! assert_eq!(rendered.restore(call).arguments, Arguments::Text(r#"{"to":{"city":"Oslo"}}"#.into()));
//! ```
//!
//! # Whole example inputs
//!
//! A tool can carry whole example inputs ([`ToolDescriptor::input_examples`](crate::ToolDescriptor::input_examples),
//! [`ToolBuilder::input_example`](crate::ToolBuilder::input_example), `input_examples` in a spec
//! file), each checked against the parameters like a default. Anthropic takes them as the
//! tool's `input_examples`; the other providers read them at the end of the description, a
//! lossless change in the report; MCP's `Tool` has no field for them (omitted, reported).
//! Dispatch does not read them.
//!
//! ```
//! use tooldef::render::{LossPolicy, Renderer};
//! use tooldef::{Literal, Param, ToolDescriptor};
//! use tooldef_openai::OpenAiRenderer;
//!
//! let example = Literal::from_json(&serde_json::json!({"city": "Paris", "days": 3})).unwrap();
//! let forecast = ToolDescriptor::builder("forecast")
//!     .description("Forecast the weather.")
//!     .param(Param::string("city"))
//!     .param(Param::integer("days").range(1, 10).optional())
//!     .input_example(example)
//!     .build()
//!     .unwrap();
//! // `tooldef_anthropic::AnthropicRenderer` writes them as `"input_examples": [{"city": "Paris", "days": 3}]`.
//! assert_eq!(forecast.input_examples.len(), 1);
//! let chat = OpenAiRenderer::chat().render(&forecast, LossPolicy::Refuse).unwrap();
//! assert_eq!(
//!     chat.to_value()["function"]["description"],
//!     r#"Forecast the weather. Example input: {"city":"Paris","days":3}."#
//! );
//! assert_eq!(chat.report().len(), 1);
//! ```
//!
//! # Tools from files and from other providers
//!
//! - A spec file (`*.json`: `name`, `title`, `description`, `input_schema`, `output_schema`,
//!   `annotations`) is read by [`load_spec_file`](crate::load_spec_file) /
//!   [`parse_spec`](crate::parse_spec); a `tools/` directory of them, reconciled from disk
//!   while the program runs, is a [`Workspace`](crate::Workspace) feeding a
//!   [`ToolRegistry`](crate::ToolRegistry).
//! - Any JSON Schema becomes a descriptor's parameters with
//!   [`import_input`](crate::import_input), reporting whatever it had to change:
//!
#![cfg_attr(feature = "macros", doc = "```")]
#![cfg_attr(not(feature = "macros"), doc = "```text")]
//! use serde_json::json;
//! use tooldef::import_input;
//!
//! let imported = import_input(&json!({
//!     "type": "object",
//!     "properties": {"city": {"type": "string", "description": "City name"}},
//!     "required": ["city"]
//! }))
//! .unwrap();
//! let params = &imported.value.params;
//! assert_eq!(params.len(), 1);
//! assert!(params[0].required);
//! assert!(imported.notes.is_empty()); // nothing had to change
//! ```
//!
//! - A `$ref` may point at any place of its schema, as published servers write them
//!   (`{"$ref": "#/properties/contents/items"}`, recursion included): the place becomes a
//!   definition of its own (`Input_contents_items`), with a note, and renders wherever
//!   definitions do; a provider that takes no recursion says so for a recursive one.
//! - Provider JSON (an MCP `tools/list` result, OpenAI, Anthropic or Gemini tools) is imported by
//!   the provider crates (`tooldef_mcp::import_tools`, ...) and by `tooldef import`.
//!
//! [`Override`](crate::Override)s patch a registered descriptor (rename, describe, constrain or
//! hide a parameter) and dispatch honours every change.
//!
//! # The attribute reference
//!
//! Every key of `#[tool]`, `#[param]`, `#[tools]`, `#[derive(Tool)]` and
//! `#[derive(ToolSchema)]`, what the macros check, and what they expand to.
//!
#![doc = include_str!("guide/reference.md")]
