//! The structural rules of a descriptor: [`check`], [`Rule`], [`Violation`] and the run-time
//! [`DescriptorError`] (with [`ToolDescriptor::validate`]).
//!
//! The rules are written once as `const fn` over schema types, in a private module below the
//! descriptor so that the descriptor's `const` builder can call them without this module; this
//! module sits above both and is where users reach them.
//!
//! The same code runs in two places: inside [`ToolDescriptor::params`] (so a `const` descriptor
//! that breaks a rule does not compile, and the compiler prints this module's message) and in
//! [`ToolDescriptor::validate`] (so descriptors built at run time, imported from files or patched
//! by overrides get a [`DescriptorError`]). Owns the rules and their messages; it does not touch
//! JSON, providers or argument values sent by a model (see [`crate::dispatch`]).
//!
//! Rules: parameter names are non-empty and unique within each object; enum values are
//! unique, and there is at least one (the empty string is a value like any other: JSON Schema
//! and every provider take it); every lower bound is at most its upper bound
//! and `multipleOf` is positive; a default or example has the schema's type, lies within its
//! bounds and lengths, is among its enum values, and is `null` only for a nullable schema; a
//! builder method is only used on a kind it applies to; every reference names a definition and
//! definition names are unique. Patterns are compiled only by the run-time
//! [`ToolDescriptor::validate`] (no regex engine in `const`); one that cannot be enforced with
//! ECMA-262's meaning is refused there, and dispatch refuses values against it.

use crate::descriptor::ToolDescriptor;
use crate::literal::Literal;
use crate::rules;
pub use crate::rules::{MAX_DEPTH, Rule, Violation};

/// A descriptor that breaks a rule; the run-time form of [`Violation`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
#[non_exhaustive]
pub struct DescriptorError {
    /// The tool's name.
    pub tool: String,
    /// The dotted path of the parameter at fault; empty for the tool itself.
    pub param: String,
    /// The rule.
    pub rule: Rule,
    /// The whole message, naming tool, parameter and rule.
    pub message: String,
}

impl From<Violation> for DescriptorError {
    fn from(v: Violation) -> Self {
        DescriptorError {
            tool: String::new(),
            param: v.param().to_owned(),
            rule: v.rule(),
            message: v.message().to_owned(),
        }
    }
}

impl ToolDescriptor {
    /// Checks every rule of this module.
    ///
    /// # Errors
    ///
    /// The first broken rule, naming the tool, the parameter path and the rule.
    ///
    /// Runs in time linear in the descriptor: the duplicate checks, pairwise in `const`
    /// (which cannot hash), are done here with hash sets. Patterns are compiled here too
    /// (no regex engine in `const`): one that cannot be enforced is [`Rule::BadPattern`]. When
    /// a descriptor breaks one of these and another rule, the other is reported.
    pub fn validate(&self) -> Result<(), DescriptorError> {
        let (name, params, defs) =
            (self.name.as_str(), rules::slice(&self.params), rules::slice(&self.definitions));
        let pattern =
            |source: &str| crate::arg_checks::compile(source).map(drop).map_err(|e| e.reason);
        // A few definitions are scanned faster than sorted.
        let order = if defs.len() > 16 { rules::name_order(defs) } else { Vec::new() };
        let found = match rules::check_tool_in(
            name,
            params,
            &self.additional,
            defs,
            &self.output,
            false,
            &order,
        ) {
            Ok(()) => {
                rules::run_time_rules(name, params, &self.additional, defs, &self.output, &pattern)
            }
            Err(v) => Err(v),
        };
        found.map_err(|v| DescriptorError { tool: self.name.to_string(), ..v.into() })?;
        self.check_input_examples()
    }

    /// Each input example is an object the input schema accepts ([`Rule::BadInputExample`]).
    fn check_input_examples(&self) -> Result<(), DescriptorError> {
        if self.input_examples.is_empty() {
            return Ok(());
        }
        let input = self.input_schema();
        let order = rules::name_order(&self.definitions);
        let mut steps = usize::MAX;
        for (i, example) in self.input_examples.iter().enumerate() {
            let why = match example {
                Literal::Object(_) => {
                    match rules::literal_fits(
                        &input,
                        example,
                        &self.definitions,
                        &order,
                        &mut steps,
                    ) {
                        Err(rules::Unfit::Rejected(why)) => why,
                        // Past the budget: dispatch still checks every call.
                        _ => continue,
                    }
                }
                other => format!("it is {}, not an object of parameter values", other.type_name()),
            };
            let tool = self.name.to_string();
            return Err(DescriptorError {
                message: format!(
                    "tool `{tool}`: input example {i} is not an input the tool takes: {why}"
                ),
                tool,
                param: String::new(),
                rule: Rule::BadInputExample,
            });
        }
        Ok(())
    }
}

/// Checks a descriptor (usable in `const`).
///
/// # Errors
///
/// The first broken rule.
// `const fn` cannot allocate, so a violation carries its message inline.
#[allow(clippy::result_large_err)]
pub const fn check(d: &ToolDescriptor) -> Result<(), Violation> {
    rules::check_tool(
        d.name.as_str(),
        rules::slice(&d.params),
        &d.additional,
        rules::slice(&d.definitions),
        &d.output,
    )
}
