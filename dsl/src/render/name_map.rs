//! Opt-in name mapping: tools and properties whose names a provider refuses are sent under safe
//! names, and the model's calls are given back under the original ones.
//!
//! Owns [`NameRules`] (what a renderer says it accepts), [`NameMap`] (the two-way table of one
//! rendering) and [`render_mapped`]. It renames on a clone and never touches the descriptors it
//! is given; the renderer it drives does not know that anything was renamed.
//!
//! How a safe name is made, for one namespace (the tools of one request, or the properties of
//! one object): a name the rule accepts is kept. Any other name has each character the rule
//! does not allow replaced by `_`, gets a leading `_` when its first character may not start a
//! name, and is cut to the rule's length. A name that was cut, or that would collide with a kept
//! name or an earlier safe one, ends in `_` and eight hex digits of a hash of the original name
//! (then a counter, should even that collide). The result depends only on the names of the
//! namespace, so the same tools always render to the same bytes and a call is mapped back by
//! recomputing the table of the object it fills.
//!
//! What is renamed: the tool name, and with a property rule (Gemini's), every property name of
//! the input schema, of its definitions and of the output schema. What is mapped back by
//! [`NameMap::restore`]: the call's tool name and its argument keys at every depth, following
//! the original schema (list items, map values, references; for a union, the first object
//! variant whose safe names cover the value's keys). [`NameMap::to_wire`] does the reverse for a
//! result: its tool name (Gemini echoes it in `functionResponse`) and its structured value's
//! keys, following the output schema. Keys inside defaults and examples, and property names in
//! keywords the IR keeps verbatim, are not rewritten.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::lowering::{Inverse, Pass, WayBack};
use super::names::NameRule;
use super::renderer::{Rendered, Renderer, json_array};
use super::report::{Change, ChangeKind, LossPolicy, RenderError};
use crate::descriptor::{Definition, Param, ToolDescriptor, ToolName};
use crate::pointer::JsonPointer;
use crate::schema::{Additional, Schema, SchemaKind};
use crate::tool::{Arguments, Content, ToolCall, ToolResult};

/// The name rules a renderer's provider enforces: for tool names, and for property names of
/// the parameter schemas. `None` means the provider checks nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct NameRules {
    /// The rule of tool (function) names.
    pub tool: Option<NameRule>,
    /// The rule of property names, at every depth of the schemas.
    pub property: Option<NameRule>,
}

impl NameRules {
    /// No rule: every name is sent as it is.
    pub const NONE: NameRules = NameRules { tool: None, property: None };

    /// A rule for tool names only.
    pub const fn tools(rule: NameRule) -> Self {
        NameRules { tool: Some(rule), property: None }
    }

    /// The same rules with a rule for property names.
    #[must_use]
    pub const fn with_properties(mut self, rule: NameRule) -> Self {
        self.property = Some(rule);
        self
    }
}

/// Deepest nesting of values and schemas the mapping walks; deeper parts are left as they are.
const MAX_DEPTH: usize = 128;

/// One tool of a mapped set.
#[derive(Clone, Debug, PartialEq)]
struct MappedTool {
    /// The name the provider was sent.
    wire: String,
    /// The original descriptor, kept when a property was renamed (argument keys are mapped back
    /// by walking its schemas).
    original: Option<Box<ToolDescriptor>>,
    /// The descriptor under the names the provider was sent, kept when a property was renamed
    /// (a stream's early checks read the model's arguments by it).
    renamed: Option<Box<ToolDescriptor>>,
}

/// The two-way table between the names a provider was sent and the original ones, for one
/// rendered set of tools (see [`render_mapped`]).
///
/// Plain data owned by the host, next to the rendered tools it belongs to: no global state.
/// Use [`restore`](Self::restore) on every [`ToolCall`] the provider crate maps from the model's
/// message before dispatch, and [`to_wire`](Self::to_wire) on every [`ToolResult`] before the
/// provider crate writes the result message.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NameMap {
    /// By original name.
    tools: HashMap<String, MappedTool>,
    /// Wire name to original name, for renamed tools only.
    originals: HashMap<String, String>,
    /// The property rule the set was renamed with.
    property: Option<NameRule>,
}

impl NameMap {
    /// Whether nothing was renamed (every call passes through unchanged).
    pub fn is_empty(&self) -> bool {
        self.originals.is_empty() && self.tools.values().all(|t| t.original.is_none())
    }

