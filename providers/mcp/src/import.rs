//! The reverse direction: MCP `tools/list` results imported into [`ToolDescriptor`]s, through
//! the spec-file reader (so the JSON Schema import and every descriptor check are the ones
//! `tooldef import` uses).

use serde_json::{Map, Value};
use tooldef::json_schema::ImportNote;
use tooldef::json_schema::KeyOrder;
use tooldef::spec::spec_from_value_ordered;
use tooldef::{JsonPointer, ToolDescriptor};

use crate::render::EXTENSION_NAMESPACE;

/// A `tools/list` result that cannot be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{pointer}: {message}")]
pub struct ImportError {
    /// JSON pointer of the tool (or part) at fault, within the value given.
    pub pointer: JsonPointer,
    /// What is wrong, naming the tool and the JSON pointer inside its schema.
    pub message: String,
}

/// The imported tools, in list order, with what the import dropped or inferred.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedTools {
    /// The descriptors.
    pub tools: Vec<ToolDescriptor>,
    /// Notes, with pointers from the list (`/tools/0/inputSchema/...`).
    pub notes: Vec<ImportNote>,
}

/// Every tool of a list imported on its own ([`import_each`]): those that imported, and each one
/// that did not with its error.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedEach {
    /// The descriptors of the tools that imported, in list order.
    pub tools: Vec<ToolDescriptor>,
    /// Notes of the tools that imported, with pointers from the list (`/tools/0/inputSchema/...`).
    pub notes: Vec<ImportNote>,
    /// One error per tool that did not import, in list order; its pointer names the tool
    /// (`/tools/3`) and its message every problem found in it.
    pub failed: Vec<ImportError>,
}

/// Imports the tools of a `tools/list` result (`{"tools":[…]}`), a JSON-RPC response carrying
/// one (`{"result":{"tools":[…]}}`), or a bare array of `Tool`s.
///
/// `Tool` fields the IR does not model (`icons`, `_meta`, `execution`, and any other) are kept
/// verbatim in the descriptor's [`Extensions`](tooldef::Extensions) under
/// [`EXTENSION_NAMESPACE`], and the renderer writes them back.
///
/// # Errors
///
/// The first tool that cannot be imported: a name outside MCP's `^[a-zA-Z0-9_.-]{1,128}$`, a
/// schema the IR cannot express, or schemas of more than [`tooldef::MAX_IMPORT_NODES`] nodes.
pub fn import_tools(list: &Value) -> Result<ImportedTools, ImportError> {
    import_tools_ordered(list, &KeyOrder::default())
}

/// As [`import_tools`], from the list's JSON text: parameters keep the order the server wrote
/// them in (a parsed `Value` keeps key order only under serde_json's `preserve_order` feature).
///
/// # Errors
///
/// Text that is not JSON (at pointer `""`), or as [`import_tools`].
pub fn import_tools_text(text: &str) -> Result<ImportedTools, ImportError> {
    let (list, order, too_large) = parse_list(text)?;
    import_tools_with(&list, &order, &too_large)
}

/// Parses a list's text, recording its key order and counting its schemas' nodes (a schema
/// far past [`tooldef::MAX_IMPORT_NODES`] is not built: it is left `null`, and refused here);
/// text that is not JSON is an error at `""`.
fn parse_list(text: &str) -> Result<(Value, KeyOrder, Vec<TooLarge>), ImportError> {
    let (list, order, refused) = KeyOrder::parse_schemas(text.as_bytes())
        .map_err(|e| ImportError { pointer: JsonPointer::root(), message: e.to_string() })?;
    Ok((list, order, refused.into_iter().map(TooLarge).collect()))
}

/// A schema of the list refused while it was read (too many nodes), by its pointer in the list.
struct TooLarge(tooldef::json_schema::ImportError);

