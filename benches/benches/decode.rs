//! Decoding and validating one typical call to each of the 100 tools: tooldef's `TypedTool`
//! (serde straight into the arguments, then the constraint checks) against bare
//! `serde_json::from_str` into the same struct, and against `serde_json::Value` + `jsonschema`
//! validation against the `schema_for!` schema + `serde_json::from_value`.
//!
//! `tooldef_typed_tool` decodes into serde-derived structs (the const-DSL form);
//! `tooldef_macro_typed_tool` decodes into the `#[tool]` arguments, whose `Deserialize` the
//! macro generates, and `tooldef_macro_from_str` is that `Deserialize` alone. All are compared
//! with `serde_from_str`, the serde derive on the same fields. `tooldef_strict_restore_typed_tool`
//! is the OpenAI strict way: the same calls with `null` for every optional parameter left out,
//! given back by the strict rendering (`Rendered::restore`) and decoded by `TypedTool`.
//!
//! `cargo bench -p tooldef-benches --features bench --bench decode -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;
use tooldef::dispatch::TypedTool;
use tooldef::{Arguments, LossPolicy, Rendered, Renderer, Tool, ToolCall, ToolDescriptor};
use tooldef_benches::corpus::{Corpus, SEED};
use tooldef_benches::generated::tooldef_const::visit_tools;
use tooldef_benches::generated::tooldef_macro;
use tooldef_benches::schemars_corpus::schemars_tools;
use tooldef_benches::{ToolValueVisitor, ToolVisitor};
use tooldef_openai::OpenAiRenderer;

type Check = Box<dyn Fn(&Arguments) -> bool>;
type CheckCall = Box<dyn Fn(ToolCall) -> bool>;

/// Per tool: `TypedTool::decode` and bare `from_str` into `T::Args`, and the tool rendered for
/// OpenAI strict with `TypedTool::decode` of a call given back by that rendering.
struct Typed(Vec<(Check, Check)>, Vec<(Rendered, CheckCall)>);

impl ToolVisitor for Typed {
    fn visit<T: Tool + Default>(&mut self, _index: usize) {
        let typed = TypedTool::new(T::default());
        self.0.push((
            Box::new(move |a| typed.decode(a).is_ok()),
            Box::new(|a| match a {
                Arguments::Text(s) => serde_json::from_str::<T::Args>(s).is_ok(),
                Arguments::Json(_) => false,
            }),
        ));
        let strict = OpenAiRenderer::chat()
            .strict(true)
            .render(T::descriptor(), LossPolicy::Refuse)
            .expect("the corpus renders strict");
        let typed = TypedTool::new(T::default());
        let way_back = strict.clone();
        self.1.push((
            strict,
            Box::new(move |call| typed.decode(&way_back.restore(call).arguments).is_ok()),
        ));
    }
}

/// `args` as a model obeying OpenAI strict sends them: every optional parameter left out sent
/// as `null`.
fn strict_args(descriptor: &ToolDescriptor, args: &str) -> String {
    let mut value: Value = serde_json::from_str(args).expect("json");
    if let Value::Object(map) = &mut value {
        for p in descriptor.params.iter().filter(|p| !p.required) {
            map.entry(p.name().to_owned()).or_insert(Value::Null);
        }
    }
    value.to_string()
}

/// Per `#[tool]`: `TypedTool::decode` and bare `from_str` into its generated arguments.
struct MacroTyped(Vec<(Check, Check)>);

impl ToolValueVisitor for MacroTyped {
    fn visit<T: Tool>(&mut self, tool: T, _index: usize) {
        let typed = TypedTool::new(tool);
        self.0.push((
            Box::new(move |a| typed.decode(a).is_ok()),
            Box::new(|a| match a {
                Arguments::Text(s) => serde_json::from_str::<T::Args>(s).is_ok(),
                Arguments::Json(_) => false,
            }),
        ));
    }
}

/// How many samples `check` accepts (each sample with its tool's index).
fn accepted(samples: &[Arguments], check: impl Fn(usize, &Arguments) -> bool) -> usize {
    samples.iter().enumerate().filter(|(i, a)| check(*i, black_box(a))).count()
}

