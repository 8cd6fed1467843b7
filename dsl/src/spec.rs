//! Spec files: a tool described by a JSON file (`tools/*.json`, `tooldef render spec.json`).
//!
//! Owns reading a spec into a [`ToolDescriptor`] (schemas go through [`crate::json_schema`]),
//! checking it, and writing a descriptor back as spec JSON. It does not scan directories or run
//! commands (the workspace loader does both).
//!
//! ```json
//! {
//!   "name": "get_weather",
//!   "title": "Weather",
//!   "description": "Get the current weather for a city.",
//!   "input_schema": { "type": "object", "properties": { "city": { "type": "string" } }, "required": ["city"] },
//!   "output_schema": { "type": "object" },
//!   "annotations": { "readOnlyHint": true },
//!   "extensions": { "mcp": { "_meta": { "vendor": "example" } } },
//!   "input_examples": [ { "city": "Paris" } ],
//!   "command": { "argv": ["python3", "weather.py"], "timeout_ms": 10000, "env": ["WEATHER_KEY"] }
//! }
//! ```
//!
//! Every key is optional. Defaults: `description` is `""`, `title` none, `input_schema` an empty
//! closed object (no parameters, no other key accepted; note that a *written* `{"type": "object"}`
//! is open, as JSON Schema says), no output schema, no annotations, no command. The name comes
//! from, in order: the caller's override (a workspace file's stem; a `name` inside is then ignored
//! with a note), the `name` key, and for [`load_spec_file`] only, the file stem. `$schema` is
//! accepted and ignored (editors use it); any other unknown key is an error. `extensions` holds
//! provider fields the IR does not model, per provider namespace (see [`Extensions`]); the
//! renderer of that provider writes them back. `input_examples` holds whole example inputs
//! (objects of parameter values, checked against the input schema like a default; see
//! [`ToolDescriptor::input_examples`](crate::ToolDescriptor::input_examples)). `command` is an argv
//! array of strings (`["python3", "weather.py"]`) or `{"argv": [..], "timeout_ms": n, "env":
//! [..]}`; `env` names the host's environment variables passed through to the command (it runs
//! with a minimal environment otherwise, see [`crate::workspace`]). It is checked here
//! (non-empty, no empty program, no NUL byte, timeout 1 ms to 24 h, variable names of
//! `[A-Za-z_][A-Za-z0-9_]*`) and run by the workspace loader, never by this module.
//!
//! A spec read here keeps each schema's JSON text beside the IR ([`SchemaSource`](crate::SchemaSource)), and
//! [`spec_to_literal`] writes a schema that is unchanged since it was read back as it was read,
//! not as the IR spells it: a spec file written from an imported tool holds the schema as the
//! provider published it, and the MCP renderer gives it back exactly.
//!
//! Errors name the file (the `file` label the caller passes), then the line and column for
//! malformed JSON (a key given twice in one object counts as malformed, and names its pointer),
//! or the JSON pointer (`#/input_schema/properties/days/minimum`) for everything
//! else. One [`SpecError`] lists every problem of the file (the input schema contributes the
//! first problem of each of its properties, the output schema its first; an output schema that
//! cannot be read is otherwise left out with a note, but a tool whose two schemas together
//! hold more than [`MAX_IMPORT_NODES`] nodes is refused wherever the count crossed it),
//! and an unknown key close to an allowed one says which (`annotatons`: did you mean
//! `annotations`?).

use std::borrow::Cow;
use std::fmt;
use std::path::Path;

use serde_json::{Map, Value};

use crate::arg_checks;
use crate::descriptor::{Annotations, NameError, ToolDescriptor, ToolName};
use crate::descriptor_rules::DescriptorError;
use crate::extensions::Extensions;
use crate::files::{FileProblem, read_regular};
use crate::json_schema::export::Obj;
use crate::json_schema::{
    ImportError, ImportErrorKind, ImportNote, KeyOrder, MAX_IMPORT_NODES, export_input_literal,
    export_output_literal, import_input_every, import_schema_counted, merge_definitions,
    pointer_token,
};
use crate::literal::Literal;
use crate::pointer::JsonPointer;
use crate::schema::SchemaRef;
use crate::suggest::closest;

