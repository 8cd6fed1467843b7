//! Applying a patch: the descriptor being patched and what dispatch must undo at call time.

use std::borrow::Cow;

use indexmap::IndexMap;
use serde_json::Value;

use crate::descriptor::{Param, ToolDescriptor, ToolName};
use crate::json_schema;
use crate::literal::Literal;
use crate::schema::{Schema, SchemaKind, SchemaRef};

use super::constraint::constrain;
use super::error::{OverrideError, OverrideErrorKind};
use super::patch::{Hook, Override, Step};

/// What dispatch must undo at call time: the registered name, hidden values, renamed parameters.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CallMap {
    /// The name the executor was registered under.
    pub(crate) registered: ToolName,
    /// Hidden parameters (registered names) and their injected values, in order.
    pub(super) hidden: IndexMap<String, Value>,
    /// Renamed parameters: the name the model sends, then the registered name.
    pub(super) renamed: IndexMap<String, String>,
    /// Names the model may no longer send: hidden parameters and old names of renamed ones.
    pub(super) retired: Vec<String>,
    /// Whether parameters changed, so arguments must be checked, completed and rewritten here.
    pub(super) check: bool,
    /// The registered tool's required parameters (registered names), which the patch must
    /// keep required or give a value.
    pub(super) required: Vec<String>,
    /// [`Override::on_call`](super::Override::on_call) hooks, in order.
    pub(super) hooks: Vec<Hook>,
}

impl CallMap {
    pub(super) fn retire(&mut self, name: &str) {
        if !self.retired.iter().any(|r| r == name) {
            self.retired.push(name.to_owned());
        }
    }
}

/// A descriptor being patched, with what dispatch must undo.
#[derive(Clone, Debug)]
pub(crate) struct Patched {
    pub(crate) descriptor: ToolDescriptor,
    pub(crate) calls: CallMap,
}

impl Patched {
    pub(crate) fn new(d: &ToolDescriptor) -> Self {
        Patched {
            descriptor: d.clone(),
            calls: CallMap {
                registered: d.name.clone(),
                hidden: IndexMap::new(),
                renamed: IndexMap::new(),
                retired: Vec::new(),
                check: false,
                required: d
                    .params
                    .iter()
                    .filter(|p| p.required)
                    .map(|p| p.name().to_owned())
                    .collect(),
                hooks: Vec::new(),
            },
        }
    }

    /// Whether calls need anything beyond the name rewrite.
    pub(super) fn rewrites_arguments(&self) -> bool {
        self.calls.check
    }

    /// Every parameter the registered tool requires is still required, has a default or is
    /// hidden (see the module docs).
    pub(super) fn check_required(&self) -> Result<(), OverrideError> {
        let calls = &self.calls;
        for registered in &calls.required {
            if calls.hidden.contains_key(registered) {
                continue;
            }
            let shown = calls
                .renamed
                .iter()
                .find(|(_, r)| *r == registered)
                .map_or(registered.as_str(), |(shown, _)| shown.as_str());
            let answered = self
                .descriptor
                .param(shown)
                .is_some_and(|p| p.required || p.schema.default.is_some());
            if !answered {
                return Err(OverrideError::new(
                    self.tool(),
                    OverrideErrorKind::DropsRequired { param: registered.clone() },
                ));
            }
        }
        Ok(())
    }

    pub(super) fn tool(&self) -> String {
        self.calls.registered.to_string()
    }

    pub(super) fn param_mut(&mut self, name: &str) -> Result<&mut Param, OverrideError> {
        let tool = self.tool();
        self.descriptor.param_mut(name).ok_or_else(|| {
            OverrideError::new(tool, OverrideErrorKind::UnknownParam { param: name.to_owned() })
        })
    }

