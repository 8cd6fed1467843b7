//! Prompt assembly: what one model call is told. An [`Assembler`] gathers text sections and tool
//! descriptors from [`Contributor`]s, runs them through [`Interceptor`]s in registration order,
//! and hands back one [`PromptAssembly`] per call, which a provider adapter maps to its system
//! slot and `tools` field.
//!
//! Owns the assembler, the section and contribution types, the interceptor chain, the
//! interceptors shipped with the crate ([`ToolFilter`], [`ProgressiveDisclosure`]) and the
//! request [`Planner`] (which tools of a set go into one request, in which form: see
//! [`Plan`]). It does not
//! render tools for a provider (the provider crates do) nor own the tools themselves (the
//! registry does; it is one contributor among others).
//!
//! # Order
//!
//! Everything an assembly yields is ordered independently of registration order and of thread
//! timing, so that identical inputs give byte-identical requests and provider prompt caches keep
//! hitting:
//!
//! - **Sections** are sorted by their order key, then by name (byte order); sections with equal key
//!   and name keep the order in which they were contributed. [`PromptAssembly::system_text`]
//!   drops empty sections and joins the rest with one blank line.
//! - **Tools** are sorted by name. When a name is offered twice (two contributors, or an
//!   interceptor adding a tool that is already there), the first offer wins (contributors count in
//!   registration order) and the other is skipped with a `tracing` warning: a provider rejects
//!   duplicate names.
//!
//! Both orders are applied to what the contributors gathered, before the first interceptor runs,
//! and again to what the chain returns, so an interceptor that adds a tool or a section need not
//! care where it puts it.
//!
//! ```
//! use tooldef::assembly::{Assembler, AssemblyContext, Bundle, SectionSource, ToolFilter};
//! use tooldef::ToolDescriptor;
//!
//! const SEARCH: ToolDescriptor = ToolDescriptor::new("search").description("Search the web.");
//! const FORGET: ToolDescriptor = ToolDescriptor::new("mcp__memory__forget");
//!
//! let assembler = Assembler::new();
//! assembler.add_contributor(
//!     Bundle::new()
//!         .section(SectionSource::fixed("persona", 0, "You are a careful assistant."))
//!         .section(SectionSource::computed("date", 10, |_cx| "Today is Monday.".to_owned()))
//!         .tool(SEARCH)
//!         .tool(FORGET),
//! );
//! assembler.add_interceptor(ToolFilter::new().deny("mcp__memory__*").unwrap());
//!
//! let assembly = assembler.assemble(&AssemblyContext::new()).unwrap();
//! assert_eq!(assembly.system_text(), "You are a careful assistant.\n\nToday is Monday.");
//! assert_eq!(assembly.tool_names().collect::<Vec<_>>(), ["search"]);
//! ```

mod disclosure;
mod filter;
mod plan;

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, PoisonError, RwLock};

use crate::descriptor::ToolDescriptor;
use crate::literal::Text;
use crate::render::{LossPolicy, RenderCache, RenderError, Rendered, Renderer, Report};

pub use disclosure::{DisclosureSearch, ProgressiveDisclosure};
pub use filter::{PatternError, ToolFilter, ToolPattern};
pub use plan::{
    Budgets, Decision, DeferWhen, Deferral, HostLimits, Limit, Namespace, Plan, PlanEntry,
    PlanTarget, PlanTool, Planner, Reason, SearchTool, SharedRenderer, StrictBudget, StrictCost,
    TargetProfile, estimated_tokens,
};

/// The order key of a section: lower comes first.
pub type OrderKey = i32;

/// One evaluated text section of an assembly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The section's name (for interceptors and debugging; never sent to the model).
    pub name: Text,
    /// Where the section goes: lower keys come first.
    pub order: OrderKey,
    /// The text; an empty or whitespace-only section is dropped when rendered.
    pub text: Text,
}

impl Section {
    /// A section with the given name, order key and text.
    pub fn new(name: impl Into<Text>, order: OrderKey, text: impl Into<Text>) -> Self {
        Section { name: name.into(), order, text: text.into() }
    }

    /// Whether the section has no visible text (it is dropped when rendered).
    pub fn is_empty(&self) -> bool {
        self.text.trim().is_empty()
    }
}

/// Everything one model call is told: ordered text sections and tool descriptors.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PromptAssembly {
    /// The text sections, sorted by order key then name once the assembler returns them.
    pub sections: Vec<Section>,
    /// The tools, sorted by name once the assembler returns them.
    pub tools: Vec<Arc<ToolDescriptor>>,
}

