//! Progressive disclosure: show the model a small search meta-tool instead of every tool, and
//! reveal tools as it searches for them. [`ProgressiveDisclosure`] is the interceptor (and the
//! shared state); [`DisclosureSearch`] is the meta-tool's [`Executor`].

use std::cmp::Reverse;
use std::sync::{Arc, PoisonError, RwLock};

use indexmap::IndexSet;
use serde_json::{Value, json};

use crate::descriptor::{Param, ToolDescriptor, ToolName};
use crate::tool::{Arguments, BoxFuture, Executor, ToolCall, ToolResult};

use super::{AssemblyError, Interceptor, Next, PromptAssembly, ToolPattern};

/// How many tools a search returns when the model does not say.
const DEFAULT_LIMIT: u64 = 5;
/// The most tools one search returns.
const MAX_LIMIT: u64 = 50;

const META_PARAMS: &[Param] = &[
    Param::string("query")
        .description("A few words to look for in the names and descriptions of the hidden tools."),
    Param::integer("limit")
        .range(1, MAX_LIMIT as i64)
        .optional()
        .description("The most tools to return, best matches first (default 5)."),
];

const META_TOOL: ToolDescriptor = ToolDescriptor::new("tool_search")
    .description(
        "Search for tools that are available but not shown yet, by words in their names and \
         descriptions. Returns the matching tools' names and descriptions; they can be called \
         from your next turn on.",
    )
    .read_only()
    .idempotent()
    .params(META_PARAMS);

#[derive(Debug, Default)]
struct State {
    /// Tools revealed so far, in the order they were revealed.
    revealed: IndexSet<ToolName>,
    /// The tools the last assembly hid or revealed (everything except pinned ones), searched by
    /// the meta-tool.
    catalog: Vec<Arc<ToolDescriptor>>,
}

#[derive(Debug)]
struct Shared {
    meta: Arc<ToolDescriptor>,
    pinned: Vec<ToolPattern>,
    state: RwLock<State>,
}

/// The progressive-disclosure interceptor and its shared state.
///
/// On each assembly it keeps the tools matching an [`always_show`](Self::always_show) pattern and
/// those revealed so far, replaces every other tool by the meta-tool (`tool_search` by default),
/// and remembers the hidden tools as the catalogue the meta-tool searches. The meta-tool is
/// present as long as at least one tool is still hidden.
///
/// Clones share state: register one clone as an interceptor and give
/// [`search_executor`](Self::search_executor) to whatever dispatches the model's tool calls. The
/// state is per conversation: use one `ProgressiveDisclosure` (and one assembler, or one
/// interceptor registration) per conversation, and [`reset`](Self::reset) it to start over.
/// A search finds tools as of the latest assembly.
#[derive(Clone, Debug)]
pub struct ProgressiveDisclosure {
    shared: Arc<Shared>,
}

impl Default for ProgressiveDisclosure {
    fn default() -> Self {
        ProgressiveDisclosure::new()
    }
}

impl ProgressiveDisclosure {
    /// Disclosure with the meta-tool named `tool_search` and nothing pinned.
    pub fn new() -> Self {
        ProgressiveDisclosure::build(Arc::new(META_TOOL), Vec::new())
    }

    fn build(meta: Arc<ToolDescriptor>, pinned: Vec<ToolPattern>) -> Self {
        ProgressiveDisclosure {
            shared: Arc::new(Shared { meta, pinned, state: RwLock::new(State::default()) }),
        }
    }

    /// The same configuration with the meta-tool under another name (state is not carried over).
    #[must_use]
    pub fn with_tool_name(self, name: ToolName) -> Self {
        let mut meta = (*self.shared.meta).clone();
        meta.name = name;
        ProgressiveDisclosure::build(Arc::new(meta), self.shared.pinned.clone())
    }

    /// The same configuration, also always showing the tools matching `pattern` (state is not
    /// carried over).
    ///
    /// # Errors
    ///
    /// `pattern` is not a valid [`ToolPattern`].
    pub fn always_show(self, pattern: &str) -> Result<Self, super::PatternError> {
        let mut pinned = self.shared.pinned.clone();
        pinned.push(ToolPattern::parse(pattern)?);
        Ok(ProgressiveDisclosure::build(Arc::clone(&self.shared.meta), pinned))
    }

