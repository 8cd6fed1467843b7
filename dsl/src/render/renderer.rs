//! The [`Renderer`] extension point, its output ([`Rendered`], [`RenderedSet`]), the request's
//! tools field ([`tools_json`], [`json_array`]), and [`RenderCtx`], the state of one tool's
//! rendering that a renderer records its changes in.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::json_writer::JsonWriter;
use super::lowering::{Inverse, Pass, Passes, WayBack};
use super::name_map::NameRules;
use super::names::NameRule;
use super::report::{Change, ChangeKind, LossPolicy, RenderError, RenderRule, Report};
use crate::descriptor::ToolDescriptor;
use crate::pointer::JsonPointer;
use crate::tool::ToolCall;

#[derive(Debug)]
struct RenderedInner {
    name: String,
    // A `String`, not `Box<str>`: shrinking would copy the text once more.
    json: String,
    report: Report,
    /// The lowering passes that changed the tool.
    passes: Passes,
    /// The way back, when a pass changed how a value is sent.
    inverse: Option<Inverse>,
}

/// One tool rendered for a provider: its wire JSON text and the report of changes.
///
/// Cloning is one reference-count increment, which is what makes cached renders cheap.
#[derive(Clone, Debug)]
pub struct Rendered(Arc<RenderedInner>);

impl Rendered {
    /// A rendering of the tool `name` from its JSON text and report.
    pub fn new(name: impl Into<String>, json: String, report: Report) -> Self {
        Rendered::from_parts(name.into(), json, report, Passes::NONE, None)
    }

    pub(crate) fn from_parts(
        name: String,
        json: String,
        report: Report,
        passes: Passes,
        inverse: Option<Inverse>,
    ) -> Self {
        Rendered(Arc::new(RenderedInner { name, json, report, passes, inverse }))
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// The wire JSON of this tool, compact.
    pub fn json(&self) -> &str {
        &self.0.json
    }

    /// The changes made to fit the provider.
    pub fn report(&self) -> &Report {
        &self.0.report
    }

    /// The lowering passes that changed this tool (see [`Pass`]).
    pub fn passes(&self) -> Passes {
        self.0.passes
    }

    /// The way back of this tool, when its lowering changed how some value is sent (see
    /// [`WayBack`]).
    pub fn inverse(&self) -> Option<&Inverse> {
        self.0.inverse.as_ref()
    }

    /// A model's call to this tool in the terms of the descriptor that was rendered (see
    /// [`WayBack::restore`]); a call to another tool is returned unchanged.
    pub fn restore(&self, call: ToolCall) -> ToolCall {
        WayBack::restore(self, call)
    }

    /// Every call of a turn, [`restore`](Self::restore)d, in order.
    pub fn restore_all(&self, calls: Vec<ToolCall>) -> Vec<ToolCall> {
        WayBack::restore_all(self, calls)
    }

    /// The wire JSON parsed into a `serde_json::Value` (for tests and pretty printing).
    pub fn to_value(&self) -> Value {
        // The text was written by `JsonWriter`, which only writes valid JSON.
        serde_json::from_str(&self.0.json).unwrap_or(Value::Null)
    }
}

impl PartialEq for Rendered {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.name == other.0.name
                && self.0.json == other.0.json
                && self.0.report == other.0.report)
    }
}

/// The tools of one request rendered together: each tool's [`Rendered`], and the JSON array
/// of all of them (what goes into the request's `tools` field for most providers).
///
/// Cloning is one reference-count increment.
#[derive(Clone, Debug)]
pub struct RenderedSet(Arc<RenderedSetInner>);

#[derive(Debug)]
struct RenderedSetInner {
    tools: Vec<Rendered>,
    json: String,
}

impl RenderedSet {
    /// The set of `tools`, in order; joins their JSON once.
    pub fn new(tools: Vec<Rendered>) -> Self {
        let json = json_array(&tools);
        RenderedSet(Arc::new(RenderedSetInner { tools, json }))
    }

    /// The JSON array of the tools' wire objects, compact (as [`json_array`] joins them).
    pub fn json(&self) -> &str {
        &self.0.json
    }

    /// Each tool's rendering, in order.
    pub fn tools(&self) -> &[Rendered] {
        &self.0.tools
    }

    /// Every change made to fit the provider, tool by tool.
    pub fn changes(&self) -> impl Iterator<Item = &Change> + '_ {
        self.0.tools.iter().flat_map(|t| t.report().iter())
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.0.tools.len()
    }

    /// Whether the set has no tool.
    pub fn is_empty(&self) -> bool {
        self.0.tools.is_empty()
    }

    /// A model's call in the terms of the descriptor that was rendered for the tool it names
    /// (see [`WayBack::restore`]); a call to a tool outside the set is returned unchanged.
    pub fn restore(&self, call: ToolCall) -> ToolCall {
        WayBack::restore(self, call)
    }

    /// Every call of a turn, [`restore`](Self::restore)d, in order.
    pub fn restore_all(&self, calls: Vec<ToolCall>) -> Vec<ToolCall> {
        WayBack::restore_all(self, calls)
    }
}

