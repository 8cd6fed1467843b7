//! `tooldef import`: a provider's tool list (MCP, OpenAI, Anthropic, Gemini) into specs.
//!
//! Owns finding the tools in each provider's shapes, turning each into spec JSON (Gemini's
//! OpenAPI-subset schemas into JSON Schema on the way), and mapping every error and note back to
//! the JSON pointer of the input file. Reading and writing files is the caller's.

use serde_json::{Map, Value};
use tooldef::arg_checks::kind;
use tooldef::json_schema::{ImportError, ImportNote, SchemaKeyword};
use tooldef::{JsonPointer, KeyOrder, Spec, SpecError, SpecErrorKind, spec_from_value_ordered};

use crate::providers::ImportFormat;

/// One tool read from the input.
#[derive(Debug)]
pub(crate) struct ImportedTool {
    /// JSON pointer of the tool in the input.
    pub(crate) pointer: String,
    /// The tool as a spec.
    pub(crate) spec: Spec,
}

/// What an import read: the tools, and warnings (skipped tools, dropped fields, notes), each
/// starting with its JSON pointer in the input (the caller adds the file).
#[derive(Debug, Default)]
pub(crate) struct Imported {
    pub(crate) tools: Vec<ImportedTool>,
    /// One message per tool that cannot be imported (naming the file and its JSON pointer), in
    /// input order; the other tools are still read.
    pub(crate) failed: Vec<String>,
    /// When tools failed and the input looks like another format's list: which.
    pub(crate) hint: Option<String>,
    pub(crate) warnings: Vec<String>,
    /// How many entries the input's tool list has (tools, skipped or not).
    pub(crate) entries: usize,
    /// What the input looks like, when its shape is one of the known formats'.
    pub(crate) shape: Option<Shape>,
}

impl Imported {
    /// Whether the input looks like what `format` reads (or like nothing known).
    pub(crate) fn shape_matches(&self, format: ImportFormat) -> bool {
        self.shape.is_none_or(|shape| shape.format() == format)
    }

    /// Why a non-empty input gave no tool (`None` when it gave tools or its list is empty):
    /// the format it looks like instead, or that every entry was skipped.
    pub(crate) fn why_empty(&self, format: ImportFormat) -> Option<String> {
        if !self.tools.is_empty() || !self.failed.is_empty() || self.entries == 0 {
            return None;
        }
        Some(match self.shape.and_then(|shape| mismatch(shape, format)) {
            Some(hint) => format!("no tools found as `--from {}`: {hint}", format.name()),
            None => match self.entries {
                1 => "no tools found: its one entry was skipped (see the warning above)".into(),
                n => {
                    format!("no tools found: all {n} entries were skipped (see the warnings above)")
                }
            },
        })
    }
}

/// A tool list's shape, as each provider writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Tools with `inputSchema`.
    Mcp,
    /// `{"type": "function", "function": {...}}`.
    OpenAiChat,
    /// `{"type": "function", "name": ...}`, flat.
    OpenAiResponses,
    /// Tools with `input_schema`, or server tools with a dated `type`.
    Anthropic,
    /// `functionDeclarations`, or declarations with `parametersJsonSchema` or bare `parameters`.
    Gemini,
}

impl Shape {
    /// What the input looks like, for messages.
    fn describe(self) -> &'static str {
        match self {
            Shape::Mcp => "an MCP `tools/list` result",
            Shape::OpenAiChat => "an OpenAI Chat tools array",
            Shape::OpenAiResponses => "an OpenAI Responses tools array",
            Shape::Anthropic => "an Anthropic tools array",
            Shape::Gemini => "Gemini function declarations",
        }
    }

    /// The `--from` format that reads it.
    fn format(self) -> ImportFormat {
        match self {
            Shape::Mcp => ImportFormat::Mcp,
            Shape::OpenAiChat | Shape::OpenAiResponses => ImportFormat::OpenAi,
            Shape::Anthropic => ImportFormat::Anthropic,
            Shape::Gemini => ImportFormat::Gemini,
        }
    }
}

