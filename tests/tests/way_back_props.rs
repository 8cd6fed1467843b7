//! The contract of the way back (issue 36), as a property, for every target of `tooldef render`
//! and the OpenAI-compatible profiles: over generated descriptors (every IR kind, optional,
//! nullable and default apart, enums of every scalar kind, nested objects, maps, unions,
//! recursion) and generated values,
//!
//! - a valid value `v`, sent as a model obeying the rendered schema sends it (read from the
//!   rendered JSON alone: `tooldef_testkit::way_back::obey`), mapped back by the provider crate,
//!   given back by the rendering and dispatched through a registry, is accepted, and the tool
//!   receives `v` with its defaults applied;
//! - a value that breaks one constraint, sent the same way, is refused, with an error at the
//!   pointer of the value the model sent.
//!
//! What a model cannot send for `v` (a key of an object the strict mode closed) is no case, and
//! neither is a broken value the model's form reads as a valid one (the documented exceptions:
//! `null` for an optional parameter under null-for-absent, an enum value's string). Each
//! target must exercise most of its cases both ways. Bounded: a fixed seed, 48 descriptors per
//! target and direction.

use std::sync::Arc;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use serde_json::{Map, Value, json};
use tooldef::dispatch::{DispatchErrorKind, DynamicTool, apply_defaults};
use tooldef::{
    Additional, CallError, Executor, LossPolicy, MappedSet, Origin, Renderer, SchemaKind, ToolCall,
    ToolDescriptor, ToolName, ToolRegistry, render_mapped,
};
use tooldef_testkit::strategy::arb_descriptor;
use tooldef_testkit::values::{Breach, arb_args_for, arb_broken_args, has_finite_value, schemas};
use tooldef_testkit::way_back::{fits_json_schema, obey, openapi_to_json_schema, spell};

/// Descriptors per target and direction.
const CASES: u32 = 48;

type Message = fn(&Value) -> Value;
type Calls = fn(&Value) -> Result<Vec<ToolCall>, CallError>;

/// One target: its renderer, where a tool's wire JSON holds the parameters, the model's
/// message calling the tool `t`, and the provider crate's call mapping.
struct Target {
    name: &'static str,
    renderer: Box<dyn Renderer>,
    parameters: &'static str,
    openapi: bool,
    message: Message,
    calls: Calls,
}

fn chat(args: &Value) -> Value {
    json!({"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
        "function": {"name": "t", "arguments": args.to_string()}}]})
}
fn responses(args: &Value) -> Value {
    json!({"output": [{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "t",
        "arguments": args.to_string()}]})
}
fn anthropic(args: &Value) -> Value {
    json!({"content": [{"type": "tool_use", "id": "toolu_1", "name": "t", "input": args}]})
}
fn gemini(args: &Value) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "t", "args": args}}]}}]})
}
fn ollama(args: &Value) -> Value {
    json!({"message": {"role": "assistant", "tool_calls": [
        {"function": {"name": "t", "arguments": args}}]}})
}
fn mcp(args: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "t", "arguments": args}})
}
fn bedrock(args: &Value) -> Value {
    json!({"output": {"message": {"role": "assistant", "content": [
        {"toolUse": {"toolUseId": "tooluse_1", "name": "t", "input": args}}]}}})
}
fn mcp_calls(request: &Value) -> Result<Vec<ToolCall>, CallError> {
    tooldef_mcp::tool_call(request).map(|c| vec![c])
}

