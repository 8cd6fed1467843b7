//! One directory reader: a one-shot load ([`tooldef::load_spec_dir`], what `tooldef render DIR`
//! uses) and the live workspace read the same directory the same way: the same tools load, and
//! the same files are refused for the same reasons (symlinks leading out, FIFOs, files over the
//! one size limit, names that are not UTF-8 or not tool names).
#![cfg(unix)]

mod workspace_support;

use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

use tooldef::export::SkipReason as LoadSkip;
use tooldef::files::FileProblem;
use tooldef::spec::MAX_SPEC_BYTES;
use tooldef::{ExportError, SkipReason, ToolRegistry, Workspace, load_spec_dir};
use workspace_support::TempDir;

/// `{"description": "xx…"}` of exactly `len` bytes.
fn spec_of_len(len: u64) -> String {
    let frame = r#"{"description": ""}"#.len() as u64;
    format!(r#"{{"description": "{}"}}"#, "x".repeat(usize::try_from(len - frame).unwrap()))
}

#[test]
fn a_one_shot_load_and_the_workspace_agree_on_a_directory() {
    let dir = TempDir::new();
    let outside = TempDir::new();
    dir.write("plain.json", "{}");
    dir.write("at_limit.json", &spec_of_len(MAX_SPEC_BYTES));
    dir.write("over_limit.json", &spec_of_len(MAX_SPEC_BYTES + 1));
    dir.write("bad name.json", "{}");
    outside.write("secret.json", "{}");
    let p = |name: &str| dir.path().join(name);
    std::os::unix::fs::symlink(p("plain.json"), p("alias.json")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.json"), p("leak.json")).unwrap();
    let mode = rustix::fs::Mode::from_raw_mode(0o600);
    rustix::fs::mkfifoat(rustix::fs::CWD, p("pipe.json"), mode).unwrap();
    let non_utf8 = PathBuf::from(std::ffi::OsStr::from_bytes(b"caf\xe9.json"));
    std::fs::write(dir.path().join(&non_utf8), "{}").unwrap();

    let loaded = load_spec_dir(dir.path()).unwrap_err();
    let names: Vec<&str> =
        loaded.specs.loaded.iter().map(|l| l.spec.descriptor.name.as_str()).collect();
    let registry = ToolRegistry::new();
    let report = Workspace::new(dir.path()).reconcile(&registry).unwrap();
    let mut live: Vec<String> = registry.entries().iter().map(|e| e.name().to_string()).collect();
    live.sort();
    assert_eq!(names, ["alias", "at_limit", "plain"]);
    assert_eq!(live, names);

    // The files that name a tool but cannot be used: errors of the load, skips of the workspace.
    let secret = std::fs::canonicalize(outside.path().join("secret.json")).unwrap();
    let mut errors: Vec<(PathBuf, FileProblem)> = loaded
        .errors
        .iter()
        .map(|e| match e {
            ExportError::File { path, problem } => (path.clone(), problem.clone()),
            other => panic!("{other}"),
        })
        .collect();
    errors.sort_by(|a, b| a.0.cmp(&b.0));
    let limit = MAX_SPEC_BYTES;
    assert_eq!(
        errors,
        [
            (p("leak.json"), FileProblem::SymlinkOutside { target: secret.clone() }),
            (p("over_limit.json"), FileProblem::TooLarge { size: limit + 1, limit }),
            (p("pipe.json"), FileProblem::NotRegular { what: "a FIFO" }),
        ]
    );
    let skipped: Vec<(PathBuf, SkipReason)> =
        report.skipped.iter().map(|s| (s.path.clone(), s.reason.clone())).collect();
    let stem_error = tooldef::ToolName::parse("bad name".to_owned()).unwrap_err();
    assert_eq!(
        skipped,
        [
            (
                p("bad name.json"),
                SkipReason::InvalidName { stem: "bad name".into(), error: stem_error.clone() }
            ),
            (dir.path().join(&non_utf8), SkipReason::NonUtf8Name),
            (p("leak.json"), SkipReason::SymlinkOutside { target: secret }),
            (p("over_limit.json"), SkipReason::TooLarge { size: limit + 1, limit }),
            (p("pipe.json"), SkipReason::NotRegular { what: "a FIFO" }),
        ]
    );
    // The names that are no tool names: warnings of the load.
    let mut warned: Vec<(PathBuf, LoadSkip)> =
        loaded.specs.skipped.iter().map(|s| (s.path.clone(), s.reason.clone())).collect();
    warned.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        warned,
        [
            (p("bad name.json"), LoadSkip::InvalidStem(stem_error)),
            (dir.path().join(&non_utf8), LoadSkip::NonUtf8Name),
        ]
    );
}

#[test]
fn a_spec_past_the_node_limit_is_refused_and_the_others_of_its_directory_load() {
    // `{}` a variant: three bytes a schema node, well within the size limit.
    let variants = vec!["{}"; tooldef::MAX_IMPORT_NODES].join(",");
    let big = format!(
        r#"{{"input_schema": {{"type": "object", "properties": {{"x": {{"anyOf": [{variants}]}}}}}}}}"#
    );
    let dir = TempDir::new();
    dir.write("after.json", "{}");
    dir.write("before.json", "{}");
    dir.write("big.json", &big);

    let loaded = load_spec_dir(dir.path()).unwrap_err();
    let names: Vec<&str> =
        loaded.specs.loaded.iter().map(|l| l.spec.descriptor.name.as_str()).collect();
    assert_eq!(names, ["after", "before"]);
    let errors: Vec<String> = loaded.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [format!(
            "{}: #/input_schema/properties/x/anyOf/65535: schemas hold more than 65536 nodes \
             (the tool's input and output schemas and their definitions together)",
            dir.path().join("big.json").display()
        )]
    );
}
