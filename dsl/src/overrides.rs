//! Overrides: composable patches of one descriptor ([`Override`]), sets of them keyed by tool
//! ([`Overrides`]), and the executor wrapper that makes dispatch honour what a patch changed
//! ([`OverriddenExecutor`]).
//!
//! Owns patching and call rewriting. It never mutates a registered descriptor (every patch runs
//! on a clone) and never decides which tools exist (that is [`crate::registry`]).
//!
//! Decisions the design leaves open:
//! - **Renames.** A patch that renames a tool moves it: the tool is listed and called under the
//!   new name only, and the old name is no longer a tool. Calls to the new name reach the
//!   registered executor with the call's `name` rewritten back to the registered name, and the
//!   result carries the new name again. Overrides, registrations and removals keep addressing
//!   the *registered* name.
//! - **Namespaces.** A patch that only sets the namespace is a rename like any other:
//!   `set_namespace("mem")` turns `remember` into `mem__remember` (and `old__remember` into
//!   `mem__remember`: the namespace is replaced, never stacked); `clear_namespace` strips it.
//! - **What the model is shown is what dispatch accepts.** Once a patch touches parameters,
//!   every call is checked against the *patched* schema (errors name the model's pointers) and
//!   absent parameters get the *patched* defaults before the registered executor runs. Values
//!   of parameters the registered tool does not take (added by [`Override::add_param`], or a
//!   replacement input schema) are handed on only when the registered tool's input is open
//!   (or a map whose value schema they match); otherwise they are kept back, so a typed
//!   executor never fails on them. Either way [`Override::on_call`] hooks read them in
//!   [`OverrideCall::extra`].
//! - **Narrowing only.** A constraint may narrow what a parameter accepts (an enum, a range, a
//!   string turned enum), never widen it; and a patch may not let the model leave out a
//!   parameter the tool requires unless it supplies the value (a default, or a hidden value).
//!   Both are [`OverrideError`]s when the patch is applied, not argument errors at call time.
//!   Closures ([`Override::edit`]) and replacement schemas are trusted: only the requirement
//!   rule is checked after them.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use indexmap::IndexMap;
use serde_json::{Map, Value};

use crate::descriptor::{NameError, Param, ToolDescriptor, ToolName};
use crate::dispatch::{Validator, apply_defaults};
use crate::json_schema;
use crate::literal::{Literal, Text};
use crate::schema::{Additional, EnumSchema, EnumValues, Schema, SchemaKind, SchemaRef};
use crate::tool::{Arguments, BoxFuture, Executor, Tool, ToolCall, ToolError, ToolResult};
use crate::validate::DescriptorError;

/// Why a patch could not be applied to a tool. Every variant names the tool.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum OverrideError {
    /// The patch names a parameter the tool does not have.
    #[error("override of tool `{tool}`: it has no parameter `{param}`")]
    UnknownParam {
        /// The tool.
        tool: String,
        /// The parameter.
        param: String,
    },
    /// Narrowing an enum listed values the parameter does not accept (that would widen it).
    #[error(
        "override of tool `{tool}`: parameter `{param}` does not accept {}; an override may narrow an enum, never widen it",
        quote_list(.values)
    )]
    WidensEnum {
        /// The tool.
        tool: String,
        /// The parameter.
        param: String,
        /// The values that are not among the parameter's values.
        values: Vec<String>,
    },
    /// A range that lets through values the parameter does not accept (that would widen it).
    #[error(
        "override of tool `{tool}`: parameter `{param}` must be {limit}; an override may narrow a range, never widen it"
    )]
    WidensRange {
        /// The tool.
        tool: String,
        /// The parameter.
        param: String,
        /// The bound the new range crosses, as a phrase (`at least 1`, `less than 10`).
        limit: String,
    },
    /// The patched schema lets the model leave out a parameter the tool requires, and the patch
    /// supplies no value for it (no default, not hidden).
    #[error(
        "override of tool `{tool}`: the tool requires parameter `{param}`, but the patched schema lets the model leave it out; keep it required, give it a default or hide it with a value"
    )]
    DropsRequired {
        /// The tool.
        tool: String,
        /// The parameter (its registered name).
        param: String,
    },
    /// An added parameter takes the registered name of a hidden or renamed one, so the two
    /// would reach the executor as one.
    #[error(
        "override of tool `{tool}`: cannot add parameter `{param}`: the tool already takes it, hidden or under another name"
    )]
    ParamTaken {
        /// The tool.
        tool: String,
        /// The parameter.
        param: String,
    },
    /// A constraint that does not apply to the parameter's kind.
    #[error(
        "override of tool `{tool}`: {what} does not apply to parameter `{param}` of type {kind}"
    )]
    NotApplicable {
        /// The tool.
        tool: String,
        /// The parameter (or `output` for the output schema).
        param: String,
        /// The constraint.
        what: &'static str,
        /// The schema kind of the parameter.
        kind: &'static str,
    },
    /// A new name or namespace breaks the name rule.
    #[error("override of tool `{tool}`: {source}")]
    Name {
        /// The tool.
        tool: String,
        /// What is wrong with the new name.
        source: NameError,
    },
    /// The value of a hidden parameter is not one the parameter accepts.
    #[error(
        "override of tool `{tool}`: the value hidden in parameter `{param}` is invalid: {message}"
    )]
    HiddenValue {
        /// The tool.
        tool: String,
        /// The parameter.
        param: String,
        /// Why the value is rejected.
        message: String,
    },
    /// A replacement input schema could not be imported.
    #[error("override of tool `{tool}`: the replacement input schema is invalid: {message}")]
    InputSchema {
        /// The tool.
        tool: String,
        /// What the importer rejected (with its JSON pointer).
        message: String,
    },
    /// A closure patch reported an error.
    #[error("override of tool `{tool}`: {message}")]
    Custom {
        /// The tool.
        tool: String,
        /// The closure's message.
        message: String,
    },
    /// The patched descriptor breaks a rule of [`crate::validate`].
    #[error("override of tool `{tool}` produced an invalid descriptor: {source}")]
    Invalid {
        /// The tool (its registered name).
        tool: String,
        /// The broken rule.
        source: DescriptorError,
    },
    /// A rename onto a name another tool already has (reported by the registry).
    #[error("override of tool `{tool}`: cannot rename it to `{name}`, another tool has that name")]
    NameTaken {
        /// The tool (its registered name).
        tool: String,
        /// The name asked for.
        name: String,
    },
}

