//! The real-world corpus (`testkit/corpus/real/`): tool definitions nobody here wrote, as their
//! sources publish them, and the run that takes each through import, every target's renderer,
//! the official wire specs and the check that nothing is lost without a report entry.
//!
//! Owns reading the corpus files, choosing the importer that fits each tool (an MCP `Tool` goes
//! through [`tooldef_mcp::import_tools`], an OpenAI function through the spec reader the way
//! `tooldef import --from openai` does), the twelve render targets of `tooldef render`, the
//! validation of each rendering, the silent-drop comparison (`silent_drops.rs`), and the
//! refusals file (`refusals.json`, read and written in `refusals.rs`) with its hand judgements.
//! It never reads outside the repository.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use regex::Regex;

use serde_json::{Map, Value, json};
use tooldef::ToolDescriptor;
use tooldef::json_schema::{ImportNote, export_input};
use tooldef::render::{LossPolicy, RenderError, Rendered, Renderer};
use tooldef::spec::spec_from_value;
use tooldef_anthropic::AnthropicRenderer;
use tooldef_bedrock::BedrockRenderer;
use tooldef_gemini::GeminiRenderer;
use tooldef_mcp::McpRenderer;
use tooldef_ollama::OllamaRenderer;
use tooldef_openai::OpenAiRenderer;

use crate::specs::{self, SpecResult};

pub mod models;
mod refusals;
mod silent_drops;

pub use refusals::{RefusalEntry, Refusals, UNJUDGED};
pub use silent_drops::silent_drops;

/// The corpus directory, inside this crate.
pub fn corpus_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/real"))
}

/// The file of judged refusals, beside the corpus.
pub fn refusals_path() -> PathBuf {
    corpus_dir().join("refusals.json")
}

/// How a source publishes a tool, which decides its importer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Form {
    /// An MCP `Tool` object from a `tools/list` result.
    Mcp,
    /// An OpenAI Chat Completions function tool (`{"type": "function", "function": {...}}`).
    OpenAi,
}

/// One tool of the corpus, as its source published it.
#[derive(Clone, Debug)]
pub struct RealTool {
    /// The file, relative to the corpus directory (`mcp-npm/server-memory.json`).
    pub file: String,
    /// Its place in the file's `tools` array.
    pub index: usize,
    /// The tool's name as published (`?` when it has none).
    pub name: String,
    /// Which importer reads it.
    pub form: Form,
    /// The tool object, verbatim.
    pub raw: Value,
}

impl RealTool {
    /// A stable identity within the corpus: `file#index`.
    pub fn id(&self) -> String {
        format!("{}#{}", self.file, self.index)
    }
}

/// Every tool of the corpus, file by file in path order, each file's tools in order.
///
/// # Panics
///
/// A corpus file that cannot be read or is not `{"tools": [...]}`: test data must never be
/// skipped quietly.
pub fn load() -> Vec<RealTool> {
    let dir = corpus_dir();
    let mut files = Vec::new();
    // Top-level JSON files (`refusals.json`) are about the corpus, not in it.
    for sub in subdirectories(&dir) {
        collect_files(&sub, &mut files);
    }
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let file = path.strip_prefix(&dir).expect("inside the corpus").to_string_lossy();
        let file = file.replace('\\', "/");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("corpus file `{file}` cannot be read: {e}"));
        let root: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("corpus file `{file}` is not JSON: {e}"));
        let tools = root
            .get("tools")
            .and_then(Value::as_array)
            .unwrap_or_else(|| panic!("corpus file `{file}` has no `tools` array"));
        for (index, raw) in tools.iter().enumerate() {
            let form = if raw.get("inputSchema").is_some() { Form::Mcp } else { Form::OpenAi };
            let name = match form {
                Form::Mcp => raw.get("name"),
                Form::OpenAi => raw.pointer("/function/name"),
            }
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_owned();
            out.push(RealTool { file: file.clone(), index, name, form, raw: raw.clone() });
        }
    }
    out
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("corpus directory `{}` cannot be read: {e}", dir.display()));
    entries.map(|e| e.expect("a directory entry").path()).collect()
}

