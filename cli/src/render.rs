//! `tooldef render`: the provider's wire JSON for the tools, as one JSON array on stdout.
//!
//! Owns running the verb: every bad file and refused tool named on stderr, the array printed
//! when every tool renders (or with `--keep-going`, the good ones), `--report`'s changes.

use std::path::PathBuf;

use tooldef::{render_each, render_each_mapped};

use crate::load::{load, over_limit, policy, refusal};
use crate::providers::Provider;
use crate::{Failure, Status, out, warn};

/// Arguments of `tooldef render`.
#[derive(Debug, PartialEq)]
pub(crate) struct RenderArgs {
    pub(crate) provider: Provider,
    pub(crate) strict: bool,
    pub(crate) report: bool,
    pub(crate) pretty: bool,
    /// Write every good tool even when others fail (and still exit non-zero).
    pub(crate) keep_going: bool,
    /// Send names the provider refuses under safe names (`--map-names`).
    pub(crate) map_names: bool,
    /// Spec files and directories; `-` for one spec read from stdin.
    pub(crate) paths: Vec<PathBuf>,
}

/// Runs `tooldef render`.
pub(crate) fn run(a: RenderArgs) -> Result<(), Failure> {
    let loaded = load(&a.paths);
    loaded.print_problems();
    let specs = &loaded.specs;
    let tools = specs.descriptors();
    let renderer = a.provider.renderer(a.strict);
    let name = a.provider.name();
    let each = if a.map_names {
        render_each_mapped(&*renderer, &tools, policy(a.strict)).0
    } else {
        render_each(&*renderer, &tools, policy(a.strict))
    };
    // Every refused tool is named, then a refusal of the set as a whole.
    for e in &each.refused {
        warn(format_args!("error: {}", refusal(specs, name, e)));
    }
    if let Some(e) = &each.set_refused {
        warn(format_args!("error: {name}: {}", e.message));
    }
    let complete = loaded.problems.is_empty() && each.is_complete();
    // A set the provider refuses as a whole has no good subset to print.
    if complete || (a.keep_going && each.set_refused.is_none()) {
        if a.report {
            let report = each.report();
            if report.is_empty() {
                warn(format_args!("{name}: no changes"));
            }
            for change in &report {
                warn(format_args!("{name}: {change}"));
            }
        }
        out(each.json(a.pretty).as_bytes())?;
        if !a.pretty {
            out(b"\n")?;
        }
    }
    if !loaded.problems.is_empty() || each.refused.iter().any(over_limit) {
        return Err(Failure::Reported(Status::BadInput));
    }
    if !complete {
        return Err(Failure::Reported(Status::Refused));
    }
    Ok(())
}