impl PromptAssembly {
    /// An empty assembly.
    pub fn new() -> Self {
        PromptAssembly::default()
    }

    /// The system text: non-empty sections in order key order (ties by name, then by position),
    /// each stripped of surrounding blank lines and trailing whitespace, joined by one blank line.
    /// Empty when no section has text.
    pub fn system_text(&self) -> String {
        let mut sections: Vec<&Section> = self.sections.iter().filter(|s| !s.is_empty()).collect();
        sections.sort_by(|a, b| section_order(a, b));
        let mut out = String::new();
        for section in sections {
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            out.push_str(tidy(&section.text));
        }
        out
    }

    /// The tools rendered for one provider, in the assembly's order: the renderer's set check,
    /// then each tool. What a provider crate's request fragment puts in its `tools` field.
    ///
    /// # Errors
    ///
    /// The renderer's set-level error, or the first tool that cannot be rendered.
    pub fn render_tools<R: Renderer + ?Sized>(
        &self,
        renderer: &R,
        policy: LossPolicy,
    ) -> Result<Vec<Rendered>, RenderError> {
        let tools: Vec<&ToolDescriptor> = self.tools.iter().map(|t| &**t).collect();
        renderer.render_set(&tools, policy)
    }

    /// Like [`render_tools`](Self::render_tools), through `cache`: the same tools (the same
    /// `Arc`s, in the same order) as an earlier call are one lookup, and each tool rendered
    /// before is reused (assemblies share the contributors' `Arc`s, so the next turn's tools
    /// are cache hits).
    ///
    /// # Errors
    ///
    /// The renderer's set-level error, or the first tool that cannot be rendered.
    pub fn render_tools_cached<R: Renderer + ?Sized>(
        &self,
        renderer: &R,
        policy: LossPolicy,
        cache: &RenderCache,
    ) -> Result<Vec<Rendered>, RenderError> {
        let set = cache.get_shared_set(renderer, &self.tools, policy)?;
        Ok(set.tools().to_vec())
    }

    /// The tools' renderings, through `cache` when given ([`render_tools_cached`](Self::render_tools_cached),
    /// else [`render_tools`](Self::render_tools)): what a provider crate's `request_fragment`
    /// writes and keeps ([`RequestFragment::new`]).
    ///
    /// # Errors
    ///
    /// The renderer refuses the set or a tool.
    pub fn rendered_tools<R: Renderer + ?Sized>(
        &self,
        renderer: &R,
        policy: LossPolicy,
        cache: Option<&RenderCache>,
    ) -> Result<Vec<Rendered>, RenderError> {
        match cache {
            Some(cache) => self.render_tools_cached(renderer, policy, cache),
            None => self.render_tools(renderer, policy),
        }
    }

    /// The tools as wire JSON values with the merged report of every change made, through
    /// `cache` when given: the `tools` half of every provider's request fragment.
    ///
    /// # Errors
    ///
    /// The renderer refuses the set or a tool.
    pub fn tool_values<R: Renderer + ?Sized>(
        &self,
        renderer: &R,
        policy: LossPolicy,
        cache: Option<&RenderCache>,
    ) -> Result<(Vec<serde_json::Value>, Report), RenderError> {
        let rendered = self.rendered_tools(renderer, policy, cache)?;
        let mut report = Report::default();
        let mut tools = Vec::with_capacity(rendered.len());
        for r in &rendered {
            report.extend(r.report().clone());
            tools.push(r.to_value());
        }
        Ok((tools, report))
    }

