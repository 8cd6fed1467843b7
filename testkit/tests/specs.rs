//! The spec validators accept hand-written instances shaped as the providers document them, and
//! reject known-bad ones with a violation at the right JSON pointer.

use serde_json::{Value, json};
use tooldef_testkit::specs::{
    SpecResult, anthropic, assert_conforms, bedrock, gemini, mcp, mcp::McpVersion, ollama, openai,
    specs_dir, vertex, violation_pointers,
};

/// Asserts `result` failed with (at least) one violation at `pointer` whose message names `term`.
#[track_caller]
fn fails_at(result: SpecResult, pointer: &str, term: &str) {
    let Err(violations) = result else {
        panic!("expected a violation at `{pointer}` mentioning `{term}`, but the instance passed");
    };
    assert!(
        violations.iter().any(|v| v.pointer == pointer && v.message.contains(term)),
        "expected a violation at `{pointer}` mentioning `{term}`, got {violations:#?}"
    );
}

fn weather_parameters() -> Value {
    json!({
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "City name"},
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}
        },
        "required": ["city"],
        "additionalProperties": false
    })
}

#[test]
fn specs_directory_is_found() {
    assert!(specs_dir().join("README.md").is_file());
}

mod openai_specs {
    use super::*;

    #[test]
    fn chat_tool_passes() {
        let tool = json!({
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Current weather for a city",
                "parameters": weather_parameters(),
                "strict": true
            }
        });
        assert_conforms("chat tool", openai::validate_chat_completion_tool(&tool));
        assert_conforms("function", openai::validate_function_object(&tool["function"]));
        // `strict` is `boolean | null` and optional; `parameters` is optional.
        let minimal = json!({"type": "function", "function": {"name": "ping", "strict": null}});
        assert_conforms("minimal chat tool", openai::validate_chat_completion_tool(&minimal));
    }

    #[test]
    fn chat_tool_faults_are_located() {
        let no_name = json!({"type": "function", "function": {"parameters": weather_parameters()}});
        fails_at(openai::validate_chat_completion_tool(&no_name), "/function", "name");
        let bad_type = json!({"type": "tool", "function": {"name": "x"}});
        fails_at(openai::validate_chat_completion_tool(&bad_type), "/type", "function");
        let bad_params = json!({"type": "function", "function": {"name": "x", "parameters": "{}"}});
        fails_at(
            openai::validate_chat_completion_tool(&bad_params),
            "/function/parameters",
            "object",
        );
    }

    #[test]
    fn responses_tool_needs_strict() {
        let tool = json!({
            "type": "function",
            "name": "get_weather",
            "description": "Current weather for a city",
            "parameters": weather_parameters(),
            "strict": true
        });
        assert_conforms("responses tool", openai::validate_function_tool(&tool));
        let nullable =
            json!({"type": "function", "name": "ping", "parameters": null, "strict": null});
        assert_conforms("nullable responses tool", openai::validate_function_tool(&nullable));

        let mut no_strict = tool.clone();
        no_strict.as_object_mut().unwrap().remove("strict");
        fails_at(openai::validate_function_tool(&no_strict), "", "strict");
        let mut no_parameters = tool;
        no_parameters.as_object_mut().unwrap().remove("parameters");
        fails_at(openai::validate_function_tool(&no_parameters), "", "parameters");
    }

    #[test]
    fn chat_request_bodies() {
        let body = json!({
            "model": "gpt-4.1",
            "messages": [{"role": "user", "content": "Weather in Paris?"}],
            "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": weather_parameters()}}],
            "tool_choice": "auto",
            "parallel_tool_calls": false,
            // OpenAPI 3.0 `nullable` leftovers: null must be accepted after the rewrite.
            "max_completion_tokens": null,
            "stop": null
        });
        assert_conforms("chat body", openai::validate_create_chat_completion_request(&body));

        let forced = json!({
            "model": "gpt-4.1",
            "messages": [{"role": "user", "content": "hi"}],
            "tool_choice": {"type": "function", "function": {"name": "get_weather"}}
        });
        assert_conforms("forced choice", openai::validate_create_chat_completion_request(&forced));

        // A tool entry with a broken function is reported inside the `oneOf`, not at the array item.
        let mut bad = body.clone();
        bad["tools"][0]["function"].as_object_mut().unwrap().remove("name");
        fails_at(
            openai::validate_create_chat_completion_request(&bad),
            "/tools/0/function",
            "name",
        );
        let mut no_model = body;
        no_model.as_object_mut().unwrap().remove("model");
        fails_at(openai::validate_create_chat_completion_request(&no_model), "", "model");
    }

    #[test]
    fn responses_request_bodies() {
        let body = json!({
            "model": "gpt-4.1",
            "input": "Weather in Paris?",
            "tools": [{
                "type": "function",
                "name": "get_weather",
                "parameters": weather_parameters(),
                "strict": false
            }],
            "tool_choice": {"type": "function", "name": "get_weather"}
        });
        assert_conforms("responses body", openai::validate_create_response(&body));
        let mut no_strict = body;
        no_strict["tools"][0].as_object_mut().unwrap().remove("strict");
        fails_at(openai::validate_create_response(&no_strict), "/tools/0", "strict");
    }
}

