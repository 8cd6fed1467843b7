//! The tools of the official MCP conformance suite (`@modelcontextprotocol/conformance`,
//! `npx conformance server --url URL`), written as a tooldef user writes tools: `#[tool]`
//! functions in a `Toolbox`, served by `McpServer` over streamable HTTP.
//!
//! ```text
//! cargo run -p tooldef-examples --example mcp_conformance_server -- 127.0.0.1:0
//! ```
//!
//! The argument is the address to listen on (`127.0.0.1:0` picks a free port; the default);
//! the first line on stdout is the endpoint's URL. `.ci/mcp-conformance.sh` runs the suite
//! against it.
//!
//! Tools that talk back to the client while they run (logs, progress, sampling, elicitation)
//! take a `&CallContext` parameter; the others are plain functions. The tool whose input
//! schema must reach the client exactly as written (`json_schema_2020_12_tool`, with its
//! `$schema` and `$defs`) is imported from its JSON, as a tool a spec file defines is.

use std::io::Write as _;
use std::time::Duration;

use serde_json::{Value, json};
use tooldef::context::{
    CallContext, Elicitation, ElicitationRequest, LogLevel, Progress, SamplingRequest,
};
use tooldef::{
    BoxFuture, Content, DynamicTool, Executor, ResourceContents, ToolCall, ToolDescriptor,
    ToolError, ToolResult, Toolbox, tool,
};
use tooldef_mcp::server::{McpServer, ServerOptions};

/// Returns a fixed line of text.
#[tool]
fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Always fails, with a message for the model.
#[tool]
fn test_error_handling() -> Result<String, ToolError> {
    Err(ToolError::new("This tool intentionally returns an error for testing"))
}

/// Sends three log messages, 50 ms apart.
#[tool]
async fn test_tool_with_logging(ctx: &CallContext) -> Result<String, ToolError> {
    ctx.log(LogLevel::Info, "Tool execution started").await?;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool processing data").await?;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool execution completed").await?;
    Ok("Logging test completed".into())
}

/// Reports progress 0, 50 and 100 of 100, 50 ms apart.
#[tool]
async fn test_tool_with_progress(ctx: &CallContext) -> Result<String, ToolError> {
    for (i, step) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        ctx.progress(Progress::new(step).total(100.0)).await?;
    }
    Ok("Progress test completed".into())
}

/// Asks the client's model to answer `prompt`.
#[tool]
async fn test_sampling(
    /// The prompt for the model.
    prompt: String,
    ctx: &CallContext,
) -> Result<String, ToolError> {
    let answer = ctx.sample(&SamplingRequest::new(prompt, 100)).await?;
    Ok(format!("LLM response: {}", answer.text()))
}

/// Asks the user for a name and an email address.
#[tool]
async fn test_elicitation(
    /// What to tell the user.
    message: String,
    ctx: &CallContext,
) -> Result<String, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"}
        },
        "required": ["username", "email"]
    });
    let answer = ctx.elicit(&ElicitationRequest::new(message, schema)).await?;
    Ok(format!("User response: {}", describe(&answer)))
}

/// Asks the user for values of every primitive type, each with a default.
#[tool]
async fn test_elicitation_sep1034_defaults(ctx: &CallContext) -> Result<String, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "score": {"type": "number", "default": 95.5},
            "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
            "verified": {"type": "boolean", "default": true}
        }
    });
    let request = ElicitationRequest::new("Please review your profile", schema);
    let answer = ctx.elicit(&request).await?;
    Ok(format!("Elicitation completed: {}", describe(&answer)))
}

/// Asks the user to pick from enums of each kind: untitled, titled, legacy titled, and
/// multi-select with and without titles.
#[tool]
async fn test_elicitation_sep1330_enums(ctx: &CallContext) -> Result<String, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {"type": "string", "oneOf": [
                {"const": "value1", "title": "First Option"},
                {"const": "value2", "title": "Second Option"},
                {"const": "value3", "title": "Third Option"}
            ]},
            "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"]},
            "untitledMulti": {"type": "array",
                "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
            "titledMulti": {"type": "array", "items": {"anyOf": [
                {"const": "value1", "title": "First Choice"},
                {"const": "value2", "title": "Second Choice"},
                {"const": "value3", "title": "Third Choice"}
            ]}}
        }
    });
    let answer = ctx.elicit(&ElicitationRequest::new("Pick your options", schema)).await?;
    Ok(format!("Elicitation completed: {}", describe(&answer)))
}

