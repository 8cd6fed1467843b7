//! Streamed tool calls: assembling a 100-call stream of 20-byte argument deltas.
//!
//! `tooldef_assembler`: `CallAssembler::with_tools` (every piece scanned once, every completed
//! value parsed and checked against the tool's schema as it arrives: the early validation),
//! finishing each call into a `ToolCall`. `tooldef_openai_chat_stream`: the same through
//! `ChatStream` over the provider's chunk objects (already parsed). The alternative, what a
//! host does without tooldef: `concat_then_from_str` appends each call's deltas to a `String`
//! and parses it once with `serde_json::from_str::<Value>` at the end (no validation), and
//! `concat_chunks_then_from_str` does the same reading the deltas out of the chunk objects.
//!
//! `cargo bench -p tooldef-benches --features bench --bench stream -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use tooldef::stream::{CallAssembler, StreamEvent};
use tooldef::{Param, Schema, SchemaKind, ToolDescriptor};
use tooldef_openai::ChatStream;

const CALLS: usize = 100;
const DELTA: usize = 20;

fn hour() -> Schema {
    let mut hour = Schema::integer();
    if let SchemaKind::Integer(n) = &mut hour.kind {
        n.minimum = Some(0);
        n.maximum = Some(23);
    }
    hour
}

fn tools() -> Vec<ToolDescriptor> {
    vec![
        ToolDescriptor::builder("get_forecast")
            .param(Param::string("city"))
            .param(Param::enumeration("unit", &["celsius", "fahrenheit"]))
            .param(Param::integer("days").range(1, 14))
            .param(Param::named("hours", Schema::list_of(hour())))
            .param(Param::boolean("include_wind").optional())
            .param(Param::string("note").optional())
            .build()
            .unwrap(),
    ]
}

/// One valid argument text per call (about 140 bytes each, all different).
fn arguments() -> Vec<String> {
    (0..CALLS)
        .map(|i| {
            json!({
                "city": format!("City number {i} on the river"),
                "unit": if i % 2 == 0 { "celsius" } else { "fahrenheit" },
                "days": 1 + i % 14,
                "hours": [i % 24, (i + 6) % 24, (i + 12) % 24],
                "include_wind": i % 3 == 0,
                "note": "morning and evening, please",
            })
            .to_string()
        })
        .collect()
}

/// Each call's text cut into 20-byte deltas (the texts are ASCII).
fn deltas(args: &[String]) -> Vec<Vec<&str>> {
    args.iter()
        .map(|a| a.as_bytes().chunks(DELTA).map(|c| std::str::from_utf8(c).unwrap()).collect())
        .collect()
}

/// The Chat Completions chunks of the same stream: a start chunk per call, then one per delta,
/// then the finish chunk.
fn chunks(deltas: &[Vec<&str>]) -> Vec<Value> {
    let mut out = Vec::new();
    for (i, pieces) in deltas.iter().enumerate() {
        out.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": i, "id": format!("call_{i}"),
            "type": "function", "function": {"name": "get_forecast", "arguments": ""}}]}}]}));
        for p in pieces {
            out.push(json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": i,
                "function": {"arguments": p}}]}}]}));
        }
    }
    out.push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}));
    out
}

fn stream(c: &mut Criterion) {
    let tools = tools();
    let args = arguments();
    let deltas = deltas(&args);
    let chunks = chunks(&deltas);
    let mut group = c.benchmark_group("stream_100_calls_20_byte_deltas");
    group.sample_size(30);

    group.bench_function("concat_then_from_str", |b| {
        b.iter(|| {
            let mut parsed = 0;
            for pieces in &deltas {
                let mut text = String::new();
                for p in pieces {
                    text.push_str(black_box(p));
                }
                parsed += usize::from(serde_json::from_str::<Value>(&text).is_ok());
            }
            assert_eq!(parsed, CALLS);
        });
    });
    group.bench_function("tooldef_assembler", |b| {
        b.iter(|| {
            let mut calls = CallAssembler::with_tools(&tools);
            let mut events = Vec::new();
            let mut finished = 0;
            for (i, pieces) in deltas.iter().enumerate() {
                let index = i as u64;
                calls.start(index, "call", "get_forecast", &mut events).unwrap();
                for p in pieces {
                    calls.append(index, black_box(p), &mut events).unwrap();
                }
                finished += usize::from(calls.finish(index).is_ok());
            }
            assert_eq!((finished, events.len()), (CALLS, 0));
        });
    });
    group.bench_function("concat_chunks_then_from_str", |b| {
        b.iter(|| {
            let mut texts: Vec<String> = Vec::new();
            for chunk in black_box(&chunks) {
                for piece in
                    chunk["choices"][0]["delta"]["tool_calls"].as_array().into_iter().flatten()
                {
                    let i = piece["index"].as_u64().unwrap() as usize;
                    if texts.len() <= i {
                        texts.resize(i + 1, String::new());
                    }
                    if let Some(a) = piece["function"]["arguments"].as_str() {
                        texts[i].push_str(a);
                    }
                }
            }
            let parsed = texts.iter().filter(|t| serde_json::from_str::<Value>(t).is_ok()).count();
            assert_eq!(parsed, CALLS);
        });
    });
    group.bench_function("tooldef_openai_chat_stream", |b| {
        b.iter(|| {
            let mut stream = ChatStream::with_tools(&tools);
            let mut finished = 0;
            for chunk in black_box(&chunks) {
                for event in stream.push(chunk).unwrap() {
                    finished += usize::from(matches!(event, StreamEvent::Call(_)));
                }
            }
            assert_eq!(finished, CALLS);
        });
    });
    group.finish();
}

criterion_group!(benches, stream);
criterion_main!(benches);