mod mcp_specs {
    use super::*;

    fn tool() -> Value {
        json!({
            "name": "get_weather",
            "title": "Weather",
            "description": "Current weather for a city",
            "inputSchema": weather_parameters(),
            "annotations": {"readOnlyHint": true, "openWorldHint": true}
        })
    }

    #[test]
    fn tools_pass_every_version() {
        for version in McpVersion::ALL {
            assert_conforms(version.as_str(), mcp::validate_tool(version, &tool()));
            let bare = json!({"name": "ping", "inputSchema": {"type": "object"}});
            assert_conforms(version.as_str(), mcp::validate_tool(version, &bare));
        }
    }

    #[test]
    fn input_schema_must_be_an_object_schema() {
        for version in McpVersion::ALL {
            let mut bad = tool();
            bad["inputSchema"]["type"] = json!("array");
            fails_at(mcp::validate_tool(version, &bad), "/inputSchema/type", "object");
            let mut missing = tool();
            missing.as_object_mut().unwrap().remove("inputSchema");
            fails_at(mcp::validate_tool(version, &missing), "", "inputSchema");
        }
    }

    #[test]
    fn list_tools_result_changed_in_2026() {
        let old_style = json!({"tools": [tool()]});
        for version in [McpVersion::V2025_06_18, McpVersion::V2025_11_25] {
            assert_conforms(version.as_str(), mcp::validate_list_tools_result(version, &old_style));
        }
        let latest = McpVersion::V2026_07_28;
        let result = mcp::validate_list_tools_result(latest, &old_style);
        for field in ["resultType", "cacheScope", "ttlMs"] {
            fails_at(result.clone(), "", field);
        }
        let new_style = json!({
            "resultType": "complete",
            "tools": [tool()],
            "cacheScope": "public",
            "ttlMs": 60000
        });
        assert_conforms("2026 list", mcp::validate_list_tools_result(latest, &new_style));
        let mut bad_tool = new_style;
        bad_tool["tools"][0]["inputSchema"]["type"] = json!("string");
        fails_at(
            mcp::validate_list_tools_result(latest, &bad_tool),
            "/tools/0/inputSchema/type",
            "object",
        );
    }

    #[test]
    fn call_tool_results() {
        let result = json!({
            "content": [{"type": "text", "text": "18°C, cloudy"}],
            "structuredContent": {"temperature": 18},
            "isError": false
        });
        for version in [McpVersion::V2025_06_18, McpVersion::V2025_11_25] {
            assert_conforms(version.as_str(), mcp::validate_call_tool_result(version, &result));
        }
        fails_at(
            mcp::validate_call_tool_result(McpVersion::V2026_07_28, &result),
            "",
            "resultType",
        );
        let mut latest = result.clone();
        latest["resultType"] = json!("complete");
        assert_conforms(
            "2026 call result",
            mcp::validate_call_tool_result(McpVersion::V2026_07_28, &latest),
        );
        let mut bad_content = result;
        bad_content["content"][0] = json!({"type": "text"});
        fails_at(
            mcp::validate_call_tool_result(McpVersion::V2025_06_18, &bad_content),
            "/content/0",
            "text",
        );
    }

    #[test]
    fn other_definitions_by_name() {
        let annotations = json!({"destructiveHint": "yes"});
        fails_at(
            mcp::validate_definition(McpVersion::V2025_06_18, "ToolAnnotations", &annotations),
            "/destructiveHint",
            "boolean",
        );
    }
}

