//! Every semantic rule the macros can decide from syntax alone, run on the IR before any code
//! is generated. Rules that need the parameter's type (is it a string? does the default fit
//! `u8`?) are left to the compiler through traits and `const` checks in the expansion.

use proc_macro2::Span;
use syn::{FnArg, Type};

use crate::ast::{Container, Data, ParamIr, Style, ToolIr};
use crate::attr::{Ctxt, SpannedValue, Value};
use crate::number_bounds::{Bounds, Broken};
use crate::tool_name_words as words;

/// The tool name rule every provider accepts: `^[a-zA-Z0-9_-]{1,64}$`, in `tooldef`'s words.
pub(crate) fn tool_name(cx: &Ctxt, name: &str, span: Span) {
    const PATTERN: &str = "^[a-zA-Z0-9_-]{1,64}$";
    const MAX_LEN: usize = 64;
    const CHARACTERS: &str = "a-z, A-Z, 0-9, `_` and `-`";
    if name.is_empty() {
        cx.error_at(span, words::empty(PATTERN));
    } else if name.len() > MAX_LEN {
        cx.error_at(span, words::too_long(name, name.len(), MAX_LEN));
    } else if let Some((at, ch)) =
        name.char_indices().find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        cx.error_at(span, words::bad_char(name, ch, at, CHARACTERS));
    }
}

/// Checks a whole tool.
pub(crate) fn tool(cx: &Ctxt, ir: &ToolIr<'_>, in_tools: bool) {
    tool_name(cx, &ir.name, ir.name_span);
    if let Some(f) = &ir.func {
        signature(cx, f.sig, f.receiver, in_tools);
    }
    for (i, p) in ir.params.iter().enumerate() {
        if ir.params[..i].iter().any(|q| q.wire == p.wire) {
            cx.error_at(p.wire_span, format!("duplicate parameter name `{}`", p.wire));
        }
        param(cx, p, ir.func.is_none());
    }
}

fn signature(cx: &Ctxt, sig: &syn::Signature, receiver: Option<&syn::Receiver>, in_tools: bool) {
    if !sig.generics.params.is_empty() {
        cx.error(
            &sig.generics,
            "a tool cannot be generic: its parameters must have concrete types",
        );
    }
    if let Some(v) = &sig.variadic {
        cx.error(v, "a tool cannot be variadic");
    }
    if let Some(c) = &sig.constness {
        cx.error(c, "a tool cannot be a `const fn`");
    }
    if let syn::Safety::Unsafe(u) = &sig.safety {
        cx.error(u, "a tool cannot be an `unsafe fn`");
    }
    match (receiver, in_tools) {
        (Some(r), false) => cx.error(r, "a `self` receiver needs `#[tools]` on the `impl` block"),
        (Some(r), true) if !matches!(r.kind, syn::ReceiverKind::Reference(_, _, None)) => {
            cx.error(r, "a tool method takes `&self`; state shared by tools lives behind `&self`");
        }
        (None, true) => cx.error(&sig.ident, "a tool method under `#[tools]` takes `&self`"),
        _ => {}
    }
    for arg in &sig.inputs {
        if let FnArg::Typed(pt) = arg
            && crate::ast::context_type(&pt.ty).is_none()
        {
            param_type(cx, &pt.ty);
        }
    }
}

fn param_type(cx: &Ctxt, ty: &Type) {
    match ty {
        Type::ImplTrait(t) => {
            cx.error(t, "a tool parameter cannot be `impl Trait`: its type must be concrete");
        }
        Type::Reference(r) => {
            cx.error(r, "a tool parameter must be owned, since arguments are decoded from JSON (use `String` for `&str`)");
        }
        Type::Paren(p) => param_type(cx, &p.elem),
        Type::Group(g) => param_type(cx, &g.elem),
        _ => {}
    }
}

fn param(cx: &Ctxt, p: &ParamIr<'_>, derived: bool) {
    let a = &p.attrs;
    if p.wire.is_empty() {
        cx.error_at(p.wire_span, "a parameter name cannot be empty");
    }
    if derived
        && let Some(span) = a.default.span()
        && !p.serde_default
    {
        cx.error_at(
            span,
            "`default` on a `#[derive(Tool)]` field needs `#[serde(default = ...)]` too, since serde fills absent fields",
        );
    }
    let (min, max) = numeric_bounds(cx, p);
    let len = length_bounds(cx, p);
    text_keys(cx, p);
    let keys = ValueKeys { min: &min, max: &max, len };
    if let Some(d) = a.default.get() {
        value_fits(cx, p, &keys, d, "default");
    }
    for e in a.examples.get().into_iter().flatten() {
        value_fits(cx, p, &keys, e, "example");
    }
}

