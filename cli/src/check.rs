//! `tooldef check`: per provider, what rendering the tools would change or refuse.
//!
//! Owns running the verb: one summary line per provider, then each change (lossy ones marked)
//! and each refusal; every file is checked even when some are bad.

use std::path::PathBuf;

use tooldef::{LossPolicy, Renderer, Specs, ToolDescriptor};

use crate::load::{load, over_limit, policy, refusal};
use crate::providers::Provider;
use crate::{Failure, Status, out};

/// Arguments of `tooldef check`.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct CheckArgs {
    pub(crate) providers: Vec<Provider>,
    pub(crate) strict: bool,
    /// Spec files and directories; `-` for one spec read from stdin.
    pub(crate) paths: Vec<PathBuf>,
}

/// Runs `tooldef check`.
pub(crate) fn run(a: CheckArgs) -> Result<(), Failure> {
    let loaded = load(&a.paths);
    // Every file is reported: the bad ones here, the good ones checked below.
    loaded.print_problems();
    let specs = &loaded.specs;
    let tools = specs.descriptors();
    let mut text = String::new();
    let mut refusing = Vec::new();
    let mut over = false;
    // Nothing loaded: the errors above are the whole answer.
    let providers =
        if tools.is_empty() && !loaded.problems.is_empty() { &[][..] } else { &a.providers[..] };
    for provider in providers {
        let renderer = provider.renderer(a.strict);
        let lines = check_one(specs, &tools, &*renderer, policy(a.strict));
        if lines.refused > 0 {
            refusing.push(provider.name());
        }
        over |= lines.over_limit;
        let lossy = lines.changes.iter().filter(|(_, lossy)| *lossy).count();
        text.push_str(&format!(
            "{}: {} tools, {} changes ({lossy} lossy), {} refused\n",
            provider.name(),
            tools.len(),
            lines.changes.len(),
            lines.refused
        ));
        for (line, _) in &lines.changes {
            text.push_str(&format!("  changed  {line}\n"));
        }
        for line in &lines.refusals {
            text.push_str(&format!("  refused  {line}\n"));
        }
    }
    out(text.as_bytes())?;
    if !loaded.problems.is_empty() {
        // Every problem is on stderr already.
        return Err(Failure::Reported(Status::BadInput));
    }
    if refusing.is_empty() {
        return Ok(());
    }
    let message = format!(
        "{} of {} providers would refuse a tool: {}; check only the providers you target with \
         `--provider`",
        refusing.len(),
        a.providers.len(),
        refusing.join(", ")
    );
    Err(if over { Failure::Input(message) } else { Failure::Refused(message) })
}

/// What one provider would change and refuse.
struct CheckLines {
    changes: Vec<(String, bool)>,
    refusals: Vec<String>,
    refused: usize,
    /// Whether a refusal was a limit on size or nesting (see [`over_limit`]).
    over_limit: bool,
}

fn check_one(
    specs: &Specs,
    tools: &[&ToolDescriptor],
    renderer: &dyn Renderer,
    policy: LossPolicy,
) -> CheckLines {
    let mut lines =
        CheckLines { changes: Vec::new(), refusals: Vec::new(), refused: 0, over_limit: false };
    let name = renderer.name().to_owned();
    // Each tool on its own, so that every refusal is listed, then the limits over the set.
    for tool in tools {
        match renderer.render(tool, policy) {
            Ok(r) => lines.changes.extend(r.report().iter().map(|c| (c.to_string(), c.lossy))),
            Err(e) => {
                lines.refused += 1;
                lines.over_limit |= over_limit(&e);
                lines.refusals.push(refusal(specs, &name, &e));
            }
        }
    }
    if let Err(e) = renderer.check_set(tools, policy) {
        lines.refused += 1;
        lines.refusals.push(format!("{name}: {}", e.message));
    }
    lines
}