    /// The name a tool was sent under (`original` itself when it was not renamed or is not in
    /// the set).
    pub fn wire_name<'a>(&'a self, original: &'a str) -> &'a str {
        self.tools.get(original).map_or(original, |t| t.wire.as_str())
    }

    /// The original name of the tool the provider knows as `wire` (`wire` itself when it was
    /// not renamed).
    pub fn original_name<'a>(&'a self, wire: &'a str) -> &'a str {
        self.originals.get(wire).map_or(wire, String::as_str)
    }

    /// The descriptor of the tool the provider knows as `wire`, under the names it was sent,
    /// when some property of it was renamed (`None` otherwise: its property names are the
    /// original ones).
    pub fn wire_descriptor(&self, wire: &str) -> Option<&ToolDescriptor> {
        self.tools.get(self.original_name(wire)).and_then(|t| t.renamed.as_deref())
    }

    /// The renamed tools, as `(wire name, original name)` pairs sorted by wire name.
    pub fn renamed_tools(&self) -> Vec<(&str, &str)> {
        let mut out: Vec<(&str, &str)> =
            self.originals.iter().map(|(w, o)| (w.as_str(), o.as_str())).collect();
        out.sort_unstable();
        out
    }

    /// The call as the tool knows it: the original tool name, and argument keys renamed back
    /// at every depth. A call to a tool outside the set, or whose arguments are not JSON, is
    /// returned unchanged (dispatch then says what is wrong).
    pub fn restore(&self, mut call: ToolCall) -> ToolCall {
        if let Some(original) = self.originals.get(&call.name) {
            call.name = original.clone();
        }
        let (Some(rule), Some(tool)) = (&self.property, self.tools.get(&call.name)) else {
            return call;
        };
        let Some(d) = tool.original.as_deref() else { return call };
        let mut args = match std::mem::take(&mut call.arguments) {
            Arguments::Json(v) => v,
            Arguments::Text(text) => match serde_json::from_str::<Value>(&text) {
                Ok(v) => v,
                Err(_) => {
                    call.arguments = Arguments::Text(text);
                    return call;
                }
            },
        };
        let walk = Walk { defs: &d.definitions, rule, to_wire: false };
        walk.object(&mut args, &d.params, &d.additional, 0);
        call.arguments = Arguments::Json(args);
        call
    }

    /// Every call of a turn, [`restore`](Self::restore)d, in order.
    pub fn restore_all(&self, calls: impl IntoIterator<Item = ToolCall>) -> Vec<ToolCall> {
        calls.into_iter().map(|c| self.restore(c)).collect()
    }

    /// The result as the provider knows the tool: the wire tool name, the structured value's
    /// keys renamed as the output schema was, and, in an error's text, each JSON pointer into
    /// the arguments written under the names the model was sent ([`pointer_to_wire`](Self::pointer_to_wire)),
    /// so that the model reads where it went wrong in its own terms.
    pub fn to_wire(&self, mut result: ToolResult) -> ToolResult {
        let Some(tool) = self.tools.get(&result.name) else { return result };
        if let (Some(rule), Some(d), Some(value)) =
            (&self.property, tool.original.as_deref(), result.structured.as_mut())
            && let Some(output) = &d.output
        {
            let walk = Walk { defs: &d.definitions, rule, to_wire: true };
            walk.value(value, output, 0);
        }
        if result.is_error {
            for content in &mut result.content {
                if let Content::Text { text } = content {
                    *text = self.words_to_wire(&result.name, &tool.wire, text);
                }
            }
        }
        result.name = tool.wire.clone();
        result
    }

    /// A call as the provider knows it (for a conversation's history sent back to it): the
    /// wire tool name, and argument keys renamed at every depth as the schemas were; the
    /// reverse of [`restore`](Self::restore).
    pub fn call_to_wire(&self, mut call: ToolCall) -> ToolCall {
        let Some(tool) = self.tools.get(&call.name) else { return call };
        if let (Some(rule), Some(d)) = (&self.property, tool.original.as_deref()) {
            let args = match std::mem::take(&mut call.arguments) {
                Arguments::Json(v) => Some(v),
                Arguments::Text(text) => match serde_json::from_str::<Value>(&text) {
                    Ok(v) => Some(v),
                    Err(_) => {
                        call.arguments = Arguments::Text(text);
                        None
                    }
                },
            };
            if let Some(mut args) = args {
                let walk = Walk { defs: &d.definitions, rule, to_wire: true };
                walk.object(&mut args, &d.params, &d.additional, 0);
                call.arguments = Arguments::Json(args);
            }
        }
        call.name = tool.wire.clone();
        call
    }

