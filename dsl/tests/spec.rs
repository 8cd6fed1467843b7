//! Spec files: defaults, name override, commands, and errors that name the file and the place,
//! every problem of a file at once, with suggestions for misspelt keys and type names.

use serde_json::json;
use tooldef::spec::{Command, MAX_SPEC_BYTES, SpecErrorKind};
use tooldef::{
    Additional, Literal, Param, ToolDescriptor, ToolName, load_spec_file, parse_spec,
    spec_from_value, spec_to_json,
};

fn error(text: &str) -> String {
    parse_spec("tools/t.json", text, None).expect_err("must fail").to_string()
}

#[test]
fn the_design_example_parses() {
    let text = r#"{
      "name": "get_weather",
      "title": "Weather",
      "description": "Get the current weather for a city.",
      "input_schema": { "type": "object", "properties": { "city": { "type": "string" } }, "required": ["city"] },
      "output_schema": { "type": "object" },
      "annotations": { "readOnlyHint": true }
    }"#;
    let spec = parse_spec("w.json", text, None).unwrap();
    let d = &spec.descriptor;
    assert_eq!(d.name, "get_weather");
    assert_eq!(d.title.as_deref(), Some("Weather"));
    assert_eq!(d.params.to_vec(), [Param::string("city")]);
    assert_eq!(d.additional, Additional::Unstated);
    assert_eq!(d.annotations.read_only, Some(true));
    assert!(d.output.is_some() && spec.command.is_none() && spec.notes.is_empty());
}

#[test]
fn omitted_fields_take_their_documented_defaults() {
    let spec = parse_spec("x.json", "{}", Some(&ToolName::new("bare"))).unwrap();
    assert_eq!(spec.descriptor, ToolDescriptor::new("bare"));
    assert_eq!(spec.descriptor.additional, Additional::Closed);
    assert_eq!(spec.descriptor.description, "");
}