    pub(super) fn step(&mut self, step: &Step) -> Result<(), OverrideError> {
        let tool = self.tool();
        let d = &mut self.descriptor;
        match step {
            Step::Description(t) => d.description = t.clone(),
            Step::AppendDescription(t) => d.description.to_mut().push_str(t),
            Step::Title(t) => d.title = t.clone(),
            Step::Rename(n) => {
                d.name = ToolName::parse(n.clone()).map_err(|source| {
                    OverrideError::new(tool.clone(), OverrideErrorKind::Name { source })
                })?;
            }
            Step::Namespace(ns) => {
                d.name = d.name.with_namespace(ns.as_deref()).map_err(|source| {
                    OverrideError::new(tool.clone(), OverrideErrorKind::Name { source })
                })?;
            }
            Step::AddParam(p) => {
                let name = p.name();
                if self.calls.hidden.contains_key(name)
                    || self.calls.renamed.values().any(|r| r == name)
                {
                    return Err(OverrideError::new(
                        tool,
                        OverrideErrorKind::ParamTaken { param: name.to_owned() },
                    ));
                }
                d.params.to_mut().push(p.clone());
                self.calls.check = true;
            }
            Step::Constrain(name, c) => {
                constrain(&tool, self.param_mut(name)?, c)?;
                self.calls.check = true;
            }
            Step::Hide(name, value) => self.hide(name, value)?,
            Step::RenameParam(from, to) => {
                self.param_mut(from)?.name = to.clone();
                let registered = self
                    .calls
                    .renamed
                    .shift_remove(from.as_ref())
                    .unwrap_or_else(|| from.to_string());
                if registered != to.as_ref() {
                    self.calls.renamed.insert(to.to_string(), registered.clone());
                }
                self.calls.retire(from);
                self.calls.retire(&registered);
                self.calls.check = true;
            }
            Step::InputSchema(raw, order) => {
                let imported = json_schema::import_input_ordered(raw, order).map_err(|e| {
                    OverrideError::new(
                        tool.clone(),
                        OverrideErrorKind::InputSchema { message: e.to_string() },
                    )
                })?;
                for note in &imported.notes {
                    tracing::warn!(tool = %tool, %note, "replacement input schema: keyword dropped");
                }
                let input = imported.value;
                d.params = Cow::Owned(input.params);
                d.additional = input.additional;
                // Definitions of the same name are replaced; the others stay, since the output
                // schema may point at them.
                let defs = d.definitions.to_mut();
                for def in input.definitions {
                    match defs.iter_mut().find(|x| x.name == def.name) {
                        Some(slot) => *slot = def,
                        None => defs.push(def),
                    }
                }
                self.calls.check = true;
            }
            Step::AugmentOutput(add) => {
                augment_output(&tool, &mut d.output, add)?;
            }
            Step::Edit(f) => {
                f(d).map_err(|message| {
                    OverrideError::new(tool.clone(), OverrideErrorKind::Custom { message })
                })?;
                self.calls.check = true;
            }
            Step::OnCall(hook) => {
                self.calls.hooks.push(hook.clone());
                self.calls.check = true;
            }
        }
        Ok(())
    }

    pub(super) fn hide(&mut self, name: &str, value: &Value) -> Result<(), OverrideError> {
        let tool = self.tool();
        let bad = |message: String| {
            OverrideError::new(
                tool.clone(),
                OverrideErrorKind::HiddenValue { param: name.to_owned(), message },
            )
        };
        let literal = Literal::from_json(value).map_err(|e| bad(e.to_string()))?;
        // Check the value with the validator's default rule: a clone with the value as default.
        let mut probe = self.descriptor.clone();
        let param = probe.param_mut(name).ok_or_else(|| {
            OverrideError::new(tool.clone(), OverrideErrorKind::UnknownParam { param: name.into() })
        })?;
        param.schema.default = Some(literal);
        probe.validate().map_err(|e| bad(e.message))?;
        self.descriptor.params.to_mut().retain(|p| p.name != name);
        let registered = self.calls.renamed.shift_remove(name).unwrap_or_else(|| name.to_owned());
        self.calls.retire(name);
        self.calls.retire(&registered);
        self.calls.hidden.insert(registered, value.clone());
        self.calls.check = true;
        Ok(())
    }
}

pub(super) fn augment_output(
    tool: &str,
    output: &mut Option<SchemaRef>,
    add: &Schema,
) -> Result<(), OverrideError> {
    let Some(existing) = output else {
        *output = Some(SchemaRef::new(add.clone()));
        return Ok(());
    };
    let target = existing.make_mut();
    match (&mut target.kind, &add.kind) {
        (SchemaKind::Object(have), SchemaKind::Object(extra)) => {
            let props = have.properties.to_mut();
            for p in extra.properties.iter() {
                match props.iter_mut().find(|x| x.name == p.name) {
                    Some(slot) => *slot = p.clone(),
                    None => props.push(p.clone()),
                }
            }
            if add.description.is_some() {
                target.description = add.description.clone();
            }
            Ok(())
        }
        (have, _) => Err(OverrideError::new(
            tool.to_owned(),
            OverrideErrorKind::NotApplicable {
                param: "output".to_owned(),
                what: "augmenting with an object",
                kind: have.type_name(),
            },
        )),
    }
}

/// Applying a patch lives beside the descriptor being patched.
impl Override {
    /// Applies the patch to a clone of `descriptor` and validates the result.
    ///
    /// # Errors
    ///
    /// The first step that cannot apply, or the rule the result breaks.
    pub fn apply(&self, descriptor: &ToolDescriptor) -> Result<ToolDescriptor, OverrideError> {
        Ok(self.apply_patched(Patched::new(descriptor))?.descriptor)
    }

    pub(crate) fn apply_patched(&self, mut p: Patched) -> Result<Patched, OverrideError> {
        for step in &self.steps {
            p.step(step)?;
        }
        p.descriptor.validate().map_err(|source| {
            OverrideError::new(
                p.calls.registered.to_string(),
                OverrideErrorKind::Invalid { source },
            )
        })?;
        p.check_required()?;
        Ok(p)
    }
}