mod ollama_specs {
    use super::*;

    #[test]
    fn tool_definition() {
        let tool = json!({
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Current weather for a city",
                "parameters": weather_parameters()
            }
        });
        assert_conforms("ollama tool", ollama::validate_tool_definition(&tool));
        let body = json!({
            "model": "llama3.2",
            "messages": [{"role": "user", "content": "Weather in Paris?"}],
            "tools": [tool.clone()],
            "stream": false
        });
        assert_conforms("ollama chat", ollama::validate_chat_request(&body));

        let mut no_parameters = tool;
        no_parameters["function"].as_object_mut().unwrap().remove("parameters");
        fails_at(ollama::validate_tool_definition(&no_parameters), "/function", "parameters");
        let mut bad_body = body;
        bad_body["tools"][0] = no_parameters;
        fails_at(ollama::validate_chat_request(&bad_body), "/tools/0/function", "parameters");
    }
}

mod gemini_specs {
    use super::*;

    fn json_schema_declaration() -> Value {
        json!({
            "name": "get_weather",
            "description": "Current weather for a city",
            "parametersJsonSchema": weather_parameters()
        })
    }

    fn openapi_declaration() -> Value {
        json!({
            "name": "get_weather",
            "description": "Current weather for a city",
            "parameters": {
                "type": "OBJECT",
                "properties": {
                    "city": {"type": "STRING", "description": "City name"},
                    "unit": {"type": "STRING", "format": "enum", "enum": ["celsius", "fahrenheit"]},
                    "days": {"type": "INTEGER", "minimum": 1, "maxItems": "3"},
                    "tags": {"type": "ARRAY", "items": {"type": "STRING"}, "nullable": true}
                },
                "required": ["city"],
                "propertyOrdering": ["city", "unit", "days", "tags"]
            }
        })
    }

    #[test]
    fn declarations_pass() {
        for declaration in [json_schema_declaration(), openapi_declaration()] {
            assert_conforms("declaration", gemini::validate_function_declaration(&declaration));
        }
        let tool =
            json!({"functionDeclarations": [json_schema_declaration(), openapi_declaration()]});
        assert_conforms("tool", gemini::validate_tool(&tool));
        // The snake_case proto names are accepted too.
        let snake = json!({"function_declarations": [{
            "name": "f", "description": "d", "parameters_json_schema": {"type": "object"}
        }]});
        assert_conforms("snake tool", gemini::validate_tool(&snake));
    }

    #[test]
    fn declaration_faults_are_located() {
        let mut no_description = json_schema_declaration();
        no_description.as_object_mut().unwrap().remove("description");
        fails_at(gemini::validate_function_declaration(&no_description), "", "description");
        let tool = json!({"functionDeclarations": [no_description]});
        fails_at(gemini::validate_tool(&tool), "/functionDeclarations/0", "description");

        let unknown = json!({"name": "f", "description": "d", "strict": true});
        fails_at(gemini::validate_function_declaration(&unknown), "/strict", "unknown field");
        let twice = json!({"name": "f", "description": "d", "parametersJsonSchema": {}, "parameters_json_schema": {}});
        fails_at(
            gemini::validate_function_declaration(&twice),
            "/parameters_json_schema",
            "set twice",
        );
    }

    #[test]
    fn openapi_schema_subset_is_enforced() {
        let closed = json!({"type": "OBJECT", "properties": {}, "additionalProperties": false});
        fails_at(gemini::validate_schema(&closed), "/additionalProperties", "unknown field");
        let lower = json!({"type": "object"});
        fails_at(gemini::validate_schema(&lower), "/type", "OBJECT");
        let nested = json!({"type": "OBJECT", "properties": {"a": {"type": "string"}}});
        fails_at(gemini::validate_schema(&nested), "/properties/a/type", "enum");
        // `type` may be left out beside `anyOf` (a union, as google-genai sends it), never both.
        let union = json!({"anyOf": [{"type": "STRING"}, {"type": "NULL"}]});
        assert_eq!(gemini::validate_schema(&union), Ok(()));
        let no_type = json!({"description": "anything"});
        fails_at(gemini::validate_schema(&no_type), "", "type");
        let reference = json!({"type": "OBJECT", "$ref": "#/defs/x"});
        fails_at(gemini::validate_schema(&reference), "/$ref", "unknown field");
        let bad_count = json!({"type": "ARRAY", "maxItems": "three"});
        fails_at(gemini::validate_schema(&bad_count), "/maxItems", "int64");

        let mut declaration = openapi_declaration();
        declaration["parameters"]["properties"]["city"]["const"] = json!("Paris");
        fails_at(
            gemini::validate_function_declaration(&declaration),
            "/parameters/properties/city/const",
            "unknown field",
        );
    }