#[test]
fn a_name_override_wins_and_the_inner_name_is_noted() {
    let spec = parse_spec("tools/stem.json", r#"{"name": "other"}"#, Some(&ToolName::new("stem")))
        .unwrap();
    assert_eq!(spec.descriptor.name, "stem");
    assert_eq!(spec.notes.len(), 1);
    assert_eq!(spec.notes[0].pointer, "/name");
    // Even a bad inner name is ignored under an override.
    assert!(parse_spec("s.json", r#"{"name": "bad name"}"#, Some(&ToolName::new("s"))).is_ok());
    assert_eq!(
        error("{}"),
        "tools/t.json: the spec has no `name` and none was given by its location"
    );
    assert_eq!(
        error(r#"{"name": "bad name"}"#),
        "tools/t.json: #/name: tool name `bad name` has the character ' ' at byte 3; only a-z, A-Z, 0-9, `_`, `-` and `.` are allowed"
    );
}

#[test]
fn extensions_are_kept_verbatim_and_written_back() {
    let text = r#"{"name": "t", "extensions": {"mcp": {"_meta": {"a": [1, {"b": null}]}, "icons": [{"src": "x.png"}]}}}"#;
    let spec = parse_spec("t.json", text, None).unwrap();
    let ext = &spec.descriptor.extensions;
    assert_eq!(ext.namespaces().collect::<Vec<_>>(), ["mcp"]);
    assert_eq!(ext.get("mcp", "_meta"), Some(&json!({"a": [1, {"b": null}]})));
    let written = spec_to_json(&spec.descriptor, None);
    let expected: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(written["extensions"], expected["extensions"]);
    // The descriptor's own serde form keeps them too.
    let json = serde_json::to_string(&spec.descriptor).unwrap();
    assert_eq!(serde_json::from_str::<ToolDescriptor>(&json).unwrap(), spec.descriptor);

    assert_eq!(
        error(r#"{"name": "t", "extensions": []}"#),
        "tools/t.json: #/extensions: expected an object, got an array"
    );
    assert_eq!(
        error(r#"{"name": "t", "extensions": {"mcp": 1}}"#),
        "tools/t.json: #/extensions/mcp: expected an object of fields, got the number 1"
    );
}

#[test]
fn a_name_key_takes_any_name_some_provider_accepts() {
    // MCP allows dots and 128 characters; the spec keeps the name and renderers judge it.
    let spec = parse_spec("t.json", r#"{"name": "github.create_issue"}"#, None).unwrap();
    assert_eq!(spec.descriptor.name, "github.create_issue");
    let long = "a".repeat(100);
    let spec = parse_spec("t.json", &format!(r#"{{"name": "{long}"}}"#), None).unwrap();
    assert_eq!(spec.descriptor.name, long.as_str());
}

#[test]
fn commands_are_parsed_and_checked() {
    let spec =
        parse_spec("c.json", r#"{"name": "c", "command": ["python3", "tool.py"]}"#, None).unwrap();
    assert_eq!(
        spec.command,
        Some(Command {
            argv: vec!["python3".into(), "tool.py".into()],
            timeout_ms: None,
            env: Vec::new()
        })
    );
    let spec = parse_spec(
        "c.json",
        r#"{"name": "c", "command": {"argv": ["run"], "timeout_ms": 5000}}"#,
        None,
    )
    .unwrap();
    assert_eq!(
        spec.command,
        Some(Command { argv: vec!["run".into()], timeout_ms: Some(5000), env: Vec::new() })
    );
    let spec = parse_spec(
        "c.json",
        r#"{"name": "c", "command": {"argv": ["run"], "env": ["API_KEY", "_x1"]}}"#,
        None,
    )
    .unwrap();
    assert_eq!(spec.command.unwrap().env, ["API_KEY", "_x1"]);
    let cases = [
        (
            r#"{"name":"c","command":[]}"#,
            "#/command: expected a non-empty array (the program first), got an array",
        ),
        (
            r#"{"name":"c","command":[""]}"#,
            "#/command/0: expected a program name, got the string \"\"",
        ),
        (r#"{"name":"c","command":["a", 1]}"#, "#/command/1: expected a string, got the number 1"),
        (
            r#"{"name":"c","command":["a\u0000b"]}"#,
            "#/command/0: expected a string without NUL bytes, got the string \"a\\0b\"",
        ),
        (
            r#"{"name":"c","command":"ls -l"}"#,
            "#/command: expected an array of strings or an object with `argv`, got the string \"ls -l\"",
        ),
        (
            r#"{"name":"c","command":{"argv":["a"],"timeout_ms":0}}"#,
            "#/command/timeout_ms: expected a whole number of milliseconds from 1 to 86400000, got the number 0",
        ),
        (
            r#"{"name":"c","command":{"argv":["a"],"timeout_ms":86400001}}"#,
            "#/command/timeout_ms: expected a whole number of milliseconds from 1 to 86400000, got the number 86400001",
        ),
        (
            r#"{"name":"c","command":{"timeout_ms":5}}"#,
            "#/command: expected an object with `argv`, got an object",
        ),
        (
            r#"{"name":"c","command":{"argv":["a"],"env":{}}}"#,
            "#/command/env: expected an array of environment variable names, got an object",
        ),
        (
            r#"{"name":"c","command":{"argv":["a"],"env":["A=1", "B", "B", 2]}}"#,
            "#/command/env/0: expected an environment variable name (letters, digits and `_`, not starting with a digit), got the string \"A=1\"\n\
             tools/t.json: #/command/env/2: expected a name not already listed, got the string \"B\"\n\
             tools/t.json: #/command/env/3: expected a string, got the number 2",
        ),
        (
            r#"{"name":"c","command":{"argv":["a"],"envv":[]}}"#,
            "#/command: unknown key `envv`; did you mean `env`?",
        ),
    ];
    for (text, what) in cases {
        assert_eq!(error(text), format!("tools/t.json: {what}"));
    }
}

#[test]
fn errors_name_the_file_and_the_place() {
    assert_eq!(
        error("{\n  \"name\": \"x\",\n}"),
        "tools/t.json:3:1: malformed JSON: trailing comma"
    );
    assert_eq!(error("[]"), "tools/t.json: #: expected an object, got an array");
    assert_eq!(
        error(r#"{"name": "x", "inputSchema": {}}"#),
        "tools/t.json: #: unknown key `inputSchema`; did you mean `input_schema`?"
    );
    assert_eq!(
        error(r#"{"name": "x", "parameters": {}}"#),
        "tools/t.json: #: unknown key `parameters`; expected one of `$schema`, `name`, `title`, `description`, `input_schema`, `output_schema`, `annotations`, `extensions`, `input_examples`, `command`"
    );
    assert_eq!(
        error(r#"{"name": 5}"#),
        "tools/t.json: #/name: expected a string, got the number 5"
    );
    assert_eq!(
        error(r#"{"name": "x", "description": 5}"#),
        "tools/t.json: #/description: expected a string, got the number 5"
    );
    assert_eq!(
        error(r#"{"name": "x", "title": false}"#),
        "tools/t.json: #/title: expected a string, got the boolean false"
    );
    assert_eq!(
        error(r#"{"name": "x", "annotations": []}"#),
        "tools/t.json: #/annotations: expected an object, got an array"
    );
    assert_eq!(
        error(r#"{"name": "x", "annotations": {"readOnlyHint": "yes"}}"#),
        "tools/t.json: #/annotations/readOnlyHint: expected a boolean, got the string \"yes\""
    );
    assert_eq!(
        error(r#"{"name": "x", "annotations": {"title": 1}}"#),
        "tools/t.json: #/annotations/title: expected a string, got the number 1"
    );
    assert_eq!(
        error(r#"{"name": "x", "annotations": {"readonlyHint": true}}"#),
        "tools/t.json: #/annotations: unknown key `readonlyHint`; did you mean `readOnlyHint`?"
    );
    assert_eq!(
        error(r#"{"name": "x", "annotations": {"sideEffects": true}}"#),
        "tools/t.json: #/annotations: unknown key `sideEffects`; expected one of `title`, `readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`"
    );
    assert_eq!(
        error(
            r#"{"name": "x", "input_schema": {"type": "object", "properties": {"days": {"type": "integer", "minimum": "3"}}}}"#
        ),
        "tools/t.json: #/input_schema/properties/days/minimum: `minimum` must be a number; got the string \"3\""
    );
    // Validation after import: bounds that no value satisfies.
    assert_eq!(
        error(
            r#"{"name": "x", "input_schema": {"type": "object", "properties": {"days": {"type": "integer", "minimum": 10, "maximum": 1}}}}"#
        ),
        "tools/t.json: tool `x`: parameter `days`: minimum 10 is above maximum 1"
    );
    // Input and output define one name differently.
    assert_eq!(
        error(
            r##"{"name": "x", "input_schema": {"type": "object", "$defs": {"A": {"type": "string"}}}, "output_schema": {"$ref": "#/$defs/A", "$defs": {"A": {"type": "integer"}}}}"##
        ),
        "tools/t.json: #/output_schema/$defs/A: definition `A` differs from the input schema's definition of the same name"
    );
}

#[test]
fn notes_carry_the_spec_pointer() {
    let spec = parse_spec(
        "n.json",
        r#"{"$schema": "x", "name": "n", "input_schema": {"type": "object", "properties": {"a": {"type": "string", "deprecated": true}}}}"#,
        None,
    )
    .unwrap();
    assert_eq!(spec.notes.len(), 1);
    assert_eq!(
        spec.notes[0].to_string(),
        "#/input_schema/properties/a/deprecated: `deprecated` has no place in the IR and was dropped"
    );
}

#[test]
fn written_specs_read_back_identically() {
    let d = ToolDescriptor::builder("w")
        .title("T")
        .description("D")
        .param(Param::named("n", tooldef::Schema::integer()).with_default(Literal::Int(2)))
        .annotations(tooldef::Annotations { idempotent: Some(false), ..Default::default() })
        .build()
        .unwrap();
    let command =
        Command { argv: vec!["x".into()], timeout_ms: Some(10), env: vec!["HOME_DIR".into()] };
    let text = serde_json::to_string(&tooldef::spec_to_literal(&d, Some(&command))).unwrap();
    assert_eq!(
        text,
        r#"{"name":"w","title":"T","description":"D","input_schema":{"type":"object","properties":{"n":{"type":"integer","default":2}},"additionalProperties":false},"annotations":{"idempotentHint":false},"command":{"argv":["x"],"timeout_ms":10,"env":["HOME_DIR"]}}"#
    );
    let v = spec_to_json(&d, Some(&command));
    assert_eq!(v, serde_json::from_str::<serde_json::Value>(&text).unwrap());
    assert_eq!(v["command"], json!({"argv": ["x"], "timeout_ms": 10, "env": ["HOME_DIR"]}));
    let back = spec_from_value("w.json", &v, None).unwrap();
    assert_eq!((back.descriptor, back.command), (d.clone(), Some(command.clone())));
    let back = parse_spec("w.json", &text, None).unwrap();
    assert_eq!((back.descriptor, back.command), (d, Some(command)));
}

#[test]
fn files_are_loaded_with_their_path_in_errors() {
    let dir = std::env::temp_dir().join(format!("tooldef-spec-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stem = dir.join("from_stem.json");
    std::fs::write(&stem, r#"{"description": "named by its file"}"#).unwrap();
    let spec = load_spec_file(&stem, None).unwrap();
    assert_eq!(spec.descriptor.name, "from_stem");
    let spec = load_spec_file(&stem, Some(&ToolName::new("override"))).unwrap();
    assert_eq!(spec.descriptor.name, "override");

    let missing = dir.join("missing.json");
    let e = load_spec_file(&missing, None).unwrap_err();
    assert!(matches!(e.problems[..], [SpecErrorKind::Io(_)]));
    assert!(
        e.to_string().starts_with(&format!("{}: cannot read the spec file: ", missing.display())),
        "{e}"
    );

    let big = dir.join("big.json");
    std::fs::write(&big, vec![b' '; MAX_SPEC_BYTES as usize + 1]).unwrap();
    let e = load_spec_file(&big, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: the spec file is {} bytes; at most {MAX_SPEC_BYTES} are read",
            big.display(),
            MAX_SPEC_BYTES + 1
        )
    );

    let bad = dir.join("bad stem.json");
    std::fs::write(&bad, "{}").unwrap();
    let e = load_spec_file(&bad, None).unwrap_err();
    assert!(matches!(e.problems[..], [SpecErrorKind::Name { .. }]), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_problem_of_a_file_is_reported_at_once() {
    let text = r#"{
      "name": "x",
      "annotatons": {},
      "description": 5,
      "input_schema": {"type": "object", "properties": {"n": {"type": "integr"}}},
      "annotations": {"readOnlyHnt": true, "destructiveHint": "no"},
      "command": {"argv": ["", 3], "timeot_ms": 5}
    }"#;
    let e = parse_spec("tools/t.json", text, None).unwrap_err();
    let messages: Vec<String> = e.messages().collect();
    assert_eq!(
        messages,
        [
            "tools/t.json: #: unknown key `annotatons`; did you mean `annotations`?",
            "tools/t.json: #/description: expected a string, got the number 5",
            "tools/t.json: #/input_schema/properties/n/type: `integr` is not a JSON Schema type; did you mean `integer`?",
            "tools/t.json: #/annotations: unknown key `readOnlyHnt`; did you mean `readOnlyHint`?",
            "tools/t.json: #/annotations/destructiveHint: expected a boolean, got the string \"no\"",
            "tools/t.json: #/command: unknown key `timeot_ms`; did you mean `timeout_ms`?",
            "tools/t.json: #/command/argv/0: expected a program name, got the string \"\"",
            "tools/t.json: #/command/argv/1: expected a string, got the number 3",
        ]
    );
    // Display is the same messages, one a line.
    assert_eq!(e.to_string(), messages.join("\n"));
    let pointers: Vec<Option<&str>> =
        e.problems.iter().map(|p| p.pointer().map(tooldef::JsonPointer::as_str)).collect();
    assert_eq!(
        pointers,
        [
            Some(""),
            Some("/description"),
            Some("/input_schema/properties/n/type"),
            Some("/annotations"),
            Some("/annotations/destructiveHint"),
            Some("/command"),
            Some("/command/argv/0"),
            Some("/command/argv/1"),
        ]
    );
}

#[test]
fn the_descriptor_rules_are_checked_beside_other_problems() {
    // A misspelt key does not hide bounds that no value satisfies.
    let text = r#"{"name": "x", "titel": "X", "input_schema": {"type": "object",
        "properties": {"days": {"type": "integer", "minimum": 10, "maximum": 1}}}}"#;
    assert_eq!(
        error(text),
        "tools/t.json: #: unknown key `titel`; did you mean `title`?\n\
         tools/t.json: tool `x`: parameter `days`: minimum 10 is above maximum 1"
    );
    // Without its name the descriptor is not checked: the checks would name a stand-in.
    let text = r##"{"name": "bad name", "input_schema": {"type": "object",
        "properties": {"days": {"type": "integer", "maximum": 10, "default": 11}}}}"##;
    let e = parse_spec("t.json", text, None).unwrap_err();
    assert!(matches!(e.problems[..], [SpecErrorKind::Name { .. }]), "{e}");
    // An output schema that cannot be read never blocks the input side: it is left out.
    let text = r##"{"name": "x", "input_schema": {"type": "object", "not": {}},
        "output_schema": {"$ref": "#/$defs/A"}}"##;
    let spec = parse_spec("tools/t.json", text, None).unwrap();
    assert!(spec.descriptor.output.is_none());
    let notes: Vec<String> = spec.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "#/input_schema/not: `not` was kept verbatim (the IR has no negation)",
            "#/output_schema/$ref: `output_schema` could not be read (`$ref` `#/$defs/A` points at nothing in the document); the tool has no output schema",
        ]
    );
}
