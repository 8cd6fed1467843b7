//! Interop with the official Python SDK (`mcp` 2.3.0 from PyPI, installed by
//! `.ci/install-python-mcp.sh`): its client drives `tooldef serve`, and `tooldef import --from
//! mcp-server` reads the tools of a server written with it. Behind the `python-sdk` feature,
//! because it needs that package installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const STEP: Duration = Duration::from_secs(60);

fn here(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(rel)
}

/// Runs `program` with `args`, killed past [`STEP`].
fn bounded(program: &str, args: &[&std::ffi::OsStr]) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > STEP {
            let _ = child.kill();
            panic!("{program} {args:?} did not end within {STEP:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn the_python_sdks_client_uses_tooldef_serve() {
    let o = bounded(
        "python3",
        &[
            here("python/client.py").as_os_str(),
            env!("CARGO_BIN_EXE_tooldef").as_ref(),
            here("fixtures/serve").as_os_str(),
        ],
    );
    assert!(o.status.success(), "client.py failed: {}", String::from_utf8_lossy(&o.stderr));
    let seen: Value = serde_json::from_slice(&o.stdout).expect("client.py prints JSON");
    assert_eq!(
        seen,
        json!({
            "tools": ["create_issue", "get_weather", "set_alarm", "shout"],
            "titles": {"create_issue": "Create issue", "get_weather": "Weather"},
            "good": {"is_error": false, "text": [r#"{"TEXT":"HELLO"}"#]},
            "bad": {"is_error": true,
                    "text": ["invalid arguments for shout: /text must be a string; got 5"]}
        })
    );
}

#[test]
fn tooldef_imports_a_python_sdk_server() {
    let out = std::env::temp_dir().join(format!("tooldef-py-import-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let o = bounded(
        env!("CARGO_BIN_EXE_tooldef"),
        &[
            "import".as_ref(),
            "--from".as_ref(),
            "mcp-server".as_ref(),
            "--out".as_ref(),
            out.as_os_str(),
            "--".as_ref(),
            "python3".as_ref(),
            here("python/server.py").as_os_str(),
        ],
    );
    assert!(o.status.success(), "import failed: {}", String::from_utf8_lossy(&o.stderr));
    let specs = tooldef::load_spec_dir(&out).unwrap();
    let _ = std::fs::remove_dir_all(&out);
    let forecast = specs.descriptors().into_iter().find(|d| d.name == "get_forecast").cloned();
    let forecast = forecast.expect("get_forecast imported");
    assert_eq!(forecast.description, "Get the forecast for a city.");
    let params: Vec<_> = forecast
        .params
        .iter()
        .map(|p| {
            (
                &*p.name,
                p.required,
                p.schema.default.as_ref().map(|l| serde_json::to_value(l).unwrap()),
            )
        })
        .collect();
    assert_eq!(params, [("city", true, None), ("days", false, Some(json!(3)))]);
    assert!(forecast.output.is_some(), "the SDK's output schema is kept");
}
