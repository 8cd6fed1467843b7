//! The request planner: which tools of a set go into one provider request, and in which form.
//!
//! A [`Planner`] takes a [`PlanTarget`] (a provider's renderers, its [`Budgets`] and how it
//! defers tools), the host's [`HostLimits`] and the tools ([`PlanTool`]: a descriptor with an
//! optional pin, priority and namespace), and decides for each tool, with a typed [`Reason`]:
//!
//! - [`Decision::Strict`]: rendered in the provider's strict mode, losslessly (the strict
//!   renderer accepted it under [`LossPolicy::Refuse`]) and within the request's strict budgets;
//! - [`Decision::Plain`]: rendered without strict mode, because strict was not asked for, the
//!   target has none, strict would lose meaning or refuses the schema, or a strict budget of the
//!   request is spent;
//! - [`Decision::Deferred`]: not loaded up front but found through a search: the provider's own
//!   deferral (`defer_loading` and its search tool) where the target has one, tooldef's
//!   `tool_search` meta-tool ([`ProgressiveDisclosure`](super::ProgressiveDisclosure)) elsewhere;
//! - [`Decision::LeftOut`]: not in the request: it cannot be rendered for the target
//!   (quarantined, with the renderer's error), its name with the host's prefix is too long, it
//!   repeats a name, or it is over a limit and cannot be deferred.
//!
//! One bad tool never sinks the others: a tool is judged on its own, and set-level limits make
//! the *last* tools of the order plain, deferred or left out, never the whole request.
//!
//! # Order and stability
//!
//! Tools compete for limits in *priority order*: pinned tools first, then higher
//! [`priority`](PlanTool::priority), then name (byte order). The request is written in *request
//! order*: the loaded tools (strict and plain) by name, then the search tool, then the deferred
//! tools by name. So the same input gives the same bytes, adding or removing a tool never
//! reorders the others, and deferred tools come after everything the model sees up front: a
//! tool added to a plan that already defers leaves the loaded prefix unchanged, and the prompt
//! cache holds.
//!
//! # What counts against which limit
//!
//! - [`HostLimits::max_tools`] and [`HostLimits::max_bytes`] count what the model is shown up
//!   front: the loaded tools and the search tool (bytes: their compact wire JSON).
//! - [`Budgets::max_tools`] is the provider's limit on the same; [`Budgets::max_deferred`] on
//!   the tools sent deferred.
//! - The strict budgets ([`Budgets::strict_tools`], [`Budgets::strict_optional_params`],
//!   [`Budgets::strict_union_params`]) count strict tools as the provider counts them, over the
//!   wire JSON: a property not listed in its object's `required` is optional, an `anyOf` or a
//!   type array is a union. Deferred tools are sent plain and spend no strict budget (no provider
//!   documents how a deferred strict tool counts).
//! - Names: the host's prefix plus the tool's name must fit [`HostLimits::max_name_len`] and
//!   [`Budgets::max_name_len`]; a deferred tool's name must fit [`Budgets::deferred_name_len`]
//!   (Anthropic's `tool_reference` blocks take 64 characters).
//!
//! After the choice, the strict and plain sets are put through the renderers' own
//! [`Renderer::check_set`]: a tool a set check still refuses is made plain (strict set) or left
//! out (plain set), so a plan never holds a set its renderer refuses.
//!
//! The size of each tool is its wire JSON in bytes ([`PlanEntry::bytes`]); tokens are an
//! estimate ([`estimated_tokens`]: a quarter of the bytes, rounded up), since most providers do
//! not publish their tokenizers.
//!
//! ```
//! use tooldef::assembly::{Budgets, Decision, HostLimits, PlanTarget, PlanTool, Planner, Reason};
//! use tooldef::{Param, ToolDescriptor, ToolName};
//! use tooldef_openai::OpenAiRenderer;
//!
//! const OPTIONAL: &[Param] = &[Param::string("a").optional(), Param::string("b").optional()];
//! let tools: Vec<PlanTool> = (0..3)
//!     .map(|i| {
//!         let name = ToolName::parse(format!("tool_{i}")).unwrap();
//!         PlanTool::new(ToolDescriptor::with_name(name).description("A tool.").params(OPTIONAL))
//!     })
//!     .collect();
//! // OpenAI's strict mode sends each optional parameter as a union with null; a target whose
//! // strict budget holds two union-typed parameters in all takes one such tool.
//! let target = PlanTarget::new("openai", OpenAiRenderer::responses())
//!     .strict_renderer(OpenAiRenderer::responses().strict(true))
//!     .budgets(Budgets::none().strict_union_params(2));
//! let plan = Planner::new(target).strict(true).host(HostLimits::none()).plan(tools);
//! let decisions: Vec<_> = plan.entries().iter().map(|e| (e.name(), e.decision)).collect();
//! assert_eq!(
//!     decisions,
//!     [("tool_0", Decision::Strict), ("tool_1", Decision::Plain), ("tool_2", Decision::Plain)]
//! );
//! assert_eq!(plan.entries()[1].reason.code(), "strict_budget");
//! ```

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::descriptor::ToolDescriptor;
use crate::render::{LossPolicy, RenderError, RenderRule, Rendered, Renderer, json_array};

