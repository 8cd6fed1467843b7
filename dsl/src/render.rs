//! Rendering: the [`Renderer`] extension point, its [`Report`] of changes, [`RenderError`],
//! the [`RenderCache`], and the lowering helpers provider crates share ([`JsonWriter`], a
//! configurable JSON Schema writer driven by [`SchemaOptions`], [`NameRule`]).
//!
//! Owns how a descriptor becomes provider JSON text; it does not know any provider. Each
//! `tooldef-<provider>` crate implements [`Renderer`] with the helpers here, so that the
//! same lowering (nullable style, defaults moved into descriptions, strict closing of objects,
//! `$defs` or inlining, recursion detection) is written once.
//!
//! # Implementing a renderer
//!
//! ```
//! use tooldef::render::{
//!     JsonWriter, Policy, RenderCtx, RenderError, Rendered, Renderer, SchemaOptions,
//!     write_input_schema,
//! };
//! use tooldef::{Param, ToolDescriptor};
//!
//! /// `{"tool": name, "doc": description, "args": <JSON Schema>}` for an in-house gateway.
//! struct Gateway;
//!
//! impl Renderer for Gateway {
//!     fn name(&self) -> &str {
//!         "gateway"
//!     }
//!
//!     fn render(&self, tool: &ToolDescriptor, policy: Policy) -> Result<Rendered, RenderError> {
//!         let mut ctx = RenderCtx::new(tool, policy);
//!         let mut out = JsonWriter::new();
//!         out.begin_object();
//!         out.key("tool");
//!         out.string(tool.name.as_str());
//!         out.key("doc");
//!         out.string(&tool.description);
//!         out.key("args");
//!         write_input_schema(&mut out, tool, &SchemaOptions::JSON_SCHEMA, &mut ctx, "/args")?;
//!         out.end_object();
//!         Ok(ctx.finish(out))
//!     }
//! }
//!
//! static ECHO: ToolDescriptor =
//!     ToolDescriptor::new("echo").description("Echo text.").params(const { &[Param::string("text")] });
//! let rendered = Gateway.render(&ECHO, Policy::Lenient).unwrap();
//! assert_eq!(
//!     rendered.json(),
//!     r#"{"tool":"echo","doc":"Echo text.","args":{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}}"#
//! );
//! assert!(rendered.report().is_empty());
//! ```

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::{Arc, RwLock};

use serde_json::Value;

use crate::descriptor::{Param, ToolDescriptor};
use crate::literal::Literal;
use crate::schema::{Additional, EnumValues, NumberSchema, Schema, SchemaKind};

// ---------------------------------------------------------------------------------------------
// Policy, report, errors
// ---------------------------------------------------------------------------------------------

/// What a renderer does with a change that loses meaning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Lossy changes are made and reported.
    #[default]
    Lenient,
    /// A lossy change is a [`RenderError`] with [`RenderRule::Lossy`].
    Strict,
}

/// What kind of change a renderer made to fit its provider.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChangeKind {
    /// A keyword the provider does not accept was written into the description text.
    MovedToDescription,
    /// Something was removed with no place to keep it.
    Dropped,
    /// An optional property was made required (and nullable, so that it can still be "absent").
    MadeRequired,
    /// An open or typed (map) object was closed.
    Closed,
    /// A reference was replaced by its definition.
    Inlined,
    /// Same meaning, another spelling (a `$ref` wrapped in `anyOf`, a bound clamped and noted).
    Rewritten,
    /// Tool-level information the provider's wire format has no field for (title, annotations,
    /// output schema); the input contract is unchanged.
    Omitted,
}

/// One change a renderer made to fit its provider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The tool's name.
    pub tool: String,
    /// JSON pointer of the place in the rendered output (`/function/parameters/properties/days`).
    pub pointer: String,
    /// Dotted path of the IR parameter (`filter.limit`, `tags[]`, `$defs.Node.label`); empty for
    /// the tool itself.
    pub param: String,
    /// What kind of change.
    pub kind: ChangeKind,
    /// The JSON Schema keyword or wire field concerned (`default`, `minimum`, `annotations`).
    pub keyword: Cow<'static, str>,
    /// What was done, in words.
    pub detail: String,
    /// Whether meaning was lost (the provider now accepts or conveys something else).
    pub lossy: bool,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool `{}`", self.tool)?;
        if !self.param.is_empty() {
            write!(f, ", parameter `{}`", self.param)?;
        }
        if !self.pointer.is_empty() {
            write!(f, " at {}", self.pointer)?;
        }
        write!(f, ": {}", self.detail)?;
        if self.lossy {
            f.write_str(" (lossy)")?;
        }
        Ok(())
    }
}

/// Every change made while rendering, in the order made.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The changes.
    pub changes: Vec<Change>,
}

impl Report {
    /// Whether nothing was changed.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// The number of changes.
    pub fn len(&self) -> usize {
        self.changes.len()
    }

    /// The changes, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Change> {
        self.changes.iter()
    }

    /// The changes that lost meaning.
    pub fn lossy(&self) -> impl Iterator<Item = &Change> + '_ {
        self.changes.iter().filter(|c| c.lossy)
    }

    /// Whether every change kept the meaning.
    pub fn is_lossless(&self) -> bool {
        self.changes.iter().all(|c| !c.lossy)
    }

    /// Appends the changes of another report.
    pub fn extend(&mut self, other: Report) {
        self.changes.extend(other.changes);
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.changes {
            writeln!(f, "{c}")?;
        }
        Ok(())
    }
}

impl<'a> IntoIterator for &'a Report {
    type Item = &'a Change;
    type IntoIter = std::slice::Iter<'a, Change>;

    fn into_iter(self) -> Self::IntoIter {
        self.changes.iter()
    }
}

/// The rule a rendering breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RenderRule {
    /// The tool name breaks the provider's name rule.
    Name,
    /// A provider limit is exceeded (properties, nesting, enum values, length).
    Limit,
    /// A recursive definition where the provider or the chosen style does not allow one.
    Recursion,
    /// A reference names no definition.
    UnknownRef,
    /// A change would lose meaning and the policy is [`Policy::Strict`].
    Lossy,
    /// The provider cannot express the schema at all.
    Unsupported,
    /// A limit over the whole set of tools in one request is exceeded.
    SetLimit,
}

/// Why a descriptor (or a set of them) cannot be rendered for a provider.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RenderError {
    /// The tool's name (for set-level errors, the tool at which the limit was crossed).
    pub tool: String,
    /// JSON pointer in the rendered output; empty for the tool as a whole.
    pub pointer: String,
    /// Dotted path of the IR parameter; empty for the tool as a whole.
    pub param: String,
    /// The rule.
    pub rule: RenderRule,
    /// The whole message, naming the tool, the place and the rule.
    pub message: String,
}

impl RenderError {
    /// An error; the message is built from the parts and `detail`.
    pub fn new(
        tool: impl Into<String>,
        pointer: impl Into<String>,
        param: impl Into<String>,
        rule: RenderRule,
        detail: impl fmt::Display,
    ) -> Self {
        let (tool, pointer, param) = (tool.into(), pointer.into(), param.into());
        let mut message = format!("tool `{tool}`");
        if !param.is_empty() {
            let _ = write!(message, ", parameter `{param}`");
        }
        if !pointer.is_empty() {
            let _ = write!(message, " at {pointer}");
        }
        let _ = write!(message, ": {detail}");
        RenderError { tool, pointer, param, rule, message }
    }
}

// ---------------------------------------------------------------------------------------------
// Rendered output and the trait
// ---------------------------------------------------------------------------------------------

#[derive(Debug)]
struct RenderedInner {
    name: String,
    // A `String`, not `Box<str>`: shrinking would copy the text once more.
    json: String,
    report: Report,
}

/// One tool rendered for a provider: its wire JSON text and the report of changes.
///
/// Cloning is one reference-count increment, which is what makes cached renders cheap.
#[derive(Clone, Debug)]
pub struct Rendered(Arc<RenderedInner>);

impl Rendered {
    /// A rendering of the tool `name` from its JSON text and report.
    pub fn new(name: impl Into<String>, json: String, report: Report) -> Self {
        Rendered(Arc::new(RenderedInner { name: name.into(), json, report }))
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
}

impl PartialEq for RenderedSet {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0.tools == other.0.tools
    }
}

/// Renders descriptors to one provider's wire JSON.
///
/// Implement it for a provider tooldef does not ship: write the wire object with
/// [`JsonWriter`], the parameter schema with [`write_input_schema`] and a [`SchemaOptions`]
/// that says what the provider accepts, record every change through [`RenderCtx`], and return
/// [`RenderCtx::finish`]. See the [module docs](self) for a complete example.
pub trait Renderer {
    /// A short stable name (`openai-chat`, `anthropic`), used in messages.
    fn name(&self) -> &str;

    /// Identity of the renderer *and its options*, used by [`RenderCache`]: two renderers with
    /// the same key must produce the same output for the same descriptor, and accept or refuse
    /// the same sets in [`check_set`](Self::check_set). Defaults to [`name`](Self::name);
    /// override it when options change the output or the set limits.
    fn cache_key(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.name())
    }

    /// Renders one tool.
    ///
    /// # Errors
    ///
    /// The tool cannot be expressed for the provider, or a lossy change under
    /// [`Policy::Strict`].
    fn render(&self, tool: &ToolDescriptor, policy: Policy) -> Result<Rendered, RenderError>;

    /// Checks the limits that hold over all tools of one request (how many strict tools, how
    /// many optional parameters...). The default accepts any set.
    ///
    /// # Errors
    ///
    /// A [`RenderRule::SetLimit`] error naming the limit.
    fn check_set(&self, tools: &[&ToolDescriptor], policy: Policy) -> Result<(), RenderError> {
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
        policy: Policy,
    ) -> Result<Vec<Rendered>, RenderError> {
        let _span =
            tracing::debug_span!("tooldef.render_set", renderer = self.name(), tools = tools.len())
                .entered();
        self.check_set(tools, policy)?;
        tools.iter().map(|t| self.render(t, policy)).collect()
    }
}

impl<R: Renderer + ?Sized> Renderer for &R {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn cache_key(&self) -> Cow<'_, str> {
        (**self).cache_key()
    }
    fn render(&self, tool: &ToolDescriptor, policy: Policy) -> Result<Rendered, RenderError> {
        (**self).render(tool, policy)
    }
    fn check_set(&self, tools: &[&ToolDescriptor], policy: Policy) -> Result<(), RenderError> {
        (**self).check_set(tools, policy)
    }
    fn render_set(
        &self,
        tools: &[&ToolDescriptor],
        policy: Policy,
    ) -> Result<Vec<Rendered>, RenderError> {
        (**self).render_set(tools, policy)
    }
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