fn subdirectories(dir: &Path) -> Vec<PathBuf> {
    entries(dir).into_iter().filter(|p| p.is_dir()).collect()
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for path in entries(dir) {
        if path.is_dir() {
            collect_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// A tool read into the IR.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The descriptor.
    pub descriptor: ToolDescriptor,
    /// What the import dropped or inferred, with pointers into the published tool.
    pub notes: Vec<ImportNote>,
}

/// Imports one tool with the importer that fits its form; the error is the importer's message.
pub fn import(tool: &RealTool) -> Result<Imported, String> {
    match tool.form {
        Form::Mcp => {
            let listed = tooldef_mcp::import_tools(&Value::Array(vec![tool.raw.clone()]))
                .map_err(|e| e.to_string())?;
            let descriptor = listed.tools.into_iter().next().ok_or("the import gave no tool")?;
            Ok(Imported { descriptor, notes: listed.notes })
        }
        Form::OpenAi => import_openai(&tool.raw),
    }
}

/// An OpenAI function tool read as `tooldef import --from openai` reads it: `name`,
/// `description` and `parameters` (as `input_schema`) into a spec, `strict` left to the renderer.
fn import_openai(raw: &Value) -> Result<Imported, String> {
    let function = raw
        .get("function")
        .and_then(Value::as_object)
        .ok_or("an OpenAI tool without a `function` object")?;
    let mut spec = Map::new();
    for (from, to) in
        [("name", "name"), ("description", "description"), ("parameters", "input_schema")]
    {
        match function.get(from) {
            None | Some(Value::Null) => {}
            Some(v) => {
                spec.insert(to.to_owned(), v.clone());
            }
        }
    }
    let label = function.get("name").and_then(Value::as_str).unwrap_or("?");
    let parsed = spec_from_value(&format!("OpenAI tool `{label}`"), &Value::Object(spec), None)
        .map_err(|e| e.to_string())?;
    Ok(Imported { descriptor: parsed.descriptor, notes: parsed.notes })
}

/// One of the twelve targets of `tooldef render`: a provider, strict mode on or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// OpenAI Chat Completions.
    OpenAiChat,
    /// OpenAI Chat Completions, `strict: true`.
    OpenAiChatStrict,
    /// OpenAI Responses.
    OpenAiResponses,
    /// OpenAI Responses, `strict: true`.
    OpenAiResponsesStrict,
    /// Anthropic Messages.
    Anthropic,
    /// Anthropic Messages, `strict: true`.
    AnthropicStrict,
    /// Gemini, `parametersJsonSchema`.
    Gemini,
    /// Gemini, the OpenAPI-subset `parameters`.
    GeminiOpenApi,
    /// Ollama.
    Ollama,
    /// MCP (latest protocol version).
    Mcp,
    /// Amazon Bedrock Converse.
    Bedrock,
    /// Amazon Bedrock Converse, `strict: true`.
    BedrockStrict,
}

impl Target {
    /// Every target, in the order `tooldef check` lists the providers.
    pub const ALL: [Target; 12] = [
        Target::OpenAiChat,
        Target::OpenAiChatStrict,
        Target::OpenAiResponses,
        Target::OpenAiResponsesStrict,
        Target::Anthropic,
        Target::AnthropicStrict,
        Target::Gemini,
        Target::GeminiOpenApi,
        Target::Ollama,
        Target::Mcp,
        Target::Bedrock,
        Target::BedrockStrict,
    ];

    /// The name used in `refusals.json` and the figures: the CLI's provider name, with
    /// `--strict` where strict mode is on.
    pub fn name(self) -> &'static str {
        match self {
            Target::OpenAiChat => "openai-chat",
            Target::OpenAiChatStrict => "openai-chat --strict",
            Target::OpenAiResponses => "openai-responses",
            Target::OpenAiResponsesStrict => "openai-responses --strict",
            Target::Anthropic => "anthropic",
            Target::AnthropicStrict => "anthropic --strict",
            Target::Gemini => "gemini",
            Target::GeminiOpenApi => "gemini-openapi",
            Target::Ollama => "ollama",
            Target::Mcp => "mcp",
            Target::Bedrock => "bedrock",
            Target::BedrockStrict => "bedrock --strict",
        }
    }

    /// The target named `name` (as [`Target::name`] writes it).
    pub fn parse(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// The renderer, configured as `tooldef render` configures it.
    pub fn renderer(self) -> Box<dyn Renderer + Send + Sync> {
        match self {
            Target::OpenAiChat => Box::new(OpenAiRenderer::chat()),
            Target::OpenAiChatStrict => Box::new(OpenAiRenderer::chat().strict(true)),
            Target::OpenAiResponses => Box::new(OpenAiRenderer::responses()),
            Target::OpenAiResponsesStrict => Box::new(OpenAiRenderer::responses().strict(true)),
            Target::Anthropic => Box::new(AnthropicRenderer::new()),
            Target::AnthropicStrict => Box::new(AnthropicRenderer::new().strict(true)),
            Target::Gemini => Box::new(GeminiRenderer::new()),
            Target::GeminiOpenApi => Box::new(GeminiRenderer::openapi()),
            Target::Ollama => Box::new(OllamaRenderer::new()),
            Target::Mcp => Box::new(McpRenderer::new()),
            Target::Bedrock => Box::new(BedrockRenderer::new()),
            Target::BedrockStrict => Box::new(BedrockRenderer::strict()),
        }
    }

    /// Where the input schema sits in the rendered tool (a JSON pointer).
    pub fn schema_pointer(self) -> &'static str {
        match self {
            Target::OpenAiChat | Target::OpenAiChatStrict | Target::Ollama => {
                "/function/parameters"
            }
            Target::OpenAiResponses | Target::OpenAiResponsesStrict | Target::GeminiOpenApi => {
                "/parameters"
            }
            Target::Anthropic | Target::AnthropicStrict => "/input_schema",
            Target::Gemini => "/parametersJsonSchema",
            Target::Mcp => "/inputSchema",
            Target::Bedrock | Target::BedrockStrict => "/toolSpec/inputSchema/json",
        }
    }

    /// Every way `wire` (one rendered tool) breaks the provider's official wire spec or its own
    /// rules (strict-mode rules, Gemini's OpenAPI subset, Ollama's kept keys), one line each.
    pub fn violations(self, wire: &Value) -> Vec<String> {
        let mut out = Vec::new();
        let mut spec = |what: &str, result: SpecResult| {
            if let Err(violations) = result {
                out.extend(violations.iter().map(|v| format!("{what}: {v}")));
            }
        };
        let schema = wire.pointer(self.schema_pointer());
        match self {
            Target::OpenAiChat | Target::OpenAiChatStrict => {
                spec("ChatCompletionTool", specs::openai::validate_chat_completion_tool(wire))
            }
            Target::OpenAiResponses | Target::OpenAiResponsesStrict => {
                spec("FunctionTool", specs::openai::validate_function_tool(wire));
            }
            Target::Anthropic | Target::AnthropicStrict => {
                spec("ToolParam", specs::anthropic::validate_tool(wire));
            }
            Target::Gemini | Target::GeminiOpenApi => {
                spec(
                    "FunctionDeclaration (Gemini API)",
                    specs::gemini::validate_function_declaration(wire),
                );
                spec(
                    "FunctionDeclaration (Vertex AI)",
                    specs::vertex::validate_function_declaration(wire),
                );
                let tools = json!([{ "functionDeclarations": [wire] }]);
                spec(
                    "GenerateContentRequest",
                    specs::gemini::validate_generate_content_fragment(&json!({ "tools": tools })),
                );
                if self == Target::GeminiOpenApi
                    && let Some(schema) = schema
                {
                    spec("Schema (Gemini API)", specs::gemini::validate_schema(schema));
                    spec("Schema (Vertex AI)", specs::vertex::validate_schema(schema));
                }
            }
            Target::Ollama => spec("Tool", specs::ollama::validate_tool_definition(wire)),
            Target::Mcp => spec(
                "Tool (2026-07-28)",
                specs::mcp::validate_tool(specs::mcp::McpVersion::V2026_07_28, wire),
            ),
            Target::Bedrock | Target::BedrockStrict => {
                spec("Tool", specs::bedrock::validate_tool(wire));
            }
        }
        let rules = match (self, schema) {
            (Target::OpenAiChatStrict | Target::OpenAiResponsesStrict, Some(s)) => {
                tooldef_openai::strict_violations(s)
            }
            (Target::AnthropicStrict, Some(s)) => tooldef_anthropic::strict_violations(s),
            (Target::BedrockStrict, Some(s)) => tooldef_bedrock::strict_violations(s),
            (Target::GeminiOpenApi, Some(s)) => tooldef_gemini::parameters_violations(s),
            (Target::Ollama, Some(s)) => tooldef_ollama::dropped_keys(s),
            _ => Vec::new(),
        };
        out.extend(rules.into_iter().map(|r| format!("{} rules: {r}", self.name())));
        out
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The refusal category of an import or render message: the reason, with the tool's name,
/// parameter names, pointers, quoted values and counts taken out, so that tools refused for the
/// same reason share one category (and one hand judgement).
pub fn category(message: &str) -> String {
    static PREFIX: OnceLock<Regex> = OnceLock::new();
    static MASKS: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    let prefix = PREFIX.get_or_init(|| {
        Regex::new(concat!(
            r"^(?:",
            r"[^\s:]*: |", // a file label
            r"#?/\S*: |",  // a pointer
            r"(?:MCP|OpenAI) tool `[^`]*`: |",
            r"tool `[^`]*`(?:, parameter `[^`]*`)?(?: at /\S*)?: |",
            r"parameter `[^`]*`: ",
            r")+",
        ))
        .expect("a valid pattern")
    });
    let masks = MASKS.get_or_init(|| {
        [
            (r"(?:parameter|property name|tool|name|value|definition) `[^`]*`", "$kind `…`"),
            (r#""(?:[^"\\]|\\.)*""#, "\"…\""),
            (r#"(?:\s*"…",?)+"#, " \"…\"…"),
            (r"\bat /\S*", "at …"),
            (r"(?:^|\s)/[^\s:]*", " …"),
            (r"\b(?:byte|number|index) -?\d+(?:\.\d+)?\b", "$word N"),
        ]
        .into_iter()
        .map(|(p, r)| (Regex::new(p).expect("a valid pattern"), r))
        .collect()
    });
    let line = message.lines().last().unwrap_or(message);
    let mut text = prefix.replace(line, "").into_owned();
    for (pattern, with) in masks {
        text = pattern
            .replace_all(&text, |caps: &regex::Captures<'_>| {
                let whole = &caps[0];
                let first = whole.split([' ', '`']).next().unwrap_or("");
                let kind = whole.split(" `").next().unwrap_or("");
                with.replace("$kind", kind).replace("$word", first)
            })
            .into_owned();
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The category of a render refusal: its rule and reason, and whether it is about the output
/// schema (which never needs to block the input side).
pub fn render_category(e: &RenderError) -> String {
    let output = ["/response", "/outputSchema", "/output_schema"]
        .iter()
        .any(|p| e.pointer.as_str().starts_with(p));
    let side = if output { " (in the output schema)" } else { "" };
    format!("{:?}: {}{side}", e.rule, category(&e.message))
}

/// A problem the real-world test fails on: a rendering the official spec or the provider's
/// rules reject, a keyword lost without a report entry, or policies that disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The tool (`file#index`) and its name.
    pub tool: String,
    /// The target.
    pub target: Target,
    /// What kind of failure.
    pub kind: FailureKind,
    /// What is wrong, one line.
    pub detail: String,
}

/// The kinds of [`Failure`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FailureKind {
    /// The rendering breaks the official wire spec or the provider's rules.
    Spec,
    /// A keyword of the imported schema is missing from the rendering and from the report.
    SilentDrop,
    /// The `Refuse` policy disagrees with the lenient report.
    LossPolicy,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}] {:?}: {}", self.tool, self.target, self.kind, self.detail)
    }
}

