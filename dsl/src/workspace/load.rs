//! Turns the bytes of one spec file into a [`LoadedSpec`]: the descriptor named by the file
//! stem, the optional `command`, and the import notes.
//!
//! The JSON-to-descriptor work belongs to the spec parser; this is the seam through which the
//! workspace calls it.

use std::path::Path;

use serde_json::Value;

use crate::descriptor::{ToolDescriptor, ToolName};

/// A parsed, validated workspace spec file.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct WorkspaceSpec {
    /// The tool, named by the file stem.
    pub descriptor: ToolDescriptor,
    /// The argv of an executable spec.
    pub command: Option<Vec<String>>,
    /// What the import reported (keywords dropped, ...).
    pub notes: Vec<String>,
}

pub(crate) type LoadedSpec = WorkspaceSpec;

/// Parses `bytes` (the content of `path`) as a spec for the tool `name`.
///
/// The error message names the file and, where there is one, the JSON pointer.
pub(crate) fn parse(bytes: &[u8], path: &Path, name: &ToolName) -> Result<LoadedSpec, String> {
    let file = path.display();
    // serde_json refuses nesting past 128 levels with an error, so hostile depth cannot
    // overflow the stack here.
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| format!("{file}: invalid JSON: {e}"))?;
    let Value::Object(map) = &value else {
        return Err(format!("{file}: a spec must be a JSON object at the root"));
    };
    let mut descriptor = ToolDescriptor::with_name(name.clone());
    let mut notes = Vec::new();
    if let Some(v) = map.get("title") {
        let Value::String(s) = v else {
            return Err(format!("{file}: /title must be a string"));
        };
        descriptor.title = Some(s.clone().into());
    }
    if let Some(v) = map.get("description") {
        let Value::String(s) = v else {
            return Err(format!("{file}: /description must be a string"));
        };
        descriptor.description = s.clone().into();
    }
    if map.contains_key("input_schema") {
        descriptor.additional = crate::schema::Additional::Open;
        notes.push(format!("{file}: /input_schema not imported yet; the input is left open"));
    }
    let command = parse_command(map.get("command"), &file.to_string())?;
    descriptor.validate().map_err(|e| format!("{file}: {e}"))?;
    Ok(LoadedSpec { descriptor, command, notes })
}

/// The `command` member: an array of at least one string.
pub(crate) fn parse_command(v: Option<&Value>, file: &str) -> Result<Option<Vec<String>>, String> {
    let Some(v) = v else { return Ok(None) };
    let Value::Array(items) = v else {
        return Err(format!("{file}: /command must be an array of strings (argv, no shell)"));
    };
    if items.is_empty() {
        return Err(format!("{file}: /command must name a program; the array is empty"));
    }
    let mut argv = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(s) if i == 0 && s.is_empty() => {
                return Err(format!("{file}: /command/0 must name a program; it is empty"));
            }
            Value::String(s) if s.contains('\0') => {
                return Err(format!("{file}: /command/{i} contains a NUL character"));
            }
            Value::String(s) => argv.push(s.clone()),
            _ => return Err(format!("{file}: /command/{i} must be a string")),
        }
    }
    Ok(Some(argv))
}