/// The state of one tool's rendering: its name, the policy, and the report being built.
#[derive(Debug)]
pub struct RenderCtx {
    tool: String,
    policy: Policy,
    report: Report,
}

impl RenderCtx {
    /// Starts rendering `tool` under `policy`.
    pub fn new(tool: &ToolDescriptor, policy: Policy) -> Self {
        RenderCtx { tool: tool.name.as_str().to_owned(), policy, report: Report::default() }
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The report so far.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// Records a change.
    ///
    /// # Errors
    ///
    /// [`RenderRule::Lossy`] when `lossy` and the policy is [`Policy::Strict`].
    pub fn change(
        &mut self,
        pointer: &str,
        param: &str,
        kind: ChangeKind,
        keyword: impl Into<Cow<'static, str>>,
        detail: impl Into<String>,
        lossy: bool,
    ) -> Result<(), RenderError> {
        let detail = detail.into();
        if lossy && self.policy == Policy::Strict {
            return Err(self.error(
                pointer,
                param,
                RenderRule::Lossy,
                format_args!("{detail}; this loses meaning and the policy is strict"),
            ));
        }
        self.report.changes.push(Change {
            tool: self.tool.clone(),
            pointer: pointer.to_owned(),
            param: param.to_owned(),
            kind,
            keyword: keyword.into(),
            detail,
            lossy,
        });
        Ok(())
    }

    /// An error about this tool.
    pub fn error(
        &self,
        pointer: &str,
        param: &str,
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
        rule.check(&self.tool)
            .map_err(|why| self.error("/name", "", RenderRule::Name, format_args!("{why}")))
    }

    /// The finished rendering.
    pub fn finish(self, out: JsonWriter) -> Rendered {
        Rendered::new(self.tool, out.finish(), self.report)
    }
}

/// A provider's name rule (tool or property names): allowed bytes, allowed first byte, maximum
/// length.
///
/// Two rules are equal when their patterns and maximum lengths are: the pattern names the rule.
#[derive(Clone, Copy, Debug)]
pub struct NameRule {
    /// The rule as a regular expression, for messages.
    pub pattern: &'static str,
    /// Maximum length in bytes.
    pub max_len: usize,
    /// Whether a byte may appear in the name.
    pub allowed: fn(u8) -> bool,
    /// Whether a byte may start the name.
    pub first: fn(u8) -> bool,
}

impl PartialEq for NameRule {
    fn eq(&self, other: &Self) -> bool {
        self.pattern == other.pattern && self.max_len == other.max_len
    }
}

impl Eq for NameRule {}

impl Hash for NameRule {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.pattern.hash(state);
        self.max_len.hash(state);
    }
}