    /// The tool named `name`, if present.
    pub fn tool(&self, name: &str) -> Option<&Arc<ToolDescriptor>> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// The tool names, in order.
    pub fn tool_names(&self) -> impl Iterator<Item = &str> + '_ {
        self.tools.iter().map(|t| t.name.as_str())
    }

    /// Adds a tool, replacing any tool of the same name in place.
    pub fn put_tool(&mut self, tool: impl Into<Arc<ToolDescriptor>>) {
        let tool = tool.into();
        match self.tools.iter_mut().find(|t| t.name == tool.name) {
            Some(slot) => *slot = tool,
            None => self.tools.push(tool),
        }
    }

    /// Removes the tool named `name`; returns it if it was present.
    pub fn remove_tool(&mut self, name: &str) -> Option<Arc<ToolDescriptor>> {
        let at = self.tools.iter().position(|t| t.name == name)?;
        Some(self.tools.remove(at))
    }

    /// Keeps only the tools for which `keep` returns true.
    pub fn retain_tools(&mut self, mut keep: impl FnMut(&ToolDescriptor) -> bool) {
        self.tools.retain(|t| keep(t));
    }

    /// The first section named `name`, if any.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// Mutable access to the first section named `name`, if any.
    pub fn section_mut(&mut self, name: &str) -> Option<&mut Section> {
        self.sections.iter_mut().find(|s| s.name == name)
    }

    /// Adds a section.
    pub fn push_section(&mut self, section: Section) {
        self.sections.push(section);
    }

    /// Removes every section named `name`; returns how many were removed.
    pub fn remove_sections(&mut self, name: &str) -> usize {
        let before = self.sections.len();
        self.sections.retain(|s| s.name != name);
        before - self.sections.len()
    }

    /// Puts the assembly in the canonical order the assembler returns: sections by order key,
    /// then name (stable); tools by name, keeping only the first of several with the same name
    /// (the others are skipped with a `tracing` warning, since providers reject duplicates).
    pub fn normalize(&mut self) {
        self.sections.sort_by(section_order);
        self.tools.sort_by(|a, b| a.name.cmp(&b.name));
        self.tools.dedup_by(|later, first| {
            let duplicate = later.name == first.name;
            if duplicate {
                tracing::warn!(
                    tool = %later.name,
                    "the tool `{}` is offered twice; keeping the first",
                    later.name
                );
            }
            duplicate
        });
    }
}

fn section_order(a: &Section, b: &Section) -> std::cmp::Ordering {
    a.order.cmp(&b.order).then_with(|| a.name.cmp(&b.name))
}

/// A section's text without surrounding blank lines or trailing whitespace; leading spaces of
/// the first line are kept (they may be indentation).
fn tidy(text: &str) -> &str {
    let text = text.trim_end();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        if !line.trim().is_empty() {
            break;
        }
        start += line.len();
    }
    &text[start..]
}

/// Per-call data for contributors, computed sections and interceptors: typed values looked up by
/// type (the user, the locale, the conversation's state...).
#[derive(Default)]
pub struct AssemblyContext {
    values: HashMap<TypeId, Box<dyn Any + Send + Sync>>,
}

impl AssemblyContext {
    /// An empty context.
    pub fn new() -> Self {
        AssemblyContext::default()
    }

    /// The context with `value` stored under its type (replacing any previous one).
    #[must_use]
    pub fn with<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.insert(value);
        self
    }

    /// Stores `value` under its type, replacing any previous one.
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.values.insert(TypeId::of::<T>(), Box::new(value));
    }

    /// The value stored under type `T`, if any.
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.values.get(&TypeId::of::<T>()).and_then(|v| v.downcast_ref::<T>())
    }
}

impl fmt::Debug for AssemblyContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AssemblyContext").field("values", &self.values.len()).finish()
    }
}

/// What a contributor adds to one assembly.
#[derive(Clone, Debug, Default)]
pub struct Contribution {
    sections: Vec<Section>,
    tools: Vec<Arc<ToolDescriptor>>,
}

impl Contribution {
    /// An empty contribution.
    pub fn new() -> Self {
        Contribution::default()
    }

    /// Adds a section.
    pub fn section(&mut self, section: Section) -> &mut Self {
        self.sections.push(section);
        self
    }

    /// Adds a tool (a `ToolDescriptor` or an `Arc` of one).
    pub fn tool(&mut self, tool: impl Into<Arc<ToolDescriptor>>) -> &mut Self {
        self.tools.push(tool.into());
        self
    }

    /// Adds several tools.
    pub fn tools<T: Into<Arc<ToolDescriptor>>>(
        &mut self,
        tools: impl IntoIterator<Item = T>,
    ) -> &mut Self {
        self.tools.extend(tools.into_iter().map(Into::into));
        self
    }

    /// The sections added so far.
    pub fn sections_added(&self) -> &[Section] {
        &self.sections
    }

    /// The tools added so far.
    pub fn tools_added(&self) -> &[Arc<ToolDescriptor>] {
        &self.tools
    }
}

/// A source of sections and tools, asked on every assembly. The registry is one (it contributes
/// its tools); a [`Bundle`] or a [`SectionSource`] is one; so is any
/// `Fn(&AssemblyContext, &mut Contribution)` closure.
pub trait Contributor: Send + Sync {
    /// Adds this contributor's sections and tools for one assembly.
    fn contribute(&self, cx: &AssemblyContext, out: &mut Contribution);
}