impl OverrideError {
    /// The (registered) name of the tool the error is about.
    pub fn tool(&self) -> &str {
        match self {
            OverrideError::UnknownParam { tool, .. }
            | OverrideError::WidensEnum { tool, .. }
            | OverrideError::WidensRange { tool, .. }
            | OverrideError::DropsRequired { tool, .. }
            | OverrideError::ParamTaken { tool, .. }
            | OverrideError::NotApplicable { tool, .. }
            | OverrideError::Name { tool, .. }
            | OverrideError::HiddenValue { tool, .. }
            | OverrideError::InputSchema { tool, .. }
            | OverrideError::Custom { tool, .. }
            | OverrideError::Invalid { tool, .. }
            | OverrideError::NameTaken { tool, .. } => tool,
        }
    }
}

fn quote_list(values: &[String]) -> String {
    values.iter().map(|v| format!("`{v}`")).collect::<Vec<_>>().join(", ")
}

/// A change to one parameter, used with [`Override::constrain`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Constraint {
    /// Only these values: narrows an enum (every value must already be accepted) or turns a
    /// string parameter into an enum. The enum keeps its order and value descriptions.
    OneOf(Vec<Text>),
    /// Inclusive integer bounds (`None` leaves that side as it is); integer or number parameters.
    Range {
        /// Lower bound.
        min: Option<i64>,
        /// Upper bound.
        max: Option<i64>,
    },
    /// Inclusive fractional bounds (`None` leaves that side as it is); number parameters only.
    RangeF64 {
        /// Lower bound.
        min: Option<f64>,
        /// Upper bound.
        max: Option<f64>,
    },
    /// The key must be present.
    Required,
    /// The key may be absent.
    Optional,
    /// The value used when the key is absent; like [`Param::default`], the key becomes optional.
    Default(Literal),
}

impl Constraint {
    /// Only the given values (see [`Constraint::OneOf`]).
    pub fn one_of<S: Into<Text>>(values: impl IntoIterator<Item = S>) -> Self {
        Constraint::OneOf(values.into_iter().map(Into::into).collect())
    }

    /// Inclusive integer bounds.
    pub fn range(min: i64, max: i64) -> Self {
        Constraint::Range { min: Some(min), max: Some(max) }
    }

    /// Inclusive fractional bounds (number parameters).
    pub fn range_f64(min: f64, max: f64) -> Self {
        Constraint::RangeF64 { min: Some(min), max: Some(max) }
    }

    /// A default value (the key becomes optional).
    pub fn default(value: impl Into<Literal>) -> Self {
        Constraint::Default(value.into())
    }
}

type EditFn = dyn Fn(&mut ToolDescriptor) -> Result<(), String> + Send + Sync;
type HookFn = dyn Fn(&OverrideCall<'_>) -> Result<(), ToolError> + Send + Sync;

/// An [`Override::on_call`] hook (compared by identity).
#[derive(Clone)]
struct Hook(Arc<HookFn>);

impl fmt::Debug for Hook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Hook(..)")
    }
}

impl PartialEq for Hook {
    fn eq(&self, other: &Hook) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Clone)]
