//! Fuzzes the workspace spec parser: any bytes, named by a fixed file stem.
//!
//! Checks what callers rely on: no panic, no stack overflow, and an accepted spec is a valid
//! descriptor named by the stem, with a non-empty argv when it has a command.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(spec) = tooldef::parse_spec_file(Path::new("tools/fuzzed.json"), data) {
        assert_eq!(spec.descriptor.name.as_str(), "fuzzed");
        assert!(spec.descriptor.validate().is_ok(), "accepted an invalid descriptor");
        if let Some(command) = &spec.command {
            let argv = &command.argv;
            assert!(!argv.is_empty() && !argv[0].is_empty());
        }
        // An accepted descriptor serializes and reads back unchanged.
        let json = serde_json::to_string(&spec.descriptor).expect("descriptor serializes");
        let back: tooldef::ToolDescriptor = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, spec.descriptor);
    }
});