impl PartialEq for RenderedSet {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.tools == other.0.tools
    }
}

/// Renders descriptors to one provider's wire JSON.
///
/// Implement it for a provider tooldef does not ship: write the wire object with
/// [`JsonWriter`], the parameter schema with [`write_input_schema`](super::write_input_schema) and a [`SchemaOptions`](super::SchemaOptions)
/// that says what the provider accepts, record every change through [`RenderCtx`], and return
/// [`RenderCtx::finish`]. See the [module docs](super) for a complete example.
pub trait Renderer {
    /// A short stable name (`openai-chat`, `anthropic`), used in messages.
    fn name(&self) -> &str;

    /// Identity of the renderer *and its options*, used by [`RenderCache`](super::RenderCache): two renderers with
    /// the same key must produce the same output for the same descriptor, and accept or refuse
    /// the same sets in [`check_set`](Self::check_set). Defaults to [`name`](Self::name);
    /// override it when options change the output or the set limits.
    fn cache_key(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.name())
    }

    /// The name rules the provider enforces (tool names, property names), which
    /// [`render_mapped`](super::render_mapped) renames to fit. Defaults to none; a renderer
    /// that checks names while rendering says here which rules it checks.
    fn name_rules(&self) -> NameRules {
        NameRules::NONE
    }

    /// Renders one tool.
    ///
    /// # Errors
    ///
    /// The tool cannot be expressed for the provider, or a lossy change under
    /// [`LossPolicy::Refuse`].
    fn render(&self, tool: &ToolDescriptor, policy: LossPolicy) -> Result<Rendered, RenderError>;

    /// Checks the limits that hold over all tools of one request (how many strict tools, how
    /// many optional parameters...). The default accepts any set.
    ///
    /// # Errors
    ///
    /// A [`RenderRule::SetLimit`] error naming the limit.
    fn check_set(&self, tools: &[&ToolDescriptor], policy: LossPolicy) -> Result<(), RenderError> {
        let _ = (tools, policy);
        Ok(())
    }

    /// Renders the tools of one request: [`check_set`](Self::check_set), then each tool in order.
    ///
    /// # Errors
    ///
    /// The first error of `check_set` or of any tool.
    fn render_set(
        &self,
        tools: &[&ToolDescriptor],
        policy: LossPolicy,
    ) -> Result<Vec<Rendered>, RenderError> {
        let _span =
            tracing::debug_span!("tooldef.render_set", renderer = self.name(), tools = tools.len())
                .entered();
        self.check_set(tools, policy)?;
        tools.iter().map(|t| self.render(t, policy)).collect()
    }

    /// The value of the request's tools field for one request's renderings, as JSON text: the
    /// field `tools` for most providers (Bedrock: `toolConfig.tools`). The default is a JSON
    /// array of the renderings in order; a provider whose field nests them (Gemini's
    /// `[{"functionDeclarations":[…]}]`) overrides it.
    fn tools_field(&self, rendered: &[Rendered]) -> String {
        json_array(rendered)
    }
}

impl<R: Renderer + ?Sized> Renderer for &R {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn cache_key(&self) -> Cow<'_, str> {
        (**self).cache_key()
    }
    fn name_rules(&self) -> NameRules {
        (**self).name_rules()
    }
    fn render(&self, tool: &ToolDescriptor, policy: LossPolicy) -> Result<Rendered, RenderError> {
        (**self).render(tool, policy)
    }
    fn check_set(&self, tools: &[&ToolDescriptor], policy: LossPolicy) -> Result<(), RenderError> {
        (**self).check_set(tools, policy)
    }
    fn render_set(
        &self,
        tools: &[&ToolDescriptor],
        policy: LossPolicy,
    ) -> Result<Vec<Rendered>, RenderError> {
        (**self).render_set(tools, policy)
    }
    fn tools_field(&self, rendered: &[Rendered]) -> String {
        (**self).tools_field(rendered)
    }
}

/// Renders `tools` for `renderer` and returns the value of the request's tools field as JSON
/// text, ready to put into a request body: for OpenAI, Anthropic, Ollama and Bedrock the array
/// of per-tool wire objects, for Gemini the array holding one `functionDeclarations` entry.
///
/// The changes made for the provider are in each [`Rendered`]'s report; use
/// [`Renderer::render_set`] and [`Renderer::tools_field`] to read them, or a [`RenderCache`](super::RenderCache) to
/// render each tool once.
///
/// ```
/// use tooldef::{LossPolicy, ToolDescriptor, tools_json};
/// use tooldef_openai::OpenAiRenderer;
///
/// const PING: ToolDescriptor = ToolDescriptor::new("ping").description("Check the service.");
/// let tools = tools_json(&OpenAiRenderer::chat(), [&PING], LossPolicy::Refuse).unwrap();
/// assert!(tools.starts_with(r#"[{"type":"function","function":{"name":"ping""#));
/// ```
///
/// # Errors
///
/// The renderer's set-level error ([`Renderer::check_set`]), or the first tool it cannot render
/// under `policy`.
pub fn tools_json<'a, R, I>(
    renderer: &R,
    tools: I,
    policy: LossPolicy,
) -> Result<String, RenderError>
where
    R: Renderer + ?Sized,
    I: IntoIterator<Item = &'a ToolDescriptor>,
{
    let tools: Vec<&ToolDescriptor> = tools.into_iter().collect();
    let rendered = renderer.render_set(&tools, policy)?;
    Ok(renderer.tools_field(&rendered))
}

