//! The workspace directory reconciled into a registry: files, semantics, cost, faults.

mod workspace_support;

use std::fs;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::json;
use tooldef::dispatch::DynamicTool;
use tooldef::{
    Origin, Registered, SkipReason, ToolCall, ToolDescriptor, ToolRegistry, Workspace,
    WorkspaceOptions,
};
use workspace_support::{Reg, TempDir, block_on};

fn names(report: &[tooldef::ToolChange]) -> Vec<&str> {
    report.iter().map(|c| c.name.as_str()).collect()
}

fn reasons(report: &tooldef::ReconcileReport) -> Vec<(String, SkipReason)> {
    report
        .skipped
        .iter()
        .map(|s| (s.path.file_name().unwrap().to_string_lossy().into_owned(), s.reason.clone()))
        .collect()
}

#[test]
fn a_new_spec_adds_a_declarative_tool_that_says_it_has_no_implementation() {
    let dir = TempDir::new();
    dir.write("greet.json", r#"{"description": "Say hello.", "name": "ignored"}"#);
    let reg = Reg::with_core(&[]);
    let ws = Workspace::new(dir.path());
    let report = ws.reconcile(&reg).unwrap();
    assert_eq!(names(&report.registered), ["greet"]);
    assert_eq!(report.registered[0].path, dir.path().join("greet.json"));
    assert_eq!(
        report.registered[0].notes,
        ["#/name: `name` is ignored; the tool is named `greet` by its location"]
    );
    assert_eq!(reg.live(), ["greet"]);
    let tool = reg.get("greet").unwrap();
    assert_eq!(tool.descriptor().description, "Say hello.");
    let result = block_on(tool.execute(&ToolCall::new("c1", "greet", json!({}))));
    assert!(result.is_error);
    assert_eq!(result.text(), "workspace tool greet has no implementation");
}

#[test]
fn a_spec_shadows_a_core_tool_which_comes_back_when_the_file_goes() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&["search", "fetch"]);
    let ws = Workspace::new(dir.path());
    dir.write("search.json", r#"{"description": "mine"}"#);
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!(names(&r.registered), ["search"]);
    assert_eq!(reg.get("search").unwrap().descriptor().description, "mine");
    dir.remove("search.json");
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!(names(&r.removed), ["search"]);
    assert_eq!(reg.get("search").unwrap().descriptor().description, "core search");
    assert_eq!(reg.live(), ["fetch", "search"]);
}

#[test]
fn a_removed_sentinel_strips_a_core_tool_until_it_goes() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&["search", "fetch"]);
    let ws = Workspace::new(dir.path());
    dir.write("fetch.removed", "");
    dir.write("nothing_here.removed", "");
    let r = ws.reconcile(&reg).unwrap();
    // Only a sentinel with a tool behind it strips something.
    assert_eq!(names(&r.stripped), ["fetch"]);
    assert_eq!(names(&r.sentinels_without_tool), ["nothing_here"]);
    assert_eq!(reg.live(), ["search"]);
    dir.remove("fetch.removed");
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!(names(&r.restored), ["fetch"]);
    assert_eq!(reg.live(), ["fetch", "search"]);
}

#[test]
fn a_sentinel_with_no_tool_behind_it_is_a_no_op_that_still_strips_a_tool_registered_later() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&["search"]);
    let ws = Workspace::new(dir.path());
    dir.write("shell.removed", "");
    let r = ws.reconcile(&reg).unwrap();
    // Nothing listed changes: not reported as stripped, and the report says so.
    assert!(r.stripped.is_empty(), "{r:?}");
    assert_eq!(names(&r.sentinels_without_tool), ["shell"]);
    assert_eq!(r.sentinels_without_tool[0].path, dir.path().join("shell.removed"));
    assert!(r.is_unchanged());
    assert_eq!(reg.live(), ["search"]);

    // The application registers its core `shell` after the workspace started: the sentinel is
    // still on disk, so the tool stays hidden (kept, not lost) ...
    let core = ToolDescriptor::builder("shell").description("core shell").build().unwrap();
    let outcome = reg.registry.register(Arc::new(DynamicTool::new_sync(core, Ok)), Origin::Core);
    assert_eq!(outcome, Ok(Registered::Stashed));
    assert_eq!(reg.live(), ["search"]);
    assert!(ws.reconcile(&reg).unwrap().is_unchanged());
    assert_eq!(reg.live(), ["search"]);

    // ... and comes back when the sentinel goes.
    dir.remove("shell.removed");
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!(names(&r.restored), ["shell"]);
    assert_eq!(reg.live(), ["search", "shell"]);

    // A sentinel that goes with nothing behind it is a no-op too.
    dir.write("ghost.removed", "");
    ws.reconcile(&reg).unwrap();
    dir.remove("ghost.removed");
    let r = ws.reconcile(&reg).unwrap();
    assert!(r.restored.is_empty(), "{r:?}");
    assert_eq!(names(&r.sentinels_without_tool), ["ghost"]);
}

