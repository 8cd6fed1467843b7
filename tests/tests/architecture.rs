//! `ARCHITECTURE.md` names every Rust source file of every workspace crate, so the map cannot
//! fall behind the code.
//!
//! A file `<crate>/src/<path>` is named when the page holds, in any of these forms:
//! - its whole path (`dsl/src/render/name_map.rs`) or its path inside `src/` (`render/name_map.rs`);
//! - for a file in a folder, its file name in backticks on a line that names the folder
//!   (`` `cancel.rs` `` on the line with `dispatch/`), as the page's tables list a folder's files;
//! - for a file at the top of `src/`, its file name in backticks on a line that names the crate
//!   (`` `<crate>/` ``, its package name, `providers/<provider>/` for a provider), or in a
//!   section (`## ...`) that names the crate's `src/` folder; a crate's `lib.rs` and `main.rs`
//!   are named by any mention of the crate's folder.

use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the workspace")
        .to_owned()
}

/// The workspace members, as the root `Cargo.toml` lists them.
fn members(root: &Path) -> Vec<String> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("the root Cargo.toml");
    let start = manifest.find("members = [").expect("a members list");
    let list = &manifest[start..];
    let list = &list[..list.find(']').expect("the members list ends")];
    list.split('"').skip(1).step_by(2).map(str::to_owned).collect()
}

fn package_name(root: &Path, member: &str) -> String {
    let manifest =
        std::fs::read_to_string(root.join(member).join("Cargo.toml")).unwrap_or_default();
    manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("name = \"")?.strip_suffix('"').map(str::to_owned))
        .unwrap_or_default()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.map(|e| e.expect("a directory entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The lines of the page, each with the text of the section it is in.
fn sections(doc: &str) -> Vec<(&str, String)> {
    let mut out = Vec::new();
    let mut chunks: Vec<Vec<&str>> = vec![Vec::new()];
    for line in doc.lines() {
        if line.starts_with("## ") {
            chunks.push(Vec::new());
        }
        chunks.last_mut().expect("one chunk at least").push(line);
    }
    for chunk in chunks {
        let text = chunk.join("\n");
        for line in chunk {
            out.push((line, text.clone()));
        }
    }
    out
}

fn named(doc: &str, lines: &[(&str, String)], member: &str, package: &str, rel: &str) -> bool {
    if doc.contains(&format!("{member}/src/{rel}")) {
        return true;
    }
    let (dirs, file) = rel.rsplit_once('/').map_or(("", rel), |(d, f)| (d, f));
    let ticked = format!("`{file}`");
    if !dirs.is_empty() {
        let parent = format!("{}/", dirs.rsplit('/').next().unwrap_or(dirs));
        return doc.contains(rel)
            || lines.iter().any(|(line, _)| line.contains(&ticked) && line.contains(&parent));
    }
    let mut tags = vec![format!("{member}/")];
    if let Some(last) = member.rsplit('/').next() {
        tags.push(format!("`{last}/`"));
    }
    if !package.is_empty() {
        tags.push(format!("`{package}`"));
    }
    if member.starts_with("providers/") {
        tags.push("providers/<provider>/".to_owned());
    }
    if file == "lib.rs" || file == "main.rs" {
        return tags.iter().any(|t| doc.contains(t.as_str()));
    }
    let src = format!("`{member}/src/`");
    lines.iter().any(|(line, section)| {
        line.contains(&ticked)
            && (tags.iter().any(|t| line.contains(t.as_str())) || section.contains(&src))
    })
}

#[test]
fn architecture_names_every_source_file() {
    let root = workspace();
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let lines = sections(&doc);
    let mut missing = Vec::new();
    let mut checked = 0;
    for member in members(&root) {
        let package = package_name(&root, &member);
        let src = root.join(&member).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files {
            checked += 1;
            let rel =
                file.strip_prefix(&src).expect("under src").to_string_lossy().replace('\\', "/");
            if !named(&doc, &lines, &member, &package, &rel) {
                missing.push(format!("{member}/src/{rel}"));
            }
        }
    }
    assert!(checked > 100, "the walk found only {checked} files: is the workspace where it was?");
    assert_eq!(
        missing,
        Vec::<String>::new(),
        "add a row (or the name to a row) in ARCHITECTURE.md"
    );
}