enum Step {
    Description(Text),
    AppendDescription(Text),
    Title(Option<Text>),
    Rename(Text),
    Namespace(Option<Text>),
    AddParam(Param),
    Constrain(Text, Constraint),
    Hide(Text, Value),
    RenameParam(Text, Text),
    InputSchema(Value, json_schema::KeyOrder),
    AugmentOutput(Schema),
    Edit(Arc<EditFn>),
    OnCall(Hook),
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Description(t) => f.debug_tuple("Description").field(t).finish(),
            Step::AppendDescription(t) => f.debug_tuple("AppendDescription").field(t).finish(),
            Step::Title(t) => f.debug_tuple("Title").field(t).finish(),
            Step::Rename(t) => f.debug_tuple("Rename").field(t).finish(),
            Step::Namespace(t) => f.debug_tuple("Namespace").field(t).finish(),
            Step::AddParam(p) => f.debug_tuple("AddParam").field(p).finish(),
            Step::Constrain(p, c) => f.debug_tuple("Constrain").field(p).field(c).finish(),
            Step::Hide(p, v) => f.debug_tuple("Hide").field(p).field(v).finish(),
            Step::RenameParam(a, b) => f.debug_tuple("RenameParam").field(a).field(b).finish(),
            Step::InputSchema(v, _) => f.debug_tuple("InputSchema").field(v).finish(),
            Step::AugmentOutput(s) => f.debug_tuple("AugmentOutput").field(s).finish(),
            Step::Edit(_) => f.write_str("Edit(..)"),
            Step::OnCall(_) => f.write_str("OnCall(..)"),
        }
    }
}

/// A composable patch of one descriptor.
///
/// Build one with a constructor, chain more with [`then`](Override::then); steps run in order
/// on a clone of the descriptor, and the result is re-validated with
/// [`ToolDescriptor::validate`].
///
/// ```
/// use tooldef::{Override, Constraint, ToolDescriptor, Param};
///
/// let base = ToolDescriptor::builder("remember")
///     .description("Store a fact.")
///     .param(Param::string("category"))
///     .build()
///     .unwrap();
/// let patch = Override::append_description(" Health facts only.")
///     .then(Override::constrain("category", Constraint::one_of(["memory:health"])));
/// let patched = patch.apply(&base).unwrap();
/// assert_eq!(patched.description, "Store a fact. Health facts only.");
/// assert_eq!(base.description, "Store a fact.");
/// ```
#[derive(Clone, Debug, Default)]
#[must_use = "an override does nothing until it is applied"]
pub struct Override {
    steps: Vec<Step>,
}

impl Override {
    fn one(step: Step) -> Self {
        Override { steps: vec![step] }
    }

    /// A patch that changes nothing.
    pub fn identity() -> Self {
        Override::default()
    }

    /// Runs `next` after this patch.
    pub fn then(mut self, next: Override) -> Self {
        self.steps.extend(next.steps);
        self
    }

    /// Whether the patch has no steps.
    pub fn is_identity(&self) -> bool {
        self.steps.is_empty()
    }

    /// Replaces the description.
    pub fn description(text: impl Into<Text>) -> Self {
        Override::one(Step::Description(text.into()))
    }

    /// Appends to the description (verbatim: include any separator you want).
    pub fn append_description(text: impl Into<Text>) -> Self {
        Override::one(Step::AppendDescription(text.into()))
    }

    /// Sets the title.
    pub fn title(text: impl Into<Text>) -> Self {
        Override::one(Step::Title(Some(text.into())))
    }

    /// Removes the title.
    pub fn clear_title() -> Self {
        Override::one(Step::Title(None))
    }

    /// Renames the tool (see the module docs for what happens to the old name).
    pub fn rename(name: impl Into<Text>) -> Self {
        Override::one(Step::Rename(name.into()))
    }

    /// Sets the namespace, replacing any existing one: `remember` becomes `ns__remember`.
    pub fn set_namespace(namespace: impl Into<Text>) -> Self {
        Override::one(Step::Namespace(Some(namespace.into())))
    }

    /// Removes the namespace: `ns__remember` becomes `remember`.
    pub fn clear_namespace() -> Self {
        Override::one(Step::Namespace(None))
    }

    /// Adds a parameter at the end (a name the tool already has fails validation).
    pub fn add_param(param: Param) -> Self {
        Override::one(Step::AddParam(param))
    }

    /// Changes one parameter (see [`Constraint`]).
    pub fn constrain(param: impl Into<Text>, constraint: Constraint) -> Self {
        Override::one(Step::Constrain(param.into(), constraint))
    }

    /// Removes a parameter from what the model sees and injects `value` for it at call time.
    /// The value must be one the parameter accepts; a call that sends the parameter anyway is
    /// rejected with an error result.
    pub fn hide(param: impl Into<Text>, value: impl Into<Value>) -> Self {
        Override::one(Step::Hide(param.into(), value.into()))
    }

    /// Renames a parameter; calls are mapped back to the registered name before execution.
    pub fn rename_param(from: impl Into<Text>, to: impl Into<Text>) -> Self {
        Override::one(Step::RenameParam(from.into(), to.into()))
    }