#[test]
fn what_was_undone_behind_the_workspaces_back_is_applied_again() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&["search", "fetch"]);
    let ws = Workspace::new(dir.path());
    dir.write("greet.json", r#"{"description": "Say hello."}"#);
    dir.write("search.json", r#"{"description": "mine"}"#);
    dir.write("fetch.removed", "");
    ws.reconcile(&reg).unwrap();
    assert_eq!(reg.live(), ["greet", "search"]);

    // Someone else removes the workspace tools and unstrips `fetch`; the files are unchanged.
    assert!(reg.registry.unregister("greet", Origin::Workspace));
    assert!(reg.registry.unregister("search", Origin::Workspace));
    assert!(reg.registry.unstrip("fetch"));
    assert_eq!(reg.live(), ["fetch", "search"]);
    assert_eq!(reg.get("search").unwrap().descriptor().description, "core search");

    let r = ws.reconcile(&reg).unwrap();
    assert_eq!(names(&r.registered), ["greet", "search"]);
    assert_eq!(names(&r.stripped), ["fetch"]);
    assert_eq!(r.files_read, 0, "unchanged files are not read again");
    assert_eq!(reg.live(), ["greet", "search"]);
    assert_eq!(reg.get("search").unwrap().descriptor().description, "mine");
    assert!(ws.reconcile(&reg).unwrap().is_unchanged());

    // A workspace tool replaced behind its back by another executor is put back too.
    let other = ToolDescriptor::builder("greet").description("impostor").build().unwrap();
    reg.registry.register(Arc::new(DynamicTool::new_sync(other, Ok)), Origin::Workspace).unwrap();
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!(names(&r.registered), ["greet"]);
    assert_eq!(reg.get("greet").unwrap().descriptor().description, "Say hello.");
}

#[test]
fn a_stem_with_both_a_spec_and_a_sentinel_tears_both_down() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&["search"]);
    let ws = Workspace::new(dir.path());
    dir.write("search.json", r#"{"description": "mine"}"#);
    ws.reconcile(&reg).unwrap();
    dir.write("search.removed", "");
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!(names(&r.removed), ["search"]);
    assert_eq!(
        reasons(&r),
        [
            ("search.json".to_owned(), SkipReason::SpecAndRemoved),
            ("search.removed".to_owned(), SkipReason::SpecAndRemoved),
        ]
    );
    assert_eq!(reg.get("search").unwrap().descriptor().description, "core search");
}

