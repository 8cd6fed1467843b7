//! Measures what the 100 tools and the runtime add to a stripped release binary: small programs
//! that each do one host's job over the same corpus, built the same way, and their sizes against
//! a serde-only program.
//!
//! - `bs_serde` (the baseline): serde-only argument structs, a `match` on the tool name that
//!   decodes with `serde_json::from_str` and calls the function.
//! - `bs_tooldef`: the `#[tool]` functions in a `Toolbox`; renders the set to the OpenAI Chat
//!   `tools` array (`Toolbox::rendered` with the Chat renderer) and dispatches the call through
//!   the `Toolbox`.
//! - `bs_schemars`: serde + `schemars::JsonSchema` structs; builds the same array with
//!   `schema_for!` per tool and `serde_json`, and dispatches as the baseline does.
//! - `bs_rmcp` (with `--rmcp`): the rmcp `#[tool_router]` over the schemars structs, served over
//!   stdio (rmcp's host job: it lists and dispatches through its router).
//!
//! Writes the crates into one workspace under the checkout's `target/binsize/` (tooldef by
//! path, the checkout's `Cargo.lock` for the versions), builds each with `cargo build --release
//! -p <crate>` alone (so features are resolved per program), copies each binary and strips the
//! copy with `strip`, runs the first three with a sample call, and prints the sizes. Every
//! program uses cargo's default release profile (opt-level 3, no LTO, 16 codegen units,
//! unwinding panics). The workspace is kept, so that a second run rebuilds only what changed
//! and `cargo bloat` can be run in it (`benches/binsize.sh` does both).
//!
//! ```text
//! cargo run --release -p tooldef-benches --bin binsize -- [--rmcp] [--only a,b]
//! ```

// A report binary: printing is its job.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::Path;
use std::process::{Command, ExitCode};

use tooldef_benches::args::{list_option, workspace_root};
use tooldef_benches::corpus::{Corpus, SEED};
use tooldef_benches::emit::{self, Target};

