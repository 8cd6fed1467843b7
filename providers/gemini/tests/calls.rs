//! Gemini call/result half: `functionCall` parts in, `functionResponse` parts out, validated
//! against the v1beta protobuf descriptor.

use serde_json::json;
use tooldef::{Arguments, Content, ToolCall, ToolResult};
use tooldef_gemini::{function_calls, function_response, function_response_content};
use tooldef_testkit::specs::{assert_conforms, gemini};

#[test]
fn calls_are_read_from_a_response_in_order() {
    let response = json!({"candidates": [{"content": {"role": "model", "parts": [
        {"text": "Let me check."},
        {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
        {"functionCall": {"id": "c-2", "name": "ping"}},
    ]}}]});
    let calls = function_calls(&response).unwrap();
    assert_eq!(
        calls,
        [
            ToolCall::new("", "get_weather", json!({"city": "Paris"})),
            ToolCall::new("c-2", "ping", json!({})),
        ]
    );
    // The same from a Content and from a parts array.
    assert_eq!(function_calls(&response["candidates"][0]["content"]).unwrap(), calls);
    assert_eq!(function_calls(&response["candidates"][0]["content"]["parts"]).unwrap(), calls);
    assert!(
        function_calls(&json!({"role": "model", "parts": [{"text": "hi"}]})).unwrap().is_empty()
    );
}

#[test]
fn malformed_calls_name_the_place() {
    let e = function_calls(&json!({"parts": [{"functionCall": {"args": {}}}]})).unwrap_err();
    assert_eq!(e.pointer, "/parts/0/functionCall/name");
    let e = function_calls(&json!([{"functionCall": {"name": "x", "args": [1]}}])).unwrap_err();
    assert_eq!(e.pointer, "/0/functionCall/args");
    assert!(function_calls(&json!("text")).is_err());
}

#[test]
fn results_become_function_response_parts() {
    let call = ToolCall::new("", "get_weather", json!({"city": "Paris"}));
    let ok = ToolResult::success(&call, json!({"temp": 21}));
    let part = function_response(&ok).into_message();
    assert_eq!(
        part,
        json!({"functionResponse": {"name": "get_weather", "response": {"output": {"temp": 21}}}})
    );
    assert_conforms(
        "success",
        gemini::validate_message(&format!("{}.Part", gemini::V1BETA), &part),
    );

    let with_id =
        ToolCall { id: "c-2".into(), name: "ping".into(), arguments: Arguments::default() };
    let failed = ToolResult::error(&with_id, "`city` is required");
    let part = function_response(&failed).into_message();
    assert_eq!(
        part,
        json!({"functionResponse": {"id": "c-2", "name": "ping", "response": {"error": "`city` is required"}}})
    );

    let mut image = ToolResult::success(&call, json!("done"));
    image.content.push(Content::Image { data: "aGk=".into(), mime_type: "image/png".into() });
    let part = function_response(&image).into_message();
    assert_eq!(part["functionResponse"]["parts"][0]["inlineData"]["mimeType"], "image/png");

    let content = function_response_content([&ok, &failed, &image]).into_message();
    assert_eq!(content["role"], "user");
    assert_conforms(
        "content",
        gemini::validate_message(&format!("{}.Content", gemini::V1BETA), &content),
    );
}

#[test]
fn content_of_every_kind_is_carried_changed_or_reported() {
    let result = tooldef_testkit::content::every_kind();
    let part = function_response(&result);
    let text = |s: &str| {
        use std::fmt::Write;
        // The parts' text, base64 as proto3 JSON writes bytes, spelled out by a second
        // encoder so the test does not trust the one under test.
        let table = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let bits: String = s.bytes().fold(String::new(), |mut acc, b| {
            write!(acc, "{b:08b}").unwrap();
            acc
        });
        let mut out: String = bits
            .as_bytes()
            .chunks(6)
            .map(|c| {
                let mut v = 0usize;
                for (k, bit) in c.iter().enumerate() {
                    v |= usize::from(*bit == b'1') << (5 - k);
                }
                char::from(table[v])
            })
            .collect();
        while !out.len().is_multiple_of(4) {
            out.push('=');
        }
        json!({"inlineData": {"mimeType": "text/plain", "data": out}})
    };
    assert_eq!(
        part.message,
        json!({"functionResponse": {
            "id": "call_7",
            "name": "fetch_report",
            "response": {"output": "Report ready."},
            "parts": [
                {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}},
                text("[audio of type audio/wav not sent: Gemini function responses take images, PDF and plain text, not audio]"),
                text("resource file:///reports/summary.md (text/markdown):\n# Summary\nAll good."),
                {"inlineData": {"mimeType": "application/pdf", "data": "JVBERi0xLjcK"}},
                text("resource link: raw.csv <file:///reports/raw.csv> (text/csv, 52000 bytes)"),
            ]
        }})
    );
    assert_conforms(
        "every kind",
        gemini::validate_message(&format!("{}.Part", gemini::V1BETA), &part.message),
    );
    let notes: Vec<String> = part.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        [
            "fetch_report (call call_7): content 2 (audio) not carried: Gemini function responses take images, PDF and plain text, not audio",
            "fetch_report (call call_7): content 3 (text resource) carried with a change: sent as a text/plain part",
            "fetch_report (call call_7): content 4 (binary resource) carried with a change: sent as an inline data part, without its URI",
            "fetch_report (call call_7): content 5 (resource link) carried with a change: written as a text/plain part",
        ]
    );
}