#[test]
fn a_broken_change_keeps_the_previous_version_and_never_blocks_the_others() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&[]);
    let ws = Workspace::new(dir.path());
    dir.write("a.json", r#"{"description": "v1"}"#);
    ws.reconcile(&reg).unwrap();
    dir.write("a.json", r#"{"description": "#);
    dir.write("b.json", r#"{"description": "b"}"#);
    dir.write("c.json", r#"{"description": 3}"#);
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!(names(&r.registered), ["b"]);
    assert_eq!(reg.get("a").unwrap().descriptor().description, "v1");
    let skipped: Vec<_> =
        r.skipped.iter().map(|s| (s.name.as_ref().unwrap().as_str(), s.kept_previous)).collect();
    assert_eq!(skipped, [("a", true), ("c", false)]);
    let SkipReason::Invalid(msg) = &r.skipped[1].reason else { panic!("{:?}", r.skipped) };
    assert!(msg.starts_with(&dir.path().join("c.json").display().to_string()), "{msg}");
    assert!(msg.contains("/description"), "{msg}");
    // Fixed: the new version replaces the old one.
    dir.write("a.json", r#"{"description": "v2"}"#);
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!(names(&r.registered), ["a"]);
    assert_eq!(reg.get("a").unwrap().descriptor().description, "v2");
}

#[test]
fn names_are_taken_verbatim_and_everything_else_is_ignored_or_skipped() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&[]);
    let ws = Workspace::new(dir.path());
    dir.write("Good-name_1.json", "{}");
    dir.write("has space.json", "{}");
    dir.write("dotted.name.json", "{}");
    dir.write(&format!("{}.json", "x".repeat(65)), "{}");
    dir.write(".hidden.json", "{}");
    dir.write(".swp", "{}");
    dir.write("README.md", "notes");
    dir.write("noext", "{}");
    fs::create_dir(dir.path().join("folder.json")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bad = std::ffi::OsStr::from_bytes(b"caf\xe9.json");
        fs::write(dir.path().join(bad), "{}").unwrap();
    }
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!(reg.live(), ["Good-name_1"]);
    let mut got: Vec<_> = r
        .skipped
        .iter()
        .map(|s| match &s.reason {
            SkipReason::InvalidName { stem, .. } => format!("invalid name {stem}"),
            other => format!("{other}"),
        })
        .collect();
    got.sort();
    let mut want = vec![
        "invalid name dotted.name".to_owned(),
        "invalid name has space".to_owned(),
        format!("invalid name {}", "x".repeat(65)),
        "a directory, not a regular file".to_owned(),
    ];
    if cfg!(unix) {
        want.push("the file name is not UTF-8".to_owned());
    }
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn the_lowercase_extension_wins_and_the_shadowed_file_is_reported() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&[]);
    let ws = Workspace::new(dir.path());
    dir.write("tool.JSON", r#"{"description": "upper"}"#);
    dir.write("tool.json", r#"{"description": "lower"}"#);
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!(reg.get("tool").unwrap().descriptor().description, "lower");
    assert_eq!(
        reasons(&r),
        [("tool.JSON".to_owned(), SkipReason::Shadowed { by: dir.path().join("tool.json") })]
    );
}

#[test]
fn reconcile_is_idempotent_and_a_noop_reads_nothing() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&["core"]);
    let ws = Workspace::new(dir.path());
    for i in 0..20 {
        dir.write(&format!("t{i}.json"), r#"{"description": "x"}"#);
    }
    dir.write("core.removed", "");
    let first = ws.reconcile(&reg).unwrap();
    assert_eq!(first.registered.len(), 20);
    assert_eq!(first.files_read, 20);
    let batches = reg.batches();
    let again = ws.reconcile(&reg).unwrap();
    assert!(again.is_unchanged());
    assert_eq!(again.files_read, 0);
    assert_eq!(again.stat_calls, 21);
    assert_eq!(reg.batches(), batches, "a no-op reconcile sends nothing to the registry");
    // Touching a file without changing it re-reads it but changes nothing.
    dir.write("t3.json", r#"{"description": "x"}"#);
    let touched = ws.reconcile(&reg).unwrap();
    assert!(touched.is_unchanged());
    assert_eq!(touched.files_read, 1);
}

#[test]
fn a_schema_respelled_with_the_same_meaning_replaces_the_live_version() {
    // `number` with whole-number values and `integer` are the same IR, but the new text is what
    // a renderer that writes the schema as read (MCP) must send.
    let dir = TempDir::new();
    let reg = Reg::with_core(&[]);
    let ws = Workspace::new(dir.path());
    let spelled = |ty: &str| {
        format!(
            r#"{{"input_schema": {{"type": "object", "properties": {{"n": {{"type": "{ty}", "enum": [1, 2]}}}}}}}}"#
        )
    };
    dir.write("pick.json", &spelled("number"));
    ws.reconcile(&reg).unwrap();
    let before = reg.get("pick").unwrap().descriptor().clone();
    dir.write("pick.json", &spelled("integer"));
    let again = ws.reconcile(&reg).unwrap();
    assert_eq!(names(&again.registered), ["pick"]);
    let after = reg.get("pick").unwrap().descriptor().clone();
    assert_eq!(after, before);
    assert_eq!(
        after.source_input_schema(),
        Some(r#"{"type":"object","properties":{"n":{"type":"integer","enum":[1,2]}}}"#)
    );
}

#[test]
fn after_changing_one_file_of_a_thousand_exactly_one_is_read() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&[]);
    let ws = Workspace::new(dir.path());
    for i in 0..1000 {
        dir.write(&format!("tool_{i:04}.json"), r#"{"description": "a tool"}"#);
    }
    let first = ws.reconcile(&reg).unwrap();
    assert_eq!(first.registered.len(), 1000);
    assert_eq!(first.files_read, 1000);
    let noop = ws.reconcile(&reg).unwrap();
    assert_eq!((noop.files_read, noop.stat_calls), (0, 1000));
    dir.write("tool_0500.json", r#"{"description": "changed, and longer"}"#);
    let one = ws.reconcile(&reg).unwrap();
    assert_eq!(one.files_read, 1);
    assert_eq!(names(&one.registered), ["tool_0500"]);
    assert_eq!(ws.stats().files_read, 1001);
    assert_eq!(ws.stats().scans, 3);
}

#[test]
fn concurrent_reconciles_share_one_scan_and_one_report() {
    let dir = TempDir::new();
    for i in 0..10 {
        dir.write(&format!("t{i}.json"), "{}");
    }
    let reg = Arc::new(Reg::with_core(&[]));
    let opts =
        WorkspaceOptions::default().scan_hook(|| std::thread::sleep(Duration::from_millis(300)));
    let ws = Arc::new(Workspace::with_options(dir.path(), opts));
    let threads = 12;
    let barrier = Arc::new(Barrier::new(threads));
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let (ws, reg, barrier) = (Arc::clone(&ws), Arc::clone(&reg), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                ws.reconcile(&*reg).unwrap()
            })
        })
        .collect();
    let reports: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(ws.stats().scans, 1);
    assert!(reports.iter().all(|r| Arc::ptr_eq(r, &reports[0])));
    assert_eq!(reports[0].registered.len(), 10);
    assert_eq!(reg.batches(), 1);
}

#[test]
fn oversized_files_and_symlinks_leading_out_are_refused() {
    let dir = TempDir::new();
    let outside = TempDir::new();
    let reg = Reg::with_core(&[]);
    let ws = Workspace::with_options(dir.path(), WorkspaceOptions::default().max_file_size(64));
    let big = format!(r#"{{"description": "{}"}}"#, "x".repeat(100));
    dir.write("big.json", &big);
    dir.write("small.json", "{}");
    outside.write("secret.json", "{}");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            outside.path().join("secret.json"),
            dir.path().join("leak.json"),
        )
        .unwrap();
        std::os::unix::fs::symlink(dir.path().join("small.json"), dir.path().join("alias.json"))
            .unwrap();
        std::os::unix::fs::symlink("../", dir.path().join("up.json")).unwrap();
    }
    let r = ws.reconcile(&reg).unwrap();
    let mut got: Vec<String> = r
        .skipped
        .iter()
        .map(|s| format!("{}: {:?}", s.name.as_ref().unwrap(), std::mem::discriminant(&s.reason)))
        .collect();
    got.sort();
    let too_large = &r.skipped.iter().find(|s| s.name.as_ref().unwrap() == "big").unwrap().reason;
    assert_eq!(too_large, &SkipReason::TooLarge { size: big.len() as u64, limit: 64 });
    if cfg!(unix) {
        assert_eq!(reg.live(), ["alias", "small"]);
        let leak = r.skipped.iter().find(|s| s.name.as_ref().unwrap() == "leak").unwrap();
        assert!(matches!(leak.reason, SkipReason::SymlinkOutside { .. }), "{leak:?}");
        let up = r.skipped.iter().find(|s| s.name.as_ref().unwrap() == "up").unwrap();
        assert!(matches!(up.reason, SkipReason::SymlinkOutside { .. }), "{up:?}");
        assert_eq!(got.len(), 3);
    } else {
        assert_eq!(reg.live(), ["small"]);
    }
}