fn word_or_dash(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

impl NameRule {
    /// `^[a-zA-Z0-9_-]{1,64}$`: OpenAI and the OpenAI-compatible providers, Bedrock.
    pub const COMMON_64: NameRule = NameRule {
        pattern: "^[a-zA-Z0-9_-]{1,64}$",
        max_len: 64,
        allowed: word_or_dash,
        first: word_or_dash,
    };

    /// `^[a-zA-Z0-9_-]{1,128}$`: Anthropic.
    pub const COMMON_128: NameRule = NameRule {
        pattern: "^[a-zA-Z0-9_-]{1,128}$",
        max_len: 128,
        allowed: word_or_dash,
        first: word_or_dash,
    };

    /// Checks `name`; the error says what is wrong.
    ///
    /// # Errors
    ///
    /// A sentence naming the rule and the fault.
    pub fn check(&self, name: &str) -> Result<(), String> {
        let bytes = name.as_bytes();
        if bytes.is_empty() {
            return Err(format!("the name is empty; it must match {}", self.pattern));
        }
        if bytes.len() > self.max_len {
            return Err(format!(
                "the name is {} characters long; {} allows at most {}",
                bytes.len(),
                self.pattern,
                self.max_len
            ));
        }
        if !(self.first)(bytes[0]) {
            return Err(format!(
                "the name starts with {:?}, which {} does not allow",
                name.chars().next().unwrap_or('?'),
                self.pattern
            ));
        }
        if let Some(at) = bytes.iter().position(|b| !(self.allowed)(*b)) {
            return Err(format!(
                "the name has the character {:?} at byte {at}, which {} does not allow",
                name[at..].chars().next().unwrap_or('?'),
                self.pattern
            ));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Cache
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum DescKey {
    Address(usize, Policy),
    Content(u64, Policy),
}

enum Held {
    Static,
    Shared(#[allow(dead_code)] Arc<ToolDescriptor>),
    Content(Box<ToolDescriptor>),
}

struct Entry {
    held: Held,
    rendered: Rendered,
}

/// A small multiplicative hasher: keys are addresses or already-mixed 64-bit hashes.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

type Shelf = HashMap<DescKey, Vec<Entry>, BuildHasherDefault<KeyHasher>>;

/// A cached set: the renderer key, policy and descriptor addresses it was rendered for.
struct SetEntry {
    renderer: Box<str>,
    policy: Policy,
    addresses: Box<[usize]>,
    /// The `Arc`s of a shared set, kept alive so that their addresses cannot be reused.
    _held: Vec<Arc<ToolDescriptor>>,
    rendered: RenderedSet,
}

type SetShelf = HashMap<u64, Vec<SetEntry>, BuildHasherDefault<KeyHasher>>;

fn set_hash(renderer: &str, policy: Policy, addresses: impl Iterator<Item = usize>) -> u64 {
    let mut h = KeyHasher::default();
    renderer.hash(&mut h);
    policy.hash(&mut h);
    for a in addresses {
        h.write_usize(a);
    }
    h.finish()
}

/// Renderings computed once per (renderer key, descriptor, policy) and shared afterwards.
///
/// Three ways to name a descriptor: by `'static` address ([`get_static`](Self::get_static), the
/// cheapest: what `#[tool]` and `const` descriptors use), by [`Arc`] identity
/// ([`get_shared`](Self::get_shared); the cache keeps the `Arc` alive so the address cannot be
/// reused), or by content ([`get`](Self::get): hashes the descriptor and compares on a hit).
/// Errors are not cached. Thread-safe; a hit takes a read lock and clones one [`Arc`].
///
/// Whole request sets are cached too ([`get_static_set`](Self::get_static_set),
/// [`get_shared_set`](Self::get_shared_set)): a hit costs one hash over the descriptors'
/// addresses and one [`Arc`] clone, whatever the number of tools. Every distinct set is kept
/// until [`clear`](Self::clear).
#[derive(Default)]
pub struct RenderCache {
    shelves: RwLock<Vec<(Box<str>, Shelf)>>,
    sets: RwLock<SetShelf>,
}

impl fmt::Debug for RenderCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RenderCache").field("len", &self.len()).finish()
    }
}

impl RenderCache {
    /// An empty cache.
    pub fn new() -> Self {
        RenderCache::default()
    }

    /// The number of cached renderings.
    pub fn len(&self) -> usize {
        let shelves = self.shelves.read().unwrap_or_else(|e| e.into_inner());
        shelves.iter().map(|(_, s)| s.values().map(Vec::len).sum::<usize>()).sum()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets everything, tools and sets.
    pub fn clear(&self) {
        self.shelves.write().unwrap_or_else(|e| e.into_inner()).clear();
        self.sets.write().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// The number of cached sets.
    pub fn set_count(&self) -> usize {
        let sets = self.sets.read().unwrap_or_else(|e| e.into_inner());
        sets.values().map(Vec::len).sum()
    }

    /// The cached set of `tools` (keyed by their addresses), or a new one, stored: the
    /// renderer's [`Renderer::check_set`], then `render_one` for each tool in order.
    fn set<R, T>(
        &self,
        renderer: &R,
        policy: Policy,
        tools: &[T],
        held: impl FnOnce() -> Vec<Arc<ToolDescriptor>>,
        render_one: impl Fn(&T) -> Result<Rendered, RenderError>,
    ) -> Result<RenderedSet, RenderError>
    where
        R: Renderer + ?Sized,
        T: std::ops::Deref<Target = ToolDescriptor>,
    {
        let addresses = || tools.iter().map(|t| std::ptr::from_ref::<ToolDescriptor>(t) as usize);
        let rkey = renderer.cache_key();
        let hash = set_hash(&rkey, policy, addresses());
        let same = |e: &SetEntry| {
            *e.renderer == *rkey
                && e.policy == policy
                && e.addresses.iter().copied().eq(addresses())
        };
        {
            let sets = self.sets.read().unwrap_or_else(|e| e.into_inner());
            if let Some(e) = sets.get(&hash).and_then(|bucket| bucket.iter().find(|e| same(e))) {
                return Ok(e.rendered.clone());
            }
        }
        let refs: Vec<&ToolDescriptor> = tools.iter().map(|t| &**t).collect();
        renderer.check_set(&refs, policy)?;
        let rendered = RenderedSet::new(tools.iter().map(render_one).collect::<Result<_, _>>()?);
        let mut sets = self.sets.write().unwrap_or_else(|e| e.into_inner());
        let bucket = sets.entry(hash).or_default();
        if !bucket.iter().any(same) {
            bucket.push(SetEntry {
                renderer: rkey.as_ref().into(),
                policy,
                addresses: addresses().collect(),
                _held: held(),
                rendered: rendered.clone(),
            });
        }
        Ok(rendered)
    }

    /// The rendering of a set of `'static` descriptors, in order, keyed by their addresses:
    /// [`Renderer::check_set`] and each tool (through [`get_static`](Self::get_static)) on the
    /// first call, one lookup afterwards.
    ///
    /// # Errors
    ///
    /// The renderer's set-level error, or the first tool that cannot be rendered (not cached).
    pub fn get_static_set<R: Renderer + ?Sized>(
        &self,
        renderer: &R,
        tools: &[&'static ToolDescriptor],
        policy: Policy,
    ) -> Result<RenderedSet, RenderError> {
        self.set(renderer, policy, tools, Vec::new, |t| self.get_static(renderer, t, policy))
    }

    /// The rendering of a set of shared descriptors, in order, keyed by the `Arc`s' identities
    /// (kept alive by the cache): [`Renderer::check_set`] and each tool (through
    /// [`get_shared`](Self::get_shared)) on the first call, one lookup afterwards.
    ///
    /// # Errors
    ///
    /// The renderer's set-level error, or the first tool that cannot be rendered (not cached).
    pub fn get_shared_set<R: Renderer + ?Sized>(
        &self,
        renderer: &R,
        tools: &[Arc<ToolDescriptor>],
        policy: Policy,
    ) -> Result<RenderedSet, RenderError> {
        let held = || tools.to_vec();
        self.set(renderer, policy, tools, held, |t| self.get_shared(renderer, t, policy))
    }

    fn lookup(
        &self,
        renderer: &str,
        key: DescKey,
        same: impl Fn(&Held) -> bool,
    ) -> Option<Rendered> {
        let shelves = self.shelves.read().unwrap_or_else(|e| e.into_inner());
        let (_, shelf) = shelves.iter().find(|(k, _)| **k == *renderer)?;
        shelf.get(&key)?.iter().find(|e| same(&e.held)).map(|e| e.rendered.clone())
    }

    fn store(&self, renderer: &str, key: DescKey, held: Held, rendered: Rendered) {
        let mut shelves = self.shelves.write().unwrap_or_else(|e| e.into_inner());
        let index = match shelves.iter().position(|(k, _)| **k == *renderer) {
            Some(i) => i,
            None => {
                shelves.push((renderer.into(), Shelf::default()));
                shelves.len() - 1
            }
        };
        let bucket = shelves[index].1.entry(key).or_default();
        let duplicate = bucket.iter().any(|e| match (&e.held, &held) {
            (Held::Content(a), Held::Content(b)) => a == b,
            (Held::Static, Held::Static) | (Held::Shared(_), Held::Shared(_)) => true,
            _ => false,
        });
        if !duplicate {
            bucket.push(Entry { held, rendered });
        }
    }

    /// The rendering of a `'static` descriptor, keyed by its address.
    ///
    /// # Errors
    ///
    /// The renderer's error (not cached).
    pub fn get_static<R: Renderer + ?Sized>(
        &self,
        renderer: &R,
        tool: &'static ToolDescriptor,
        policy: Policy,
    ) -> Result<Rendered, RenderError> {
        let rkey = renderer.cache_key();
        let key = DescKey::Address(std::ptr::from_ref(tool) as usize, policy);
        if let Some(hit) = self.lookup(&rkey, key, |h| matches!(h, Held::Static)) {
            return Ok(hit);
        }
        let rendered = render_traced(renderer, tool, policy)?;
        self.store(&rkey, key, Held::Static, rendered.clone());
        Ok(rendered)
    }

    /// The rendering of a shared descriptor, keyed by the `Arc`'s identity (kept alive by the
    /// cache). A descriptor changed through `Arc::make_mut` is a new allocation, so a new key.
    ///
    /// # Errors
    ///
    /// The renderer's error (not cached).
    pub fn get_shared<R: Renderer + ?Sized>(
        &self,
        renderer: &R,
        tool: &Arc<ToolDescriptor>,
        policy: Policy,
    ) -> Result<Rendered, RenderError> {
        let rkey = renderer.cache_key();
        let key = DescKey::Address(Arc::as_ptr(tool) as usize, policy);
        if let Some(hit) = self.lookup(&rkey, key, |h| matches!(h, Held::Shared(_))) {
            return Ok(hit);
        }
        let rendered = render_traced(renderer, tool, policy)?;
        self.store(&rkey, key, Held::Shared(Arc::clone(tool)), rendered.clone());
        Ok(rendered)
    }

    /// The rendering of any descriptor, keyed by its content (hashed, then compared).
    ///
    /// # Errors
    ///
    /// The renderer's error (not cached).
    pub fn get<R: Renderer + ?Sized>(
        &self,
        renderer: &R,
        tool: &ToolDescriptor,
        policy: Policy,
    ) -> Result<Rendered, RenderError> {
        let rkey = renderer.cache_key();
        let key = DescKey::Content(content_hash(tool), policy);
        let same = |h: &Held| matches!(h, Held::Content(d) if **d == *tool);
        if let Some(hit) = self.lookup(&rkey, key, same) {
            return Ok(hit);
        }
        let rendered = render_traced(renderer, tool, policy)?;
        self.store(&rkey, key, Held::Content(Box::new(tool.clone())), rendered.clone());
        Ok(rendered)
    }
}

/// One rendering (a cache miss) inside a `debug` span `tooldef.render` naming the renderer,
/// the tool and the policy.
fn render_traced<R: Renderer + ?Sized>(
    renderer: &R,
    tool: &ToolDescriptor,
    policy: Policy,
) -> Result<Rendered, RenderError> {
    let _span = tracing::debug_span!(
        "tooldef.render",
        renderer = renderer.name(),
        tool = tool.name.as_str(),
        policy = ?policy
    )
    .entered();
    renderer.render(tool, policy)
}

/// A 64-bit hash of a descriptor's content (what [`RenderCache::get`] keys by). Fast, not
/// collision-resistant: the cache compares descriptors on a hit.
pub fn content_hash(tool: &ToolDescriptor) -> u64 {
    let mut h = KeyHasher::default();
    tool.name.as_str().hash(&mut h);
    tool.title.hash(&mut h);
    tool.description.hash(&mut h);
    hash_params(&tool.params, &mut h);
    hash_additional(&tool.additional, &mut h);
    for d in tool.definitions.iter() {
        d.name.hash(&mut h);
        hash_schema(&d.schema, &mut h);
    }
    match &tool.output {
        Some(o) => hash_schema(o, &mut h),
        None => 0u8.hash(&mut h),
    }
    let a = &tool.annotations;
    (&a.title, a.read_only, a.destructive, a.idempotent, a.open_world).hash(&mut h);
    h.finish()
}

fn hash_params(params: &[Param], h: &mut impl Hasher) {
    params.len().hash(h);
    for p in params {
        p.name.hash(h);
        p.required.hash(h);
        hash_schema(&p.schema, h);
    }
}

fn hash_additional(a: &Additional, h: &mut impl Hasher) {
    match a {
        Additional::Closed => 0u8.hash(h),
        Additional::Open => 1u8.hash(h),
        Additional::Typed(s) => {
            2u8.hash(h);
            hash_schema(s, h);
        }
    }
}

fn hash_number<T: Copy>(n: &NumberSchema<T>, h: &mut impl Hasher, bits: impl Fn(T) -> u64) {
    for v in [n.minimum, n.maximum, n.exclusive_minimum, n.exclusive_maximum, n.multiple_of] {
        v.map(&bits).hash(h);
    }
}

fn hash_literal(l: &Literal, h: &mut impl Hasher) {
    match l {
        Literal::Null => 0u8.hash(h),
        Literal::Bool(b) => (1u8, b).hash(h),
        Literal::Int(i) => (2u8, i).hash(h),
        Literal::Float(f) => (3u8, f.to_bits()).hash(h),
        Literal::Str(s) => (4u8, s).hash(h),
        Literal::List(items) => {
            (5u8, items.len()).hash(h);
            items.iter().for_each(|i| hash_literal(i, h));
        }
        Literal::Object(entries) => {
            (6u8, entries.len()).hash(h);
            for (k, v) in entries.iter() {
                k.hash(h);
                hash_literal(v, h);
            }
        }
    }
}

fn hash_schema(s: &Schema, h: &mut impl Hasher) {
    (s.nullable, &s.title, &s.description).hash(h);
    match &s.default {
        Some(d) => hash_literal(d, h),
        None => 9u8.hash(h),
    }
    s.examples.len().hash(h);
    s.examples.iter().for_each(|e| hash_literal(e, h));
    match &s.kind {
        SchemaKind::String(st) => {
            (0u8, &st.format, &st.pattern, st.min_length, st.max_length).hash(h);
        }
        SchemaKind::Integer(n) => {
            1u8.hash(h);
            hash_number(n, h, |v: i64| v as u64);
        }
        SchemaKind::Float(n) => {
            2u8.hash(h);
            hash_number(n, h, f64::to_bits);
        }
        SchemaKind::Boolean => 3u8.hash(h),
        SchemaKind::Null => 4u8.hash(h),
        SchemaKind::Any => 11u8.hash(h),
        SchemaKind::Enum(e) => {
            5u8.hash(h);
            e.values.len().hash(h);
            e.values.iter_described().for_each(|v| v.hash(h));
        }
        SchemaKind::List(l) => {
            (6u8, l.min_items, l.max_items, l.unique).hash(h);
            hash_schema(&l.items, h);
        }
        SchemaKind::Object(o) => {
            7u8.hash(h);
            hash_params(&o.properties, h);
            hash_additional(&o.additional, h);
        }
        SchemaKind::AnyOf(a) => {
            (8u8, a.variants.len()).hash(h);
            a.variants.iter().for_each(|v| hash_schema(v, h));
        }
        SchemaKind::Ref(r) => (9u8, &r.name).hash(h),
    }
}

// ---------------------------------------------------------------------------------------------
// JSON text writer
// ---------------------------------------------------------------------------------------------

/// Writes compact JSON text straight into a `String`, with commas placed for you.
///
/// No intermediate `serde_json::Value`: renderers write the wire object key by key. The caller
/// keeps keys and values paired and objects balanced; the output is then valid JSON with
/// strings escaped exactly as `serde_json` escapes them.
#[derive(Debug, Default, Clone)]
pub struct JsonWriter {
    buf: String,
    comma: bool,
}

impl JsonWriter {
    /// An empty writer.
    pub fn new() -> Self {
        JsonWriter { buf: String::with_capacity(1024), comma: false }
    }

    /// The text written so far.
    pub fn as_str(&self) -> &str {
        &self.buf
    }

    /// The finished text.
    pub fn finish(self) -> String {
        self.buf
    }

    fn sep(&mut self) {
        if self.comma {
            self.buf.push(',');
        }
    }

    /// `{`.
    pub fn begin_object(&mut self) {
        self.sep();
        self.buf.push('{');
        self.comma = false;
    }

    /// `}`.
    pub fn end_object(&mut self) {
        self.buf.push('}');
        self.comma = true;
    }

    /// `[`.
    pub fn begin_array(&mut self) {
        self.sep();
        self.buf.push('[');
        self.comma = false;
    }

    /// `]`.
    pub fn end_array(&mut self) {
        self.buf.push(']');
        self.comma = true;
    }

    /// An object key; the next call writes its value.
    pub fn key(&mut self, key: &str) {
        self.sep();
        escape_into(&mut self.buf, key);
        self.buf.push(':');
        self.comma = false;
    }

    /// A string value.
    pub fn string(&mut self, s: &str) {
        self.sep();
        escape_into(&mut self.buf, s);
        self.comma = true;
    }

    /// A boolean value.
    pub fn bool(&mut self, b: bool) {
        self.raw(if b { "true" } else { "false" });
    }

    /// `null`.
    pub fn null(&mut self) {
        self.raw("null");
    }

    /// An integer value.
    pub fn int(&mut self, i: i64) {
        self.sep();
        if i < 0 {
            self.buf.push('-');
        }
        push_digits(&mut self.buf, i.unsigned_abs());
        self.comma = true;
    }

    /// An unsigned integer value.
    pub fn uint(&mut self, u: u64) {
        self.sep();
        push_digits(&mut self.buf, u);
        self.comma = true;
    }

    /// A number value, written as `serde_json` writes it; NaN and infinities become `null`.
    pub fn float(&mut self, f: f64) {
        self.sep();
        push_float(&mut self.buf, f);
        self.comma = true;
    }

    /// A [`Literal`] value.
    pub fn literal(&mut self, l: &Literal) {
        match l {
            Literal::Null => self.null(),
            Literal::Bool(b) => self.bool(*b),
            Literal::Int(i) => self.int(*i),
            Literal::Float(f) => self.float(*f),
            Literal::Str(s) => self.string(s),
            Literal::List(items) => {
                self.begin_array();
                items.iter().for_each(|i| self.literal(i));
                self.end_array();
            }
            Literal::Object(entries) => {
                self.begin_object();
                for (k, v) in entries.iter() {
                    self.key(k);
                    self.literal(v);
                }
                self.end_object();
            }
        }
    }

    /// A `serde_json::Value`.
    pub fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.null(),
            Value::Bool(b) => self.bool(*b),
            Value::Number(n) => self.raw(&n.to_string()),
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                self.begin_array();
                items.iter().for_each(|i| self.value(i));
                self.end_array();
            }
            Value::Object(map) => {
                self.begin_object();
                for (k, v) in map {
                    self.key(k);
                    self.value(v);
                }
                self.end_object();
            }
        }
    }

    /// A value that is already JSON text (for example another [`Rendered::json`]).
    pub fn raw(&mut self, json: &str) {
        self.sep();
        self.buf.push_str(json);
        self.comma = true;
    }
}

/// Appends the decimal digits of `n` (no `fmt` machinery: integers are common in schemas).
fn push_digits(buf: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        buf.push(char::from(d));
    }
}

fn push_float(buf: &mut String, f: f64) {
    match serde_json::Number::from_f64(f) {
        Some(n) => {
            let _ = write!(buf, "{n}");
        }
        None => buf.push_str("null"),
    }
}

/// Appends `s` as a JSON string literal (quotes included), escaped as `serde_json` does.
pub fn escape_into(buf: &mut String, s: &str) {
    buf.reserve(s.len() + 2);
    buf.push('"');
    if !needs_escape(s.as_bytes()) {
        buf.push_str(s);
        buf.push('"');
        return;
    }
    let mut start = 0;
    for (i, &b) in s.as_bytes().iter().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        buf.push_str(&s[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            buf.push_str("\\u00");
            buf.push(char::from(HEX[usize::from(b >> 4)]));
            buf.push(char::from(HEX[usize::from(b & 0xf)]));
        } else {
            buf.push_str(esc);
        }
        start = i + 1;
    }
    buf.push_str(&s[start..]);
    buf.push('"');
}

/// Whether any byte of `bytes` must be escaped; checks eight bytes at a time (most text,
/// and every keyword, needs no escape).
#[inline]
fn needs_escape(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        if word_needs_escape(u64::from_le_bytes(word)) {
            return true;
        }
    }
    // The tail, padded with a byte that needs no escape.
    let rest = chunks.remainder();
    let mut word = [b'a'; 8];
    word[..rest.len()].copy_from_slice(rest);
    word_needs_escape(u64::from_le_bytes(word))
}

/// Whether any of the eight bytes of `w` is a control character, `"` or `\\`.
#[inline]
fn word_needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte below 0x20 borrows; a byte equal to the pattern becomes zero and borrows. Bytes
    // with the high bit set (UTF-8 continuation and lead bytes) are masked out by `!w`.
    let below = w.wrapping_sub(ONES * 0x20);
    let quote = (w ^ (ONES * u64::from(b'"'))).wrapping_sub(ONES);
    let backslash = (w ^ (ONES * u64::from(b'\\'))).wrapping_sub(ONES);
    (below | quote | backslash) & !w & HIGH != 0
}