/// The largest spec file [`load_spec_file`] reads (1 MiB): the one limit of every spec reader
/// (directories in [`crate::export`] and the CLI, and by default the workspace).
pub const MAX_SPEC_BYTES: u64 = 1024 * 1024;

/// The longest command timeout a spec may ask for (24 hours).
pub const MAX_TIMEOUT_MS: u64 = 24 * 60 * 60 * 1000;

/// The top-level keys of a spec file.
pub const SPEC_KEYS: &[&str] = &[
    "$schema",
    "name",
    "title",
    "description",
    "input_schema",
    "output_schema",
    "annotations",
    "extensions",
    "input_examples",
    "command",
];

const ANNOTATION_KEYS: &[&str] =
    &["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

/// The program an executable workspace tool runs (parsed and checked, never run here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// Program and arguments; never empty, the program never the empty string.
    pub argv: Vec<String>,
    /// How long a call may run, in milliseconds (1 to [`MAX_TIMEOUT_MS`]); `None` for the
    /// runner's default.
    pub timeout_ms: Option<u64>,
    /// Names of the host's environment variables passed through to the command, in the order
    /// written, without duplicates (the command otherwise gets a minimal environment).
    pub env: Vec<String>,
}

/// A parsed spec file.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// The tool, validated.
    pub descriptor: ToolDescriptor,
    /// What the schema import dropped or inferred, and an ignored `name`; pointers are relative
    /// to the spec (`/input_schema/...`).
    pub notes: Vec<ImportNote>,
    /// The command of an executable tool.
    pub command: Option<Command>,
}

/// A spec that cannot be read: every problem found in one file, naming the file and where in it.
///
/// Its `Display` is one line per problem with the problem's cause (an I/O error, a name or
/// schema error) written in, so it has no [`source`](std::error::Error::source): a report
/// that walks the chain prints each cause once.
#[derive(Debug)]
#[non_exhaustive]
pub struct SpecError {
    /// The file label the caller passed (usually its path).
    pub file: String,
    /// What is wrong, never empty. A file that cannot be read or is not well-formed JSON has one
    /// problem; otherwise every problem the spec has is listed, in the order of the format's
    /// keys (the input schema contributes the first problem of each of its properties).
    pub problems: Vec<SpecErrorKind>,
}

/// Why a spec cannot be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum SpecErrorKind {
    /// The file cannot be read.
    Io(std::io::Error),
    /// The file is larger than [`MAX_SPEC_BYTES`].
    TooLarge {
        /// Its size in bytes (at least this much).
        size: u64,
    },
    /// The file is not well-formed JSON.
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser says.
        message: String,
    },
    /// A key that the format does not have.
    UnknownKey {
        /// JSON pointer of the object holding it.
        pointer: JsonPointer,
        /// The key.
        key: String,
        /// The keys allowed there.
        allowed: &'static [&'static str],
        /// The allowed key it is likely a typo of.
        suggestion: Option<&'static str>,
    },
    /// A field has the wrong JSON type or value.
    WrongType {
        /// JSON pointer of the field.
        pointer: JsonPointer,
        /// What was expected.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// No name: no override, no `name` key and no usable file stem.
    MissingName,
    /// The name breaks the tool-name rule.
    Name {
        /// JSON pointer of the name (empty when it came from the override or the file stem).
        pointer: JsonPointer,
        /// The rule it breaks.
        error: NameError,
    },
    /// A schema cannot be imported (its pointer starts with `/input_schema` or `/output_schema`).
    Schema(ImportError),
    /// The output schema defines a name that the input schema defines differently.
    DefinitionConflict {
        /// JSON pointer of the output schema's definition.
        pointer: JsonPointer,
        /// The definition's name.
        name: String,
    },
    /// The imported descriptor breaks a rule of [`crate::descriptor_rules`].
    Invalid(DescriptorError),
}

