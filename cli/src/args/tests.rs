//! The parser over the table: what each verb reads, and its usage errors.

use std::ffi::OsString;
use std::path::PathBuf;

use super::*;

fn parse_str(args: &[&str]) -> Result<Command, UsageError> {
    parse(args.iter().map(OsString::from).collect())
}

fn message(args: &[&str]) -> String {
    parse_str(args).expect_err("a usage error").message
}

#[test]
fn render_takes_flags_in_any_order_and_inline_values() {
    let c = parse_str(&["render", "a.json", "--pretty", "--provider=anthropic", "dir"]);
    assert_eq!(
        c,
        Ok(Command::Render(RenderArgs {
            provider: Provider::Anthropic,
            model: None,
            strict: false,
            report: false,
            pretty: true,
            keep_going: false,
            map_names: false,
            paths: vec!["a.json".into(), "dir".into()],
        }))
    );
}

#[test]
fn model_is_read_for_the_wire_apis_that_take_one_and_refused_elsewhere() {
    let Ok(Command::Render(r)) =
        parse_str(&["render", "--provider", "ollama", "--model=llama3.1:8b", "a.json"])
    else {
        panic!("render parsed")
    };
    assert_eq!(r.model.as_deref(), Some("llama3.1:8b"));
    assert_eq!(
        parse_str(&["render", "--provider", "mcp", "--model", "qwen", "a.json"])
            .unwrap_err()
            .message,
        "`--model` applies to the wire APIs other model families are served over; `mcp` renders for no model"
    );
}

#[test]
fn double_dash_makes_the_rest_positional() {
    let Ok(Command::Render(r)) = parse_str(&["render", "--provider", "mcp", "--", "--strict"])
    else {
        panic!("expected render");
    };
    assert_eq!((r.strict, r.paths), (false, vec![PathBuf::from("--strict")]));
}

#[test]
fn a_dash_is_stdin_and_may_be_given_once() {
    let Ok(Command::Check(c)) = parse_str(&["check", "a.json", "-"]) else {
        panic!("expected check")
    };
    assert_eq!(c.paths, [PathBuf::from("a.json"), PathBuf::from("-")]);
    assert_eq!(
        message(&["render", "--provider", "mcp", "-", "-"]),
        "`-` (stdin) is given twice; stdin holds one spec"
    );
    let Ok(Command::Import(i)) = parse_str(&["import", "--from", "mcp", "-"]) else {
        panic!("expected import")
    };
    assert_eq!(i.file, PathBuf::from("-"));
}

#[test]
fn check_defaults_to_every_provider_and_dedups() {
    let Ok(Command::Check(c)) = parse_str(&["check", "x"]) else { panic!("expected check") };
    assert_eq!(c.providers, Provider::ALL.to_vec());
    let Ok(Command::Check(c)) =
        parse_str(&["check", "--provider", "ollama", "--provider=ollama", "x"])
    else {
        panic!("expected check")
    };
    assert_eq!(c.providers, vec![Provider::Ollama]);
}