    /// `pointer`, into the arguments of the tool called `original`, under the names the
    /// provider was sent: each segment that names a renamed property (following the schemas:
    /// objects, list items, map values, references, the first union variant that has the
    /// property) is its wire name; the rest is kept.
    pub fn pointer_to_wire(&self, original: &str, pointer: &JsonPointer) -> JsonPointer {
        let (Some(rule), Some(d)) =
            (&self.property, self.tools.get(original).and_then(|t| t.original.as_deref()))
        else {
            return pointer.clone();
        };
        let mut out = JsonPointer::root();
        let mut at = At::Object(&d.params, &d.additional);
        for seg in pointer.segments() {
            let mut hops = 0;
            // Follow references and unions to the node this segment steps into.
            while let At::Schema(s) = at {
                hops += 1;
                if hops > MAX_DEPTH {
                    at = At::Unknown;
                    break;
                }
                at = match &s.kind {
                    SchemaKind::Object(o) => At::Object(&o.properties, &o.additional),
                    SchemaKind::List(l) => At::Items(&l.items),
                    SchemaKind::Ref(r) => d
                        .definitions
                        .iter()
                        .find(|def| def.name == r.name)
                        .map_or(At::Unknown, |def| At::Schema(&def.schema)),
                    SchemaKind::AnyOf(a) => a
                        .variants
                        .iter()
                        .find(|v| has_step(v, &d.definitions, &seg))
                        .map_or(At::Unknown, At::Schema),
                    _ => At::Unknown,
                };
            }
            match at {
                At::Object(params, additional) => {
                    let names: Vec<&str> = params.iter().map(|p| &*p.name).collect();
                    match names.iter().position(|n| *n == seg) {
                        Some(i) => {
                            out.push(&safe_names(&names, rule)[i]);
                            at = At::Schema(&params[i].schema);
                        }
                        None => {
                            out.push(&seg);
                            at = match additional {
                                Additional::Typed(values) => At::Schema(values),
                                _ => At::Unknown,
                            };
                        }
                    }
                }
                At::Items(items) => {
                    out.push(&seg);
                    at = At::Schema(items);
                }
                At::Schema(_) | At::Unknown => {
                    out.push(&seg);
                    at = At::Unknown;
                }
            }
        }
        out
    }

    /// An error's `text` as the model knows the tool: the tool's name (a word, before `:`)
    /// written as `wire`, and each JSON pointer (a word starting with `/`, before a space or
    /// `;`, `,`, `:`) by [`pointer_to_wire`](Self::pointer_to_wire).
    fn words_to_wire(&self, original: &str, wire: &str, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for (i, word) in text.split(' ').enumerate() {
            if i > 0 {
                out.push(' ');
            }
            let core = word.trim_end_matches([';', ',', ':']);
            let rest = &word[core.len()..];
            match JsonPointer::parse(core) {
                Ok(p) if core.starts_with('/') => {
                    out.push_str(self.pointer_to_wire(original, &p).as_str());
                    out.push_str(rest);
                }
                _ if core == original && rest.starts_with(':') => {
                    out.push_str(wire);
                    out.push_str(rest);
                }
                _ => out.push_str(word),
            }
        }
        out
    }
}

/// Where [`NameMap::pointer_to_wire`] is in the schemas.
#[derive(Clone, Copy)]
enum At<'a> {
    Object(&'a [Param], &'a Additional),
    Items(&'a Schema),
    Schema(&'a Schema),
    Unknown,
}

/// Whether `schema` (one union variant) has a step named `seg`: a property of an object, or an
/// index into a list.
fn has_step(schema: &Schema, defs: &[Definition], seg: &str) -> bool {
    let mut s = schema;
    for _ in 0..MAX_DEPTH {
        match &s.kind {
            SchemaKind::Ref(r) => match defs.iter().find(|d| d.name == r.name) {
                Some(d) => s = &d.schema,
                None => return false,
            },
            SchemaKind::Object(o) => {
                return o.properties.iter().any(|p| p.name == seg)
                    || matches!(o.additional, Additional::Typed(_));
            }
            SchemaKind::List(_) => return seg.parse::<usize>().is_ok(),
            _ => return false,
        }
    }
    false
}

/// Renamed tools, ready for a renderer: what [`plan`] returns.
pub(crate) struct Plan<'a> {
    /// The tools under their wire names, in the order given.
    pub(crate) tools: Vec<Cow<'a, ToolDescriptor>>,
    /// Per tool, the rename changes to report.
    pub(crate) changes: Vec<Vec<Change>>,
    /// The name table.
    pub(crate) names: NameMap,
}

