//! The seam between the workspace and the spec parser ([`crate::spec`]): bytes of one file in,
//! a [`Spec`] named by the file stem out.

use std::path::Path;

use crate::descriptor::ToolName;
use crate::spec::{Spec, parse_spec};

/// Parses `bytes` (the content of `path`) as a spec for the tool `name` (the stem wins over a
/// `name` inside). The message names the file and the line and column or JSON pointer.
pub(crate) fn parse(bytes: &[u8], path: &Path, name: &ToolName) -> Result<Spec, String> {
    let file = path.display().to_string();
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!("{file}: the spec is not UTF-8 (invalid byte at offset {})", e.valid_up_to())
    })?;
    // serde_json refuses nesting past 128 levels with an error, so hostile depth cannot
    // overflow the stack here.
    parse_spec(&file, text, Some(name)).map_err(|e| e.to_string())
}