use super::ProgressiveDisclosure;

/// A renderer the planner can share.
pub type SharedRenderer = Arc<dyn Renderer + Send + Sync>;

/// What one request may hold as a provider counts it: the limits the provider documents
/// (sources in the repository's `docs/budgets.md`). `None` means no documented limit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Budgets {
    /// The most tools loaded up front (search tool included).
    pub max_tools: Option<usize>,
    /// The most tools sent deferred.
    pub max_deferred: Option<usize>,
    /// The longest tool name the provider accepts.
    pub max_name_len: Option<usize>,
    /// The longest name of a deferred tool (a search result names it).
    pub deferred_name_len: Option<usize>,
    /// The most strict tools in one request.
    pub strict_tools: Option<usize>,
    /// The most optional parameters over all strict tools of one request.
    pub strict_optional_params: Option<usize>,
    /// The most union-typed parameters (`anyOf`, type arrays) over all strict tools.
    pub strict_union_params: Option<usize>,
}

impl Budgets {
    /// No limit at all.
    pub const fn none() -> Self {
        Budgets {
            max_tools: None,
            max_deferred: None,
            max_name_len: None,
            deferred_name_len: None,
            strict_tools: None,
            strict_optional_params: None,
            strict_union_params: None,
        }
    }

    /// With at most `n` tools loaded up front.
    #[must_use]
    pub const fn max_tools(mut self, n: usize) -> Self {
        self.max_tools = Some(n);
        self
    }

    /// With at most `n` tools sent deferred.
    #[must_use]
    pub const fn max_deferred(mut self, n: usize) -> Self {
        self.max_deferred = Some(n);
        self
    }

    /// With tool names of at most `n` characters.
    #[must_use]
    pub const fn max_name_len(mut self, n: usize) -> Self {
        self.max_name_len = Some(n);
        self
    }

    /// With deferred tools' names of at most `n` characters.
    #[must_use]
    pub const fn deferred_name_len(mut self, n: usize) -> Self {
        self.deferred_name_len = Some(n);
        self
    }

    /// With at most `n` strict tools per request.
    #[must_use]
    pub const fn strict_tools(mut self, n: usize) -> Self {
        self.strict_tools = Some(n);
        self
    }

    /// With at most `n` optional parameters over all strict tools.
    #[must_use]
    pub const fn strict_optional_params(mut self, n: usize) -> Self {
        self.strict_optional_params = Some(n);
        self
    }

    /// With at most `n` union-typed parameters over all strict tools.
    #[must_use]
    pub const fn strict_union_params(mut self, n: usize) -> Self {
        self.strict_union_params = Some(n);
        self
    }
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets::none()
    }
}

/// How a target finds tools that are not loaded up front.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deferral {
    /// The provider's own: deferred tools are sent with its deferral flag, and `search` is the
    /// wire JSON of its search tool (counted among the loaded tools).
    Native {
        /// The search tool's wire JSON, as the provider crate writes it.
        search: String,
    },
    /// tooldef's `tool_search` meta-tool ([`ProgressiveDisclosure`]): deferred tools are not
    /// sent; the meta-tool, rendered by the plain renderer, searches them.
    MetaTool,
    /// No deferral: a tool over a limit is left out.
    Off,
}

/// Everything the planner knows of a target: its renderers, its budgets and its deferral. Each
/// provider crate builds its own (`tooldef_openai::plan_target`, `tooldef_anthropic::plan_target`).
///
/// Model profiles narrow a target further (a model without tool search, a smaller strict
/// budget): [`PlanTarget::with_profile`] is the hook they plug into.
#[derive(Clone)]
pub struct PlanTarget {
    name: String,
    plain: SharedRenderer,
    strict: Option<SharedRenderer>,
    budgets: Budgets,
    deferral: Deferral,
}

impl fmt::Debug for PlanTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlanTarget")
            .field("name", &self.name)
            .field("plain", &self.plain.name())
            .field("strict", &self.strict.as_ref().map(|r| r.name().to_owned()))
            .field("budgets", &self.budgets)
            .field("deferral", &self.deferral)
            .finish()
    }
}

/// A change a model profile makes to a [`PlanTarget`] (see [`PlanTarget::with_profile`]).
pub trait TargetProfile {
    /// The target as this model sees it.
    fn apply(&self, target: PlanTarget) -> PlanTarget;
}

impl PlanTarget {
    /// A target named `name` rendering with `plain`, with no strict mode, no budget and
    /// tooldef's meta-tool for deferral.
    pub fn new(name: impl Into<String>, plain: impl Renderer + Send + Sync + 'static) -> Self {
        PlanTarget {
            name: name.into(),
            plain: Arc::new(plain),
            strict: None,
            budgets: Budgets::none(),
            deferral: Deferral::MetaTool,
        }
    }

    /// The same target with a strict mode, rendered by `strict`.
    #[must_use]
    pub fn strict_renderer(mut self, strict: impl Renderer + Send + Sync + 'static) -> Self {
        self.strict = Some(Arc::new(strict));
        self
    }

