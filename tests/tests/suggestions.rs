//! One "did you mean" rule: for the typos the macros' compile errors (`ui-tests/tests/ui/`) and
//! the command line (`cli/tests/usage.rs`) correct, dispatch offers the same word when a model
//! sends the typo as a tool name among the same words, and keeps quiet where they do.

use serde_json::json;
use tooldef::dispatch::DynamicTool;
use tooldef::{ToolCall, ToolDescriptor, Toolbox};

/// The keys `#[tool(...)]` takes, as its "expected one of" message lists them.
const TOOL_KEYS: &[&str] = &[
    "name",
    "description",
    "title",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "crate",
    "type",
];

/// The keys `#[param(...)]` takes.
const PARAM_KEYS: &[&str] = &[
    "name",
    "description",
    "range",
    "min",
    "max",
    "length",
    "pattern",
    "format",
    "one_of",
    "default",
    "example",
];

/// The command line's verbs.
const VERBS: &[&str] = &["render", "check", "import", "serve", "help"];

/// A toolbox whose tools are named after `words`.
fn toolbox(words: &[&str]) -> Toolbox {
    let mut toolbox = Toolbox::new();
    for word in words {
        let descriptor = ToolDescriptor::builder(word.to_string()).build().unwrap();
        toolbox.insert(std::sync::Arc::new(DynamicTool::new_sync(descriptor, Ok)));
    }
    toolbox
}

/// What dispatch suggests for a call to `typo`, read from the error result it answers with.
fn dispatch_suggests(words: &[&str], typo: &str) -> Option<String> {
    let result = toolbox(words).call_blocking(&ToolCall::new("1", typo, json!({})));
    assert!(result.is_error, "{typo} is not a tool, so the call fails");
    let text = result.text();
    let (_, rest) = text.split_once("(did you mean \"")?;
    Some(rest.split_once('"')?.0.to_owned())
}

#[test]
fn dispatch_corrects_the_typos_the_macros_and_the_cli_correct() {
    // Each row: the words a front end offers, the typo its test sends, the word it suggests.
    let rows: &[(&[&str], &str, &str)] = &[
        // ui-tests/tests/ui/tool/unknown_key_typo.stderr
        (TOOL_KEYS, "nmae", "name"),
        // the macros' unit tests of their attribute keys
        (TOOL_KEYS, "readonly", "read_only"),
        // ui-tests/tests/ui/tool/param_key_typo.stderr
        (PARAM_KEYS, "descripton", "description"),
        (PARAM_KEYS, "rnage", "range"),
        // ui-tests/tests/ui/tools/unknown_key.stderr
        (&["crate"], "crat", "crate"),
        // cli/tests/usage.rs
        (VERBS, "rendr", "render"),
        (VERBS, "chek", "check"),
    ];
    for (words, typo, expected) in rows {
        assert_eq!(dispatch_suggests(words, typo).as_deref(), Some(*expected), "typo `{typo}`");
        assert_eq!(tooldef::suggest::closest(typo, words.iter().copied()), Some(*expected));
    }
}

#[test]
fn dispatch_keeps_quiet_where_the_macros_do() {
    // The macros answer `colour` with the list of keys, not a guess.
    assert_eq!(dispatch_suggests(TOOL_KEYS, "colour"), None);
    assert_eq!(tooldef::suggest::closest("colour", TOOL_KEYS.iter().copied()), None);
}
