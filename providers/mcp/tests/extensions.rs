//! MCP `Tool` fields tooldef does not model (`_meta`, `icons`, `execution`, and any later
//! field) survive an import followed by a render, exactly.

use serde_json::{Value, json};
use tooldef::render::{LossPolicy, Renderer};
use tooldef_mcp::{EXTENSION_NAMESPACE, McpRenderer, McpVersion, import_tools};
use tooldef_testkit::specs::{assert_conforms, mcp};

/// A tool as a 2025-11-25 server lists it: title, annotations, icons, `_meta` and `execution`.
fn listed_tool() -> Value {
    json!({
        "name": "github.create_issue",
        "title": "Create issue",
        "description": "Open an issue in a repository.",
        "icons": [{"src": "https://example.com/icon.png", "mimeType": "image/png", "sizes": ["48x48"]}],
        "inputSchema": {
            "type": "object",
            "properties": {"title": {"type": "string"}},
            "required": ["title"],
            "additionalProperties": false
        },
        "annotations": {"title": "Create an issue", "readOnlyHint": false, "openWorldHint": true},
        "execution": {"taskSupport": "optional"},
        "_meta": {"io.example/owner": "platform", "nested": {"list": [1, 2.5, null, true]}}
    })
}

#[test]
fn import_then_render_gives_every_field_back() {
    let listed = listed_tool();
    let imported = import_tools(&json!({"tools": [listed.clone()]})).unwrap();
    let d = &imported.tools[0];
    assert!(imported.notes.is_empty(), "{:?}", imported.notes);
    let kept = d.extensions.namespace(EXTENSION_NAMESPACE).unwrap();
    let mut keys: Vec<_> = kept.keys().collect();
    keys.sort();
    assert_eq!(keys, ["_meta", "execution", "icons"]);
    for version in [McpVersion::V2025_11_25, McpVersion::V2026_07_28] {
        let rendered = McpRenderer::version(version).render(d, LossPolicy::Refuse).unwrap();
        assert_eq!(rendered.to_value(), listed, "{}", version.as_str());
        assert!(rendered.report().is_empty(), "{}", rendered.report());
    }
    // The listing is a valid 2025-11-25 `Tool` (the version that has `execution`), and so is
    // what is rendered from it.
    let rendered =
        McpRenderer::version(McpVersion::V2025_11_25).render(d, LossPolicy::Refuse).unwrap();
    assert_conforms("Tool", mcp::validate_tool(mcp::McpVersion::V2025_11_25, &rendered.to_value()));
}

#[test]
fn a_kept_field_never_overwrites_a_modelled_one() {
    let imported = import_tools(&json!([listed_tool()])).unwrap();
    let mut d = imported.tools[0].clone();
    d.extensions.insert(EXTENSION_NAMESPACE, "description", json!("stale"));
    let r = McpRenderer::new().render(&d, LossPolicy::Allow).unwrap();
    assert_eq!(r.to_value()["description"], "Open an issue in a repository.");
    assert_eq!(r.report().lossy().count(), 1);
    assert!(McpRenderer::new().render(&d, LossPolicy::Refuse).is_err());
}
