//! The real-world corpus (`testkit/corpus/real/`): tool definitions nobody here wrote, as their
//! sources publish them, and the run that takes each through import, every target's renderer,
//! the official wire specs and the check that nothing is lost without a report entry.
//!
//! Owns reading the corpus files, choosing the importer that fits each tool (an MCP `Tool` goes
//! through [`tooldef_mcp::import_tools`], an OpenAI function through the spec reader the way
//! `tooldef import --from openai` does), the twelve render targets of `tooldef render`, the
//! validation of each rendering, the silent-drop comparison, and the refusals file
//! (`refusals.json`) with its hand judgements. It never reads outside the repository.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use regex::Regex;

use serde_json::{Map, Value, json};
use tooldef::ToolDescriptor;
use tooldef::json_schema::{ImportNote, export_input, pointer_token};
use tooldef::render::{ChangeKind, LossPolicy, RenderError, Rendered, Renderer, Report};
use tooldef::spec::spec_from_value;
use tooldef_anthropic::AnthropicRenderer;
use tooldef_bedrock::BedrockRenderer;
use tooldef_gemini::GeminiRenderer;
use tooldef_mcp::McpRenderer;
use tooldef_ollama::OllamaRenderer;
use tooldef_openai::OpenAiRenderer;

use crate::specs::{self, SpecResult};

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
    /// Per MCP tool imported: whether `render --provider mcp` gives back its `inputSchema`
    /// (JSON-equal, apart from `$schema`): (round-tripped, MCP tools imported).
    pub mcp_round_trip: (usize, usize),
}

/// Takes every tool of `tools` through import, every target, the specs and the silent-drop
/// check.
pub fn run(tools: &[RealTool]) -> Run {
    let renderers: Vec<_> = Target::ALL.into_iter().map(|t| (t, t.renderer())).collect();
    let mut out = Run { tools: tools.len(), ..Run::default() };
    for t in Target::ALL {
        out.rendered.insert(t, (0, 0));
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
            for drop in silent_drops(&exported, &wire, target.schema_pointer(), rendered.report()) {
                out.failures.push(failure(tool, target, FailureKind::SilentDrop, drop));
            }
            if let Some(problem) = policy_disagreement(renderer.as_ref(), d, &rendered) {
                out.failures.push(failure(tool, target, FailureKind::LossPolicy, problem));
            }
            if target == Target::Mcp && tool.form == Form::Mcp {
                let given = without_schema_keyword(tool.raw.get("inputSchema"));
                let back = without_schema_keyword(wire.get("inputSchema"));
                out.mcp_round_trip.0 += usize::from(given == back);
            }
        }
    }
    out
}

fn failure(tool: &RealTool, target: Target, kind: FailureKind, detail: String) -> Failure {
    Failure { tool: format!("{} `{}`", tool.id(), tool.name), target, kind, detail }
}

fn without_schema_keyword(v: Option<&Value>) -> Option<Value> {
    let mut v = v.cloned()?;
    if let Some(m) = v.as_object_mut() {
        m.remove("$schema");
    }
    Some(v)
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

/// Every keyword of `imported` (the IR's own JSON Schema export of the input) that the rendered
/// tool `wire` lacks at the same place, with no report entry at or above its pointer: one line
/// each (`/properties/q/default: not written and not reported`).
///
/// The walk follows properties, items, unions and the other subschema keywords; where a renderer
/// wrapped a schema in `anyOf` (nullable) the variants are searched too, and where it inlined a
/// `$ref` the definition is compared with what was inlined. Values of `required` and `enum` are
/// checked one by one; descriptions only for presence (renderers may append to them).
pub fn silent_drops(
    imported: &Value,
    wire: &Value,
    schema_pointer: &str,
    report: &Report,
) -> Vec<String> {
    let covers: Vec<(&str, &str, ChangeKind)> = report
        .iter()
        .filter_map(|c| {
            let rel = c.pointer.as_str().strip_prefix(schema_pointer)?;
            (rel.is_empty() || rel.starts_with('/')).then_some((rel, c.keyword.as_ref(), c.kind))
        })
        .collect();
    let Some(rendered) = wire.pointer(schema_pointer) else {
        // Gemini sends no schema for a tool without parameters (and reports it when the tool
        // accepted other keys); a schema with properties must be there.
        let has_properties =
            imported.get("properties").and_then(Value::as_object).is_some_and(|p| !p.is_empty());
        return if has_properties {
            vec![format!("{schema_pointer}: the input schema is not written")]
        } else {
            Vec::new()
        };
    };
    let defs = imported.get("$defs").and_then(Value::as_object);
    let reachable = reachable_definitions(imported, defs);
    let mut walk = Walk { covers, defs, reachable, out: Vec::new(), stack: Vec::new() };
    walk.schema(imported, "", &[(rendered, String::new())]);
    walk.out
}

struct Walk<'a> {
    /// (pointer relative to the rendered schema, keyword, kind) of every report entry inside it.
    covers: Vec<(&'a str, &'a str, ChangeKind)>,
    defs: Option<&'a Map<String, Value>>,
    out: Vec<String>,
    /// The definitions the input schema reaches through `$ref`s.
    reachable: BTreeSet<&'a str>,
    /// The definitions being compared through inlined references (recursion stops there).
    stack: Vec<String>,
}