fn describe(answer: &Elicitation) -> String {
    match answer {
        Elicitation::Accept(values) => {
            format!("action=accept, content={}", Value::Object(values.clone()))
        }
        Elicitation::Decline => "action=decline".into(),
        Elicitation::Cancel => "action=cancel".into(),
    }
}

/// A tool whose result is fixed content rather than a value (an image, say): an [`Executor`]
/// written by hand, since a `#[tool]` function returns a value.
struct FixedContent {
    descriptor: ToolDescriptor,
    content: fn() -> Vec<Content>,
}

impl Executor for FixedContent {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.descriptor
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            if let Err(e) = self.check_arguments(&call.arguments) {
                return e.to_result(call);
            }
            ToolResult {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content: (self.content)(),
                ..ToolResult::default()
            }
        })
    }
}

/// Eight samples of silence: an 8 kHz, 8-bit mono WAV file.
const SILENT_WAV: &str = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

/// The text resource the suite's embedded-resource tool returns.
fn embedded_resource() -> Content {
    let text = "This is an embedded resource content.";
    Content::resource(
        ResourceContents::text("test://embedded-resource", text).mime_type("text/plain"),
    )
}

/// A 1x1 red PNG.
const RED_PIXEL_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// The suite's JSON Schema 2020-12 tool, as its definition is written (the way a tool from a
/// spec file or another MCP server comes in): `$schema`, `$defs` and `additionalProperties`
/// reach the client as they are.
fn json_schema_2020_12_tool() -> Result<DynamicTool, Box<dyn std::error::Error>> {
    let list = json!({"tools": [{
        "name": "json_schema_2020_12_tool",
        "description": "Tool with JSON Schema 2020-12 features",
        "inputSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "type": "object",
                    "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
                }
            },
            "properties": {
                "name": {"type": "string"},
                "address": {"$ref": "#/$defs/address"}
            },
            "additionalProperties": false
        }
    }]});
    let imported = tooldef_mcp::import_tools_text(&list.to_string())?;
    let descriptor = imported.tools.into_iter().next().ok_or("the tool did not import")?;
    Ok(DynamicTool::new_sync(descriptor, |args| Ok(json!({"received": args}))))
}

fn toolbox() -> Result<Toolbox, Box<dyn std::error::Error>> {
    let image = ToolDescriptor::builder("test_image_content")
        .description("Returns a 1x1 red PNG image.")
        .build()?;
    let image = FixedContent {
        descriptor: image,
        content: || {
            vec![Content::Image { data: RED_PIXEL_PNG.into(), mime_type: "image/png".into() }]
        },
    };
    let audio = FixedContent {
        descriptor: ToolDescriptor::builder("test_audio_content")
            .description("Returns a short WAV file of silence.")
            .build()?,
        content: || vec![Content::audio(SILENT_WAV, "audio/wav")],
    };
    let resource = FixedContent {
        descriptor: ToolDescriptor::builder("test_embedded_resource")
            .description("Returns a text resource embedded in the result.")
            .build()?,
        content: || vec![embedded_resource()],
    };
    let mixed = FixedContent {
        descriptor: ToolDescriptor::builder("test_multiple_content_types")
            .description("Returns text, an image and an embedded resource.")
            .build()?,
        content: || {
            vec![
                Content::text("Multiple content types test:"),
                Content::image(RED_PIXEL_PNG, "image/png"),
                embedded_resource(),
            ]
        },
    };
    Ok(Toolbox::new()
        .with(TestSimpleText)
        .with(TestErrorHandling)
        .with(TestToolWithLogging)
        .with(TestToolWithProgress)
        .with(TestSampling)
        .with(TestElicitation)
        .with(TestElicitationSep1034Defaults)
        .with(TestElicitationSep1330Enums)
        .with_executor(std::sync::Arc::new(image))
        .with_executor(std::sync::Arc::new(audio))
        .with_executor(std::sync::Arc::new(resource))
        .with_executor(std::sync::Arc::new(mixed))
        .with_executor(std::sync::Arc::new(json_schema_2020_12_tool()?)))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let address = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:0".into());
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&address).await?;
        let bound = listener.local_addr()?;
        let mut out = std::io::stdout().lock();
        writeln!(out, "http://{bound}/mcp")?;
        out.flush()?;
        drop(out);
        let options =
            ServerOptions::default().server_info("tooldef-conformance", env!("CARGO_PKG_VERSION"));
        McpServer::from_toolbox(toolbox()?).with_options(options).serve_http(listener).await?;
        Ok(())
    })
}
