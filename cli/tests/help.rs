//! The help texts, whole: `tooldef --help` and each verb's, as `tests/help/*.txt` hold them.
//!
//! They are laid out from the table in `src/args.rs`; a change to a row shows here as a diff of
//! what users read. When a text changes on purpose, review the diff and update the file.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_tooldef");

fn stdout(args: &[&str]) -> String {
    let o = Command::new(BIN).args(args).output().expect("run tooldef");
    assert_eq!(o.status.code(), Some(0), "{args:?}");
    assert!(o.stderr.is_empty(), "{args:?}");
    String::from_utf8(o.stdout).expect("utf-8 stdout")
}

#[test]
fn every_help_text_is_the_one_on_file() {
    let cases: [(&[&str], &str); 7] = [
        (&["--help"], include_str!("help/tooldef.txt")),
        (&["render", "--help"], include_str!("help/render.txt")),
        (&["plan", "--help"], include_str!("help/plan.txt")),
        (&["check", "--help"], include_str!("help/check.txt")),
        (&["import", "--help"], include_str!("help/import.txt")),
        (&["serve", "--help"], include_str!("help/serve.txt")),
        (&["help", "--help"], include_str!("help/help.txt")),
    ];
    for (args, expected) in cases {
        assert_eq!(stdout(args), expected, "tooldef {}", args.join(" "));
    }
}