impl SpecErrorKind {
    /// The JSON pointer of the problem in the spec, when it has one.
    pub fn pointer(&self) -> Option<&JsonPointer> {
        match self {
            SpecErrorKind::UnknownKey { pointer, .. }
            | SpecErrorKind::WrongType { pointer, .. }
            | SpecErrorKind::Name { pointer, .. }
            | SpecErrorKind::DefinitionConflict { pointer, .. } => Some(pointer),
            SpecErrorKind::Schema(e) => Some(&e.pointer),
            _ => None,
        }
    }
}

impl SpecError {
    /// One message per problem, each naming the file and the line and column or JSON pointer
    /// (`tools/t.json: #/annotatons: ...`); [`Display`](fmt::Display) joins them with newlines.
    pub fn messages(&self) -> impl Iterator<Item = String> + '_ {
        self.problems.iter().map(|kind| Problem { file: &self.file, kind }.to_string())
    }
}

/// One problem of a file, displayed with the file's label.
struct Problem<'a> {
    file: &'a str,
    kind: &'a SpecErrorKind,
}

impl fmt::Display for Problem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file;
        match self.kind {
            SpecErrorKind::Io(e) => write!(f, "{file}: cannot read the spec file: {e}"),
            SpecErrorKind::TooLarge { size } => write!(
                f,
                "{file}: the spec file is {size} bytes; at most {MAX_SPEC_BYTES} are read"
            ),
            SpecErrorKind::Syntax { line, column, message } => {
                write!(f, "{file}:{line}:{column}: malformed JSON: {message}")
            }
            SpecErrorKind::UnknownKey { pointer, key, suggestion: Some(s), .. } => {
                write!(f, "{file}: #{pointer}: unknown key `{key}`; did you mean `{s}`?")
            }
            SpecErrorKind::UnknownKey { pointer, key, allowed, suggestion: None } => write!(
                f,
                "{file}: #{pointer}: unknown key `{key}`; expected one of {}",
                allowed.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
            ),
            SpecErrorKind::WrongType { pointer, expected, found } => {
                write!(f, "{file}: #{pointer}: expected {expected}, got {found}")
            }
            SpecErrorKind::MissingName => {
                write!(f, "{file}: the spec has no `name` and none was given by its location")
            }
            SpecErrorKind::Name { pointer, error } => write!(f, "{file}: #{pointer}: {error}"),
            SpecErrorKind::Schema(e) => write!(f, "{file}: {e}"),
            SpecErrorKind::DefinitionConflict { pointer, name } => write!(
                f,
                "{file}: #{pointer}: definition `{name}` differs from the input schema's definition of the same name"
            ),
            SpecErrorKind::Invalid(e) => write!(f, "{file}: {e}"),
        }
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, kind) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            Problem { file: &self.file, kind }.fmt(f)?;
        }
        Ok(())
    }
}

// No source: the text writes every problem in, its cause included, and a list of problems
// has no single cause (they are in `problems`).
impl std::error::Error for SpecError {}

/// An error with one problem (a file that cannot be read or parsed at all).
fn err(file: &str, kind: SpecErrorKind) -> SpecError {
    SpecError { file: file.to_owned(), problems: vec![kind] }
}

/// A field of the wrong type; `pointer` is pointer text this reader wrote.
fn wrong(pointer: &str, expected: &'static str, found: &Value) -> SpecErrorKind {
    let pointer = JsonPointer::from_written(pointer);
    SpecErrorKind::WrongType { pointer, expected, found: arg_checks::named(found) }
}

/// The problems found so far in one spec.
#[derive(Default)]
struct Problems(Vec<SpecErrorKind>);