    /// Replaces the input schema (parameters, additional properties, and definitions of the
    /// same name) with raw JSON Schema, imported by [`crate::json_schema::import_input`]; what
    /// the import cannot express is an error naming its JSON pointer, and dropped annotation
    /// keywords are logged. Hidden and renamed parameters of earlier steps stay in effect.
    ///
    /// A `Value` keeps its keys in order only under serde_json's `preserve_order` feature, so
    /// the parameters come in `Map` order (sorted, by default); to keep the order the schema
    /// was written in, use [`Override::input_schema_text`].
    pub fn input_schema(schema: Value) -> Self {
        Override::one(Step::InputSchema(schema, json_schema::KeyOrder::default()))
    }

    /// As [`Override::input_schema`], from JSON Schema text: the parameters keep the order the
    /// text lists them in.
    ///
    /// ```
    /// use tooldef::{Override, ToolDescriptor};
    ///
    /// let patch = Override::input_schema_text(
    ///     r#"{"type": "object", "properties": {"zone": {"type": "string"}, "city": {"type": "string"}}}"#,
    /// )
    /// .unwrap();
    /// let d = patch.apply(&ToolDescriptor::new("lookup")).unwrap();
    /// let names: Vec<&str> = d.params.iter().map(|p| p.name.as_ref()).collect();
    /// assert_eq!(names, ["zone", "city"]);
    /// ```
    ///
    /// # Errors
    ///
    /// serde_json's error (with line and column) for text that is not JSON.
    pub fn input_schema_text(schema: &str) -> Result<Self, serde_json::Error> {
        let (value, order) = json_schema::KeyOrder::parse(schema.as_bytes())?;
        Ok(Override::one(Step::InputSchema(value, order)))
    }

    /// Augments the output schema: sets it when the tool has none; when both are objects, adds
    /// the new properties (replacing those of the same name) and takes the new description if it
    /// has one; any other combination is an error.
    pub fn augment_output(schema: Schema) -> Self {
        Override::one(Step::AugmentOutput(schema))
    }

    /// Runs an arbitrary edit. Renames of the tool made here are honoured by dispatch; renames of
    /// parameters are not (use [`Override::rename_param`]).
    pub fn edit(f: impl Fn(&mut ToolDescriptor) + Send + Sync + 'static) -> Self {
        Override::one(Step::Edit(Arc::new(move |d: &mut ToolDescriptor| {
            f(d);
            Ok(())
        })))
    }

    /// Runs an arbitrary edit that may fail; its message becomes [`OverrideError::Custom`].
    pub fn try_edit(
        f: impl Fn(&mut ToolDescriptor) -> Result<(), String> + Send + Sync + 'static,
    ) -> Self {
        Override::one(Step::Edit(Arc::new(f)))
    }

    /// Runs `hook` on every call, after the arguments are checked against the patched schema
    /// and defaults are filled, before the registered executor runs. The hook reads what the
    /// model sent ([`OverrideCall::arguments`]), including the values of parameters the
    /// registered tool does not take ([`OverrideCall::extra`]: what [`Override::add_param`]
    /// adds, for the consumer code that reads it). An `Err` answers the call with an error
    /// result carrying its message, and the executor is not called. Hooks run in the order
    /// they were added.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use serde_json::{Value, json};
    /// use tooldef::dispatch::{DynamicTool, block_on};
    /// use tooldef::{Executor, Override, Param, ToolCall, ToolDescriptor};
    ///
    /// let remember = ToolDescriptor::builder("remember").param(Param::string("fact")).build().unwrap();
    /// let tool: Arc<dyn Executor> = Arc::new(DynamicTool::new_sync(remember, |args: Value| Ok(args)));
    /// let tags = Arc::new(Mutex::new(Vec::new()));
    /// let seen = Arc::clone(&tags);
    /// let patched = Override::add_param(Param::string("tag").optional())
    ///     .then(Override::on_call(move |call| {
    ///         if let Some(tag) = call.extra().get("tag") {
    ///             seen.lock().unwrap().push(tag.clone());
    ///         }
    ///         Ok(())
    ///     }))
    ///     .wrap(tool)
    ///     .unwrap();
    ///
    /// let call = ToolCall::new("1", "remember", json!({"fact": "likes tea", "tag": "food"}));
    /// let result = block_on(patched.execute(&call));
    /// // The registered tool (closed, without `tag`) gets only what it takes.
    /// assert_eq!(result.structured, Some(json!({"fact": "likes tea"})));
    /// assert_eq!(*tags.lock().unwrap(), [json!("food")]);
    /// ```
    pub fn on_call(
        hook: impl Fn(&OverrideCall<'_>) -> Result<(), ToolError> + Send + Sync + 'static,
    ) -> Self {
        Override::one(Step::OnCall(Hook(Arc::new(hook))))
    }

    /// Applies the patch to a clone of `descriptor` and validates the result.
    ///
    /// # Errors
    ///
    /// The first step that cannot apply, or the rule the result breaks.
    pub fn apply(&self, descriptor: &ToolDescriptor) -> Result<ToolDescriptor, OverrideError> {
        Ok(self.apply_patched(Patched::new(descriptor))?.descriptor)
    }

    /// Wraps an executor so that it exposes the patched descriptor and rewrites calls.
    ///
    /// # Errors
    ///
    /// As [`Override::apply`].
    pub fn wrap(&self, executor: Arc<dyn Executor>) -> Result<OverriddenExecutor, OverrideError> {
        let patched = self.apply_patched(Patched::new(executor.descriptor()))?;
        Ok(OverriddenExecutor::from_patched(executor, patched))
    }

    pub(crate) fn apply_patched(&self, mut p: Patched) -> Result<Patched, OverrideError> {
        for step in &self.steps {
            p.step(step)?;
        }
        p.descriptor.validate().map_err(|source| OverrideError::Invalid {
            tool: p.calls.registered.to_string(),
            source,
        })?;
        p.check_required()?;
        Ok(p)
    }
}

/// What dispatch must undo at call time: the registered name, hidden values, renamed parameters.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CallMap {
    /// The name the executor was registered under.
    pub(crate) registered: ToolName,
    /// Hidden parameters (registered names) and their injected values, in order.
    hidden: IndexMap<String, Value>,
    /// Renamed parameters: the name the model sends, then the registered name.
    renamed: IndexMap<String, String>,
    /// Names the model may no longer send: hidden parameters and old names of renamed ones.
    retired: Vec<String>,
    /// Whether parameters changed, so arguments must be checked, completed and rewritten here.
    check: bool,
    /// The registered tool's required parameters (registered names), which the patch must
    /// keep required or give a value.
    required: Vec<String>,
    /// [`Override::on_call`] hooks, in order.
    hooks: Vec<Hook>,
}

