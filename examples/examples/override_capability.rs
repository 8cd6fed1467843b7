//! Overriding a capability's tools without touching its code: an issue-tracker capability
//! registers its tools; the application hides the `repo` parameter (injecting its own value at
//! call time), narrows `priority`, puts the tools under the `tracker` namespace, adds a
//! sentence to a description, and adds a `reason` parameter that its own audit hook reads. The
//! registry contributes the patched tools to the prompt assembly, so the model sees only those;
//! dispatch still reaches the capability's executor, with the call rewritten back (and without
//! `reason`, which the capability does not take).
//!
//! Run: `cargo run -p tooldef-examples --example override_capability`
#![allow(clippy::print_stdout)] // an example prints what it does

use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Value, json};
use tooldef::assembly::Assembler;
use tooldef::{
    Constraint, DynamicTool, LossPolicy, Origin, Override, OverrideCall, Overrides, Param,
    Renderer, ToolDescriptor, ToolRegistry,
};
use tooldef_examples::agent::{Transcript, run_openai_chat};
use tooldef_examples::fake_model::{FakeModel, Script};
use tooldef_openai::OpenAiRenderer;

static CREATE_ISSUE: ToolDescriptor =
    ToolDescriptor::new("create_issue").description("Open an issue.").params(
        const {
            &[
                Param::string("repo").description("owner/name of the repository."),
                Param::string("title"),
                Param::string("body"),
                Param::enumeration("priority", &["low", "normal", "high", "urgent"])
                    .default_str("normal"),
            ]
        },
    );

static SEARCH_ISSUES: ToolDescriptor = ToolDescriptor::new("search_issues")
    .description("Search issues.")
    .params(const { &[Param::string("repo"), Param::string("query")] });

/// The capability: it knows nothing of the application's overrides.
fn register_capability(registry: &ToolRegistry) -> Result<(), tooldef::RegistryError> {
    let create = DynamicTool::new_sync(CREATE_ISSUE.clone(), |args: Value| {
        Ok(
            json!({ "created": format!("{}#42", args["repo"].as_str().unwrap_or("?")), "echo": args }),
        )
    });
    let search = DynamicTool::new_sync(SEARCH_ISSUES.clone(), |_| Ok(json!({ "issues": [] })));
    registry.register(Arc::new(create), Origin::Plugin)?;
    registry.register(Arc::new(search), Origin::Plugin)?;
    Ok(())
}

/// The application's patches; `audit` receives the `reason` of every issue filed.
fn overrides(audit: Arc<Mutex<Vec<String>>>) -> Overrides {
    let repo = "acme/widgets";
    let reason = Param::string("reason").with_description("Why the issue is filed.").optional();
    Overrides::new()
        .for_name(
            "create_issue",
            Override::hide("repo", repo)
                .then(Override::constrain("priority", Constraint::one_of(["low", "normal"])))
                .then(Override::append_description(" Issues go to the widgets tracker."))
                .then(Override::set_namespace("tracker"))
                .then(Override::add_param(reason))
                .then(Override::on_call(move |call: &OverrideCall<'_>| {
                    if let Some(Value::String(why)) = call.extra().get("reason") {
                        audit.lock().unwrap_or_else(PoisonError::into_inner).push(why.clone());
                    }
                    Ok(())
                })),
        )
        .for_name(
            "search_issues",
            Override::hide("repo", repo).then(Override::set_namespace("tracker")),
        )
}

/// What one run produced: the agent's transcript, the requests the model got, the audit log.
type Run = (Transcript, Vec<Value>, Vec<String>);

fn run() -> Result<Run, Box<dyn std::error::Error>> {
    let registry = Arc::new(ToolRegistry::new());
    register_capability(&registry)?;
    let audit = Arc::new(Mutex::new(Vec::new()));
    let report = registry.apply_overrides(overrides(Arc::clone(&audit)));
    assert!(report.is_ok(), "{report:?}");

    let assembler = Assembler::new();
    // The registry contributes its current tools, as patched, to every assembly.
    assembler.add_contributor(Arc::clone(&registry));
    let model = FakeModel::openai_chat(Script {
        tool: "tracker__create_issue".into(),
        arguments: json!({
            "title": "Crash on start",
            "body": "Steps: ...",
            "priority": "normal",
            "reason": "reported by a customer"
        }),
    })?;
    let dispatch = |call: &tooldef::ToolCall| registry.snapshot().call_blocking(call);
    let transcript =
        run_openai_chat(model.addr(), &assembler, &dispatch, "File the crash report.")?;
    let audit = audit.lock().unwrap_or_else(PoisonError::into_inner).clone();
    Ok((transcript, model.requests(), audit))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let before = OpenAiRenderer::chat().render(&CREATE_ISSUE, LossPolicy::Allow)?;
    println!(
        "as the capability defines it:\n{}",
        serde_json::to_string_pretty(&before.to_value())?
    );
    let (transcript, requests, audit) = run()?;
    println!("as the model sees it:\n{}", serde_json::to_string_pretty(&requests[0]["tools"])?);
    for r in &transcript.results {
        println!("`{}` returned {}", r.name, r.text());
    }
    println!("audit log: {audit:?}");
    println!("answer: {}", transcript.answer);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_sees_the_patched_tools_and_the_capability_gets_the_injected_value() {
        let (transcript, requests, audit) = run().unwrap();
        let tools = requests[0]["tools"].as_array().unwrap();
        let names: Vec<&str> =
            tools.iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["tracker__create_issue", "tracker__search_issues"]);
        let create = &tools[0]["function"];
        assert_eq!(create["description"], "Open an issue. Issues go to the widgets tracker.");
        let props = create["parameters"]["properties"].as_object().unwrap();
        // The request is a `Value` here (keys in `Map` order); the wire text keeps the order.
        let mut keys: Vec<&str> = props.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["body", "priority", "reason", "title"]);
        assert_eq!(props["priority"]["enum"], json!(["low", "normal"]));

        let result = &transcript.results[0];
        assert!(!result.is_error, "{}", result.text());
        assert_eq!(result.name, "tracker__create_issue");
        let out = result.structured.as_ref().unwrap();
        assert_eq!(out["created"], "acme/widgets#42");
        assert_eq!(out["echo"]["repo"], "acme/widgets");
        // The capability never sees `reason`; the application's hook does.
        assert_eq!(
            out["echo"],
            json!({
                "repo": "acme/widgets",
                "title": "Crash on start",
                "body": "Steps: ...",
                "priority": "normal"
            })
        );
        assert_eq!(audit, ["reported by a customer"]);
        assert_eq!(transcript.turns, 2);
    }
}
