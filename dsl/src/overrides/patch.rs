//! [`Override`]: a composable patch of one descriptor, as a list of steps.

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::descriptor::{Param, ToolDescriptor};
use crate::json_schema::KeyOrder;
use crate::literal::Text;
use crate::schema::Schema;
use crate::tool::{ToolCall, ToolError};

use super::constraint::Constraint;

pub(super) type EditFn = dyn Fn(&mut ToolDescriptor) -> Result<(), String> + Send + Sync;
pub(super) type HookFn = dyn Fn(&OverrideCall<'_>) -> Result<(), ToolError> + Send + Sync;

/// An [`Override::on_call`] hook (compared by identity).
#[derive(Clone)]
pub(super) struct Hook(pub(super) Arc<HookFn>);

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
pub(super) enum Step {
    Description(Text),
    AppendDescription(Text),
    Title(Option<Text>),
    Rename(Text),
    Namespace(Option<Text>),
    AddParam(Param),
    Constrain(Text, Constraint),
    Hide(Text, Value),
    RenameParam(Text, Text),
    InputSchema(Value, KeyOrder),
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
    pub(super) steps: Vec<Step>,
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
        Override::one(Step::InputSchema(schema, KeyOrder::default()))
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
        let (value, order) = KeyOrder::parse(schema.as_bytes())?;
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

    /// Runs an arbitrary edit that may fail; its message becomes [`OverrideErrorKind::Custom`](super::OverrideErrorKind::Custom).
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
}

/// A call as an [`Override::on_call`] hook sees it: what the model sent, checked against the
/// patched schema and completed with its defaults, and what the registered executor receives.
#[derive(Debug)]
pub struct OverrideCall<'a> {
    pub(super) call: &'a ToolCall,
    pub(super) arguments: &'a Map<String, Value>,
    pub(super) extra: &'a Map<String, Value>,
    pub(super) forwarded: &'a ToolCall,
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