    /// The same target with these budgets.
    #[must_use]
    pub fn budgets(mut self, budgets: Budgets) -> Self {
        self.budgets = budgets;
        self
    }

    /// The same target with this deferral.
    #[must_use]
    pub fn deferral(mut self, deferral: Deferral) -> Self {
        self.deferral = deferral;
        self
    }

    /// The target as a model profile narrows it.
    #[must_use]
    pub fn with_profile(self, profile: &dyn TargetProfile) -> Self {
        profile.apply(self)
    }

    /// The target's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The plain renderer.
    pub fn plain(&self) -> &SharedRenderer {
        &self.plain
    }

    /// The strict renderer, if the target has a strict mode.
    pub fn strict(&self) -> Option<&SharedRenderer> {
        self.strict.as_ref()
    }

    /// The budgets.
    pub fn get_budgets(&self) -> &Budgets {
        &self.budgets
    }

    /// The deferral.
    pub fn get_deferral(&self) -> &Deferral {
        &self.deferral
    }
}

/// What the host allows, beyond the provider: how many tools and bytes it shows the model up
/// front, and the prefix it puts before each name (`mcp__server__`) with the longest name it
/// allows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HostLimits {
    /// The most tools loaded up front (search tool included).
    pub max_tools: Option<usize>,
    /// The most bytes of tool definitions loaded up front (compact wire JSON).
    pub max_bytes: Option<usize>,
    /// The longest name, prefix included.
    pub max_name_len: Option<usize>,
    /// The prefix the host puts before every tool name, counted in its length.
    pub name_prefix: String,
}

impl HostLimits {
    /// No host limit.
    pub fn none() -> Self {
        HostLimits::default()
    }

    /// With at most `n` tools loaded up front.
    #[must_use]
    pub fn max_tools(mut self, n: usize) -> Self {
        self.max_tools = Some(n);
        self
    }

    /// With at most `n` bytes of tool definitions loaded up front.
    #[must_use]
    pub fn max_bytes(mut self, n: usize) -> Self {
        self.max_bytes = Some(n);
        self
    }

    /// With names of at most `n` characters, prefix included.
    #[must_use]
    pub fn max_name_len(mut self, n: usize) -> Self {
        self.max_name_len = Some(n);
        self
    }

    /// With `prefix` before every name.
    #[must_use]
    pub fn name_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.name_prefix = prefix.into();
        self
    }
}

/// A group of tools the provider may show as one entry (OpenAI's `namespace`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Namespace {
    /// The namespace's name.
    pub name: String,
    /// What its tools do, shown to the model.
    pub description: String,
}

impl Namespace {
    /// A namespace.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> Arc<Self> {
        Arc::new(Namespace { name: name.into(), description: description.into() })
    }
}

/// One tool offered to the planner.
#[derive(Clone, Debug)]
pub struct PlanTool {
    /// The descriptor.
    pub tool: Arc<ToolDescriptor>,
    /// Always loaded (never deferred), and first for every limit.
    pub pinned: bool,
    /// Higher goes first for every limit (default 0).
    pub priority: i32,
    /// The group it belongs to, if any.
    pub namespace: Option<Arc<Namespace>>,
}

impl PlanTool {
    /// A tool, not pinned, priority 0, no namespace.
    pub fn new(tool: impl Into<Arc<ToolDescriptor>>) -> Self {
        PlanTool { tool: tool.into(), pinned: false, priority: 0, namespace: None }
    }

    /// Pinned: always loaded and first for every limit.
    #[must_use]
    pub fn pinned(mut self) -> Self {
        self.pinned = true;
        self
    }

    /// With priority `priority` (higher goes first).
    #[must_use]
    pub fn priority(mut self, priority: i32) -> Self {
        self.priority = priority;
        self
    }

    /// In `namespace`.
    #[must_use]
    pub fn namespace(mut self, namespace: Arc<Namespace>) -> Self {
        self.namespace = Some(namespace);
        self
    }
}

impl From<ToolDescriptor> for PlanTool {
    fn from(tool: ToolDescriptor) -> Self {
        PlanTool::new(tool)
    }
}

impl From<Arc<ToolDescriptor>> for PlanTool {
    fn from(tool: Arc<ToolDescriptor>) -> Self {
        PlanTool::new(tool)
    }
}

/// When the planner defers tools.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DeferWhen {
    /// Never: a tool over a limit is left out.
    Never,
    /// When a tool is over a limit (the default).
    #[default]
    Overflow,
    /// Every tool that is not pinned.
    AllButPinned,
}

/// What the planner decided for one tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Decision {
    /// Loaded, in the provider's strict mode.
    Strict,
    /// Loaded, without strict mode.
    Plain,
    /// Found through a search.
    Deferred,
    /// Not in the request.
    LeftOut,
}