/// The names of the definitions `schema` reaches (outside `$defs`, then through them).
fn reachable_definitions<'a>(
    schema: &'a Value,
    defs: Option<&'a Map<String, Value>>,
) -> BTreeSet<&'a str> {
    fn refs<'a>(v: &'a Value, skip_defs: bool, out: &mut Vec<&'a str>) {
        match v {
            Value::Object(m) => {
                for (k, sub) in m {
                    if k == "$ref" {
                        if let Some(name) = sub.as_str().and_then(|r| r.strip_prefix("#/$defs/")) {
                            out.push(name);
                        }
                    } else if !(skip_defs && k == "$defs") {
                        refs(sub, false, out);
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|i| refs(i, false, out)),
            _ => {}
        }
    }
    let mut todo = Vec::new();
    refs(schema, true, &mut todo);
    let mut seen = BTreeSet::new();
    while let Some(name) = todo.pop() {
        if seen.insert(name)
            && let Some(def) = defs.and_then(|d| d.get(name))
        {
            refs(def, false, &mut todo);
        }
    }
    seen
}

type Candidates<'v> = [(&'v Value, String)];

impl<'a> Walk<'a> {
    /// Whether a report entry accounts for `keyword` missing at `at` (imported pointer) or at
    /// any of the candidates' rendered pointers.
    fn covered(&self, at: &str, keyword: &str, candidates: &Candidates<'_>) -> bool {
        let places = std::iter::once(at).chain(candidates.iter().map(|(_, p)| p.as_str()));
        places.into_iter().any(|place| {
            let full = format!("{place}/{}", pointer_token(keyword));
            self.covers.iter().any(|&(ptr, kw, kind)| {
                ptr == full
                    || (ptr == place && (kw == keyword || kw.is_empty()))
                    || (is_ancestor(ptr, place)
                        && matches!(
                            kind,
                            ChangeKind::Dropped
                                | ChangeKind::Inlined
                                | ChangeKind::Rewritten
                                | ChangeKind::MovedToDescription
                        ))
            })
        })
    }

    fn drop(&mut self, at: &str, keyword: &str, candidates: &Candidates<'_>, what: &str) {
        if !self.covered(at, keyword, candidates) {
            self.out.push(format!("{at}/{}: {what}", pointer_token(keyword)));
        }
    }

    fn schema(&mut self, imported: &Value, at: &str, candidates: &Candidates<'_>) {
        let Some(map) = imported.as_object() else { return };
        let candidates = expand(candidates, map.contains_key("anyOf"));
        for (key, value) in map {
            match key.as_str() {
                "$defs" => self.definitions(value, at, &candidates),
                "$ref" => self.reference(value, at, &candidates),
                _ => self.keyword(key, value, at, &candidates),
            }
        }
    }

