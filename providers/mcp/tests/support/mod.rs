//! Helpers shared by the transport tests: a temporary directory, sample tools, a deadline.

#![allow(dead_code, unreachable_pub)]

pub mod raw_http;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use tooldef::dispatch::DynamicTool;
use tooldef::{Annotations, Param, Schema, ToolDescriptor, ToolError, Toolbox};

/// How long any one step of a test may take before the test fails (never hangs CI).
pub const STEP: Duration = Duration::from_secs(20);

/// `future`, or a panic naming `what` once [`STEP`] has passed.
pub async fn within<F: Future>(what: &str, future: F) -> F::Output {
    match tokio::time::timeout(STEP, future).await {
        Ok(v) => v,
        Err(_) => panic!("{what} did not finish within {STEP:?}"),
    }
}

/// A directory under the system temp dir, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new() -> Self {
        static N: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
        let name = format!(
            "tooldef-mcp-{}-{}-{nanos}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        let path = std::env::temp_dir().join(name);
        std::fs::create_dir(&path).unwrap();
        TempDir(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    pub fn write(&self, name: &str, text: &str) {
        std::fs::write(self.0.join(name), text).unwrap();
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `get_weather`: a title, read-only annotations and an output schema.
pub fn weather() -> ToolDescriptor {
    ToolDescriptor::builder("get_weather")
        .title("Weather")
        .description("Get the current weather for a city.")
        .param(Param::string("city").description("City name"))
        .param(Param::enumeration("unit", &["celsius", "fahrenheit"]).default_str("celsius"))
        .output(Schema::object_of(vec![Param::float("temp")]))
        .annotations(Annotations { read_only: Some(true), ..Annotations::default() })
        .build()
        .unwrap()
}

/// `echo`: returns its `text` argument; no output schema.
pub fn echo() -> ToolDescriptor {
    ToolDescriptor::builder("echo")
        .description("Echo the text.")
        .param(Param::string("text"))
        .build()
        .unwrap()
}

/// A toolbox of `get_weather` (answers `{"temp": 21.5}`), `echo`, `fail` (returns an error)
/// and `numbered_N` for `N` in `0..extra`.
pub fn toolbox(extra: usize) -> Toolbox {
    let mut t = Toolbox::new()
        .with_executor(DynamicTool::new_sync(weather(), |_| Ok(json!({"temp": 21.5}))).into())
        .with_executor(DynamicTool::new_sync(echo(), |args: Value| Ok(args["text"].clone())).into())
        .with_executor(
            DynamicTool::new_sync(
                ToolDescriptor::builder("fail").description("Always fails.").build().unwrap(),
                |_| Err(ToolError::new("the backend is down")),
            )
            .into(),
        );
    for i in 0..extra {
        let d = ToolDescriptor::builder(format!("numbered_{i}"))
            .description(format!("Tool number {i}."))
            .build()
            .unwrap();
        t.insert(DynamicTool::new_sync(d, move |_| Ok(json!(i))).into());
    }
    t
}

/// `tools/call` params that try to choose the arguments through `_meta`, each with the result
/// the call must give: the one of the `arguments` sent (or of none), never the smuggled text.
pub fn smuggling_cases() -> Vec<(&'static str, Value)> {
    let benign = json!({"content": [{"type": "text", "text": "benign"}], "isError": false});
    let none = json!({"content": [{"type": "text",
        "text": "invalid arguments for echo: /text is required"}], "isError": true});
    vec![
        (
            r#"{"name":"echo","arguments":{"text":"benign"},"_meta":{"tooldef/argumentsText":"{\"text\":\"SMUGGLED\"}"}}"#,
            benign.clone(),
        ),
        (
            r#"{"name":"echo","arguments":{"text":"benign"},"_meta":{"tooldef/argumentsText":5}}"#,
            benign.clone(),
        ),
        (
            r#"{"_meta":{"tooldef/argumentsText":"{\"text\":\"SMUGGLED\"}","progressToken":1},"name":"echo","arguments":{"text":"benign"}}"#,
            benign.clone(),
        ),
        // Written with an escape, as the screen's own key reads the same once decoded.
        (
            r#"{"name":"echo","arguments":{"text":"benign"},"_meta":{"tooldef\/argumentsText":"{\"text\":\"SMUGGLED\"}"}}"#,
            benign.clone(),
        ),
        // No arguments: nothing to carry, and nothing the client writes is taken for them.
        (
            r#"{"name":"echo","_meta":{"tooldef/argumentsText":"{\"text\":\"SMUGGLED\"}"}}"#,
            none.clone(),
        ),
        (
            r#"{"name":"echo","arguments":null,"_meta":{"tooldef/argumentsText":"{\"text\":\"SMUGGLED\"}"}}"#,
            none,
        ),
        // A guess at the key the server's reader draws for itself.
        (
            r#"{"name":"echo","arguments":{"text":"benign"},"_meta":{"tooldef/argumentsText/00000000000000000000000000000000":"{\"text\":\"SMUGGLED\"}"}}"#,
            benign,
        ),
    ]
}