fn target(name: &'static str) -> Target {
    use tooldef_openai::{OpenAiRenderer, Profile};
    let openai_chat = |r: OpenAiRenderer| Target {
        name,
        renderer: Box::new(r),
        parameters: "/function/parameters",
        openapi: false,
        message: chat,
        calls: tooldef_openai::chat_tool_calls,
    };
    let openai_responses = |r: OpenAiRenderer| Target {
        name,
        renderer: Box::new(r),
        parameters: "/parameters",
        openapi: false,
        message: responses,
        calls: tooldef_openai::responses_tool_calls,
    };
    let anthropic_target = |strict| Target {
        name,
        renderer: Box::new(tooldef_anthropic::AnthropicRenderer::new().strict(strict)),
        parameters: "/input_schema",
        openapi: false,
        message: anthropic,
        calls: tooldef_anthropic::tool_calls,
    };
    let bedrock_target = |r| Target {
        name,
        renderer: Box::new(r),
        parameters: "/toolSpec/inputSchema/json",
        openapi: false,
        message: bedrock,
        calls: tooldef_bedrock::tool_uses,
    };
    let gemini_target = |r, parameters, openapi| Target {
        name,
        renderer: Box::new(r),
        parameters,
        openapi,
        message: gemini,
        calls: tooldef_gemini::function_calls,
    };
    match name {
        "openai-chat" => openai_chat(OpenAiRenderer::chat()),
        "openai-chat --strict" => openai_chat(OpenAiRenderer::chat().strict(true)),
        "openai-responses" => openai_responses(OpenAiRenderer::responses()),
        "openai-responses --strict" => openai_responses(OpenAiRenderer::responses().strict(true)),
        "mistral --strict" => {
            openai_chat(OpenAiRenderer::chat().profile(Profile::Mistral).strict(true))
        }
        "deepseek --strict" => {
            openai_chat(OpenAiRenderer::chat().profile(Profile::DeepSeek).strict(true))
        }
        "groq --strict" => openai_chat(OpenAiRenderer::chat().profile(Profile::Groq).strict(true)),
        "xai-responses --strict" => {
            openai_responses(OpenAiRenderer::responses().profile(Profile::XAi).strict(true))
        }
        "cohere --strict" => {
            openai_chat(OpenAiRenderer::chat().profile(Profile::Cohere).strict(true))
        }
        "anthropic" => anthropic_target(false),
        "anthropic --strict" => anthropic_target(true),
        "gemini" => {
            gemini_target(tooldef_gemini::GeminiRenderer::new(), "/parametersJsonSchema", false)
        }
        "gemini-openapi" => {
            gemini_target(tooldef_gemini::GeminiRenderer::openapi(), "/parameters", true)
        }
        "ollama" => Target {
            name,
            renderer: Box::new(tooldef_ollama::OllamaRenderer::new()),
            parameters: "/function/parameters",
            openapi: false,
            message: ollama,
            calls: tooldef_ollama::tool_calls,
        },
        "mcp" => Target {
            name,
            renderer: Box::new(tooldef_mcp::McpRenderer::new()),
            parameters: "/inputSchema",
            openapi: false,
            message: mcp,
            calls: mcp_calls,
        },
        "bedrock" => bedrock_target(tooldef_bedrock::BedrockRenderer::new()),
        "bedrock --strict" => bedrock_target(tooldef_bedrock::BedrockRenderer::strict()),
        other => panic!("unknown target {other}"),
    }
}

/// Descriptors values can be generated for, named `t` (the tool's name is not what this tests).
/// For a target that closes every object, objects that do not state `additionalProperties`
/// are closed first (as the target reads them): the keys the generator would add to them could
/// not be sent.
fn descriptors(closes: bool, needs_required: bool) -> impl Strategy<Value = ToolDescriptor> {
    arb_descriptor()
        .prop_filter("has a finite value", has_finite_value)
        .prop_filter("values can be generated", |d| {
            !schemas(d).into_iter().any(|s| {
                matches!(&s.kind, SchemaKind::List(l) if l.unique && l.min_items.unwrap_or(0) > 1)
            })
        })
        .prop_map(move |mut d| {
            d.name = ToolName::parse("t").expect("a valid name");
            if closes {
                close_unstated(&mut d);
            }
            // Cohere's `strict_tools` refuses a tool without a required parameter.
            if needs_required && !d.params.iter().any(|p| p.required) {
                d.params.to_mut().push(tooldef::Param::string("required_one"));
            }
            d
        })
}