impl Problems {
    fn push(&mut self, kind: SpecErrorKind) {
        self.0.push(kind);
    }

    fn wrong(&mut self, pointer: &str, expected: &'static str, found: &Value) {
        self.push(wrong(pointer, expected, found));
    }

    /// Every key of `obj` (at `pointer`) that is not `allowed`, with a suggestion where close.
    fn unknown_keys(
        &mut self,
        pointer: &str,
        obj: &Map<String, Value>,
        allowed: &'static [&'static str],
        order: &KeyOrder,
    ) {
        // In the order the file lists them, whatever order the `Map` iterates in.
        let keys = order.entries(pointer, obj).into_iter().map(|(k, _)| k);
        for key in keys.filter(|k| !allowed.contains(&k.as_str())) {
            self.push(SpecErrorKind::UnknownKey {
                pointer: JsonPointer::from_written(pointer),
                key: key.clone(),
                allowed,
                suggestion: closest(key, allowed.iter().copied()),
            });
        }
    }
}

/// Parses spec text; `file` labels errors, `name_override` (a workspace file's stem) wins over
/// the `name` key.
///
/// # Errors
///
/// A [`SpecError`] naming `file` and the line and column or JSON pointer at fault.
pub fn parse_spec(
    file: &str,
    text: &str,
    name_override: Option<&ToolName>,
) -> Result<Spec, SpecError> {
    parse_bytes(file, text.as_bytes(), name_override, None)
}

pub(crate) fn parse_bytes(
    file: &str,
    bytes: &[u8],
    name_override: Option<&ToolName>,
    fallback_name: Option<&str>,
) -> Result<Spec, SpecError> {
    // Parsed with its key order (properties stay in the order the author wrote them), and a
    // key given twice refused with its pointer.
    // Schema nodes are counted while reading: a schema far past the limit is not built.
    let (value, order, refused) = KeyOrder::parse_schemas(bytes).map_err(|e| {
        let full = e.to_string();
        let suffix = format!(" at line {} column {}", e.line(), e.column());
        let message = full.strip_suffix(&suffix).unwrap_or(&full).to_owned();
        err(file, SpecErrorKind::Syntax { line: e.line(), column: e.column(), message })
    })?;
    if let Some(e) = refused.into_iter().next() {
        return Err(err(file, SpecErrorKind::Schema(e)));
    }
    spec_value(file, &value, &order, name_override, fallback_name)
}

/// Reads a spec already parsed as JSON (e.g. one tool of a provider's tool list).
///
/// # Errors
///
/// As [`parse_spec`], without line and column.
pub fn spec_from_value(
    file: &str,
    value: &Value,
    name_override: Option<&ToolName>,
) -> Result<Spec, SpecError> {
    spec_value(file, value, &KeyOrder::default(), name_override, None)
}

/// As [`spec_from_value`], with the key order `order` recorded from the spec's text (pointers
/// relative to the spec object), so that properties keep the order they were written in.
///
/// # Errors
///
/// As [`parse_spec`], without line and column.
pub fn spec_from_value_ordered(
    file: &str,
    value: &Value,
    order: &KeyOrder,
    name_override: Option<&ToolName>,
) -> Result<Spec, SpecError> {
    spec_value(file, value, order, name_override, None)
}

/// Reads a spec file; without `name_override`, the `name` key names the tool, else the file stem.
///
/// # Errors
///
/// A [`SpecError`] labelled with the path: the file cannot be read or is larger than
/// [`MAX_SPEC_BYTES`], or anything [`parse_spec`] reports.
pub fn load_spec_file(
    path: impl AsRef<Path>,
    name_override: Option<&ToolName>,
) -> Result<Spec, SpecError> {
    let path = path.as_ref();
    let file = path.display().to_string();
    // Opened without blocking and checked by its handle: a FIFO or a device is refused.
    let bytes = read_regular(path, MAX_SPEC_BYTES).map_err(|problem| {
        let kind = match problem {
            FileProblem::TooLarge { size, .. } => SpecErrorKind::TooLarge { size },
            FileProblem::NotFound => SpecErrorKind::Io(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                problem.to_string(),
            )),
            other => SpecErrorKind::Io(std::io::Error::other(other.to_string())),
        };
        err(&file, kind)
    })?;
    let stem = path.file_stem().and_then(|s| s.to_str());
    parse_bytes(&file, &bytes, name_override, stem)
}