    /// The meta-tool's descriptor.
    pub fn meta_tool(&self) -> &Arc<ToolDescriptor> {
        &self.shared.meta
    }

    /// The meta-tool's executor, sharing this state.
    pub fn search_executor(&self) -> DisclosureSearch {
        DisclosureSearch { disclosure: self.clone() }
    }

    /// Reveals the tool named `name` from the next assembly on (whether or not it exists yet).
    pub fn reveal(&self, name: ToolName) {
        self.write().revealed.insert(name);
    }

    /// The tools revealed so far, in the order they were revealed.
    pub fn revealed(&self) -> Vec<ToolName> {
        self.read().revealed.iter().cloned().collect()
    }

    /// Makes `tools` the catalogue the meta-tool searches, until the next assembly replaces it
    /// (what a [`Plan`](super::Plan)'s deferred tools become in [`Plan::disclosure`](super::Plan::disclosure)).
    pub fn load_catalog(&self, tools: impl IntoIterator<Item = Arc<ToolDescriptor>>) {
        self.write().catalog = tools.into_iter().collect();
    }

    /// Forgets every revealed tool.
    pub fn reset(&self) {
        self.write().revealed.clear();
    }

    /// Searches the catalogue of the latest assembly and reveals the matches: up to `limit`
    /// tools, best first (see [`DisclosureSearch`] for the ranking).
    pub fn search(&self, query: &str, limit: usize) -> Vec<Arc<ToolDescriptor>> {
        let terms = terms(query);
        let whole = query.trim();
        let mut state = self.write();
        let mut scored: Vec<(u32, &Arc<ToolDescriptor>)> = state
            .catalog
            .iter()
            .filter_map(|tool| {
                let score = score(tool, whole, &terms);
                (score > 0).then_some((score, tool))
            })
            .collect();
        scored.sort_by(|(sa, a), (sb, b)| Reverse(sa).cmp(&Reverse(sb)).then(a.name.cmp(&b.name)));
        let found: Vec<Arc<ToolDescriptor>> =
            scored.into_iter().take(limit).map(|(_, t)| Arc::clone(t)).collect();
        for tool in &found {
            state.revealed.insert(tool.name.clone());
        }
        found
    }