/// The renderings of a set of tools under safe names, and the [`NameMap`] that maps the
/// model's calls back.
#[derive(Clone, Debug, PartialEq)]
pub struct MappedSet {
    rendered: Vec<Rendered>,
    names: NameMap,
}

impl MappedSet {
    /// Each tool's rendering, in the order given; each report begins with its renames.
    pub fn rendered(&self) -> &[Rendered] {
        &self.rendered
    }

    /// The name table of this set.
    pub fn names(&self) -> &NameMap {
        &self.names
    }

    /// The JSON array of the tools' wire objects (what `tooldef render` prints).
    pub fn json(&self) -> String {
        json_array(&self.rendered)
    }

    /// The renderings and the name table.
    pub fn into_parts(self) -> (Vec<Rendered>, NameMap) {
        (self.rendered, self.names)
    }

    /// A model's call as the original descriptor reads it: the tool's inverse applied under
    /// the wire names, then the names mapped back (see [`WayBack`]).
    pub fn restore(&self, call: ToolCall) -> ToolCall {
        WayBack::restore(self, call)
    }

    /// Every call of a turn, [`restore`](Self::restore)d, in order.
    pub fn restore_all(&self, calls: Vec<ToolCall>) -> Vec<ToolCall> {
        WayBack::restore_all(self, calls)
    }
}

/// The inverses of the renamed descriptors first (they read the wire names), then the names.
impl WayBack for MappedSet {
    fn inverse_of(&self, wire_name: &str) -> Option<&Inverse> {
        self.rendered.inverse_of(wire_name)
    }

    fn original_name<'s>(&'s self, wire_name: &'s str) -> &'s str {
        self.names.original_name(wire_name)
    }

    fn wire_descriptor(&self, wire_name: &str) -> Option<&ToolDescriptor> {
        match self.inverse_of(wire_name) {
            Some(inverse) => Some(inverse.descriptor()),
            None => self.names.wire_descriptor(wire_name),
        }
    }

    fn restore(&self, call: ToolCall) -> ToolCall {
        let call = match self.inverse_of(&call.name) {
            Some(inverse) => inverse.restore(call),
            None => call,
        };
        self.names.restore(call)
    }
}

/// Names only: a name table keeps no inverse of the lowering.
impl WayBack for NameMap {
    fn inverse_of(&self, _wire_name: &str) -> Option<&Inverse> {
        None
    }

    fn original_name<'s>(&'s self, wire_name: &'s str) -> &'s str {
        NameMap::original_name(self, wire_name)
    }

    fn wire_descriptor(&self, wire_name: &str) -> Option<&ToolDescriptor> {
        NameMap::wire_descriptor(self, wire_name)
    }

    fn restore(&self, call: ToolCall) -> ToolCall {
        NameMap::restore(self, call)
    }
}

/// Renders `tools` for `renderer` under names its provider accepts
/// ([`Renderer::name_rules`]), and returns the renderings with the [`NameMap`] that gives the
/// model's calls back under the original names.
///
/// Every rename is a reported, lossless change (keyword `name`) at the head of its tool's
/// report; changes and errors name the tool by its original name. Tools whose names the
/// provider accepts render exactly as [`Renderer::render_set`] renders them.
///
/// ```
/// use tooldef::render::{LossPolicy, Renderer, render_mapped};
/// use tooldef::{ToolCall, ToolDescriptor, spec::parse_spec};
/// use tooldef_openai::OpenAiRenderer;
///
/// // An MCP server's tool, named as MCP allows and OpenAI does not.
/// let spec = parse_spec("weather.json", r#"{"name": "weather.get"}"#, None).unwrap();
/// let openai = OpenAiRenderer::chat();
/// assert!(openai.render(&spec.descriptor, LossPolicy::Allow).is_err());
///
/// let set = render_mapped(&openai, &[&spec.descriptor], LossPolicy::Refuse).unwrap();
/// assert_eq!(set.rendered()[0].to_value()["function"]["name"], "weather_get");
/// let call = ToolCall::new("call_1", "weather_get", serde_json::json!({}));
/// assert_eq!(set.names().restore(call).name, "weather.get");
/// ```
///
/// # Errors
///
/// What [`Renderer::render_set`] refuses for the renamed tools, naming the original tool.
pub fn render_mapped<R: Renderer + ?Sized>(
    renderer: &R,
    tools: &[&ToolDescriptor],
    policy: LossPolicy,
) -> Result<MappedSet, RenderError> {
    let Plan { tools: renamed, changes, names } = plan(tools, &renderer.name_rules());
    let refs: Vec<&ToolDescriptor> = renamed.iter().map(|t| &**t).collect();
    let rendered = renderer.render_set(&refs, policy).map_err(|e| names.original_error(e))?;
    let rendered = rendered
        .into_iter()
        .zip(tools)
        .zip(changes)
        .map(|((r, original), renames)| finish(original, r, renames))
        .collect();
    Ok(MappedSet { rendered, names })
}