fn spec_value(
    file: &str,
    value: &Value,
    order: &KeyOrder,
    name_override: Option<&ToolName>,
    fallback_name: Option<&str>,
) -> Result<Spec, SpecError> {
    let Value::Object(obj) = value else {
        return Err(err(file, wrong("", "an object", value)));
    };
    let mut problems = Problems::default();
    problems.unknown_keys("", obj, SPEC_KEYS, order);
    let mut notes = Vec::new();
    let name = spec_name(obj, name_override, fallback_name, &mut notes, &mut problems);
    // A stand-in while the name is unknown; the spec is refused then, so it never shows.
    let mut d = ToolDescriptor::with_name(name.clone().unwrap_or(ToolName::new("unnamed")));
    d.title = opt_string(obj, "title", &mut problems).map(Cow::Owned);
    if let Some(description) = opt_string(obj, "description", &mut problems) {
        d.description = Cow::Owned(description);
    }
    // The descriptor is validated only when both schemas are in: a missing one would make its
    // references look dangling.
    let mut schemas_in = true;
    let input_at = JsonPointer::from_segments(["input_schema"]);
    let output_at = JsonPointer::from_segments(["output_schema"]);
    // Schema nodes built for the tool so far: its two schemas share one limit.
    let mut nodes = 0;
    if let Some(input) = obj.get("input_schema") {
        match import_input_every(input, &order.subtree(input_at.as_str()), &mut nodes) {
            Ok(imported) => {
                notes.extend(imported.notes.into_iter().map(|n| n.prefixed(&input_at)));
                imported.value.apply_to(&mut d);
            }
            Err(errors) => {
                schemas_in = false;
                for e in errors {
                    problems.push(SpecErrorKind::Schema(e.prefixed(&input_at)));
                }
            }
        }
    }
    // An input past the node limit has been refused: the output is not read.
    if let Some(output) = obj.get("output_schema")
        && nodes <= MAX_IMPORT_NODES
    {
        match import_schema_counted(output, &order.subtree(output_at.as_str()), &mut nodes) {
            Ok(imported) => {
                notes.extend(imported.notes.into_iter().map(|n| n.prefixed(&output_at)));
                let mut definitions = d.definitions.to_vec();
                match merge_definitions(&mut definitions, imported.value.definitions) {
                    Ok(()) => {
                        d.definitions = Cow::Owned(definitions);
                        d.output = Some(SchemaRef::new(imported.value.schema));
                    }
                    Err(name) => {
                        schemas_in = false;
                        let table = match output.get("$defs").and_then(|t| t.get(&name)) {
                            Some(_) => "$defs",
                            None => "definitions",
                        };
                        let pointer = JsonPointer::from_segments(["output_schema", table, &name]);
                        problems.push(SpecErrorKind::DefinitionConflict { pointer, name });
                    }
                }
            }
            // A tool past the node limit is refused, wherever the count crossed it.
            Err(e) if e.kind == ImportErrorKind::TooManyNodes => {
                schemas_in = false;
                problems.push(SpecErrorKind::Schema(e.prefixed(&output_at)));
            }
            // Otherwise the output schema never blocks the input side: what cannot be read is
            // left out.
            Err(e) => {
                let e = e.prefixed(&output_at);
                notes.push(ImportNote::new(
                    e.pointer.clone(),
                    "output_schema",
                    format!("could not be read ({}); the tool has no output schema", e.kind),
                ));
            }
        }
    }
    if let Some(annotations) = obj.get("annotations") {
        d.annotations = parse_annotations(annotations, &mut problems);
    }
    if let Some(extensions) = obj.get("extensions") {
        match Extensions::from_value(extensions) {
            Ok(ext) => d.extensions = ext,
            Err(ns) if ns.is_empty() => problems.wrong("/extensions", "an object", extensions),
            Err(ns) => problems.wrong(
                &format!("/extensions/{}", pointer_token(&ns)),
                "an object of fields",
                &extensions[&ns],
            ),
        }
    }
    if let Some(examples) = obj.get("input_examples") {
        match examples.as_array() {
            None => problems.wrong("/input_examples", "an array of objects", examples),
            Some(list) => {
                let mut kept = Vec::with_capacity(list.len());
                for (i, e) in list.iter().enumerate() {
                    match (e.is_object(), Literal::from_json(e)) {
                        (true, Ok(l)) => kept.push(l),
                        _ => problems.wrong(&format!("/input_examples/{i}"), "an object", e),
                    }
                }
                d.input_examples = kept.into();
            }
        }
    }
    let command = obj.get("command").and_then(|c| parse_command(c, &mut problems));
    if name.is_some()
        && schemas_in
        && let Err(e) = d.validate()
    {
        problems.push(SpecErrorKind::Invalid(e));
    }
    // A `command` that is present but `None` has pushed its problems.
    if !problems.0.is_empty() {
        return Err(SpecError { file: file.to_owned(), problems: problems.0 });
    }
    // The schemas as written, for renderers that can give them back unchanged; an output
    // schema that could not be read has none.
    let input = obj.get("input_schema").map(|v| order.to_text("/input_schema", v));
    let output = match (&d.output, obj.get("output_schema")) {
        (Some(_), Some(v)) => Some(order.to_text("/output_schema", v)),
        _ => None,
    };
    d.keep_source(input, output);
    Ok(Spec { descriptor: d, notes, command })
}