impl CallMap {
    fn retire(&mut self, name: &str) {
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
    fn rewrites_arguments(&self) -> bool {
        self.calls.check
    }

    /// Every parameter the registered tool requires is still required, has a default or is
    /// hidden (see the module docs).
    fn check_required(&self) -> Result<(), OverrideError> {
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
                return Err(OverrideError::DropsRequired {
                    tool: self.tool(),
                    param: registered.clone(),
                });
            }
        }
        Ok(())
    }

    fn tool(&self) -> String {
        self.calls.registered.to_string()
    }

    fn param_mut(&mut self, name: &str) -> Result<&mut Param, OverrideError> {
        let tool = self.tool();
        self.descriptor
            .param_mut(name)
            .ok_or_else(|| OverrideError::UnknownParam { tool, param: name.to_owned() })
    }

    fn step(&mut self, step: &Step) -> Result<(), OverrideError> {
        let tool = self.tool();
        let d = &mut self.descriptor;
        match step {
            Step::Description(t) => d.description = t.clone(),
            Step::AppendDescription(t) => d.description.to_mut().push_str(t),
            Step::Title(t) => d.title = t.clone(),
            Step::Rename(n) => {
                d.name = ToolName::parse(n.clone())
                    .map_err(|source| OverrideError::Name { tool: tool.clone(), source })?;
            }
            Step::Namespace(ns) => {
                d.name = d
                    .name
                    .with_namespace(ns.as_deref())
                    .map_err(|source| OverrideError::Name { tool: tool.clone(), source })?;
            }
            Step::AddParam(p) => {
                let name = p.name();
                if self.calls.hidden.contains_key(name)
                    || self.calls.renamed.values().any(|r| r == name)
                {
                    return Err(OverrideError::ParamTaken { tool, param: name.to_owned() });
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
                    OverrideError::InputSchema { tool: tool.clone(), message: e.to_string() }
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
                f(d).map_err(|message| OverrideError::Custom { tool: tool.clone(), message })?;
                self.calls.check = true;
            }
            Step::OnCall(hook) => {
                self.calls.hooks.push(hook.clone());
                self.calls.check = true;
            }
        }
        Ok(())
    }

    fn hide(&mut self, name: &str, value: &Value) -> Result<(), OverrideError> {
        let tool = self.tool();
        let bad = |message: String| OverrideError::HiddenValue {
            tool: tool.clone(),
            param: name.to_owned(),
            message,
        };
        let literal = Literal::from_json(value).map_err(|e| bad(e.to_string()))?;
        // Check the value with the validator's default rule: a clone with the value as default.
        let mut probe = self.descriptor.clone();
        let param = probe.param_mut(name).ok_or_else(|| OverrideError::UnknownParam {
            tool: tool.clone(),
            param: name.into(),
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

fn constrain(tool: &str, param: &mut Param, c: &Constraint) -> Result<(), OverrideError> {
    let not_applicable = |what: &'static str, kind: &'static str| OverrideError::NotApplicable {
        tool: tool.to_owned(),
        param: param.name.to_string(),
        what,
        kind,
    };
    match c {
        Constraint::Required => param.required = true,
        Constraint::Optional => param.required = false,
        Constraint::Default(v) => {
            param.schema.default = Some(v.clone());
            param.required = false;
        }
        Constraint::OneOf(values) => match &param.schema.kind {
            SchemaKind::Enum(e) => {
                let widening: Vec<String> = values
                    .iter()
                    .filter(|v| !e.values.contains(v))
                    .map(|v| v.to_string())
                    .collect();
                if !widening.is_empty() {
                    return Err(OverrideError::WidensEnum {
                        tool: tool.to_owned(),
                        param: param.name.to_string(),
                        values: widening,
                    });
                }
                let narrowed = e.values.retain(|v| values.iter().any(|k| k == v));
                param.schema.kind = SchemaKind::Enum(EnumSchema { values: narrowed });
            }
            SchemaKind::String(_) => {
                // Every value must be one the string accepts (lengths, pattern).
                let validator = Validator::new();
                let refused: Vec<String> = values
                    .iter()
                    .filter(|v| {
                        let value = Value::String(v.to_string());
                        validator.check_value(&param.schema, &[], &value, "").is_err()
                    })
                    .map(|v| v.to_string())
                    .collect();
                if !refused.is_empty() {
                    return Err(OverrideError::WidensEnum {
                        tool: tool.to_owned(),
                        param: param.name.to_string(),
                        values: refused,
                    });
                }
                let values: EnumValues = values
                    .iter()
                    .map(|v| crate::schema::EnumValue { value: v.clone(), description: None })
                    .collect();
                param.schema.kind = SchemaKind::Enum(EnumSchema { values });
            }
            other => return Err(not_applicable("`one_of`", other.type_name())),
        },
        Constraint::Range { min, max } => {
            let name = param.name.to_string();
            match &mut param.schema.kind {
                SchemaKind::Integer(n) => narrow(tool, &name, n, *min, *max)?,
                SchemaKind::Float(n) => {
                    narrow(tool, &name, n, min.map(|v| v as f64), max.map(|v| v as f64))?;
                }
                other => return Err(not_applicable("a range", other.type_name())),
            }
        }
        Constraint::RangeF64 { min, max } => {
            let name = param.name.to_string();
            match &mut param.schema.kind {
                SchemaKind::Float(n) => narrow(tool, &name, n, *min, *max)?,
                other => return Err(not_applicable("a fractional range", other.type_name())),
            }
        }
    }
    Ok(())
}

/// Sets the given inclusive bounds of a number, refusing any that would let through a value
/// the current bounds refuse.
fn narrow<T: Copy + PartialOrd + fmt::Display>(
    tool: &str,
    param: &str,
    n: &mut crate::schema::NumberSchema<T>,
    min: Option<T>,
    max: Option<T>,
) -> Result<(), OverrideError> {
    let widens = |limit: String| OverrideError::WidensRange {
        tool: tool.to_owned(),
        param: param.to_owned(),
        limit,
    };
    if let Some(m) = min {
        if let Some(lo) = n.minimum.filter(|lo| m < *lo) {
            return Err(widens(format!("at least {lo}")));
        }
        if let Some(lo) = n.exclusive_minimum.filter(|lo| m <= *lo) {
            return Err(widens(format!("greater than {lo}")));
        }
        n.minimum = Some(m);
    }
    if let Some(m) = max {
        if let Some(hi) = n.maximum.filter(|hi| m > *hi) {
            return Err(widens(format!("at most {hi}")));
        }
        if let Some(hi) = n.exclusive_maximum.filter(|hi| m >= *hi) {
            return Err(widens(format!("less than {hi}")));
        }
        n.maximum = Some(m);
    }
    Ok(())
}

fn augment_output(
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
        (have, _) => Err(OverrideError::NotApplicable {
            tool: tool.to_owned(),
            param: "output".to_owned(),
            what: "augmenting with an object",
            kind: have.type_name(),
        }),
    }
}

/// An executor behind an override: exposes the patched descriptor and rewrites each call (tool
/// name, renamed and hidden parameters, defaults, values the registered tool does not take)
/// before handing it to the registered executor, which is never changed.
#[derive(Clone)]
pub struct OverriddenExecutor {
    inner: Arc<dyn Executor>,
    patched: Patched,
    validator: Arc<Validator>,
}

impl fmt::Debug for OverriddenExecutor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OverriddenExecutor")
            .field("descriptor", &self.patched.descriptor)
            .field("calls", &self.patched.calls)
            .finish_non_exhaustive()
    }
}

/// A call as an [`Override::on_call`] hook sees it: what the model sent, checked against the
/// patched schema and completed with its defaults, and what the registered executor receives.
#[derive(Debug)]
pub struct OverrideCall<'a> {
    call: &'a ToolCall,
    arguments: &'a Map<String, Value>,
    extra: &'a Map<String, Value>,
    forwarded: &'a ToolCall,
}