impl TooLarge {
    /// The error of the tool at `at` (its pointer in the list, `/tools/3`), when its schema is
    /// this one: named as the import names it.
    fn of_tool(&self, at: &JsonPointer, tool: &Value) -> Option<ImportError> {
        let rest = self.0.pointer.rebased(at, &JsonPointer::root())?;
        // Spelled as the spec reader spells the import's other errors.
        let rest = [("inputSchema", "input_schema"), ("outputSchema", "output_schema")]
            .iter()
            .find_map(|(mcp, spec)| {
                let (mcp, spec) =
                    (JsonPointer::from_segments([*mcp]), JsonPointer::from_segments([*spec]));
                rest.rebased(&mcp, &spec)
            })
            .unwrap_or(rest);
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
        Some(ImportError {
            pointer: at.clone(),
            message: format!("MCP tool `{name}`: #{rest}: {}", self.0.kind),
        })
    }
}

/// As [`import_tools`], with the key order `order` recorded from the list's text.
///
/// # Errors
///
/// As [`import_tools`].
pub fn import_tools_ordered(list: &Value, order: &KeyOrder) -> Result<ImportedTools, ImportError> {
    import_tools_with(list, order, &[])
}

/// [`import_tools_ordered`], with the schemas refused while the list was read.
fn import_tools_with(
    list: &Value,
    order: &KeyOrder,
    too_large: &[TooLarge],
) -> Result<ImportedTools, ImportError> {
    let (tools, base) = tool_list(list)?;
    let mut out = ImportedTools { tools: Vec::with_capacity(tools.len()), notes: Vec::new() };
    for (i, tool) in tools.iter().enumerate() {
        let (descriptor, notes) = import_refused(tool, &index(&base, i), order, too_large)?;
        out.notes.extend(notes);
        out.tools.push(descriptor);
    }
    Ok(out)
}

/// As [`import_tools`], but one bad tool does not stop the others: every tool is imported on its
/// own, and each that cannot be is in [`ImportedEach::failed`] with its error.
///
/// ```
/// use serde_json::json;
///
/// let list = json!({"tools": [
///     {"name": "ok", "inputSchema": {"type": "object"}},
///     {"name": "bad name", "inputSchema": {"type": "object"}},
///     {"name": "also_ok", "inputSchema": {"type": "object"}}
/// ]});
/// let each = tooldef_mcp::import_each(&list).unwrap();
/// let names: Vec<&str> = each.tools.iter().map(|t| t.name.as_str()).collect();
/// assert_eq!(names, ["ok", "also_ok"]);
/// assert_eq!(each.failed.len(), 1);
/// assert_eq!(each.failed[0].pointer, "/tools/1");
/// ```
///
/// # Errors
///
/// Only a list that is not one: no array of tools where [`import_tools`] looks for it.
pub fn import_each(list: &Value) -> Result<ImportedEach, ImportError> {
    import_each_ordered(list, &KeyOrder::default())
}

/// As [`import_each`], from the list's JSON text (parameters keep the order the server wrote
/// them in).
///
/// # Errors
///
/// Text that is not JSON (at pointer `""`), or as [`import_each`].
pub fn import_each_text(text: &str) -> Result<ImportedEach, ImportError> {
    let (list, order, too_large) = parse_list(text)?;
    import_each_with(&list, &order, &too_large)
}

/// As [`import_each`], with the key order `order` recorded from the list's text.
///
/// # Errors
///
/// As [`import_each`].
pub fn import_each_ordered(list: &Value, order: &KeyOrder) -> Result<ImportedEach, ImportError> {
    import_each_with(list, order, &[])
}

/// [`import_each_ordered`], with the schemas refused while the list was read.
fn import_each_with(
    list: &Value,
    order: &KeyOrder,
    too_large: &[TooLarge],
) -> Result<ImportedEach, ImportError> {
    let (tools, base) = tool_list(list)?;
    let mut out = ImportedEach {
        tools: Vec::with_capacity(tools.len()),
        notes: Vec::new(),
        failed: Vec::new(),
    };
    for (i, tool) in tools.iter().enumerate() {
        match import_refused(tool, &index(&base, i), order, too_large) {
            Ok((descriptor, notes)) => {
                out.notes.extend(notes);
                out.tools.push(descriptor);
            }
            Err(e) => out.failed.push(e),
        }
    }
    Ok(out)
}