/// The tool's name: the override, the `name` key, or the fallback (a file stem), in that order.
fn spec_name(
    obj: &Map<String, Value>,
    name_override: Option<&ToolName>,
    fallback_name: Option<&str>,
    notes: &mut Vec<ImportNote>,
    problems: &mut Problems,
) -> Option<ToolName> {
    // A `name` key is read as a provider wrote it (the wide rule); a file stem keeps the
    // portable rule of workspace stems.
    let parsed = |name: &str, pointer: &str, problems: &mut Problems| {
        let name = if pointer.is_empty() {
            ToolName::parse(name.to_owned())
        } else {
            ToolName::parse_wide(name.to_owned())
        };
        name.map_err(|error| {
            problems
                .push(SpecErrorKind::Name { pointer: JsonPointer::from_written(pointer), error });
        })
        .ok()
    };
    match (name_override, obj.get("name")) {
        (Some(name), inner) => {
            if let Some(inner) = inner
                && inner.as_str() != Some(name.as_str())
            {
                notes.push(ImportNote {
                    pointer: JsonPointer::from_segments(["name"]),
                    keyword: "name".into(),
                    message: format!("is ignored; the tool is named `{name}` by its location"),
                });
            }
            Some(name.clone())
        }
        (None, Some(Value::String(s))) => parsed(s, "/name", problems),
        (None, Some(other)) => {
            problems.wrong("/name", "a string", other);
            None
        }
        (None, None) => match fallback_name {
            Some(stem) => parsed(stem, "", problems),
            None => {
                problems.push(SpecErrorKind::MissingName);
                None
            }
        },
    }
}

fn opt_string(obj: &Map<String, Value>, key: &str, problems: &mut Problems) -> Option<String> {
    match obj.get(key)? {
        Value::String(s) => Some(s.clone()),
        other => {
            problems.wrong(&format!("/{key}"), "a string", other);
            None
        }
    }
}