/// `this looks like X; try --from Y` when `shape` is not what `format` reads.
fn mismatch(shape: Shape, format: ImportFormat) -> Option<String> {
    (shape.format() != format).then(|| {
        format!("this looks like {}; try `--from {}`", shape.describe(), shape.format().name())
    })
}

/// The entries of a tool list, wherever the known wrappers put them.
fn entries(root: &Value) -> &[Value] {
    fn array<'v>(v: &'v Value, key: &str) -> Option<&'v [Value]> {
        v.get(key).and_then(Value::as_array).map(Vec::as_slice)
    }
    match root {
        Value::Array(items) => items,
        _ => array(root, "tools")
            .or_else(|| root.get("result").and_then(|r| array(r, "tools")))
            .or_else(|| array(root, "functionDeclarations"))
            .unwrap_or(&[]),
    }
}

/// The shape of one entry, by the keys only its format has.
fn shape_of(entry: &Value) -> Option<Shape> {
    let obj = entry.as_object()?;
    let has = |key: &str| obj.contains_key(key);
    let ty = obj.get("type").and_then(Value::as_str);
    Some(if has("inputSchema") {
        Shape::Mcp
    } else if has("functionDeclarations") || has("parametersJsonSchema") {
        Shape::Gemini
    } else if ty == Some("function") && obj.get("function").is_some_and(Value::is_object) {
        Shape::OpenAiChat
    } else if ty == Some("function") {
        Shape::OpenAiResponses
    } else if has("input_schema") || ty == Some("custom") || ty.is_some_and(is_dated_tool_type) {
        Shape::Anthropic
    } else if ty.is_none() && has("name") && has("parameters") {
        // A Gemini declaration: OpenAPI `parameters` and no `type`.
        Shape::Gemini
    } else {
        return None;
    })
}

/// An Anthropic server tool's versioned type (`web_search_20250305`).
fn is_dated_tool_type(t: &str) -> bool {
    t.rsplit_once('_')
        .is_some_and(|(_, date)| date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()))
}

/// Reads `text` (the file labelled `file`) as a tool list in `format`: every tool, those that
/// cannot be imported in [`Imported::failed`] (and when the input looks like another format's
/// list, [`Imported::hint`] says which).
///
/// # Errors
///
/// The list itself cannot be read (malformed JSON, no list where the format has one): a message
/// naming the file and the line and column or the JSON pointer at fault, and the format it looks
/// like on a second line.
pub(crate) fn import(file: &str, text: &str, format: ImportFormat) -> Result<Imported, String> {
    // Parsed with its key order, so that imported properties keep the order of the input, and
    // its schema nodes counted: a schema far past the limit is refused before it is built.
    let (root, order, too_large) = KeyOrder::parse_schemas(text.as_bytes()).map_err(|e| {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = full.strip_suffix(&suffix).unwrap_or(&full);
        format!("{file}:{}:{}: malformed JSON: {message}", e.line(), e.column())
    })?;
    let entries = entries(&root);
    let mut out = Imported {
        entries: entries.len(),
        shape: entries.iter().find_map(shape_of),
        ..Imported::default()
    };
    let hint = out.shape.and_then(|shape| mismatch(shape, format));
    read_tools(file, &root, &order, &too_large, format, &mut out).map_err(
        |message| match &hint {
            Some(hint) => format!("{message}\n{file}: {hint}"),
            None => message,
        },
    )?;
    if !out.failed.is_empty() {
        out.hint = hint.map(|hint| format!("{file}: {hint}"));
    }
    Ok(out)
}