impl Decision {
    /// `strict`, `plain`, `deferred` or `left_out`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Decision::Strict => "strict",
            Decision::Plain => "plain",
            Decision::Deferred => "deferred",
            Decision::LeftOut => "left_out",
        }
    }

    /// Whether the tool is loaded up front.
    pub const fn is_loaded(self) -> bool {
        matches!(self, Decision::Strict | Decision::Plain)
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A strict budget of one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StrictBudget {
    /// Strict tools.
    Tools,
    /// Optional parameters over all strict tools.
    OptionalParams,
    /// Union-typed parameters over all strict tools.
    UnionParams,
    /// A set limit the strict renderer checks itself.
    Renderer,
}

impl StrictBudget {
    fn words(self) -> &'static str {
        match self {
            StrictBudget::Tools => "strict tools",
            StrictBudget::OptionalParams => "optional parameters over all strict tools",
            StrictBudget::UnionParams => "union-typed parameters over all strict tools",
            StrictBudget::Renderer => "the strict renderer's set limit",
        }
    }
}

/// A limit on how many tools or bytes a request holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// [`HostLimits::max_tools`].
    HostTools,
    /// [`HostLimits::max_bytes`].
    HostBytes,
    /// [`Budgets::max_tools`].
    ProviderTools,
    /// [`Budgets::max_deferred`].
    ProviderDeferred,
}

impl Limit {
    fn words(self) -> &'static str {
        match self {
            Limit::HostTools => "the host's limit on tools loaded up front",
            Limit::HostBytes => "the host's limit on bytes of tool definitions loaded up front",
            Limit::ProviderTools => "the provider's limit on tools in one request",
            Limit::ProviderDeferred => "the provider's limit on deferred tools",
        }
    }
}

/// Why the planner decided what it did for one tool.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// Strict: lossless under strict and within the strict budgets.
    StrictLossless,
    /// Plain: strict mode was not asked for.
    StrictNotAsked,
    /// Plain: the target has no strict mode.
    NoStrictMode,
    /// Plain: strict would lose meaning (the strict renderer's first lossy change).
    StrictLossy(RenderError),
    /// Plain: the strict renderer refuses the tool otherwise (a per-schema limit, recursion...).
    StrictRefused(RenderError),
    /// Plain: a strict budget of the request is spent.
    StrictBudget {
        /// Which budget.
        budget: StrictBudget,
        /// Its limit (0 for [`StrictBudget::Renderer`]).
        limit: usize,
    },
    /// Deferred: every tool that is not pinned is deferred ([`DeferWhen::AllButPinned`]).
    DeferAsked,
    /// Deferred or left out: loading it would cross a limit.
    OverLimit {
        /// Which limit.
        limit: Limit,
        /// Its value.
        max: usize,
    },
    /// Left out: over a limit, and its name is too long for a search result to name it.
    CannotDefer {
        /// The name's length.
        len: usize,
        /// The longest name a deferred tool may have.
        max: usize,
    },
    /// Left out: the target cannot render it (or its plain set check refuses it).
    Quarantined(RenderError),
    /// Left out: the host's prefix and the name together are too long.
    NameTooLong {
        /// The length, prefix included.
        len: usize,
        /// The longest the host and the provider allow.
        max: usize,
    },
    /// Left out: another tool of the same name comes first.
    DuplicateName,
    /// Left out: the name is the search meta-tool's.
    ReservedName,
}

impl Reason {
    /// A stable short code (`strict_lossless`, `strict_budget`, `quarantined`...).
    pub fn code(&self) -> &'static str {
        match self {
            Reason::StrictLossless => "strict_lossless",
            Reason::StrictNotAsked => "strict_not_asked",
            Reason::NoStrictMode => "no_strict_mode",
            Reason::StrictLossy(_) => "strict_lossy",
            Reason::StrictRefused(_) => "strict_refused",
            Reason::StrictBudget { .. } => "strict_budget",
            Reason::DeferAsked => "defer_asked",
            Reason::OverLimit { .. } => "over_limit",
            Reason::CannotDefer { .. } => "cannot_defer",
            Reason::Quarantined(_) => "quarantined",
            Reason::NameTooLong { .. } => "name_too_long",
            Reason::DuplicateName => "duplicate_name",
            Reason::ReservedName => "reserved_name",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::StrictLossless => f.write_str("lossless under strict, within the budgets"),
            Reason::StrictNotAsked => f.write_str("strict mode not asked for"),
            Reason::NoStrictMode => f.write_str("the target has no strict mode"),
            Reason::StrictLossy(e) => write!(f, "strict would lose meaning: {}", e.message),
            Reason::StrictRefused(e) => write!(f, "strict refuses it: {}", e.message),
            Reason::StrictBudget { budget: StrictBudget::Renderer, .. } => {
                f.write_str("the strict renderer's set limit is reached")
            }
            Reason::StrictBudget { budget, limit } => {
                write!(f, "the strict budget of {limit} {} is spent", budget.words())
            }
            Reason::DeferAsked => f.write_str("deferred as asked (not pinned)"),
            Reason::OverLimit { limit, max } => write!(f, "over {} ({max})", limit.words()),
            Reason::CannotDefer { len, max } => write!(
                f,
                "over a limit, and its name of {len} characters is longer than a deferred tool's {max}"
            ),
            Reason::Quarantined(e) => write!(f, "cannot be rendered: {}", e.message),
            Reason::NameTooLong { len, max } => {
                write!(f, "its name with the host's prefix has {len} characters; at most {max}")
            }
            Reason::DuplicateName => f.write_str("another tool of the same name comes first"),
            Reason::ReservedName => f.write_str("the name is the search tool's"),
        }
    }
}