/// A rendering of a renamed tool, its report headed by the renames and naming the original.
pub(crate) fn finish(original: &ToolDescriptor, r: Rendered, mut renames: Vec<Change>) -> Rendered {
    if renames.is_empty() && r.name() == original.name.as_str() {
        return r;
    }
    let mut all = r.report().clone();
    for c in &mut all.changes {
        c.tool = original.name.to_string();
    }
    let passes = if renames.is_empty() { r.passes() } else { r.passes().with(Pass::MapNames) };
    renames.append(&mut all.changes);
    all.changes = renames;
    Rendered::from_parts(
        r.name().to_owned(),
        r.json().to_owned(),
        all,
        passes,
        r.inverse().cloned(),
    )
}

impl NameMap {
    /// `e` naming the original tool instead of its wire name.
    pub(crate) fn original_error(&self, mut e: RenderError) -> RenderError {
        if let Some(original) = self.originals.get(&e.tool) {
            let old = format!("tool `{}`", e.tool);
            if let Some(rest) = e.message.strip_prefix(&old) {
                e.message = format!("tool `{original}`{rest}");
            }
            e.tool = original.clone();
        }
        e
    }
}

/// Renames what `rules` refuses, on clones; tools with nothing to rename are borrowed.
pub(crate) fn plan<'a>(tools: &[&'a ToolDescriptor], rules: &NameRules) -> Plan<'a> {
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    let wire_names = match &rules.tool {
        Some(rule) => safe_names(&names, rule),
        None => names.iter().map(|n| Cow::Borrowed(*n)).collect(),
    };
    let mut map = NameMap { property: rules.property, ..NameMap::default() };
    let mut renamed_tools = Vec::with_capacity(tools.len());
    let mut all_changes = Vec::with_capacity(tools.len());
    for (tool, wire) in tools.iter().zip(wire_names) {
        let mut changes = Vec::new();
        let mut renamed: Cow<'a, ToolDescriptor> = Cow::Borrowed(*tool);
        let original = tool.name.as_str();
        if wire != original {
            // Only a name the rule refuses is renamed.
            let why = rules.tool.as_ref().and_then(|r| r.check(original).err()).unwrap_or_default();
            // A safe name is made of bytes the rule allows and `ToolName` holds; should a
            // custom rule allow others, the tool keeps its name and the renderer says why.
            if let Ok(name) = ToolName::parse_wide(wire.clone().into_owned()) {
                changes.push(rename_change(
                    original,
                    JsonPointer::from_segments(["name"]),
                    "",
                    format!(
                        "tool name `{original}` sent as `{wire}`: {why}; the name map gives the model's calls back under `{original}`"
                    ),
                ));
                renamed.to_mut().name = name;
                map.originals.insert(wire.to_string(), original.to_owned());
            }
        }
        let mut kept = None;
        if let Some(rule) = &rules.property
            && holds_refused_property(tool, rule)
        {
            let mut d = (**tool).clone();
            let mut ren =
                Renamer { rule, tool: original, changes: &mut changes, path: String::new() };
            let mut any = ren.params(d.params.to_mut(), 0);
            for def in d.definitions.to_mut() {
                let mark = ren.enter(&format!("$defs.{}", def.name));
                any |= ren.schema(&mut def.schema, 0);
                ren.path.truncate(mark);
            }
            if let Some(output) = &mut d.output {
                let mark = ren.enter("$output");
                any |= ren.schema(output.make_mut(), 0);
                ren.path.truncate(mark);
            }
            if any {
                d.name = renamed.name.clone();
                renamed = Cow::Owned(d);
                kept = Some(Box::new((**tool).clone()));
            }
        }
        let wire = renamed.name.to_string();
        let renamed_kept = kept.as_ref().map(|_| Box::new(renamed.clone().into_owned()));
        map.tools.insert(
            original.to_owned(),
            MappedTool { wire, original: kept, renamed: renamed_kept },
        );
        renamed_tools.push(renamed);
        all_changes.push(changes);
    }
    Plan { tools: renamed_tools, changes: all_changes, names: map }
}

