//! What models really send (issue 36, item 3): an object or array sent as a JSON string where
//! the schema expects one is read as the value it holds, only when the schema then accepts it;
//! each repair is on the call's result; `CallOptions::repair(false)` turns it off.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tooldef::dispatch::{CallOptions, DynamicTool, Repair, RepairKind, Toolbox, block_on};
use tooldef::spec::parse_spec;
use tooldef::{JsonPointer, Origin, ToolCall, ToolRegistry, ToolResult, ToolSchema, tool};

#[derive(Debug, Deserialize, Serialize, ToolSchema)]
struct Filter {
    limit: u32,
    tags: Vec<String>,
}

/// Search.
#[tool]
fn search(filter: Filter, ids: Vec<u32>) -> String {
    format!("limit {} tags {:?} ids {ids:?}", filter.limit, filter.tags)
}

fn dynamic(schema: Value) -> Toolbox {
    let text = json!({"name": "t", "input_schema": schema}).to_string();
    let d = parse_spec("t.json", &text, None).unwrap().descriptor;
    Toolbox::new().with_executor(DynamicTool::new_sync(d, Ok).into())
}

fn repair(pointer: &str, kind: RepairKind) -> Repair {
    Repair { pointer: JsonPointer::parse(pointer).unwrap(), kind }
}

#[test]
fn an_object_and_an_array_sent_as_strings_are_read_as_what_they_hold() {
    let toolbox = Toolbox::new().with(Search);
    let call = ToolCall::from_text(
        "1",
        "search",
        r#"{"filter": "{\"limit\": 5, \"tags\": [\"a\"]}", "ids": "[1, 2]"}"#,
    );
    let result = toolbox.call_blocking(&call);
    assert_eq!(
        result,
        ToolResult {
            repairs: vec![
                repair("/filter", RepairKind::ObjectFromString),
                repair("/ids", RepairKind::ArrayFromString)
            ],
            ..ToolResult::success(&call, json!(r#"limit 5 tags ["a"] ids [1, 2]"#))
        }
    );
    assert_eq!(
        result.repairs.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [
            "/filter: a JSON string read as the object it holds",
            "/ids: a JSON string read as the array it holds"
        ]
    );
    // A call with nothing to repair has no repairs.
    let plain =
        ToolCall::new("2", "search", json!({"filter": {"limit": 1, "tags": []}, "ids": []}));
    assert_eq!(toolbox.call_blocking(&plain).repairs, []);
}

#[test]
fn a_string_the_schema_takes_stays_a_string() {
    let toolbox = dynamic(json!({"type": "object", "properties": {
        "q": {"anyOf": [{"type": "object", "properties": {"a": {"type": "integer"}}}, {"type": "string"}]},
        "text": {"type": "string"}
    }}));
    let call = ToolCall::new("1", "t", json!({"q": "{\"a\": 1}", "text": "[1]"}));
    let result = toolbox.call_blocking(&call);
    assert_eq!(result.text(), r#"{"q":"{\"a\": 1}","text":"[1]"}"#);
    assert_eq!(result.repairs, []);
}

#[test]
fn a_string_whose_value_the_schema_refuses_is_refused_as_it_came() {
    let toolbox = Toolbox::new().with(Search);
    for (args, message) in [
        (
            // What it holds breaks the schema: the model reads the string it sent.
            r#"{"filter": "{\"limit\": -1, \"tags\": []}", "ids": []}"#,
            r#"invalid arguments for search: /filter must be an object; got "{\"limit\": -1, \"tags\": []}""#,
        ),
        (
            // Cut short: never completed.
            r#"{"filter": "{\"limit\": 5, \"tags\": [", "ids": []}"#,
            r#"invalid arguments for search: /filter must be an object; got "{\"limit\": 5, \"tags\": [""#,
        ),
    ] {
        let result = toolbox.call_blocking(&ToolCall::from_text("1", "search", args));
        assert_eq!(
            (result.text().as_str(), result.is_error, result.repairs.len()),
            (message, true, 0)
        );
    }
}

#[test]
fn repairs_can_be_turned_off() {
    let toolbox = Toolbox::new().with(Search);
    let call = ToolCall::from_text(
        "1",
        "search",
        r#"{"filter": "{\"limit\": 5, \"tags\": []}", "ids": []}"#,
    );
    let result = block_on(toolbox.call_with(&call, &CallOptions::new().repair(false)));
    assert_eq!(
        result.text(),
        r#"invalid arguments for search: /filter must be an object; got "{\"limit\": 5, \"tags\": []}""#
    );
    assert!(result.repairs.is_empty());
    // `check` says what `call` would answer.
    assert!(toolbox.check(&call).is_ok());
}

#[test]
fn nested_and_whole_arguments_and_the_registry() {
    let toolbox = dynamic(json!({"type": "object", "properties": {
        "rows": {"type": "array", "items": {"type": "object", "properties": {
            "cells": {"type": "array", "items": {"type": "integer"}}}}}
    }}));
    let call = ToolCall::new("1", "t", json!({"rows": [{"cells": "[1,2]"}, {"cells": [3]}]}));
    let result = toolbox.call_blocking(&call);
    assert_eq!(result.text(), r#"{"rows":[{"cells":[1,2]},{"cells":[3]}]}"#);
    assert_eq!(result.repairs, [repair("/rows/0/cells", RepairKind::ArrayFromString)]);
    // The whole arguments as one string.
    let call = ToolCall::new("2", "t", json!("{\"rows\": []}"));
    let result = toolbox.call_blocking(&call);
    assert_eq!(
        (result.text().as_str(), result.repairs.clone()),
        (r#"{"rows":[]}"#, vec![repair("", RepairKind::ObjectFromString)])
    );
    assert_eq!(
        result.repairs[0].to_string(),
        "the arguments: a JSON string read as the object it holds"
    );
    // The registry repairs as the toolbox does.
    let registry = ToolRegistry::new();
    registry.register(toolbox.get("t").unwrap().clone(), Origin::Mcp).unwrap();
    let call = ToolCall::new("3", "t", json!({"rows": "[]"}));
    let result = registry.snapshot().call_blocking(&call);
    assert_eq!((result.text().as_str(), result.repairs.len()), (r#"{"rows":[]}"#, 1));
    // Repairs survive a round trip of the result through serde (and are left out when none).
    let text = serde_json::to_string(&result).unwrap();
    assert!(
        text.ends_with(r#""repairs":[{"pointer":"/rows","kind":"array_from_string"}]}"#),
        "{text}"
    );
    assert_eq!(serde_json::from_str::<ToolResult>(&text).unwrap(), result);
}