/// Joins renderings into one JSON array text (what `tooldef render` prints).
pub fn json_array<'a>(rendered: impl IntoIterator<Item = &'a Rendered>) -> String {
    let rendered = rendered.into_iter();
    let mut out = String::with_capacity(2 + rendered.size_hint().0 * 512);
    out.push('[');
    for (i, r) in rendered.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(r.json());
    }
    out.push(']');
    out
}

/// The state of one tool's rendering: its name, the policy, the report being built, and the
/// lowering passes that changed the tool (with the way back, when one changed how a value is
/// sent).
#[derive(Debug)]
pub struct RenderCtx {
    tool: String,
    policy: LossPolicy,
    report: Report,
    passes: Passes,
    inverse: Option<Inverse>,
}

impl RenderCtx {
    /// Starts rendering `tool` under `policy`.
    pub fn new(tool: &ToolDescriptor, policy: LossPolicy) -> Self {
        RenderCtx {
            tool: tool.name.as_str().to_owned(),
            policy,
            report: Report::default(),
            passes: Passes::NONE,
            inverse: None,
        }
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The policy.
    pub fn policy(&self) -> LossPolicy {
        self.policy
    }

    /// The report so far.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The lowering passes that changed the tool so far.
    pub fn passes(&self) -> Passes {
        self.passes
    }

    /// Notes that `pass` changed the tool ([`write_input_schema`](super::write_input_schema)
    /// notes its own).
    pub fn mark(&mut self, pass: Pass) {
        self.passes = self.passes.with(pass);
    }

    /// Keeps the way back of the input schema just written from `tool`, when a pass marked so
    /// far changes how a value is sent.
    pub(crate) fn keep_inverse(&mut self, tool: &ToolDescriptor) {
        let values = self.passes.value_changing().without(Pass::MapNames);
        if !values.is_empty() {
            self.inverse = Some(Inverse::new(tool, values));
        }
    }

    /// Records `change` (built with [`Change::lossless`] or [`Change::lossy`]) as made to this
    /// tool: the change gets the tool's name.
    ///
    /// # Errors
    ///
    /// [`RenderRule::Lossy`] when the change is lossy and the policy is [`LossPolicy::Refuse`];
    /// nothing is recorded then.
    pub fn record(&mut self, change: Change) -> Result<(), RenderError> {
        if change.lossy && self.policy == LossPolicy::Refuse {
            return Err(self.error(
                change.pointer,
                change.param,
                RenderRule::Lossy,
                format_args!("{}; this loses meaning and the policy is strict", change.detail),
            ));
        }
        self.report.changes.push(Change { tool: self.tool.clone(), ..change });
        Ok(())
    }

    /// An error about this tool at `pointer` (the root for the tool as a whole) and IR
    /// parameter `param` (empty for the tool itself).
    pub fn error(
        &self,
        pointer: impl Into<JsonPointer>,
        param: impl Into<String>,
        rule: RenderRule,
        detail: impl fmt::Display,
    ) -> RenderError {
        RenderError::new(self.tool.clone(), pointer, param, rule, detail)
    }

    /// Checks the tool name against a provider's rule.
    ///
    /// # Errors
    ///
    /// [`RenderRule::Name`] naming the rule.
    pub fn check_name(&self, rule: &NameRule) -> Result<(), RenderError> {
        rule.check(&self.tool).map_err(|why| {
            self.error(JsonPointer::from_segments(["name"]), "", RenderRule::Name, why)
        })
    }

    /// Reports every [`Extensions`](crate::Extensions) namespace of `tool` other than `own`
    /// (the renderer's provider, whose fields it writes) as omitted: the fields belong to
    /// another provider's wire format, and the input contract is unchanged.
    ///
    /// # Errors
    ///
    /// None in practice (the change is lossless); the `Result` is [`record`](Self::record)'s.
    pub fn omit_extensions(
        &mut self,
        tool: &ToolDescriptor,
        pointer: &JsonPointer,
        own: Option<&str>,
    ) -> Result<(), RenderError> {
        for ns in tool.extensions.namespaces().filter(|ns| Some(*ns) != own) {
            let fields: Vec<String> = tool
                .extensions
                .namespace(ns)
                .into_iter()
                .flat_map(|m| m.keys())
                .map(|k| format!("`{k}`"))
                .collect();
            self.record(Change::lossless(ChangeKind::Omitted, "extensions").at(pointer).detail(
                format!(
                    "{ns} fields {} omitted: they belong to {ns}'s wire format",
                    fields.join(", ")
                ),
            ))?;
        }
        Ok(())
    }

    /// The finished rendering.
    pub fn finish(self, out: JsonWriter) -> Rendered {
        Rendered::from_parts(self.tool, out.finish(), self.report, self.passes, self.inverse)
    }
}
