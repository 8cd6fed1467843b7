//! A list with bad tools: `import_each` keeps every good tool and names each bad one with every
//! problem it has, where `import_tools` stops at the first.

use serde_json::json;
use tooldef_mcp::{import_each, import_tools};

#[test]
fn every_good_tool_is_kept_and_every_bad_one_named_with_each_of_its_problems() {
    let list = json!({"tools": [
        {"name": "first", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}},
        {"name": "two_problems", "inputSchema": {"type": "object", "properties": {
            "a": {"type": "strng"},
            "b": {"type": "integer"},
            "c": {"type": "integer", "maximum": "ten"}
        }}},
        {"name": "middle", "inputSchema": {"type": "object"}},
        {"name": "bad name", "inputSchema": {"type": "object"}},
        "not a tool",
        {"name": "last", "inputSchema": {"type": "object"}}
    ]});
    let each = import_each(&list).unwrap();
    let names: Vec<&str> = each.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["first", "middle", "last"]);
    let failed: Vec<String> = each.failed.iter().map(ToString::to_string).collect();
    assert_eq!(
        failed,
        [
            "/tools/1: MCP tool `two_problems`: #/input_schema/properties/a/type: `strng` is not a JSON Schema type; did you mean `string`?\n\
             MCP tool `two_problems`: #/input_schema/properties/c/maximum: `maximum` must be a number; got the string \"ten\"",
            "/tools/3: MCP tool `bad name`: #/name: tool name `bad name` has the character ' ' at byte 3; only a-z, A-Z, 0-9, `_`, `-` and `.` are allowed",
            "/tools/4: a tool must be an object",
        ]
    );
    // The all-or-nothing import stops at the first bad tool, with the same error.
    assert_eq!(import_tools(&list).unwrap_err(), each.failed[0]);
    // A list that is not one is still an error.
    assert_eq!(import_each(&json!({"tools": {}})).unwrap_err().pointer, "/tools");
}

#[test]
fn a_tool_past_the_node_limit_is_named_and_the_others_are_kept() {
    // The property and its variants: one schema node more than the limit.
    let variants = vec![json!({}); tooldef::MAX_IMPORT_NODES];
    let list = json!({"tools": [
        {"name": "first", "inputSchema": {"type": "object"}},
        {"name": "big", "inputSchema": {"type": "object", "properties": {"x": {"anyOf": variants}}}},
        {"name": "last", "inputSchema": {"type": "object"}}
    ]});
    let each = import_each(&list).unwrap();
    let names: Vec<&str> = each.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["first", "last"]);
    let failed: Vec<String> = each.failed.iter().map(ToString::to_string).collect();
    assert_eq!(
        failed,
        [
            "/tools/1: MCP tool `big`: #/input_schema/properties/x/anyOf/65535: schemas hold more than 65536 nodes (the tool's input and output schemas and their definitions together)"
        ]
    );
    assert_eq!(import_tools(&list).unwrap_err(), each.failed[0]);
}

#[test]
fn a_schema_far_past_the_node_limit_is_refused_while_the_text_is_read() {
    let props: Vec<String> = (0..100_000).map(|i| format!(r#""p{i}":{{}}"#)).collect();
    let text = format!(
        r#"{{"tools":[{{"name":"ok","inputSchema":{{"type":"object"}}}},{{"name":"wide","inputSchema":{{"type":"object","properties":{{{}}}}}}},{{"name":"last","inputSchema":{{"type":"object"}}}}]}}"#,
        props.join(",")
    );
    let too_many = "schemas hold more than 65536 nodes (the tool's input and output schemas and \
                    their definitions together)";
    let each = tooldef_mcp::import_each_text(&text).unwrap();
    let names: Vec<&str> = each.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["ok", "last"]);
    let failed: Vec<String> = each.failed.iter().map(ToString::to_string).collect();
    let expected =
        format!("/tools/1: MCP tool `wide`: #/input_schema/properties/p65536: {too_many}");
    assert_eq!(failed, std::slice::from_ref(&expected));
    let first = tooldef_mcp::import_tools_text(&text).unwrap_err();
    assert_eq!(first.to_string(), expected);
}
