//! README's Install table names every feature of every published crate, so a user reading it
//! learns what each crate can be built with (the table once left two crates' features out).

use std::path::{Path, PathBuf};

/// The published crates, by the directory that holds each.
const CRATES: &[(&str, &str)] = &[
    ("tooldef", "dsl"),
    ("tooldef-openai", "providers/openai"),
    ("tooldef-anthropic", "providers/anthropic"),
    ("tooldef-gemini", "providers/gemini"),
    ("tooldef-ollama", "providers/ollama"),
    ("tooldef-mcp", "providers/mcp"),
    ("tooldef-bedrock", "providers/bedrock"),
    ("tooldef-cli", "cli"),
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_path_buf()
}

/// The features a manifest declares (the keys of its `[features]` table), `default` aside.
fn features(manifest: &str) -> Vec<String> {
    let mut inside = false;
    let mut names = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[features]";
            continue;
        }
        if !inside || line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some((name, _)) = line.split_once('=') {
            let name = name.trim();
            if name != "default" {
                names.push(name.to_owned());
            }
        }
    }
    names
}

/// The README's Install table row of a crate.
fn row<'a>(readme: &'a str, krate: &str) -> Option<&'a str> {
    let start = format!("| `{krate}` |");
    readme.lines().find(|line| line.starts_with(&start))
}

#[test]
fn the_install_table_names_every_feature_of_every_crate() {
    let root = workspace();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let mut missing = Vec::new();
    for (krate, dir) in CRATES {
        let manifest = std::fs::read_to_string(root.join(dir).join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("{dir}/Cargo.toml: {e}"));
        let Some(row) = row(&readme, krate) else {
            missing.push(format!("{krate}: no row in the Install table"));
            continue;
        };
        let features_column = row.rsplit('|').nth(1).unwrap_or_default();
        for feature in features(&manifest) {
            if !features_column.contains(&format!("`{feature}`")) {
                missing.push(format!("{krate}: feature `{feature}`"));
            }
        }
    }
    assert_eq!(missing, Vec::<String>::new(), "README's Install table leaves these out");
}

#[test]
fn the_feature_reader_reads_a_features_table_and_nothing_else() {
    let manifest = "[package]\nname = \"x\"\n\n[features]\ndefault = [\"a\"]\n## docs\na = []\nb = [\"dep:c\"]\n\n[dependencies]\nc = \"1\"\n";
    assert_eq!(features(manifest), ["a", "b"]);
}