/// The numeric bounds of a parameter, checked: `range`, or `min`/`max`, not both.
fn numeric_bounds(cx: &Ctxt, p: &ParamIr<'_>) -> (Option<SpannedValue>, Option<SpannedValue>) {
    let a = &p.attrs;
    let (mut min, mut max) = (a.min.get().cloned(), a.max.get().cloned());
    if let Some(r) = a.range.get() {
        for (k, s) in [("min", a.min.span()), ("max", a.max.span())] {
            if let Some(s) = s {
                cx.error_at(s, format!("`{k}` conflicts with `range`; give one or the other"));
            }
        }
        min = r.min.clone();
        max = r.max.clone();
    }
    for v in [&min, &max].into_iter().flatten() {
        if v.value.as_f64().is_none() {
            cx.error_at(v.span, format!("a bound must be a number, not {}", v.value.kind()));
        }
    }
    if let (Some(lo), Some(hi)) = (&min, &max)
        && let (Some(l), Some(h)) = (lo.value.as_f64(), hi.value.as_f64())
        && l > h
    {
        cx.error_at(
            lo.span,
            format!("the minimum {} is above the maximum {}", show(&lo.value), show(&hi.value)),
        );
    }
    (min, max)
}

/// The `length` bounds of a parameter, checked: non-negative integers, min <= max.
fn length_bounds(cx: &Ctxt, p: &ParamIr<'_>) -> (Option<i128>, Option<i128>) {
    let a = &p.attrs;
    let mut len = (None, None);
    if let Some(b) = a.length.get() {
        for (slot, v) in [(&mut len.0, &b.min), (&mut len.1, &b.max)] {
            if let Some(v) = v {
                match v.value {
                    Value::Int(i) if i >= 0 => *slot = Some(i),
                    _ => cx.error_at(v.span, "a length must be a non-negative integer"),
                }
            }
        }
        if let (Some(l), Some(h)) = len
            && l > h
        {
            cx.error_at(
                b.min.as_ref().map_or(p.wire_span, |v| v.span),
                format!("the minimum length {l} is above the maximum length {h}"),
            );
        }
    }
    len
}

/// `pattern` (it compiles) and `one_of` (values, none twice).
fn text_keys(cx: &Ctxt, p: &ParamIr<'_>) {
    let a = &p.attrs;
    if let Some(pat) = a.pattern.get() {
        let source = pat.value();
        if source.is_empty() {
            cx.error(pat, "`pattern` cannot be empty");
        } else if let Err(reason) = crate::ecma::compile(&source) {
            // The words of `tooldef::arg_checks::PatternError`, which dispatch would give every value.
            cx.error(pat, format!("pattern {source:?} cannot be enforced: {reason}"));
        }
    }
    if let Some(values) = a.one_of.get() {
        if values.is_empty() {
            cx.error_at(
                a.one_of.span().unwrap_or(p.wire_span),
                "`one_of` needs at least one value",
            );
        }
        // The empty string is a value like any other (as for the builder and import).
        for (i, (span, v)) in values.iter().enumerate() {
            if values[..i].iter().any(|(_, w)| w == v) {
                cx.error_at(*span, format!("duplicate value `{v}` in `one_of`"));
            }
        }
    }
}

/// What a default or an example is checked against: the parameter's bounds.
struct ValueKeys<'a> {
    min: &'a Option<SpannedValue>,
    max: &'a Option<SpannedValue>,
    len: (Option<i128>, Option<i128>),
}