/// Whether a property name anywhere in the tool's schemas breaks `rule`.
fn holds_refused_property(tool: &ToolDescriptor, rule: &NameRule) -> bool {
    tool.params.iter().any(|p| needs_walk(&p.schema, rule, &p.name, 0))
        || tool.definitions.iter().any(|d| needs_walk(&d.schema, rule, "", 0))
        || tool.output.as_ref().is_some_and(|o| needs_walk(o, rule, "", 0))
}

fn rename_change(tool: &str, pointer: JsonPointer, param: &str, detail: String) -> Change {
    Change {
        tool: tool.to_owned(),
        ..Change::lossless(ChangeKind::Rewritten, "name").at(pointer).param(param).detail(detail)
    }
}

/// Renames property names in a descriptor's schemas, recording each rename.
struct Renamer<'r> {
    rule: &'r NameRule,
    tool: &'r str,
    changes: &'r mut Vec<Change>,
    /// Dotted IR path of the object being renamed.
    path: String,
}

impl Renamer<'_> {
    fn enter(&mut self, segment: &str) -> usize {
        let mark = self.path.len();
        if !self.path.is_empty() && !segment.starts_with('[') {
            self.path.push('.');
        }
        self.path.push_str(segment);
        mark
    }

    /// Renames the properties of one object and below; whether anything was renamed.
    fn params(&mut self, params: &mut [Param], depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        let names: Vec<&str> = params.iter().map(|p| &*p.name).collect();
        let safe: Vec<String> =
            safe_names(&names, self.rule).into_iter().map(Cow::into_owned).collect();
        let mut any = false;
        for (p, wire) in params.iter_mut().zip(safe) {
            if wire != *p.name {
                // Only a name the rule refuses is renamed.
                let why = self.rule.check(&p.name).err().unwrap_or_default();
                let mark = self.enter(&p.name);
                let detail = format!(
                    "property `{}` sent as `{wire}`: {why}; the name map gives the model's arguments back under `{}`",
                    p.name, p.name
                );
                self.changes.push(rename_change(
                    self.tool,
                    JsonPointer::root(),
                    &self.path,
                    detail,
                ));
                self.path.truncate(mark);
                p.name = Cow::Owned(wire);
                any = true;
            }
            let mark = self.enter(&p.name);
            any |= self.schema(&mut p.schema, depth + 1);
            self.path.truncate(mark);
        }
        any
    }

    fn schema(&mut self, schema: &mut Schema, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        match &mut schema.kind {
            SchemaKind::Object(o) => {
                let mut any = false;
                if o.properties.iter().any(|p| needs_walk(&p.schema, self.rule, &p.name, 0)) {
                    any |= self.params(o.properties.to_mut(), depth + 1);
                }
                if let Additional::Typed(values) = &mut o.additional
                    && needs_walk(values, self.rule, "", 0)
                {
                    any |= self.schema(values.make_mut(), depth + 1);
                }
                any
            }
            SchemaKind::List(l) if needs_walk(&l.items, self.rule, "", 0) => {
                let mark = self.enter("[]");
                let any = self.schema(l.items.make_mut(), depth + 1);
                self.path.truncate(mark);
                any
            }
            SchemaKind::AnyOf(a) if a.variants.iter().any(|v| needs_walk(v, self.rule, "", 0)) => {
                let mut any = false;
                for v in a.variants.to_mut() {
                    any |= self.schema(v, depth + 1);
                }
                any
            }
            _ => false,
        }
    }
}

/// Whether `schema` (reached by a property `name`, or `""`) holds a name `rule` refuses; only
/// then is it cloned and walked.
fn needs_walk(schema: &Schema, rule: &NameRule, name: &str, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    if !name.is_empty() && rule.check(name).is_err() {
        return true;
    }
    match &schema.kind {
        SchemaKind::Object(o) => {
            o.properties.iter().any(|p| needs_walk(&p.schema, rule, &p.name, depth + 1))
                || matches!(&o.additional, Additional::Typed(v) if needs_walk(v, rule, "", depth + 1))
        }
        SchemaKind::List(l) => needs_walk(&l.items, rule, "", depth + 1),
        SchemaKind::AnyOf(a) => a.variants.iter().any(|v| needs_walk(v, rule, "", depth + 1)),
        _ => false,
    }
}