impl<'a> OverrideCall<'a> {
    /// The call as the model sent it (the tool's patched name, the arguments as received).
    pub fn call(&self) -> &'a ToolCall {
        self.call
    }

    /// The arguments under the names the model sees, checked against the patched schema, with
    /// the patched defaults filled in (hidden parameters are not among them).
    pub fn arguments(&self) -> &'a Map<String, Value> {
        self.arguments
    }

    /// One argument of [`arguments`](Self::arguments), by the name the model sees.
    pub fn argument(&self, name: &str) -> Option<&'a Value> {
        self.arguments.get(name)
    }

    /// The values of keys the registered tool has no parameter for: parameters added by
    /// [`Override::add_param`] (keyed by the name they were added under), and other keys the
    /// patched schema accepts. They are here whether or not they were also handed on (they are
    /// when the tool's input is open, or a map whose value schema they match).
    pub fn extra(&self) -> &'a Map<String, Value> {
        self.extra
    }

    /// The call the registered executor receives: its registered name, registered parameter
    /// names, hidden values injected.
    pub fn forwarded(&self) -> &'a ToolCall {
        self.forwarded
    }
}

/// A call rewritten for the registered executor.
struct Prepared {
    forwarded: ToolCall,
    /// The model's arguments, checked and completed (kept only when hooks read them).
    arguments: Map<String, Value>,
    /// Values of keys the registered executor has no parameter for.
    extra: Map<String, Value>,
}