/// Whether a default or an example (`what`) keeps the parameter's `one_of`, bounds and length.
fn value_fits(cx: &Ctxt, p: &ParamIr<'_>, keys: &ValueKeys<'_>, v: &SpannedValue, what: &str) {
    let (a, min, max, len) = (&p.attrs, keys.min, keys.max, keys.len);
    let what = format!("{what} {} of parameter `{}`", show(&v.value), p.wire);
    if let Some(values) = a.one_of.get() {
        match &v.value {
            Value::Str(s) if !values.iter().any(|(_, w)| w == s) => cx.error_at(
                v.span,
                format!(
                    "the {what} is not one of {}",
                    values.iter().map(|(_, w)| format!("\"{w}\"")).collect::<Vec<_>>().join(", ")
                ),
            ),
            Value::Str(_) => {}
            other => cx.error_at(
                v.span,
                format!("the {what} is {}, but `one_of` takes strings", other.kind()),
            ),
        }
    }
    if min.is_some() || max.is_some() {
        match v.value.as_f64() {
            None => cx.error_at(
                v.span,
                format!("the {what} is {}, but the parameter has numeric bounds", v.value.kind()),
            ),
            Some(x) => {
                let as_f64 = |b: &Option<SpannedValue>| b.as_ref().and_then(|b| b.value.as_f64());
                // Each bound on its own: a minimum above the maximum (reported above) can
                // leave a value below the one and above the other.
                let lo = Bounds::inclusive(as_f64(min), None).float_inclusive(x);
                let hi = Bounds::inclusive(None, as_f64(max)).float_inclusive(x);
                for (broken, bound) in [(lo, min), (hi, max)] {
                    if let (Some(broken), Some(bound)) = (broken, bound) {
                        let words = match broken {
                            Broken::Minimum(_) => "below the minimum",
                            _ => "above the maximum",
                        };
                        cx.error_at(
                            v.span,
                            format!("the {what} is {words} {}", show(&bound.value)),
                        );
                    }
                }
            }
        }
    }
    if let Value::Str(s) = &v.value {
        let n = s.chars().count() as i128;
        if len.0.is_some_and(|l| n < l) || len.1.is_some_and(|h| n > h) {
            cx.error_at(v.span, format!("the {what} has {n} characters, outside `length`"));
        }
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::Str(s) => format!("\"{s}\""),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Bool(b) => b.to_string(),
    }
}

/// Checks a `#[derive(ToolSchema)]` input.
pub(crate) fn container(cx: &Ctxt, c: &Container<'_>) {
    let s = &c.serde;
    if s.content.is_some() && s.tag.is_none() {
        cx.error(c.ident, "`#[serde(content)]` needs `#[serde(tag)]` too");
    }
    match &c.data {
        Data::Struct(style, fields) => {
            if s.tag.is_some() || s.untagged {
                cx.error(c.ident, "`tag` and `untagged` apply only to enums");
            }
            let live = fields.iter().filter(|f| !f.serde.skip_de).count();
            if s.transparent && live != 1 {
                cx.error(
                    c.ident,
                    "`#[serde(transparent)]` needs exactly one field that is not skipped",
                );
            }
            if *style == Style::Tuple && fields.len() > 1 && !s.transparent {
                cx.error(
                    c.ident,
                    "tuple structs with several fields have no tool schema; use named fields",
                );
            }
            if s.deny_unknown_fields && fields.iter().any(|f| f.serde.flatten) {
                cx.error(
                    c.ident,
                    "serde does not support `deny_unknown_fields` together with `flatten`",
                );
            }
            if *style == Style::Named {
                duplicates(
                    cx,
                    fields
                        .iter()
                        .filter(|f| !f.serde.skip_de && !f.serde.flatten)
                        .map(|f| (f.wire(s.rename_all), f.span())),
                );
            }
        }
        Data::Enum(variants) => {
            if variants.iter().all(|v| v.serde.skip_de) {
                cx.error(
                    c.ident,
                    "an enum needs at least one variant that is not skipped to have a tool schema",
                );
            }
            for v in variants.iter().filter(|v| !v.serde.skip_de) {
                if v.style == Style::Tuple && v.fields.len() != 1 {
                    cx.error(
                        v.ident,
                        "tuple variants with several fields have no tool schema; use named fields",
                    );
                }
                if s.tag.is_some() && s.content.is_none() && v.style == Style::Tuple {
                    // Internally tagged newtype variants must hold an object; serde checks at run
                    // time, the schema merges the inner object's properties.
                }
                let rule = v.serde.rename_all.or(s.rename_all_fields);
                duplicates(
                    cx,
                    v.fields
                        .iter()
                        .filter(|f| !f.serde.skip_de && !f.serde.flatten)
                        .map(|f| (f.wire(rule), f.span())),
                );
            }
            let names: Vec<_> = variants
                .iter()
                .filter(|v| !v.serde.skip_de)
                .map(|v| (v.wire(c), v.ident.span()))
                .collect();
            duplicates(cx, names.into_iter());
        }
    }
}

fn duplicates(cx: &Ctxt, names: impl Iterator<Item = (String, Span)>) {
    let mut seen: Vec<String> = Vec::new();
    for (name, span) in names {
        if seen.contains(&name) {
            cx.error_at(span, format!("duplicate name `{name}` after serde renames"));
        } else {
            seen.push(name);
        }
    }
}
