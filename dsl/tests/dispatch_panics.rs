//! A tool's panic becomes an error result without going through the panic hook, while every
//! other panic still does. Its own test binary: the panic hook is process-wide.

use std::panic;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use tooldef::dispatch::{DynamicTool, Toolbox, block_on};
use tooldef::{ToolCall, ToolDescriptor};

#[test]
fn tool_panics_skip_the_hook_and_other_panics_reach_it() {
    let hook_calls = Arc::new(AtomicUsize::new(0));
    {
        let hook_calls = hook_calls.clone();
        panic::set_hook(Box::new(move |_| {
            hook_calls.fetch_add(1, Ordering::SeqCst);
        }));
    }
    let d = ToolDescriptor::builder("fragile").build().unwrap();
    let toolbox = Toolbox::new()
        .with_executor(DynamicTool::new_sync(d, |_| panic!("index out of bounds")).into());
    let call = ToolCall::new("c1", "fragile", json!({}));
    let result = block_on(toolbox.call(&call));
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "fragile failed unexpectedly; this is a bug in the tool, not in the arguments"
    );
    assert_eq!(hook_calls.load(Ordering::SeqCst), 0, "the tool's panic skipped the hook");

    // The program's own panics still reach its hook, on this thread and on others.
    let _ = panic::catch_unwind(|| panic!("the program's own panic"));
    let _ = std::thread::spawn(|| panic!("another thread's panic")).join();
    assert_eq!(hook_calls.load(Ordering::SeqCst), 2);
    let _ = panic::take_hook();
}