struct Program {
    name: &'static str,
    label: &'static str,
    deps: String,
    /// Files under `src/` (`main.rs` among them).
    files: Vec<(&'static str, String)>,
    /// Whether the program is run with a sample call after the build.
    run: bool,
}

const SERDE_MAIN: &str = r#"//! Binary-size probe: serde-only arguments, decoded and called by name.
mod corpus;

fn main() {
    let mut argv = std::env::args().skip(1);
    let name = argv.next().unwrap_or_default();
    let args = argv.next().unwrap_or_default();
    match corpus::dispatch(&name, &args) {
        Ok(value) => println!("{value}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
"#;

const SCHEMARS_MAIN: &str = r#"//! Binary-size probe: schemars schemas in the OpenAI Chat tools array, serde dispatch.
mod corpus;

fn main() {
    let mut argv = std::env::args().skip(1);
    let name = argv.next().unwrap_or_default();
    let args = argv.next().unwrap_or_default();
    match corpus::tools_json() {
        Ok(json) => println!("{}", json.len()),
        Err(e) => eprintln!("{e}"),
    }
    match corpus::dispatch(&name, &args) {
        Ok(value) => println!("{value}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
"#;

const TOOLDEF_MAIN: &str = r#"//! Binary-size probe: #[tool] functions rendered to the OpenAI Chat tools array and
//! dispatched through a Toolbox.
mod corpus;

fn main() {
    let mut argv = std::env::args().skip(1);
    let name = argv.next().unwrap_or_default();
    let args = argv.next().unwrap_or_default();
    let toolbox = corpus::toolbox();
    let cache = tooldef::RenderCache::new();
    let renderer = tooldef_openai::OpenAiRenderer::chat();
    match toolbox.rendered(&renderer, &cache, tooldef::LossPolicy::Allow) {
        Ok(set) => println!("{}", set.json().len()),
        Err(e) => eprintln!("{e}"),
    }
    let result = toolbox.call_blocking(&tooldef::ToolCall::from_text("1", name, args));
    if result.is_error {
        eprintln!("{}", result.text());
        std::process::exit(1);
    }
    println!("{}", result.text());
}
"#;

const RMCP_MAIN: &str = r#"//! Binary-size probe: an rmcp `#[tool_router]` MCP server over stdio.
mod args;
mod router;

use rmcp::ServiceExt;

#[rmcp::tool_handler(router = router::router())]
impl rmcp::ServerHandler for router::CorpusServer {}

fn main() {
    let Ok(rt) = tokio::runtime::Builder::new_current_thread().build() else {
        std::process::exit(1);
    };
    rt.block_on(async {
        if let Ok(service) = router::CorpusServer.serve(rmcp::transport::stdio()).await {
            let _ = service.waiting().await;
        }
    });
}
"#;

fn programs(corpus: &Corpus, workspace: &Path, rmcp: bool) -> Vec<Program> {
    let serde = "serde = { version = \"1\", features = [\"derive\"] }\n\
                 serde_json = \"1\"\n";
    let path = |dir: &str| workspace.join(dir).to_string_lossy().into_owned();
    let mut out = vec![
        Program {
            name: "bs_serde",
            label: "serde-only: decode by name and call (baseline)",
            deps: serde.to_owned(),
            files: vec![
                ("main.rs", SERDE_MAIN.to_owned()),
                (
                    "corpus.rs",
                    emit::serde_args(corpus, false, Target::Standalone)
                        + &emit::serde_dispatch(corpus),
                ),
            ],
            run: true,
        },
        Program {
            name: "bs_tooldef",
            label: "tooldef: #[tool], OpenAI Chat tools array, Toolbox dispatch",
            deps: format!(
                "{serde}tooldef = {{ path = {:?} }}\ntooldef-openai = {{ path = {:?} }}\n",
                path("dsl"),
                path("providers/openai")
            ),
            files: vec![
                ("main.rs", TOOLDEF_MAIN.to_owned()),
                (
                    "corpus.rs",
                    emit::tooldef_macro(corpus, Target::Standalone)
                        + &emit::tooldef_dispatch(corpus),
                ),
            ],
            run: true,
        },
        Program {
            name: "bs_schemars",
            label: "schemars: schema_for! + serde_json tools array, serde dispatch",
            deps: format!("{serde}schemars = \"1\"\n"),
            files: vec![
                ("main.rs", SCHEMARS_MAIN.to_owned()),
                (
                    "corpus.rs",
                    emit::serde_args(corpus, true, Target::Standalone)
                        + &emit::serde_dispatch(corpus)
                        + &emit::schemars_tools_json(corpus),
                ),
            ],
            run: true,
        },
    ];
    if rmcp {
        out.push(Program {
            name: "bs_rmcp",
            label: "rmcp: #[tool_router] MCP server over stdio",
            deps: format!(
                "{serde}schemars = \"1\"\n\
                 rmcp = {{ version = \"3.11\", default-features = false, features = [\"server\", \"macros\", \"transport-io\"] }}\n\
                 tokio = {{ version = \"1\", default-features = false, features = [\"rt\"] }}\n"
            ),
            files: vec![
                ("main.rs", RMCP_MAIN.to_owned()),
                ("args.rs", emit::serde_args(corpus, true, Target::Standalone)),
                ("router.rs", emit::rmcp_router(corpus, Target::Standalone)),
            ],
            run: false,
        });
    }
    out
}

/// Writes a file only when its contents differ, so that a second run rebuilds only what changed.
fn write_if_changed(path: &Path, text: &str) -> std::io::Result<()> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    std::fs::write(path, text)
}

fn write_workspace(root: &Path, programs: &[Program], lock: Option<&Path>) -> std::io::Result<()> {
    let members: Vec<_> = programs.iter().map(|p| format!("{:?}", p.name)).collect();
    std::fs::create_dir_all(root)?;
    write_if_changed(
        &root.join("Cargo.toml"),
        &format!(
            "# Written by `tooldef-benches --bin binsize`. Default release profile.\n\
             [workspace]\nresolver = \"3\"\nmembers = [{}]\n",
            members.join(", ")
        ),
    )?;
    if let Some(lock) = lock
        && !root.join("Cargo.lock").exists()
    {
        // Same dependency versions as the tooldef workspace where they overlap.
        std::fs::copy(lock, root.join("Cargo.lock"))?;
    }
    for p in programs {
        let dir = root.join(p.name);
        std::fs::create_dir_all(dir.join("src"))?;
        write_if_changed(
            &dir.join("Cargo.toml"),
            &format!(
                "[package]\nname = {:?}\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
                 [dependencies]\n{}",
                p.name, p.deps
            ),
        )?;
        for (name, text) in &p.files {
            write_if_changed(&dir.join("src").join(name), text)?;
        }
    }
    Ok(())
}

fn cargo_build(root: &Path, program: &str) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(root)
        .env("CARGO_TARGET_DIR", root.join("target"))
        .args(["build", "--quiet", "--release", "-p", program])
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "building {program} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(())
}

/// Copies the built binary to `stripped/` and strips the copy; returns (unstripped, stripped)
/// sizes in bytes.
fn strip(root: &Path, program: &str) -> Result<(u64, u64), String> {
    let built = root.join("target/release").join(program);
    let dir = root.join("stripped");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let copy = dir.join(program);
    std::fs::copy(&built, &copy).map_err(|e| format!("{}: {e}", built.display()))?;
    let status =
        Command::new("strip").arg(&copy).status().map_err(|e| format!("cannot run strip: {e}"))?;
    if !status.success() {
        return Err(format!("strip {} failed", copy.display()));
    }
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).map_err(|e| e.to_string());
    Ok((size(&built)?, size(&copy)?))
}

/// Runs a stripped program with one sample call; its last line of output.
fn run(root: &Path, program: &str, name: &str, args: &str) -> Result<String, String> {
    let out = Command::new(root.join("stripped").join(program))
        .args([name, args])
        .output()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{program} failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(text.lines().collect::<Vec<_>>().join(" "))
}

fn mb(bytes: i64) -> String {
    format!("{:+.2} MB", bytes as f64 / 1e6)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rmcp = args.iter().any(|a| a == "--rmcp");
    let only = list_option(&args, "--only");
    let workspace = workspace_root();
    let root = workspace.join("target/binsize");
    let corpus = Corpus::standard();
    let mut programs = programs(&corpus, &workspace, rmcp);
    let lock = workspace.join("Cargo.lock");
    // The whole workspace is written (so that `cargo bloat` finds every member); `--only`
    // limits what is built.
    if let Err(e) = write_workspace(&root, &programs, lock.exists().then_some(lock.as_path())) {
        eprintln!("cannot write {}: {e}", root.display());
        return ExitCode::FAILURE;
    }
    if let Some(only) = &only {
        programs.retain(|p| p.name == "bs_serde" || only.iter().any(|name| name == p.name));
    }
    let first = &corpus.tools[0];
    let sample = first.sample_args(SEED);
    let mut sizes = Vec::new();
    for p in &programs {
        eprintln!("building {}", p.name);
        let built = cargo_build(&root, p.name).and_then(|()| strip(&root, p.name));
        let (full, stripped) = match built {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        if p.run {
            match run(&root, p.name, &first.name, &sample) {
                Ok(out) => eprintln!("{}: {} {sample} -> {out}", p.name, first.name),
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        sizes.push((p, full, stripped));
    }
    let base = sizes[0].2 as i64;
    let schemars = sizes.iter().find(|s| s.0.name == "bs_schemars").map(|s| s.2 as i64 - base);
    println!(
        "{} tools; cargo's default release profile (opt-level 3, no LTO, 16 codegen units), \
         stripped with `strip`\n",
        corpus.tools.len()
    );
    println!(
        "| program | job | stripped | over serde-only | ratio to serde-only | delta / schemars' delta | unstripped |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (p, full, stripped) in &sizes {
        let delta = *stripped as i64 - base;
        let vs_schemars = match schemars {
            Some(s) if s > 0 && p.name != "bs_serde" => format!("{:.2}x", delta as f64 / s as f64),
            _ => "-".into(),
        };
        println!(
            "| `{}` | {} | {:.2} MB ({stripped} B) | {} | {:.2}x | {vs_schemars} | {:.2} MB |",
            p.name,
            p.label,
            *stripped as f64 / 1e6,
            if p.name == "bs_serde" { "-".into() } else { mb(delta) },
            *stripped as f64 / base as f64,
            *full as f64 / 1e6,
        );
    }
    println!("\nworkspace: {}", root.display());
    ExitCode::SUCCESS
}