fn decode(c: &mut Criterion) {
    let corpus = Corpus::standard();
    let samples: Vec<Arguments> = corpus
        .tools
        .iter()
        .enumerate()
        .map(|(i, t)| Arguments::Text(t.sample_args(SEED + i as u64)))
        .collect();
    let mut typed = Typed(Vec::new(), Vec::new());
    visit_tools(&mut typed);
    // The same calls as OpenAI strict has the model send them (`null` for each optional
    // parameter left out), and the strict rendering that gives them back.
    let strict_calls: Vec<ToolCall> = typed
        .1
        .iter()
        .zip(&samples)
        .map(|((rendered, _), a)| {
            let Arguments::Text(text) = a else { unreachable!("samples are text") };
            let d = tooldef_benches::generated::tooldef_const::DESCRIPTORS
                .iter()
                .find(|d| d.name.as_str() == rendered.name())
                .expect("the corpus has the tool");
            ToolCall::from_text("call", rendered.name(), strict_args(d, text))
        })
        .collect();
    let mut macro_typed = MacroTyped(Vec::new());
    tooldef_macro::visit_tools(&mut macro_typed);
    let schemars = schemars_tools();
    let validators: Vec<jsonschema::Validator> = schemars
        .iter()
        .map(|t| {
            let schema = serde_json::to_value((t.schema)()).expect("schema serializes");
            jsonschema::validator_for(&schema).expect("schemars output is a valid schema")
        })
        .collect();
    let text = |a: &Arguments| match a {
        Arguments::Text(s) => s.clone(),
        Arguments::Json(v) => v.to_string(),
    };

    // Every path must accept every sample, or the comparison measures error handling.
    let mut nulls = 0;
    for (i, call) in strict_calls.iter().enumerate() {
        let Arguments::Text(text) = &call.arguments else { unreachable!("text") };
        nulls += text.matches("null").count();
        assert!((typed.1[i].1)(call.clone()), "strict restore rejects {}: {text}", call.name);
    }
    assert!(nulls > 50, "the strict calls leave parameters out: {nulls} nulls");
    for (i, a) in samples.iter().enumerate() {
        assert!((typed.0[i].0)(a), "TypedTool rejects {}: {}", corpus.tools[i].name, text(a));
        assert!((typed.0[i].1)(a), "from_str rejects {}", corpus.tools[i].name);
        assert!((macro_typed.0[i].0)(a), "#[tool] rejects {}: {}", corpus.tools[i].name, text(a));
        assert!((macro_typed.0[i].1)(a), "#[tool] from_str rejects {}", corpus.tools[i].name);
        let v: Value = serde_json::from_str(&text(a)).expect("json");
        assert!(validators[i].is_valid(&v), "jsonschema rejects {}: {v}", corpus.tools[i].name);
        assert!((schemars[i].from_value)(v), "from_value rejects {}", corpus.tools[i].name);
    }

    let mut group = c.benchmark_group("decode_100_calls");
    group.bench_function("tooldef_typed_tool", |b| {
        b.iter(|| accepted(&samples, |i, a| (typed.0[i].0)(a)))
    });
    // OpenAI strict: the call given back by its rendering (`Rendered::restore`: the nulls that
    // stand for a parameter left out removed), then decoded as above. The calls are cloned as
    // a provider crate's mapping would make them.
    group.bench_function("tooldef_strict_restore_typed_tool", |b| {
        b.iter(|| {
            strict_calls
                .iter()
                .enumerate()
                .filter(|(i, call)| (typed.1[*i].1)(black_box(*call).clone()))
                .count()
        })
    });
    group.bench_function("tooldef_macro_typed_tool", |b| {
        b.iter(|| accepted(&samples, |i, a| (macro_typed.0[i].0)(a)))
    });
    group.bench_function("tooldef_macro_from_str", |b| {
        b.iter(|| accepted(&samples, |i, a| (macro_typed.0[i].1)(a)))
    });
    group.bench_function("serde_from_str", |b| {
        b.iter(|| accepted(&samples, |i, a| (typed.0[i].1)(a)))
    });
    group.bench_function("value_jsonschema_from_value", |b| {
        b.iter(|| {
            let mut ok = 0;
            for (i, a) in samples.iter().enumerate() {
                let Arguments::Text(s) = black_box(a) else { continue };
                let v: Value = match serde_json::from_str(s) {
                    Ok(v) => v,
                    Err(_) => continue,
                };
                if validators[i].is_valid(&v) && (schemars[i].from_value)(v) {
                    ok += 1;
                }
            }
            ok
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = tooldef_benches::criterion_config();
    targets = decode
}
criterion_main!(benches);
