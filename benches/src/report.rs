//! Reads criterion's estimates of one run (`<target>/criterion/<group>/<bench>/new/estimates.json`)
//! and turns pairs of benchmarks into the ratio table of `README.md`.

use std::path::{Path, PathBuf};

/// One comparison: a tooldef benchmark against a named alternative measured in the same run.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// What is measured.
    pub what: String,
    /// The tooldef benchmark (`group/bench`).
    pub tooldef: String,
    /// The alternative (`group/bench`).
    pub alternative: String,
    /// How the ratio reads, and the target.
    pub target: Target,
}

/// A target on a ratio.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// alternative / tooldef must be at least this (tooldef is N times faster).
    FasterBy(f64),
    /// tooldef / alternative must be at most this (tooldef costs at most N times the baseline).
    Within(f64),
    /// No target; the ratio tooldef / alternative is shown for reference.
    Reference,
    /// No target; alternative / tooldef is shown as a speed-up, for reference.
    ReferenceFaster,
}

/// The comparisons of the benchmarks in `benches/`, for the providers given.
pub fn comparisons(providers: &[&str]) -> Vec<Comparison> {
    let mut out = Vec::new();
    for p in providers {
        let g = format!("render_{p}");
        let faster =
            if *p == "openai_chat" { Target::FasterBy(20.0) } else { Target::ReferenceFaster };
        out.push(Comparison {
            what: format!("render 100 tools, {p}, cold"),
            tooldef: format!("{g}/tooldef_cold"),
            alternative: format!("{g}/schemars_serde_json"),
            target: faster,
        });
        if *p == "openai_chat" {
            out.push(Comparison {
                what: format!("render 100 tools, {p}, cold vs writing a prebuilt Value"),
                tooldef: format!("{g}/tooldef_cold"),
                alternative: format!("{g}/serde_json_prebuilt_value"),
                target: Target::Within(1.5),
            });
        }
        out.push(Comparison {
            what: format!("render 100 tools, {p}, cached"),
            tooldef: format!("{g}/tooldef_cached"),
            alternative: format!("{g}/copy_output_bytes"),
            target: Target::Within(2.0),
        });
        out.push(Comparison {
            what: format!("render 100 tools, {p}, cached per tool"),
            tooldef: format!("{g}/tooldef_cached_tools"),
            alternative: format!("{g}/copy_output_bytes"),
            target: Target::Reference,
        });
        out.push(Comparison {
            what: format!("render 100 tools, {p}, cached vs rmcp cached list"),
            tooldef: format!("{g}/tooldef_cached"),
            alternative: "render_rmcp/rmcp_cached_list".into(),
            target: Target::ReferenceFaster,
        });
    }
    if providers.contains(&"openai_chat") {
        out.push(Comparison {
            what: "render 100 tools, openai_chat, wide corpus, cold".into(),
            tooldef: "render_openai_chat_wide/tooldef_cold".into(),
            alternative: "render_openai_chat_wide/schemars_serde_json".into(),
            target: Target::FasterBy(20.0),
        });
        out.push(Comparison {
            what: "render 100 tools, openai_chat, wide corpus, cold vs writing a prebuilt Value"
                .into(),
            tooldef: "render_openai_chat_wide/tooldef_cold".into(),
            alternative: "render_openai_chat_wide/serde_json_prebuilt_value".into(),
            target: Target::Within(1.5),
        });
    }
    out.push(Comparison {
        what: "decode + validate 100 calls".into(),
        tooldef: "decode_100_calls/tooldef_typed_tool".into(),
        alternative: "decode_100_calls/serde_from_str".into(),
        target: Target::Within(1.3),
    });
    out.push(Comparison {
        what: "decode + validate 100 calls".into(),
        tooldef: "decode_100_calls/tooldef_typed_tool".into(),
        alternative: "decode_100_calls/value_jsonschema_from_value".into(),
        target: Target::FasterBy(3.0),
    });
    out.push(Comparison {
        what: "decode + validate 100 calls, #[tool] arguments".into(),
        tooldef: "decode_100_calls/tooldef_macro_typed_tool".into(),
        alternative: "decode_100_calls/serde_from_str".into(),
        target: Target::Within(1.3),
    });
    out.push(Comparison {
        what: "decode + validate 100 calls, #[tool] arguments".into(),
        tooldef: "decode_100_calls/tooldef_macro_typed_tool".into(),
        alternative: "decode_100_calls/value_jsonschema_from_value".into(),
        target: Target::FasterBy(3.0),
    });
    out.push(Comparison {
        what: "decode + validate 100 calls, OpenAI strict, given back first".into(),
        tooldef: "decode_100_calls/tooldef_strict_restore_typed_tool".into(),
        alternative: "decode_100_calls/tooldef_typed_tool".into(),
        target: Target::Reference,
    });
    out.push(Comparison {
        what: "decode 100 calls, generated Deserialize vs serde derive".into(),
        tooldef: "decode_100_calls/tooldef_macro_from_str".into(),
        alternative: "decode_100_calls/serde_from_str".into(),
        target: Target::Reference,
    });
    out.push(Comparison {
        what: "workspace reconcile, 1,000 files, no-op".into(),
        tooldef: "workspace_1000_files/reconcile_noop".into(),
        alternative: "workspace_1000_files/dir_read_and_1000_stats".into(),
        target: Target::Within(1.5),
    });
    out.push(Comparison {
        what: "workspace reconcile, 1,000 files, one change".into(),
        tooldef: "workspace_1000_files/reconcile_one_change".into(),
        alternative: "workspace_1000_files/dir_read_and_1000_stats".into(),
        target: Target::Reference,
    });
    out.push(Comparison {
        what: "assemble a 100-call stream of 20-byte deltas, early validation included".into(),
        tooldef: "stream_100_calls_20_byte_deltas/tooldef_assembler".into(),
        alternative: "stream_100_calls_20_byte_deltas/concat_then_from_str".into(),
        target: Target::Within(1.5),
    });
    out.push(Comparison {
        what: "the same stream as Chat Completions chunks".into(),
        tooldef: "stream_100_calls_20_byte_deltas/tooldef_openai_chat_stream".into(),
        alternative: "stream_100_calls_20_byte_deltas/concat_chunks_then_from_str".into(),
        target: Target::Within(1.5),
    });
    // The same bench source, once in a binary that links tooldef and once in a crate without
    // it (`coresident-alone`): tooldef must not slow the crates it lives beside.
    for (what, bench) in [
        ("schema_for! + to_string, 100 tools, tooldef linked vs not", "schemars_serde_json"),
        ("Value + jsonschema validation, 100 calls, tooldef linked vs not", "value_jsonschema"),
    ] {
        out.push(Comparison {
            what: what.into(),
            tooldef: format!("coresident_with_tooldef/{bench}"),
            alternative: format!("coresident_alone/{bench}"),
            target: Target::Within(1.1),
        });
    }
    out
}