#[test]
fn usage_errors_name_the_argument_and_suggest_a_close_one() {
    assert_eq!(
        message(&["render", "--provider", "openai", "x"]),
        "unknown provider `openai`; expected one of openai-chat, openai-responses, anthropic, gemini, gemini-openapi, ollama, mcp, bedrock"
    );
    assert_eq!(
        message(&["render", "--provider", "antropic", "x"]),
        "unknown provider `antropic`; did you mean `anthropic`?"
    );
    assert_eq!(
        message(&["render", "--provder", "mcp", "x"]),
        "unknown option `--provder`; did you mean `--provider`?"
    );
    assert_eq!(
        message(&["check", "--keep-going", "x"]),
        "unknown option `--keep-going`; `check` takes `--provider`, `--model`, `--strict` or `--help`"
    );
    assert_eq!(
        message(&["import", "--from", "gemni", "x"]),
        "unknown format `gemni`; did you mean `gemini`?"
    );
    assert_eq!(
        message(&["render", "x"]),
        "`--provider` is required: one of openai-chat, openai-responses, anthropic, gemini, gemini-openapi, ollama, mcp or bedrock"
    );
    assert_eq!(message(&["rendr"]), "no command `rendr`; did you mean `render`?");
    assert_eq!(message(&["improt"]), "no command `improt`; did you mean `import`?");
    assert_eq!(
        message(&["convert"]),
        "no command `convert`; expected one of render, plan, check, import, serve, help"
    );
    assert_eq!(message(&["--verison"]), "unknown option `--verison`; did you mean `--version`?");
    assert_eq!(
        message(&["check", "--keep", "x"]),
        "unknown option `--keep`; `check` takes `--provider`, `--model`, `--strict` or `--help`"
    );
    assert_eq!(message(&["import", "-force"]), "unknown option `-force`; did you mean `--force`?");
    assert_eq!(message(&["import", "--from", "mcp"]), "no FILE given (`-` reads stdin)");
    assert_eq!(
        message(&["render", "--pretty=yes", "--provider", "mcp", "x"]),
        "`--pretty` takes no value"
    );
    assert_eq!(message(&["help", "chek"]), "no command `chek`; did you mean `check`?");
}

#[test]
fn usage_under_an_error_is_the_verbs_line_or_every_verb() {
    let e = parse_str(&["check"]).unwrap_err();
    assert_eq!(e.usage(), "Usage: tooldef check [--provider P]... [--model ID] [--strict] PATH...");
    assert_eq!(e.more(), "tooldef check --help");
    let e = parse_str(&[]).unwrap_err();
    assert_eq!(
        e.usage(),
        "Usage:
  tooldef render --provider P [--model ID] [--strict] [--report] [--pretty] [--keep-going] [--map-names] [--plan] [--max-tools N] [--max-bytes N] PATH...
  tooldef plan   --provider P [--strict] [--max-tools N] [--max-bytes N] [--json] PATH...
  tooldef check  [--provider P]... [--model ID] [--strict] PATH...
  tooldef import --from mcp|openai|anthropic|gemini [--keep-going] FILE [--out DIR] [--force]
  tooldef serve  [--http ADDR] [--allow-origin ORIGIN]... DIR...
  tooldef help   [COMMAND]
  tooldef --help | --version"
    );
    assert_eq!(e.more(), "tooldef --help");
}

#[test]
fn help_comes_from_the_verb_table() {
    for v in VERBS {
        let Ok(Command::Help(text)) = parse_str(&[v.name, "--help"]) else {
            panic!("{}: expected help", v.name)
        };
        assert!(text.lines().any(|l| l == v.usage_line()), "{text}");
        assert_eq!(parse_str(&["help", v.name]), Ok(Command::Help(text)));
    }
    let Ok(Command::Help(main)) = parse_str(&["-h"]) else { panic!("expected help") };
    for v in VERBS {
        assert!(main.contains(&format!("  {:<6}   {}\n", v.name, v.summary)), "{main}");
    }
    assert_eq!(parse_str(&["help"]), Ok(Command::Help(main)));
}

#[test]
fn import_defaults_to_the_current_directory() {
    let Ok(Command::Import(i)) = parse_str(&["import", "--from", "gemini", "f.json"]) else {
        panic!("expected import")
    };
    assert_eq!((i.from, i.out, i.force), (ImportFormat::Gemini, PathBuf::from("."), false));
}

#[test]
fn keep_going_is_taken_by_render_and_import_only() {
    let Ok(Command::Render(r)) = parse_str(&["render", "--keep-going", "--provider=mcp", "d"])
    else {
        panic!("expected render")
    };
    assert!(r.keep_going);
    let Ok(Command::Import(i)) = parse_str(&["import", "--from", "mcp", "--keep-going", "f"])
    else {
        panic!("expected import")
    };
    assert!(i.keep_going);
    let Ok(Command::ImportServer(s)) =
        parse_str(&["import", "--from", "mcp-server", "--keep-going", "--", "srv"])
    else {
        panic!("expected import from a server")
    };
    assert!(s.keep_going);
}