/// The array of tools in `list`, and its pointer.
fn tool_list(list: &Value) -> Result<(&Vec<Value>, JsonPointer), ImportError> {
    let (tools, base): (_, &[&str]) = if let Some(t) = list.pointer("/result/tools") {
        (t, &["result", "tools"])
    } else if let Some(t) = list.get("tools") {
        (t, &["tools"])
    } else {
        (list, &[])
    };
    let base = JsonPointer::from_segments(base);
    match tools.as_array() {
        Some(tools) => Ok((tools, base)),
        None => {
            Err(ImportError { pointer: base, message: "expected an array of tools".to_owned() })
        }
    }
}

/// The pointer of item `i` of the array at `base`.
pub(crate) fn index(base: &JsonPointer, i: usize) -> JsonPointer {
    let mut at = base.clone();
    at.push_index(i);
    at
}

/// [`import_one`], unless the tool's schema was refused while the list was read.
fn import_refused(
    tool: &Value,
    at: &JsonPointer,
    order: &KeyOrder,
    too_large: &[TooLarge],
) -> Result<(ToolDescriptor, Vec<ImportNote>), ImportError> {
    match too_large.iter().find_map(|t| t.of_tool(at, tool)) {
        Some(e) => Err(e),
        None => import_one(tool, at, order),
    }
}

/// One tool of a list, at pointer `at`: its descriptor and notes.
fn import_one(
    tool: &Value,
    at: &JsonPointer,
    order: &KeyOrder,
) -> Result<(ToolDescriptor, Vec<ImportNote>), ImportError> {
    let Some(map) = tool.as_object() else {
        return Err(ImportError {
            pointer: at.clone(),
            message: "a tool must be an object".into(),
        });
    };
    let mut spec = Map::new();
    let mut extra = Map::new();
    for (key, value) in map {
        let spec_key = match key.as_str() {
            "name" | "title" | "description" | "annotations" => key.as_str(),
            "inputSchema" => "input_schema",
            "outputSchema" => "output_schema",
            _ => {
                extra.insert(key.clone(), value.clone());
                continue;
            }
        };
        spec.insert(spec_key.to_owned(), value.clone());
    }
    if !extra.is_empty() {
        let mut ext = Map::new();
        ext.insert(EXTENSION_NAMESPACE.to_owned(), Value::Object(extra));
        spec.insert("extensions".to_owned(), Value::Object(ext));
    }
    let label = map.get("name").and_then(Value::as_str).unwrap_or("?");
    let mut spec_order = order.subtree(at.child("inputSchema").as_str()).rebased("/input_schema");
    spec_order.extend(order.subtree(at.child("outputSchema").as_str()).rebased("/output_schema"));
    let file = format!("MCP tool `{label}`");
    let parsed = spec_from_value_ordered(&file, &Value::Object(spec), &spec_order, None)
        .map_err(|e| ImportError { pointer: at.clone(), message: e.to_string() })?;
    // The spec reader names `input_schema`; point at the MCP spelling instead.
    let spellings = [("input_schema", "inputSchema"), ("output_schema", "outputSchema")]
        .map(|(spec, mcp)| (JsonPointer::from_segments([spec]), JsonPointer::from_segments([mcp])));
    let notes = parsed.notes.into_iter().map(|mut n| {
        if let Some(p) = spellings.iter().find_map(|(spec, mcp)| n.pointer.rebased(spec, mcp)) {
            n.pointer = p;
        }
        n.prefixed(at)
    });
    Ok((parsed.descriptor, notes.collect()))
}