    fn keyword(&mut self, key: &str, value: &Value, at: &str, candidates: &Candidates<'_>) {
        // An empty `properties` or `required` says nothing; writing it or not is the same.
        let says_nothing = match value {
            Value::Object(m) => m.is_empty(),
            Value::Array(a) => a.is_empty(),
            _ => false,
        };
        if says_nothing && matches!(key, "properties" | "required") {
            return;
        }
        // `additionalProperties: true` is what its absence means.
        if key == "additionalProperties" && (value == &Value::Bool(true) || says_nothing) {
            return;
        }
        let present: Vec<(&Value, String)> = candidates
            .iter()
            .filter_map(|(node, ptr)| {
                let (found, written) = node.get(key).map(|f| (f, key)).or_else(|| match key {
                    "examples" => node.get("example").map(|f| (f, "examples")),
                    // A `oneOf` written as `anyOf`: lossless when its variants exclude each
                    // other, reported as lossy when they may overlap.
                    "oneOf" => node.get("anyOf").map(|f| (f, "anyOf")),
                    _ => None,
                })?;
                Some((found, format!("{ptr}/{}", pointer_token(written))))
            })
            .collect();
        if present.is_empty() {
            let what = match value {
                Value::Bool(_) | Value::Number(_) | Value::Null => {
                    format!("`{value}` not written and not reported")
                }
                _ => "not written and not reported".to_owned(),
            };
            self.drop(at, key, candidates, &what);
            return;
        }
        let here = format!("{at}/{}", pointer_token(key));
        match key {
            "properties" | "patternProperties" | "dependentSchemas" => {
                let Some(props) = value.as_object() else { return };
                for (name, sub) in props {
                    let token = pointer_token(name);
                    let found: Vec<_> = present
                        .iter()
                        .filter_map(|(node, ptr)| Some((node.get(name)?, format!("{ptr}/{token}"))))
                        .collect();
                    if found.is_empty() {
                        self.drop(&here, name, &present, "a property neither written nor reported");
                    } else {
                        self.schema(sub, &format!("{here}/{token}"), &found);
                    }
                }
            }
            "items"
            | "additionalProperties"
            | "not"
            | "contains"
            | "propertyNames"
            | "if"
            | "then"
            | "else"
            | "unevaluatedProperties"
            | "unevaluatedItems"
                if value.is_object() =>
            {
                let found: Vec<_> =
                    present.iter().filter(|(v, _)| v.is_object()).cloned().collect();
                if found.is_empty() {
                    self.drop(at, key, candidates, "a subschema neither written nor reported");
                } else {
                    self.schema(value, &here, &found);
                }
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                let Some(variants) = value.as_array() else { return };
                // A null variant written as `nullable: true` beside the union (Gemini's OpenAPI
                // form) is not among the written variants, which come one place earlier.
                let folded = key == "anyOf"
                    && candidates
                        .iter()
                        .any(|(n, _)| n.get("nullable") == Some(&Value::Bool(true)))
                    && !present.iter().any(|(written, _)| {
                        written.as_array().is_some_and(|vs| vs.iter().any(is_null_variant))
                    });
                let mut j = 0;
                for (i, sub) in variants.iter().enumerate() {
                    if folded && is_null_variant(sub) {
                        continue;
                    }
                    let found: Vec<_> = present
                        .iter()
                        .filter_map(|(node, ptr)| Some((node.get(j)?, format!("{ptr}/{j}"))))
                        .collect();
                    j += 1;
                    if found.is_empty() {
                        self.drop(
                            &here,
                            &i.to_string(),
                            &present,
                            "a variant neither written nor reported",
                        );
                    } else {
                        self.schema(sub, &format!("{here}/{i}"), &found);
                    }
                }
            }
            "required" | "enum" => {
                let Some(values) = value.as_array() else { return };
                for v in values {
                    let kept = present.iter().any(|(node, _)| {
                        node.as_array().is_some_and(|vs| vs.iter().any(|w| same_value(v, w)))
                    }) || (key == "enum"
                        && v.is_null()
                        && candidates.iter().any(|(n, _)| accepts_null(n)));
                    if !kept {
                        let what = format!("the value {v} neither written nor reported");
                        self.drop(at, key, candidates, &what);
                    }
                }
            }
            _ => {}
        }
    }

    fn definitions(&mut self, value: &Value, at: &str, candidates: &Candidates<'_>) {
        let Some(defs) = value.as_object() else { return };
        let here = format!("{at}/$defs");
        let kept: Vec<_> = candidates
            .iter()
            .filter_map(|(node, ptr)| Some((node.get("$defs")?, format!("{ptr}/$defs"))))
            .collect();
        // A renderer that inlines every reference drops `$defs` whole; each reference is then
        // compared with its definition where it was inlined.
        if kept.is_empty() {
            return;
        }
        for (name, sub) in defs {
            // A definition only the output schema uses is not the input's to keep.
            if !self.reachable.contains(name.as_str()) {
                continue;
            }
            let token = pointer_token(name);
            let found: Vec<_> = kept
                .iter()
                .filter_map(|(node, ptr)| Some((node.get(name)?, format!("{ptr}/{token}"))))
                .collect();
            if found.is_empty() {
                self.drop(&here, name, &kept, "a definition neither written nor reported");
            } else {
                self.schema(sub, &format!("{here}/{token}"), &found);
            }
        }
    }