/// One refusal seen in a run: at import (`target` is `None`) or when rendering.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Refusal {
    /// The tool (`file#index`).
    pub tool: String,
    /// The tool's name.
    pub name: String,
    /// The target that refused it, or `None` for the import.
    pub target: Option<Target>,
    /// The reason category ([`category`] of the message).
    pub category: String,
    /// The whole message.
    pub message: String,
}

impl Refusal {
    /// `import` or the target's name.
    pub fn stage(&self) -> &'static str {
        self.target.map_or("import", Target::name)
    }
}

/// Everything a run over the corpus saw.
#[derive(Debug, Default)]
pub struct Run {
    /// How many tools the corpus holds.
    pub tools: usize,
    /// How many of them imported.
    pub imported: usize,
    /// Per target: (rendered, rendered losslessly).
    pub rendered: BTreeMap<Target, (usize, usize)>,
    /// Every import and render refusal, in corpus order.
    pub refusals: Vec<Refusal>,
    /// Every failure.
    pub failures: Vec<Failure>,
    /// Per MCP tool imported: whether `render --provider mcp` gives back the whole `Tool`
    /// (see [`mcp_round_trip_misses`]): (round-tripped, MCP tools imported).
    pub mcp_round_trip: (usize, usize),
    /// The MCP tools that did not come back, each with the fields that differ (in
    /// [`mcp_round_trip_misses`]' words), in corpus order.
    pub mcp_round_trip_misses: Vec<(String, Vec<String>)>,
    /// The bytes of schema text the imported descriptors keep beside their IR (input and
    /// output schemas, compact JSON; see `tooldef::SchemaSource`).
    pub kept_source_bytes: usize,
}

