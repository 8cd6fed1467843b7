//! The tool result every provider's content test maps: one piece of each kind of
//! [`Content`](tooldef::Content), in a fixed order, so that each provider's test shows, kind by
//! kind, what its message carries, carries with a change, or reports as not carried.

use serde_json::json;
use tooldef::{Content, ResourceContents, ResourceLink, ToolCall, ToolResult};

/// The call the result answers.
pub fn call() -> ToolCall {
    ToolCall::new("call_7", "fetch_report", json!({}))
}

/// A successful result holding, in this order: text, a PNG image, WAV audio, a Markdown text
/// resource, a PDF blob resource and a link to a CSV file.
pub fn every_kind() -> ToolResult {
    let mut result = ToolResult::success(&call(), json!("Report ready."));
    result.structured = None;
    result.content.extend([
        Content::image("iVBORw0KGgo=", "image/png"),
        Content::audio("UklGRiQAAABXQVZF", "audio/wav"),
        Content::resource(
            ResourceContents::text("file:///reports/summary.md", "# Summary\nAll good.")
                .mime_type("text/markdown"),
        ),
        Content::resource(
            ResourceContents::blob("file:///reports/q3.pdf", "JVBERi0xLjcK")
                .mime_type("application/pdf"),
        ),
        Content::ResourceLink(
            ResourceLink::new("file:///reports/raw.csv", "raw.csv")
                .mime_type("text/csv")
                .size(52_000),
        ),
    ]);
    result
}