    fn reference(&mut self, value: &Value, at: &str, candidates: &Candidates<'_>) {
        if candidates.iter().any(|(node, _)| node.get("$ref") == Some(value)) {
            return;
        }
        if !self.covered(at, "$ref", candidates) {
            self.out.push(format!("{at}/$ref: not written and not reported"));
            return;
        }
        // Inlined: compare the definition with what was written in its place.
        let Some(name) = value.as_str().and_then(|r| r.strip_prefix("#/$defs/")) else { return };
        if self.stack.iter().any(|n| n == name) {
            return;
        }
        let Some(def) = self.defs.and_then(|d| d.get(name)) else { return };
        self.stack.push(name.to_owned());
        self.schema(def, at, candidates);
        self.stack.pop();
    }
}

/// The candidates, and the variants of any `anyOf` a renderer added (the imported schema has
/// none here): a nullable schema written as `anyOf: [schema, {"type": "null"}]`.
fn expand<'v>(candidates: &Candidates<'v>, imported_has_any_of: bool) -> Vec<(&'v Value, String)> {
    let mut out = candidates.to_vec();
    if !imported_has_any_of {
        for (node, ptr) in candidates {
            if let Some(variants) = node.get("anyOf").and_then(Value::as_array) {
                out.extend(
                    variants.iter().enumerate().map(|(i, v)| (v, format!("{ptr}/anyOf/{i}"))),
                );
            }
        }
    }
    out
}

/// Whether a schema is the null type alone (`{"type": "null"}`, any case).
fn is_null_variant(v: &Value) -> bool {
    v.as_object().is_some_and(|o| {
        o.len() == 1
            && o.get("type").and_then(Value::as_str).is_some_and(|t| t.eq_ignore_ascii_case("null"))
    })
}

/// Whether a rendered schema (or one of its `anyOf` variants) says null is valid.
fn accepts_null(node: &Value) -> bool {
    let null_type = |n: &Value| match n.get("type") {
        Some(Value::String(t)) => t.eq_ignore_ascii_case("null"),
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
        _ => false,
    };
    null_type(node)
        || node.get("nullable") == Some(&Value::Bool(true))
        || node.get("anyOf").and_then(Value::as_array).is_some_and(|vs| vs.iter().any(null_type))
}

fn is_ancestor(ancestor: &str, of: &str) -> bool {
    of == ancestor || of.strip_prefix(ancestor).is_some_and(|rest| rest.starts_with('/'))
}

/// JSON equality, or the same text (a provider that takes string enums only writes `1` as
/// `"1"`).
fn same_value(a: &Value, b: &Value) -> bool {
    a == b
        || match (a, b) {
            (Value::String(s), other @ (Value::Number(_) | Value::Bool(_)))
            | (other @ (Value::Number(_) | Value::Bool(_)), Value::String(s)) => {
                serde_json::from_str::<Value>(s).is_ok_and(|parsed| parsed == *other)
            }
            _ => false,
        }
}

/// The judged refusals file: per category a judgement, and every refusal a run must see.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Refusals {
    /// Per `(stage, category)`: `"right"` (the provider itself would refuse it) or `"wrong"`
    /// (a tooldef limitation), and why.
    pub judgements: BTreeMap<(String, String), (String, String)>,
    /// Every refusal: (tool, name, stage, category, judgement, message).
    pub entries: Vec<RefusalEntry>,
}

/// One line of `refusals.json`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefusalEntry {
    /// The tool (`file#index`).
    pub tool: String,
    /// The tool's name.
    pub name: String,
    /// `import` or the target's name.
    pub stage: String,
    /// The reason category.
    pub category: String,
    /// `right`, `wrong`, or `unjudged` for a category nobody has judged yet.
    pub judgement: String,
    /// The whole message, for the reader.
    pub message: String,
}

impl RefusalEntry {
    /// What identifies a refusal across runs: tool, stage and category.
    pub fn key(&self) -> (&str, &str, &str) {
        (&self.tool, &self.stage, &self.category)
    }
}

/// Judgement text of a category nobody has judged yet.
pub const UNJUDGED: &str = "unjudged";