    #[test]
    fn generate_content_request() {
        let body = json!({
            "contents": [{"role": "user", "parts": [{"text": "Weather in Paris?"}]}],
            "tools": [{"functionDeclarations": [json_schema_declaration()]}],
            "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}},
            "generationConfig": {"temperature": 0.2, "maxOutputTokens": 512}
        });
        // `model` is REQUIRED but bound to the URL (`/v1beta/{model=models/*}:generateContent`).
        assert_conforms("gemini body", gemini::validate_generate_content_request(&body));
        let mut bad_mode = body.clone();
        bad_mode["toolConfig"]["functionCallingConfig"]["mode"] = json!("auto");
        fails_at(
            gemini::validate_generate_content_request(&bad_mode),
            "/toolConfig/functionCallingConfig/mode",
            "VALIDATED",
        );
        let mut no_contents = body;
        no_contents.as_object_mut().unwrap().remove("contents");
        fails_at(gemini::validate_generate_content_request(&no_contents), "", "contents");
        // A real oneof (`Part.data`) takes one member.
        let two_parts = json!({"contents": [{"parts": [{"text": "a", "inlineData": {"mimeType": "text/plain", "data": "YQ=="}}]}]});
        fails_at(
            gemini::validate_generate_content_request(&two_parts),
            "/contents/0/parts/0",
            "oneof",
        );
        let tool_config = json!({"functionCallingConfig": {"mode": "NONE"}});
        assert_conforms("tool config", gemini::validate_tool_config(&tool_config));
    }
}

mod vertex_specs {
    use super::*;

    #[test]
    fn declarations_and_schemas() {
        let declaration = json!({
            "name": "weather.get",
            "parameters": {
                "type": "OBJECT",
                "properties": {"city": {"type": "STRING"}},
                "required": ["city"],
                "additionalProperties": false
            }
        });
        // Vertex allows dots in names, an optional description and `additionalProperties`.
        assert_conforms("vertex declaration", vertex::validate_function_declaration(&declaration));
        let tool = json!({"functionDeclarations": [declaration.clone(), {
            "name": "ping", "description": "d", "parametersJsonSchema": weather_parameters()
        }]});
        assert_conforms("vertex tool", vertex::validate_tool(&tool));

        let unnamed = json!({"functionDeclarations": [{"description": "no name"}]});
        fails_at(vertex::validate_tool(&unnamed), "/functionDeclarations/0", "name");
        let lower = json!({"type": "object"});
        fails_at(vertex::validate_schema(&lower), "/type", "OBJECT");
        let unknown = json!({"type": "OBJECT", "oneOf": []});
        fails_at(vertex::validate_schema(&unknown), "/oneOf", "unknown field");
        let bad_count = json!({"type": "ARRAY", "minItems": "one"});
        fails_at(vertex::validate_schema(&bad_count), "/minItems", "decimal");
    }

    #[test]
    fn generate_content_request() {
        let body = json!({
            "contents": [{"role": "user", "parts": [{"text": "Weather in Paris?"}]}],
            "tools": [{"functionDeclarations": [{"name": "get_weather", "parametersJsonSchema": weather_parameters()}]}],
            "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}}
        });
        assert_conforms("vertex body", vertex::validate_generate_content_request(&body));
        let mut no_contents = body;
        no_contents.as_object_mut().unwrap().remove("contents");
        fails_at(vertex::validate_generate_content_request(&no_contents), "", "contents");
    }
}

mod bedrock_specs {
    use super::*;

    fn tool_spec() -> Value {
        json!({
            "name": "get_weather",
            "description": "Current weather for a city",
            "inputSchema": {"json": weather_parameters()}
        })
    }