impl<F> Contributor for F
where
    F: Fn(&AssemblyContext, &mut Contribution) + Send + Sync,
{
    fn contribute(&self, cx: &AssemblyContext, out: &mut Contribution) {
        self(cx, out);
    }
}

impl<C: Contributor + ?Sized> Contributor for Arc<C> {
    fn contribute(&self, cx: &AssemblyContext, out: &mut Contribution) {
        (**self).contribute(cx, out);
    }
}

type ComputeFn = dyn Fn(&AssemblyContext) -> String + Send + Sync;

/// The text of a registered section: fixed, or computed on every assembly.
#[derive(Clone)]
pub enum SectionText {
    /// The same text every time.
    Fixed(Text),
    /// A closure evaluated on every assembly.
    Computed(Arc<ComputeFn>),
}

impl fmt::Debug for SectionText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SectionText::Fixed(text) => f.debug_tuple("Fixed").field(text).finish(),
            SectionText::Computed(_) => f.write_str("Computed(..)"),
        }
    }
}

/// A registered section: a name, an order key and fixed or computed text. A contributor of its
/// one section.
#[derive(Clone, Debug)]
pub struct SectionSource {
    /// The section's name.
    pub name: Text,
    /// The section's order key.
    pub order: OrderKey,
    /// The text or the closure computing it.
    pub text: SectionText,
}

impl SectionSource {
    /// A section whose text never changes.
    pub fn fixed(name: impl Into<Text>, order: OrderKey, text: impl Into<Text>) -> Self {
        SectionSource { name: name.into(), order, text: SectionText::Fixed(text.into()) }
    }

    /// A section whose text `compute` produces on every assembly.
    pub fn computed(
        name: impl Into<Text>,
        order: OrderKey,
        compute: impl Fn(&AssemblyContext) -> String + Send + Sync + 'static,
    ) -> Self {
        SectionSource { name: name.into(), order, text: SectionText::Computed(Arc::new(compute)) }
    }

    /// Evaluates the section for one assembly.
    pub fn evaluate(&self, cx: &AssemblyContext) -> Section {
        let text = match &self.text {
            SectionText::Fixed(text) => text.clone(),
            SectionText::Computed(compute) => Text::Owned(compute(cx)),
        };
        Section { name: self.name.clone(), order: self.order, text }
    }
}

impl Contributor for SectionSource {
    fn contribute(&self, cx: &AssemblyContext, out: &mut Contribution) {
        out.section(self.evaluate(cx));
    }
}

/// A fixed set of sections (fixed or computed) and tools, contributed together and removed
/// together.
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct Bundle {
    sections: Vec<SectionSource>,
    tools: Vec<Arc<ToolDescriptor>>,
}

impl Bundle {
    /// An empty bundle.
    pub fn new() -> Self {
        Bundle::default()
    }

    /// Adds a section.
    pub fn section(mut self, section: SectionSource) -> Self {
        self.sections.push(section);
        self
    }

    /// Adds a tool.
    pub fn tool(mut self, tool: impl Into<Arc<ToolDescriptor>>) -> Self {
        self.tools.push(tool.into());
        self
    }

    /// Adds several tools.
    pub fn tools<T: Into<Arc<ToolDescriptor>>>(
        mut self,
        tools: impl IntoIterator<Item = T>,
    ) -> Self {
        self.tools.extend(tools.into_iter().map(Into::into));
        self
    }
}

impl Contributor for Bundle {
    fn contribute(&self, cx: &AssemblyContext, out: &mut Contribution) {
        for section in &self.sections {
            out.section(section.evaluate(cx));
        }
        out.tools(self.tools.iter().cloned());
    }
}

/// Why an assembly failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AssemblyError {
    /// An interceptor refused the assembly.
    #[error("interceptor `{interceptor}` refused the assembly: {message}")]
    Interceptor {
        /// The interceptor's name ([`Interceptor::name`]).
        interceptor: String,
        /// Why.
        message: String,
    },
}

impl AssemblyError {
    /// The error an interceptor returns to refuse an assembly.
    pub fn interceptor(interceptor: impl Into<String>, message: impl Into<String>) -> Self {
        AssemblyError::Interceptor { interceptor: interceptor.into(), message: message.into() }
    }
}

/// The rest of the interceptor chain, handed to each interceptor.
pub struct Next<'a> {
    rest: &'a [Arc<dyn Interceptor>],
    cx: &'a AssemblyContext,
}