#[test]
fn deeply_nested_json_is_an_error_not_a_stack_overflow() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&[]);
    let ws = Workspace::new(dir.path());
    let depth = 200_000;
    let mut text = String::from(r#"{"input_schema": "#);
    text.push_str(&"[".repeat(depth));
    text.push_str(&"]".repeat(depth));
    text.push('}');
    dir.write("deep.json", &text);
    let r = ws.reconcile(&reg).unwrap();
    assert!(reg.live().is_empty());
    assert!(matches!(r.skipped[0].reason, SkipReason::Invalid(_)), "{:?}", r.skipped);
}

#[test]
fn a_missing_directory_is_empty_and_removes_what_was_there() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&["core"]);
    let ws = Workspace::new(dir.path().join("tools"));
    assert!(ws.reconcile(&reg).unwrap().is_unchanged());
    fs::create_dir(dir.path().join("tools")).unwrap();
    fs::write(dir.path().join("tools/mine.json"), "{}").unwrap();
    fs::write(dir.path().join("tools/core.removed"), "").unwrap();
    ws.reconcile(&reg).unwrap();
    assert_eq!(reg.live(), ["mine"]);
    fs::remove_dir_all(dir.path().join("tools")).unwrap();
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!((names(&r.removed), names(&r.restored)), (vec!["mine"], vec!["core"]));
    assert_eq!(reg.live(), ["core"]);
}