/// The JSON text of a literal (for description notes such as `Default: "celsius".`).
pub fn literal_text(l: &Literal) -> String {
    let mut w = JsonWriter { buf: String::new(), comma: false };
    w.literal(l);
    w.buf
}

// ---------------------------------------------------------------------------------------------
// JSON Schema writer
// ---------------------------------------------------------------------------------------------

/// A JSON Schema keyword a dialect may or may not accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Keyword {
    /// `title`.
    Title,
    /// `default`.
    Default,
    /// `examples`.
    Examples,
    /// `format`.
    Format,
    /// `pattern`.
    Pattern,
    /// `minLength`.
    MinLength,
    /// `maxLength`.
    MaxLength,
    /// `minimum`.
    Minimum,
    /// `maximum`.
    Maximum,
    /// `exclusiveMinimum`.
    ExclusiveMinimum,
    /// `exclusiveMaximum`.
    ExclusiveMaximum,
    /// `multipleOf`.
    MultipleOf,
    /// `minItems`.
    MinItems,
    /// `maxItems`.
    MaxItems,
    /// `uniqueItems`.
    UniqueItems,
}

impl Keyword {
    /// The keyword as spelled in JSON Schema.
    pub const fn as_str(self) -> &'static str {
        match self {
            Keyword::Title => "title",
            Keyword::Default => "default",
            Keyword::Examples => "examples",
            Keyword::Format => "format",
            Keyword::Pattern => "pattern",
            Keyword::MinLength => "minLength",
            Keyword::MaxLength => "maxLength",
            Keyword::Minimum => "minimum",
            Keyword::Maximum => "maximum",
            Keyword::ExclusiveMinimum => "exclusiveMinimum",
            Keyword::ExclusiveMaximum => "exclusiveMaximum",
            Keyword::MultipleOf => "multipleOf",
            Keyword::MinItems => "minItems",
            Keyword::MaxItems => "maxItems",
            Keyword::UniqueItems => "uniqueItems",
        }
    }

    /// How the keyword reads in a description note (`Minimum: 1.`).
    const fn label(self) -> &'static str {
        match self {
            Keyword::Title => "Title",
            Keyword::Default => "Default",
            Keyword::Examples => "Examples",
            Keyword::Format => "Format",
            Keyword::Pattern => "Pattern",
            Keyword::MinLength => "Minimum length",
            Keyword::MaxLength => "Maximum length",
            Keyword::Minimum => "Minimum",
            Keyword::Maximum => "Maximum",
            Keyword::ExclusiveMinimum => "Greater than",
            Keyword::ExclusiveMaximum => "Less than",
            Keyword::MultipleOf => "Multiple of",
            Keyword::MinItems => "Minimum items",
            Keyword::MaxItems => "Maximum items",
            Keyword::UniqueItems => "Items must be unique",
        }
    }
}

/// A set of [`Keyword`]s (usable in `const`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Keywords(u32);

impl Keywords {
    /// No keyword.
    pub const NONE: Keywords = Keywords(0);
    /// Every keyword.
    pub const ALL: Keywords = Keywords((1 << 15) - 1);

    /// The set plus `k`.
    pub const fn with(self, k: Keyword) -> Keywords {
        Keywords(self.0 | (1 << k as u8))
    }

    /// The set without `k`.
    pub const fn without(self, k: Keyword) -> Keywords {
        Keywords(self.0 & !(1 << k as u8))
    }

    /// Whether `k` is in the set.
    pub const fn contains(self, k: Keyword) -> bool {
        self.0 & (1 << k as u8) != 0
    }
}

/// How a schema says "or null".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NullStyle {
    /// `"type": ["string", "null"]` where there is one type; `anyOf` with `{"type":"null"}` for
    /// unions and references.
    TypeArray,
    /// Always `"anyOf": [<schema>, {"type": "null"}]`.
    AnyOf,
    /// OpenAPI 3.0: `"nullable": true`.
    OpenApi,
}

/// Where named definitions go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefStyle {
    /// `"$ref": "#/$defs/Name"` with `$defs` at the root (2020-12).
    Defs,
    /// `"$ref": "#/definitions/Name"` with `definitions` at the root (draft-07).
    Definitions,
    /// Every reference replaced by its definition; recursion is an error.
    Inline,
}

/// What happens to a keyword the dialect does not accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unsupported {
    /// Written into the description (`Minimum: 1.`) and reported as lossless.
    Describe,
    /// Dropped and reported as lossy.
    Drop,
}

/// What a provider's JSON Schema dialect accepts, and how to lower the IR into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SchemaOptions {
    /// Keywords written as keywords; the others follow [`unsupported`](Self::unsupported).
    pub keywords: Keywords,
    /// What happens to keywords outside [`keywords`](Self::keywords), to formats outside
    /// [`formats`](Self::formats) and to patterns the dialect rejects.
    pub unsupported: Unsupported,
    /// The formats accepted as `format`; `None` accepts any.
    pub formats: Option<&'static [&'static str]>,
    /// Whether a `pattern` may use lookaround or backreferences.
    pub pattern_lookaround: bool,
    /// How "or null" is written.
    pub null_style: NullStyle,
    /// Where definitions go.
    pub refs: RefStyle,
    /// Whether a definition may (indirectly) reference itself.
    pub recursion: bool,
    /// Whether a `$ref` may carry sibling keywords (`description`, `default`); if not, it is
    /// wrapped as `"anyOf": [{"$ref": …}]` with the siblings outside.
    pub ref_siblings: bool,
    /// Every property listed in `required`; optional ones made nullable (OpenAI strict).
    pub all_required: bool,
    /// Every object closed (`additionalProperties: false`); open objects and maps are closed and
    /// reported as lossy (strict modes).
    pub close_objects: bool,
    /// Whether `additionalProperties` may be written at all (Gemini `parameters`: no).
    pub additional_properties: bool,
    /// `"properties": {}` written on objects without properties.
    pub empty_properties: bool,
    /// `"required": []` written on objects without required properties.
    pub empty_required: bool,
    /// The largest `minItems` accepted; larger values are clamped to it and noted.
    pub max_min_items: Option<u64>,
    /// Type names in upper case (`"STRING"`), for Gemini `parameters`.
    pub upper_case_types: bool,
    /// The rule every property name must follow (parameters, nested objects, definitions);
    /// `None` accepts any name. A name that breaks it is a [`RenderRule::Name`] error.
    pub property_names: Option<NameRule>,
}

const FULL: Keywords = Keywords::ALL;