impl<'a> Next<'a> {
    /// Runs the rest of the chain on `assembly` and returns what it made of it.
    ///
    /// # Errors
    ///
    /// The first error an interceptor further down returns.
    pub fn run(self, assembly: PromptAssembly) -> Result<PromptAssembly, AssemblyError> {
        match self.rest.split_first() {
            Some((first, rest)) => first.intercept(assembly, Next { rest, cx: self.cx }),
            None => Ok(assembly),
        }
    }

    /// The context of this assembly.
    pub fn context(&self) -> &'a AssemblyContext {
        self.cx
    }

    /// How many interceptors are left after this one.
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }
}

impl fmt::Debug for Next<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Next").field("remaining", &self.rest.len()).finish()
    }
}

/// A rewrite of the assembly: it receives the assembly and the rest of the chain, and may change
/// sections and tools, call [`Next::run`] (before or after its own changes, or both), or return
/// without calling it, which stops the chain.
pub trait Interceptor: Send + Sync {
    /// Rewrites `assembly`, usually ending with `next.run(assembly)`.
    ///
    /// # Errors
    ///
    /// An [`AssemblyError`] when the interceptor refuses the assembly (or passes on one from
    /// further down the chain).
    fn intercept(
        &self,
        assembly: PromptAssembly,
        next: Next<'_>,
    ) -> Result<PromptAssembly, AssemblyError>;

    /// A name for error messages and logs (defaults to the type name).
    fn name(&self) -> &str {
        std::any::type_name::<Self>()
    }
}

impl<I: Interceptor + ?Sized> Interceptor for Arc<I> {
    fn intercept(
        &self,
        assembly: PromptAssembly,
        next: Next<'_>,
    ) -> Result<PromptAssembly, AssemblyError> {
        (**self).intercept(assembly, next)
    }

    fn name(&self) -> &str {
        (**self).name()
    }
}

/// An interceptor made from a closure (see [`interceptor_fn`]).
pub struct FnInterceptor<F> {
    name: Text,
    f: F,
}

impl<F> fmt::Debug for FnInterceptor<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FnInterceptor").field("name", &self.name).finish()
    }
}

