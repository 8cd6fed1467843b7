//! Fuzzes a call to a spec-file tool: the input is a spec, a NUL byte, then the arguments as
//! text (the testkit's `fuzz-seeds` writes such inputs).
//!
//! Checks what callers rely on: no panic, no stack overflow, and arguments that read as JSON
//! get the same answer as text and as a parsed value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tooldef::Arguments;
use tooldef::dispatch::DynamicTool;

fuzz_target!(|data: &[u8]| {
    let (spec, args) = match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b"{}"[..]),
    };
    let Ok(spec) = std::str::from_utf8(spec) else { return };
    let Ok(spec) = tooldef::parse_spec("fuzzed.json", spec, None) else { return };
    let tool = DynamicTool::new_sync(spec.descriptor, Ok);
    let text = String::from_utf8_lossy(args).into_owned();
    let as_text = tool.prepare(&Arguments::Text(text.clone()));
    if let Ok(value) = tooldef::json_text::parse(text.as_bytes()) {
        let as_value = tool.prepare(&Arguments::Json(value.clone()));
        // Blank text counts as `{}`; anything else must agree.
        if !text.trim().is_empty() {
            assert_eq!(as_text.is_ok(), as_value.is_ok(), "text and value disagree");
        }
        tooldef::json_text::dismantle(value);
    }
});