impl SchemaOptions {
    /// Plain JSON Schema 2020-12: everything kept, `$defs`, type arrays for null.
    pub const JSON_SCHEMA: SchemaOptions = SchemaOptions {
        keywords: FULL,
        unsupported: Unsupported::Describe,
        formats: None,
        pattern_lookaround: true,
        null_style: NullStyle::TypeArray,
        refs: RefStyle::Defs,
        recursion: true,
        ref_siblings: true,
        all_required: false,
        close_objects: false,
        additional_properties: true,
        empty_properties: true,
        empty_required: false,
        max_min_items: None,
        upper_case_types: false,
        property_names: None,
    };
}

impl Default for SchemaOptions {
    fn default() -> Self {
        SchemaOptions::JSON_SCHEMA
    }
}

/// Counts gathered while writing a schema, for providers' limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchemaStats {
    /// Object properties written, all levels and definitions included.
    pub properties: usize,
    /// Properties not listed in their object's `required`.
    pub optional_properties: usize,
    /// Deepest object nesting (the root object is level 1).
    pub max_depth: usize,
    /// Enum values written, all enums together.
    pub enum_values: usize,
    /// Largest number of values in one enum.
    pub largest_enum: usize,
    /// Characters of the largest enum's values together.
    pub largest_enum_chars: usize,
    /// Characters of property names, definition names and enum values together.
    pub name_chars: usize,
    /// Unions written: `anyOf`s and type arrays.
    pub unions: usize,
    /// Definitions written under `$defs`.
    pub definitions: usize,
}

impl SchemaStats {
    /// Adds another schema's counts (for set-level limits).
    pub fn add(&mut self, o: &SchemaStats) {
        self.properties += o.properties;
        self.optional_properties += o.optional_properties;
        self.max_depth = self.max_depth.max(o.max_depth);
        self.enum_values += o.enum_values;
        if o.largest_enum > self.largest_enum {
            self.largest_enum = o.largest_enum;
            self.largest_enum_chars = o.largest_enum_chars;
        }
        self.name_chars += o.name_chars;
        self.unions += o.unions;
        self.definitions += o.definitions;
    }
}

/// Writes the tool's input schema (the root object of its parameters) at `pointer`.
///
/// # Errors
///
/// Recursion the options forbid, an unknown reference, or a lossy change under
/// [`Policy::Strict`].
pub fn write_input_schema(
    out: &mut JsonWriter,
    tool: &ToolDescriptor,
    opts: &SchemaOptions,
    ctx: &mut RenderCtx,
    pointer: &str,
) -> Result<SchemaStats, RenderError> {
    let mut w = SchemaWriter::new(tool, opts, ctx, pointer);
    w.root_object(out, &tool.params, &tool.additional, None)?;
    Ok(w.stats)
}

/// Writes the tool's output schema at `pointer`, with its own `$defs`; `Ok(None)` (and nothing
/// written) when the tool declares none.
///
/// # Errors
///
/// As [`write_input_schema`].
pub fn write_output_schema(
    out: &mut JsonWriter,
    tool: &ToolDescriptor,
    opts: &SchemaOptions,
    ctx: &mut RenderCtx,
    pointer: &str,
) -> Result<Option<SchemaStats>, RenderError> {
    let Some(output) = &tool.output else { return Ok(None) };
    let mut w = SchemaWriter::new(tool, opts, ctx, pointer);
    w.param.push_str("$output");
    w.root_schema(out, output)?;
    Ok(Some(w.stats))
}

/// The annotations of a schema node after merging a reference with its definition.
#[derive(Clone, Copy)]
struct Ann<'a> {
    nullable: bool,
    title: Option<&'a str>,
    description: Option<&'a str>,
    default: Option<&'a Literal>,
    examples: &'a [Literal],
}

impl<'a> Ann<'a> {
    fn of(s: &'a Schema) -> Self {
        Ann {
            nullable: s.nullable,
            title: s.title.as_deref(),
            description: s.description.as_deref(),
            default: s.default.as_ref(),
            examples: &s.examples,
        }
    }

    fn has_siblings(&self) -> bool {
        self.title.is_some()
            || self.description.is_some()
            || self.default.is_some()
            || !self.examples.is_empty()
    }
}

/// Walks the IR and writes JSON Schema text under [`SchemaOptions`].
struct SchemaWriter<'a> {
    tool: &'a ToolDescriptor,
    opts: &'a SchemaOptions,
    ctx: &'a mut RenderCtx,
    pointer: String,
    param: String,
    stats: SchemaStats,
    depth: usize,
    /// Definitions being inlined, innermost last (recursion guard).
    inlining: Vec<&'a str>,
    /// Per definition (descriptor order): whether it can reach itself.
    recursive: Vec<bool>,
}

const NESTING_GUARD: usize = 128;

impl<'a> SchemaWriter<'a> {
    fn new(
        tool: &'a ToolDescriptor,
        opts: &'a SchemaOptions,
        ctx: &'a mut RenderCtx,
        pointer: &str,
    ) -> Self {
        SchemaWriter {
            tool,
            opts,
            ctx,
            pointer: pointer.to_owned(),
            param: String::new(),
            stats: SchemaStats::default(),
            depth: 0,
            inlining: Vec::new(),
            recursive: Vec::new(),
        }
    }

    fn err(&self, rule: RenderRule, detail: impl fmt::Display) -> RenderError {
        self.ctx.error(&self.pointer, &self.param, rule, detail)
    }

    fn change(
        &mut self,
        kind: ChangeKind,
        keyword: &'static str,
        detail: impl Into<String>,
        lossy: bool,
    ) -> Result<(), RenderError> {
        self.ctx.change(&self.pointer, &self.param, kind, keyword, detail, lossy)
    }

    fn push_ptr(&mut self, seg: &str) -> usize {
        let len = self.pointer.len();
        self.pointer.push('/');
        if !seg.bytes().any(|b| b == b'~' || b == b'/') {
            self.pointer.push_str(seg);
            return len;
        }
        for c in seg.chars() {
            match c {
                '~' => self.pointer.push_str("~0"),
                '/' => self.pointer.push_str("~1"),
                c => self.pointer.push(c),
            }
        }
        len
    }

    fn push_param(&mut self, seg: &str, dot: bool) -> usize {
        let len = self.param.len();
        if dot && !self.param.is_empty() {
            self.param.push('.');
        }
        self.param.push_str(seg);
        len
    }