    #[test]
    fn tool_configuration_passes() {
        assert_conforms("tool spec", bedrock::validate_tool_specification(&tool_spec()));
        let tool = json!({"toolSpec": tool_spec()});
        assert_conforms("tool", bedrock::validate_tool(&tool));
        let config = json!({
            "tools": [tool, {"cachePoint": {"type": "default"}}],
            "toolChoice": {"tool": {"name": "get_weather"}}
        });
        assert_conforms("tool config", bedrock::validate_tool_configuration(&config));
        let request = json!({
            "messages": [{"role": "user", "content": [{"text": "Weather in Paris?"}]}],
            "toolConfig": config
        });
        // `modelId` is required but bound to the URL.
        assert_conforms("converse", bedrock::validate_converse_request(&request));
    }

    #[test]
    fn faults_are_located() {
        let mut dotted = tool_spec();
        dotted["name"] = json!("weather.get");
        fails_at(bedrock::validate_tool_specification(&dotted), "/name", "pattern");
        let mut long = tool_spec();
        long["name"] = json!("x".repeat(65));
        fails_at(bedrock::validate_tool_specification(&long), "/name", "at most 64");
        let mut empty_description = tool_spec();
        empty_description["description"] = json!("");
        fails_at(
            bedrock::validate_tool_specification(&empty_description),
            "/description",
            "at least 1",
        );
        let mut raw_schema = tool_spec();
        raw_schema["inputSchema"] = weather_parameters();
        fails_at(
            bedrock::validate_tool_specification(&raw_schema),
            "/inputSchema/type",
            "unknown member",
        );

        let two = json!({"toolSpec": tool_spec(), "cachePoint": {"type": "default"}});
        fails_at(bedrock::validate_tool(&two), "", "exactly one");
        let none = json!({});
        fails_at(bedrock::validate_tool(&none), "", "exactly one");
        let empty = json!({"tools": []});
        fails_at(bedrock::validate_tool_configuration(&empty), "/tools", "at least 1");
        let bad_ttl = json!({"tools": [{"cachePoint": {"type": "default", "ttl": "2h"}}]});
        fails_at(bedrock::validate_tool_configuration(&bad_ttl), "/tools/0/cachePoint/ttl", "enum");
        let request = json!({
            "messages": [{"role": "user", "content": [{"text": "hi"}]}],
            "toolConfig": {"tools": [{"toolSpec": dotted}]}
        });
        fails_at(
            bedrock::validate_converse_request(&request),
            "/toolConfig/tools/0/toolSpec/name",
            "pattern",
        );
    }
}

mod anthropic_specs {
    use super::*;

    #[test]
    fn tools_pass() {
        let tool = json!({
            "name": "get_weather",
            "description": "Current weather for a city",
            "input_schema": weather_parameters(),
            "cache_control": {"type": "ephemeral", "ttl": "1h"},
            "strict": true
        });
        assert_conforms("anthropic tool", anthropic::validate_tool(&tool));
        let bare = json!({"name": "ping", "input_schema": {"type": "object"}, "type": "custom"});
        assert_conforms("bare tool", anthropic::validate_tool(&bare));
        for choice in [
            json!({"type": "auto"}),
            json!({"type": "any", "disable_parallel_tool_use": true}),
            json!({"type": "tool", "name": "get_weather"}),
            json!({"type": "none"}),
        ] {
            assert_conforms("tool choice", anthropic::validate_tool_choice(&choice));
        }
    }

    #[test]
    fn faults_are_located() {
        let dotted = json!({"name": "weather.get", "input_schema": {"type": "object"}});
        fails_at(anthropic::validate_tool(&dotted), "/name", "^[a-zA-Z0-9_-]{1,128}$");
        let long = json!({"name": "x".repeat(129), "input_schema": {"type": "object"}});
        fails_at(anthropic::validate_tool(&long), "/name", "128");
        let no_schema = json!({"name": "ping"});
        fails_at(anthropic::validate_tool(&no_schema), "", "input_schema");
        let array_schema = json!({"name": "ping", "input_schema": {"type": "array"}});
        fails_at(anthropic::validate_tool(&array_schema), "/input_schema/type", "object");
        let openai_shape = json!({"name": "ping", "parameters": {"type": "object"}});
        fails_at(anthropic::validate_tool(&openai_shape), "/parameters", "unknown");
        let no_name = json!({"type": "tool"});
        fails_at(anthropic::validate_tool_choice(&no_name), "", "name");
    }
}