impl OverriddenExecutor {
    pub(crate) fn from_patched(inner: Arc<dyn Executor>, patched: Patched) -> Self {
        OverriddenExecutor { inner, patched, validator: Arc::new(Validator::new()) }
    }

    /// The registered executor this one delegates to.
    pub fn inner(&self) -> &Arc<dyn Executor> {
        &self.inner
    }

    /// The registered (unpatched) descriptor.
    pub fn original(&self) -> &ToolDescriptor {
        self.inner.descriptor()
    }

    /// Rewrites a call into what the registered executor expects; `Err` is the message of an
    /// error result for the model.
    fn prepare(&self, call: &ToolCall) -> Result<Prepared, String> {
        let calls = &self.patched.calls;
        let mut prepared = Prepared {
            forwarded: ToolCall {
                id: call.id.clone(),
                name: calls.registered.to_string(),
                arguments: call.arguments.clone(),
            },
            arguments: Map::new(),
            extra: Map::new(),
        };
        if !self.patched.rewrites_arguments() {
            return Ok(prepared);
        }
        let descriptor = &self.patched.descriptor;
        let tool = &descriptor.name;
        let mut value = match &call.arguments {
            Arguments::Json(Value::Null) => Value::Object(Map::new()),
            Arguments::Json(v) => v.clone(),
            Arguments::Text(t) if t.trim().is_empty() => Value::Object(Map::new()),
            Arguments::Text(t) => serde_json::from_str(t)
                .map_err(|e| format!("the arguments of `{tool}` are not valid JSON: {e}"))?,
        };
        let not_object = |v: &Value| {
            format!("the arguments of `{tool}` must be a JSON object; got {}", json_type(v))
        };
        let Value::Object(args) = &value else { return Err(not_object(&value)) };
        for key in args.keys() {
            if descriptor.param(key).is_none() && calls.retired.iter().any(|r| r == key) {
                return Err(format!(
                    "{} is not a parameter of `{tool}`; remove it and call again",
                    pointer(key)
                ));
            }
        }
        self.validator.check_args(descriptor, &value).map_err(|e| e.to_string())?;
        apply_defaults(descriptor, &mut value);
        let Value::Object(args) = value else { return Err(not_object(&value)) };
        if !calls.hooks.is_empty() {
            prepared.arguments = args.clone();
        }
        let mut forwarded = Map::new();
        for (key, value) in args {
            let key = calls.renamed.get(&key).cloned().unwrap_or(key);
            self.route(key, value, &mut forwarded, &mut prepared.extra);
        }
        for (key, value) in &calls.hidden {
            self.route(key.clone(), value.clone(), &mut forwarded, &mut prepared.extra);
        }
        prepared.forwarded.arguments = Arguments::Json(Value::Object(forwarded));
        Ok(prepared)
    }

    /// Puts one argument (by its registered name) where it belongs: with the extras when the
    /// registered tool has no such parameter, and in the forwarded call when the tool takes it
    /// (a parameter, or a key its open input or map accepts).
    fn route(
        &self,
        key: String,
        value: Value,
        forwarded: &mut Map<String, Value>,
        extra: &mut Map<String, Value>,
    ) {
        let original = self.inner.descriptor();
        if original.param(&key).is_some() {
            forwarded.insert(key, value);
            return;
        }
        let takes = match &original.additional {
            Additional::Open => true,
            Additional::Typed(schema) => {
                self.validator.check_value(schema, &original.definitions, &value, "").is_ok()
            }
            Additional::Closed => false,
        };
        if takes {
            extra.insert(key.clone(), value.clone());
            forwarded.insert(key, value);
        } else {
            extra.insert(key, value);
        }
    }

    /// Runs the hooks; the first refusal is the message of the error result.
    fn run_hooks(&self, call: &ToolCall, prepared: &Prepared) -> Result<(), ToolError> {
        let seen = OverrideCall {
            call,
            arguments: &prepared.arguments,
            extra: &prepared.extra,
            forwarded: &prepared.forwarded,
        };
        self.patched.calls.hooks.iter().try_for_each(|hook| (hook.0)(&seen))
    }
}