/// One tool's line in a [`Plan`].
#[derive(Clone, Debug)]
pub struct PlanEntry {
    /// The tool as offered.
    pub tool: PlanTool,
    /// What the planner decided.
    pub decision: Decision,
    /// Why.
    pub reason: Reason,
    /// The rendering sent: strict for [`Decision::Strict`], plain otherwise; `None` when left
    /// out.
    pub rendered: Option<Rendered>,
    /// The plain rendering, kept for a strict tool a set check moves back to plain.
    plain: Option<Rendered>,
}

impl PlanEntry {
    /// The tool's name.
    pub fn name(&self) -> &str {
        self.tool.tool.name.as_str()
    }

    /// The bytes of its wire JSON (0 when left out).
    pub fn bytes(&self) -> usize {
        self.rendered.as_ref().map_or(0, |r| r.json().len())
    }
}

/// The estimated tokens of `bytes` bytes of tool definitions: a quarter, rounded up (the
/// common rule of thumb for English text and JSON under OpenAI's and Anthropic's tokenizers; an
/// estimate, not a count).
pub const fn estimated_tokens(bytes: usize) -> usize {
    bytes.div_ceil(4)
}

/// The search tool of a plan that defers.
#[derive(Clone, Debug)]
pub enum SearchTool {
    /// The provider's own; its wire JSON.
    Native(String),
    /// tooldef's meta-tool, rendered by the plain renderer; dispatch its calls with
    /// [`Plan::disclosure`]'s executor.
    Meta(Rendered),
}

impl SearchTool {
    /// The search tool's wire JSON.
    pub fn json(&self) -> &str {
        match self {
            SearchTool::Native(json) => json,
            SearchTool::Meta(r) => r.json(),
        }
    }
}

/// The planner's answer: one entry per tool offered, in request order (loaded tools by name,
/// then deferred tools by name, then those left out by name), and the search tool when any
/// tool is deferred.
#[derive(Clone, Debug)]
pub struct Plan {
    target: String,
    entries: Vec<PlanEntry>,
    search: Option<SearchTool>,
    meta: Option<Arc<ToolDescriptor>>,
    native: bool,
}

impl Plan {
    /// The target's name.
    pub fn target(&self) -> &str {
        &self.target
    }

    /// Every entry, in request order.
    pub fn entries(&self) -> &[PlanEntry] {
        &self.entries
    }

    /// The entry of the tool named `name`.
    pub fn entry(&self, name: &str) -> Option<&PlanEntry> {
        self.entries.iter().find(|e| e.name() == name)
    }

    /// The loaded entries (strict and plain), by name.
    pub fn loaded(&self) -> impl Iterator<Item = &PlanEntry> + '_ {
        self.entries.iter().filter(|e| e.decision.is_loaded())
    }

    /// The deferred entries, by name.
    pub fn deferred(&self) -> impl Iterator<Item = &PlanEntry> + '_ {
        self.entries.iter().filter(|e| e.decision == Decision::Deferred)
    }

    /// The entries left out, by name.
    pub fn left_out(&self) -> impl Iterator<Item = &PlanEntry> + '_ {
        self.entries.iter().filter(|e| e.decision == Decision::LeftOut)
    }

    /// How many entries have `decision`.
    pub fn count(&self, decision: Decision) -> usize {
        self.entries.iter().filter(|e| e.decision == decision).count()
    }

    /// The search tool, when any tool is deferred.
    pub fn search(&self) -> Option<&SearchTool> {
        self.search.as_ref()
    }

    /// Whether deferred tools are sent with the provider's own deferral (else they are not
    /// sent, and the meta-tool finds them).
    pub fn defers_natively(&self) -> bool {
        self.native
    }

    /// The bytes the model is shown up front: the loaded tools and the search tool.
    pub fn loaded_bytes(&self) -> usize {
        self.loaded().map(PlanEntry::bytes).sum::<usize>()
            + self.search.as_ref().map_or(0, |s| s.json().len())
    }

    /// The renderings of the request's tools field in request order, for a target without
    /// native deferral: the loaded tools, then the meta-tool when any tool is deferred.
    /// Deferred tools are not sent; the meta-tool finds them ([`Plan::disclosure`]). A provider
    /// crate with native deferral writes its own form (`tooldef_openai::planned_tools`,
    /// `tooldef_anthropic::planned_tools`).
    pub fn sent(&self) -> Vec<Rendered> {
        let mut out: Vec<Rendered> = self.loaded().filter_map(|e| e.rendered.clone()).collect();
        if let Some(SearchTool::Meta(r)) = &self.search {
            out.push(r.clone());
        }
        out
    }

    /// [`sent`](Self::sent) as one JSON array.
    pub fn sent_json(&self) -> String {
        json_array(&self.sent())
    }

    /// A [`ProgressiveDisclosure`] whose meta-tool searches this plan's deferred tools: give its
    /// [`search_executor`](ProgressiveDisclosure::search_executor) to the dispatcher.
    pub fn disclosure(&self) -> ProgressiveDisclosure {
        let disclosure = ProgressiveDisclosure::new();
        disclosure.load_catalog(self.deferred().map(|e| Arc::clone(&e.tool.tool)));
        disclosure
    }

    /// The meta-tool's descriptor, when the plan defers through it.
    pub fn meta_tool(&self) -> Option<&Arc<ToolDescriptor>> {
        self.meta.as_ref()
    }
}