/// Converts every tool of the list into `out` (warnings for what is skipped or dropped).
fn read_tools(
    file: &str,
    root: &Value,
    order: &KeyOrder,
    too_large: &[ImportError],
    format: ImportFormat,
    out: &mut Imported,
) -> Result<(), String> {
    let tools = match format {
        ImportFormat::Mcp => list(file, root, &[&["tools"], &["result", "tools"]])?,
        ImportFormat::OpenAi | ImportFormat::Anthropic => list(file, root, &[&["tools"]])?,
        ImportFormat::Gemini => gemini_declarations(file, root, &mut out.warnings)?,
    };
    for (pointer, tool) in tools {
        // A tool whose schema was too large to read is refused where the count crossed.
        let at = JsonPointer::parse(&pointer).unwrap_or_default();
        if let Some(e) = too_large.iter().find(|e| e.pointer.starts_with(&at)) {
            out.failed.push(format!("{file}: {e}"));
            continue;
        }
        // One bad tool never hides the others: its message is kept and the next one read.
        match read_tool(file, tool, &pointer, order, format, &mut out.warnings) {
            Ok(Some(spec)) => {
                let name = spec.descriptor.name.as_str();
                if let Some(first) =
                    out.tools.iter().find(|t| t.spec.descriptor.name.as_str() == name)
                {
                    out.failed.push(format!(
                        "{file}: #{pointer}: tool `{name}` is already defined at #{}",
                        first.pointer
                    ));
                } else {
                    out.tools.push(ImportedTool { pointer, spec });
                }
            }
            Ok(None) => {}
            Err(message) => out.failed.push(message),
        }
    }
    Ok(())
}

/// One entry of the list as a spec (`None`: skipped with a warning).
fn read_tool(
    file: &str,
    tool: &Value,
    pointer: &str,
    order: &KeyOrder,
    format: ImportFormat,
    warnings: &mut Vec<String>,
) -> Result<Option<Spec>, String> {
    let Value::Object(obj) = tool else {
        return Err(format!("{file}: #{pointer}: expected a tool object, got {}", kind(tool)));
    };
    let converted = match format {
        ImportFormat::Mcp => Some(from_mcp(obj, pointer)),
        ImportFormat::OpenAi => from_openai(file, obj, pointer, warnings)?,
        ImportFormat::Anthropic => from_anthropic(obj, pointer, warnings),
        ImportFormat::Gemini => Some(from_gemini(obj, pointer, warnings)),
    };
    let Some(Converted { spec, map }) = converted else { return Ok(None) };
    if !spec.contains_key("name") {
        // The spec parser would say so without a pointer into the input.
        return Err(format!("{file}: #{}: the tool has no `name`", map[0].1));
    }
    // The schemas' key order, moved from where they were in the input to the spec keys.
    let mut spec_order = KeyOrder::default();
    for (to, from) in &map {
        if matches!(*to, "/input_schema" | "/output_schema") {
            spec_order.extend(order.subtree(from).rebased(to));
        }
    }
    let parsed = spec_from_value_ordered(file, &Value::Object(spec), &spec_order, None)
        .map_err(|e| relocated(e, &map).to_string())?;
    for note in &parsed.notes {
        warnings.push(relocate_note(note, &map).to_string());
    }
    Ok(Some(parsed))
}

fn token(key: &str) -> String {
    tooldef::pointer::escape(key).into_owned()
}

/// The tools of a list: the root array, or the array at one of `paths` (first found).
fn list<'v>(
    file: &str,
    root: &'v Value,
    paths: &[&[&str]],
) -> Result<Vec<(String, &'v Value)>, String> {
    if let Value::Array(items) = root {
        return Ok(items.iter().enumerate().map(|(i, v)| (format!("/{i}"), v)).collect());
    }
    for path in paths {
        let mut at = root;
        let mut pointer = String::new();
        let found = path.iter().all(|key| match at.get(key) {
            Some(v) => {
                at = v;
                pointer.push('/');
                pointer.push_str(key);
                true
            }
            None => false,
        });
        if found {
            let Value::Array(items) = at else {
                return Err(format!(
                    "{file}: #{pointer}: expected an array of tools, got {}",
                    kind(at)
                ));
            };
            return Ok(items
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("{pointer}/{i}"), v))
                .collect());
        }
    }
    let expected: Vec<String> = paths.iter().map(|p| format!("`{}`", p.join("."))).collect();
    Err(format!(
        "{file}: #: expected an array of tools or an object with {}",
        expected.join(" or ")
    ))
}