impl Executor for OverriddenExecutor {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.patched.descriptor
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let mut result = match self.prepare(call) {
                Ok(prepared) => match self.run_hooks(call, &prepared) {
                    Ok(()) => self.inner.execute(&prepared.forwarded).await,
                    Err(refused) => ToolResult::error(call, refused.message()),
                },
                Err(message) => ToolResult::error(call, message),
            };
            result.name = call.name.clone();
            result.call_id = call.id.clone();
            result
        })
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The JSON pointer of a top-level argument.
fn pointer(key: &str) -> String {
    format!("/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// A set of overrides keyed by tool: by name (tolerant of absent tools) or by [`Tool`] type
/// (a typo is a compile error). Overrides of one tool compose in the order they were added.
///
/// Keys are *registered* names: an override of a tool that another override renames still uses
/// the registered name.
#[derive(Clone, Debug, Default)]
#[must_use = "overrides do nothing until they are applied"]
pub struct Overrides {
    entries: Vec<(String, Override)>,
}

impl Overrides {
    /// An empty set.
    pub fn new() -> Self {
        Overrides::default()
    }

    /// Adds an override of the tool registered as `name`.
    pub fn for_name(mut self, name: impl Into<String>, patch: Override) -> Self {
        self.push(name, patch);
        self
    }

    /// Adds an override of the tool `T` (keyed by `T::NAME`).
    pub fn for_tool<T: Tool>(self, patch: Override) -> Self {
        self.for_name(T::NAME, patch)
    }

    /// Adds an override of the tool registered as `name`, in place.
    pub fn push(&mut self, name: impl Into<String>, patch: Override) {
        self.entries.push((name.into(), patch));
    }

    /// Appends every entry of `other` after this set's entries.
    pub fn extend(&mut self, other: Overrides) {
        self.entries.extend(other.entries);
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The tool names that have overrides, each once, in first-added order.
    pub fn names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for (name, _) in &self.entries {
            if !out.contains(&name.as_str()) {
                out.push(name);
            }
        }
        out
    }

    /// The overrides of the tool registered as `name`, in order.
    pub fn patches_for<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Override> + 'a {
        self.entries.iter().filter(move |(n, _)| n == name).map(|(_, o)| o)
    }

    /// Applies the overrides of `name` to `p` in order, validating after each.
    pub(crate) fn patch(&self, name: &str, mut p: Patched) -> Result<Patched, OverrideError> {
        for o in self.patches_for(name) {
            p = o.apply_patched(p)?;
        }
        Ok(p)
    }

    /// Applies the set to a list of executors (for use without a registry, e.g. before building
    /// a toolbox), keeping their order. Each tool gets its overrides in order; tools without
    /// overrides are returned as they are; a tool whose patch fails (or that a rename would give
    /// a name already in the list) is returned unpatched and reported.
    pub fn apply_to(
        &self,
        executors: Vec<Arc<dyn Executor>>,
    ) -> (Vec<Arc<dyn Executor>>, OverrideReport) {
        let mut report = OverrideReport::default();
        let present: Vec<String> =
            executors.iter().map(|e| e.descriptor().name.to_string()).collect();
        // A rename onto any name in the list (or one an earlier rename took) fails.
        let mut taken: Vec<String> = present.clone();
        let mut out = Vec::with_capacity(executors.len());
        for (e, name) in executors.into_iter().zip(&present) {
            if self.patches_for(name).next().is_none() {
                out.push(e);
                continue;
            }
            let patched = self.patch(name, Patched::new(e.descriptor())).and_then(|p| {
                let new = p.descriptor.name.as_str();
                if new != name.as_str() {
                    if taken.iter().any(|t| t == new) {
                        return Err(OverrideError::NameTaken {
                            tool: name.clone(),
                            name: new.to_owned(),
                        });
                    }
                    taken.push(new.to_owned());
                }
                Ok(p)
            });
            match patched {
                Ok(p) => {
                    report.applied.push(name.clone());
                    out.push(Arc::new(OverriddenExecutor::from_patched(e, p)));
                }
                Err(err) => {
                    tracing::warn!(tool = %name, error = %err, "override failed; tool left as registered");
                    report.failed.push(err);
                    out.push(e);
                }
            }
        }
        for name in self.names() {
            if !present.iter().any(|p| p == name) {
                tracing::warn!(tool = %name, "override of an absent tool skipped");
                report.skipped.push(name.to_owned());
            }
        }
        (out, report)
    }
}

/// What applying a set of overrides did.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct OverrideReport {
    /// Tools (registered names) that were patched.
    pub applied: Vec<String>,
    /// Names with overrides but no such tool: skipped with a warning, never an error.
    pub skipped: Vec<String>,
    /// Tools whose patch failed; they stay as registered.
    pub failed: Vec<OverrideError>,
}

impl OverrideReport {
    /// Whether no patch failed.
    pub fn is_ok(&self) -> bool {
        self.failed.is_empty()
    }
}