fn close_unstated(d: &mut ToolDescriptor) {
    fn schema(s: &mut tooldef::Schema) {
        match &mut s.kind {
            SchemaKind::Object(o) => {
                if o.additional == Additional::Unstated {
                    o.additional = Additional::Closed;
                }
                o.properties.to_mut().iter_mut().for_each(|p| schema(&mut p.schema));
                if let Additional::Typed(values) = &mut o.additional {
                    schema(values.make_mut());
                }
            }
            SchemaKind::List(l) => schema(l.items.make_mut()),
            SchemaKind::AnyOf(a) => a.variants.to_mut().iter_mut().for_each(schema),
            _ => {}
        }
    }
    if d.additional == Additional::Unstated {
        d.additional = Additional::Closed;
    }
    d.params.to_mut().iter_mut().for_each(|p| schema(&mut p.schema));
    d.definitions.to_mut().iter_mut().for_each(|def| schema(&mut def.schema));
}

/// The rendering of `d`, under names the target accepts ([`render_mapped`]), and its parameter
/// schema as JSON Schema; `None` when the target refuses the tool (a recursion it does not
/// take, a tool Cohere's `strict_tools` refuses).
fn render(t: &Target, d: &ToolDescriptor) -> Option<(MappedSet, Value)> {
    let set = render_mapped(&*t.renderer, &[d], LossPolicy::Allow).ok()?;
    let wire = set.rendered()[0].to_value();
    let params = wire.pointer(t.parameters).cloned().unwrap_or_else(|| json!({"type": "object"}));
    let params = if t.openapi { openapi_to_json_schema(&params) } else { params };
    Some((set, params))
}

/// Sends `args` as a model that obeys `params` does (a broken value: [`spell`]), under the
/// names it was sent: the value sent, whether it fits `params`, and the call as the provider crate maps it back and the
/// rendering gives it back. `None` when the provider's message cannot carry the value
/// (arguments that are not an object, where the wire format holds an object).
fn send(
    t: &Target,
    set: &MappedSet,
    params: &Value,
    args: &Value,
    valid: bool,
) -> Option<(Value, bool, ToolCall)> {
    let wire = match set.names().call_to_wire(ToolCall::new("1", "t", args.clone())).arguments {
        tooldef::Arguments::Json(v) => v,
        tooldef::Arguments::Text(_) => unreachable!("given as JSON"),
    };
    let fits = |schema: &Value, value: &Value| fits_json_schema(params, schema, value);
    let sent = if valid { obey(params, &wire, &fits) } else { spell(params, &wire, &fits) };
    let fit = fits_json_schema(params, params, &sent);
    let mut calls = (t.calls)(&(t.message)(&sent)).ok()?;
    assert_eq!(calls.len(), 1);
    Some((sent, fit, set.restore(calls.remove(0))))
}

fn registry(d: &ToolDescriptor) -> Arc<tooldef::Snapshot> {
    let registry = ToolRegistry::new();
    let echo: Arc<dyn Executor> = Arc::new(DynamicTool::new_sync(d.clone(), Ok));
    registry.register(echo, Origin::Core).expect("a valid descriptor");
    registry.snapshot()
}

/// Whether `received` means `expected`: equal, except that a key `given` left out may arrive
/// as `null` (the documented exception of null-for-absent: a parameter that takes `null`
/// cannot be left out, so its `null` keeps its meaning and no default applies).
fn same_meaning(received: &Value, expected: &Value, given: Option<&Value>) -> bool {
    match (received, expected) {
        (Value::Object(r), Value::Object(e)) => {
            let given = given.and_then(Value::as_object);
            let keys: std::collections::BTreeSet<&String> = r.keys().chain(e.keys()).collect();
            keys.into_iter().all(|k| {
                let g = given.and_then(|g| g.get(k));
                match (r.get(k), e.get(k)) {
                    (Some(rv), Some(ev)) => {
                        same_meaning(rv, ev, g) || (rv.is_null() && g.is_none())
                    }
                    (Some(Value::Null), None) => g.is_none(),
                    _ => false,
                }
            })
        }
        (Value::Array(r), Value::Array(e)) => {
            let given = given.and_then(Value::as_array);
            r.len() == e.len()
                && r.iter()
                    .zip(e)
                    .enumerate()
                    .all(|(i, (rv, ev))| same_meaning(rv, ev, given.and_then(|g| g.get(i))))
        }
        (r, e) => r == e,
    }
}