    fn is_pinned(&self, name: &str) -> bool {
        self.shared.pinned.iter().any(|p| p.matches(name))
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, State> {
        self.shared.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, State> {
        self.shared.state.write().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Words too common to tell tools apart; ignored in queries.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "any", "at", "by", "for", "from", "i", "in", "is", "it", "me", "my", "of",
    "on", "or", "some", "that", "the", "this", "to", "tool", "tools", "with",
];

/// Lower-cased words of `text`; `_`, `-` and other punctuation separate words.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase)
}

/// The query words that count: lower-cased, without stop words.
fn terms(query: &str) -> Vec<String> {
    words(query).filter(|w| !STOP_WORDS.contains(&w.as_str())).collect()
}

/// 100 for the exact name; plus, per query word, 2 when it starts a word of the name, else 1
/// when it starts a word of the title or description. 0 means no match.
fn score(tool: &ToolDescriptor, whole: &str, terms: &[String]) -> u32 {
    let name: Vec<String> = words(tool.name.as_str()).collect();
    let mut text: Vec<String> = words(&tool.description).collect();
    if let Some(title) = &tool.title {
        text.extend(words(title));
    }
    let starts_a_word = |words: &[String], term: &str| words.iter().any(|w| w.starts_with(term));
    let mut score = if tool.name.as_str() == whole { 100 } else { 0 };
    for term in terms {
        if starts_a_word(&name, term) {
            score += 2;
        } else if starts_a_word(&text, term) {
            score += 1;
        }
    }
    score
}

impl Interceptor for ProgressiveDisclosure {
    fn intercept(
        &self,
        mut assembly: PromptAssembly,
        next: Next<'_>,
    ) -> Result<PromptAssembly, AssemblyError> {
        let meta_name = &self.shared.meta.name;
        let (shown, managed): (Vec<_>, Vec<_>) = std::mem::take(&mut assembly.tools)
            .into_iter()
            .filter(|t| {
                let clash = t.name == *meta_name;
                if clash {
                    tracing::warn!(
                        tool = %t.name,
                        "the tool `{}` has the name of the disclosure meta-tool; it is not shown \
                         (rename the meta-tool with `with_tool_name`)",
                        t.name
                    );
                }
                !clash
            })
            .partition(|t| self.is_pinned(t.name.as_str()));
        assembly.tools = shown;
        let mut any_hidden = false;
        {
            let mut state = self.write();
            for tool in &managed {
                if state.revealed.contains(&tool.name) {
                    assembly.tools.push(Arc::clone(tool));
                } else {
                    any_hidden = true;
                }
            }
            state.catalog = managed;
        }
        if any_hidden {
            assembly.tools.push(Arc::clone(&self.shared.meta));
        }
        assembly.normalize();
        next.run(assembly)
    }

    fn name(&self) -> &str {
        "progressive_disclosure"
    }
}

/// The [`Executor`] of the disclosure meta-tool.
///
/// Arguments: `query` (required string), `limit` (optional integer, 1 to 50, default 5). It ranks
/// the tools of the latest assembly's catalogue: the exact name first, then by how many query
/// words start a word of the name (worth 2) or else of the title or description (worth 1), ties
/// by name. Words are split at punctuation (so `get_weather` is `get` and `weather`), compared
/// without case, and common words (`a`, `the`, `for`, `tool`...) are ignored; it reveals the matches for later assemblies and returns
/// `{"tools": [{"name", "description"}...]}`.
#[derive(Clone, Debug)]
pub struct DisclosureSearch {
    disclosure: ProgressiveDisclosure,
}

impl DisclosureSearch {
    /// Runs a call synchronously (what [`Executor::execute`] wraps).
    pub fn run(&self, call: &ToolCall) -> ToolResult {
        let args = match &call.arguments {
            Arguments::Json(value) => value.clone(),
            Arguments::Text(text) if text.trim().is_empty() => json!({}),
            Arguments::Text(text) => match serde_json::from_str::<Value>(text) {
                Ok(value) => value,
                Err(err) => {
                    return ToolResult::error(
                        call,
                        format!(
                            "the arguments are not valid JSON ({err}); send {{\"query\": \"...\"}}"
                        ),
                    );
                }
            },
        };
        let Some(args) = args.as_object() else {
            return ToolResult::error(
                call,
                "the arguments must be an object: {\"query\": \"...\"}",
            );
        };
        let query = match args.get("query") {
            Some(Value::String(q)) if !terms(q).is_empty() => q,
            Some(Value::String(_)) => {
                return ToolResult::error(
                    call,
                    "`query` must contain at least one word that is not a common word like `the`",
                );
            }
            Some(_) => return ToolResult::error(call, "`query` must be a string"),
            None => return ToolResult::error(call, "`query` is required: a few words to look for"),
        };
        let limit = match args.get("limit") {
            None | Some(Value::Null) => DEFAULT_LIMIT,
            Some(value) => match value.as_u64() {
                Some(n) if (1..=MAX_LIMIT).contains(&n) => n,
                _ => {
                    return ToolResult::error(
                        call,
                        format!("`limit` must be an integer from 1 to {MAX_LIMIT}; got {value}"),
                    );
                }
            },
        };
        let found = self.disclosure.search(query, usize::try_from(limit).unwrap_or(usize::MAX));
        let tools: Vec<Value> = found
            .iter()
            .map(|t| json!({ "name": t.name.as_str(), "description": t.description.as_ref() }))
            .collect();
        ToolResult::success(call, json!({ "tools": tools }))
    }
}

impl Executor for DisclosureSearch {
    fn descriptor(&self) -> &ToolDescriptor {
        &self.disclosure.shared.meta
    }

    fn execute<'a>(&'a self, call: &'a ToolCall) -> BoxFuture<'a, ToolResult> {
        Box::pin(std::future::ready(self.run(call)))
    }
}
