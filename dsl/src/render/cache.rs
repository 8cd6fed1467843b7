//! The [`RenderCache`]: each tool, and each whole request set, rendered once per renderer and
//! policy, keyed by content ([`content_hash`]) so that equal descriptors share an entry.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::{Arc, RwLock};

use super::renderer::{Rendered, RenderedSet, Renderer};
use super::report::{LossPolicy, RenderError};
use crate::descriptor::{Param, ToolDescriptor};
use crate::literal::Literal;
use crate::schema::{Additional, NumberSchema, ScalarRef, Schema, SchemaKind};
use crate::tool::Executor;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum DescKey {
    Address(usize, LossPolicy),
    Content(u64, LossPolicy),
}

enum Held {
    Static,
    Shared(#[allow(dead_code)] Arc<ToolDescriptor>),
    /// The executor whose descriptor was rendered, kept alive so that the address cannot be
    /// reused.
    Executor(#[allow(dead_code)] Arc<dyn Executor>),
    Content(Box<ToolDescriptor>),
}

/// What a cached set keeps alive: the owners of the descriptors whose addresses key it.
enum Keep {
    Descriptor(#[allow(dead_code)] Arc<ToolDescriptor>),
    Executor(#[allow(dead_code)] Arc<dyn Executor>),
}

/// An executor seen as its descriptor, so that executor sets go through the same set code.
struct ByExecutor<'a>(&'a Arc<dyn Executor>);

impl std::ops::Deref for ByExecutor<'_> {
    type Target = ToolDescriptor;

    fn deref(&self) -> &ToolDescriptor {
        self.0.descriptor()
    }
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
    policy: LossPolicy,
    addresses: Box<[usize]>,
    /// The `Arc`s of a shared or executor set, kept alive so that their addresses cannot be
    /// reused.
    _held: Vec<Keep>,
    rendered: RenderedSet,
}

type SetShelf = HashMap<u64, Vec<SetEntry>, BuildHasherDefault<KeyHasher>>;

fn set_hash(renderer: &str, policy: LossPolicy, addresses: impl Iterator<Item = usize>) -> u64 {
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
        policy: LossPolicy,
        tools: &[T],
        held: impl FnOnce() -> Vec<Keep>,
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
        policy: LossPolicy,
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
        policy: LossPolicy,
    ) -> Result<RenderedSet, RenderError> {
        let held = || tools.iter().cloned().map(Keep::Descriptor).collect();
        self.set(renderer, policy, tools, held, |t| self.get_shared(renderer, t, policy))
    }

    /// The rendering of the descriptors of a set of executors, in order, keyed by the
    /// descriptors' addresses (the cache keeps the executors alive): what
    /// [`Toolbox::rendered`](crate::Toolbox::rendered) and
    /// [`Snapshot::rendered`](crate::Snapshot::rendered) use. [`Renderer::check_set`] and each
    /// tool on the first call, one lookup afterwards; a typed tool's descriptor is `'static`,
    /// so its per-tool rendering is shared with [`get_static`](Self::get_static)'s.
    ///
    /// # Errors
    ///
    /// The renderer's set-level error, or the first tool that cannot be rendered (not cached).
    pub fn get_executor_set<'a, R: Renderer + ?Sized>(
        &self,
        renderer: &R,
        executors: impl IntoIterator<Item = &'a Arc<dyn Executor>>,
        policy: LossPolicy,
    ) -> Result<RenderedSet, RenderError> {
        let tools: Vec<ByExecutor<'a>> = executors.into_iter().map(ByExecutor).collect();
        let held = || tools.iter().map(|t| Keep::Executor(Arc::clone(t.0))).collect();
        self.set(renderer, policy, &tools, held, |t| self.get_executor(renderer, t.0, policy))
    }

    /// The rendering of an executor's descriptor, keyed by the descriptor's address (the
    /// cache keeps the executor alive).
    ///
    /// # Errors
    ///
    /// The renderer's error (not cached).
    pub fn get_executor<R: Renderer + ?Sized>(
        &self,
        renderer: &R,
        executor: &Arc<dyn Executor>,
        policy: LossPolicy,
    ) -> Result<Rendered, RenderError> {
        let tool = executor.descriptor();
        let rkey = renderer.cache_key();
        let key = DescKey::Address(std::ptr::from_ref(tool) as usize, policy);
        if let Some(hit) = self.lookup(&rkey, key, |h| matches!(h, Held::Executor(_))) {
            return Ok(hit);
        }
        let rendered = render_traced(renderer, tool, policy)?;
        self.store(&rkey, key, Held::Executor(Arc::clone(executor)), rendered.clone());
        Ok(rendered)
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
            (Held::Static, Held::Static)
            | (Held::Shared(_), Held::Shared(_))
            | (Held::Executor(_), Held::Executor(_)) => true,
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
        policy: LossPolicy,
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
        policy: LossPolicy,
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
        policy: LossPolicy,
    ) -> Result<Rendered, RenderError> {
        let rkey = renderer.cache_key();
        let key = DescKey::Content(content_hash(tool), policy);
        // The source takes no part in `==`, but a renderer may write it.
        let same =
            |h: &Held| matches!(h, Held::Content(d) if **d == *tool && d.source == tool.source);
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
    policy: LossPolicy,
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
        Additional::Unstated => 3u8.hash(h),
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
            for (v, d) in e.values.iter_described() {
                match v {
                    ScalarRef::Bool(b) => (0u8, b).hash(h),
                    ScalarRef::Int(i) => (1u8, i).hash(h),
                    ScalarRef::Float(f) => (2u8, f.to_bits()).hash(h),
                    ScalarRef::Str(s) => (3u8, s).hash(h),
                }
                d.hash(h);
            }
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