    fn type_name(&self, name: &'static str) -> &'static str {
        if !self.opts.upper_case_types {
            return name;
        }
        match name {
            "string" => "STRING",
            "integer" => "INTEGER",
            "number" => "NUMBER",
            "boolean" => "BOOLEAN",
            "null" => "NULL",
            "array" => "ARRAY",
            "object" => "OBJECT",
            other => other,
        }
    }

    /// The definitions reachable from `roots`, in descriptor order, with recursion marks.
    fn prepare_defs(&mut self, roots: &[&'a Schema]) -> Vec<usize> {
        let defs = &self.tool.definitions;
        if defs.is_empty() {
            return Vec::new();
        }
        let index = |name: &str| defs.iter().position(|d| d.name == name);
        // Direct references of each definition.
        let edges: Vec<Vec<usize>> = defs
            .iter()
            .map(|d| {
                let mut names = Vec::new();
                collect_refs(&d.schema, &mut names, 0);
                names.iter().filter_map(|n| index(n)).collect()
            })
            .collect();
        let mut reach = vec![false; defs.len()];
        let mut stack: Vec<usize> = Vec::new();
        for root in roots {
            let mut names = Vec::new();
            collect_refs(root, &mut names, 0);
            stack.extend(names.iter().filter_map(|n| index(n)));
        }
        while let Some(i) = stack.pop() {
            if !reach[i] {
                reach[i] = true;
                stack.extend(edges[i].iter().copied());
            }
        }
        // A definition is recursive when it can reach itself.
        self.recursive = (0..defs.len())
            .map(|start| {
                let mut seen = vec![false; defs.len()];
                let mut stack: Vec<usize> = edges[start].clone();
                while let Some(i) = stack.pop() {
                    if i == start {
                        return true;
                    }
                    if !seen[i] {
                        seen[i] = true;
                        stack.extend(edges[i].iter().copied());
                    }
                }
                false
            })
            .collect();
        (0..defs.len()).filter(|i| reach[*i]).collect()
    }

    fn root_object(
        &mut self,
        out: &mut JsonWriter,
        params: &'a [Param],
        additional: &'a Additional,
        ann: Option<Ann<'a>>,
    ) -> Result<(), RenderError> {
        let roots: Vec<&Schema> = params
            .iter()
            .map(|p| &p.schema)
            .chain(match additional {
                Additional::Typed(s) => Some(s.get()),
                _ => None,
            })
            .collect();
        let defs = self.prepare_defs(&roots);
        let ann = ann.unwrap_or(Ann {
            nullable: false,
            title: None,
            description: None,
            default: None,
            examples: &[],
        });
        self.object(out, params, additional, ann, &defs)
    }

    fn root_schema(&mut self, out: &mut JsonWriter, schema: &'a Schema) -> Result<(), RenderError> {
        let defs = self.prepare_defs(&[schema]);
        if let SchemaKind::Object(o) = &schema.kind
            && !schema.nullable
        {
            return self.object(out, &o.properties, &o.additional, Ann::of(schema), &defs);
        }
        if defs.is_empty() || self.opts.refs == RefStyle::Inline {
            return self.schema(out, schema);
        }
        // A non-object root with definitions: wrap so that `$defs` has a place.
        out.begin_object();
        out.key("allOf");
        out.begin_array();
        self.schema(out, schema)?;
        out.end_array();
        self.write_defs(out, &defs)?;
        out.end_object();
        Ok(())
    }

    fn write_defs(&mut self, out: &mut JsonWriter, defs: &[usize]) -> Result<(), RenderError> {
        let key = match self.opts.refs {
            RefStyle::Defs => "$defs",
            RefStyle::Definitions => "definitions",
            RefStyle::Inline => return Ok(()),
        };
        if defs.is_empty() {
            return Ok(());
        }
        let saved_ptr = self.pointer.len();
        let saved_param = std::mem::take(&mut self.param);
        self.push_ptr(key);
        out.key(key);
        out.begin_object();
        let tool = self.tool;
        let mut result = Ok(());
        for &i in defs {
            let d = &tool.definitions[i];
            let p = self.push_ptr(&d.name);
            if self.recursive.get(i).copied().unwrap_or(false) && !self.opts.recursion {
                result = Err(self.err(
                    RenderRule::Recursion,
                    format_args!(
                        "definition `{}` refers to itself, and this provider does not accept recursive schemas",
                        d.name
                    ),
                ));
                break;
            }
            self.param.clear();
            self.param.push_str("$defs.");
            self.param.push_str(&d.name);
            self.stats.definitions += 1;
            self.stats.name_chars += d.name.chars().count();
            out.key(&d.name);
            if let Err(e) = self.schema(out, &d.schema) {
                result = Err(e);
                break;
            }
            self.pointer.truncate(p);
        }
        out.end_object();
        self.pointer.truncate(saved_ptr);
        self.param = saved_param;
        result
    }

    fn schema(&mut self, out: &mut JsonWriter, s: &'a Schema) -> Result<(), RenderError> {
        self.node(out, &s.kind, Ann::of(s), false)
    }

    /// Writes one node. `force_null` adds "or null" (optional made required in strict mode).
    fn node(
        &mut self,
        out: &mut JsonWriter,
        kind: &'a SchemaKind,
        mut ann: Ann<'a>,
        force_null: bool,
    ) -> Result<(), RenderError> {
        if self.inlining.len() + self.depth > NESTING_GUARD {
            return Err(self.err(RenderRule::Limit, "schemas nest too deeply to render"));
        }
        ann.nullable |= force_null;
        if let SchemaKind::Ref(r) = kind {
            return self.reference(out, &r.name, ann);
        }
        // Plan the description notes before writing anything.
        let mut notes = String::new();
        let kept = self.plan(kind, &ann, &mut notes)?;
        let null_in_type = ann.nullable
            && !matches!(kind, SchemaKind::Null | SchemaKind::AnyOf(_))
            && self.opts.null_style == NullStyle::TypeArray;
        let wrap_null = ann.nullable
            && !matches!(kind, SchemaKind::Null)
            && (self.opts.null_style == NullStyle::AnyOf
                || (self.opts.null_style == NullStyle::TypeArray
                    && matches!(kind, SchemaKind::AnyOf(_))));
        // An `anyOf` node gets its null as one more variant rather than a wrapper.
        let null_variant = wrap_null && matches!(kind, SchemaKind::AnyOf(_));
        let wrapper = wrap_null && !null_variant;

        out.begin_object();
        if wrapper {
            self.stats.unions += 1;
            out.key("anyOf");
            out.begin_array();
            out.begin_object();
            if let Some(t) = kind_type(kind) {
                out.key("type");
                out.string(self.type_name(t));
            }
            self.body(out, kind, kept, false, false)?;
            out.end_object();
            out.begin_object();
            out.key("type");
            out.string(self.type_name("null"));
            out.end_object();
            out.end_array();
            self.annotations(out, &ann, kept, &notes);
        } else {
            if null_in_type {
                self.stats.unions += 1;
            }
            if let Some(t) = ann.title.filter(|_| kept.contains(Keyword::Title)) {
                out.key("title");
                out.string(t);
            }
            self.body_with_description(out, kind, kept, null_in_type, null_variant, &ann, &notes)?;
        }
        out.end_object();
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn body_with_description(
        &mut self,
        out: &mut JsonWriter,
        kind: &'a SchemaKind,
        kept: Keywords,
        null_in_type: bool,
        null_variant: bool,
        ann: &Ann<'a>,
        notes: &str,
    ) -> Result<(), RenderError> {
        // `type` first, then the description, then the kind's keywords.
        let type_name = kind_type(kind);
        if let Some(t) = type_name {
            out.key("type");
            if null_in_type {
                out.begin_array();
                out.string(self.type_name(t));
                out.string(self.type_name("null"));
                out.end_array();
            } else {
                out.string(self.type_name(t));
            }
        }
        if self.opts.null_style == NullStyle::OpenApi
            && ann.nullable
            && !matches!(kind, SchemaKind::Null)
        {
            out.key("nullable");
            out.bool(true);
        }
        write_description(out, ann.description, notes);
        self.body(out, kind, kept, ann.nullable, null_variant)?;
        self.trailing(out, ann, kept);
        Ok(())
    }

    /// The wrapper's annotations (title, description, default, examples) for anyOf-null style.
    fn annotations(&mut self, out: &mut JsonWriter, ann: &Ann<'a>, kept: Keywords, notes: &str) {
        if let Some(t) = ann.title.filter(|_| kept.contains(Keyword::Title)) {
            out.key("title");
            out.string(t);
        }
        write_description(out, ann.description, notes);
        self.trailing(out, ann, kept);
    }

    fn trailing(&mut self, out: &mut JsonWriter, ann: &Ann<'a>, kept: Keywords) {
        if let Some(d) = ann.default.filter(|_| kept.contains(Keyword::Default)) {
            out.key("default");
            out.literal(d);
        }
        if !ann.examples.is_empty() && kept.contains(Keyword::Examples) {
            out.key("examples");
            out.begin_array();
            ann.examples.iter().for_each(|e| out.literal(e));
            out.end_array();
        }
    }

    /// Decides which keywords of this node are written; the others become notes and changes.
    fn plan(
        &mut self,
        kind: &'a SchemaKind,
        ann: &Ann<'a>,
        notes: &mut String,
    ) -> Result<Keywords, RenderError> {
        let allowed = self.opts.keywords;
        let mut kept = Keywords::NONE;
        // Keeps `k` when allowed, else notes `text` under its label.
        macro_rules! keyword {
            ($k:expr, $text:expr) => {{
                let k: Keyword = $k;
                if allowed.contains(k) {
                    kept = kept.with(k);
                } else {
                    self.unsupported(k, $text.as_ref(), notes)?;
                }
            }};
        }
        if let Some(title) = ann.title {
            keyword!(Keyword::Title, title);
        }
        if let Some(d) = ann.default {
            keyword!(Keyword::Default, literal_text(d));
        }
        if !ann.examples.is_empty() {
            keyword!(Keyword::Examples, join_literals(ann.examples));
        }
        match kind {
            SchemaKind::String(s) => {
                if let Some(f) = &s.format {
                    let known = self.opts.formats.is_none_or(|list| list.contains(&f.as_ref()));
                    if allowed.contains(Keyword::Format) && known {
                        kept = kept.with(Keyword::Format);
                    } else {
                        self.unsupported(Keyword::Format, f, notes)?;
                    }
                }
                if let Some(p) = &s.pattern {
                    let ok = self.opts.pattern_lookaround || !has_lookaround(p);
                    if allowed.contains(Keyword::Pattern) && ok {
                        kept = kept.with(Keyword::Pattern);
                    } else {
                        self.unsupported(Keyword::Pattern, p, notes)?;
                    }
                }
                if let Some(v) = s.min_length {
                    keyword!(Keyword::MinLength, v.to_string());
                }
                if let Some(v) = s.max_length {
                    keyword!(Keyword::MaxLength, v.to_string());
                }
            }
            SchemaKind::Integer(n) => self.plan_number(n, |v| v.to_string(), &mut kept, notes)?,
            SchemaKind::Float(n) => self.plan_number(n, float_text, &mut kept, notes)?,
            SchemaKind::Enum(e) if e.values.iter_described().any(|(_, d)| d.is_some()) => {
                let text = enum_note(&e.values);
                push_note(notes, &text);
                self.change(
                    ChangeKind::MovedToDescription,
                    "enum",
                    "descriptions of enum values written into the description",
                    false,
                )?;
            }
            SchemaKind::List(l) => {
                if let Some(v) = l.min_items {
                    match self.opts.max_min_items {
                        Some(max) if v > max && allowed.contains(Keyword::MinItems) => {
                            kept = kept.with(Keyword::MinItems);
                            push_note(notes, &format!("Minimum items: {v}."));
                            self.change(
                                ChangeKind::Rewritten,
                                "minItems",
                                format!(
                                    "minItems {v} clamped to {max}; the bound is in the description"
                                ),
                                false,
                            )?;
                        }
                        _ => keyword!(Keyword::MinItems, v.to_string()),
                    }
                }
                if let Some(v) = l.max_items {
                    keyword!(Keyword::MaxItems, v.to_string());
                }
                if l.unique {
                    if allowed.contains(Keyword::UniqueItems) {
                        kept = kept.with(Keyword::UniqueItems);
                    } else {
                        self.unsupported(Keyword::UniqueItems, "", notes)?;
                    }
                }
            }
            _ => {}
        }
        Ok(kept)
    }

    fn plan_number<T: Copy>(
        &mut self,
        n: &NumberSchema<T>,
        text: impl Fn(T) -> String,
        kept: &mut Keywords,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        let pairs = [
            (Keyword::Minimum, n.minimum),
            (Keyword::Maximum, n.maximum),
            (Keyword::ExclusiveMinimum, n.exclusive_minimum),
            (Keyword::ExclusiveMaximum, n.exclusive_maximum),
            (Keyword::MultipleOf, n.multiple_of),
        ];
        for (k, v) in pairs {
            if let Some(v) = v {
                if self.opts.keywords.contains(k) {
                    *kept = kept.with(k);
                } else {
                    self.unsupported(k, &text(v), notes)?;
                }
            }
        }
        Ok(())
    }

    fn unsupported(
        &mut self,
        k: Keyword,
        value: &str,
        notes: &mut String,
    ) -> Result<(), RenderError> {
        match self.opts.unsupported {
            Unsupported::Describe => {
                if value.is_empty() {
                    push_note(notes, &format!("{}.", k.label()));
                } else {
                    push_note(notes, &format!("{}: {value}.", k.label()));
                }
                self.change(
                    ChangeKind::MovedToDescription,
                    k.as_str(),
                    format!("`{}` moved into the description", k.as_str()),
                    false,
                )
            }
            Unsupported::Drop => self.change(
                ChangeKind::Dropped,
                k.as_str(),
                format!("`{}` dropped: the provider does not accept it", k.as_str()),
                true,
            ),
        }
    }

    /// The kind's keywords and children (no `type`, no annotations).
    fn body(
        &mut self,
        out: &mut JsonWriter,
        kind: &'a SchemaKind,
        kept: Keywords,
        nullable: bool,
        null_variant: bool,
    ) -> Result<(), RenderError> {
        match kind {
            SchemaKind::String(s) => {
                if kept.contains(Keyword::Format)
                    && let Some(f) = &s.format
                {
                    out.key("format");
                    out.string(f);
                }
                if kept.contains(Keyword::Pattern)
                    && let Some(p) = &s.pattern
                {
                    out.key("pattern");
                    out.string(p);
                }
                if kept.contains(Keyword::MinLength)
                    && let Some(v) = s.min_length
                {
                    out.key("minLength");
                    out.uint(v);
                }
                if kept.contains(Keyword::MaxLength)
                    && let Some(v) = s.max_length
                {
                    out.key("maxLength");
                    out.uint(v);
                }
            }
            SchemaKind::Integer(n) => write_number(out, n, kept, |o, v| o.int(v)),
            SchemaKind::Float(n) => write_number(out, n, kept, |o, v| o.float(v)),
            SchemaKind::Boolean | SchemaKind::Null | SchemaKind::Any => {}
            SchemaKind::Enum(e) => {
                self.stats.enum_values += e.values.len();
                let mut chars = 0;
                out.key("enum");
                out.begin_array();
                for v in e.values.iter() {
                    chars += v.chars().count();
                    out.string(v);
                }
                // A nullable enum must list null, or null stays invalid (OpenAPI's `nullable`
                // admits null by itself, and its enums hold strings only).
                if nullable && self.opts.null_style == NullStyle::TypeArray {
                    out.null();
                }
                out.end_array();
                self.stats.name_chars += chars;
                if e.values.len() > self.stats.largest_enum {
                    self.stats.largest_enum = e.values.len();
                    self.stats.largest_enum_chars = chars;
                }
            }
            SchemaKind::List(l) => {
                let p = self.push_ptr("items");
                let q = self.push_param("[]", false);
                out.key("items");
                self.schema(out, &l.items)?;
                self.pointer.truncate(p);
                self.param.truncate(q);
                if kept.contains(Keyword::MinItems)
                    && let Some(v) = l.min_items
                {
                    out.key("minItems");
                    out.uint(self.opts.max_min_items.map_or(v, |m| v.min(m)));
                }
                if kept.contains(Keyword::MaxItems)
                    && let Some(v) = l.max_items
                {
                    out.key("maxItems");
                    out.uint(v);
                }
                if kept.contains(Keyword::UniqueItems) && l.unique {
                    out.key("uniqueItems");
                    out.bool(true);
                }
            }
            SchemaKind::Object(o) => {
                self.object_body(out, &o.properties, &o.additional)?;
            }
            SchemaKind::AnyOf(a) => {
                self.stats.unions += 1;
                let p = self.push_ptr("anyOf");
                out.key("anyOf");
                out.begin_array();
                for (i, v) in a.variants.iter().enumerate() {
                    let p2 = self.push_ptr(&i.to_string());
                    let q = self.param.len();
                    let _ = write!(self.param, "|{i}");
                    self.schema(out, v)?;
                    self.pointer.truncate(p2);
                    self.param.truncate(q);
                }
                let has_null = a.variants.iter().any(|v| matches!(v.kind, SchemaKind::Null));
                if null_variant && !has_null {
                    out.begin_object();
                    out.key("type");
                    out.string(self.type_name("null"));
                    out.end_object();
                }
                out.end_array();
                self.pointer.truncate(p);
            }
            SchemaKind::Ref(_) => {}
        }
        Ok(())
    }

    /// An object node with `type`, annotations and, at a root, definitions.
    fn object(
        &mut self,
        out: &mut JsonWriter,
        params: &'a [Param],
        additional: &'a Additional,
        ann: Ann<'a>,
        defs: &[usize],
    ) -> Result<(), RenderError> {
        let mut notes = String::new();
        let kept = self.plan(&OBJECT_KIND, &ann, &mut notes)?;
        out.begin_object();
        if let Some(t) = ann.title.filter(|_| kept.contains(Keyword::Title)) {
            out.key("title");
            out.string(t);
        }
        out.key("type");
        out.string(self.type_name("object"));
        write_description(out, ann.description, &notes);
        self.object_body(out, params, additional)?;
        self.trailing(out, &ann, kept);
        if self.opts.refs == RefStyle::Inline {
            // Definitions are inlined; recursion is found while inlining.
        } else {
            self.write_defs(out, defs)?;
        }
        out.end_object();
        Ok(())
    }

    /// `properties`, `required`, `additionalProperties`.
    fn object_body(
        &mut self,
        out: &mut JsonWriter,
        params: &'a [Param],
        additional: &'a Additional,
    ) -> Result<(), RenderError> {
        self.depth += 1;
        self.stats.max_depth = self.stats.max_depth.max(self.depth);
        if !params.is_empty() || self.opts.empty_properties {
            let p = self.push_ptr("properties");
            out.key("properties");
            out.begin_object();
            for prm in params {
                let p2 = self.push_ptr(&prm.name);
                let q = self.push_param(&prm.name, true);
                if let Some(rule) = &self.opts.property_names
                    && let Err(why) = rule.check(&prm.name)
                {
                    return Err(self.ctx.error(
                        &self.pointer,
                        &self.param,
                        RenderRule::Name,
                        format_args!("property name `{}` is not accepted: {why}", prm.name),
                    ));
                }
                self.stats.properties += 1;
                self.stats.name_chars += prm.name.chars().count();
                let mut force_null = false;
                if !prm.required {
                    if self.opts.all_required {
                        force_null = !prm.schema.nullable;
                        let detail = if force_null {
                            "optional property made required and nullable: send null for absent"
                        } else {
                            "optional (already nullable) property made required: send null for absent"
                        };
                        self.change(ChangeKind::MadeRequired, "required", detail, false)?;
                    } else {
                        self.stats.optional_properties += 1;
                    }
                }
                out.key(&prm.name);
                self.node(out, &prm.schema.kind, Ann::of(&prm.schema), force_null)?;
                self.pointer.truncate(p2);
                self.param.truncate(q);
            }
            out.end_object();
            self.pointer.truncate(p);
        }
        let required = params.iter().filter(|p| p.required || self.opts.all_required);
        if params.iter().any(|p| p.required || self.opts.all_required) || self.opts.empty_required {
            out.key("required");
            out.begin_array();
            required.for_each(|p| out.string(&p.name));
            out.end_array();
        }
        self.additional(out, additional)?;
        self.depth -= 1;
        Ok(())
    }

    fn additional(
        &mut self,
        out: &mut JsonWriter,
        additional: &'a Additional,
    ) -> Result<(), RenderError> {
        let p = self.push_ptr("additionalProperties");
        let result = self.additional_inner(out, additional);
        self.pointer.truncate(p);
        result
    }

    fn additional_inner(
        &mut self,
        out: &mut JsonWriter,
        additional: &'a Additional,
    ) -> Result<(), RenderError> {
        if !self.opts.additional_properties {
            return match additional {
                Additional::Closed => Ok(()),
                Additional::Open => Ok(()),
                Additional::Typed(_) => self.change(
                    ChangeKind::Dropped,
                    "additionalProperties",
                    "the schema of map values is dropped: the provider does not accept additionalProperties",
                    true,
                ),
            };
        }
        match additional {
            Additional::Closed => {
                out.key("additionalProperties");
                out.bool(false);
            }
            Additional::Open if self.opts.close_objects => {
                self.change(
                    ChangeKind::Closed,
                    "additionalProperties",
                    "open object closed: the provider requires additionalProperties: false",
                    true,
                )?;
                out.key("additionalProperties");
                out.bool(false);
            }
            Additional::Open => {
                out.key("additionalProperties");
                out.bool(true);
            }
            Additional::Typed(_) if self.opts.close_objects => {
                self.change(
                    ChangeKind::Closed,
                    "additionalProperties",
                    "map closed to an empty object: the provider requires additionalProperties: false",
                    true,
                )?;
                out.key("additionalProperties");
                out.bool(false);
            }
            Additional::Typed(s) => {
                let q = self.push_param("*", true);
                out.key("additionalProperties");
                self.schema(out, s)?;
                self.param.truncate(q);
            }
        }
        Ok(())
    }

    fn reference(
        &mut self,
        out: &mut JsonWriter,
        name: &'a str,
        ann: Ann<'a>,
    ) -> Result<(), RenderError> {
        let tool = self.tool;
        let Some(index) = tool.definitions.iter().position(|d| d.name == name) else {
            return Err(self.err(
                RenderRule::UnknownRef,
                format_args!("reference to `{name}`, which is not a definition of the tool"),
            ));
        };
        let def = &tool.definitions[index].schema;
        if self.opts.refs == RefStyle::Inline {
            if self.inlining.contains(&name) {
                return Err(self.err(
                    RenderRule::Recursion,
                    format_args!(
                        "definition `{name}` refers to itself, and this provider needs references inlined"
                    ),
                ));
            }
            self.change(
                ChangeKind::Inlined,
                "$ref",
                format!("reference to `{name}` replaced by its definition"),
                false,
            )?;
            let merged = Ann {
                nullable: ann.nullable || def.nullable,
                title: ann.title.or(def.title.as_deref()),
                description: ann.description.or(def.description.as_deref()),
                default: ann.default.or(def.default.as_ref()),
                examples: if ann.examples.is_empty() { &def.examples } else { ann.examples },
            };
            self.inlining.push(name);
            let result = self.node(out, &def.kind, merged, false);
            self.inlining.pop();
            return result;
        }
        if !self.opts.recursion && self.recursive.get(index).copied().unwrap_or(false) {
            return Err(self.err(
                RenderRule::Recursion,
                format_args!(
                    "definition `{name}` refers to itself, and this provider does not accept recursive schemas"
                ),
            ));
        }
        let target = match self.opts.refs {
            RefStyle::Definitions => "#/definitions/",
            _ => "#/$defs/",
        };
        let mut notes = String::new();
        let kept = self.plan(&REF_KIND, &ann, &mut notes)?;
        // A nullable definition already says so in `$defs`.
        let nullable = ann.nullable;
        let siblings = ann.has_siblings() || !notes.is_empty();
        out.begin_object();
        if (nullable && self.opts.null_style != NullStyle::OpenApi)
            || (siblings && !self.opts.ref_siblings)
        {
            if !nullable {
                self.change(
                    ChangeKind::Rewritten,
                    "$ref",
                    "`$ref` with sibling keywords wrapped in anyOf",
                    false,
                )?;
            } else {
                self.stats.unions += 1;
            }
            out.key("anyOf");
            out.begin_array();
            write_ref(out, target, name);
            if nullable {
                out.begin_object();
                out.key("type");
                out.string(self.type_name("null"));
                out.end_object();
            }
            out.end_array();
        } else {
            out.key("$ref");
            out.string(&ref_target(target, name));
            if nullable {
                out.key("nullable");
                out.bool(true);
            }
        }
        self.annotations(out, &ann, kept, &notes);
        out.end_object();
        Ok(())
    }
}

const OBJECT_KIND: SchemaKind = SchemaKind::Boolean;
const REF_KIND: SchemaKind = SchemaKind::Null;

fn write_ref(out: &mut JsonWriter, target: &str, name: &str) {
    out.begin_object();
    out.key("$ref");
    out.string(&ref_target(target, name));
    out.end_object();
}

/// `prefix` and `name` as a URI fragment: JSON-pointer escaped (`~0`, `~1`), then
/// percent-encoded outside the characters a fragment may hold.
pub fn ref_target(prefix: &str, name: &str) -> String {
    let mut out = String::with_capacity(prefix.len() + name.len());
    out.push_str(prefix);
    for c in name.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c if c.is_ascii_alphanumeric() || "-._!$&'()*+,;=:@".contains(c) => out.push(c),
            c => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(out, "%{b:02X}");
                }
            }
        }
    }
    out
}