/// Gemini: a declarations array, `{"functionDeclarations": [...]}`, or tools holding them.
fn gemini_declarations<'v>(
    file: &str,
    root: &'v Value,
    warnings: &mut Vec<String>,
) -> Result<Vec<(String, &'v Value)>, String> {
    let holders: Vec<(String, &Value)> = match root {
        Value::Array(items) if items.iter().any(|t| t.get("name").is_none()) => {
            items.iter().enumerate().map(|(i, v)| (format!("/{i}"), v)).collect()
        }
        Value::Array(_) => return list(file, root, &[]),
        Value::Object(o) if o.contains_key("functionDeclarations") => vec![(String::new(), root)],
        Value::Object(o) if o.contains_key("tools") => list(file, root, &[&["tools"]])?,
        other => {
            return Err(format!(
                "{file}: #: expected `functionDeclarations`, a `tools` array or an array of declarations, got {}",
                kind(other)
            ));
        }
    };
    let mut out = Vec::new();
    for (pointer, holder) in holders {
        match holder.get("functionDeclarations") {
            Some(Value::Array(decls)) => out.extend(
                decls
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (format!("{pointer}/functionDeclarations/{i}"), v)),
            ),
            Some(other) => {
                return Err(format!(
                    "{file}: #{pointer}/functionDeclarations: expected an array, got {}",
                    kind(other)
                ));
            }
            None => warnings.push(format!(
                "#{pointer}: skipped: a tool without `functionDeclarations` (a built-in tool)"
            )),
        }
    }
    Ok(out)
}

/// A tool as spec JSON, with where each spec key came from in the input.
struct Converted {
    spec: Map<String, Value>,
    /// (spec pointer prefix, input pointer), the tool itself under `""`.
    map: Vec<(&'static str, String)>,
}

impl Converted {
    fn new(tool_pointer: &str) -> Self {
        Converted { spec: Map::new(), map: vec![("", tool_pointer.to_owned())] }
    }

    /// Copies `obj[from]` to the spec key `to` (keeping its source pointer).
    fn copy(&mut self, obj: &Map<String, Value>, base: &str, from: &str, to: &'static str) {
        if let Some(v) = obj.get(from) {
            self.put(to, v.clone(), format!("{base}/{}", token(from)));
        }
    }

