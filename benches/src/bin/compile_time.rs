//! Measures how long the corpus takes to compile written each way, the crate alone after its
//! dependencies are built, and prints the ratios against the serde-only form; the two crates
//! that also dispatch their tools (so that decoding is instantiated) are compared with each
//! other.
//!
//! Writes throwaway crates into one temporary workspace (tooldef's by path, so it measures this
//! checkout), builds each once with its dependencies, then for every run touches each crate's
//! `src/lib.rs` and times `cargo build -p <crate>` (crates interleaved, so machine noise spreads
//! over all of them), in three modes: debug with incremental compilation (what a developer's
//! rebuild does), debug in full (`CARGO_INCREMENTAL=0`, as CI and first builds), and release;
//! prints the median of the runs.
//!
//! ```text
//! cargo run --release -p tooldef-benches --bin compile_time -- [--runs N] [--rmcp] [--keep] [--only a,b]
//! ```

// A report binary: printing is its job.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant, SystemTime};

use tooldef_benches::args::{list_option, workspace_root};
use tooldef_benches::corpus::Corpus;
use tooldef_benches::emit::{self, Target};

struct Krate {
    name: &'static str,
    label: &'static str,
    /// The crate its ratios are taken against.
    baseline: &'static str,
    deps: String,
    files: Vec<(&'static str, String)>,
}

fn crates(corpus: &Corpus, tooldef_dir: &Path, rmcp: bool) -> Vec<Krate> {
    let serde = "serde = { version = \"1\", features = [\"derive\"] }\n";
    let tooldef =
        format!("tooldef = {{ path = {:?} }}\n{serde}", tooldef_dir.join("dsl").to_string_lossy());
    let mut out = vec![
        Krate {
            name: "ct_serde",
            label: "serde-only structs (baseline)",
            baseline: "ct_serde",
            deps: serde.to_owned(),
            files: vec![("lib.rs", emit::serde_args(corpus, false, Target::Standalone))],
        },
        Krate {
            name: "ct_tooldef",
            label: "tooldef #[tool] functions",
            baseline: "ct_serde",
            deps: tooldef.clone(),
            files: vec![("lib.rs", emit::tooldef_macro(corpus, Target::Standalone))],
        },
        Krate {
            name: "ct_tooldef_const",
            label: "tooldef const DSL + hand-written Tool impls",
            baseline: "ct_serde",
            deps: tooldef.clone(),
            files: vec![("lib.rs", emit::tooldef_const(corpus, Target::Standalone))],
        },
        Krate {
            name: "ct_schemars",
            label: "serde + schemars::JsonSchema",
            baseline: "ct_serde",
            deps: format!("{serde}schemars = \"1\"\n"),
            files: vec![("lib.rs", emit::serde_args(corpus, true, Target::Standalone))],
        },
        Krate {
            name: "ct_serde_dispatch",
            label: "serde-only structs + hand-written dispatch (baseline with use)",
            baseline: "ct_serde_dispatch",
            deps: format!("{serde}serde_json = \"1\"\n"),
            files: vec![(
                "lib.rs",
                emit::serde_args(corpus, false, Target::Standalone) + &emit::serde_dispatch(corpus),
            )],
        },
        Krate {
            name: "ct_tooldef_dispatch",
            label: "tooldef #[tool] functions + Toolbox of all of them",
            baseline: "ct_serde_dispatch",
            deps: tooldef,
            files: vec![(
                "lib.rs",
                emit::tooldef_macro(corpus, Target::Standalone) + &emit::tooldef_dispatch(corpus),
            )],
        },
    ];
    if rmcp {
        out.push(Krate {
            name: "ct_rmcp",
            label: "rmcp #[tool_router] over schemars structs",
            baseline: "ct_serde",
            deps: format!(
                "{serde}schemars = \"1\"\n\
                 rmcp = {{ version = \"3.11\", default-features = false, features = [\"server\", \"macros\"] }}\n"
            ),
            files: vec![
                ("lib.rs", "//! rmcp corpus.\n#![allow(missing_docs)]\npub mod args;\npub mod router;\n".into()),
                ("args.rs", emit::serde_args(corpus, true, Target::Standalone)),
                ("router.rs", emit::rmcp_router(corpus, Target::Standalone)),
            ],
        });
    }
    out
}

fn write_workspace(root: &Path, crates: &[Krate], lock: Option<&Path>) -> std::io::Result<()> {
    let members: Vec<_> = crates.iter().map(|k| format!("{:?}", k.name)).collect();
    std::fs::create_dir_all(root)?;
    std::fs::write(
        root.join("Cargo.toml"),
        format!("[workspace]\nresolver = \"3\"\nmembers = [{}]\n", members.join(", ")),
    )?;
    if let Some(lock) = lock {
        // Same dependency versions as the tooldef workspace where they overlap.
        std::fs::copy(lock, root.join("Cargo.lock"))?;
    }
    for k in crates {
        let dir = root.join(k.name);
        std::fs::create_dir_all(dir.join("src"))?;
        std::fs::write(
            dir.join("Cargo.toml"),
            format!(
                "[package]\nname = {:?}\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[dependencies]\n{}",
                k.name, k.deps
            ),
        )?;
        for (name, text) in &k.files {
            std::fs::write(dir.join("src").join(name), text)?;
        }
    }
    Ok(())
}

/// How a crate is built: the profile, and whether incremental compilation is on.
#[derive(Clone, Copy)]
struct Mode {
    label: &'static str,
    release: bool,
    incremental: bool,
}

/// Debug as `cargo build` does it on a developer's machine (incremental: a touched file with
/// unchanged contents re-runs parsing and macro expansion, and reuses most of the rest), debug
/// built in full (as CI and first builds do), and release.
const MODES: [Mode; 3] = [
    Mode { label: "debug, incremental", release: false, incremental: true },
    Mode { label: "debug, full", release: false, incremental: false },
    Mode { label: "release", release: true, incremental: false },
];

fn cargo_build(root: &Path, krate: &str, mode: Mode) -> Result<Duration, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root)
        .env("CARGO_TARGET_DIR", root.join("target"))
        .env("CARGO_INCREMENTAL", if mode.incremental { "1" } else { "0" })
        .args(["build", "--quiet", "-p", krate]);
    if mode.release {
        cmd.arg("--release");
    }
    let start = Instant::now();
    let out = cmd.output().map_err(|e| format!("cannot run cargo: {e}"))?;
    let took = start.elapsed();
    if !out.status.success() {
        return Err(format!("building {krate} failed:\n{}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(took)
}

fn touch(path: &Path) -> std::io::Result<()> {
    std::fs::File::options().write(true).open(path)?.set_modified(SystemTime::now())
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort_unstable();
    v[v.len() / 2]
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(5_usize);
    let rmcp = args.iter().any(|a| a == "--rmcp");
    let keep = args.iter().any(|a| a == "--keep");
    // `--only ct_serde,ct_tooldef`: measure only these crates (a crate's ratio needs its
    // baseline among them).
    let only = list_option(&args, "--only");
    let workspace = workspace_root();
    let root = std::env::temp_dir().join(format!("tooldef-compile-time-{}", std::process::id()));
    let corpus = Corpus::standard();
    let mut crates = crates(&corpus, &workspace, rmcp);
    if let Some(only) = &only {
        crates.retain(|k| only.iter().any(|name| name == k.name));
    }
    let lock = workspace.join("Cargo.lock");
    if let Err(e) = write_workspace(&root, &crates, lock.exists().then_some(lock.as_path())) {
        eprintln!("cannot write {}: {e}", root.display());
        return ExitCode::FAILURE;
    }
    let mut table = String::from("| crate |");
    for m in MODES {
        table.push_str(&format!(" {} (median) | ratio |", m.label));
    }
    table.push_str("\n|---|");
    table.push_str(&"---|---|".repeat(MODES.len()));
    table.push('\n');
    let mut medians = vec![[Duration::ZERO; MODES.len()]; crates.len()];
    for (p, mode) in MODES.into_iter().enumerate() {
        let profile = mode.label;
        eprintln!("{profile}: building dependencies once");
        for k in &crates {
            if let Err(e) = cargo_build(&root, k.name, mode) {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
        let mut times = vec![Vec::new(); crates.len()];
        for run in 0..runs {
            for (i, k) in crates.iter().enumerate() {
                let lib = root.join(k.name).join("src/lib.rs");
                let took = touch(&lib)
                    .map_err(|e| e.to_string())
                    .and_then(|()| cargo_build(&root, k.name, mode));
                match took {
                    Ok(t) => {
                        eprintln!(
                            "{profile} run {}/{runs}: {} {:.2}s",
                            run + 1,
                            k.name,
                            t.as_secs_f64()
                        );
                        times[i].push(t);
                    }
                    Err(e) => {
                        eprintln!("{e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
        for (i, t) in times.into_iter().enumerate() {
            medians[i][p] = median(t);
        }
    }
    for (k, m) in crates.iter().zip(&medians) {
        table.push_str(&format!("| {} (`{}`) |", k.label, k.name));
        let base = crates.iter().position(|b| b.name == k.baseline).map(|i| medians[i]);
        for (p, t) in m.iter().enumerate() {
            match base {
                Some(b) => table.push_str(&format!(
                    " {:.2} s | {:.2}x |",
                    t.as_secs_f64(),
                    t.as_secs_f64() / b[p].as_secs_f64()
                )),
                None => table.push_str(&format!(" {:.2} s | - |", t.as_secs_f64())),
            }
        }
        table.push('\n');
    }
    {
        println!("{runs} runs per crate and profile, {} tools\n\n{table}", corpus.tools.len());
    }
    if !keep {
        let _ = std::fs::remove_dir_all(&root);
    }
    ExitCode::SUCCESS
}