/// Takes every tool of `tools` through import, every target, the specs and the silent-drop
/// check.
pub fn run(tools: &[RealTool]) -> Run {
    run_with(tools, Target::ALL.into_iter().map(|t| (t, t.renderer())).collect())
}

/// A renderer standing for a target: the target's wire form, specs and rules, rendered by this
/// renderer (the target's own, or the same wire API for a model, see [`models`]).
pub type TargetRenderer = (Target, Box<dyn Renderer + Send + Sync>);

/// [`run`] over the given renderers, each held to its target's specs and rules.
pub fn run_with(tools: &[RealTool], renderers: Vec<TargetRenderer>) -> Run {
    let mut out = Run { tools: tools.len(), ..Run::default() };
    for (t, _) in &renderers {
        out.rendered.insert(*t, (0, 0));
    }
    for tool in tools {
        let imported = match import(tool) {
            Ok(i) => i,
            Err(message) => {
                out.refusals.push(Refusal {
                    tool: tool.id(),
                    name: tool.name.clone(),
                    target: None,
                    category: category(&message),
                    message,
                });
                continue;
            }
        };
        out.imported += 1;
        let source = &imported.descriptor.source;
        out.kept_source_bytes +=
            source.input_text().map_or(0, str::len) + source.output_text().map_or(0, str::len);
        let exported = export_input(&imported.descriptor);
        if tool.form == Form::Mcp {
            out.mcp_round_trip.1 += 1;
        }
        for (target, renderer) in &renderers {
            let target = *target;
            let d = &imported.descriptor;
            let rendered = match renderer.render(d, LossPolicy::Allow) {
                Ok(r) => r,
                Err(e) => {
                    out.refusals.push(Refusal {
                        tool: tool.id(),
                        name: tool.name.clone(),
                        target: Some(target),
                        category: render_category(&e),
                        message: e.message.clone(),
                    });
                    if let Ok(strict) = renderer.render(d, LossPolicy::Refuse) {
                        out.failures.push(failure(
                            tool,
                            target,
                            FailureKind::LossPolicy,
                            format!(
                                "the `Refuse` policy rendered what the lenient one refused: {}",
                                strict.json()
                            ),
                        ));
                    }
                    continue;
                }
            };
            let lossless = rendered.report().is_lossless();
            let counts = out.rendered.get_mut(&target).expect("every target counted");
            counts.0 += 1;
            counts.1 += usize::from(lossless);
            let wire = rendered.to_value();
            for v in target.violations(&wire) {
                out.failures.push(failure(tool, target, FailureKind::Spec, v));
            }
            // A renderer that wrote the schema as it was read (MCP, the schema unchanged since
            // import) is held to that text instead of the IR's spelling of it.
            let verbatim = (target == Target::Mcp)
                .then(|| d.source_input_schema())
                .flatten()
                .and_then(|text| serde_json::from_str::<Value>(text).ok());
            let reference = verbatim.as_ref().unwrap_or(&exported);
            for drop in silent_drops(reference, &wire, target.schema_pointer(), rendered.report()) {
                out.failures.push(failure(tool, target, FailureKind::SilentDrop, drop));
            }
            if let Some(problem) = policy_disagreement(renderer.as_ref(), d, &rendered) {
                out.failures.push(failure(tool, target, FailureKind::LossPolicy, problem));
            }
            if target == Target::Mcp && tool.form == Form::Mcp {
                let misses = mcp_round_trip_misses(&tool.raw, &wire);
                if misses.is_empty() {
                    out.mcp_round_trip.0 += 1;
                } else {
                    out.mcp_round_trip_misses
                        .push((format!("{} `{}`", tool.id(), tool.name), misses));
                }
            }
        }
    }
    out
}