/// The strict cost of one tool, counted over its wire JSON as the providers count it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct StrictCost {
    /// Properties not listed in their object's `required`.
    pub optional_params: usize,
    /// `anyOf`s and type arrays.
    pub union_params: usize,
}

impl StrictCost {
    /// The cost of a tool's wire JSON (the whole tool object; anything outside its schemas
    /// counts nothing, so the count is never below the provider's).
    pub fn of(wire: &Value) -> StrictCost {
        let mut cost = StrictCost::default();
        count(wire, &mut cost, 0);
        cost
    }
}

fn count(v: &Value, cost: &mut StrictCost, depth: usize) {
    // Rendered JSON is bounded by the renderer; the depth guard keeps a hostile value finite.
    if depth > 256 {
        return;
    }
    match v {
        Value::Object(m) => {
            if let Some(Value::Object(props)) = m.get("properties") {
                let required: Vec<&str> = m
                    .get("required")
                    .and_then(Value::as_array)
                    .map(|r| r.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default();
                cost.optional_params +=
                    props.keys().filter(|k| !required.contains(&k.as_str())).count();
            }
            if m.get("anyOf").is_some_and(Value::is_array) {
                cost.union_params += 1;
            }
            if m.get("type").is_some_and(Value::is_array) {
                cost.union_params += 1;
            }
            for sub in m.values() {
                count(sub, cost, depth + 1);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| count(x, cost, depth + 1)),
        _ => {}
    }
}

/// Plans requests for one target under the host's limits.
#[derive(Clone, Debug)]
#[must_use]
pub struct Planner {
    target: PlanTarget,
    strict: bool,
    policy: LossPolicy,
    host: HostLimits,
    defer: DeferWhen,
}

/// One tool once judged on its own.
struct Judged {
    tool: PlanTool,
    /// The final verdict for a tool that cannot be loaded whatever the others do.
    out: Option<Reason>,
    plain: Option<Rendered>,
    /// Why plain, when strict is not an option.
    plain_reason: Reason,
    strict: Option<(Rendered, StrictCost)>,
}

impl Planner {
    /// A planner for `target`: strict not asked for, lossy changes allowed in plain renderings,
    /// no host limit, deferral on overflow.
    pub fn new(target: PlanTarget) -> Self {
        Planner {
            target,
            strict: false,
            policy: LossPolicy::Allow,
            host: HostLimits::none(),
            defer: DeferWhen::Overflow,
        }
    }

    /// Prefer strict mode where it is lossless and within budget.
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// The policy of plain renderings ([`LossPolicy::Refuse`] leaves out a tool whose plain
    /// rendering would lose meaning).
    pub fn policy(mut self, policy: LossPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// The host's limits.
    pub fn host(mut self, host: HostLimits) -> Self {
        self.host = host;
        self
    }

    /// When to defer.
    pub fn defer(mut self, defer: DeferWhen) -> Self {
        self.defer = defer;
        self
    }

    /// The target.
    pub fn target(&self) -> &PlanTarget {
        &self.target
    }

    /// Plans one request for `tools`.
    pub fn plan<T: Into<PlanTool>>(&self, tools: impl IntoIterator<Item = T>) -> Plan {
        let _span = tracing::debug_span!("tooldef.plan", target = %self.target.name).entered();
        let mut tools: Vec<PlanTool> = tools.into_iter().map(Into::into).collect();
        // Name order first: the first of several tools with one name is the one kept, whatever
        // the order they were offered in (stable sort: offer order breaks ties).
        tools.sort_by(|a, b| a.tool.name.cmp(&b.tool.name));
        let meta = match self.target.deferral {
            Deferral::MetaTool => Some(Arc::clone(ProgressiveDisclosure::new().meta_tool())),
            _ => None,
        };
        let mut judged: Vec<Judged> = Vec::with_capacity(tools.len());
        let mut previous: Option<&str> = None;
        let names: Vec<String> = tools.iter().map(|t| t.tool.name.as_str().to_owned()).collect();
        for (tool, name) in tools.into_iter().zip(&names) {
            let duplicate = previous == Some(name.as_str());
            previous = Some(name.as_str());
            judged.push(self.judge(tool, duplicate, meta.as_deref()));
        }
        let search = self.search_tool(meta.as_deref());
        let mut order: Vec<usize> = (0..judged.len()).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&judged[a].tool, &judged[b].tool);
            b.pinned
                .cmp(&a.pinned)
                .then(b.priority.cmp(&a.priority))
                .then(a.tool.name.cmp(&b.tool.name))
        });
        let mut decisions = self.allocate(&judged, &order, None);
        let deferring = decisions.iter().any(|(d, _)| *d == Decision::Deferred);
        let search = if deferring { search } else { None };
        if deferring && let Some(s) = &search {
            decisions = self.allocate(&judged, &order, Some(s.json().len()));
        }
        let search =
            if decisions.iter().any(|(d, _)| *d == Decision::Deferred) { search } else { None };
        let mut entries: Vec<PlanEntry> = judged
            .into_iter()
            .zip(decisions)
            .map(|(j, (decision, reason))| {
                let rendered = match decision {
                    Decision::Strict => j.strict.map(|(r, _)| r),
                    Decision::Plain | Decision::Deferred => j.plain.clone(),
                    Decision::LeftOut => None,
                };
                let plain = if decision == Decision::Strict { j.plain } else { None };
                PlanEntry { tool: j.tool, decision, reason, rendered, plain }
            })
            .collect();
        self.check_sets(&mut entries);
        entries.sort_by(|a, b| {
            let rank = |d: Decision| match d {
                Decision::Strict | Decision::Plain => 0,
                Decision::Deferred => 1,
                Decision::LeftOut => 2,
            };
            rank(a.decision).cmp(&rank(b.decision)).then_with(|| a.name().cmp(b.name()))
        });
        let native = matches!(self.target.deferral, Deferral::Native { .. });
        let meta = matches!(search, Some(SearchTool::Meta(_))).then_some(meta).flatten();
        Plan { target: self.target.name.clone(), entries, search, meta, native }
    }

    /// Judges one tool on its own: whether it can be sent at all, and its plain and strict
    /// renderings.
    fn judge(&self, tool: PlanTool, duplicate: bool, meta: Option<&ToolDescriptor>) -> Judged {
        let mut judged = Judged {
            tool,
            out: None,
            plain: None,
            plain_reason: Reason::StrictNotAsked,
            strict: None,
        };
        let d = Arc::clone(&judged.tool.tool);
        let name = d.name.as_str();
        if duplicate {
            judged.out = Some(Reason::DuplicateName);
            return judged;
        }
        if meta.is_some_and(|m| m.name.as_str() == name) {
            judged.out = Some(Reason::ReservedName);
            return judged;
        }
        let len = self.host.name_prefix.chars().count() + name.chars().count();
        let max =
            [self.host.max_name_len, self.target.budgets.max_name_len].into_iter().flatten().min();
        if let Some(max) = max
            && len > max
        {
            judged.out = Some(Reason::NameTooLong { len, max });
            return judged;
        }
        match self.target.plain.render(&d, self.policy) {
            Ok(r) => judged.plain = Some(r),
            Err(e) => {
                tracing::debug!(tool = name, error = %e, "left out: the target cannot render it");
                judged.out = Some(Reason::Quarantined(e));
                return judged;
            }
        }
        if !self.strict {
            return judged;
        }
        let Some(strict) = &self.target.strict else {
            judged.plain_reason = Reason::NoStrictMode;
            return judged;
        };
        match strict.render(&d, LossPolicy::Refuse) {
            Ok(r) => {
                let cost = StrictCost::of(&r.to_value());
                judged.strict = Some((r, cost));
            }
            Err(e) if e.rule == RenderRule::Lossy => judged.plain_reason = Reason::StrictLossy(e),
            Err(e) => judged.plain_reason = Reason::StrictRefused(e),
        }
        judged
    }

    fn search_tool(&self, meta: Option<&ToolDescriptor>) -> Option<SearchTool> {
        match &self.target.deferral {
            Deferral::Native { search } => Some(SearchTool::Native(search.clone())),
            Deferral::MetaTool => {
                let meta = meta?;
                match self.target.plain.render(meta, LossPolicy::Allow) {
                    Ok(r) => Some(SearchTool::Meta(r)),
                    Err(e) => {
                        tracing::warn!(error = %e, "the target cannot render the search meta-tool; nothing is deferred");
                        None
                    }
                }
            }
            Deferral::Off => None,
        }
    }

    /// Decides every tool in priority order; `search` is the search tool's bytes when a slot is
    /// kept for it.
    fn allocate(
        &self,
        judged: &[Judged],
        order: &[usize],
        search: Option<usize>,
    ) -> Vec<(Decision, Reason)> {
        let budgets = &self.target.budgets;
        let can_defer = match self.target.deferral {
            Deferral::Off => false,
            Deferral::MetaTool => self.defer != DeferWhen::Never,
            Deferral::Native { .. } => self.defer != DeferWhen::Never,
        };
        let tool_caps = [
            self.host.max_tools.map(|n| (n, Limit::HostTools)),
            budgets.max_tools.map(|n| (n, Limit::ProviderTools)),
        ];
        let mut loaded = usize::from(search.is_some());
        let mut bytes = search.unwrap_or(0);
        let mut deferred = 0usize;
        let mut used = (0usize, StrictCost::default());
        let mut out: Vec<(Decision, Reason)> =
            judged.iter().map(|_| (Decision::LeftOut, Reason::DuplicateName)).collect();
        for &i in order {
            let j = &judged[i];
            if let Some(reason) = &j.out {
                out[i] = (Decision::LeftOut, reason.clone());
                continue;
            }
            let Some(plain) = &j.plain else { continue };
            let defer = |reason: Reason, deferred: &mut usize| -> (Decision, Reason) {
                let name_len = j.tool.tool.name.as_str().chars().count();
                if let Some(max) = budgets.deferred_name_len
                    && name_len > max
                {
                    return (Decision::LeftOut, Reason::CannotDefer { len: name_len, max });
                }
                if let Some(max) = budgets.max_deferred
                    && *deferred >= max
                {
                    return (
                        Decision::LeftOut,
                        Reason::OverLimit { limit: Limit::ProviderDeferred, max },
                    );
                }
                *deferred += 1;
                (Decision::Deferred, reason)
            };
            if self.defer == DeferWhen::AllButPinned && can_defer && !j.tool.pinned {
                // A tool that cannot be deferred (its name, the provider's count) is loaded
                // instead, when it fits.
                let (decision, reason) = defer(Reason::DeferAsked, &mut deferred);
                if decision == Decision::Deferred {
                    out[i] = (decision, reason);
                    continue;
                }
            }
            let (mut decision, mut reason, mut size) =
                (Decision::Plain, j.plain_reason.clone(), plain.json().len());
            let mut spend = None;
            if let Some((r, cost)) = &j.strict {
                match self.strict_room(used, cost) {
                    Ok(()) => {
                        (decision, reason, size) =
                            (Decision::Strict, Reason::StrictLossless, r.json().len());
                        spend = Some(*cost);
                    }
                    Err(over) => reason = over,
                }
            }
            let over_count = tool_caps
                .into_iter()
                .flatten()
                .filter(|(n, _)| loaded + 1 > *n)
                .min_by_key(|(n, _)| *n)
                .map(|(max, limit)| Reason::OverLimit { limit, max });
            let over_bytes = self
                .host
                .max_bytes
                .filter(|max| bytes + size > *max)
                .map(|max| Reason::OverLimit { limit: Limit::HostBytes, max });
            if let Some(over) = over_count.or(over_bytes) {
                out[i] = if can_defer && !j.tool.pinned {
                    defer(over, &mut deferred)
                } else {
                    (Decision::LeftOut, over)
                };
                continue;
            }
            loaded += 1;
            bytes += size;
            if let Some(cost) = spend {
                used.0 += 1;
                used.1.optional_params += cost.optional_params;
                used.1.union_params += cost.union_params;
            }
            out[i] = (decision, reason);
        }
        out
    }

    /// Whether a strict tool of cost `cost` fits after `used` (strict tools, their cost).
    fn strict_room(&self, used: (usize, StrictCost), cost: &StrictCost) -> Result<(), Reason> {
        let b = &self.target.budgets;
        let checks = [
            (b.strict_tools, used.0 + 1, StrictBudget::Tools),
            (
                b.strict_optional_params,
                used.1.optional_params + cost.optional_params,
                StrictBudget::OptionalParams,
            ),
            (
                b.strict_union_params,
                used.1.union_params + cost.union_params,
                StrictBudget::UnionParams,
            ),
        ];
        for (limit, after, budget) in checks {
            if let Some(limit) = limit
                && after > limit
            {
                return Err(Reason::StrictBudget { budget, limit });
            }
        }
        Ok(())
    }

    /// Puts the strict and the plain sets through their renderers' set checks: a strict tool
    /// refused is made plain, a plain tool refused is left out, until both sets pass.
    fn check_sets(&self, entries: &mut [PlanEntry]) {
        let rounds = entries.len() + 1;
        for _ in 0..rounds {
            let mut changed = false;
            if let Some(strict) = &self.target.strict {
                changed |= check_one(entries, Decision::Strict, strict.as_ref(), self.policy);
            }
            if !changed {
                changed |=
                    check_one(entries, Decision::Plain, self.target.plain.as_ref(), self.policy);
            }
            if !changed {
                return;
            }
        }
    }
}