fn parse_annotations(value: &Value, problems: &mut Problems) -> Annotations {
    let mut a = Annotations::NONE;
    let Value::Object(obj) = value else {
        problems.wrong("/annotations", "an object", value);
        return a;
    };
    problems.unknown_keys("/annotations", obj, ANNOTATION_KEYS, &KeyOrder::default());
    for (key, v) in obj {
        let pointer = format!("/annotations/{}", pointer_token(key));
        let slot = match key.as_str() {
            "title" => {
                match v {
                    Value::String(s) => a.title = Some(Cow::Owned(s.clone())),
                    other => problems.wrong(&pointer, "a string", other),
                }
                continue;
            }
            "readOnlyHint" => &mut a.read_only,
            "destructiveHint" => &mut a.destructive,
            "idempotentHint" => &mut a.idempotent,
            "openWorldHint" => &mut a.open_world,
            _ => continue, // reported above
        };
        match v.as_bool() {
            Some(b) => *slot = Some(b),
            None => problems.wrong(&pointer, "a boolean", v),
        }
    }
    a
}

/// The keys of a `command` object.
const COMMAND_KEYS: &[&str] = &["argv", "timeout_ms", "env"];

/// The command, or `None` with every problem pushed.
fn parse_command(value: &Value, problems: &mut Problems) -> Option<Command> {
    let before = problems.0.len();
    let (argv_value, argv_ptr, timeout, env) = match value {
        Value::Array(_) => (value, "/command".to_owned(), None, None),
        Value::Object(obj) => {
            problems.unknown_keys("/command", obj, COMMAND_KEYS, &KeyOrder::default());
            let Some(argv) = obj.get("argv") else {
                problems.wrong("/command", "an object with `argv`", value);
                return None;
            };
            (argv, "/command/argv".to_owned(), obj.get("timeout_ms"), obj.get("env"))
        }
        other => {
            problems.wrong("/command", "an array of strings or an object with `argv`", other);
            return None;
        }
    };
    let argv = match argv_value {
        Value::Array(items) if items.is_empty() => {
            problems.wrong(&argv_ptr, "a non-empty array (the program first)", argv_value);
            Vec::new()
        }
        Value::Array(items) => parse_argv(items, &argv_ptr, problems),
        other => {
            problems.wrong(&argv_ptr, "an array of strings", other);
            Vec::new()
        }
    };
    let timeout_ms = timeout.and_then(|v| match v.as_u64() {
        Some(ms) if (1..=MAX_TIMEOUT_MS).contains(&ms) => Some(ms),
        _ => {
            problems.wrong(
                "/command/timeout_ms",
                "a whole number of milliseconds from 1 to 86400000",
                v,
            );
            None
        }
    });
    let env = env.map(|v| parse_env(v, problems)).unwrap_or_default();
    (problems.0.len() == before).then_some(Command { argv, timeout_ms, env })
}

/// The names of `command.env`: each `[A-Za-z_][A-Za-z0-9_]*`, each once.
fn parse_env(value: &Value, problems: &mut Problems) -> Vec<String> {
    let Value::Array(items) = value else {
        problems.wrong("/command/env", "an array of environment variable names", value);
        return Vec::new();
    };
    let mut names: Vec<String> = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let pointer = format!("/command/env/{i}");
        let valid = |s: &str| {
            s.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
                && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        };
        match item {
            Value::String(s) if !valid(s) => problems.wrong(
                &pointer,
                "an environment variable name (letters, digits and `_`, not starting with a digit)",
                item,
            ),
            Value::String(s) if names.contains(s) => {
                problems.wrong(&pointer, "a name not already listed", item);
            }
            Value::String(s) => names.push(s.clone()),
            other => problems.wrong(&pointer, "a string", other),
        }
    }
    names
}