/// Renames argument (or result) keys by walking the original schema.
struct Walk<'w> {
    defs: &'w [Definition],
    rule: &'w NameRule,
    /// Original to wire (a result) rather than wire to original (a call).
    to_wire: bool,
}

impl Walk<'_> {
    fn value(&self, value: &mut Value, schema: &Schema, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        match &schema.kind {
            SchemaKind::Object(o) => self.object(value, &o.properties, &o.additional, depth),
            SchemaKind::List(l) => {
                if let Value::Array(items) = value {
                    for item in items {
                        self.value(item, &l.items, depth + 1);
                    }
                }
            }
            SchemaKind::AnyOf(a) => {
                let keys: Vec<String> = match value {
                    Value::Object(m) => m.keys().cloned().collect(),
                    _ => Vec::new(),
                };
                // Whose properties cover the value's keys; else (`maps`), whose properties and
                // other keys it takes do.
                let fits = |v: &Schema, maps: bool| match &self.resolve(v).kind {
                    SchemaKind::Object(o) => {
                        let names: Vec<&str> = o.properties.iter().map(|p| &*p.name).collect();
                        let ours = self.side(&names);
                        let others = maps && !matches!(o.additional, Additional::Closed);
                        keys.iter().all(|k| others || ours.iter().any(|n| n == k))
                    }
                    _ => false,
                };
                let chosen = if value.is_object() {
                    a.variants
                        .iter()
                        .find(|v| fits(v, false))
                        .or_else(|| a.variants.iter().find(|v| fits(v, true)))
                } else {
                    a.variants
                        .iter()
                        .find(|v| !matches!(self.resolve(v).kind, SchemaKind::Object(_)))
                };
                if let Some(v) = chosen {
                    self.value(value, v, depth + 1);
                }
            }
            SchemaKind::Ref(r) => {
                if let Some(def) = self.defs.iter().find(|d| d.name == r.name) {
                    self.value(value, &def.schema, depth + 1);
                }
            }
            _ => {}
        }
    }

    /// A reference's target (one step), else the schema itself.
    fn resolve<'s>(&'s self, schema: &'s Schema) -> &'s Schema {
        match &schema.kind {
            SchemaKind::Ref(r) => {
                self.defs.iter().find(|d| d.name == r.name).map_or(schema, |d| &d.schema)
            }
            _ => schema,
        }
    }

    /// The names a value of this walk carries for the properties `names`: the wire names for
    /// a call, the originals for a result.
    fn side(&self, names: &[&str]) -> Vec<String> {
        if self.to_wire {
            names.iter().map(|n| (*n).to_owned()).collect()
        } else {
            safe_names(names, self.rule).into_iter().map(Cow::into_owned).collect()
        }
    }

    fn object(&self, value: &mut Value, params: &[Param], additional: &Additional, depth: usize) {
        let Value::Object(map) = value else { return };
        if depth > MAX_DEPTH {
            return;
        }
        let names: Vec<&str> = params.iter().map(|p| &*p.name).collect();
        let safe = safe_names(&names, self.rule);
        let renamed = safe.iter().zip(&names).any(|(s, n)| s != n);
        let old = std::mem::take(map);
        for (key, mut v) in old {
            let at = if self.to_wire {
                names.iter().position(|n| *n == key)
            } else {
                safe.iter().position(|s| *s == key)
            };
            let key = match at {
                Some(i) => {
                    self.value(&mut v, &params[i].schema, depth + 1);
                    match (renamed, self.to_wire) {
                        (false, _) => key,
                        (true, true) => safe[i].clone().into_owned(),
                        (true, false) => names[i].to_owned(),
                    }
                }
                None => {
                    if let Additional::Typed(values) = additional {
                        self.value(&mut v, values, depth + 1);
                    }
                    key
                }
            };
            map.insert(key, v);
        }
    }
}