fn failure(tool: &RealTool, target: Target, kind: FailureKind, detail: String) -> Failure {
    Failure { tool: format!("{} `{}`", tool.id(), tool.name), target, kind, detail }
}

/// Where `rendered` (an MCP `Tool` rendered from the import of `given`) differs from `given`:
/// every field of the `Tool` is compared as JSON (`inputSchema`, `outputSchema`, `title`,
/// `annotations`, `_meta`, `icons`, `execution` and any other), the schemas apart from their
/// `$schema`. One line per field that differs, naming it; empty when the tool came back.
pub fn mcp_round_trip_misses(given: &Value, rendered: &Value) -> Vec<String> {
    let (Some(given), Some(rendered)) = (given.as_object(), rendered.as_object()) else {
        return vec![format!("not both objects: {given} / {rendered}")];
    };
    let mut keys: Vec<&String> = given.keys().collect();
    keys.extend(rendered.keys().filter(|k| !given.contains_key(*k)));
    let mut out = Vec::new();
    for key in keys {
        let schema = matches!(key.as_str(), "inputSchema" | "outputSchema");
        let side = |tool: &Map<String, Value>| {
            let mut v = tool.get(key).cloned();
            if schema && let Some(Value::Object(m)) = &mut v {
                m.remove("$schema");
            }
            v
        };
        let (a, b) = (side(given), side(rendered));
        if a != b {
            let show = |v: Option<Value>| v.map_or_else(|| "absent".to_owned(), |v| v.to_string());
            out.push(format!("`{key}`: {} came back as {}", show(a), show(b)));
        }
    }
    out
}

/// Under the `Refuse` policy a lossless rendering is the same bytes and a lossy one a `Lossy`
/// error; anything else is a disagreement, described.
fn policy_disagreement(
    renderer: &(dyn Renderer + Send + Sync),
    d: &ToolDescriptor,
    lenient: &Rendered,
) -> Option<String> {
    let lossless = lenient.report().is_lossless();
    match renderer.render(d, LossPolicy::Refuse) {
        Ok(strict) if lossless && strict.json() == lenient.json() => None,
        Ok(strict) if lossless => Some(format!(
            "the policies disagree on a lossless rendering: {} / {}",
            lenient.json(),
            strict.json()
        )),
        Ok(_) => Some("the `Refuse` policy accepted a lossy rendering".to_owned()),
        Err(e) if !lossless && e.rule == tooldef::render::RenderRule::Lossy => None,
        Err(e) => Some(format!("the `Refuse` policy failed otherwise than as lossy: {e}")),
    }
}