fn parse_argv(items: &[Value], argv_ptr: &str, problems: &mut Problems) -> Vec<String> {
    let mut argv = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let pointer = format!("{argv_ptr}/{i}");
        match item {
            Value::String(s) if i == 0 && s.is_empty() => {
                problems.wrong(&pointer, "a program name", item);
            }
            Value::String(s) if s.contains('\0') => {
                problems.wrong(&pointer, "a string without NUL bytes", item);
            }
            Value::String(s) => argv.push(s.clone()),
            other => problems.wrong(&pointer, "a string", other),
        }
    }
    argv
}

/// Writes a descriptor (and a command) as spec JSON; reading the result with
/// [`spec_from_value`] gives the same descriptor back. A schema the descriptor still holds as it
/// was read ([`ToolDescriptor::source_input_schema`]) is written as it was read. The key order of the format is kept
/// only when serde_json's `preserve_order` feature is on: write files from [`spec_to_literal`].
pub fn spec_to_json(d: &ToolDescriptor, command: Option<&Command>) -> Value {
    spec_to_literal(d, command).to_json()
}

/// As [`spec_to_json`], as a [`Literal`] whose objects keep the key order of the format
/// (properties in parameter order): `serde_json::to_string_pretty` of it is the spec file.
pub fn spec_to_literal(d: &ToolDescriptor, command: Option<&Command>) -> Literal {
    let mut m = Obj::default();
    m.insert("name", d.name.as_str());
    if let Some(title) = &d.title {
        m.insert("title", Literal::Str(title.clone()));
    }
    if !d.description.is_empty() {
        m.insert("description", Literal::Str(d.description.clone()));
    }
    // A schema unchanged since import is written as it was read (see `SchemaSource`), so that
    // reading the file back gives the same descriptor with the same source.
    let kept = |text: Option<&str>| text.and_then(|t| serde_json::from_str::<Literal>(t).ok());
    m.insert(
        "input_schema",
        kept(d.source_input_schema()).unwrap_or_else(|| export_input_literal(d)),
    );
    if let Some(output) = kept(d.source_output_schema()).or_else(|| export_output_literal(d)) {
        m.insert("output_schema", output);
    }
    if !d.annotations.is_empty() {
        let a = &d.annotations;
        let mut o = Obj::default();
        if let Some(title) = &a.title {
            o.insert("title", Literal::Str(title.clone()));
        }
        let hints = [
            ("readOnlyHint", a.read_only),
            ("destructiveHint", a.destructive),
            ("idempotentHint", a.idempotent),
            ("openWorldHint", a.open_world),
        ];
        for (key, hint) in hints {
            if let Some(b) = hint {
                o.insert(key, b);
            }
        }
        m.insert("annotations", o.done());
    }
    if !d.extensions.is_empty() {
        match Literal::from_json(&d.extensions.to_value()) {
            Ok(extensions) => m.insert("extensions", extensions),
            // A literal holds integers up to `i64::MAX`; a bigger one in a provider field is
            // not written back into the spec text.
            Err(e) => tracing::warn!(tool = %d.name, "extensions not written to the spec: {e}"),
        }
    }
    if !d.input_examples.is_empty() {
        m.insert("input_examples", Literal::List(d.input_examples.clone()));
    }
    if let Some(c) = command {
        let strings =
            |v: &[String]| Literal::List(v.iter().map(|a| Literal::from(a.as_str())).collect());
        let argv = strings(&c.argv);
        let value = if c.timeout_ms.is_none() && c.env.is_empty() {
            argv
        } else {
            let mut o = Obj::default();
            o.insert("argv", argv);
            if let Some(ms) = c.timeout_ms {
                o.insert("timeout_ms", Literal::Int(i64::try_from(ms).unwrap_or(i64::MAX)));
            }
            if !c.env.is_empty() {
                o.insert("env", strings(&c.env));
            }
            o.done()
        };
        m.insert("command", value);
    }
    m.done()
}