/// One round of a set check over the entries with `decision`; true when a tool was moved.
fn check_one(
    entries: &mut [PlanEntry],
    decision: Decision,
    renderer: &(dyn Renderer + Send + Sync),
    policy: LossPolicy,
) -> bool {
    let set: Vec<&ToolDescriptor> =
        entries.iter().filter(|e| e.decision == decision).map(|e| &*e.tool.tool).collect();
    if set.is_empty() {
        return false;
    }
    let policy = if decision == Decision::Strict { LossPolicy::Refuse } else { policy };
    let Err(e) = renderer.check_set(&set, policy) else { return false };
    let Some(entry) = entries.iter_mut().find(|x| x.decision == decision && x.name() == e.tool)
    else {
        tracing::warn!(error = %e, "a set check refused the plan without naming one of its tools");
        return false;
    };
    tracing::debug!(tool = %e.tool, error = %e, "moved by the renderer's set check");
    if decision == Decision::Strict {
        entry.decision = Decision::Plain;
        entry.reason = Reason::StrictBudget { budget: StrictBudget::Renderer, limit: 0 };
        entry.rendered = entry.plain.take();
    } else {
        entry.decision = Decision::LeftOut;
        entry.reason = Reason::Quarantined(e);
        entry.rendered = None;
    }
    true
}
