//! Checks shared by the renderers' tests: the "nothing dropped without a report entry"
//! check, strict/lenient agreement and determinism.

use serde_json::Value;
use tooldef::render::{LossPolicy, RenderRule, Rendered, Renderer};
use tooldef::{JsonPointer, Param, Schema, SchemaKind, ToolDescriptor};

/// Lossless renderings are identical under both policies; a lossy one is a `Lossy` error under
/// the `Refuse` policy.
#[track_caller]
pub fn strict_agrees<R: Renderer>(renderer: &R, tool: &ToolDescriptor) {
    let lenient = renderer.render(tool, LossPolicy::Allow);
    let strict = renderer.render(tool, LossPolicy::Refuse);
    match (&lenient, &strict) {
        (Ok(l), Ok(s)) => {
            assert!(l.report().is_lossless(), "`{}`: strict accepted a lossy rendering", tool.name);
            assert_eq!(
                l.json(),
                s.json(),
                "`{}`: policies disagree on a lossless rendering",
                tool.name
            );
        }
        (Ok(l), Err(e)) => {
            assert!(
                !l.report().is_lossless(),
                "`{}`: strict failed a lossless rendering: {e}",
                tool.name
            );
            assert_eq!(e.rule, RenderRule::Lossy, "`{}`: {e}", tool.name);
        }
        (Err(l), Err(s)) => assert_eq!(l.rule, s.rule, "`{}`", tool.name),
        (Err(l), Ok(_)) => panic!("`{}`: strict accepted what lenient refused: {l}", tool.name),
    }
}

/// Rendering twice gives the same bytes and report.
#[track_caller]
pub fn deterministic<R: Renderer>(renderer: &R, tool: &ToolDescriptor) {
    let a = renderer.render(tool, LossPolicy::Allow);
    let b = renderer.render(&tool.clone(), LossPolicy::Allow);
    match (a, b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.json(), b.json());
            assert_eq!(a.report(), b.report());
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        _ => panic!("`{}`: renderings disagree", tool.name),
    }
}

/// One IR keyword at one parameter: (dotted param path, JSON pointer below the root schema,
/// keyword).
pub type Fact = (String, String, &'static str);

/// The keywords the IR states for the tool's parameters (top level and nested objects and list
/// items, not through unions or references), with where they would be written.
pub fn facts(tool: &ToolDescriptor) -> Vec<Fact> {
    let mut out = Vec::new();
    for p in tool.params.iter() {
        param_facts(p, "", &JsonPointer::root(), &mut out);
    }
    out
}

fn param_facts(p: &Param, path: &str, ptr: &JsonPointer, out: &mut Vec<Fact>) {
    let path = if path.is_empty() { p.name.to_string() } else { format!("{path}.{}", p.name) };
    let ptr = ptr.child("properties").child(&p.name);
    schema_facts(&p.schema, &path, &ptr, out);
}

fn schema_facts(s: &Schema, path: &str, ptr: &JsonPointer, out: &mut Vec<Fact>) {
    let mut add = |k: &'static str| out.push((path.to_owned(), ptr.to_string(), k));
    if s.default.is_some() {
        add("default");
    }
    if s.title.is_some() {
        add("title");
    }
    if !s.examples.is_empty() {
        add("examples");
    }
    match &s.kind {
        SchemaKind::String(st) => {
            if st.format.is_some() {
                add("format");
            }
            if st.pattern.is_some() {
                add("pattern");
            }
            if st.min_length.is_some() {
                add("minLength");
            }
            if st.max_length.is_some() {
                add("maxLength");
            }
        }
        SchemaKind::Integer(n) => number_facts(
            [
                n.minimum.is_some(),
                n.maximum.is_some(),
                n.exclusive_minimum.is_some(),
                n.exclusive_maximum.is_some(),
                n.multiple_of.is_some(),
            ],
            &mut add,
        ),
        SchemaKind::Float(n) => number_facts(
            [
                n.minimum.is_some(),
                n.maximum.is_some(),
                n.exclusive_minimum.is_some(),
                n.exclusive_maximum.is_some(),
                n.multiple_of.is_some(),
            ],
            &mut add,
        ),
        SchemaKind::List(l) => {
            if l.min_items.is_some() {
                add("minItems");
            }
            if l.max_items.is_some() {
                add("maxItems");
            }
            if l.unique {
                add("uniqueItems");
            }
            schema_facts(&l.items, &format!("{path}[]"), &ptr.child("items"), out);
        }
        SchemaKind::Object(o) => {
            for p in o.properties.iter() {
                param_facts(p, path, ptr, out);
            }
        }
        _ => {}
    }
}

fn number_facts(present: [bool; 5], add: &mut impl FnMut(&'static str)) {
    let names = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];
    for (has, k) in present.into_iter().zip(names) {
        if has {
            add(k);
        }
    }
}

/// Checks that every IR keyword of the tool's parameters is either written at its place in
/// `schema` (the rendered root parameter schema) or named by a report entry for that parameter.
#[track_caller]
pub fn nothing_dropped_silently(tool: &ToolDescriptor, rendered: &Rendered, schema: &Value) {
    for (path, ptr, keyword) in facts(tool) {
        let node = schema.pointer(&ptr);
        let written = node.is_some_and(|n| {
            n.get(keyword).is_some()
                || n.get("anyOf")
                    .and_then(Value::as_array)
                    .is_some_and(|vs| vs.iter().any(|v| v.get(keyword).is_some()))
        });
        // `examples` may be spelled `example` (OpenAPI).
        let written =
            written || (keyword == "examples" && node.is_some_and(|n| n.get("example").is_some()));
        let reported = rendered.report().iter().any(|c| {
            c.keyword == keyword && (c.param == path || path.starts_with(&format!("{}.", c.param)))
        });
        assert!(
            written || reported,
            "`{}`: `{keyword}` of `{path}` is neither written at {ptr} nor reported",
            tool.name
        );
    }
}