#[test]
fn a_noop_reconcile_of_a_thousand_files_is_fast() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&[]);
    let ws = Workspace::new(dir.path());
    for i in 0..1000 {
        dir.write(&format!("tool_{i:04}.json"), "{}");
    }
    ws.reconcile(&reg).unwrap();
    let t = Instant::now();
    for _ in 0..5 {
        ws.reconcile(&reg).unwrap();
    }
    // Generous: a debug build on a shared CI machine; the real bound is the benchmark's.
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn readers_never_see_a_half_applied_reconcile() {
    let dir = TempDir::new();
    let registry = Arc::new(ToolRegistry::new());
    let ws = Workspace::new(dir.path());
    let write_all = |version: &str| {
        for i in 0..50 {
            dir.write(&format!("t{i:02}.json"), &format!(r#"{{"description": "{version}"}}"#));
        }
    };
    write_all("v0");
    ws.reconcile(&*registry).unwrap();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (registry, stop) = (Arc::clone(&registry), Arc::clone(&stop));
        std::thread::spawn(move || {
            let mut seen = std::collections::BTreeSet::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let snap = registry.snapshot();
                let versions: std::collections::BTreeSet<String> =
                    snap.descriptors().map(|d| d.description.to_string()).collect();
                assert_eq!(snap.len(), 50);
                assert_eq!(versions.len(), 1, "a mixed snapshot: {versions:?}");
                assert!(snap.entries().iter().all(|e| e.origin() == Origin::Workspace));
                seen.extend(versions);
            }
            seen
        })
    };
    for round in 1..=6 {
        // Alternate lengths so each rewrite changes the size as well as the time.
        write_all(&format!("v{}", "x".repeat(round)));
        let r = ws.reconcile(&*registry).unwrap();
        assert_eq!(r.registered.len(), 50);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let seen = reader.join().unwrap();
    assert!(!seen.is_empty());
}

#[test]
fn swapping_files_keeps_the_count_but_is_still_seen() {
    let dir = TempDir::new();
    let reg = Reg::with_core(&["x", "y"]);
    let ws = Workspace::new(dir.path());
    dir.write("a.json", "{}");
    dir.write("x.removed", "");
    ws.reconcile(&reg).unwrap();
    assert_eq!(reg.live(), ["a", "y"]);
    // Same number of files, different names and kinds.
    dir.remove("a.json");
    dir.write("b.json", "{}");
    dir.remove("x.removed");
    dir.write("y.removed", "");
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!((names(&r.registered), names(&r.removed)), (vec!["b"], vec!["a"]));
    assert_eq!((names(&r.stripped), names(&r.restored)), (vec!["y"], vec!["x"]));
    assert_eq!(reg.live(), ["b", "x"]);
    // A sentinel replaced by a spec of the same name.
    dir.remove("y.removed");
    dir.write("y.json", r#"{"description": "mine"}"#);
    let r = ws.reconcile(&reg).unwrap();
    assert_eq!((names(&r.registered), names(&r.restored)), (vec!["y"], vec!["y"]));
    assert_eq!(reg.get("y").unwrap().descriptor().description, "mine");
    assert!(ws.reconcile(&reg).unwrap().is_unchanged());
}