/// An interceptor from a named closure `|assembly, next| ...`; the signature is spelled out here
/// so the closure's types are inferred.
pub fn interceptor_fn<F>(name: impl Into<Text>, f: F) -> FnInterceptor<F>
where
    F: Fn(PromptAssembly, Next<'_>) -> Result<PromptAssembly, AssemblyError> + Send + Sync,
{
    FnInterceptor { name: name.into(), f }
}

impl<F> Interceptor for FnInterceptor<F>
where
    F: Fn(PromptAssembly, Next<'_>) -> Result<PromptAssembly, AssemblyError> + Send + Sync,
{
    fn intercept(
        &self,
        assembly: PromptAssembly,
        next: Next<'_>,
    ) -> Result<PromptAssembly, AssemblyError> {
        (self.f)(assembly, next)
    }

    fn name(&self) -> &str {
        &self.name
    }
}

/// The handle of a registered contributor, to remove it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContributorId(u64);

/// The handle of a registered interceptor, to remove it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InterceptorId(u64);

#[derive(Default)]
struct Registrations {
    next_id: u64,
    contributors: Vec<(ContributorId, Arc<dyn Contributor>)>,
    interceptors: Vec<(InterceptorId, Arc<dyn Interceptor>)>,
}

/// Gathers sections and tools from contributors and runs them through interceptors; one
/// [`PromptAssembly`] per [`assemble`](Assembler::assemble) call.
///
/// `Send + Sync`: share it behind an `Arc` and assemble from any thread. Registration takes a
/// short write lock; an assembly takes a snapshot of the registrations and runs without holding
/// any lock, so a contributor or interceptor may itself register or remove things (the change
/// applies from the next assembly on).
#[derive(Default)]
pub struct Assembler {
    inner: RwLock<Registrations>,
}

impl fmt::Debug for Assembler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = self.inner.read().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("Assembler")
            .field("contributors", &inner.contributors.len())
            .field(
                "interceptors",
                &inner.interceptors.iter().map(|(_, i)| i.name().to_owned()).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Assembler {
    /// An assembler with no contributors and no interceptors.
    pub fn new() -> Self {
        Assembler::default()
    }

    /// Registers a contributor, asked on every assembly after those registered before it.
    pub fn add_contributor(&self, contributor: impl Contributor + 'static) -> ContributorId {
        self.add_contributor_arc(Arc::new(contributor))
    }

    /// Registers a shared contributor (e.g. an `Arc` the caller keeps using).
    pub fn add_contributor_arc(&self, contributor: Arc<dyn Contributor>) -> ContributorId {
        let mut inner = self.write();
        let id = ContributorId(inner.next_id);
        inner.next_id += 1;
        inner.contributors.push((id, contributor));
        id
    }

    /// Registers one section (fixed or computed) as its own contributor.
    pub fn add_section(&self, section: SectionSource) -> ContributorId {
        self.add_contributor(section)
    }

    /// Removes a contributor and, from the next assembly on, everything it added. Returns whether
    /// it was registered.
    pub fn remove_contributor(&self, id: ContributorId) -> bool {
        let mut inner = self.write();
        let before = inner.contributors.len();
        inner.contributors.retain(|(c, _)| *c != id);
        inner.contributors.len() != before
    }

    /// Registers an interceptor; it runs after those registered before it.
    pub fn add_interceptor(&self, interceptor: impl Interceptor + 'static) -> InterceptorId {
        self.add_interceptor_arc(Arc::new(interceptor))
    }

    /// Registers a shared interceptor.
    pub fn add_interceptor_arc(&self, interceptor: Arc<dyn Interceptor>) -> InterceptorId {
        let mut inner = self.write();
        let id = InterceptorId(inner.next_id);
        inner.next_id += 1;
        inner.interceptors.push((id, interceptor));
        id
    }

    /// Removes an interceptor. Returns whether it was registered.
    pub fn remove_interceptor(&self, id: InterceptorId) -> bool {
        let mut inner = self.write();
        let before = inner.interceptors.len();
        inner.interceptors.retain(|(i, _)| *i != id);
        inner.interceptors.len() != before
    }

    /// How many contributors are registered.
    pub fn contributor_count(&self) -> usize {
        self.read().contributors.len()
    }

    /// How many interceptors are registered.
    pub fn interceptor_count(&self) -> usize {
        self.read().interceptors.len()
    }

    /// Builds one assembly: asks every contributor (registration order), puts sections and tools
    /// in canonical order (see the [module docs](self)), runs the interceptors in registration
    /// order and puts the result in canonical order again.
    ///
    /// # Errors
    ///
    /// The first error an interceptor returns.
    pub fn assemble(&self, cx: &AssemblyContext) -> Result<PromptAssembly, AssemblyError> {
        let (contributors, interceptors): (Vec<_>, Vec<_>) = {
            let inner = self.read();
            (
                inner.contributors.iter().map(|(_, c)| Arc::clone(c)).collect(),
                inner.interceptors.iter().map(|(_, i)| Arc::clone(i)).collect(),
            )
        };

        let mut gathered = Contribution::new();
        for contributor in &contributors {
            contributor.contribute(cx, &mut gathered);
        }
        let mut assembly = PromptAssembly { sections: gathered.sections, tools: gathered.tools };
        assembly.normalize();

        let mut assembly = Next { rest: &interceptors, cx }.run(assembly)?;
        assembly.normalize();
        Ok(assembly)
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Registrations> {
        self.inner.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Registrations> {
        self.inner.write().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The part of one provider's request body that an assembly decides (system slot and tools),
/// with the merged report of the tools' renderings and the renderings themselves. Each
/// provider crate's `request_fragment` returns one.
///
/// It keeps the way back: give the model's calls back with
/// [`WayBack::restore_all`](crate::WayBack::restore_all) on the fragment, without rendering
/// again.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestFragment {
    /// A JSON object holding only the keys the assembly fills.
    pub body: serde_json::Value,
    /// Every change made while rendering the tools, tool by tool in assembly order.
    pub report: Report,
    /// The tools' renderings, in assembly order: the fragment's way back.
    pub tools: Vec<Rendered>,
}

impl RequestFragment {
    /// The fragment `body` holding `tools` (rendered by the provider's renderer, written into
    /// `body` by the caller), with their reports merged in order.
    pub fn new(body: serde_json::Value, tools: Vec<Rendered>) -> Self {
        let mut report = Report::default();
        for r in &tools {
            report.extend(r.report().clone());
        }
        RequestFragment { body, report, tools }
    }
}

/// The renderings the fragment was written from: a call is given back by its tool's inverse.
impl crate::render::WayBack for RequestFragment {
    fn inverse_of(&self, wire_name: &str) -> Option<&crate::render::Inverse> {
        self.tools.inverse_of(wire_name)
    }
}