/// Whether the target closes every object (a strict mode).
fn closes(t: &Target) -> bool {
    t.name.contains("--strict")
}

/// Counts of one target's run.
#[derive(Debug, Default)]
struct Tally {
    exercised: u32,
    refused_render: u32,
    not_expressible: u32,
}

fn valid_direction(t: &Target) -> Tally {
    let mut tally = Tally::default();
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x7001_36b0),
        ..Config::default()
    });
    let strategy = descriptors(closes(t), t.name.starts_with("cohere")).prop_flat_map(|d| {
        let args = arb_args_for(&d);
        (Just(d), args)
    });
    let tally_cell = std::cell::RefCell::new(&mut tally);
    let result = runner.run(&strategy, |(d, args)| {
        let Some((set, params)) = render(t, &d) else {
            tally_cell.borrow_mut().refused_render += 1;
            return Ok(());
        };
        let rendered = &set.rendered()[0];
        let (sent, fit, call) = send(t, &set, &params, &args, true).expect("an object is carried");
        if !fit {
            // What the lowered schema cannot hold was reported when the tool was rendered.
            let reported = rendered.report().lossy().count() > 0;
            prop_assert!(
                reported,
                "{}: {sent} does not fit {params:#} and no change says why",
                t.name
            );
            tally_cell.borrow_mut().not_expressible += 1;
            return Ok(());
        }
        let result = registry(&d).call_blocking(&call);
        prop_assert!(
            !result.is_error,
            "{}: the model sent {sent} for {args}; dispatch answered: {}\n{:?}",
            t.name,
            result.text(),
            call.arguments
        );
        let mut expected = args.clone();
        apply_defaults(&d, &mut expected);
        let received = result.structured.clone().unwrap_or(Value::Null);
        prop_assert!(
            same_meaning(&received, &expected, Some(&args)),
            "{}: the model sent {sent} for {args}; the tool received {received}, not {expected}",
            t.name
        );
        tally_cell.borrow_mut().exercised += 1;
        Ok(())
    });
    if let Err(e) = result {
        panic!("{}: {e}", t.name);
    }
    tally
}

