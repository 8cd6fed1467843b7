//! Decodes one typical call to each of the 100 tools a given number of times: a fixed amount
//! of work to count instructions on (`valgrind --tool=callgrind`), as `render_count` does for
//! rendering, so that the decode bench's figures can be checked free of the machine's noise.
//!
//! `cargo build --release -p tooldef-benches --bin decode_count`, then
//! `valgrind --tool=callgrind target/release/decode_count [N] [MODE]` (default `100 plain`):
//! `plain` is `TypedTool::decode` of the sample calls (`decode_100_calls/tooldef_typed_tool`);
//! `strict` gives the same calls, with `null` for every optional parameter left out, back
//! through their OpenAI strict rendering first (`tooldef_strict_restore_typed_tool`). Run with
//! `N` and with 0 and subtract: the difference divided by `N` is instructions per 100 calls.

// A measuring binary: printing its result is its job.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::hint::black_box;

use serde_json::Value;
use tooldef::dispatch::TypedTool;
use tooldef::{LossPolicy, Rendered, Renderer, Tool, ToolCall};
use tooldef_benches::ToolVisitor;
use tooldef_benches::corpus::{Corpus, SEED};
use tooldef_benches::generated::tooldef_const::visit_tools;
use tooldef_openai::OpenAiRenderer;

type Decode = Box<dyn Fn(ToolCall) -> bool>;

/// Per tool: its strict rendering, and `TypedTool::decode` of a call's arguments.
struct Tools(Vec<(Rendered, Decode)>);

impl ToolVisitor for Tools {
    fn visit<T: Tool + Default>(&mut self, _index: usize) {
        let strict = OpenAiRenderer::chat()
            .strict(true)
            .render(T::descriptor(), LossPolicy::Refuse)
            .expect("the corpus renders strict");
        let typed = TypedTool::new(T::default());
        self.0.push((strict, Box::new(move |call| typed.decode(&call.arguments).is_ok())));
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let times: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100);
    let mode = args.next().unwrap_or_else(|| "plain".to_owned());
    let strict = match mode.as_str() {
        "plain" => false,
        "strict" => true,
        other => {
            eprintln!("unknown mode {other:?}: plain or strict");
            std::process::exit(2);
        }
    };
    let mut tools = Tools(Vec::new());
    visit_tools(&mut tools);
    let corpus = Corpus::standard();
    let calls: Vec<ToolCall> = corpus
        .tools
        .iter()
        .zip(&tools.0)
        .enumerate()
        .map(|(i, (t, (rendered, _)))| {
            let text = t.sample_args(SEED + i as u64);
            let text = if strict {
                let d = tooldef_benches::generated::tooldef_const::DESCRIPTORS[i];
                let mut value: Value = serde_json::from_str(&text).expect("json");
                if let Value::Object(map) = &mut value {
                    for p in d.params.iter().filter(|p| !p.required) {
                        map.entry(p.name().to_owned()).or_insert(Value::Null);
                    }
                }
                value.to_string()
            } else {
                text
            };
            ToolCall::from_text("call", rendered.name(), text)
        })
        .collect();
    let mut ok = 0;
    for _ in 0..times {
        ok = 0;
        for ((rendered, decode), call) in tools.0.iter().zip(&calls) {
            let call = black_box(call).clone();
            let call = if strict { rendered.restore(call) } else { call };
            ok += usize::from(decode(call));
        }
    }
    assert!(times == 0 || ok == calls.len(), "{ok} of {} calls decoded", calls.len());
    println!("{times} decodes of {} calls ({mode})", calls.len());
}