/// The safe names of one namespace, in order (see the module docs).
pub(crate) fn safe_names<'n>(names: &[&'n str], rule: &NameRule) -> Vec<Cow<'n, str>> {
    let mut taken: HashSet<String> =
        names.iter().filter(|n| rule.check(n).is_ok()).map(|n| (*n).to_owned()).collect();
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        if rule.check(name).is_ok() {
            out.push(Cow::Borrowed(*name));
            continue;
        }
        let (mut safe, cut) = sanitize(name, rule);
        if cut || taken.contains(&safe) {
            safe = with_suffix(&safe, &format!("{}{:08x}", fill(rule) as char, hash(name)), rule);
        }
        let mut n = 2u32;
        while taken.contains(&safe) {
            safe = with_suffix(&safe, &format!("{}{n}", fill(rule) as char), rule);
            n += 1;
        }
        taken.insert(safe.clone());
        out.push(Cow::Owned(safe));
    }
    out
}

/// The byte that replaces a refused character: `_`, else `-`, else `x`.
fn fill(rule: &NameRule) -> u8 {
    [b'_', b'-', b'x'].into_iter().find(|b| (rule.allowed)(*b)).unwrap_or(b'x')
}

/// `name` with refused characters replaced, a valid first byte, cut to the rule's length
/// (the flag says whether it was cut).
fn sanitize(name: &str, rule: &NameRule) -> (String, bool) {
    let fill = fill(rule);
    let mut out = String::with_capacity(name.len() + 1);
    match name.bytes().next() {
        Some(b) if (rule.first)(b) => {}
        _ => {
            let lead = [b'_', b'x'].into_iter().find(|b| (rule.first)(*b)).unwrap_or(b'x');
            out.push(lead as char);
        }
    }
    for c in name.chars() {
        if c.is_ascii() && (rule.allowed)(c as u8) {
            out.push(c);
        } else {
            out.push(fill as char);
        }
    }
    let max = rule.max_len.clamp(1, ToolName::MAX_LEN);
    let cut = out.len() > max;
    out.truncate(max);
    (out, cut)
}

/// `base` cut so that `suffix` fits the rule's length, then `suffix`.
fn with_suffix(base: &str, suffix: &str, rule: &NameRule) -> String {
    let max = rule.max_len.min(ToolName::MAX_LEN);
    let keep = max.saturating_sub(suffix.len()).min(base.len());
    let mut out = String::with_capacity(max);
    out.push_str(&base[..keep]);
    out.push_str(suffix);
    out.truncate(max);
    out
}

/// FNV-1a of `name`, folded to 32 bits: stable across runs, platforms and versions.
fn hash(name: &str) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h ^ (h >> 32)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_names_are_kept_sanitized_and_never_collide() {
        let names = ["weather.get", "weather_get", "ok", "1password", "a/b"];
        let safe = safe_names(&names, &NameRule::COMMON_64);
        assert_eq!(safe[1], "weather_get");
        assert_eq!(safe[2], "ok");
        assert_eq!(safe[3], "1password");
        assert_eq!(safe[4], "a_b");
        // `weather_get` is taken by a name that needed no change: the dotted one gets a hash.
        assert_eq!(safe[0], format!("weather_get_{:08x}", hash("weather.get")));
        for s in &safe {
            assert!(NameRule::COMMON_64.check(s).is_ok(), "{s}");
        }
    }

    #[test]
    fn long_names_are_cut_with_a_hash_and_stay_distinct() {
        let a = format!("{}.a", "x".repeat(80));
        let b = format!("{}.b", "x".repeat(80));
        let safe = safe_names(&[&a, &b], &NameRule::COMMON_64);
        assert_eq!(safe[0].len(), 64);
        assert_eq!(safe[1].len(), 64);
        assert_ne!(safe[0], safe[1]);
    }
}

#[cfg(test)]
mod props {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whatever the names, the safe ones keep the rule, are distinct, keep every name the
        /// rule accepts, and do not depend on anything but the names.
        #[test]
        fn safe_names_keep_the_rule_and_never_collide(
            names in proptest::collection::btree_set("[a-zA-Z0-9_.:/ -]{0,80}", 1..12)
        ) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            for rule in [NameRule::COMMON_64, NameRule::COMMON_128] {
                let safe = safe_names(&names, &rule);
                let distinct: HashSet<&str> = safe.iter().map(|s| &**s).collect();
                prop_assert_eq!(distinct.len(), names.len());
                for (name, s) in names.iter().zip(&safe) {
                    prop_assert!(rule.check(s).is_ok(), "{s:?}");
                    if rule.check(name).is_ok() {
                        prop_assert_eq!(&**s, *name);
                    }
                }
                prop_assert_eq!(safe_names(&names, &rule), safe);
            }
        }
    }
}