#[test]
fn violation_pointers_lists_every_fault() {
    let tool = json!({"name": "a.b", "description": "", "inputSchema": {}});
    let result = bedrock::validate_tool_specification(&tool);
    // The validator walks the `Value` in `Map` order, which depends on serde_json's features.
    let mut pointers = violation_pointers(&result);
    pointers.sort();
    assert_eq!(pointers, ["/description", "/inputSchema", "/name"]);
    assert!(violation_pointers(&Ok(())).is_empty());
}

#[test]
fn request_fragments_get_placeholders_for_missing_required_keys() {
    let tool = json!({"type": "function", "function": {"name": "get_weather", "parameters": weather_parameters()}});
    let fragment = json!({"tools": [tool], "tool_choice": "required"});
    assert_conforms("chat fragment", openai::validate_chat_completion_fragment(&fragment));
    let bad = json!({"tools": [tool], "tool_choice": "sometimes"});
    fails_at(openai::validate_chat_completion_fragment(&bad), "/tool_choice", "\"required\"");
    // Keys the fragment does carry are validated as given, never replaced.
    fails_at(openai::validate_chat_completion_fragment(&json!({"model": 4})), "/model", "string");

    let ollama_tool =
        json!({"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}});
    assert_conforms(
        "ollama fragment",
        ollama::validate_chat_fragment(&json!({"tools": [ollama_tool]})),
    );

    let declaration =
        json!({"name": "f", "description": "d", "parametersJsonSchema": weather_parameters()});
    let gemini_fragment = json!({
        "tools": [{"functionDeclarations": [declaration]}],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}}
    });
    assert_conforms(
        "gemini fragment",
        gemini::validate_generate_content_fragment(&gemini_fragment),
    );
    assert_conforms(
        "vertex fragment",
        vertex::validate_generate_content_fragment(&gemini_fragment),
    );
    let lowercase_mode = json!({"toolConfig": {"functionCallingConfig": {"mode": "auto"}}});
    fails_at(
        gemini::validate_generate_content_fragment(&lowercase_mode),
        "/toolConfig/functionCallingConfig/mode",
        "AUTO",
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// The same tool in each provider's shape, as a renderer would emit it.
    fn renderings(name: &str) -> Vec<(&'static str, SpecResult, &'static str)> {
        let params = weather_parameters();
        vec![
            (
                "openai chat",
                openai::validate_chat_completion_tool(
                    &json!({"type": "function", "function": {"name": name, "parameters": params}}),
                ),
                "/function/name",
            ),
            (
                "anthropic",
                anthropic::validate_tool(&json!({"name": name, "input_schema": params})),
                "/name",
            ),
            (
                "bedrock",
                bedrock::validate_tool(
                    &json!({"toolSpec": {"name": name, "inputSchema": {"json": params}}}),
                ),
                "/toolSpec/name",
            ),
            (
                "gemini",
                gemini::validate_function_declaration(
                    &json!({"name": name, "description": "d", "parametersJsonSchema": params}),
                ),
                "/name",
            ),
            (
                "mcp",
                mcp::validate_tool(
                    McpVersion::V2026_07_28,
                    &json!({"name": name, "inputSchema": params}),
                ),
                "/name",
            ),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Names in the portable alphabet pass every provider.
        #[test]
        fn portable_names_pass_everywhere(name in "[a-zA-Z0-9_-]{1,64}") {
            for (provider, result, _) in renderings(&name) {
                prop_assert!(result.is_ok(), "{provider}: {result:?}");
            }
        }

        /// A dot in the name breaks exactly the providers whose name pattern forbids it, at the name.
        #[test]
        fn dotted_names_fail_where_the_pattern_forbids(
            namespace in "[a-z][a-z0-9_]{0,20}",
            local in "[a-z][a-z0-9_]{0,20}",
        ) {
            let name = format!("{namespace}.{local}");
            for (provider, result, pointer) in renderings(&name) {
                let forbids = matches!(provider, "anthropic" | "bedrock");
                prop_assert_eq!(
                    result.is_err(),
                    forbids,
                    "{}: {:?}", provider, result
                );
                if forbids {
                    prop_assert_eq!(violation_pointers(&result), [pointer]);
                }
            }
        }
    }
}