impl Refusals {
    /// Reads `refusals.json` (an absent file is an empty one).
    ///
    /// # Panics
    ///
    /// A file that exists but is not the format [`Refusals::to_json`] writes.
    pub fn load(path: &Path) -> Refusals {
        let Ok(text) = std::fs::read_to_string(path) else { return Refusals::default() };
        let root: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("`{}` is not JSON: {e}", path.display()));
        let s =
            |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut out = Refusals::default();
        for g in root.get("categories").and_then(Value::as_array).into_iter().flatten() {
            out.judgements
                .insert((s(g, "stage"), s(g, "category")), (s(g, "judgement"), s(g, "why")));
        }
        for e in root.get("refusals").and_then(Value::as_array).into_iter().flatten() {
            out.entries.push(RefusalEntry {
                tool: s(e, "tool"),
                name: s(e, "name"),
                stage: s(e, "stage"),
                category: s(e, "category"),
                judgement: s(e, "judgement"),
                message: s(e, "message"),
            });
        }
        out
    }

    /// The file for the refusals of `run`, keeping every judgement `self` already holds: an
    /// entry's own, else its category's; a new category is [`UNJUDGED`].
    pub fn rewritten(&self, run: &Run) -> Refusals {
        let own: BTreeMap<_, _> = self
            .entries
            .iter()
            .map(|e| ((e.tool.clone(), e.stage.clone(), e.category.clone()), e.judgement.clone()))
            .collect();
        let mut out = Refusals::default();
        for r in &run.refusals {
            let group = (r.stage().to_owned(), r.category.clone());
            let (judgement, why) = self
                .judgements
                .get(&group)
                .cloned()
                .unwrap_or_else(|| (UNJUDGED.to_owned(), String::new()));
            let key = (r.tool.clone(), group.0.clone(), group.1.clone());
            let entry_judgement = own
                .get(&key)
                .filter(|j| j.as_str() != UNJUDGED)
                .cloned()
                .unwrap_or_else(|| judgement.clone());
            out.judgements.entry(group.clone()).or_insert((judgement, why));
            out.entries.push(RefusalEntry {
                tool: r.tool.clone(),
                name: r.name.clone(),
                stage: group.0,
                category: group.1,
                judgement: entry_judgement,
                message: r.message.clone(),
            });
        }
        out
    }

    /// The file's text: categories (sorted, each with its count) then refusals in corpus order.
    pub fn to_json(&self) -> String {
        let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        for e in &self.entries {
            *counts.entry((&e.stage, &e.category)).or_default() += 1;
        }
        let categories: Vec<Value> = self
            .judgements
            .iter()
            .map(|((stage, category), (judgement, why))| {
                json!({
                    "stage": stage,
                    "category": category,
                    "count": counts.get(&(stage.as_str(), category.as_str())).copied().unwrap_or(0),
                    "judgement": judgement,
                    "why": why,
                })
            })
            .collect();
        let refusals: Vec<Value> = self
            .entries
            .iter()
            .map(|e| {
                json!({
                    "tool": e.tool,
                    "name": e.name,
                    "stage": e.stage,
                    "category": e.category,
                    "judgement": e.judgement,
                    "message": e.message,
                })
            })
            .collect();
        let mut text = serde_json::to_string_pretty(&json!({
            "categories": categories,
            "refusals": refusals,
        }))
        .expect("JSON values serialize");
        text.push('\n');
        text
    }

    /// Every difference between the refusals of `run` and this file: refusals the file lacks,
    /// entries that no longer happen, and entries without a judgement.
    pub fn differences(&self, run: &Run) -> Vec<String> {
        let seen: BTreeSet<(String, String, String)> = run
            .refusals
            .iter()
            .map(|r| (r.tool.clone(), r.stage().to_owned(), r.category.clone()))
            .collect();
        let listed: BTreeSet<(String, String, String)> = self
            .entries
            .iter()
            .map(|e| (e.tool.clone(), e.stage.clone(), e.category.clone()))
            .collect();
        let mut out = Vec::new();
        for r in &run.refusals {
            let key = (r.tool.clone(), r.stage().to_owned(), r.category.clone());
            if !listed.contains(&key) {
                out.push(format!(
                    "not in refusals.json: {} `{}` [{}]: {}",
                    r.tool,
                    r.name,
                    r.stage(),
                    r.message
                ));
            }
        }
        for e in &self.entries {
            let key = (e.tool.clone(), e.stage.clone(), e.category.clone());
            if !seen.contains(&key) {
                out.push(format!(
                    "no longer happens: {} `{}` [{}]: {}",
                    e.tool, e.name, e.stage, e.category
                ));
            }
            if e.judgement != "right" && e.judgement != "wrong" {
                out.push(format!(
                    "not judged: {} `{}` [{}]: {}",
                    e.tool, e.name, e.stage, e.category
                ));
            }
        }
        out
    }
}