fn kind_type(kind: &SchemaKind) -> Option<&'static str> {
    match kind {
        SchemaKind::String(_) | SchemaKind::Enum(_) => Some("string"),
        SchemaKind::Integer(_) => Some("integer"),
        SchemaKind::Float(_) => Some("number"),
        SchemaKind::Boolean => Some("boolean"),
        SchemaKind::Null => Some("null"),
        SchemaKind::List(_) => Some("array"),
        SchemaKind::Object(_) => Some("object"),
        SchemaKind::AnyOf(_) | SchemaKind::Ref(_) | SchemaKind::Any => None,
    }
}

fn write_number<T: Copy>(
    out: &mut JsonWriter,
    n: &NumberSchema<T>,
    kept: Keywords,
    write: impl Fn(&mut JsonWriter, T),
) {
    let pairs = [
        (Keyword::Minimum, n.minimum),
        (Keyword::Maximum, n.maximum),
        (Keyword::ExclusiveMinimum, n.exclusive_minimum),
        (Keyword::ExclusiveMaximum, n.exclusive_maximum),
        (Keyword::MultipleOf, n.multiple_of),
    ];
    for (k, v) in pairs {
        if let Some(v) = v
            && kept.contains(k)
        {
            out.key(k.as_str());
            write(out, v);
        }
    }
}