fn invalid_direction(t: &Target) -> Tally {
    let mut tally = Tally::default();
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x7001_36b1),
        ..Config::default()
    });
    let strategy = descriptors(closes(t), t.name.starts_with("cohere")).prop_flat_map(|d| {
        let broken = arb_broken_args(&d);
        (Just(d), broken)
    });
    let tally_cell = std::cell::RefCell::new(&mut tally);
    let result = runner.run(&strategy, |(d, (broken, breach))| {
        let Some((set, params)) = render(t, &d) else {
            tally_cell.borrow_mut().refused_render += 1;
            return Ok(());
        };
        let Some((sent, _, call)) = send(t, &set, &params, &broken, false) else {
            tally_cell.borrow_mut().not_expressible += 1;
            return Ok(());
        };
        if aliased(&call, &broken, &breach) {
            // The model's form reads the broken value as a valid one (or cannot say it).
            tally_cell.borrow_mut().not_expressible += 1;
            return Ok(());
        }
        let snapshot = registry(&d);
        match snapshot.check(&call).map_err(tooldef::DispatchError::into_kind) {
            Err(DispatchErrorKind::InvalidArguments { errors }) => {
                prop_assert!(
                    errors.0.iter().any(|e| e.pointer == breach.pointer),
                    "{}: breaking {} at {} (the model sent {sent}) gave {errors:?}",
                    t.name,
                    breach.constraint,
                    breach.pointer
                );
            }
            other => prop_assert!(
                false,
                "{}: breaking {} at {} (the model sent {sent}) gave {other:?}",
                t.name,
                breach.constraint,
                breach.pointer
            ),
        }
        // The model reads the error at the pointer of what it sent, under its names.
        let result = set.names().to_wire(snapshot.call_blocking(&call));
        let seen = set.names().pointer_to_wire("t", &breach.pointer);
        let text = result.text();
        // One error: `invalid arguments for t: /x ...`; several: a line `- /x ...` each.
        let errors = text.strip_prefix("invalid arguments for t:").unwrap_or(&text);
        let at_seen = |e: &str| {
            let e = e.trim_start_matches([' ', '-']);
            seen.is_empty() || e.starts_with(&format!("{seen} "))
        };
        prop_assert!(
            result.is_error && errors.split('\n').any(at_seen),
            "{}: breaking {} at {} (sent as {seen}, the model sent {sent}) answered {text}",
            t.name,
            breach.constraint,
            breach.pointer
        );
        tally_cell.borrow_mut().exercised += 1;
        Ok(())
    });
    if let Err(e) = result {
        panic!("{}: {e}", t.name);
    }
    tally
}

/// Whether the call, as given back, no longer holds the broken value at the breach: the
/// model's form sent it as something else (a `null` read as absent, a number as an enum's
/// string, a left-out required key as `null`).
fn aliased(call: &ToolCall, broken: &Value, breach: &Breach) -> bool {
    let restored = match &call.arguments {
        tooldef::Arguments::Json(v) => v.clone(),
        tooldef::Arguments::Text(t) => serde_json::from_str(t).unwrap_or(Value::Null),
    };
    restored.pointer(breach.pointer.as_str()) != broken.pointer(breach.pointer.as_str())
        || (breach.pointer.is_empty() && restored != *broken)
        || matches!((&restored, broken), (Value::Object(r), Value::Object(b)) if r.len() != b.len() && extra_null(r, b))
}

/// Whether `restored` has a key `broken` lacks, holding `null` (a left-out key sent as null).
fn extra_null(restored: &Map<String, Value>, broken: &Map<String, Value>) -> bool {
    restored.iter().any(|(k, v)| v.is_null() && !broken.contains_key(k))
}

// The counts are this test's report of what it exercised, read in CI's log.
#[allow(clippy::print_stderr)]
fn check(name: &'static str) {
    let t = target(name);
    let valid = valid_direction(&t);
    let invalid = invalid_direction(&t);
    eprintln!("{name}: valid {valid:?}; invalid {invalid:?}");
    // Most cases reach dispatch both ways: the property says something about every target.
    assert!(
        valid.exercised * 2 >= CASES && invalid.exercised * 2 >= CASES,
        "{name}: too few cases exercised: valid {valid:?}, invalid {invalid:?}"
    );
}

macro_rules! targets {
    ($($test:ident => $name:literal,)*) => {
        $(
            #[test]
            fn $test() {
                check($name);
            }
        )*
    };
}

targets! {
    openai_chat => "openai-chat",
    openai_chat_strict => "openai-chat --strict",
    openai_responses => "openai-responses",
    openai_responses_strict => "openai-responses --strict",
    anthropic_plain => "anthropic",
    anthropic_strict => "anthropic --strict",
    gemini_json_schema => "gemini",
    gemini_openapi => "gemini-openapi",
    ollama_native => "ollama",
    mcp_tools => "mcp",
    bedrock_plain => "bedrock",
    bedrock_strict => "bedrock --strict",
    mistral_strict => "mistral --strict",
    deepseek_strict => "deepseek --strict",
    groq_strict => "groq --strict",
    xai_responses_strict => "xai-responses --strict",
    cohere_strict => "cohere --strict",
}