/// The mean time in nanoseconds of `group/bench` in the last run, if it ran.
pub fn mean_ns(criterion_dir: &Path, id: &str) -> Option<f64> {
    let path = criterion_dir.join(id).join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v.pointer("/mean/point_estimate")?.as_f64()
}

/// `<target dir>/criterion`, from `CARGO_TARGET_DIR` or the workspace's `target/`.
pub fn criterion_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("criterion")
}

/// A duration in the unit that reads best.
pub fn human(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.1} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// The markdown table of every comparison whose two benchmarks ran.
pub fn table(criterion_dir: &Path, comparisons: &[Comparison]) -> String {
    let mut out = String::from(
        "| measure | tooldef | alternative | ratio | target | met |\n|---|---|---|---|---|---|\n",
    );
    for c in comparisons {
        let (Some(t), Some(a)) =
            (mean_ns(criterion_dir, &c.tooldef), mean_ns(criterion_dir, &c.alternative))
        else {
            continue;
        };
        let name = |id: &str| id.rsplit('/').next().unwrap_or(id).to_owned();
        let (ratio, target, met) = match c.target {
            Target::FasterBy(n) => {
                (format!("{:.2}x faster", a / t), format!(">= {n}x faster"), yes(a / t >= n))
            }
            Target::Within(n) => {
                (format!("{:.2}x the time", t / a), format!("<= {n}x"), yes(t / a <= n))
            }
            Target::Reference => (format!("{:.2}x the time", t / a), "-".into(), "-".into()),
            Target::ReferenceFaster => (format!("{:.2}x faster", a / t), "-".into(), "-".into()),
        };
        out.push_str(&format!(
            "| {} | {} `{}` | {} `{}` | {ratio} | {target} | {met} |\n",
            c.what,
            human(t),
            name(&c.tooldef),
            human(a),
            name(&c.alternative),
        ));
    }
    out
}

fn yes(b: bool) -> String {
    if b { "yes".into() } else { "**no**".into() }
}