fn write_description(out: &mut JsonWriter, description: Option<&str>, notes: &str) {
    match (description, notes.is_empty()) {
        (None, true) => {}
        (Some(d), true) => {
            out.key("description");
            out.string(d);
        }
        (d, false) => {
            let mut text = String::with_capacity(d.map_or(0, str::len) + notes.len() + 2);
            if let Some(d) = d.map(str::trim_end).filter(|d| !d.is_empty()) {
                text.push_str(d);
                if !d.ends_with(['.', '!', '?', ':']) {
                    text.push('.');
                }
                text.push(' ');
            }
            text.push_str(notes);
            out.key("description");
            out.string(&text);
        }
    }
}

fn push_note(notes: &mut String, note: &str) {
    if !notes.is_empty() {
        notes.push(' ');
    }
    notes.push_str(note);
}

fn float_text(f: f64) -> String {
    let mut s = String::new();
    push_float(&mut s, f);
    s
}

fn join_literals(items: &[Literal]) -> String {
    let mut s = String::new();
    for (i, l) in items.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&literal_text(l));
    }
    s
}

fn enum_note(values: &EnumValues) -> String {
    let mut s = String::from("Values: ");
    for (i, (v, d)) in values.iter_described().enumerate() {
        if i > 0 {
            s.push_str("; ");
        }
        s.push_str(v);
        if let Some(d) = d {
            s.push_str(" = ");
            s.push_str(d.trim_end().trim_end_matches('.'));
        }
    }
    s.push('.');
    s
}

/// Whether a regular expression uses lookaround or backreferences, which some strict dialects
/// reject.
pub fn has_lookaround(pattern: &str) -> bool {
    let b = pattern.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                if b.get(i + 1).is_some_and(|c| c.is_ascii_digit() && *c != b'0')
                    || b.get(i + 1) == Some(&b'k')
                {
                    return true;
                }
                i += 2;
                continue;
            }
            b'(' if b.get(i + 1) == Some(&b'?') => {
                let rest = &b[i + 2..];
                if rest.starts_with(b"=")
                    || rest.starts_with(b"!")
                    || rest.starts_with(b"<=")
                    || rest.starts_with(b"<!")
                {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

fn collect_refs<'s>(s: &'s Schema, names: &mut Vec<&'s str>, depth: usize) {
    if depth > NESTING_GUARD {
        return;
    }
    match &s.kind {
        SchemaKind::Ref(r) => names.push(&r.name),
        SchemaKind::List(l) => collect_refs(&l.items, names, depth + 1),
        SchemaKind::Object(o) => {
            for p in o.properties.iter() {
                collect_refs(&p.schema, names, depth + 1);
            }
            if let Additional::Typed(t) = &o.additional {
                collect_refs(t, names, depth + 1);
            }
        }
        SchemaKind::AnyOf(a) => a.variants.iter().for_each(|v| collect_refs(v, names, depth + 1)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::descriptor::Param;

    #[test]
    fn escaping_matches_serde_json() {
        let s = "a\"b\\c\n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f}é😀";
        let mut buf = String::new();
        escape_into(&mut buf, s);
        assert_eq!(buf, serde_json::to_string(s).unwrap());
    }

    #[test]
    fn escaping_matches_serde_json_at_every_offset() {
        // The fast path skips eight bytes at a time: put each character that needs care at
        // every position of a text longer than two words, among ASCII and multi-byte text.
        let specials = ['"', '\\', '\n', '\u{0}', '\u{1f}', '\u{7f}', 'é', '€', '😀', ' ', '~'];
        for fill in ["abcdefghijklmnopqrstuvwx", "ééééééééééé", "a😀b😀c😀d😀"] {
            for special in specials {
                for at in 0..=fill.chars().count() {
                    let s: String = fill
                        .chars()
                        .take(at)
                        .chain([special])
                        .chain(fill.chars().skip(at))
                        .collect();
                    let mut buf = String::new();
                    escape_into(&mut buf, &s);
                    assert_eq!(buf, serde_json::to_string(&s).unwrap(), "{s:?}");
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn escaping_any_text_matches_serde_json(s in "(?s).{0,40}") {
            let mut buf = String::new();
            escape_into(&mut buf, &s);
            proptest::prop_assert_eq!(buf, serde_json::to_string(&s).unwrap());
        }
    }

    #[test]
    fn integers_are_written_as_serde_json_writes_them() {
        for i in [0, 7, -7, 10, -10, 4096, i64::MAX, i64::MIN, i64::MIN + 1] {
            let mut w = JsonWriter::default();
            w.int(i);
            assert_eq!(w.finish(), i.to_string());
        }
        for u in [0, 9, 10, 99, 100, u64::MAX] {
            let mut w = JsonWriter::default();
            w.uint(u);
            assert_eq!(w.finish(), u.to_string());
        }
    }

    #[test]
    fn floats_are_written_as_serde_json_writes_them() {
        for f in [1.0, 0.5, -3.25, 1e20, 1.5e-7, f64::MAX] {
            assert_eq!(float_text(f), serde_json::to_string(&f).unwrap());
        }
        assert_eq!(float_text(f64::NAN), "null");
    }

    #[test]
    fn reference_targets_are_escaped() {
        assert_eq!(ref_target("#/$defs/", "Node"), "#/$defs/Node");
        assert_eq!(ref_target("#/$defs/", "a/b~c d"), "#/$defs/a~1b~0c%20d");
        assert_eq!(ref_target("#/$defs/", "é"), "#/$defs/%C3%A9");
    }

    #[test]
    fn lookaround_is_detected() {
        assert!(has_lookaround("^(?=.*\\d).+$"));
        assert!(has_lookaround("(?<!x)y"));
        assert!(has_lookaround("(a)\\1"));
        assert!(!has_lookaround("^[a-z]+(?:-[a-z]+)*$"));
        assert!(!has_lookaround("\\d{3}"));
    }

    static WEATHER: ToolDescriptor =
        ToolDescriptor::new("get_weather").description("Get the weather.").params(
            const {
                &[
                    Param::string("city"),
                    Param::integer("days")
                        .description("Number of days")
                        .range(1, 10)
                        .default_int(3),
                    Param::enumeration("unit", &["c", "f"]).nullable().optional(),
                ]
            },
        );

    fn render(tool: &ToolDescriptor, opts: &SchemaOptions, policy: Policy) -> Rendered {
        let mut ctx = RenderCtx::new(tool, policy);
        let mut out = JsonWriter::new();
        write_input_schema(&mut out, tool, opts, &mut ctx, "").unwrap();
        ctx.finish(out)
    }

    #[test]
    fn plain_json_schema_keeps_everything() {
        let r = render(&WEATHER, &SchemaOptions::JSON_SCHEMA, Policy::Strict);
        assert_eq!(
            r.json(),
            r#"{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","description":"Number of days","minimum":1,"maximum":10,"default":3},"unit":{"type":["string","null"],"enum":["c","f",null]}},"required":["city"],"additionalProperties":false}"#
        );
        assert!(r.report().is_empty());
    }

    #[test]
    fn strict_lowering_moves_defaults_and_bounds_and_reports_them() {
        let opts = SchemaOptions {
            keywords: Keywords::ALL
                .without(Keyword::Default)
                .without(Keyword::Minimum)
                .without(Keyword::Maximum),
            all_required: true,
            close_objects: true,
            null_style: NullStyle::AnyOf,
            ..SchemaOptions::JSON_SCHEMA
        };
        let r = render(&WEATHER, &opts, Policy::Strict);
        assert_eq!(
            r.json(),
            r#"{"type":"object","properties":{"city":{"type":"string"},"days":{"anyOf":[{"type":"integer"},{"type":"null"}],"description":"Number of days. Default: 3. Minimum: 1. Maximum: 10."},"unit":{"anyOf":[{"type":"string","enum":["c","f"]},{"type":"null"}]}},"required":["city","days","unit"],"additionalProperties":false}"#
        );
        let kinds: Vec<_> =
            r.report().iter().map(|c| (c.param.as_str(), c.keyword.as_ref())).collect();
        assert_eq!(
            kinds,
            [
                ("days", "required"),
                ("days", "default"),
                ("days", "minimum"),
                ("days", "maximum"),
                ("unit", "required")
            ]
        );
        assert_eq!(r.report().changes[1].pointer, "/properties/days");
        assert!(r.report().is_lossless());
    }

    #[test]
    fn name_rule_names_the_fault() {
        let err = NameRule::COMMON_64.check("a.b").unwrap_err();
        assert!(err.contains("'.'") && err.contains("byte 1"), "{err}");
        assert!(NameRule::COMMON_128.check(&"a".repeat(128)).is_ok());
        assert!(NameRule::COMMON_128.check(&"a".repeat(129)).is_err());
    }
}