    fn put(&mut self, to: &'static str, value: Value, source: String) {
        self.spec.insert(to.into(), value);
        self.map.push((to_pointer(to), source));
    }
}

fn to_pointer(key: &'static str) -> &'static str {
    match key {
        "name" => "/name",
        "title" => "/title",
        "description" => "/description",
        "input_schema" => "/input_schema",
        "output_schema" => "/output_schema",
        _ => "/annotations",
    }
}

fn dropped(warnings: &mut Vec<String>, pointer: &str, key: &str, why: &str) {
    warnings.push(format!("#{pointer}/{}: `{key}` dropped: {why}", token(key)));
}

fn from_mcp(obj: &Map<String, Value>, pointer: &str) -> Converted {
    let mut c = Converted::new(pointer);
    c.copy(obj, pointer, "name", "name");
    c.copy(obj, pointer, "title", "title");
    c.copy(obj, pointer, "description", "description");
    c.copy(obj, pointer, "inputSchema", "input_schema");
    c.copy(obj, pointer, "outputSchema", "output_schema");
    c.copy(obj, pointer, "annotations", "annotations");
    // Fields the IR does not model (`_meta`, `icons`, `execution`...) are kept for the MCP
    // renderer under the spec's `extensions`.
    let known = ["name", "title", "description", "inputSchema", "outputSchema", "annotations"];
    let extra: Map<String, Value> = obj
        .iter()
        .filter(|(key, _)| !known.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    if !extra.is_empty() {
        let namespace = tooldef_mcp::EXTENSION_NAMESPACE;
        let mut ext = Map::new();
        ext.insert(namespace.to_owned(), Value::Object(extra));
        c.spec.insert("extensions".into(), Value::Object(ext));
        c.map.push(("/extensions/mcp", pointer.to_owned()));
    }
    c
}

fn from_openai(
    file: &str,
    obj: &Map<String, Value>,
    pointer: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<Converted>, String> {
    match obj.get("type") {
        Some(Value::String(t)) if t == "function" => {}
        None if obj.contains_key("function") => {}
        Some(Value::String(t)) => {
            warnings.push(format!("#{pointer}: skipped: a `{t}` tool is not a function"));
            return Ok(None);
        }
        _ => {
            return Err(format!("{file}: #{pointer}/type: expected the string \"function\""));
        }
    }
    // Chat Completions nests the function; Responses is flat.
    let (body, base) = match obj.get("function") {
        Some(Value::Object(f)) => (f, format!("{pointer}/function")),
        Some(other) => {
            return Err(format!(
                "{file}: #{pointer}/function: expected an object, got {}",
                kind(other)
            ));
        }
        None => (obj, pointer.to_owned()),
    };
    let mut c = Converted::new(&base);
    c.copy(body, &base, "name", "name");
    c.copy(body, &base, "description", "description");
    if !matches!(body.get("parameters"), None | Some(Value::Null)) {
        c.copy(body, &base, "parameters", "input_schema");
    }
    // Responses function tools may carry the output's schema.
    c.copy(body, &base, "output_schema", "output_schema");
    for key in body.keys() {
        match key.as_str() {
            "name" | "description" | "parameters" | "output_schema" | "type" | "function" => {}
            "strict" => dropped(warnings, &base, key, "strict mode is chosen when rendering"),
            _ => dropped(warnings, &base, key, "a spec file has no place for it"),
        }
    }
    Ok(Some(c))
}

fn from_anthropic(
    obj: &Map<String, Value>,
    pointer: &str,
    warnings: &mut Vec<String>,
) -> Option<Converted> {
    if let Some(Value::String(t)) = obj.get("type")
        && t != "custom"
    {
        warnings.push(format!("#{pointer}: skipped: `{t}` is a server tool, not a custom tool"));
        return None;
    }
    let mut c = Converted::new(pointer);
    c.copy(obj, pointer, "name", "name");
    c.copy(obj, pointer, "description", "description");
    c.copy(obj, pointer, "input_schema", "input_schema");
    for key in obj.keys() {
        match key.as_str() {
            "name" | "description" | "input_schema" | "type" => {}
            "strict" => dropped(warnings, pointer, key, "strict mode is chosen when rendering"),
            _ => dropped(warnings, pointer, key, "a spec file has no place for it"),
        }
    }
    Some(c)
}

fn from_gemini(obj: &Map<String, Value>, pointer: &str, warnings: &mut Vec<String>) -> Converted {
    let mut c = Converted::new(pointer);
    c.copy(obj, pointer, "name", "name");
    c.copy(obj, pointer, "description", "description");
    for (json, openapi, to) in [
        ("parametersJsonSchema", "parameters", "input_schema"),
        ("responseJsonSchema", "response", "output_schema"),
    ] {
        if obj.contains_key(json) {
            c.copy(obj, pointer, json, to);
            if obj.contains_key(openapi) {
                dropped(warnings, pointer, openapi, &format!("`{json}` is used instead"));
            }
        } else if let Some(schema) = obj.get(openapi) {
            c.put(to, openapi_to_json_schema(schema), format!("{pointer}/{openapi}"));
        }
    }
    for key in obj.keys() {
        let known = [
            "name",
            "description",
            "parameters",
            "parametersJsonSchema",
            "response",
            "responseJsonSchema",
        ];
        if !known.contains(&key.as_str()) {
            dropped(warnings, pointer, key, "a spec file has no place for it");
        }
    }
    c
}

/// Gemini's OpenAPI-subset `Schema` as JSON Schema, keeping the structure (so that pointers
/// into the result are pointers into the input): upper-case types lowered, `nullable` folded
/// into the type, integer bounds written as strings read as numbers, `example` as `examples`,
/// `propertyOrdering` applied to `properties`.
pub(crate) fn openapi_to_json_schema(schema: &Value) -> Value {
    let Value::Object(obj) = schema else { return schema.clone() };
    let mut out = Map::new();
    for (key, v) in obj {
        let converted = match key.as_str() {
            "type" => match v.as_str() {
                Some(t) if t.eq_ignore_ascii_case("type_unspecified") => continue,
                Some(t) => Value::String(t.to_ascii_lowercase()),
                None => v.clone(),
            },
            "nullable" | "propertyOrdering" => continue,
            "format" if v == "enum" && obj.contains_key("enum") => continue,
            "properties" => match v {
                Value::Object(props) => Value::Object(ordered(props, obj.get("propertyOrdering"))),
                _ => v.clone(),
            },
            "items" => openapi_to_json_schema(v),
            "anyOf" => match v {
                Value::Array(vs) => Value::Array(vs.iter().map(openapi_to_json_schema).collect()),
                _ => v.clone(),
            },
            k if SchemaKeyword::from_wire(k).is_some_and(SchemaKeyword::is_size_bound) => {
                match v.as_str().and_then(|s| s.parse::<u64>().ok()) {
                    Some(n) => Value::from(n),
                    None => v.clone(),
                }
            }
            "example" => {
                out.insert("examples".into(), Value::Array(vec![v.clone()]));
                continue;
            }
            _ => v.clone(),
        };
        out.insert(key.clone(), converted);
    }
    if obj.get("nullable") == Some(&Value::Bool(true)) {
        match out.get_mut("type") {
            Some(Value::String(t)) => {
                let t = std::mem::take(t);
                out.insert("type".into(), Value::Array(vec![t.into(), "null".into()]));
            }
            _ => {
                if let Some(Value::Array(variants)) = out.get_mut("anyOf") {
                    variants.push(serde_json::json!({ "type": "null" }));
                }
                // Without a type or variants, the schema already accepts null.
            }
        }
        if let Some(Value::Array(values)) = out.get_mut("enum")
            && !values.contains(&Value::Null)
        {
            values.push(Value::Null);
        }
    }
    Value::Object(out)
}

fn ordered(props: &Map<String, Value>, order: Option<&Value>) -> Map<String, Value> {
    let mut out = Map::new();
    if let Some(Value::Array(order)) = order {
        for name in order.iter().filter_map(Value::as_str) {
            if let Some(v) = props.get(name) {
                out.insert(name.to_owned(), openapi_to_json_schema(v));
            }
        }
    }
    for (name, v) in props {
        if !out.contains_key(name) {
            out.insert(name.clone(), openapi_to_json_schema(v));
        }
    }
    out
}

/// `pointer` (relative to the spec) as a pointer into the input: the longest spec prefix of
/// `map` it lies under, replaced by where that part came from.
fn relocate(pointer: &JsonPointer, map: &[(&'static str, String)]) -> JsonPointer {
    map.iter()
        .filter_map(|(prefix, source)| {
            let from = JsonPointer::parse(prefix).ok()?;
            let moved = pointer.rebased(&from, &JsonPointer::parse(source).ok()?)?;
            Some((from.len(), moved))
        })
        .max_by_key(|(len, _)| *len)
        .map_or_else(|| pointer.clone(), |(_, moved)| moved)
}

fn relocate_note(note: &ImportNote, map: &[(&'static str, String)]) -> ImportNote {
    let mut note = note.clone();
    note.pointer = relocate(&note.pointer, map);
    note
}

fn relocated(mut e: SpecError, map: &[(&'static str, String)]) -> SpecError {
    for problem in &mut e.problems {
        let pointer = match problem {
            SpecErrorKind::UnknownKey { pointer, .. }
            | SpecErrorKind::WrongType { pointer, .. }
            | SpecErrorKind::Name { pointer, .. }
            | SpecErrorKind::DefinitionConflict { pointer, .. } => Some(pointer),
            SpecErrorKind::Schema(inner) => Some(&mut inner.pointer),
            _ => None,
        };
        if let Some(p) = pointer {
            *p = relocate(p, map);
        }
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn openapi_schema_becomes_json_schema_with_the_same_shape() {
        let gemini = json!({
            "type": "OBJECT",
            "properties": {
                "b": { "type": "INTEGER", "minimum": 1, "nullable": true },
                "a": { "type": "STRING", "format": "enum", "enum": ["x", "y"], "example": "x" },
                "c": { "type": "ARRAY", "items": { "type": "NUMBER" }, "maxItems": "3" }
            },
            "propertyOrdering": ["a", "b"],
            "required": ["a"]
        });
        assert_eq!(
            openapi_to_json_schema(&gemini),
            json!({
                "type": "object",
                "properties": {
                    "a": { "type": "string", "enum": ["x", "y"], "examples": ["x"] },
                    "b": { "type": ["integer", "null"], "minimum": 1 },
                    "c": { "type": "array", "items": { "type": "number" }, "maxItems": 3 }
                },
                "required": ["a"]
            })
        );
    }

    #[test]
    fn spec_pointers_map_back_to_the_input() {
        let map = vec![
            ("", "/tools/2/function".to_owned()),
            ("/input_schema", "/tools/2/function/parameters".to_owned()),
        ];
        let at = |text: &str| relocate(&text.parse().unwrap(), &map);
        assert_eq!(at("/input_schema/properties/x"), "/tools/2/function/parameters/properties/x");
        assert_eq!(at("/input_schema"), "/tools/2/function/parameters");
        assert_eq!(at("/input_schemata"), "/tools/2/function/input_schemata");
        assert_eq!(at(""), "/tools/2/function");
    }

    #[test]
    fn errors_name_the_file_and_the_input_pointer() {
        let text = r#"{"tools": [{"type": "function", "function": {"name": "ok"}},
            {"type": "function", "function": {"name": "bad", "parameters":
              {"type": "object", "properties": {"x": {"type": "strin"}}}}}]}"#;
        let imported = import("tools.json", text, ImportFormat::OpenAi).unwrap();
        assert_eq!(imported.tools.len(), 1);
        assert_eq!(imported.failed.len(), 1);
        let err = &imported.failed[0];
        assert!(
            err.starts_with("tools.json: #/tools/1/function/parameters/properties/x/type: "),
            "{err}"
        );
        let err = import("tools.json", "[{]", ImportFormat::Mcp).unwrap_err();
        assert!(err.starts_with("tools.json:1:3: malformed JSON"), "{err}");
    }

    #[test]
    fn each_formats_list_is_recognised_by_its_shape() {
        let cases = [
            (json!({"tools": [{"name": "a", "inputSchema": {}}]}), Some(Shape::Mcp)),
            (json!({"result": {"tools": [{"name": "a", "inputSchema": {}}]}}), Some(Shape::Mcp)),
            (json!([{"type": "function", "function": {"name": "a"}}]), Some(Shape::OpenAiChat)),
            (json!({"tools": [{"type": "function", "name": "a"}]}), Some(Shape::OpenAiResponses)),
            (json!([{"name": "a", "input_schema": {}}]), Some(Shape::Anthropic)),
            (json!([{"type": "web_search_20250305", "name": "w"}]), Some(Shape::Anthropic)),
            (
                json!({"functionDeclarations": [{"name": "a", "parameters": {}}]}),
                Some(Shape::Gemini),
            ),
            (json!([{"functionDeclarations": []}]), Some(Shape::Gemini)),
            (json!([{"name": "a", "parametersJsonSchema": {}}]), Some(Shape::Gemini)),
            // The first entry with a known shape decides.
            (json!([{"name": "?"}, {"name": "a", "input_schema": {}}]), Some(Shape::Anthropic)),
            (json!([{"name": "a"}]), None),
            (json!({"name": "a"}), None),
        ];
        for (root, shape) in cases {
            assert_eq!(entries(&root).iter().find_map(shape_of), shape, "{root}");
        }
    }

    #[test]
    fn server_tools_are_skipped_with_a_warning() {
        let text = r#"[{"type": "web_search_20250305", "name": "web_search"},
                       {"name": "echo", "input_schema": {"type": "object"}, "cache_control": {"type": "ephemeral"}}]"#;
        let imported = import("a.json", text, ImportFormat::Anthropic).unwrap();
        assert_eq!(imported.tools.len(), 1);
        assert_eq!(imported.tools[0].pointer, "/1");
        assert_eq!(
            imported.warnings,
            vec![
                "#/0: skipped: `web_search_20250305` is a server tool, not a custom tool"
                    .to_owned(),
                "#/1/cache_control: `cache_control` dropped: a spec file has no place for it"
                    .to_owned()
            ]
        );
    }
}
